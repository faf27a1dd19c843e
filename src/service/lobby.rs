//! `mancala.v1.Lobby`: challenges, seeks and the players' and tenants' event streams. Thin handlers: who is calling,
//! the request decoded, the lobby ([`crate::lobby::Lobby`]) asked, the answer encoded.

use super::auth::{address, caller};
use crate::api::lobby::{
    challenge_pb, decline_reason, feed_event_pb, lobby_id, player_event_pb, seat_choice, seek_pb,
};
use crate::api::matches::{match_pb, time_control, Wire};
use crate::api::{convert, error, pb};
use crate::engine::Violation;
use crate::identity::tokens::player_id_problem;
use crate::identity::Caller;
use crate::lobby::{ChallengeRequest, Fallback, Lobby, LobbyError, Reader, SeekRequest, Tiding};
use crate::matches::{Access, Matches};
use std::pin::Pin;
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status};

/// The Lobby service.
#[derive(Debug, Clone)]
pub struct LobbyService {
    lobby: Lobby<Wire>,
    matches: Matches<Wire>,
}

impl LobbyService {
    /// A service over `lobby`, answering matches from `matches`.
    pub fn new(lobby: Lobby<Wire>, matches: Matches<Wire>) -> Self {
        LobbyService { lobby, matches }
    }

    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::lobby_server::LobbyServer<Self> {
        pb::lobby_server::LobbyServer::new(self)
    }
}

/// The tenant and the player a player token speaks for; PERMISSION_DENIED for any other credential.
pub(super) fn player_of<T>(request: &Request<T>) -> Result<(String, String), Status> {
    match caller(request)? {
        Caller::Player { tenant, player } => Ok((tenant.id().to_string(), player)),
        _ => Err(Status::permission_denied(
            "this call acts for a player: send the player's token (Players.IssuePlayerToken), not an API key or a seat token",
        )),
    }
}

fn invalid(violations: Vec<Violation>) -> Status {
    error::invalid_argument(violations)
}

/// Seconds to milliseconds (0: the server's default).
fn ttl_ms(seconds: u32) -> Option<u64> {
    (seconds > 0).then(|| u64::from(seconds) * 1000)
}

/// A rating bound (0: none).
fn bound(value: u32) -> Option<u32> {
    (value > 0).then_some(value)
}

type EventStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

/// The lobby's stream as a gRPC stream of `encode`'s messages (news the reader's kind does not carry skipped).
fn stream_of<T: Send + 'static>(
    receiver: tokio::sync::mpsc::Receiver<Result<Tiding, LobbyError>>,
    encode: fn(&Tiding) -> Option<T>,
) -> EventStream<T> {
    let stream =
        tokio_stream::wrappers::ReceiverStream::new(receiver).filter_map(move |item| match item {
            Ok(tiding) => encode(&tiding).map(Ok),
            Err(error) => Some(Err(error::lobby_error(error))),
        });
    Box::pin(stream)
}

