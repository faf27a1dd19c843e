//! `mancala.v1.Rules`' engine work: the one place where a stateless call is decided. The client holds the state;
//! a call brings it with a move, and this module validates the state, decides the move, lists and previews moves,
//! under the engine pool's one policy for every caller's engine work ([`EnginePool`], which matches and bots use
//! too): inline under `engine.inline_laps` when that decides it, as it nearly always does, else again on the
//! pool's long lane for the caller, under the call's whole budget and stopped if the call is dropped. A search
//! (`SuggestMove`, `AnalyzePosition`) is long by nature and goes to the pool at once ([`Rules::search`]).
//!
//! It speaks engine values only: a request arrives decoded into a [`StateAndMove`] (or a [`ClientState`]), and
//! its answer is made by an encoder the caller hands in and run inside the job, so that it is written while the
//! position and the move's events are at hand, on the thread that played the move, without copying them out. A
//! call that is refused says why in a [`Refusal`]; `api/` turns it into a status.

mod request;

pub use request::{listed, ClientState, Decoded, Held, StateAndMove};

use std::future::Future;

use crate::engine::search::{Algorithm, Thinker};
use crate::engine::{self, AnyGame, Description, Event, GameKind, IllegalMove, Options, Violation};
use crate::pool::{EnginePool, Owner, WorkError};

/// The stateless calls' engine work, on its pool.
#[derive(Debug, Clone)]
pub struct Rules {
    pool: EnginePool,
}

/// Why a call has no answer.
#[derive(Debug, Clone)]
pub enum Refusal {
    /// The request's fields or its state are wrong: every violation, with its path from the request's root.
    Invalid(Vec<Violation>),
    /// The move breaks a rule of the position (`ApplyMove`'s refusal; `ValidateMove` answers it).
    Illegal(IllegalMove),
    /// The engine's work did not finish: its budget spent, the pool busy or the caller at its share, shutting
    /// down.
    Unfinished(WorkError),
}

/// A call's answer as its handler gets it: decided already, as nearly every call is (the answer is then worked out
/// before any future is made, so that the handler's future need hold only the answer), or to be awaited from the
/// pool's long lane.
pub enum Decided<A, L> {
    /// Decided inline.
    Now(Result<A, Refusal>),
    /// Running long: the future of its answer.
    Later(L),
}

impl<A, L: Future<Output = Result<A, Refusal>>> Decided<A, L> {
    /// The answer, however it is decided.
    pub async fn settled(self) -> Result<A, Refusal> {
        match self {
            Decided::Now(answer) => answer,
            Decided::Later(later) => later.await,
        }
    }
}

impl Rules {
    /// The stateless calls, running their engine work on `pool`.
    pub fn new(pool: EnginePool) -> Rules {
        Rules { pool }
    }

    /// `ValidateMove`: whether the request's move is legal in its state (`Err` inside: the rule it breaks), made
    /// into the answer by `answer`; refused when the state or the move is wrong. `owner` says whose work it is,
    /// should it turn long (worked out only then).
    pub fn validate_move<'a, S: Held, A: Send + 'static>(
        &'a self,
        request: StateAndMove<S>,
        owner: impl FnOnce() -> Owner,
        answer: impl Fn(Result<(), IllegalMove>) -> A + Send + 'static,
    ) -> Decided<A, impl Future<Output = Result<A, Refusal>> + Send + 'a> {
        self.decide(owner, move || request.verdict().map(&answer))
    }

    /// `ApplyMove`: the request's move played, the game after it and the events it recorded (none for
    /// `skip_events`) made into the answer by `answer`; refused when the move is illegal or the request wrong.
    pub fn apply_move<'a, S: Held, A: Send + 'static>(
        &'a self,
        request: StateAndMove<S>,
        skip_events: bool,
        owner: impl FnOnce() -> Owner,
        answer: impl Fn(&AnyGame, &[Event]) -> A + Send + 'static,
    ) -> Decided<A, impl Future<Output = Result<A, Refusal>> + Send + 'a> {
        self.decide(owner, move || request.played(skip_events, &answer))
    }

    /// `ListLegalMoves`: the game of the request's state, once the rules accept it, made into the answer by
    /// `answer` (which lists its moves, previewing each if asked).
    pub fn list_legal_moves<'a, S: Held, A: Send + 'static>(
        &'a self,
        state: Decoded<S>,
        owner: impl FnOnce() -> Owner,
        answer: impl Fn(&AnyGame) -> A + Send + 'static,
    ) -> Decided<A, impl Future<Output = Result<A, Refusal>> + Send + 'a> {
        self.decide(owner, move || {
            request::listed(&state).map(|game| answer(&game))
        })
    }

    /// `NewGame`: the start of a match of `kind` under `options`. Fixed work (a board laid out), so never on the
    /// pool.
    pub fn new_game(kind: GameKind, options: &Options) -> AnyGame {
        AnyGame::new_match(kind, options)
    }

    /// `DescribeGame`: what a client needs to know of `kind`'s rules. Fixed work, never on the pool.
    pub fn describe(kind: GameKind) -> Description {
        engine::describe(kind)
    }

    /// A search's `job` (`SuggestMove`, `AnalyzePosition`) for `owner`: on the pool at once, its quick lane first
    /// when the search is expected short ([`EnginePool::run_search`]), under a Rules call's lap budget and
    /// stopped with the call; like any other call (inline first) for the players that think one move ahead
    /// (random, greedy) and for a request refused before any search (`thinker` unknown). `job` may run twice,
    /// with the same answer: a search is deterministic for its seed unless its budget has a time limit.
    pub async fn search<R: Send + 'static>(
        &self,
        owner: Owner,
        thinker: Option<Thinker>,
        job: impl Fn() -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        let limits = self.pool.rules_limits();
        match thinker {
            Some(
                thinker @ Thinker {
                    algorithm: Algorithm::AlphaBeta | Algorithm::Mcts,
                    ..
                },
            ) => {
                let expected = thinker.expected_plies();
                self.pool
                    .run_search(owner, limits.laps, expected, job)
                    .await
            }
            _ => self.pool.run(owner, limits, job).await,
        }
    }

    /// The one policy of a stateless call's engine work: `job` inline when it is decided within
    /// `engine.inline_laps`, else again on the long lane for `owner()` under `engine.rules_budget_laps` (so `job`
    /// may run twice, with the same answer).
    fn decide<'a, A: Send + 'static>(
        &'a self,
        owner: impl FnOnce() -> Owner,
        job: impl Fn() -> Result<A, Refusal> + Send + 'static,
    ) -> Decided<A, impl Future<Output = Result<A, Refusal>> + Send + 'a> {
        let limits = self.pool.rules_limits();
        match self.pool.try_inline(limits, &job) {
            Some(decided) => Decided::Now(finished(decided)),
            None => {
                let owner = owner();
                Decided::Later(async move {
                    finished(self.pool.run_long(owner, limits.laps, job).await)
                })
            }
        }
    }
}

/// A job's answer, or the refusal of work that did not finish.
fn finished<A>(ran: Result<Result<A, Refusal>, WorkError>) -> Result<A, Refusal> {
    ran.unwrap_or_else(|unfinished| Err(Refusal::Unfinished(unfinished)))
}
