//! Where matches live: the [`MatchStore`] trait, the records it keeps, and its implementations,
//! [`EmbeddedStore`] (one redb file in the data directory, the default), [`MemoryStore`], and
//! [`RedisStore`] (shared by several replicas of the server).
//!
//! A match is a header ([`MatchRecord`]: game, options, seat-token hashes, version, outcome) and its
//! event log ([`EventRecord`], `seq` 1, 2, 3 …). The state is never stored: it is the engine's replay
//! of the log, which is deterministic. The one write that matters, [`MatchStore::append`], is an
//! atomic check-and-append: it adds event `seq` only if the stored version is `seq - 1`, and updates
//! the header in the same transaction. The shared store (Redis) implements the same check with a
//! script, so two servers can never both append the same `seq`; it also tells every server about
//! every append ([`MatchStore::follow`]), so that each can feed its own watchers.
//!
//! The traits are async: a store call is awaited on the caller's task, and the match manager holds a match's
//! writer lock (an async one) across the commit (`crate::matches`), which is what makes one writer per match
//! simple. Each store waits in its own way: the Redis store on its one multiplexed connection (it reconnects
//! by itself), never on a thread; the embedded store, whose redb file and fsync block, on tokio's blocking pool
//! (as `tokio::fs` does), where concurrent appends still share one commit; the memory store not at all.

mod embedded;
mod group_commit;
pub mod lobby;
mod memory;
mod redis;
pub mod tenants;

pub use self::redis::RedisStore;
pub use embedded::EmbeddedStore;
pub use lobby::{LobbyAppended, LobbyEntry, LobbyStore};
pub use memory::MemoryStore;
pub use tenants::{KeyRecord, LimitOverrides, TenantRecord, TenantStore};

/// A shared store's feed being followed on a thread of its own (the matches' appends, the tenants' changes);
/// the thread stops soon after this is dropped.
#[derive(Debug)]
pub struct Following {
    stop: Arc<AtomicBool>,
    _thread: std::thread::JoinHandle<()>,
}

impl Following {
    /// The feed of `thread`, which stops once `stop` is set.
    pub fn new(stop: Arc<AtomicBool>, thread: std::thread::JoinHandle<()>) -> Following {
        Following {
            stop,
            _thread: thread,
        }
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        // The thread notices within its poll interval; nobody waits for it.
        self.stop.store(true, std::sync::atomic::Ordering::Release);
    }
}

/// One store, seen as the keeper of matches, of tenants and of the lobby.
#[derive(Clone)]
pub struct Stores {
    /// The matches.
    pub matches: Arc<dyn MatchStore>,
    /// The tenants.
    pub tenants: Arc<dyn TenantStore>,
    /// The lobby logs.
    pub lobby: Arc<dyn LobbyStore>,
}

impl Stores {
    /// Every view of `store`.
    pub fn of<S: MatchStore + TenantStore + LobbyStore>(store: S) -> Stores {
        let store = Arc::new(store);
        Stores {
            matches: store.clone(),
            tenants: store.clone(),
            lobby: store,
        }
    }

    /// Opens the configured store (creating the data directory and file if needed, or connecting to Redis).
    pub async fn open(settings: &crate::config::MatchSettings) -> Result<Stores, StoreError> {
        use crate::config::StoreKind;
        Ok(match settings.store {
            StoreKind::Embedded => {
                // Opening the file may recover it after a crash, which reads it whole: off the async workers.
                let dir = settings.data_dir.clone();
                let opened = tokio::task::spawn_blocking(move || EmbeddedStore::open(&dir))
                    .await
                    .map_err(|e| StoreError::Failed(format!("opening the store failed: {e}")))?;
                Stores::of(opened?)
            }
            StoreKind::Memory => Stores::of(MemoryStore::new()),
            StoreKind::Redis => {
                let store = RedisStore::open(
                    &settings.redis_url,
                    &settings.redis_key_prefix,
                    settings.redis_request_ttl,
                )
                .await?;
                tracing::info!(
                    server = %store.server(),
                    prefix = %settings.redis_key_prefix,
                    "match store: redis"
                );
                Stores::of(store)
            }
        })
    }
}

