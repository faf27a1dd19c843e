//! `mancala.v1.Players`: player tokens for a tenant's end users (`crate::identity::tokens`), and their profiles
//! (kept by the lobby, `crate::lobby`).

use super::auth::caller;
use crate::api::lobby::profile_pb;
use crate::api::matches::Wire;
use crate::api::{error, pb};
use crate::engine::Violation;
use crate::identity::tokens::player_id_problem;
use crate::identity::{Caller, Identity};
use crate::lobby::{BotAccount, Lobby};
use std::time::Duration;
use tonic::{Request, Response, Status};

/// The Players service.
#[derive(Debug, Clone)]
pub struct PlayersService {
    identity: Identity,
    lobby: Lobby<Wire>,
}

impl PlayersService {
    /// A service issuing `identity`'s tokens and keeping profiles in `lobby`.
    pub fn new(identity: Identity, lobby: Lobby<Wire>) -> PlayersService {
        PlayersService { identity, lobby }
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
            expires_at_ms: expires_at.saturating_mul(1000),
        }))
    }

    async fn get_player(
        &self,
        request: Request<pb::GetPlayerRequest>,
    ) -> Result<Response<pb::GetPlayerResponse>, Status> {
        let tenant = tenant_of(&request)?;
        let player = request.into_inner().player_id;
        check_player_id("player_id", &player)?;
        let profile = self
            .lobby
            .profile(&tenant, &player)
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(pb::GetPlayerResponse {
            profile: Some(profile_pb(&profile)),
        }))
    }

    async fn update_player(
        &self,
        request: Request<pb::UpdatePlayerRequest>,
    ) -> Result<Response<pb::UpdatePlayerResponse>, Status> {
        let caller = caller(&request)?;
        let r = request.into_inner();
        let (tenant, player) =
            match caller {
                Caller::Tenant { tenant, .. } => {
                    check_player_id("player_id", &r.player_id)?;
                    (tenant.id().to_string(), r.player_id)
                }
                Caller::Player { tenant, player }
                    if r.player_id.is_empty() || r.player_id == player =>
                {
                    (tenant.id().to_string(), player)
                }
                Caller::Player { player, .. } => {
                    return Err(Status::permission_denied(format!(
                        "a player token sets its own profile only ({player}'s), not {}'s",
                        r.player_id
                    )))
                }
                _ => return Err(Status::permission_denied(
                    "profiles are set with the tenant's API key, or by the player with his token",
                )),
            };
        let bot = r.bot.map(|bot| BotAccount {
            owner: bot.owner,
            description: bot.description,
        });
        let profile = self
            .lobby
            .update_profile(&tenant, &player, r.display_name, bot)
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(pb::UpdatePlayerResponse {
            profile: Some(profile_pb(&profile)),
        }))
    }

    async fn list_players(
        &self,
        request: Request<pb::ListPlayersRequest>,
    ) -> Result<Response<pb::ListPlayersResponse>, Status> {
        let tenant = tenant_of(&request)?;
        let r = request.into_inner();
        let size = match r.page_size as usize {
            // The same page sizes as `ListMatches`.
            0 => crate::matches::DEFAULT_PAGE_SIZE,
            n => n.min(crate::matches::MAX_PAGE_SIZE),
        };
        let (page, more) = self
            .lobby
            .profiles(&tenant, r.page_token, r.bots_only, size)
            .await
            .map_err(error::lobby_error)?;
        let next_page_token = match (more, page.last()) {
            (true, Some(last)) => last.player.clone(),
            _ => String::new(),
        };
        Ok(Response::new(pb::ListPlayersResponse {
            players: page.iter().map(profile_pb).collect(),
            next_page_token,
        }))
    }
}

/// The caller's tenant (a key, a player token, or the anonymous tenant); PERMISSION_DENIED for a seat token.
fn tenant_of<T>(request: &Request<T>) -> Result<String, Status> {
    caller(request)?
        .tenant()
        .map(|tenant| tenant.id().to_string())
        .ok_or_else(|| Status::permission_denied("a seat token opens its own match only"))
}

fn check_player_id(field: &str, player: &str) -> Result<(), Status> {
    match player_id_problem(player) {
        None => Ok(()),
        Some(problem) => Err(error::invalid_argument(vec![Violation {
            field: field.into(),
            description: problem,
        }])),
    }
}
