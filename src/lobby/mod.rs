//! The lobby: players' profiles and ratings, challenges, seeks (matchmaking), and the resumable event streams of
//! players and of tenants' backends. It sits above the match manager: it creates the matches it arranges, and
//! hears from it ([`crate::matches::Lifecycle`]) when any match of a tenant is created, started or finished.
//!
//! Each tenant's lobby is one append-only log in the store ([`crate::store::LobbyStore`]), and its state is the
//! replay of that log ([`state::TenantState`]), as a match's state is the replay of its events. Every change is
//! decided against the state caught up with the store and written as the next entry with the store's
//! check-and-append; a replica that loses the race catches up and decides again (so a challenge is accepted once,
//! a seek paired once, a match's end recorded once, whichever replicas try). Streams read the same log: an event's
//! id is its entry's number, so a stream resumed after any id misses nothing and repeats nothing.
//!
//! This file holds the lobby itself and how it decides: each tenant's state, caught up with the store, and a
//! decision written as the next entries (`commit`). The calls are in modules, one job each: `profiles`,
//! `challenges`, `seeks`, `streams` (a reader's news, followed live), `record` (the matches the lobby arranges
//! and those it records). Beside them: `entry` (the log's entries and their stored form), `state` (the replay and
//! the questions asked of it), `ratings` (Glicko-2), `news` (what each reader is told of an entry), `error`,
//! `presence` (who is online: the players with a stream open), `leaderboard` (the players ranked per game),
//! `background` (the lifecycle follower, the expiry sweep, the repair, the store's feed, the presence keeper), and
//! `above` (the lobby's log written and read by the modules above it: tournaments).

mod above;
mod background;
mod challenges;
pub mod entry;
mod error;
mod leaderboard;
pub mod news;
mod presence;
mod profiles;
pub mod ratings;
mod record;
mod seeks;
pub mod state;
mod streams;
#[cfg(test)]
mod tests;

pub use background::LobbyTasks;
pub use challenges::{Accepted, ChallengeRequest};
pub use entry::{
    BotAccount, Challenge, ChallengeStatus, DeclineReason, Fallback, LobbyId, Origin, SeatChoice,
    SeatRecord, Seek, SeekStatus, TournamentStep,
};
pub use error::LobbyError;
pub use leaderboard::Ranked;
pub use news::{News, PlayerRating, Reader};
pub use profiles::{MAX_BOT_DESCRIPTION_BYTES, MAX_BOT_OWNER_BYTES, MAX_DISPLAY_NAME_BYTES};
pub use seeks::SeekRequest;
pub use state::{Profile, Standing, TenantState, TournamentLog};
pub use streams::{Page, Tiding};

use self::entry::{Entry, Logged};
use self::error::store_failed;
use crate::clock::TimeControl;
use crate::config::LobbySettings;
use crate::matches::{Encoder, Matches};
use crate::metrics::Metrics;
use crate::store::{LobbyStore, LocalPresence, MatchId, PresenceStore, StoreError};
use crate::sync::lock;
use crate::sync::Counts;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// How many times one decision is tried against the store before the call fails: each lost race means another
/// server wrote meanwhile, so this many in a row only happens under a flood or a store that misbehaves.
const MAX_COMMIT_ATTEMPTS: usize = 64;

use crate::clock::now_ms;

fn random_id() -> Result<LobbyId, LobbyError> {
    MatchId::random().map_err(|e| store_failed("reading the OS random generator", e))
}

/// One tenant's lobby on this server: its state, and the latest entry number, which wakes its streams.
struct TenantLobby {
    id: String,
    /// Held by one decision at a time across its catch-up and the store's append (an await).
    state: tokio::sync::Mutex<TenantState>,
    latest: watch::Sender<u64>,
}

/// The lobby of every tenant, over one store.
pub struct Lobby<E: Encoder> {
    inner: Arc<Inner<E>>,
}

impl<E: Encoder> Clone for Lobby<E> {
    fn clone(&self) -> Self {
        Lobby {
            inner: self.inner.clone(),
        }
    }
}

impl<E: Encoder> std::fmt::Debug for Lobby<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lobby")
            .field("settings", &self.inner.settings)
            .finish_non_exhaustive()
    }
}