use crate::clock::TimeControl;
use crate::engine::{GameKind, Options, Player};
use std::fmt;
use std::sync::atomic::AtomicBool;
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

pub use crate::engine::notation::Action;

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
}

impl EndReason {
    /// Every reason, in the order of their stored codes (1, 2, …).
    pub const ALL: [EndReason; 6] = [
        EndReason::PlayedOut,
        EndReason::Resignation,
        EndReason::Expired,
        EndReason::TimeForfeit,
        EndReason::Aborted,
        EndReason::Abandoned,
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

/// Which matches [`MatchStore::list`] returns.
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

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `append` of `seq` found another version stored: someone else appended first.
    #[error("the match is at version {current}")]
    Conflict {
        /// The stored version.
        current: u64,
    },
    /// `append` to a match the store does not have (deleted after its retention).
    #[error("no such match")]
    NotFound,
    /// `create` found the tenant at its limit of unfinished matches.
    #[error("the tenant has {active} unfinished matches")]
    TooManyActive {
        /// The tenant's unfinished matches.
        active: u64,
    },
    /// The storage failed (I/O, corruption, an unreadable record).
    #[error("storage failed: {0}")]
    Failed(String),
}

/// What a shared store reports to [`MatchStore::follow`]'s sink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Appended {
    /// Some server appended an event to match `id`: the event in the shared codec (decode it
    /// with the match's record).
    Event {
        /// The match.
        id: MatchId,
        /// The event's bytes.
        event: Vec<u8>,
    },
    /// The feed (re)started: appends made while it was down were not reported; read the log.
    Resumed,
}

/// The Redis the store's own tests use: `MANCALA_TEST_REDIS_URL`, or the local one every machine of this project's
/// kind runs. The tests fail (never pass unrun) when it cannot be reached.
#[cfg(test)]
pub(crate) fn test_redis_url() -> String {
    std::env::var("MANCALA_TEST_REDIS_URL")
        .ok()
        .filter(|url| !url.is_empty())
        .unwrap_or_else(|| "redis://127.0.0.1:6379".to_string())
}

