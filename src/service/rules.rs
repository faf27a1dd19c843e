//! `mancala.v1.Rules`: the stateless rules service. The client holds the state; each call decodes the
//! request, asks the engine, and encodes the answer. The engine's part (validating the state, deciding the
//! move, listing and previewing moves) runs on the [`EnginePool`]: inline when it is short, as nearly every call
//! is, and on the pool's threads under the call's whole budget when it is not. The built-in opponent's calls
//! (`SuggestMove`, `AnalyzePosition`) search, which is long work by nature: they go straight to the pool (but
//! for the random and greedy players, which think one move ahead and run like any other call), where the call's
//! cancellation (its client gone, its deadline passed) stops the search.

use crate::api::convert::{self, DecodeError, DecodedState};
use crate::api::search::{self as search_api, SearchRefusal, SearchRequest, StrengthField};
use crate::api::setup_box::SetupBox;
use crate::api::wire::decode::Form;
use crate::api::{error, pb, wire};
use crate::config::SearchSettings;
use crate::engine::search::{self, Algorithm, Bot, Thinker};
use crate::engine::{self, AnyGame, Move, Violation};
use crate::pool::{EnginePool, Owner, WorkError};
use crate::service::auth;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use tonic::{Request, Response, Status};

/// The stateless rules service.
#[derive(Debug, Clone)]
pub struct RulesService {
    pool: EnginePool,
    search: SearchSettings,
}

impl RulesService {
    /// The service, running its engine work on `pool`, its searches under the built-in `[search]` caps.
    pub fn new(pool: EnginePool) -> RulesService {
        RulesService {
            pool,
            search: crate::config::Settings::default().search,
        }
    }

    /// This service with the searches of `SuggestMove` and `AnalyzePosition` capped by `settings`.
    pub fn with_search(mut self, settings: SearchSettings) -> RulesService {
        self.search = settings;
        self
    }

    /// The tonic server wrapping this service: the one whose hot answers are written by [`wire`] (same service,
    /// same bytes on the wire; in-process callers use the prost one, [`pb::rules_server::Rules`]).
    pub fn into_server(self) -> wire::server::rules_server::RulesServer<Self> {
        wire::server::rules_server::RulesServer::new(self)
    }

    /// Runs `answer` on the pool under a Rules call's limits, for `owner` when it turns long.
    async fn on_pool<R: Send + 'static>(
        &self,
        owner: Owner,
        answer: impl Fn() -> Result<R, Status> + Send + 'static,
    ) -> Result<Response<R>, Status> {
        let limits = self.pool.rules_limits();
        engine_answer(self.pool.run(owner, limits, answer).await).map(Response::new)
    }

    /// [`RulesService::on_pool`] for the hot calls the server answers with [`wire`]'s bytes, as the boxed future
    /// tonic's generated trait returns: when the inline try decides the answer, as it nearly always does, the
    /// answer is worked out before the future is made, and the future only hands it over. Boxed so, a call's
    /// future is the size of its answer (24 bytes) rather than that of `on_pool`'s state machine, which holds the
    /// job, the request and the pool's wait (over 700 bytes, built on the stack and copied into the box: with it,
    /// about 300 instructions a call more, which an Echo does not spend).
    ///
    /// `answered` makes the future of an answer decided inline (usually [`Answered::boxed`]). `extensions` are
    /// the request's, to tell whose work it is should it turn long ([`auth::work_owner`]; not worked out for the
    /// calls decided inline).
    fn answer_or_pool<'a, R: Send + Unpin + 'static>(
        &'a self,
        extensions: tonic::Extensions,
        answer: impl Fn() -> Result<R, Status> + Send + 'static,
        answered: impl FnOnce(Result<R, Status>) -> CallFuture<'a, R>,
    ) -> CallFuture<'a, R> {
        let limits = self.pool.rules_limits();
        match self.pool.try_inline(limits, &answer) {
            Some(decided) => answered(engine_answer(decided)),
            None => {
                let owner = auth::work_owner(&Request::from_parts(
                    tonic::metadata::MetadataMap::new(),
                    extensions,
                    (),
                ));
                Box::pin(async move {
                    engine_answer(self.pool.run_long(owner, limits.laps, answer).await)
                        .map(Response::new)
                })
            }
        }
    }

    /// Runs a search's `answer` for `owner`: on the pool at once (its quick lane first when the search is
    /// expected short, [`EnginePool::run_search`]), under a Rules call's lap budget and cancelled with the call,
    /// when it searches; like any other call (inline first) for the one-ply players and for a request refused
    /// before any search.
    async fn on_pool_searching<R: Send + 'static>(
        &self,
        owner: Owner,
        thinker: Option<Thinker>,
        answer: impl Fn() -> Result<R, Status> + Send + 'static,
    ) -> Result<Response<R>, Status> {
        match thinker {
            Some(
                thinker @ Thinker {
                    algorithm: Algorithm::AlphaBeta | Algorithm::Mcts,
                    ..
                },
            ) => {
                let laps = self.pool.rules_limits().laps;
                let expected = thinker.expected_plies();
                engine_answer(self.pool.run_search(owner, laps, expected, answer).await)
                    .map(Response::new)
            }
            _ => self.on_pool(owner, answer).await,
        }
    }
}