struct Inner<E: Encoder> {
    store: Arc<dyn LobbyStore>,
    metrics: Metrics,
    /// How long closed challenges and seeks and finished matches are remembered (the matches' retention).
    retention: Option<std::time::Duration>,
    matches: Matches<E>,
    settings: LobbySettings,
    tenants: Mutex<HashMap<String, Arc<TenantLobby>>>,
    /// Open player streams on this server, per (tenant, player).
    streams: Counts<(String, String)>,
    /// Who is online, across the servers sharing it.
    presence: Arc<dyn PresenceStore>,
    /// The players with a stream open here, per (tenant, player): those this server holds in `presence`.
    present: Counts<(String, String)>,
    /// Wakes the presence keeper when a player's first stream here opens or his last one closes.
    presence_changed: Arc<tokio::sync::Notify>,
    /// This server's name in the presence store (random, new at each start).
    holder: String,
}

/// What a decision writes: no entry, one, or several (written together, in order).
pub(crate) trait IntoEntries: Send + 'static {
    /// The entries, in order.
    fn into_entries(self) -> Vec<Entry>;
}

impl IntoEntries for Option<Entry> {
    fn into_entries(self) -> Vec<Entry> {
        self.into_iter().collect()
    }
}

impl IntoEntries for Vec<Entry> {
    fn into_entries(self) -> Vec<Entry> {
        self
    }
}

impl<E: Encoder> Lobby<E> {
    /// The lobby over `store`, arranging its matches with `matches`, counting in `metrics`.
    pub fn new(
        store: Arc<dyn LobbyStore>,
        matches: Matches<E>,
        settings: LobbySettings,
        metrics: Metrics,
    ) -> Lobby<E> {
        Lobby {
            inner: Arc::new(Inner {
                store,
                metrics,
                retention: matches.retention(),
                matches,
                settings,
                tenants: Mutex::new(HashMap::new()),
                streams: Counts::default(),
                presence: Arc::new(LocalPresence::default()),
                present: Counts::default(),
                presence_changed: Arc::default(),
                holder: random_id().map_or_else(
                    |_| format!("server-{}", std::process::id()),
                    |id| id.to_string(),
                ),
            }),
        }
    }

    /// The lobby keeping who is online in `presence` (shared by the replicas over Redis) rather than in this
    /// server's memory. Called on the lobby just made, before it is cloned.
    pub fn with_presence(mut self, presence: Arc<dyn PresenceStore>) -> Lobby<E> {
        Arc::get_mut(&mut self.inner)
            .expect("with_presence is called on the lobby just made, before any clone")
            .presence = presence;
        self
    }

    /// The settings.
    pub fn settings(&self) -> &LobbySettings {
        &self.inner.settings
    }

    fn tenant(&self, tenant: &str) -> Arc<TenantLobby> {
        lock(&self.inner.tenants)
            .entry(tenant.to_string())
            .or_insert_with(|| {
                Arc::new(TenantLobby {
                    id: tenant.to_string(),
                    state: tokio::sync::Mutex::new(TenantState::default()),
                    latest: watch::channel(0).0,
                })
            })
            .clone()
    }

