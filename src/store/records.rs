//! The records a match is kept as: its id, its header ([`MatchRecord`]: game, options, seats, version, outcome)
//! and its log's events ([`EventRecord`]), and the query that lists headers. Apart from the trait because these
//! are plain values that every store, the match manager and the lobby share; their bytes are `codec.rs`.

use super::Action;
use crate::clock::TimeControl;
use crate::engine::{AnyGame, GameKind, Options, Player};
use std::fmt;
use std::sync::Arc;

/// A match id: 128 random bits, written as 32 lowercase hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MatchId(pub [u8; 16]);

impl MatchId {
    /// A new random id from the operating system's generator.
    pub fn random() -> Result<MatchId, getrandom::Error> {
        let mut bytes = [0; 16];
        getrandom::fill(&mut bytes)?;
        Ok(MatchId(bytes))
    }

    /// Parses 32 hex digits (either case); `None` for anything else.
    pub fn parse(text: &str) -> Option<MatchId> {
        let bytes = text.as_bytes();
        if bytes.len() != 32 {
            return None;
        }
        let mut id = [0; 16];
        for (i, pair) in bytes.chunks(2).enumerate() {
            let digit = |b: u8| (b as char).to_digit(16);
            id[i] = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
        }
        Some(MatchId(id))
    }
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}
/// How a finished match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// When the last event was accepted, in milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The winner; `None` for a drawn match.
    pub winner: Option<Player>,
    /// The seat that resigned, when the match ended that way.
    pub resigned: Option<Player>,
    /// Why it ended.
    pub reason: EndReason,
}

impl Finished {
    /// Whether the server ended it for want of play (`matches.idle_expiry_ms`).
    pub fn expired(&self) -> bool {
        self.reason == EndReason::Expired
    }

    /// Whether the match has a result: a winner or a draw decided by play, a resignation, the clock or a claim.
    /// An expired or aborted match has none (it counts in no record and moves no rating).
    pub fn has_result(&self) -> bool {
        !matches!(self.reason, EndReason::Expired | EndReason::Aborted)
    }
}

/// Why a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The rules ended it.
    PlayedOut,
    /// A seat resigned.
    Resignation,
    /// Nobody played for the idle expiry: no winner.
    Expired,
    /// The seat to move ran out of time (`crate::clock`): its opponent wins.
    TimeForfeit,
    /// Called off before each seat had sown once: no result.
    Aborted,
    /// The seat to move had left (no open stream for the abandonment time) and its opponent claimed the win.
    Abandoned,
    /// A game ended by repetition (§1) and that decided the match.
    Repetition,
    /// A game ended by agreement (§1) and that decided the match.
    Agreement,
    /// The match reached its most games (Bosh: rounds) without a winner by the rules: the leader won, or it was
    /// drawn (§1 "Match length").
    MatchLength,
}

impl EndReason {
    /// Every reason, in the order of their stored codes (1, 2, …).
    pub const ALL: [EndReason; 9] = [
        EndReason::PlayedOut,
        EndReason::Resignation,
        EndReason::Expired,
        EndReason::TimeForfeit,
        EndReason::Aborted,
        EndReason::Abandoned,
        EndReason::Repetition,
        EndReason::Agreement,
        EndReason::MatchLength,
    ];

    /// The reason's name in metrics and logs (`time_forfeit` …).
    pub fn name(self) -> &'static str {
        match self {
            EndReason::PlayedOut => "played_out",
            EndReason::Resignation => "resignation",
            EndReason::Expired => "expired",
            EndReason::TimeForfeit => "time_forfeit",
            EndReason::Aborted => "aborted",
            EndReason::Abandoned => "abandoned",
            EndReason::Repetition => "repetition",
            EndReason::Agreement => "agreement",
            EndReason::MatchLength => "match_length",
        }
    }

    /// The reason's stored code (the index in [`EndReason::ALL`] plus one; 0 means "written before reasons").
    pub fn code(self) -> u32 {
        EndReason::ALL
            .iter()
            .position(|&r| r == self)
            .map_or(0, |i| i as u32 + 1)
    }

    /// The reason of a stored code; `None` for 0 or an unknown code.
    pub fn of_code(code: u32) -> Option<EndReason> {
        EndReason::ALL.get((code as usize).checked_sub(1)?).copied()
    }
}

