//! Bounded engine work: a call's budget of laps, and its cancellation.
//!
//! Almost every move ends within a few laps, but a crafted position (or, rarely, one of play) can enter a relay
//! cycle of hundreds of millions of laps before the never-ending check (§1) decides it. A server cannot let one
//! request spend seconds of CPU unasked, so the engine counts its work and stops when the caller's budget is
//! spent or the caller cancels.
//!
//! The meter is scoped to one thread by [`Budget::run`] rather than passed to every rule: the rules that sow
//! do not care how much may be spent, only the few loops that can run long (relay laps on the board and in the
//! never-ending checks) ask [`spend`]. When the meter runs out those loops give up at once with *some* answer
//! (a move treated as never ending), and [`Budget::run`] throws the whole answer away: a move is never called
//! legal or illegal without being decided. Outside [`Budget::run`] the meter is unlimited, so playouts, tests
//! and benchmarks see the engine exactly as before.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How many laps pass between two looks at the cancellation flag (an atomic load; cheap, but not free in a
/// loop of a few nanoseconds a lap).
const LAPS_BETWEEN_CANCEL_CHECKS: u64 = 1 << 14;

/// What one call may spend: a number of laps, and the flags whose setting stops it (the caller went away, its
/// deadline passed, the server shuts down). A lap counts when a move has already run 16 (nearly every move
/// ends sooner, and is not metered at all), and every step of a never-ending check counts.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    laps: u64,
    cancel: Vec<Arc<AtomicBool>>,
}

/// Why work under a [`Budget`] stopped before its answer was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unfinished {
    /// The budget's laps were spent.
    #[error("the engine's work budget of {budget} laps was spent before the answer was decided")]
    Exhausted {
        /// The budget that was spent.
        budget: u64,
    },
    /// A cancellation flag was set.
    #[error("the engine's work was cancelled")]
    Cancelled,
}

impl Budget {
    /// A budget of `laps` laps.
    pub fn laps(laps: u64) -> Budget {
        Budget {
            laps,
            cancel: Vec::new(),
        }
    }

    /// The laps this budget allows.
    pub fn limit(&self) -> u64 {
        self.laps
    }

    /// No limit and no cancellation (what the engine does outside [`Budget::run`]).
    pub fn unlimited() -> Budget {
        Budget::laps(u64::MAX)
    }

    /// This budget, also stopped when `flag` is set.
    pub fn cancelled_by(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel.push(flag);
        self
    }

    /// Runs `work` on this thread under the budget: its answer and the laps spent, or why it was stopped (the
    /// answer is then thrown away: it may have been decided on a give-up). Runs may nest; the inner one is
    /// bounded by its own budget only.
    ///
    /// ```
    /// use mancala::engine::{AnyGame, Budget, GameKind, Options};
    ///
    /// let game = AnyGame::new_match(GameKind::Bosh, &Options::default());
    /// // Moves of a few laps are not metered: listing the opening moves costs nothing.
    /// let (moves, spent) = Budget::laps(0).run(|| game.legal_moves()).unwrap();
    /// assert_eq!((moves.len(), spent), (5, 0));
    /// ```
    pub fn run<R>(&self, work: impl FnOnce() -> R) -> Result<(R, u64), Unfinished> {
        let ours = Meter::from(self);
        let outer = METER.replace(ours);
        // The flags are swapped in only when this run or the one it interrupts has any: the inline try of nearly
        // every call has none, and touches nothing but the meter's counters.
        let outer_cancel = (ours.cancellable || outer.cancellable)
            .then(|| CANCEL.with(|flags| flags.replace(self.cancel.clone())));
        // Restores the caller's meter (and flags) even if `work` panics.
        struct Restore(Meter, Option<Vec<Arc<AtomicBool>>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                METER.set(self.0);
                if let Some(flags) = self.1.take() {
                    CANCEL.with(|cancel| cancel.replace(flags));
                }
            }
        }
        let restore = Restore(outer, outer_cancel);
        let answer = work();
        let ours = METER.get();
        drop(restore);
        match ours.stopped {
            None => Ok((answer, self.laps - ours.left)),
            Some(why) => Err(why),
        }
    }
}

/// The meter of the work running on this thread: plain counters, so that a thread-local `Cell` holds them (no
/// destructor to register, no borrow flag), and the cancellation flags apart, in [`CANCEL`], for the runs that
/// have any.
#[derive(Clone, Copy)]
struct Meter {
    left: u64,
    until_cancel_check: u64,
    budget: u64,
    stopped: Option<Unfinished>,
    /// The running budget has cancellation flags (in [`CANCEL`]).
    cancellable: bool,
}

impl Meter {
    const fn unlimited() -> Meter {
        Meter {
            left: u64::MAX,
            until_cancel_check: u64::MAX,
            budget: u64::MAX,
            stopped: None,
            cancellable: false,
        }
    }

    fn from(budget: &Budget) -> Meter {
        Meter {
            left: budget.laps,
            until_cancel_check: LAPS_BETWEEN_CANCEL_CHECKS,
            budget: budget.laps,
            stopped: None,
            cancellable: !budget.cancel.is_empty(),
        }
    }
}

thread_local! {
    static METER: Cell<Meter> = const { Cell::new(Meter::unlimited()) };
    /// The running budget's cancellation flags (empty when it has none).
    static CANCEL: RefCell<Vec<Arc<AtomicBool>>> = const { RefCell::new(Vec::new()) };
}

/// Whether a cancellation flag of the running budget is set.
fn cancelled() -> bool {
    CANCEL.with(|flags| {
        flags
            .borrow()
            .iter()
            .any(|flag| flag.load(Ordering::Relaxed))
    })
}

/// Spends `laps` laps of the running call's budget: `false` when the budget is spent or the call cancelled, and
/// the loop asking must give up at once (its answer will be thrown away by [`Budget::run`]).
#[inline]
pub(crate) fn spend(laps: u64) -> bool {
    let mut m = METER.get();
    if m.stopped.is_some() {
        return false;
    }
    if m.left < laps {
        m.left = 0;
        m.stopped = Some(Unfinished::Exhausted { budget: m.budget });
        METER.set(m);
        return false;
    }
    m.left -= laps;
    if m.until_cancel_check <= laps {
        m.until_cancel_check = LAPS_BETWEEN_CANCEL_CHECKS;
        if m.cancellable && cancelled() {
            m.stopped = Some(Unfinished::Cancelled);
            METER.set(m);
            return false;
        }
    } else {
        m.until_cancel_check -= laps;
    }
    METER.set(m);
    true
}

/// Whether the running call has been stopped or cancelled: for searches, which run many short moves that never
/// reach [`spend`], to look between moves. A cancellation seen here stops the meter as [`spend`] would.
pub(crate) fn interrupted() -> bool {
    let mut m = METER.get();
    if m.stopped.is_some() {
        return true;
    }
    if m.cancellable && cancelled() {
        m.stopped = Some(Unfinished::Cancelled);
        METER.set(m);
        return true;
    }
    false
}