/// Keeps matches and their logs. See the module doc: every method but `shared` and `follow` is awaited.
#[async_trait::async_trait]
pub trait MatchStore: Send + Sync + 'static {
    /// Stores a new match (version 0, empty log), unless its tenant already has `max_active` unfinished
    /// matches ([`StoreError::TooManyActive`]; `None`: no limit). The check and the count are atomic. A match
    /// of that id already stored is left as it is (`Ok`): a creation that is retried, or made by two replicas
    /// from one lobby entry, happens once.
    async fn create(&self, record: &MatchRecord, max_active: Option<u64>)
        -> Result<(), StoreError>;

    /// How many unfinished matches `tenant` has (what `create`'s `max_active` is checked against).
    async fn unfinished_count(&self, tenant: &str) -> Result<u64, StoreError>;

    /// The match and its whole log, or `None` if the store does not have it.
    async fn load(&self, id: &MatchId) -> Result<Option<StoredMatch>, StoreError>;

    /// Atomically: if the stored version is `event.seq - 1`, appends `event` and replaces the header
    /// with `record` (whose version is `event.seq`); otherwise [`StoreError::Conflict`]. Durable when
    /// it returns `Ok`. An append that finishes the match takes it off its tenant's count of unfinished ones.
    async fn append(&self, record: &MatchRecord, event: &EventRecord) -> Result<(), StoreError>;

    /// The headers passing `query`, in id order, at most `query.limit`.
    async fn list(&self, query: &ListQuery) -> Result<Vec<MatchRecord>, StoreError>;

    /// Deletes every match finished before `cutoff_ms`, with its log, and says which.
    async fn purge_finished_before(&self, cutoff_ms: u64) -> Result<Vec<MatchId>, StoreError>;

    /// The header and the events after `after` (all of them for 0), read together; `None` if the
    /// store does not have the match. The default reads the whole log.
    async fn events_after(
        &self,
        id: &MatchId,
        after: u64,
    ) -> Result<Option<StoredMatch>, StoreError> {
        Ok(self.load(id).await?.map(|mut stored| {
            let after = (after as usize).min(stored.events.len());
            stored.events.drain(..after);
            stored
        }))
    }

    /// Whether other servers may append to this store, so that what a server holds in memory can
    /// be behind it. The match manager then reads through to the store before it answers.
    fn shared(&self) -> bool {
        false
    }

    /// Over a shared store: records that `seat` of match `id` had a `WatchMatch` stream open on some server at
    /// `at_ms`, so that every replica can tell how long a seat has been away (an abandonment claim). A store of
    /// one server keeps nothing: that server's own count of streams is the whole truth.
    async fn seat_seen(&self, id: &MatchId, seat: Player, at_ms: u64) -> Result<(), StoreError> {
        let _ = (id, seat, at_ms);
        Ok(())
    }

    /// When each seat of match `id`, `[South, North, East]`, was last recorded by [`MatchStore::seat_seen`] (0:
    /// never).
    async fn seats_seen(&self, id: &MatchId) -> Result<[u64; SEATS], StoreError> {
        let _ = id;
        Ok([0; SEATS])
    }

    /// For a shared store: starts reporting every append, by any server, to `sink`, on a thread
    /// of its own, until `stop` is set. `None`: nothing to follow (the store is not shared).
    fn follow(
        &self,
        sink: Box<dyn FnMut(Appended) + Send>,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        let _ = (sink, stop);
        None
    }
}

/// The on-disk shape of records, shared by stores that keep bytes. Protobuf (via prost, already a
/// dependency) so that fields can be added later without a migration; the move is kept in the
/// compact notation of [`crate::engine::notation`], so the stored log reads like an exported one.
/// Public so that the fuzz tests (`tests/fuzz`) can feed it bytes a damaged store or another
/// replica could hand back: decoding them is an error, never a panic.
pub mod codec {
    use super::{
        Action, BotSeat, EndReason, EventRecord, Finished, MatchId, MatchRecord, StoreError,
    };
    use crate::clock::TimeControl;
    use crate::engine::notation;
    use crate::engine::{Options, Player, StarterRule};
    use prost::Message;

    #[derive(Clone, PartialEq, prost::Message)]
    struct StoredHeader {
        #[prost(string, tag = "1")]
        kind: String,
        #[prost(uint32, tag = "2")]
        first_player: u32,
        #[prost(uint32, tag = "3")]
        ba_awa_target: u32,
        #[prost(uint64, tag = "4")]
        created_ms: u64,
        #[prost(bytes = "vec", tag = "5")]
        south_token_hash: Vec<u8>,
        #[prost(bytes = "vec", tag = "6")]
        north_token_hash: Vec<u8>,
        #[prost(uint64, tag = "7")]
        version: u64,
        #[prost(bool, tag = "8")]
        finished: bool,
        #[prost(uint64, tag = "9")]
        finished_at_ms: u64,
        #[prost(uint32, tag = "10")]
        winner: u32,
        #[prost(uint32, tag = "11")]
        resigned: u32,
        /// Absent in records written before tenants: the anonymous tenant.
        #[prost(string, tag = "12")]
        tenant: String,
        #[prost(string, optional, tag = "13")]
        south_player: Option<String>,
        #[prost(string, optional, tag = "14")]
        north_player: Option<String>,
        /// Absent (0) in records written before the idle expiry.
        #[prost(uint64, tag = "15")]
        active_ms: u64,
        #[prost(bool, tag = "16")]
        expired: bool,
        /// Absent for a seat of a person (every seat of a record written before bot seats).
        #[prost(message, optional, tag = "17")]
        south_bot: Option<StoredBot>,
        #[prost(message, optional, tag = "18")]
        north_bot: Option<StoredBot>,
        /// Why the match ended (`EndReason::code`); 0 in records written before reasons, which `resigned` and
        /// `expired` describe.
        #[prost(uint32, tag = "19")]
        end_reason: u32,
        /// The match's time control; absent: untimed.
        #[prost(message, optional, tag = "20")]
        time_control: Option<StoredTimeControl>,
        /// When the server must next act on the match's clocks (a flag, an abort), ms since the epoch; 0: never.
        #[prost(uint64, tag = "21")]
        deadline_ms: u64,
        /// Ba-awa's players: 3, or 0 for two (and in records written before three-player Ba-awa).
        #[prost(uint32, tag = "22")]
        ba_awa_players: u32,
        /// Bao la Kete's starter of later games ([`starter_code`]); 0 (alternately) in older records.
        #[prost(uint32, tag = "23")]
        bao_la_kete_starter: u32,
        /// Three-player Ba-awa's East seat; absent (empty) in two-player matches.
        #[prost(bytes = "vec", tag = "24")]
        east_token_hash: Vec<u8>,
        #[prost(string, optional, tag = "25")]
        east_player: Option<String>,
        #[prost(message, optional, tag = "26")]
        east_bot: Option<StoredBot>,
    }

