//! Endless play across turns (§1, R-2.13): what ends a game that could otherwise go on for ever with every move
//! legal, in match play (server-held matches, the arena, the built-in bots).
//!
//! * **Repetition.** The third occurrence of one [position](position) in a game (Bosh: a round) ends it. The
//!   positions are counted from the game's first, after each whole move; states inside a move never count.
//! * **Agreement.** The seats still in the game may all agree to end it ([`agreement`]).
//! * Either way the game ends as its rules say ([`AnyGame::end_across_turns`]): Bosh's players each take their own
//!   row's stones, Ba-awa's starter takes what is left, Bao la Kete's player with more seeds wins (equal: a draw).
//! * **Match length.** A match has at most [`Options::max_games`] games (Bosh: rounds); when that many are over
//!   without a match winner, the leader wins it ([`AnyGame::match_leader`]), or it is drawn.
//!
//! The stateless calls see one position and no history, so only a keeper of the history applies this: a match
//! keeps an [`AcrossTurns`] beside its game and hands it every event, live and when its log is replayed, so the
//! counts are a function of the log (like the clocks).

pub mod agreement;
mod position;

pub use agreement::{Agreement, AgreementAction, AgreementRefusal};
pub use position::{key_of_view, position_key};

use super::{AnyGame, EndReason, Event, GameKind, Options, Status};

/// Bosh: rounds a match has at most unless its options say otherwise. Random play ends 99 % of its matches
/// within 25 rounds, and a match between people rarely passes 15 (BENCHMARKS.md "Match lengths").
pub const BOSH_DEFAULT_MAX_ROUNDS: u32 = 60;
/// Ba-awa: games a match has at most unless its options say otherwise (two or three players); see
/// [`BOSH_DEFAULT_MAX_ROUNDS`].
pub const BA_AWA_DEFAULT_MAX_GAMES: u32 = 60;
/// Bao la Kete: five games (§1 "Match length"): two wins end a match, and drawn games count for neither.
pub const BAO_LA_KETE_DEFAULT_MAX_GAMES: u32 = 5;
/// The most games an option may ask for.
pub const MAX_GAMES_LIMIT: u32 = 1000;

/// Games (Bosh: rounds) a match of `kind` has at most when its options do not say (§1 "Match length").
pub fn default_max_games(kind: GameKind) -> u32 {
    match kind {
        GameKind::BaoLaKete => BAO_LA_KETE_DEFAULT_MAX_GAMES,
        GameKind::Bosh => BOSH_DEFAULT_MAX_ROUNDS,
        GameKind::BaAwa => BA_AWA_DEFAULT_MAX_GAMES,
    }
}

/// How a game or round that ended across turns ended, or how the match length ended a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game (round) ended by repetition or agreement; the match may go on.
    Game(EndReason),
    /// The match reached its length: the leader (if any) wins it.
    MatchLength,
}

/// What a match keeps to apply §1's "Endless play across turns": the positions of the game being played, the
/// seats agreeing to end it, and the match's length. A pure function of the match's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcrossTurns {
    /// Whether the third occurrence of a position ends the game (an option, on by default).
    repetition: bool,
    /// Games (Bosh: rounds) the match has at most.
    max_games: u32,
    /// The game whose positions `seen` holds.
    game_number: u32,
    /// The position key after each whole move of that game (and its first position), in order.
    seen: Vec<u64>,
    /// Who agrees to end the game.
    agreement: Agreement,
}

impl AcrossTurns {
    /// The rules for a match of `kind` with `options`, starting from `game` (its first position counted).
    pub fn start(kind: GameKind, options: &Options, game: &AnyGame) -> AcrossTurns {
        let mut across = AcrossTurns {
            repetition: options.repetition,
            max_games: options.max_games_for(kind),
            game_number: 0,
            seen: Vec::new(),
            agreement: Agreement::default(),
        };
        across.count(game);
        across
    }

    /// Whether repetition ends games in this match.
    pub fn repetition(&self) -> bool {
        self.repetition
    }

    /// Games (Bosh: rounds) the match has at most.
    pub fn max_games(&self) -> u32 {
        self.max_games
    }

    /// Who agrees to end the game being played.
    pub fn agreement(&self) -> Agreement {
        self.agreement
    }

    /// How many times the position `game` stands in has occurred in this game (0 between games).
    pub fn occurrences(&self, game: &AnyGame) -> usize {
        if game.status() != Status::InProgress {
            return 0;
        }
        self.seen_times(position_key(game))
    }

    /// How many times the position with `key` has occurred in this game.
    fn seen_times(&self, key: u64) -> usize {
        self.seen.iter().filter(|&&seen| seen == key).count()
    }

    /// Counts the position `game` stands in after a whole move (or at a game's start): a new game starts a new
    /// count. Returns its occurrences in this game (0 when no game is being played).
    fn count(&mut self, game: &AnyGame) -> usize {
        if game.status() != Status::InProgress {
            return 0;
        }
        let number = game.game_number();
        if number != self.game_number {
            self.game_number = number;
            self.seen.clear();
            self.agreement = Agreement::default();
        }
        // One key a move: computed here and counted at once, not again by `occurrences`.
        let key = position_key(game);
        self.seen.push(key);
        self.seen_times(key)
    }

    /// Checks an agreement action of `seat` on `game` before it is written: refused with the reason otherwise.
    pub fn check_agreement(
        &self,
        game: &AnyGame,
        seat: super::Player,
        action: AgreementAction,
    ) -> Result<(), AgreementRefusal> {
        self.agreement.check(game, seat, action)
    }

    /// Applies an accepted agreement action; when every seat still in agrees, the game ends by agreement,
    /// recorded into `trace`. Returns how the game (or the match) ended, if it did.
    pub fn agree(
        &mut self,
        game: &mut AnyGame,
        seat: super::Player,
        action: AgreementAction,
        trace: &mut Vec<Event>,
    ) -> Option<Ending> {
        if self.agreement.apply(game, seat, action) {
            self.agreement = Agreement::default();
            return Some(self.end(game, EndReason::Agreement, trace));
        }
        None
    }

    /// What follows a whole move of `mover` on `game`, the state after it: his agreement lapses, the position is
    /// counted and its third occurrence ends the game (when the rule is on), and a game or round that is over
    /// with the match going on ends the match when it was the last the match may have. `trace` is the move's
    /// events, which the ending's are appended to.
    pub fn after_move(
        &mut self,
        game: &mut AnyGame,
        mover: super::Player,
        trace: &mut Vec<Event>,
    ) -> Option<Ending> {
        self.agreement.lapse(mover);
        if self.count(game) >= 3 && self.repetition {
            return Some(self.end(game, EndReason::Repetition, trace));
        }
        self.length_reached(game).then_some(Ending::MatchLength)
    }

    /// Ends the game being played by `reason` and says whether the match length then ends the match.
    fn end(&mut self, game: &mut AnyGame, reason: EndReason, trace: &mut Vec<Event>) -> Ending {
        game.end_across_turns(reason, trace);
        if self.length_reached(game) {
            Ending::MatchLength
        } else {
            Ending::Game(reason)
        }
    }

    /// Whether `game` has just finished the last game (Bosh: round) the match may have, the match not being over
    /// by its rules: the match then ends with [`AnyGame::match_leader`] as its winner.
    pub fn length_reached(&self, game: &AnyGame) -> bool {
        matches!(game.status(), Status::GameOver | Status::RoundOver)
            && game.game_number() >= self.max_games
    }
}

#[cfg(test)]
mod tests;
