//! `mancala.v1.Diagnostics`: calls that do no game work. `Echo` is the baseline of the load generator: the same
//! server, transport and codec as a rules call, with nothing in the handler, so a report can say what the
//! rules add.

use crate::api::{error, pb};
use crate::engine::Violation;
use tonic::{Request, Response, Status};

/// The byte an answer larger than its request is filled with.
const FILLER: u8 = 0x5a;

/// The largest answer `Echo` makes on request, whatever the message limit: far above any rules answer the load
/// generator mirrors (a few KiB), and small enough that a few bytes of request cannot make the server send
/// megabytes.
pub const MAX_RESIZED_ANSWER_BYTES: usize = 64 * 1024;

/// The diagnostics service.
#[derive(Debug, Clone)]
pub struct DiagnosticsService {
    /// The largest encoded answer `Echo` makes on request.
    max_answer_bytes: usize,
    /// Whether `Echo` answers (`server.echo`).
    echo: bool,
}

impl DiagnosticsService {
    /// A service whose resized answers stay within `max_message_bytes` (`server.max_message_bytes`) and
    /// [`MAX_RESIZED_ANSWER_BYTES`].
    pub fn new(max_message_bytes: usize) -> DiagnosticsService {
        DiagnosticsService {
            max_answer_bytes: max_message_bytes.min(MAX_RESIZED_ANSWER_BYTES),
            echo: true,
        }
    }

    /// Switches `Echo` off (`server.echo = false`): every call is UNIMPLEMENTED.
    pub fn without_echo(self) -> DiagnosticsService {
        DiagnosticsService {
            echo: false,
            ..self
        }
    }

    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::diagnostics_server::DiagnosticsServer<Self> {
        pb::diagnostics_server::DiagnosticsServer::new(self)
    }

    /// The answer to `request`, without the transport (the load generator's benches call it in process).
    pub fn answer(&self, request: pb::EchoRequest) -> Result<pb::EchoResponse, Status> {
        if !self.echo {
            return Err(Status::unimplemented(
                "Diagnostics/Echo is switched off on this server (server.echo = false)",
            ));
        }
        let mut payload = request.payload;
        if let Some(size) = request.response_payload_bytes {
            let size = size as usize;
            // The encoded answer: the payload, its length and the field's tag (nothing for an empty payload).
            let encoded = if size == 0 {
                0
            } else {
                1 + prost::encoding::encoded_len_varint(size as u64) + size
            };
            if encoded > self.max_answer_bytes {
                return Err(error::invalid_argument(vec![Violation {
                    field: "response_payload_bytes".into(),
                    description: format!(
                        "an answer of {size} bytes would encode to {encoded}; at most {} are sent (the smaller \
                         of server.max_message_bytes and {MAX_RESIZED_ANSWER_BYTES})",
                        self.max_answer_bytes
                    ),
                }]));
            }
            // The request's own buffer is reused: an answer no larger than the request allocates nothing.
            payload.resize(size, FILLER);
        }
        Ok(pb::EchoResponse { payload })
    }
}

#[tonic::async_trait]
impl pb::diagnostics_server::Diagnostics for DiagnosticsService {
    async fn echo(
        &self,
        request: Request<pb::EchoRequest>,
    ) -> Result<Response<pb::EchoResponse>, Status> {
        self.answer(request.into_inner()).map(Response::new)
    }
}
