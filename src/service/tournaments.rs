//! `mancala.v1.Tournaments`: thin handlers: who is calling, the request decoded, the tournaments
//! ([`crate::tournaments::Tournaments`]) asked, the answer encoded.

use super::auth::{address, caller};
use crate::api::lobby::lobby_id;
use crate::api::matches::{time_control, Wire};
use crate::api::tournaments::{status_filter, system, tournament_pb, update_pb};
use crate::api::{convert, error, pb};
use crate::engine::Violation;
use crate::identity::Caller;
use crate::lobby::LobbyId;
use crate::tournaments::{Actor, Spec, Tournament, Tournaments};
use std::pin::Pin;
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status};

/// The Tournaments service.
#[derive(Debug, Clone)]
pub struct TournamentsService {
    tournaments: Tournaments<Wire>,
}

impl TournamentsService {
    /// A service over `tournaments`.
    pub fn new(tournaments: Tournaments<Wire>) -> Self {
        TournamentsService { tournaments }
    }

    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::tournaments_server::TournamentsServer<Self> {
        pb::tournaments_server::TournamentsServer::new(self)
    }
}

/// The tenant and who acts in it: a player token's player, or the tenant's backend (its API key, or anyone on a
/// server that requires no credential); PERMISSION_DENIED for a seat token.
fn actor_of<T>(request: &Request<T>) -> Result<(String, Actor), Status> {
    match caller(request)? {
        Caller::Player { tenant, player } => Ok((tenant.id().to_string(), Actor::Player(player))),
        Caller::Tenant { tenant, .. } | Caller::Anonymous(tenant) => {
            Ok((tenant.id().to_string(), Actor::Backend))
        }
        Caller::Seat(_) => Err(Status::permission_denied(
            "tournaments are the tenant's: send a player token or the tenant's API key, not a seat token",
        )),
    }
}

fn tournament_id(text: &str) -> Result<LobbyId, Status> {
    lobby_id("tournament_id", text).map_err(error::invalid_argument)
}

fn answer(t: &Tournament) -> Option<pb::Tournament> {
    Some(tournament_pb(t))
}

type UpdateStream = Pin<Box<dyn Stream<Item = Result<pb::WatchTournamentResponse, Status>> + Send>>;

#[tonic::async_trait]
impl pb::tournaments_server::Tournaments for TournamentsService {
    async fn create_tournament(
        &self,
        request: Request<pb::CreateTournamentRequest>,
    ) -> Result<Response<pb::CreateTournamentResponse>, Status> {
        let (tenant, actor) = actor_of(&request)?;
        let r = request.into_inner();
        let mut violations: Vec<Violation> = Vec::new();
        let system = system(r.system, r.rounds).map_err(|v| violations.extend(v));
        let kind = convert::game_kind("kind", r.kind).map_err(|v| violations.extend(v));
        let options =
            convert::options(kind.ok(), r.options.as_ref()).map_err(|v| violations.extend(v));
        let (Ok(system), Ok(kind), Ok(options), true) =
            (system, kind, options, violations.is_empty())
        else {
            return Err(error::invalid_argument(violations));
        };
        let spec = Spec {
            name: r.name,
            system,
            kind,
            options,
            time_control: time_control(r.time_control.as_ref()),
            rated: r.rated,
            created_by: None,
        };
        let t = self
            .tournaments
            .create(&tenant, &actor, spec)
            .await
            .map_err(error::tournament_error)?;
        Ok(Response::new(pb::CreateTournamentResponse {
            tournament: answer(&t),
        }))
    }

    async fn enter_tournament(
        &self,
        request: Request<pb::EnterTournamentRequest>,
    ) -> Result<Response<pb::EnterTournamentResponse>, Status> {
        let (tenant, actor) = actor_of(&request)?;
        let r = request.into_inner();
        let id = tournament_id(&r.tournament_id)?;
        let (t, entrant) = self
            .tournaments
            .enter(
                &tenant,
                &actor,
                id,
                (r.bot_level > 0).then_some(r.bot_level),
            )
            .await
            .map_err(error::tournament_error)?;
        Ok(Response::new(pb::EnterTournamentResponse {
            tournament: answer(&t),
            entrant_id: entrant,
        }))
    }

