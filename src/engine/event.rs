//! What a move does, step by step, so that clients can animate and explain it without knowing the rules.

use super::{Direction, Kichwa, PerSeat, Player};

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
    /// The same position occurred for the third time in the game (§1 "Repetition").
    Repetition,
    /// The seats still in the game agreed to end it (§1 "By agreement").
    Agreement,
}

/// One step of a move. A [`Event::Lap`] is followed by one [`Event::Drop`] per seed sown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A handful starts being sown.
    Lap {
        /// The mover.
        player: Player,
        /// The pit the lap starts from: its seeds are sown from the pit after it.
        origin: u8,
        /// Seeds in hand at the start of the lap.
        seeds: u8,
        /// Where those seeds came from.
        source: LapSource,
    },
    /// One seed of the current lap dropped into `pit`.
    Drop {
        /// The pit that received the seed.
        pit: u8,
    },
    /// Seeds taken from `pit` for `beneficiary`.
    Capture {
        /// The pit emptied.
        pit: u8,
        /// Seeds taken.
        seeds: u8,
        /// Who gets them.
        beneficiary: Player,
        /// Bao la Kete: the kichwa the captured seeds are sown from (§2.7).
        kichwa: Option<Kichwa>,
        /// Bao la Kete: the direction they are sown in.
        direction: Option<Direction>,
    },
    /// Bosh: the hole after the last stone and the one beyond were both empty.
    NoCapture {
        /// The empty hole after the last stone.
        empty_pit: u8,
        /// The empty hole beyond it, which had nothing to take.
        beyond_pit: u8,
    },
    /// `player` had no legal move and passed.
    Pass {
        /// The player who passed.
        player: Player,
    },
    /// The game ended; `collector` took the `collected` seeds left on the board.
    GameEnd {
        /// Why the game ended.
        reason: EndReason,
        /// The game's winner, `None` for a draw.
        winner: Option<Player>,
        /// Who took the seeds left on the board, if anyone did.
        collector: Option<Player>,
        /// How many seeds the collector took.
        collected: u8,
        /// Final winnings of the game, one per seat (`[South, North]`, East third in three-player Ba-awa).
        stores: PerSeat,
    },
    /// Bosh: the round ended.
    RoundEnd {
        /// Why the round ended.
        reason: EndReason,
        /// The opponent of the player who could not move, who took the stones left; `None` when each player took
        /// his own row's stones (repetition, agreement: one [`Event::Capture`] per hole before this event).
        collector: Option<Player>,
        /// How many stones he took.
        collected: u8,
        /// Each player's stones for the match, store + reserve, `[South, North]` (§3.4 step 1).
        totals: [u8; 2],
    },
    /// The match ended.
    MatchEnd {
        /// The match's winner, `None` when nobody won it.
        winner: Option<Player>,
        /// The final match score, one per seat.
        score: PerSeat,
        /// Three-player Ba-awa: each seat's place, 1 for the winner; seats that stayed in equally long share a
        /// place (§4.7 "placing"). Empty in two-player games, where the winner says it all.
        placing: PerSeat,
    },
    /// Three-player Ba-awa: `player` won no pits in the game just ended and is out of the match (§4.7).
    Elimination {
        /// The player eliminated.
        player: Player,
    },
    /// Ba-awa: ownership for the next game; bit i of `north_owned` means North owns pit i, of `east_owned` East
    /// (three-player Ba-awa); South owns the rest.
    Allocation {
        /// North's pits, one bit per pit.
        north_owned: u16,
        /// East's pits, one bit per pit (0 in a two-player game).
        east_owned: u16,
        /// Pits owned, one per seat.
        pits_owned: PerSeat,
        /// Who begins the next game.
        starter: Player,
    },
    /// Bosh: a player's refill between rounds.
    Refill {
        /// Whose row.
        player: Player,
        /// His holes opened with 4 stones, one bit per hole.
        opened: u16,
        /// His holes closed for the round, one bit per hole.
        closed: u16,
        /// Stones he keeps off the board.
        reserve: u8,
    },
    /// Bao la Kete: seeds lifted from the kuu by taxation or the six-seed rule.
    Taxation {
        /// The kuu.
        pit: u8,
        /// Seeds lifted from it.
        seeds: u8,
        /// Whether the six-seed rule lifted them all, killing the kuu, rather than the tax of 2 (§2.5, R-2.3).
        six_seed_rule: bool,
    },
    /// Bao la Kete: a kuu died.
    KuuDestroyed {
        /// Whose kuu.
        owner: Player,
        /// Its hole.
        pit: u8,
    },
    /// Bao la Kete: a nemo lap ended in the kuu and the move stopped.
    KuuStop {
        /// The kuu.
        pit: u8,
    },
    /// Bao la Kete: the mover lifted his kuu to go on.
    Safari {
        /// The kuu.
        pit: u8,
        /// Seeds lifted from it.
        seeds: u8,
    },
    /// Bao la Kete: a hizi-zetu mark was set on `pit` of `blockee`.
    MarkSet {
        /// The player whose hole is marked.
        blockee: Player,
        /// The marked hole.
        pit: u8,
        /// The player who set the mark.
        setter: Player,
    },
    /// Bao la Kete: the mark was cleared.
    MarkCleared {
        /// The player whose hole was marked.
        blockee: Player,
        /// The hole that was marked.
        pit: u8,
        /// The player who had set the mark.
        setter: Player,
    },
}

/// Where a move records its events. [`NoTrace`] records nothing and costs nothing, for hot loops.
pub trait Trace {
    /// Whether a move is played to its end once it is known to be legal: the turn passed on (with the check that
    /// the next player can move, which tries his moves), the game, round or match ended. [`LegalityOnly`] stops
    /// there, for [`AnyGame::check`](super::AnyGame::check), which keeps only the verdict.
    const FINISHES_MOVE: bool = true;

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

/// Records nothing, and stops a move as soon as it is known to be legal (see [`Trace::FINISHES_MOVE`]): the
/// game it leaves behind is half-played and only good for throwing away.
#[derive(Clone, Copy, Debug, Default)]
pub struct LegalityOnly;

impl Trace for LegalityOnly {
    const FINISHES_MOVE: bool = false;

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
