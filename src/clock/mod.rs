//! Time controls and the clocks of a server-held match.
//!
//! The server keeps the time; clients only show it. A match's clocks are never stored: like its position, they
//! are the replay of its log, each event carrying the moment the server accepted it (`at_ms`). So every replica,
//! and a server restarted after a crash, computes the same clocks from the same log, and the moment a flag falls
//! is a pure function of the log ([`Clocks::deadline`]).
//!
//! The rules this module keeps (docs/guide/clocks.md):
//! - **When the clocks start.** No clock runs until each seat has made its first sowing. Until then a match can
//!   be aborted (no result), and one whose awaited first sowing does not come within the abort time is aborted
//!   by the server ([`Due::Abort`]).
//! - **Which clock runs.** During a game, the clock of the seat to sow. Between games (the `NextGame` step) no
//!   clock runs: either seat may start the next game, so nobody can stall the match there, and each seat keeps
//!   its remaining time into the next game. `NextGame` neither costs time nor earns an increment.
//! - **What a sowing costs.** [`TimeControl::Fischer`]: the time it took, then the increment is added.
//!   [`TimeControl::Delay`]: only the time beyond the delay counts, and nothing is added. [`TimeControl::Correspondence`]:
//!   each seat's clock is set back to the whole time per move after its sowing.
//! - **The flag.** When the running clock reaches zero the seat has lost on time ([`Due::Flag`]), whether or
//!   not anybody calls: the server appends the event itself.
//!
//! [`Time`] is where "now" comes from: the system clock in production, [`ManualTime`] in tests, which move time
//! by hand instead of sleeping.

mod time;

pub use time::{now_ms, ManualTime, SystemTime, Time};

use crate::engine::notation::Action;
use crate::engine::{AnyGame, Move, Player, Status};

/// Milliseconds in a day, for correspondence time controls.
pub const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// How a match is timed, chosen when it is created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// No clocks: a seat may take as long as it likes (the match's idle expiry still applies).
    #[default]
    Untimed,
    /// Each seat starts with `initial_ms`; each sowing adds `increment_ms` to the mover's clock after it.
    Fischer {
        /// Each seat's time at the start.
        initial_ms: u64,
        /// Added after each sowing.
        increment_ms: u64,
    },
    /// Each seat starts with `initial_ms`; the first `delay_ms` of each turn are free (a simple delay).
    Delay {
        /// Each seat's time at the start.
        initial_ms: u64,
        /// The part of each turn that does not count.
        delay_ms: u64,
    },
    /// Each sowing must come within `days` days of the turn's start.
    Correspondence {
        /// Days per move.
        days: u32,
    },
}

impl TimeControl {
    /// Whether the match has clocks at all.
    pub fn timed(&self) -> bool {
        *self != TimeControl::Untimed
    }

    /// Each seat's time when the clocks start.
    pub fn initial_ms(&self) -> u64 {
        match *self {
            TimeControl::Untimed => 0,
            TimeControl::Fischer { initial_ms, .. } | TimeControl::Delay { initial_ms, .. } => {
                initial_ms
            }
            TimeControl::Correspondence { days } => u64::from(days) * DAY_MS,
        }
    }

    /// The free part of each turn (a [`TimeControl::Delay`]'s delay; 0 otherwise).
    pub fn delay_ms(&self) -> u64 {
        match *self {
            TimeControl::Delay { delay_ms, .. } => delay_ms,
            _ => 0,
        }
    }

    /// How long a seat whose first sowing the match awaits may take before the server aborts the match;
    /// `None`: never aborted for it. Correspondence gives the first move a whole turn; the real-time controls
    /// the server's `abort_after` (`[clock] abort_after_ms`); an untimed match is never aborted by the server.
    pub fn abort_after_ms(&self, abort_after_ms: u64) -> Option<u64> {
        match self {
            TimeControl::Untimed => None,
            TimeControl::Correspondence { .. } => Some(self.initial_ms()),
            TimeControl::Fischer { .. } | TimeControl::Delay { .. } => Some(abort_after_ms),
        }
    }