    async fn withdraw_from_tournament(
        &self,
        request: Request<pb::WithdrawFromTournamentRequest>,
    ) -> Result<Response<pb::WithdrawFromTournamentResponse>, Status> {
        let (tenant, actor) = actor_of(&request)?;
        let r = request.into_inner();
        let id = tournament_id(&r.tournament_id)?;
        let entrant = (!r.entrant_id.is_empty()).then_some(r.entrant_id);
        let t = self
            .tournaments
            .withdraw(&tenant, &actor, id, entrant)
            .await
            .map_err(error::tournament_error)?;
        Ok(Response::new(pb::WithdrawFromTournamentResponse {
            tournament: answer(&t),
        }))
    }

    async fn start_tournament(
        &self,
        request: Request<pb::StartTournamentRequest>,
    ) -> Result<Response<pb::StartTournamentResponse>, Status> {
        let (tenant, actor) = actor_of(&request)?;
        let id = tournament_id(&request.get_ref().tournament_id)?;
        let t = self
            .tournaments
            .start(&tenant, &actor, id)
            .await
            .map_err(error::tournament_error)?;
        Ok(Response::new(pb::StartTournamentResponse {
            tournament: answer(&t),
        }))
    }

    async fn get_tournament(
        &self,
        request: Request<pb::GetTournamentRequest>,
    ) -> Result<Response<pb::GetTournamentResponse>, Status> {
        let (tenant, _) = actor_of(&request)?;
        let id = tournament_id(&request.get_ref().tournament_id)?;
        let t = self
            .tournaments
            .get(&tenant, id)
            .await
            .map_err(error::tournament_error)?;
        Ok(Response::new(pb::GetTournamentResponse {
            tournament: answer(&t),
        }))
    }

    async fn list_tournaments(
        &self,
        request: Request<pb::ListTournamentsRequest>,
    ) -> Result<Response<pb::ListTournamentsResponse>, Status> {
        let (tenant, _) = actor_of(&request)?;
        let r = request.into_inner();
        let status = status_filter(r.status).map_err(error::invalid_argument)?;
        let before = match r.page_token.as_str() {
            "" => None,
            token => Some(token.parse::<u64>().map_err(|_| {
                error::invalid_argument(vec![Violation {
                    field: "page_token".into(),
                    description: "not a page token this call answered".into(),
                }])
            })?),
        };
        let limit = match r.page_size {
            0 => 20,
            size => size.min(100) as usize,
        };
        let (page, next) = self
            .tournaments
            .list(&tenant, status, before, limit)
            .await
            .map_err(error::tournament_error)?;
        Ok(Response::new(pb::ListTournamentsResponse {
            tournaments: page.iter().map(tournament_pb).collect(),
            next_page_token: next.map(|n| n.to_string()).unwrap_or_default(),
        }))
    }

    type WatchTournamentStream = UpdateStream;

    async fn watch_tournament(
        &self,
        request: Request<pb::WatchTournamentRequest>,
    ) -> Result<Response<Self::WatchTournamentStream>, Status> {
        let (tenant, actor) = actor_of(&request)?;
        // Counted as the caller's streams: a player's own share, the backend's per client address.
        let share = match actor {
            Actor::Player(player) => Some(player),
            Actor::Backend => Some(
                address(&request)
                    .map(|address| format!("address {address}"))
                    .unwrap_or_default(),
            ),
        };
        let r = request.get_ref();
        let id = tournament_id(&r.tournament_id)?;
        let receiver = self
            .tournaments
            .watch(&tenant, id, r.after_event_id, share)
            .await
            .map_err(error::tournament_error)?;
        let stream = tokio_stream::wrappers::ReceiverStream::new(receiver).map(|item| {
            item.map(|update| update_pb(&update))
                .map_err(error::tournament_error)
        });
        Ok(Response::new(Box::pin(stream)))
    }
}