    /// A time control as stored (the lobby's entries keep it too).
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct StoredTimeControl {
        /// 1 Fischer, 2 delay, 3 correspondence.
        #[prost(uint32, tag = "1")]
        pub kind: u32,
        /// The initial time.
        #[prost(uint64, tag = "2")]
        pub initial_ms: u64,
        /// The increment (Fischer) or the delay.
        #[prost(uint64, tag = "3")]
        pub extra_ms: u64,
        /// Days per move (correspondence).
        #[prost(uint32, tag = "4")]
        pub days: u32,
    }

    /// `control` as stored; `None` for an untimed match.
    pub fn stored_time_control(control: TimeControl) -> Option<StoredTimeControl> {
        let (kind, initial_ms, extra_ms, days) = match control {
            TimeControl::Untimed => return None,
            TimeControl::Fischer {
                initial_ms,
                increment_ms,
            } => (1, initial_ms, increment_ms, 0),
            TimeControl::Delay {
                initial_ms,
                delay_ms,
            } => (2, initial_ms, delay_ms, 0),
            TimeControl::Correspondence { days } => (3, 0, 0, days),
        };
        Some(StoredTimeControl {
            kind,
            initial_ms,
            extra_ms,
            days,
        })
    }

    /// The time control [`stored_time_control`] wrote (`None`: untimed).
    pub fn time_control(stored: Option<StoredTimeControl>) -> Result<TimeControl, StoreError> {
        let Some(t) = stored else {
            return Ok(TimeControl::Untimed);
        };
        Ok(match t.kind {
            1 => TimeControl::Fischer {
                initial_ms: t.initial_ms,
                increment_ms: t.extra_ms,
            },
            2 => TimeControl::Delay {
                initial_ms: t.initial_ms,
                delay_ms: t.extra_ms,
            },
            3 => TimeControl::Correspondence { days: t.days },
            other => return Err(StoreError::Failed(format!("unknown time control {other}"))),
        })
    }

    /// The reason a stored match ended: its code, or for a record written before reasons, what its flags say.
    pub fn end_reason(
        code: u32,
        resigned: Option<Player>,
        expired: bool,
    ) -> Result<EndReason, StoreError> {
        match (code, EndReason::of_code(code)) {
            (_, Some(reason)) => Ok(reason),
            (0, None) if expired => Ok(EndReason::Expired),
            (0, None) if resigned.is_some() => Ok(EndReason::Resignation),
            (0, None) => Ok(EndReason::PlayedOut),
            (other, None) => Err(StoreError::Failed(format!(
                "stored end reason {other} is unknown"
            ))),
        }
    }

