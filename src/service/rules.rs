//! `mancala.v1.Rules`: the stateless rules service. (Being written; every call answers UNIMPLEMENTED for now.)
use crate::api::pb;
use tonic::{Request, Response, Status};

/// The stateless rules service.
#[derive(Debug, Clone, Default)]
pub struct RulesService;

impl RulesService {
    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::rules_server::RulesServer<Self> {
        pb::rules_server::RulesServer::new(self)
    }
}

#[tonic::async_trait]
impl pb::rules_server::Rules for RulesService {
    async fn new_game(&self, _: Request<pb::NewGameRequest>) -> Result<Response<pb::NewGameResponse>, Status> {
        Err(Status::unimplemented("not yet"))
    }
    async fn list_legal_moves(&self, _: Request<pb::ListLegalMovesRequest>) -> Result<Response<pb::ListLegalMovesResponse>, Status> {
        Err(Status::unimplemented("not yet"))
    }
    async fn validate_move(&self, _: Request<pb::ValidateMoveRequest>) -> Result<Response<pb::ValidateMoveResponse>, Status> {
        Err(Status::unimplemented("not yet"))
    }
    async fn apply_move(&self, _: Request<pb::ApplyMoveRequest>) -> Result<Response<pb::ApplyMoveResponse>, Status> {
        Err(Status::unimplemented("not yet"))
    }
    async fn describe_game(&self, _: Request<pb::DescribeGameRequest>) -> Result<Response<pb::DescribeGameResponse>, Status> {
        Err(Status::unimplemented("not yet"))
    }
}
