//! What a move does, step by step, so that clients can animate and explain it without knowing the rules.

use super::{Direction, Kichwa, Player};

/// Where the seeds of a lap came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LapSource {
    /// Lifted from the origin pit.
    Pit,
    /// Bao la Kete, nemo: one reserve seed placed into the origin.
    Reserve,
    /// Bao la Kete: seeds captured from the origin (an opponent's hole).
    Capture,
}

/// Why a game or round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Ba-awa: ≤ 8 seeds were left after a move (§4.3).
    FewSeedsLeft,
    /// Ba-awa: neither player could move (§4.3).
    BothStuck,
    /// Bosh: the player to move had no stone in his open holes (§3.3).
    PlayerEmpty,
    /// Bao la Kete: a capture emptied the loser's front row (§2.9).
    BaoHamna,
    /// Bao la Kete: the loser could not move (§2.9).
    NoLegalMove,
    /// Bao la Kete: the loser emptied his own front row (§2.7 step A).
    OwnFrontRowEmptied,
    /// The loser resigned.
    Resignation,
}

/// One step of a move. A [`Event::Lap`] is followed by one [`Event::Drop`] per seed sown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A handful starts being sown.
    Lap {
        player: Player,
        origin: u8,
        seeds: u8,
        source: LapSource,
    },
    /// One seed of the current lap dropped into `pit`.
    Drop { pit: u8 },
    /// Seeds taken from `pit` for `beneficiary`.
    Capture {
        pit: u8,
        seeds: u8,
        beneficiary: Player,
        kichwa: Option<Kichwa>,
        direction: Option<Direction>,
    },
    /// Bosh: the hole after the last stone and the one beyond were both empty.
    NoCapture { empty_pit: u8, beyond_pit: u8 },
    /// `player` had no legal move and passed.
    Pass { player: Player },
    /// The game ended; `collector` took the `collected` seeds left on the board.
    GameEnd {
        reason: EndReason,
        winner: Option<Player>,
        collector: Option<Player>,
        collected: u8,
        stores: [u8; 2],
    },
    /// Bosh: the round ended.
    RoundEnd {
        reason: EndReason,
        collector: Player,
        collected: u8,
        totals: [u8; 2],
    },
    /// The match ended.
    MatchEnd {
        winner: Option<Player>,
        score: [u8; 2],
    },
    /// Ba-awa: ownership for the next game; bit i of `north_owned` means North owns pit i.
    Allocation {
        north_owned: u16,
        pits_owned: [u8; 2],
        starter: Player,
    },
    /// Bosh: a player's refill between rounds.
    Refill {
        player: Player,
        opened: u16,
        closed: u16,
        reserve: u8,
    },
    /// Bao la Kete: seeds lifted from the kuu by taxation or the six-seed rule.
    Taxation {
        pit: u8,
        seeds: u8,
        six_seed_rule: bool,
    },
    /// Bao la Kete: a kuu died.
    KuuDestroyed { owner: Player, pit: u8 },
    /// Bao la Kete: a nemo lap ended in the kuu and the move stopped.
    KuuStop { pit: u8 },
    /// Bao la Kete: the mover lifted his kuu to go on.
    Safari { pit: u8, seeds: u8 },
    /// Bao la Kete: a hizi-zetu mark was set on `pit` of `blockee`.
    MarkSet {
        blockee: Player,
        pit: u8,
        setter: Player,
    },
    /// Bao la Kete: the mark was cleared.
    MarkCleared {
        blockee: Player,
        pit: u8,
        setter: Player,
    },
}

/// Where a move records its events. [`NoTrace`] records nothing and costs nothing, for hot loops.
pub trait Trace {
    /// Records one event.
    fn record(&mut self, event: Event);
    /// A position to roll back to if the move turns out to be illegal.
    fn mark(&self) -> usize {
        0
    }
    /// Forgets every event recorded since `mark`.
    fn rollback(&mut self, _mark: usize) {}
}

/// Records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn record(&mut self, _: Event) {}
}

impl Trace for Vec<Event> {
    fn record(&mut self, event: Event) {
        self.push(event);
    }
    fn mark(&self) -> usize {
        self.len()
    }
    fn rollback(&mut self, mark: usize) {
        self.truncate(mark);
    }
}
