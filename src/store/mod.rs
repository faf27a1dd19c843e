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
//! (as `tokio::fs` does) for its reads and on its writer thread for its frequent writes, where concurrent appends
//! share one commit; the memory store not at all.
//!
//! This file holds the traits' matches part and what every store shares (its errors, its feeds); the records a
//! match is kept as are `records.rs`, their bytes `codec.rs`, and the tenants' and lobby's parts `tenants.rs` and
//! `lobby.rs`; who is online, `presence.rs`.

pub mod codec;
mod embedded;
mod embedded_writes;
mod group_commit;
mod journal;
pub mod lobby;
mod memory;
pub mod presence;
mod records;
mod redis;
mod reopen;
pub mod tenants;
#[cfg(test)]
mod tests;

pub use self::redis::RedisStore;
pub use crate::engine::notation::Action;
pub use embedded::EmbeddedStore;
pub use lobby::{LobbyAppended, LobbyEntry, LobbyStore};
pub use memory::MemoryStore;
pub use presence::{LocalPresence, Presence, PresenceStore};
pub use records::{
    BotSeat, EndReason, EventRecord, Finished, ListQuery, MatchId, MatchRecord, StoredMatch, SEATS,
};
pub use tenants::{KeyRecord, LimitOverrides, TenantRecord, TenantStore};

use crate::engine::Player;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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
    /// Who is online: shared by the replicas over Redis, this server's own otherwise.
    pub presence: Arc<dyn PresenceStore>,
}

impl Stores {
    /// Every view of `store`.
    pub fn of<S: MatchStore + TenantStore + LobbyStore>(store: S) -> Stores {
        let store = Arc::new(store);
        Stores {
            matches: store.clone(),
            tenants: store.clone(),
            lobby: store,
            presence: Arc::new(LocalPresence::default()),
        }
    }

    /// Opens the configured store (creating the data directory and file if needed, or connecting to Redis), which
    /// counts what only it sees in `metrics` (the embedded store's journal).
    pub async fn open(
        settings: &crate::config::MatchSettings,
        metrics: &crate::metrics::Metrics,
    ) -> Result<Stores, StoreError> {
        use crate::config::StoreKind;
        Ok(match settings.store {
            StoreKind::Embedded => {
                // Opening the file may recover it after a crash, which reads it whole: off the async workers.
                let dir = settings.data_dir.clone();
                let metrics = metrics.clone();
                let opened = tokio::task::spawn_blocking(move || {
                    EmbeddedStore::open_counted(&dir, Some(metrics))
                })
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
                .await?
                .require_replicas(settings.redis_wait_replicas, settings.redis_wait_timeout);
                tracing::info!(
                    server = %store.server(),
                    prefix = %settings.redis_key_prefix,
                    "match store: redis"
                );
                // The replicas share who is online too.
                let store = Arc::new(store);
                Stores {
                    matches: store.clone(),
                    tenants: store.clone(),
                    lobby: store.clone(),
                    presence: store,
                }
            }
        })
    }
}

/// Why the store could not do what was asked.
#[derive(Debug, Clone, thiserror::Error)]
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
    /// The store cannot take the write now, and the call may be sent again (with its request id): it reached
    /// Redis but not the replicas it must reach before it is acknowledged (`WAIT` fell short: it may or may not be
    /// kept), or the embedded store refuses writes since a storage failure (`super::reopen`: it was not written).
    /// What happened, in a sentence.
    #[error("{0}")]
    Unavailable(String),
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
    /// The feed carries match `id`'s appends from now on (its channel was (re)subscribed): what came before is in
    /// the log.
    Following {
        /// The match.
        id: MatchId,
    },
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

    /// For a shared store whose feed is per match (Redis's sharded channels): reports the appends to match `id`
    /// from now on (`follow`), or no longer. A store whose feed carries every match ignores it.
    fn follow_match(&self, id: &MatchId, follow: bool) {
        let _ = (id, follow);
    }

    /// For a shared store: starts reporting the appends, by any server, to the matches told to
    /// [`MatchStore::follow_match`] (to every match, for a store that is told nothing), to `sink`, on a thread
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