    #[derive(Clone, PartialEq, prost::Message)]
    struct StoredBot {
        #[prost(uint32, tag = "1")]
        level: u32,
        #[prost(uint64, optional, tag = "2")]
        seed: Option<u64>,
    }

    fn stored_bot(bot: &Option<BotSeat>) -> Option<StoredBot> {
        bot.map(|bot| StoredBot {
            level: bot.level,
            seed: bot.seed,
        })
    }

    fn bot_seat(bot: Option<StoredBot>) -> Option<BotSeat> {
        bot.map(|bot| BotSeat {
            level: bot.level,
            seed: bot.seed,
        })
    }

    #[derive(Clone, PartialEq, prost::Message)]
    struct StoredEvent {
        #[prost(uint64, tag = "1")]
        seq: u64,
        /// The event in notation: "S 3", "N next 6 7", "S resign".
        #[prost(string, tag = "2")]
        line: String,
        #[prost(string, tag = "3")]
        request_id: String,
        #[prost(uint64, tag = "4")]
        at_ms: u64,
    }

    /// A seat in the stored records (the lobby's too): 0 none, 1 South, 2 North.
    pub fn player_code(player: Option<Player>) -> u32 {
        match player {
            None => 0,
            Some(Player::South) => 1,
            Some(Player::North) => 2,
            Some(Player::East) => 3,
        }
    }

    /// Bao la Kete's starter rule in the stored records (the lobby's too): 0 alternately, 1 the loser, 2 the
    /// winner.
    pub fn starter_code(rule: StarterRule) -> u32 {
        match rule {
            StarterRule::Alternate => 0,
            StarterRule::LoserStarts => 1,
            StarterRule::WinnerStarts => 2,
        }
    }

    /// The rule [`starter_code`] wrote; an error for any other number.
    pub fn code_starter(code: u32) -> Result<StarterRule, StoreError> {
        match code {
            0 => Ok(StarterRule::Alternate),
            1 => Ok(StarterRule::LoserStarts),
            2 => Ok(StarterRule::WinnerStarts),
            other => Err(StoreError::Failed(format!(
                "stored starter rule {other} is unknown"
            ))),
        }
    }

    /// Ba-awa's number of players in the stored records: 3, or 0 for two.
    pub fn players_code(options: &Options) -> u32 {
        if options.ba_awa_players == 3 {
            3
        } else {
            0
        }
    }

    /// The number of players [`players_code`] wrote; an error for any other number.
    pub fn code_players(code: u32) -> Result<u8, StoreError> {
        match code {
            0 | 2 => Ok(2),
            3 => Ok(3),
            other => Err(StoreError::Failed(format!(
                "stored number of players {other} is unknown"
            ))),
        }
    }

    /// The seat [`player_code`] wrote; an error for any other number.
    pub fn code_player(code: u32) -> Result<Option<Player>, StoreError> {
        match code {
            0 => Ok(None),
            1 => Ok(Some(Player::South)),
            2 => Ok(Some(Player::North)),
            3 => Ok(Some(Player::East)),
            other => Err(StoreError::Failed(format!(
                "stored player code {other} is unknown"
            ))),
        }
    }

