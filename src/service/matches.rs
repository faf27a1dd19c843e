//! `mancala.v1.Matches`: server-held matches. Thin handlers: decode the request and the seat token,
//! call the match manager ([`crate::matches::Matches`]), encode the answer or the error.

use crate::api::matches::{event_pb, match_pb, summary_pb, Wire};
use crate::api::{convert, error, pb};
use crate::matches::{MatchError, Matches};
use crate::store::Action;
use std::pin::Pin;
use tokio_stream::{Stream, StreamExt};
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

/// The metadata key that carries a seat token, as `Bearer <token>`.
pub const AUTHORIZATION: &str = "authorization";

/// The Matches service.
#[derive(Debug, Clone)]
pub struct MatchesService {
    matches: Matches<Wire>,
}

impl MatchesService {
    /// A service over `matches`.
    pub fn new(matches: Matches<Wire>) -> Self {
        MatchesService { matches }
    }

    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::matches_server::MatchesServer<Self> {
        pb::matches_server::MatchesServer::new(self)
    }
}

/// The seat token of a request: `Ok(None)` without one; UNAUTHENTICATED when the header is not
/// `Bearer <token>`. The token is never logged.
fn seat_token(metadata: &MetadataMap) -> Result<Option<String>, Status> {
    let Some(value) = metadata.get(AUTHORIZATION) else {
        return Ok(None);
    };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            Status::unauthenticated("the authorization metadata must be `Bearer <token>`")
        })?;
    Ok(Some(token.to_string()))
}

/// Names the match in the call's log line.
fn record_match(id: &str) {
    tracing::Span::current().record("match_id", id);
}

/// The response stream of `WatchMatch`.
pub type WatchMatchStream =
    Pin<Box<dyn Stream<Item = Result<pb::WatchMatchResponse, Status>> + Send>>;

#[tonic::async_trait]
impl pb::matches_server::Matches for MatchesService {
    async fn create_match(
        &self,
        request: Request<pb::CreateMatchRequest>,
    ) -> Result<Response<pb::CreateMatchResponse>, Status> {
        let request = request.into_inner();
        let kind = convert::game_kind("kind", request.kind);
        let options = convert::options(request.options.as_ref());
        let (kind, options) = match (kind, options) {
            (Ok(kind), Ok(options)) => (kind, options),
            (kind, options) => {
                let violations = kind
                    .err()
                    .into_iter()
                    .chain(options.err())
                    .flatten()
                    .collect();
                return Err(error::invalid_argument(violations));
            }
        };
        let created = self
            .matches
            .create(kind, options)
            .await
            .map_err(error::match_error)?;
        record_match(&created.view.id.to_string());
        let [south, north] = created.tokens;
        Ok(Response::new(pb::CreateMatchResponse {
            r#match: Some(match_pb(&created.view)),
            tokens: vec![
                pb::SeatToken {
                    player: pb::Player::South as i32,
                    token: south,
                },
                pb::SeatToken {
                    player: pb::Player::North as i32,
                    token: north,
                },
            ],
        }))
    }

    async fn get_match(
        &self,
        request: Request<pb::GetMatchRequest>,
    ) -> Result<Response<pb::GetMatchResponse>, Status> {
        let id = request.into_inner().match_id;
        record_match(&id);
        let view = self.matches.get(&id).await.map_err(error::match_error)?;
        Ok(Response::new(pb::GetMatchResponse {
            r#match: Some(match_pb(&view)),
        }))
    }

    async fn list_matches(
        &self,
        request: Request<pb::ListMatchesRequest>,
    ) -> Result<Response<pb::ListMatchesResponse>, Status> {
        let request = request.into_inner();
        let kind = match request.kind {
            0 => None,
            kind => Some(convert::game_kind("kind", kind).map_err(error::invalid_argument)?),
        };
        let finished = match pb::MatchStatus::try_from(request.status) {
            Ok(pb::MatchStatus::Unspecified) => None,
            Ok(pb::MatchStatus::Active) => Some(false),
            Ok(pb::MatchStatus::Finished) => Some(true),
            Err(_) => {
                return Err(error::invalid_argument(vec![crate::engine::Violation {
                    field: "status".into(),
                    description: format!("{} is not a MatchStatus", request.status),
                }]))
            }
        };
        let (matches, next_page_token) = self
            .matches
            .list(
                kind,
                finished,
                request.page_size as usize,
                &request.page_token,
            )
            .await
            .map_err(error::match_error)?;
        Ok(Response::new(pb::ListMatchesResponse {
            matches: matches.iter().map(summary_pb).collect(),
            next_page_token,
        }))
    }

    async fn submit_move(
        &self,
        request: Request<pb::SubmitMoveRequest>,
    ) -> Result<Response<pb::SubmitMoveResponse>, Status> {
        let token = seat_token(request.metadata())?;
        let request = request.into_inner();
        record_match(&request.match_id);
        let seated = self
            .matches
            .seated(&request.match_id, token.as_deref(), request.request_id)
            .await
            .map_err(error::match_error)?;
        // Decoded for the match's game once its seat is known, as the proto orders the checks.
        let mv = convert::game_move("move", seated.kind(), request.r#move.as_ref()).map_err(
            |violations| error::match_error(seated.refuse(MatchError::Invalid(violations))),
        )?;
        let event = seated
            .act(Action::Move(mv), request.expected_version)
            .await
            .map_err(error::match_error)?;
        Ok(Response::new(pb::SubmitMoveResponse {
            event: Some(event_pb(&event)),
        }))
    }

    async fn resign(
        &self,
        request: Request<pb::ResignRequest>,
    ) -> Result<Response<pb::ResignResponse>, Status> {
        let token = seat_token(request.metadata())?;
        let request = request.into_inner();
        record_match(&request.match_id);
        let event = self
            .matches
            .submit(
                &request.match_id,
                token.as_deref(),
                Action::Resign,
                request.expected_version,
                request.request_id,
            )
            .await
            .map_err(error::match_error)?;
        Ok(Response::new(pb::ResignResponse {
            event: Some(event_pb(&event)),
        }))
    }

    type WatchMatchStream = WatchMatchStream;

    async fn watch_match(
        &self,
        request: Request<pb::WatchMatchRequest>,
    ) -> Result<Response<WatchMatchStream>, Status> {
        let token = seat_token(request.metadata())?;
        let request = request.into_inner();
        record_match(&request.match_id);
        let stream = self
            .matches
            .watch(&request.match_id, token.as_deref(), request.from_seq)
            .await
            .map_err(error::match_error)?;
        let stream = stream.map(|item: Result<pb::WatchMatchResponse, MatchError>| {
            item.map_err(error::match_error)
        });
        Ok(Response::new(Box::pin(stream)))
    }

    async fn get_history(
        &self,
        request: Request<pb::GetHistoryRequest>,
    ) -> Result<Response<pb::GetHistoryResponse>, Status> {
        let id = request.into_inner().match_id;
        record_match(&id);
        let history = self
            .matches
            .history(&id)
            .await
            .map_err(error::match_error)?;
        Ok(Response::new(pb::GetHistoryResponse {
            r#match: Some(match_pb(&history.view)),
            events: history.events.iter().map(event_pb).collect(),
            notation: history.notation,
        }))
    }
}