/// A call's answer from the engine's run of its job: the job's own answer, or the status of work that did not
/// finish (budget spent, pool busy, shutting down).
fn engine_answer<R>(ran: Result<Result<R, Status>, WorkError>) -> Result<R, Status> {
    ran.unwrap_or_else(|unfinished| Err(error::engine_work(unfinished)))
}

/// The future of a call of tonic's generated `Rules` trait (what `async_trait` makes of an `async fn`).
type CallFuture<'a, R> = Pin<Box<dyn Future<Output = Result<Response<R>, Status>> + Send + 'a>>;

/// A call's answer, decided before its future was made: ready at the first poll.
struct Answered<R>(Option<Result<R, Status>>);

impl<R: Send + Unpin + 'static> Answered<R> {
    /// The future of `answer`.
    fn boxed<'a>(answer: Result<R, Status>) -> CallFuture<'a, R> {
        Box::pin(Answered(Some(answer)))
    }
}

impl<R: Unpin> Future for Answered<R> {
    type Output = Result<Response<R>, Status>;

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        let answer = self.0.take().expect("an answered call is polled once");
        Poll::Ready(answer.map(Response::new))
    }
}

/// ValidateMove's answer to a legal move, always the same bytes ([`wire::legal_move`]): a future that holds
/// nothing, so that boxing it allocates nothing either.
struct LegalMove;

impl Future for LegalMove {
    type Output = Result<Response<wire::ValidateMoveAnswer>, Status>;

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        Poll::Ready(Ok(Response::new(wire::legal_move())))
    }
}

/// A request's state and move, decoded field by field (no engine work yet).
struct StateAndMove {
    state: Result<DecodedState, DecodeError>,
    mv: Option<Result<Move, Vec<Violation>>>,
}

impl StateAndMove {
    fn decode(state: Option<pb::GameState>, mv: Option<&pb::Move>) -> StateAndMove {
        let state = convert::state_setup("state", state);
        // The move can be checked against the board size as soon as the kind is known, even if the state is bad.
        let mv = state
            .as_ref()
            .ok()
            .map(|s| convert::game_move("move", s.kind(), mv));
        StateAndMove { state, mv }
    }

    /// A state and move already decoded into the engine's values ([`wire::decode`]), with nothing wrong.
    fn decoded(setup: SetupBox, mv: Move) -> StateAndMove {
        StateAndMove {
            state: Ok(DecodedState::decoded("state", setup)),
            mv: Some(Ok(mv)),
        }
    }