    /// The header as bytes.
    pub fn encode_match(record: &MatchRecord) -> Vec<u8> {
        StoredHeader {
            kind: notation::kind_name(record.kind).to_string(),
            first_player: player_code(Some(record.options.first_player)),
            ba_awa_target: record.options.ba_awa_target as u32,
            created_ms: record.created_ms,
            south_token_hash: record.token_hashes[0].to_vec(),
            north_token_hash: record.token_hashes[1].to_vec(),
            version: record.version,
            finished: record.finished.is_some(),
            finished_at_ms: record.finished.map_or(0, |f| f.at_ms),
            winner: player_code(record.finished.and_then(|f| f.winner)),
            resigned: player_code(record.finished.and_then(|f| f.resigned)),
            tenant: record.tenant.clone(),
            south_player: record.players[0].clone(),
            north_player: record.players[1].clone(),
            active_ms: record.active_ms,
            expired: record.finished.is_some_and(|f| f.expired()),
            south_bot: stored_bot(&record.bots[0]),
            north_bot: stored_bot(&record.bots[1]),
            end_reason: record.finished.map_or(0, |f| f.reason.code()),
            time_control: stored_time_control(record.time_control),
            deadline_ms: record.deadline_ms.unwrap_or(0),
            ba_awa_players: players_code(&record.options),
            bao_la_kete_starter: starter_code(record.options.bao_la_kete_starter),
            // A two-player match writes no East seat, so its header is the same bytes as before East.
            east_token_hash: if record.token_hashes[2] == [0; 32] {
                Vec::new()
            } else {
                record.token_hashes[2].to_vec()
            },
            east_player: record.players[2].clone(),
            east_bot: stored_bot(&record.bots[2]),
        }
        .encode_to_vec()
    }

    /// The header of match `id` from bytes.
    pub fn decode_match(id: MatchId, bytes: &[u8]) -> Result<MatchRecord, StoreError> {
        let h = StoredHeader::decode(bytes)
            .map_err(|e| StoreError::Failed(format!("match {id}: {e}")))?;
        let kind = notation::kind_from_name(&h.kind)
            .ok_or_else(|| StoreError::Failed(format!("match {id}: unknown game {:?}", h.kind)))?;
        let hash = |bytes: &[u8]| -> Result<[u8; 32], StoreError> {
            bytes
                .try_into()
                .map_err(|_| StoreError::Failed(format!("match {id}: bad token hash")))
        };
        Ok(MatchRecord {
            id,
            kind,
            options: Options {
                first_player: code_player(h.first_player)?.unwrap_or(Player::South),
                ba_awa_target: u8::try_from(h.ba_awa_target)
                    .map_err(|_| StoreError::Failed(format!("match {id}: bad target")))?,
                ba_awa_players: code_players(h.ba_awa_players)?,
                bao_la_kete_starter: code_starter(h.bao_la_kete_starter)?,
            },
            created_ms: h.created_ms,
            token_hashes: [
                hash(&h.south_token_hash)?,
                hash(&h.north_token_hash)?,
                if h.east_token_hash.is_empty() {
                    [0; 32]
                } else {
                    hash(&h.east_token_hash)?
                },
            ],
            version: h.version,
            tenant: h.tenant,
            players: [h.south_player, h.north_player, h.east_player],
            bots: [
                bot_seat(h.south_bot),
                bot_seat(h.north_bot),
                bot_seat(h.east_bot),
            ],
            active_ms: h.active_ms,
            finished: if h.finished {
                let resigned = code_player(h.resigned)?;
                Some(Finished {
                    at_ms: h.finished_at_ms,
                    winner: code_player(h.winner)?,
                    resigned,
                    reason: end_reason(h.end_reason, resigned, h.expired)?,
                })
            } else {
                None
            },
            time_control: time_control(h.time_control)
                .map_err(|e| StoreError::Failed(format!("match {id}: {e}")))?,
            deadline_ms: (h.deadline_ms != 0).then_some(h.deadline_ms),
        })
    }

    /// An event as bytes.
    pub fn encode_event(event: &EventRecord) -> Vec<u8> {
        StoredEvent {
            seq: event.seq,
            line: notation::event_line(event.player, &event.action),
            request_id: event.request_id.clone(),
            at_ms: event.at_ms,
        }
        .encode_to_vec()
    }