    /// Runs `work` (a decision and its write) as a task of its own and awaits it: once begun, it runs to its end
    /// even if its caller goes away, so that an entry the store took is applied here and wakes the streams.
    async fn detached<T: Send + 'static>(
        work: impl std::future::Future<Output = Result<T, LobbyError>> + Send + 'static,
    ) -> Result<T, LobbyError> {
        tokio::spawn(work).await.unwrap_or_else(|e| {
            tracing::error!(error = %e, "a lobby task panicked");
            Err(LobbyError::Internal(
                "internal error; see the server log".into(),
            ))
        })
    }

    /// Reads `tenant`'s log past what `state` holds, applying it.
    async fn catch_up(
        store: &dyn LobbyStore,
        tenant: &str,
        state: &mut TenantState,
    ) -> Result<(), LobbyError> {
        loop {
            let entries = store
                .lobby_read(tenant, state.seq, 1000)
                .await
                .map_err(|e| store_failed("reading the lobby", e))?;
            if entries.is_empty() {
                return Ok(());
            }
            for stored in entries {
                let logged = entry::decode(stored.seq, &stored.bytes)
                    .map_err(|e| store_failed("decoding the lobby", e))?;
                state.apply(&logged);
            }
        }
    }

    /// Decides against `tenant`'s state (caught up with the store) and writes what `decide` says as the next
    /// entries, deciding again after losing the store's race to another server.
    async fn commit<T, B: IntoEntries>(
        store: &dyn LobbyStore,
        metrics: &Metrics,
        tenant: &TenantLobby,
        mut decide: impl FnMut(&TenantState) -> Result<(B, T), LobbyError>,
    ) -> Result<T, LobbyError> {
        let mut state = tenant.state.lock().await;
        for _ in 0..MAX_COMMIT_ATTEMPTS {
            Self::catch_up(store, &tenant.id, &mut state).await?;
            let (entries, answer) = decide(&state)?;
            let entries = entries.into_entries();
            if entries.is_empty() {
                return Ok(answer);
            }
            let at_ms = now_ms();
            let first = state.seq + 1;
            let bytes: Vec<Vec<u8>> = entries.iter().map(|e| entry::encode(e, at_ms)).collect();
            match store.lobby_append(&tenant.id, first, &bytes).await {
                Ok(()) => {
                    for (seq, entry) in (first..).zip(entries) {
                        metrics.lobby_entry(entry.label());
                        state.apply(&Logged { seq, at_ms, entry });
                    }
                    tenant.latest.send_replace(state.seq);
                    return Ok(answer);
                }
                // The store holds fewer entries than this server has read: its data was lost (a Redis restarted
                // without persistence, its keys deleted). Reading on cannot catch up with that, so say so rather
                // than try for ever.
                Err(StoreError::Conflict { current }) if current < state.seq => {
                    return Err(store_failed(
                        "writing the lobby",
                        format!(
                            "tenant {:?}'s lobby log in the store holds {current} entries, fewer than the {} this \
                             server has read: the store lost them",
                            tenant.id, state.seq
                        ),
                    ));
                }
                Err(StoreError::Conflict { .. }) => metrics.lobby_conflict(),
                Err(e) => return Err(store_failed("writing the lobby", e)),
            }
        }
        Err(store_failed(
            "writing the lobby",
            format!(
                "tenant {:?}'s lobby lost the store's race {MAX_COMMIT_ATTEMPTS} times in a row",
                tenant.id
            ),
        ))
    }

    /// [`Lobby::commit`], as a task of its own.
    async fn decide<T: Send + 'static, B: IntoEntries>(
        &self,
        tenant: &str,
        decide: impl FnMut(&TenantState) -> Result<(B, T), LobbyError> + Send + 'static,
    ) -> Result<T, LobbyError> {
        let (store, metrics) = (self.inner.store.clone(), self.inner.metrics.clone());
        let tenant = self.tenant(tenant);
        Self::detached(async move { Self::commit(store.as_ref(), &metrics, &tenant, decide).await })
            .await
    }

    /// Reads the state, caught up.
    async fn read<T: Send + 'static>(
        &self,
        tenant: &str,
        read: impl FnOnce(&TenantState) -> T + Send + 'static,
    ) -> Result<T, LobbyError> {
        let mut read = Some(read);
        self.decide(tenant, move |state| {
            Ok((None::<Entry>, read.take().map(|read| read(state))))
        })
        .await
        .map(|answer| answer.expect("a read decides once"))
    }

    // The checks challenges and seeks share.

    fn ttl(
        &self,
        asked: Option<u64>,
        default: std::time::Duration,
        max: std::time::Duration,
        field: &str,
    ) -> Result<u64, LobbyError> {
        let max_ms = max.as_millis() as u64;
        match asked {
            None => Ok(default.as_millis() as u64),
            Some(ms) if ms > max_ms => Err(LobbyError::invalid(
                field,
                format!("at most {} seconds on this server", max_ms / 1000),
            )),
            Some(ms) => Ok(ms),
        }
    }

    /// Refuses a time control the matches would refuse, before anybody waits for it.
    fn check_time_control(&self, control: TimeControl) -> Result<(), LobbyError> {
        control
            .check(self.inner.matches.max_initial_ms())
            .map_err(|problem| LobbyError::invalid("time_control", problem))
    }

    fn check_pending(&self, state: &TenantState, player: &str) -> Result<(), LobbyError> {
        let max = self.inner.settings.max_pending_per_player;
        if state.pending_of(player) >= max {
            return Err(LobbyError::ResourceExhausted(format!(
                "{player} has {max} pending challenges and open seeks, the limit (lobby.max_pending_per_player); \
                 cancel some or wait for answers"
            )));
        }
        Ok(())
    }
}
