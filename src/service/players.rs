//! `mancala.v1.Players`: player tokens for a tenant's end users (`crate::identity::tokens`), their profiles
//! (kept by the lobby, `crate::lobby`), who the caller is, and the leaderboards.

use super::auth::caller;
use crate::api::lobby::profile_pb;
use crate::api::matches::Wire;
use crate::api::players::{leaderboard_entry_pb, who_am_i_pb};
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
        let size = page_size(r.page_size);
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

    async fn who_am_i(
        &self,
        request: Request<pb::WhoAmIRequest>,
    ) -> Result<Response<pb::WhoAmIResponse>, Status> {
        let (tenant, kind, player) = match caller(&request)? {
            Caller::Player { tenant, player } => (tenant, pb::CallerKind::Player, Some(player)),
            Caller::Tenant { tenant, .. } => (tenant, pb::CallerKind::TenantKey, None),
            Caller::Anonymous(tenant) => (tenant, pb::CallerKind::Anonymous, None),
            Caller::Seat(_) => {
                return Err(Status::permission_denied(
                    "a seat token names a match's seat, not a player: open the match with it (Matches/GetMatch)",
                ))
            }
        };
        let profile = match player {
            Some(player) => Some(
                self.lobby
                    .profile(tenant.id(), &player)
                    .await
                    .map_err(error::lobby_error)?,
            ),
            None => None,
        };
        Ok(Response::new(who_am_i_pb(
            tenant.id(),
            kind,
            profile.as_ref(),
        )))
    }

    async fn get_leaderboard(
        &self,
        request: Request<pb::GetLeaderboardRequest>,
    ) -> Result<Response<pb::GetLeaderboardResponse>, Status> {
        let tenant = tenant_of(&request)?;
        let r = request.into_inner();
        let mut violations = Vec::new();
        let kind = crate::api::convert::game_kind("kind", r.kind).map_err(|v| violations.extend(v));
        let skip = match r.page_token.as_str() {
            "" => Ok(0),
            token => token.parse::<usize>().map_err(|_| {
                violations.push(Violation {
                    field: "page_token".into(),
                    description: "not a page token of this leaderboard (give back `next_page_token` as it came)"
                        .into(),
                })
            }),
        };
        let (Ok(kind), Ok(skip)) = (kind, skip) else {
            return Err(error::invalid_argument(violations));
        };
        let size = page_size(r.page_size);
        let (page, more) = self
            .lobby
            .leaderboard(&tenant, kind, r.bots_only, skip, size)
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(pb::GetLeaderboardResponse {
            kind: r.kind,
            entries: page
                .iter()
                .map(|ranked| leaderboard_entry_pb(kind, ranked))
                .collect(),
            next_page_token: if more {
                (skip + page.len()).to_string()
            } else {
                String::new()
            },
        }))
    }
}

/// A page's size: 0 asks for the default; the same sizes as `ListMatches`.
fn page_size(asked: u32) -> usize {
    match asked as usize {
        0 => crate::matches::DEFAULT_PAGE_SIZE,
        n => n.min(crate::matches::MAX_PAGE_SIZE),
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
