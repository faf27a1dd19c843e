//! `mancala.v1.Diagnostics`: calls that do no game work. `Echo` is the baseline of the load generator: the same
//! server, transport and codec as a rules call, with nothing in the handler, so a report can say what the
//! rules add.

use crate::api::pb;
use tonic::{Request, Response, Status};

/// The diagnostics service.
#[derive(Debug, Clone, Default)]
pub struct DiagnosticsService;

impl DiagnosticsService {
    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::diagnostics_server::DiagnosticsServer<Self> {
        pb::diagnostics_server::DiagnosticsServer::new(self)
    }
}

#[tonic::async_trait]
impl pb::diagnostics_server::Diagnostics for DiagnosticsService {
    async fn echo(
        &self,
        request: Request<pb::EchoRequest>,
    ) -> Result<Response<pb::EchoResponse>, Status> {
        Ok(Response::new(pb::EchoResponse {
            payload: request.into_inner().payload,
        }))
    }
}