    /// What is wrong with this time control, if anything (for the field `field` of a request).
    pub fn check(&self, max_initial_ms: u64) -> Result<(), String> {
        let too_long = |what: &str, ms: u64| {
            (ms > max_initial_ms).then(|| {
                format!("{what} is {ms} ms; at most {max_initial_ms} ms (clock.max_initial_ms)")
            })
        };
        let too_short = |initial_ms: u64| {
            (initial_ms < MIN_INITIAL_MS).then(|| {
                format!("the initial time is {initial_ms} ms; at least {MIN_INITIAL_MS} ms")
            })
        };
        let problem = match *self {
            TimeControl::Untimed => None,
            TimeControl::Fischer {
                initial_ms,
                increment_ms,
            } => {
                too_short(initial_ms)
                    .or_else(|| too_long("the initial time", initial_ms))
                    .or_else(|| too_long("the increment", increment_ms))
            }
            TimeControl::Delay {
                initial_ms,
                delay_ms,
            } => {
                too_short(initial_ms)
                    .or_else(|| too_long("the initial time", initial_ms))
                    .or_else(|| too_long("the delay", delay_ms))
            }
            TimeControl::Correspondence { days } => {
                (!(1..=MAX_CORRESPONDENCE_DAYS).contains(&days)).then(|| {
                    format!(
                        "{days} days per move; a correspondence match has 1 to {MAX_CORRESPONDENCE_DAYS}"
                    )
                })
            }
        };
        problem.map_or(Ok(()), Err)
    }
}

/// The shortest initial time a Fischer or delay control may give: less and a seat could lose on time to the network
/// alone (or a bot to its own think delay).
pub const MIN_INITIAL_MS: u64 = 1_000;

/// The most days per move a correspondence match may have.
pub const MAX_CORRESPONDENCE_DAYS: u32 = 30;

/// What the clocks will do next if nothing else happens first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// At `at_ms` the seat's time runs out: it loses on time.
    Flag {
        /// Whose flag falls.
        seat: Player,
        /// When.
        at_ms: u64,
    },
    /// At `at_ms` the match is aborted: the seat's first sowing did not come.
    Abort {
        /// The seat the match waits for.
        seat: Player,
        /// When.
        at_ms: u64,
    },
}

impl Due {
    /// When it happens.
    pub fn at_ms(&self) -> u64 {
        match *self {
            Due::Flag { at_ms, .. } | Due::Abort { at_ms, .. } => at_ms,
        }
    }

    /// The seat it happens to.
    pub fn seat(&self) -> Player {
        match *self {
            Due::Flag { seat, .. } | Due::Abort { seat, .. } => seat,
        }
    }

    /// The event the server appends when it is due: the seat's flag, or the abort.
    pub fn action(&self) -> Action {
        match self {
            Due::Flag { .. } => Action::Flag,
            Due::Abort { .. } => Action::Abort,
        }
    }
}

/// A match's clocks after some event of its log (or at its creation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The match's time control.
    pub control: TimeControl,
    /// Each seat's time left, `[South, North, East]`, as of `since_ms` for the running one (East's is unused in
    /// a two-player match).
    pub remaining_ms: [u64; 3],
    /// The seat whose clock runs; `None` before the clocks start, between games and once the match is over.
    pub running: Option<Player>,
    /// When the running clock started its turn (or when the match began waiting for the awaited sowing).
    pub since_ms: u64,
    /// Whether each seat has made its first sowing, `[South, North, East]`.
    pub sown: [bool; 3],
    /// The match's seats: 2, or 3 in three-player Ba-awa.
    pub seats: u8,
    /// The seat whose first sowing the match awaits before the clocks start; `None` once they have started or
    /// when the match waits for no sowing.
    pub awaiting_first: Option<Player>,
    /// The abort time the server gives an awaited first sowing (`[clock] abort_after_ms`).
    abort_after_ms: u64,
}

impl Clocks {
    /// The clocks of a new match created at `created_ms`, waiting for `game`'s first sowing.
    pub fn new(control: TimeControl, abort_after_ms: u64, created_ms: u64, game: &AnyGame) -> Self {
        let initial = control.initial_ms();
        Clocks {
            control,
            remaining_ms: [initial; 3],
            running: None,
            since_ms: created_ms,
            sown: [false; 3],
            seats: game.seats() as u8,
            awaiting_first: game.to_move(),
            abort_after_ms,
        }
    }

    /// Whether the clocks have started: each seat has sown once.
    pub fn started(&self) -> bool {
        self.sown[..self.seats as usize].iter().all(|&sown| sown)
    }