    /// The game and the move, once the rules accept the state; the violations of both at once otherwise.
    fn validate(&self) -> Result<(AnyGame, Move), Status> {
        let game = self
            .state
            .as_ref()
            .map_err(Clone::clone)
            .and_then(DecodedState::validate);
        match (game, &self.mv) {
            (Ok(game), Some(Ok(mv))) => Ok((game, *mv)),
            (game, mv) => {
                let mut violations = match game {
                    Err(DecodeError::Invalid(v)) => v,
                    _ => Vec::new(),
                };
                if let Some(Err(v)) = mv {
                    violations.extend(v.iter().cloned());
                }
                Err(error::invalid_argument(violations))
            }
        }
    }
}

/// The game of a `ListLegalMoves` request, once the rules accept its state.
fn listed(state: &Result<DecodedState, DecodeError>) -> Result<AnyGame, Status> {
    state
        .as_ref()
        .map_err(|e| error::decode_error(e.clone()))?
        .validate()
        .map_err(error::decode_error)
}

impl StateAndMove {
    /// The game with `on_move` run on it once the rules accept the state (see [`DecodedState::validate_then`]);
    /// the violations of the state and the move at once otherwise.
    fn validate_then<R>(
        &self,
        on_move: impl FnOnce(&mut AnyGame, &Move) -> Result<R, engine::IllegalMove>,
    ) -> Result<(AnyGame, Result<R, engine::IllegalMove>), Status> {
        match (&self.state, &self.mv) {
            (Ok(state), Some(Ok(mv))) => state
                .validate_then(|game| on_move(game, mv))
                .map_err(error::decode_error),
            _ => {
                let (mut game, mv) = self.validate()?;
                let answer = on_move(&mut game, &mv);
                Ok((game, answer))
            }
        }
    }

    /// `ValidateMove`'s engine work: whether the move is legal (`Err` inside: the rule it breaks).
    fn verdict(&self) -> Result<Result<(), engine::IllegalMove>, Status> {
        // `AnyGame::check` on the game itself, not a copy: the game is dropped with the verdict.
        let (_, verdict) =
            self.validate_then(|game, mv| game.play(mv, &mut engine::LegalityOnly))?;
        Ok(verdict)
    }

    /// `ApplyMove`'s engine work: the game after the move and its events (none recorded for `skip_events`), made
    /// into the call's answer by `answer`. The events are recorded into a buffer this thread keeps from call to
    /// call, so that a move allocates nothing for them.
    fn played<A>(
        &self,
        skip_events: bool,
        answer: impl FnOnce(&AnyGame, &[engine::Event]) -> A,
    ) -> Result<A, Status> {
        /// Room kept for the events of the longest ordinary moves (a few laps of drops, captures, an end).
        const KEPT_EVENTS: usize = 1024;
        thread_local! {
            static EVENTS: RefCell<Vec<engine::Event>> = const { RefCell::new(Vec::new()) };
        }
        EVENTS.with_borrow_mut(|events| {
            events.clear();
            let (game, played) = self.validate_then(|game, mv| {
                if skip_events {
                    game.play(mv, &mut engine::NoTrace)
                } else {
                    game.play(mv, events)
                }
            })?;
            let answer = played
                .map(|()| answer(&game, events))
                .map_err(|e| error::illegal_move(&e));
            // A long relay's drops are not kept for the life of the thread.
            if events.capacity() > KEPT_EVENTS {
                *events = Vec::new();
            }
            answer
        })
    }
}

