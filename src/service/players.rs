//! `mancala.v1.Players`: player tokens for a tenant's end users (`crate::identity::tokens`).

use super::auth::caller;
use crate::api::{error, pb};
use crate::identity::{Caller, Identity};
use std::time::Duration;
use tonic::{Request, Response, Status};

/// The Players service.
#[derive(Debug, Clone)]
pub struct PlayersService {
    identity: Identity,
}

impl PlayersService {
    /// A service issuing `identity`'s tokens.
    pub fn new(identity: Identity) -> PlayersService {
        PlayersService { identity }
    }

    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::players_server::PlayersServer<Self> {
        pb::players_server::PlayersServer::new(self)
    }
}

#[tonic::async_trait]
impl pb::players_server::Players for PlayersService {
    async fn issue_player_token(
        &self,
        request: Request<pb::IssuePlayerTokenRequest>,
    ) -> Result<Response<pb::IssuePlayerTokenResponse>, Status> {
        // Only the tenant's own backend, holding its key, vouches for its players.
        let Caller::Tenant { tenant, key_id } = caller(&request)? else {
            return Err(Status::permission_denied(
                "player tokens are issued to a tenant's API key only (not to a player token, a seat token or an anonymous caller)",
            ));
        };
        let request = request.into_inner();
        let ttl =
            (request.ttl_seconds > 0).then(|| Duration::from_secs(request.ttl_seconds.into()));
        let (token, expires_at) = self
            .identity
            .issue_token(&tenant, &key_id, &request.player_id, ttl)
            .map_err(error::admin_error)?;
        Ok(Response::new(pb::IssuePlayerTokenResponse {
            token,
            expires_at,
        }))
    }
}