    /// The clocks after `action` by `seat` accepted at `at_ms`, `game` being the position after it.
    ///
    /// A log's times only grow, but a stored log is the truth even where they do not: a step back in time costs
    /// nothing rather than failing the replay.
    pub fn after(&mut self, seat: Player, action: &Action, at_ms: u64, game: &AnyGame) {
        let was_started = self.started();
        match action {
            Action::Move(Move::Sow(_)) => {
                if was_started && self.running == Some(seat) {
                    self.charge_sowing(seat, at_ms);
                }
                self.sown[seat.index()] = true;
            }
            Action::Move(Move::NextGame(_)) => {}
            // An offer or its answer changes no clock, unless it ended the game: then the clock stops as after the
            // game's last sowing, charged to the moment the game ended.
            Action::Agreement(_) if game.status() == Status::InProgress => return,
            Action::Agreement(_) => {
                if let Some(running) = self.running {
                    self.charge(running, at_ms);
                }
            }
            Action::Flag => {
                self.remaining_ms[seat.index()] = 0;
                self.stop();
                return;
            }
            Action::Resign | Action::Expire | Action::Abort | Action::Claim => {
                if let Some(running) = self.running {
                    self.charge(running, at_ms);
                }
                self.stop();
                return;
            }
        }
        self.running = None;
        self.awaiting_first = None;
        self.since_ms = at_ms;
        if game.status() != Status::InProgress {
            // Between games, or the match is over: nobody's clock runs.
            return;
        }
        let Some(next) = game.to_move() else { return };
        if self.started() {
            if self.control.timed() {
                self.running = Some(next);
            }
        } else {
            self.awaiting_first = Some(next);
        }
    }

    fn stop(&mut self) {
        self.running = None;
        self.awaiting_first = None;
    }

    /// The time a turn of `seat` ending at `at_ms` costs it, taken off its clock (never below 0).
    fn charge(&mut self, seat: Player, at_ms: u64) {
        let spent = self.spent_by(at_ms);
        let left = &mut self.remaining_ms[seat.index()];
        *left = left.saturating_sub(spent);
    }

    /// What the turn that began at `since_ms` has cost by `at_ms`: the time past its delay.
    fn spent_by(&self, at_ms: u64) -> u64 {
        at_ms
            .saturating_sub(self.since_ms)
            .saturating_sub(self.control.delay_ms())
    }

    /// A sowing by the seat whose clock runs: its cost, then what the control gives back.
    fn charge_sowing(&mut self, seat: Player, at_ms: u64) {
        match self.control {
            TimeControl::Untimed => {}
            TimeControl::Fischer { increment_ms, .. } => {
                self.charge(seat, at_ms);
                self.remaining_ms[seat.index()] =
                    self.remaining_ms[seat.index()].saturating_add(increment_ms);
            }
            TimeControl::Delay { .. } => self.charge(seat, at_ms),
            TimeControl::Correspondence { .. } => {
                self.remaining_ms[seat.index()] = self.control.initial_ms();
            }
        }
    }

    /// What happens next if nobody acts: the running seat's flag, or the abort of a match whose awaited first
    /// sowing does not come. `None` for an untimed match that has started, between games, and once it is over.
    pub fn deadline(&self) -> Option<Due> {
        if let Some(seat) = self.running {
            let allowance = self.remaining_ms[seat.index()].saturating_add(self.control.delay_ms());
            return Some(Due::Flag {
                seat,
                at_ms: self.since_ms.saturating_add(allowance),
            });
        }
        let seat = self.awaiting_first?;
        let after = self.control.abort_after_ms(self.abort_after_ms)?;
        Some(Due::Abort {
            seat,
            at_ms: self.since_ms.saturating_add(after),
        })
    }

    /// What is due at `now_ms`, if anything.
    pub fn due_at(&self, now_ms: u64) -> Option<Due> {
        self.deadline().filter(|due| due.at_ms() <= now_ms)
    }

    /// Each seat's time left at `now_ms`, `[South, North, East]`: the running clock counted down (after its
    /// delay). Only the first [`Clocks::seats`] entries are the match's.
    pub fn remaining_at(&self, now_ms: u64) -> [u64; 3] {
        let mut remaining = self.remaining_ms;
        if let Some(seat) = self.running {
            remaining[seat.index()] = remaining[seat.index()].saturating_sub(self.spent_by(now_ms));
        }
        remaining
    }
}

#[cfg(test)]
mod tests;