/// Seats a match can have: South, North and, in three-player Ba-awa, East (per-seat arrays are indexed by
/// `Player::index`).
pub const SEATS: usize = 3;

/// A match's header: everything but the log. Rewritten with every event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    /// The match id.
    pub id: MatchId,
    /// The game played.
    pub kind: GameKind,
    /// The options it was created with.
    pub options: Options,
    /// The position its first game began from when its creator chose one (`None`: the game's opening). Its log
    /// replays from it.
    pub start: Option<Arc<AnyGame>>,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// SHA-256 of each seat's token, `[South, North, East]`. The tokens themselves are never stored. A seat
    /// bound to a player, played by a bot or not in the game (East of a two-player match) has no token (all
    /// zeros: no token hashes to it).
    pub token_hashes: [[u8; 32]; SEATS],
    /// The tenant that created the match (`""`: the anonymous tenant of a server without required auth).
    /// Nobody else can see it.
    pub tenant: String,
    /// The player each seat is bound to, `[South, North, East]`: any valid token of that player of the tenant
    /// acts for it. `None`: the seat's token does.
    pub players: [Option<String>; SEATS],
    /// The seats the server plays itself, `[South, North, East]` (no token and no player acts for such a seat).
    pub bots: [Option<BotSeat>; SEATS],
    /// When the last event was accepted (the creation time before the first), in milliseconds since the
    /// Unix epoch: what the idle expiry measures from. 0 in a header written before the idle expiry existed:
    /// such a match is not expired until its next event writes the header again.
    pub active_ms: u64,
    /// The number of events in the log.
    pub version: u64,
    /// Set once the match is over.
    pub finished: Option<Finished>,
    /// How the match is timed.
    pub time_control: TimeControl,
    /// When the server must next act on the match's clocks if nobody moves (a flag falls, an unstarted match is
    /// aborted), milliseconds since the Unix epoch: what the sweep of overdue matches reads. `None`: never.
    pub deadline_ms: Option<u64>,
}

/// A seat the server plays itself, with a built-in opponent of `crate::engine::search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BotSeat {
    /// The opponent's level, 1 to `crate::engine::search::TOP_LEVEL`.
    pub level: u32,
    /// The seed its choices are drawn from, as given at creation; `None`: derived from the match id. Either
    /// way each move's seed is a function of it and the move's `seq`, so the same history gives the same move.
    pub seed: Option<u64>,
}

/// One entry of a match's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRecord {
    /// 1-based position in the log.
    pub seq: u64,
    /// The seat that acted.
    pub player: Player,
    /// What it did.
    pub action: Action,
    /// The client's idempotency key; empty when none was given.
    pub request_id: String,
    /// When it was accepted, milliseconds since the Unix epoch.
    pub at_ms: u64,
}

/// A match as loaded: its header and its whole log, in `seq` order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatch {
    /// The header.
    pub record: MatchRecord,
    /// Every event, `seq` 1 to `record.version`.
    pub events: Vec<EventRecord>,
}

/// Which matches [`MatchStore::list`](super::MatchStore::list) returns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListQuery {
    /// Only this game.
    pub kind: Option<GameKind>,
    /// `Some(true)`: only finished matches; `Some(false)`: only active ones.
    pub finished: Option<bool>,
    /// Only the matches of this tenant (`None`: every tenant's, for the server's own background work).
    pub tenant: Option<String>,
    /// Only ids greater than this (the previous page's last id).
    pub after: Option<MatchId>,
    /// At most this many.
    pub limit: usize,
}

impl ListQuery {
    /// Whether `record` passes the filters (not the paging).
    pub fn matches(&self, record: &MatchRecord) -> bool {
        self.kind.is_none_or(|kind| kind == record.kind)
            && self
                .tenant
                .as_ref()
                .is_none_or(|tenant| *tenant == record.tenant)
            && self
                .finished
                .is_none_or(|finished| finished == record.finished.is_some())
    }
}