#[tonic::async_trait]
impl pb::lobby_server::Lobby for LobbyService {
    async fn create_challenge(
        &self,
        request: Request<pb::CreateChallengeRequest>,
    ) -> Result<Response<pb::CreateChallengeResponse>, Status> {
        let (tenant, player) = player_of(&request)?;
        let r = request.into_inner();
        let mut violations = Vec::new();
        let to = (!r.to_player_id.is_empty()).then_some(r.to_player_id);
        let also_to = (!r.also_to_player_id.is_empty()).then_some(r.also_to_player_id);
        for (field, id) in [("to_player_id", &to), ("also_to_player_id", &also_to)] {
            if let Some(problem) = id.as_deref().and_then(player_id_problem) {
                violations.push(Violation {
                    field: field.into(),
                    description: problem,
                });
            }
        }
        let kind = convert::game_kind("kind", r.kind).map_err(|v| violations.extend(v));
        let options =
            convert::options(kind.ok(), r.options.as_ref()).map_err(|v| violations.extend(v));
        let seat = seat_choice(r.seat).map_err(|v| violations.extend(v));
        let (Ok(kind), Ok(options), Ok(seat), true) = (kind, options, seat, violations.is_empty())
        else {
            return Err(invalid(violations));
        };
        let challenge = self
            .lobby
            .challenge(
                &tenant,
                &player,
                ChallengeRequest {
                    to,
                    also_to,
                    kind,
                    options,
                    time_control: time_control(r.time_control.as_ref()),
                    rated: r.rated,
                    seat,
                    ttl_ms: ttl_ms(r.ttl_seconds),
                },
            )
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(pb::CreateChallengeResponse {
            challenge: Some(challenge_pb(&challenge)),
        }))
    }

    async fn accept_challenge(
        &self,
        request: Request<pb::AcceptChallengeRequest>,
    ) -> Result<Response<pb::AcceptChallengeResponse>, Status> {
        let (tenant, player) = player_of(&request)?;
        let id = lobby_id("challenge_id", &request.get_ref().challenge_id).map_err(invalid)?;
        let accepted = self
            .lobby
            .accept(&tenant, &player, id)
            .await
            .map_err(error::lobby_error)?;
        let Some((match_id, seat)) = accepted.seated else {
            // A three-player challenge that waits for its other player: no match yet.
            return Ok(Response::new(pb::AcceptChallengeResponse {
                challenge: Some(challenge_pb(&accepted.challenge)),
                r#match: None,
                seat: 0,
            }));
        };
        let access = Access {
            tenant: Some(&tenant),
            player: Some(&player),
            ..Access::default()
        };
        let view = self
            .matches
            .get(&access, &match_id.to_string())
            .await
            .map_err(error::match_error)?;
        Ok(Response::new(pb::AcceptChallengeResponse {
            challenge: Some(challenge_pb(&accepted.challenge)),
            r#match: Some(match_pb(&view)),
            seat: convert::player_to_pb(Some(seat)),
        }))
    }

    async fn decline_challenge(
        &self,
        request: Request<pb::DeclineChallengeRequest>,
    ) -> Result<Response<pb::DeclineChallengeResponse>, Status> {
        let (tenant, player) = player_of(&request)?;
        let r = request.into_inner();
        let id = lobby_id("challenge_id", &r.challenge_id).map_err(invalid)?;
        let reason = decline_reason(r.reason).map_err(invalid)?;
        let challenge = self
            .lobby
            .decline(&tenant, &player, id, reason)
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(pb::DeclineChallengeResponse {
            challenge: Some(challenge_pb(&challenge)),
        }))
    }

    async fn cancel_challenge(
        &self,
        request: Request<pb::CancelChallengeRequest>,
    ) -> Result<Response<pb::CancelChallengeResponse>, Status> {
        let (tenant, player) = player_of(&request)?;
        let id = lobby_id("challenge_id", &request.get_ref().challenge_id).map_err(invalid)?;
        let challenge = self
            .lobby
            .cancel(&tenant, &player, id)
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(pb::CancelChallengeResponse {
            challenge: Some(challenge_pb(&challenge)),
        }))
    }

    async fn list_challenges(
        &self,
        request: Request<pb::ListChallengesRequest>,
    ) -> Result<Response<pb::ListChallengesResponse>, Status> {
        let (tenant, player) = player_of(&request)?;
        let (incoming, outgoing) = self
            .lobby
            .challenges_of(&tenant, &player)
            .await
            .map_err(error::lobby_error)?;
        let (open_challenges, open_seeks) = if request.get_ref().open {
            let challenges = self.lobby.open_challenges_for(&tenant, &player);
            let seeks = self.lobby.open_seeks_for(&tenant, &player);
            (
                challenges.await.map_err(error::lobby_error)?,
                seeks.await.map_err(error::lobby_error)?,
            )
        } else {
            (Vec::new(), Vec::new())
        };
        Ok(Response::new(pb::ListChallengesResponse {
            incoming: incoming.iter().map(challenge_pb).collect(),
            outgoing: outgoing.iter().map(challenge_pb).collect(),
            open_challenges: open_challenges.iter().map(challenge_pb).collect(),
            open_seeks: open_seeks.iter().map(seek_pb).collect(),
        }))
    }

    async fn offer_rematch(
        &self,
        request: Request<pb::OfferRematchRequest>,
    ) -> Result<Response<pb::OfferRematchResponse>, Status> {
        let (tenant, player) = player_of(&request)?;
        let r = request.into_inner();
        let id = lobby_id("match_id", &r.match_id).map_err(invalid)?;
        let challenge = self
            .lobby
            .rematch(&tenant, &player, id, ttl_ms(r.ttl_seconds))
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(pb::OfferRematchResponse {
            challenge: Some(challenge_pb(&challenge)),
        }))
    }

    async fn seek(
        &self,
        request: Request<pb::SeekRequest>,
    ) -> Result<Response<pb::SeekResponse>, Status> {
        let (tenant, player) = player_of(&request)?;
        let r = request.into_inner();
        let mut violations = Vec::new();
        let kind = convert::game_kind("kind", r.kind).map_err(|v| violations.extend(v));
        let options =
            convert::options(kind.ok(), r.options.as_ref()).map_err(|v| violations.extend(v));
        if r.fallback_bot_level == 0 && r.fallback_after_ms > 0 {
            violations.push(Violation {
                field: "fallback_after_ms".into(),
                description: "set with fallback_bot_level only".into(),
            });
        }
        let (Ok(kind), Ok(options), true) = (kind, options, violations.is_empty()) else {
            return Err(invalid(violations));
        };
        let seek = self
            .lobby
            .seek(
                &tenant,
                &player,
                SeekRequest {
                    kind,
                    options,
                    time_control: time_control(r.time_control.as_ref()),
                    rated: r.rated,
                    rating_min: bound(r.rating_min),
                    rating_max: bound(r.rating_max),
                    fallback: (r.fallback_bot_level > 0).then_some(Fallback {
                        level: r.fallback_bot_level,
                        after_ms: r.fallback_after_ms.into(),
                    }),
                    ttl_ms: ttl_ms(r.ttl_seconds),
                },
            )
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(pb::SeekResponse {
            seek: Some(seek_pb(&seek)),
        }))
    }

    async fn cancel_seek(
        &self,
        request: Request<pb::CancelSeekRequest>,
    ) -> Result<Response<pb::CancelSeekResponse>, Status> {
        let (tenant, player) = player_of(&request)?;
        let id = lobby_id("seek_id", &request.get_ref().seek_id).map_err(invalid)?;
        let seek = self
            .lobby
            .cancel_seek(&tenant, &player, id)
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(pb::CancelSeekResponse {
            seek: Some(seek_pb(&seek)),
        }))
    }

    type WatchPlayerEventsStream = EventStream<pb::PlayerEvent>;

    async fn watch_player_events(
        &self,
        request: Request<pb::WatchPlayerEventsRequest>,
    ) -> Result<Response<Self::WatchPlayerEventsStream>, Status> {
        let (tenant, player) = player_of(&request)?;
        let after = request.get_ref().after_event_id;
        let receiver = self
            .lobby
            .follow(&tenant, Reader::Player(player), after)
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(stream_of(receiver, player_event_pb)))
    }

    type WatchTenantFeedStream = EventStream<pb::FeedEvent>;

    async fn watch_tenant_feed(
        &self,
        request: Request<pb::WatchTenantFeedRequest>,
    ) -> Result<Response<Self::WatchTenantFeedStream>, Status> {
        // The anonymous tenant's feed is anybody's: counted per client address, not for the whole tenant.
        let share = match caller(&request)? {
            Caller::Anonymous(_) => address(&request).map(|address| format!("address {address}")),
            _ => None,
        };
        let tenant = match caller(&request)? {
            Caller::Tenant { tenant, .. } | Caller::Anonymous(tenant) => tenant.id().to_string(),
            _ => {
                return Err(Status::permission_denied(
                    "the tenant's feed is for its backend: send the tenant's API key, not a player or seat token",
                ))
            }
        };
        let after = request.get_ref().after_event_id;
        let receiver = self
            .lobby
            .follow_as(&tenant, Reader::Tenant, after, share)
            .await
            .map_err(error::lobby_error)?;
        Ok(Response::new(stream_of(receiver, feed_event_pb)))
    }
}