/// The legal move with its preview.
fn legal_move(game: &AnyGame, mv: &Move, with_preview: bool) -> pb::LegalMove {
    let mut legal = pb::LegalMove {
        r#move: Some(convert::move_to_pb(mv)),
        result: None,
        events: Vec::new(),
        label: crate::engine::notation::move_label(game.kind(), mv),
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

/// The answers of the stateless calls, without the transport or the pool: the handlers below run them on the
/// pool, and the load generator asks them in process what the server will answer (and how large the answer
/// is). Each decodes its request, then returns the engine's part, which may run twice (see [`EnginePool::run`]).
impl RulesService {
    /// `ListLegalMoves`.
    pub fn list_legal_moves_answer(
        request: pb::ListLegalMovesRequest,
    ) -> impl Fn() -> Result<pb::ListLegalMovesResponse, Status> + Send + 'static {
        let state = convert::state_setup("state", request.state);
        let with_previews = !request.skip_previews;
        move || {
            let game = listed(&state)?;
            let moves = game
                .legal_moves()
                .iter()
                .map(|mv| legal_move(&game, mv, with_previews))
                .collect();
            Ok(pb::ListLegalMovesResponse { moves })
        }
    }

    /// `ValidateMove`.
    pub fn validate_move_answer(
        request: pb::ValidateMoveRequest,
    ) -> impl Fn() -> Result<pb::ValidateMoveResponse, Status> + Send + 'static {
        let decoded = StateAndMove::decode(request.state, request.r#move.as_ref());
        move || {
            Ok(match decoded.verdict()? {
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
    }

    /// `ApplyMove`.
    pub fn apply_move_answer(
        request: pb::ApplyMoveRequest,
    ) -> impl Fn() -> Result<pb::ApplyMoveResponse, Status> + Send + 'static {
        let decoded = StateAndMove::decode(request.state, request.r#move.as_ref());
        let skip_events = request.skip_events;
        move || {
            decoded.played(skip_events, |game, events| pb::ApplyMoveResponse {
                state: Some(convert::state_to_pb(game)),
                events: convert::events_to_pb(events),
            })
        }
    }
}

/// The same answers written straight into protobuf's wire format ([`wire`]), for requests decoded straight into
/// the engine's values when they are canonical ([`wire::decode`]; prost's message and `convert` otherwise): what
/// the server sends. The bytes are those of the prost answers above (`api::wire::tests`; whole calls in `tests`
/// below), without building them as messages.
impl RulesService {
    /// `ListLegalMoves`, encoded.
    pub fn list_legal_moves_encoded(
        request: wire::ListLegalMovesCall,
    ) -> impl Fn() -> Result<wire::ListLegalMovesAnswer, Status> + Send + 'static {
        let (state, with_previews) = match request.into_form() {
            Form::Engine(values) => (
                Ok(DecodedState::decoded("state", values.state)),
                !values.skip_previews,
            ),
            Form::Prost(request) => (
                convert::state_setup("state", request.state),
                !request.skip_previews,
            ),
        };
        move || Ok(wire::list_legal_moves(&listed(&state)?, with_previews))
    }

    /// `ValidateMove`, encoded.
    pub fn validate_move_encoded(
        request: wire::ValidateMoveCall,
    ) -> impl Fn() -> Result<wire::ValidateMoveAnswer, Status> + Send + 'static {
        let decoded = match request.into_form() {
            Form::Engine(values) => StateAndMove::decoded(values.state, values.mv),
            Form::Prost(request) => StateAndMove::decode(request.state, request.r#move.as_ref()),
        };
        move || {
            Ok(match decoded.verdict()? {
                Ok(()) => wire::legal_move(),
                Err(illegal) => wire::validate_move(
                    false,
                    convert::reason_to_pb(illegal.reason) as i32,
                    &illegal.to_string(),
                ),
            })
        }
    }

    /// `ApplyMove`, encoded.
    pub fn apply_move_encoded(
        request: wire::ApplyMoveCall,
    ) -> impl Fn() -> Result<wire::ApplyMoveAnswer, Status> + Send + 'static {
        let (decoded, skip_events) = match request.into_form() {
            Form::Engine(values) => (
                StateAndMove::decoded(values.state, values.mv),
                values.skip_events,
            ),
            Form::Prost(request) => (
                StateAndMove::decode(request.state, request.r#move.as_ref()),
                request.skip_events,
            ),
        };
        move || decoded.played(skip_events, wire::apply_move)
    }
}

/// The built-in opponent's answers, like the ones above (each may run twice, with the same answer: a search is
/// deterministic for its seed unless its budget has a time limit).
impl RulesService {
    /// `SuggestMove`: the request decoded under `caps`, and the job that validates and searches.
    pub fn suggest_move_answer(
        request: pb::SuggestMoveRequest,
        caps: &SearchSettings,
    ) -> (
        Option<Thinker>,
        impl Fn() -> Result<pb::SuggestMoveResponse, Status> + Send + 'static,
    ) {
        let decoded = SearchRequest::decode(
            request.state,
            request.strength.as_ref().map(StrengthField::from),
            request.seed,
            request.seat,
            caps,
        );
        let with_preview = !request.skip_preview;
        (decoded.thinker(), move || {
            let valid = decoded.validate().map_err(error::search_refusal)?;
            let thinker = valid.strength.thinker;
            let found = Bot::new(thinker, decoded.seed)
                .choose(&valid.game, valid.seat)
                .ok_or_else(|| error::search_refusal(SearchRefusal::MatchOver))?;
            Ok(search_api::suggestion_to_pb(
                &valid.game,
                &valid.strength,
                &found,
                with_preview,
            ))
        })
    }

    /// `AnalyzePosition`: the request decoded under `caps`, and the job that validates and searches.
    pub fn analyze_position_answer(
        request: pb::AnalyzePositionRequest,
        caps: &SearchSettings,
    ) -> (
        Option<Thinker>,
        impl Fn() -> Result<pb::AnalyzePositionResponse, Status> + Send + 'static,
    ) {
        let decoded = SearchRequest::decode(
            request.state,
            request.strength.as_ref().map(StrengthField::from),
            request.seed,
            request.seat,
            caps,
        );
        let with_previews = !request.skip_previews;
        (decoded.thinker(), move || {
            let valid = decoded.validate().map_err(error::search_refusal)?;
            let found = search::analyze(
                &valid.game,
                valid.strength.thinker,
                valid.seat,
                decoded.seed,
            )
            .ok_or_else(|| error::search_refusal(SearchRefusal::MatchOver))?;
            Ok(search_api::analysis_to_pb(
                &valid.game,
                &valid.strength,
                &found,
                with_previews,
            ))
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
        let options = convert::options(kind.as_ref().ok().copied(), request.options.as_ref());
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
        let owner = auth::work_owner(&request);
        self.on_pool(owner, Self::list_legal_moves_answer(request.into_inner()))
            .await
    }

    async fn validate_move(
        &self,
        request: Request<pb::ValidateMoveRequest>,
    ) -> Result<Response<pb::ValidateMoveResponse>, Status> {
        let owner = auth::work_owner(&request);
        self.on_pool(owner, Self::validate_move_answer(request.into_inner()))
            .await
    }

    async fn apply_move(
        &self,
        request: Request<pb::ApplyMoveRequest>,
    ) -> Result<Response<pb::ApplyMoveResponse>, Status> {
        let owner = auth::work_owner(&request);
        self.on_pool(owner, Self::apply_move_answer(request.into_inner()))
            .await
    }

    async fn suggest_move(
        &self,
        request: Request<pb::SuggestMoveRequest>,
    ) -> Result<Response<pb::SuggestMoveResponse>, Status> {
        let owner = auth::work_owner(&request);
        let (thinker, answer) = Self::suggest_move_answer(request.into_inner(), &self.search);
        self.on_pool_searching(owner, thinker, answer).await
    }

    async fn analyze_position(
        &self,
        request: Request<pb::AnalyzePositionRequest>,
    ) -> Result<Response<pb::AnalyzePositionResponse>, Status> {
        let owner = auth::work_owner(&request);
        let (thinker, answer) = Self::analyze_position_answer(request.into_inner(), &self.search);
        self.on_pool_searching(owner, thinker, answer).await
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

/// What the server runs (see [`RulesService::into_server`]): the hot calls answer with [`wire`]'s bytes (written
/// as the functions `async_trait` would make of them, so that their futures are [`Answered`] ones), the others
/// are the prost handlers above.
#[tonic::async_trait]
impl wire::server::rules_server::Rules for RulesService {
    async fn new_game(
        &self,
        request: Request<pb::NewGameRequest>,
    ) -> Result<Response<pb::NewGameResponse>, Status> {
        pb::rules_server::Rules::new_game(self, request).await
    }

    fn list_legal_moves<'life0, 'async_trait>(
        &'life0 self,
        request: Request<wire::ListLegalMovesCall>,
    ) -> CallFuture<'async_trait, wire::ListLegalMovesAnswer>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        let (_, extensions, request) = request.into_parts();
        self.answer_or_pool(
            extensions,
            Self::list_legal_moves_encoded(request),
            Answered::boxed,
        )
    }

    fn validate_move<'life0, 'async_trait>(
        &'life0 self,
        request: Request<wire::ValidateMoveCall>,
    ) -> CallFuture<'async_trait, wire::ValidateMoveAnswer>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        let (_, extensions, request) = request.into_parts();
        self.answer_or_pool(
            extensions,
            Self::validate_move_encoded(request),
            |answer| match answer {
                Ok(answer) if answer.is_legal_move() => Box::pin(LegalMove),
                answer => Answered::boxed(answer),
            },
        )
    }

    fn apply_move<'life0, 'async_trait>(
        &'life0 self,
        request: Request<wire::ApplyMoveCall>,
    ) -> CallFuture<'async_trait, wire::ApplyMoveAnswer>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        let (_, extensions, request) = request.into_parts();
        self.answer_or_pool(
            extensions,
            Self::apply_move_encoded(request),
            Answered::boxed,
        )
    }

    async fn suggest_move(
        &self,
        request: Request<pb::SuggestMoveRequest>,
    ) -> Result<Response<pb::SuggestMoveResponse>, Status> {
        pb::rules_server::Rules::suggest_move(self, request).await
    }

    async fn analyze_position(
        &self,
        request: Request<pb::AnalyzePositionRequest>,
    ) -> Result<Response<pb::AnalyzePositionResponse>, Status> {
        pb::rules_server::Rules::analyze_position(self, request).await
    }

    async fn describe_game(
        &self,
        request: Request<pb::DescribeGameRequest>,
    ) -> Result<Response<pb::DescribeGameResponse>, Status> {
        pb::rules_server::Rules::describe_game(self, request).await
    }
}

/// The whole calls the server answers with [`wire`]'s bytes give what the prost handlers give: the same bytes, or
/// the same status (code, message, details), over random playouts of every game and option set
/// (`api::wire::tests` proves the encoder itself).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::wire::decode::tests::{mutated, playout_requests, Request as Which};
    use crate::api::wire::decode::{Call, Canonical};
    use crate::api::wire::tests::same_answer;
    use crate::api::wire::Encoded;
    use prost::Message;
    use std::fmt::Debug;

    #[test]
    fn whole_calls_answer_prosts_bytes_or_prosts_status() {
        let mut answers = 0usize;
        playout_requests(0x18_2026_1203, 12, |_, which, bytes| {
            assert!(both_ways(which, &bytes), "prost's own bytes decode");
            answers += 1;
        });
        assert!(answers > 100_000, "{answers} answers");
    }

    /// One call on `bytes` both ways: prost's decoding and handler, and the server's (the request decoded as a
    /// [`Call`], the answer encoded). The same answer or status, or the same decoding error (which tonic's codec
    /// turns into the same INTERNAL status). Returns whether the request decoded.
    fn same_call<P: Canonical + Debug, R: Message + Debug, E>(
        name: &str,
        bytes: &[u8],
        prost: impl FnOnce(P) -> Result<R, Status>,
        wire: impl FnOnce(Call<P>) -> Result<Encoded<E>, Status>,
    ) -> bool {
        match (P::decode(bytes), Call::<P>::decode(bytes)) {
            (Ok(request), Ok(call)) => {
                same_answer(name, prost(request), wire(call));
                true
            }
            (Err(p), Err(w)) => {
                assert_eq!(p.to_string(), w.to_string(), "{name} {bytes:02x?}");
                false
            }
            (p, w) => panic!("{name}: prost decoded {p:?}, the server {w:?}: {bytes:02x?}"),
        }
    }

    /// The hot calls decided inline hand over their answer in a future that holds only it (a legal move's, nothing):
    /// not `on_pool`'s state machine, built on the stack and copied into the box at every call.
    #[test]
    fn the_hot_calls_futures_hold_only_their_answers() {
        use crate::api::wire::server::rules_server::Rules as WireRules;
        use crate::pool::EnginePool;
        let settings = crate::config::Settings::default();
        let rules = RulesService::new(EnginePool::new(&settings.engine, Default::default()));
        let game = AnyGame::new_match(engine::GameKind::Bosh, &engine::Options::default());
        let state = Some(convert::state_to_pb(&game));
        let legal = Some(convert::move_to_pb(&game.legal_moves()[0]));
        let validate = |mv: Option<pb::Move>| {
            let bytes = pb::ValidateMoveRequest {
                state: state.clone(),
                r#move: mv,
            }
            .encode_to_vec();
            WireRules::validate_move(&rules, Request::new(Call::decode(&bytes[..]).unwrap()))
        };
        let legal_move = validate(legal.clone());
        assert_eq!(
            std::mem::size_of_val(&*legal_move),
            0,
            "a legal move's answer"
        );
        let no_state = validate(None);
        assert!(std::mem::size_of_val(&*no_state) <= 32, "an error");
        let bytes = pb::ApplyMoveRequest {
            state: state.clone(),
            r#move: legal,
            skip_events: false,
        }
        .encode_to_vec();
        let applied =
            WireRules::apply_move(&rules, Request::new(Call::decode(&bytes[..]).unwrap()));
        assert!(
            std::mem::size_of_val(&*applied) <= 32,
            "an ApplyMove answer"
        );
        // And they answer what the calls answer.
        fn answer<R>(mut call: CallFuture<'_, R>) -> Result<Response<R>, Status> {
            match call
                .as_mut()
                .poll(&mut Context::from_waker(std::task::Waker::noop()))
            {
                Poll::Ready(answer) => answer,
                Poll::Pending => panic!("an answered call is ready"),
            }
        }
        assert!(answer(legal_move).unwrap().get_ref().is_legal_move());
        let refused = answer(no_state).unwrap_err();
        assert_eq!(refused.code(), tonic::Code::InvalidArgument);
        assert!(!answer(applied).unwrap().get_ref().as_bytes().is_empty());
    }

    /// [`same_call`] for the request `which` of `bytes`.
    fn both_ways(which: Which, bytes: &[u8]) -> bool {
        match which {
            Which::Validate => same_call(
                "ValidateMove",
                bytes,
                |r| RulesService::validate_move_answer(r)(),
                |c| RulesService::validate_move_encoded(c)(),
            ),
            Which::Apply => same_call(
                "ApplyMove",
                bytes,
                |r| RulesService::apply_move_answer(r)(),
                |c| RulesService::apply_move_encoded(c)(),
            ),
            Which::List => same_call(
                "ListLegalMoves",
                bytes,
                |r| RulesService::list_legal_moves_answer(r)(),
                |c| RulesService::list_legal_moves_encoded(c)(),
            ),
        }
    }

    #[test]
    fn whole_calls_on_mutated_requests_answer_as_prost() {
        let (mut decoded, mut undecodable) = (0usize, 0usize);
        playout_requests(0x18_2026_1206, 2, |rng, which, bytes| {
            for _ in 0..3 {
                if both_ways(which, &mutated(rng, &bytes)) {
                    decoded += 1;
                } else {
                    undecodable += 1;
                }
            }
        });
        println!("{decoded} mutated requests answered, {undecodable} undecodable");
        assert!(
            decoded > 50_000 && undecodable > 5_000,
            "{decoded} {undecodable}"
        );
    }
}
