//! `mancala.v1.Diagnostics`: calls that do no game work. `Echo` is the baseline of the load generator: the same
//! server, transport and codec as a rules call, with nothing in the handler, so a report can say what the
//! rules add.

use crate::api::{error, pb};
use crate::engine::Violation;
use tonic::{Request, Response, Status};

/// The byte an answer larger than its request is filled with.
const FILLER: u8 = 0x5a;

/// The diagnostics service.
#[derive(Debug, Clone)]
pub struct DiagnosticsService {
    /// The largest answer `Echo` makes on request: the server's message limit.
    max_payload_bytes: usize,
}

impl DiagnosticsService {
    /// A service whose answers stay within `max_payload_bytes` (`server.max_message_bytes`).
    pub fn new(max_payload_bytes: usize) -> DiagnosticsService {
        DiagnosticsService { max_payload_bytes }
    }

    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::diagnostics_server::DiagnosticsServer<Self> {
        pb::diagnostics_server::DiagnosticsServer::new(self)
    }

    /// The answer to `request`, without the transport (the load generator's benches call it in process).
    pub fn answer(&self, request: pb::EchoRequest) -> Result<pb::EchoResponse, Status> {
        let mut payload = request.payload;
        if let Some(size) = request.response_payload_bytes {
            let size = size as usize;
            if size > self.max_payload_bytes {
                return Err(error::invalid_argument(vec![Violation {
                    field: "response_payload_bytes".into(),
                    description: format!(
                        "at most {} bytes (server.max_message_bytes), not {size}",
                        self.max_payload_bytes
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
