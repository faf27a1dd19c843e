//! A stateless call's request in engine values, and the engine work done on it: the client's state decoded field
//! by field but not yet checked by the game's rules (which is engine work: whether the player to move can move
//! may have to decide a long relay), the move, and what the calls ask of them.

use std::cell::RefCell;
use std::ops::Deref;

use super::Refusal;
use crate::engine::{self, AnyGame, GameKind, IllegalMove, InvalidState, Move, Setup, Violation};

/// What a decoded state's [`Setup`] is held in: `api/` boxes it, in a box its thread keeps for the next request
/// (a `Setup` holds its lists in place, and moves into the call's job as a pointer).
pub trait Held: Deref<Target = Setup> + Send + Sync + 'static {}

impl<S: Deref<Target = Setup> + Send + Sync + 'static> Held for S {}

/// A client's state decoded field by field into its [`Setup`], with the fields that did not decode; the game's
/// own checks are still to run ([`ClientState::validate`]), so that every violation is reported at once.
#[derive(Debug, Clone)]
pub struct ClientState<S> {
    /// The request's field the state came in (the root of the violations' paths).
    field: &'static str,
    setup: S,
    violations: Vec<Violation>,
}

/// A request's state as decoded: the state, or what stopped its decoding (no state, no kind).
pub type Decoded<S> = Result<ClientState<S>, Vec<Violation>>;

impl<S: Held> ClientState<S> {
    /// The state of request field `field`, decoded into `setup` but for `violations` (paths from the root).
    pub fn new(field: &'static str, setup: S, violations: Vec<Violation>) -> ClientState<S> {
        ClientState {
            field,
            setup,
            violations,
        }
    }

    /// The game, once its rules accept the setup.
    pub fn validate(&self) -> Result<AnyGame, Vec<Violation>> {
        match AnyGame::from_setup(&self.setup) {
            Ok(game) if self.violations.is_empty() => Ok(game),
            Ok(_) => Err(self.violations.clone()),
            Err(invalid) => Err(self.invalid(invalid)),
        }
    }

    /// The game once its rules accept the setup, with `on_move` (a check or a play of a move of the player to
    /// move) run on it: what [`ClientState::validate`] then `on_move` answer, with the state's can-move check
    /// left to the move when it is legal ([`AnyGame::from_setup_then`]).
    pub fn validate_then<R>(
        &self,
        on_move: impl FnOnce(&mut AnyGame) -> Result<R, IllegalMove>,
    ) -> Result<(AnyGame, Result<R, IllegalMove>), Vec<Violation>> {
        if self.violations.is_empty() {
            AnyGame::from_setup_then(&self.setup, on_move).map_err(|invalid| self.invalid(invalid))
        } else {
            let mut game = self.validate()?;
            let answer = on_move(&mut game);
            Ok((game, answer))
        }
    }

    /// The decoding's violations and then the game's, with paths from the request root.
    fn invalid(&self, invalid: InvalidState) -> Vec<Violation> {
        let field = self.field;
        let mut violations = self.violations.clone();
        // A field already reported as undecodable is not reported again by the game's checks.
        for v in invalid.0 {
            let field = format!("{field}.{}", v.field);
            if !violations.iter().any(|seen| seen.field == field) {
                violations.push(Violation {
                    field,
                    description: v.description,
                });
            }
        }
        violations
    }

    /// The game kind, known once a state decodes this far.
    pub fn kind(&self) -> GameKind {
        self.setup.kind
    }

    /// The setup, when every field decoded (no violation so far).
    #[cfg(test)]
    pub(crate) fn clean_setup(&self) -> Option<&Setup> {
        self.violations.is_empty().then_some(&self.setup)
    }
}

/// The game of a request's state, once the rules accept it (`ListLegalMoves`' engine work).
pub fn listed<S: Held>(state: &Decoded<S>) -> Result<AnyGame, Refusal> {
    state
        .as_ref()
        .map_err(|v| Refusal::Invalid(v.clone()))?
        .validate()
        .map_err(Refusal::Invalid)
}

/// A request's state and move, decoded field by field (no engine work yet).
#[derive(Debug)]
pub struct StateAndMove<S> {
    state: Decoded<S>,
    /// Decoded once the state's kind is known (a move is checked against its board); `None` before.
    mv: Option<Result<Move, Vec<Violation>>>,
}

impl<S: Held> StateAndMove<S> {
    /// The request's `state` and its move, decoded by `mv` for the state's kind as soon as the kind is known
    /// (even if the state is bad otherwise: the violations of both are reported at once).
    pub fn new(
        state: Decoded<S>,
        mv: impl FnOnce(GameKind) -> Result<Move, Vec<Violation>>,
    ) -> StateAndMove<S> {
        let mv = state.as_ref().ok().map(|s| mv(s.kind()));
        StateAndMove { state, mv }
    }

    /// A state (request field `state`) and move decoded with nothing wrong.
    pub fn decoded(setup: S, mv: Move) -> StateAndMove<S> {
        StateAndMove {
            state: Ok(ClientState::new("state", setup, Vec::new())),
            mv: Some(Ok(mv)),
        }
    }

    /// The game and the move, once the rules accept the state; the violations of both at once otherwise.
    fn validate(&self) -> Result<(AnyGame, Move), Refusal> {
        let game = self
            .state
            .as_ref()
            .map_err(Clone::clone)
            .and_then(ClientState::validate);
        match (game, &self.mv) {
            (Ok(game), Some(Ok(mv))) => Ok((game, *mv)),
            (game, mv) => {
                let mut violations = game.err().unwrap_or_default();
                if let Some(Err(v)) = mv {
                    violations.extend(v.iter().cloned());
                }
                Err(Refusal::Invalid(violations))
            }
        }
    }

    /// The game with `on_move` run on it once the rules accept the state (see [`ClientState::validate_then`]);
    /// the violations of the state and the move at once otherwise.
    fn validate_then<R>(
        &self,
        on_move: impl FnOnce(&mut AnyGame, &Move) -> Result<R, IllegalMove>,
    ) -> Result<(AnyGame, Result<R, IllegalMove>), Refusal> {
        match (&self.state, &self.mv) {
            (Ok(state), Some(Ok(mv))) => state
                .validate_then(|game| on_move(game, mv))
                .map_err(Refusal::Invalid),
            _ => {
                let (mut game, mv) = self.validate()?;
                let answer = on_move(&mut game, &mv);
                Ok((game, answer))
            }
        }
    }

    /// `ValidateMove`'s engine work: whether the move is legal (`Err` inside: the rule it breaks).
    pub fn verdict(&self) -> Result<Result<(), IllegalMove>, Refusal> {
        self.validate_then(|game, mv| game.play(mv, &mut engine::LegalityOnly))
            .map(|(_, verdict)| verdict)
    }

    /// `ApplyMove`'s engine work: the move played, and `answer` made of the game after it and the events it
    /// recorded (none when `skip_events`).
    pub fn played<A>(
        &self,
        skip_events: bool,
        answer: impl FnOnce(&AnyGame, &[engine::Event]) -> A,
    ) -> Result<A, Refusal> {
        /// Room kept for the events of the longest ordinary moves (a few laps of drops, captures, an end).
        const KEPT_EVENTS: usize = 1024;
        thread_local! {
            /// The events of the last move played on this thread: one vector reused, not one a call.
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
                .map_err(Refusal::Illegal);
            // A long relay's drops are not kept for the life of the thread.
            if events.capacity() > KEPT_EVENTS {
                *events = Vec::new();
            }
            answer
        })
    }
}