    /// An event of a match of `record.kind` from bytes.
    pub fn decode_event(record: &MatchRecord, bytes: &[u8]) -> Result<EventRecord, StoreError> {
        let id = record.id;
        let e = StoredEvent::decode(bytes)
            .map_err(|e| StoreError::Failed(format!("match {id}: {e}")))?;
        let (player, action): (Player, Action) =
            notation::parse_event_line(record.kind, &e.line)
                .map_err(|err| StoreError::Failed(format!("match {id} event {}: {err}", e.seq)))?;
        Ok(EventRecord {
            seq: e.seq,
            player,
            action,
            request_id: e.request_id,
            at_ms: e.at_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Kichwa, Move, PitSet, Sow};

    #[test]
    fn match_ids_print_as_32_hex_digits_and_parse_back() {
        let id = MatchId::random().expect("the OS has randomness");
        let text = id.to_string();
        assert_eq!(text.len(), 32);
        assert_eq!(MatchId::parse(&text), Some(id));
        assert_eq!(MatchId::parse(&text.to_uppercase()), Some(id));
        assert_eq!(MatchId::parse("xyz"), None);
        assert_eq!(MatchId::parse(&"g".repeat(32)), None);
        assert_ne!(
            MatchId::random().unwrap(),
            id,
            "128 random bits do not repeat"
        );
    }

    #[test]
    fn records_survive_the_codec() {
        let record = MatchRecord {
            id: MatchId([7; 16]),
            kind: GameKind::BaAwa,
            options: Options {
                first_player: Player::North,
                ba_awa_target: 11,
                ..Options::default()
            },
            created_ms: 1_700_000_000_000,
            token_hashes: [[1; 32], [2; 32], [0; 32]],
            tenant: "acme".into(),
            players: [Some("ann".into()), None, None],
            bots: [
                None,
                Some(BotSeat {
                    level: 3,
                    seed: Some(42),
                }),
                None,
            ],
            active_ms: 1_700_000_000_500,
            version: 3,
            finished: Some(Finished {
                at_ms: 1_700_000_000_999,
                winner: Some(Player::South),
                resigned: Some(Player::North),
                reason: EndReason::Resignation,
            }),
            time_control: TimeControl::Fischer {
                initial_ms: 300_000,
                increment_ms: 2_000,
            },
            deadline_ms: Some(1_700_000_300_500),
        };
        assert_eq!(
            codec::decode_match(record.id, &codec::encode_match(&record)).unwrap(),
            record
        );
        let events = [
            EventRecord {
                seq: 1,
                player: Player::North,
                action: Action::Move(Move::Sow(Sow::from(7))),
                request_id: "r-1".into(),
                at_ms: 5,
            },
            EventRecord {
                seq: 2,
                player: Player::South,
                action: Action::Move(Move::NextGame(PitSet(0b1100_0000))),
                request_id: String::new(),
                at_ms: 6,
            },
            EventRecord {
                seq: 3,
                player: Player::North,
                action: Action::Resign,
                request_id: String::new(),
                at_ms: 7,
            },
            EventRecord {
                seq: 4,
                player: Player::South,
                action: Action::Expire,
                request_id: String::new(),
                at_ms: 8,
            },
            EventRecord {
                seq: 5,
                player: Player::North,
                action: Action::Flag,
                request_id: String::new(),
                at_ms: 9,
            },
            EventRecord {
                seq: 6,
                player: Player::South,
                action: Action::Abort,
                request_id: "abort-1".into(),
                at_ms: 10,
            },
            EventRecord {
                seq: 7,
                player: Player::North,
                action: Action::Claim,
                request_id: String::new(),
                at_ms: 11,
            },
        ];
        for event in events {
            assert_eq!(
                codec::decode_event(&record, &codec::encode_event(&event)).unwrap(),
                event
            );
        }
        let bao = MatchRecord {
            kind: GameKind::BaoLaKete,
            ..record.clone()
        };
        let choice = EventRecord {
            seq: 1,
            player: Player::South,
            action: Action::Move(Move::Sow(Sow {
                kichwa: Some(Kichwa::Right),
                ..Sow::from(4)
            })),
            request_id: String::new(),
            at_ms: 1,
        };
        assert_eq!(
            codec::decode_event(&bao, &codec::encode_event(&choice)).unwrap(),
            choice
        );
    }
}
