//! `mancala.v1.Rules`: the stateless rules service. The client holds the state; each call decodes and
//! validates it, asks the engine, and encodes the answer. Engine calls take microseconds, so they run inline.

use crate::api::convert::{self, DecodeError};
use crate::api::{error, pb};
use crate::engine::{self, AnyGame, Move};
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

/// Decodes the state and the move of a request, reporting the violations of both at once.
fn state_and_move(
    state: Option<pb::GameState>,
    mv: Option<&pb::Move>,
) -> Result<(AnyGame, Move), Status> {
    // The move can be checked against the board size as soon as the kind is known, even if the state is bad.
    let kind = state
        .as_ref()
        .and_then(|s| convert::game_kind("state.kind", s.kind).ok());
    let mv = kind.map(|kind| convert::game_move("move", kind, mv));
    let game = convert::game_state("state", state);
    match (game, mv) {
        (Ok(game), Some(Ok(mv))) => Ok((game, mv)),
        (Err(DecodeError::NotImplemented(kind)), _) => Err(error::not_implemented(kind)),
        (game, mv) => {
            let mut violations = match game {
                Err(DecodeError::Invalid(v)) => v,
                _ => Vec::new(),
            };
            if let Some(Err(v)) = mv {
                violations.extend(v);
            }
            Err(error::invalid_argument(violations))
        }
    }
}

/// The legal move with its preview.
fn legal_move(game: &AnyGame, mv: &Move, with_preview: bool) -> pb::LegalMove {
    let mut legal = pb::LegalMove {
        r#move: Some(convert::move_to_pb(mv)),
        result: None,
        events: Vec::new(),
    };
    if with_preview {
        // Listed moves are legal by construction; a preview can only fail if the engine contradicts itself.
        if let Ok((next, events)) = game.preview(mv) {
            legal.result = Some(convert::state_to_pb(&next));
            legal.events = convert::events_to_pb(&events);
        }
    }
    legal
}

/// The answers of the stateless calls, without the transport: the handlers below wrap them, and the load
/// generator asks them in process what the server will answer (and how large the answer is).
impl RulesService {
    /// `ListLegalMoves`.
    pub fn list_legal_moves_answer(
        &self,
        request: pb::ListLegalMovesRequest,
    ) -> Result<pb::ListLegalMovesResponse, Status> {
        let game = convert::game_state("state", request.state).map_err(error::decode_error)?;
        let moves = game
            .legal_moves()
            .iter()
            .map(|mv| legal_move(&game, mv, !request.skip_previews))
            .collect();
        Ok(pb::ListLegalMovesResponse { moves })
    }

    /// `ValidateMove`.
    pub fn validate_move_answer(
        &self,
        request: pb::ValidateMoveRequest,
    ) -> Result<pb::ValidateMoveResponse, Status> {
        let (game, mv) = state_and_move(request.state, request.r#move.as_ref())?;
        Ok(match game.check(&mv) {
            Ok(()) => pb::ValidateMoveResponse {
                legal: true,
                reason: 0,
                message: String::new(),
            },
            Err(illegal) => pb::ValidateMoveResponse {
                legal: false,
                reason: convert::reason_to_pb(illegal.reason) as i32,
                message: illegal.to_string(),
            },
        })
    }

    /// `ApplyMove`.
    pub fn apply_move_answer(
        &self,
        request: pb::ApplyMoveRequest,
    ) -> Result<pb::ApplyMoveResponse, Status> {
        let (mut game, mv) = state_and_move(request.state, request.r#move.as_ref())?;
        let events = if request.skip_events {
            game.play(&mv, &mut engine::NoTrace)
                .map_err(|e| error::illegal_move(&e))?;
            Vec::new()
        } else {
            // Room for the events of most moves (a lap and its drops, a capture, an end), so it seldom grows.
            let mut events = Vec::with_capacity(64);
            game.play(&mv, &mut events)
                .map_err(|e| error::illegal_move(&e))?;
            convert::events_to_pb(&events)
        };
        Ok(pb::ApplyMoveResponse {
            state: Some(convert::state_to_pb(&game)),
            events,
        })
    }
}

#[tonic::async_trait]
impl pb::rules_server::Rules for RulesService {
    async fn new_game(
        &self,
        request: Request<pb::NewGameRequest>,
    ) -> Result<Response<pb::NewGameResponse>, Status> {
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
        let game = AnyGame::new_match(kind, &options);
        Ok(Response::new(pb::NewGameResponse {
            state: Some(convert::state_to_pb(&game)),
        }))
    }

    async fn list_legal_moves(
        &self,
        request: Request<pb::ListLegalMovesRequest>,
    ) -> Result<Response<pb::ListLegalMovesResponse>, Status> {
        self.list_legal_moves_answer(request.into_inner())
            .map(Response::new)
    }

    async fn validate_move(
        &self,
        request: Request<pb::ValidateMoveRequest>,
    ) -> Result<Response<pb::ValidateMoveResponse>, Status> {
        self.validate_move_answer(request.into_inner())
            .map(Response::new)
    }

    async fn apply_move(
        &self,
        request: Request<pb::ApplyMoveRequest>,
    ) -> Result<Response<pb::ApplyMoveResponse>, Status> {
        self.apply_move_answer(request.into_inner())
            .map(Response::new)
    }

    async fn describe_game(
        &self,
        request: Request<pb::DescribeGameRequest>,
    ) -> Result<Response<pb::DescribeGameResponse>, Status> {
        let kind = convert::game_kind("kind", request.into_inner().kind)
            .map_err(error::invalid_argument)?;
        Ok(Response::new(convert::description_to_pb(
            &engine::describe(kind),
        )))
    }
}
