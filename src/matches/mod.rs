//! Server-held matches: creation, seats and their tokens, versions, idempotent moves, the event log
//! and its fan-out to watchers.
//!
//! The event log is the spine of a match. A move is checked against the match's state, appended to
//! the [`MatchStore`] (durable before anyone hears of it), applied to the in-memory state, and then
//! published once on the match's broadcast channel, from which every watcher's stream reads.
//! Resuming, retried requests and `GetHistory` read the log back from the store and replay it.
//!
//! Concurrency. Each match is a [`Slot`] with two `std` mutexes and no `.await` under either:
//! - `write` serialises the writers of one match. A writer holds it on tokio's blocking pool while it
//!   checks the move and waits for the store's commit (an fsync), so moves on one match are applied
//!   one at a time while different matches commit in parallel;
//! - `live` guards the current state for the instants it takes to read it, swap in a new one and
//!   publish the event. Readers (`GetMatch`, a new watcher) never wait for a commit.
//!
//! Several servers may share one store (Redis; [`MatchStore::shared`]). The store checks `seq` on
//! append (see [`MatchStore::append`]), so two servers can never both accept a move at the same
//! version: the one that loses catches up from the store's log, publishes the events its own
//! watchers missed, and checks the move again against the new state (ABORTED if the client's
//! `expected_version` is now stale). What a server holds in memory can lag the store, so over a
//! shared store every read and write first catches the match up from the log (one round trip when
//! nothing is new), and the store's feed of appends ([`MatchStore::follow`]) pushes every other
//! server's events to this server's watchers as they happen. Every change to a match's state goes
//! through one function, `Inner::advance`, which applies only events past the version in memory,
//! so the feed, a catch-up and a local write can race without an event being applied or sent twice.
//!
//! A slow watcher never stalls a match: publishing is a non-blocking `broadcast` send, and a watcher
//! that falls more than `watcher_buffer` events behind is resynchronised with a snapshot (see
//! [`watch`]).

pub mod notation;
mod watch;

use crate::api::convert;
use crate::api::pb;
use crate::config::{MatchSettings, StoreKind};
use crate::engine::{
    self, AnyGame, Event, GameKind, IllegalMove, Options, Player, Reason, Status, Violation,
};
use crate::metrics::Metrics;
use crate::store::{
    codec, Action, Appended, EmbeddedStore, EventRecord, Finished, ListQuery, MatchId, MatchRecord,
    MatchStore, MemoryStore, RedisStore, StoreError, StoredMatch,
};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::broadcast;

pub use watch::WatchStream;

/// The longest `request_id` accepted, in bytes.
pub const MAX_REQUEST_ID_BYTES: usize = 128;
/// `ListMatches` page size when the request gives none.
pub const DEFAULT_PAGE_SIZE: usize = 50;
/// The largest `ListMatches` page.
pub const MAX_PAGE_SIZE: usize = 500;
/// How many times a move is checked again after losing the store's race to another server.
const MAX_ATTEMPTS: usize = 4;

/// Why a match request failed. `crate::api::error::match_error` turns each into its gRPC status.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A malformed request: every violation, with its field.
    #[error("invalid request")]
    Invalid(Vec<Violation>),
    /// No such match.
    #[error("match {0} does not exist")]
    NotFound(String),
    /// No token, or a token that is not one of the match's seats.
    #[error("{0}")]
    Unauthenticated(&'static str),
    /// A seat acting out of turn.
    #[error("{0}")]
    PermissionDenied(String),
    /// `expected_version` is stale.
    #[error("the match is at version {current}, not {expected}")]
    VersionMismatch {
        /// What the client expected.
        expected: u64,
        /// What the match is at.
        current: u64,
    },
    /// The rules refuse the move (or the match is over: reason `MatchOver`).
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
    /// The game has no rules on this server yet.
    #[error("{} is not implemented", .0.name())]
    NotImplemented(GameKind),
    /// `from_seq` is past the end of the log.
    #[error("from_seq {from_seq} is beyond the match's version {version}")]
    OutOfRange {
        /// What the client asked for.
        from_seq: u64,
        /// The match's version.
        version: u64,
    },
    /// A watcher limit was reached.
    #[error("{0}")]
    ResourceExhausted(String),
    /// The store or the server failed; logged where it happened, with the details.
    #[error("{0}")]
    Internal(String),
}

impl MatchError {
    fn invalid(field: &str, description: impl Into<String>) -> MatchError {
        MatchError::Invalid(vec![Violation {
            field: field.to_string(),
            description: description.into(),
        }])
    }

    fn match_over() -> MatchError {
        MatchError::Illegal(IllegalMove::new(
            Reason::MatchOver,
            "the match is over; nothing more can be played",
        ))
    }
}

fn store_failed(what: &str, id: Option<MatchId>, error: impl std::fmt::Display) -> MatchError {
    tracing::error!(match_id = id.map(|id| id.to_string()), error = %error, "{what} failed");
    MatchError::Internal(format!("{what} failed; see the server log"))
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // No critical section can leave its data half-changed (each assigns whole values), so a panic
    // elsewhere is no reason to stop serving the match.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs blocking work (store I/O, waiting for a match's writer lock) off the runtime threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, MatchError> + Send + 'static,
) -> Result<T, MatchError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        tracing::error!(error = %e, "a match task panicked");
        Err(MatchError::Internal(
            "internal error; see the server log".into(),
        ))
    })
}

fn random_token() -> Result<String, MatchError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| store_failed("reading the OS random generator", None, e))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The outcome of the match once `game` is its state, if the rules ended it.
fn played_out(game: &AnyGame, at_ms: u64) -> Option<Finished> {
    (game.status() == Status::MatchOver).then(|| Finished {
        at_ms,
        winner: game.to_setup().winner,
        resigned: None,
    })
}

/// How `event` leaves the match, `game` being the state after it.
fn finished_by(event: &EventRecord, game: &AnyGame) -> Option<Finished> {
    match event.action {
        Action::Resign => Some(Finished {
            at_ms: event.at_ms,
            winner: Some(event.player.opponent()),
            resigned: Some(event.player),
        }),
        Action::Move(_) => played_out(game, event.at_ms),
    }
}

/// A match moved on from some version: the new events, each with its encoded form, and where they
/// leave the match. Computed outside the match's locks, applied by `Inner::advance`.
struct Advance {
    events: Vec<(EventRecord, pb::MatchEvent)>,
    game: AnyGame,
    version: u64,
    finished: Option<Finished>,
}

impl Advance {
    /// Plays `events` (which follow `version`) on `game`, as they were played when accepted.
    fn replay(
        mut game: AnyGame,
        version: u64,
        events: Vec<EventRecord>,
    ) -> Result<Advance, String> {
        let mut trace = Vec::new();
        let mut out = Vec::with_capacity(events.len());
        let mut finished = None;
        for (event, seq) in events.into_iter().zip(version + 1..) {
            if event.seq != seq {
                return Err(format!("event {} where {seq} was expected", event.seq));
            }
            trace.clear();
            notation::play_event(&mut game, event.player, &event.action, &mut trace)
                .map_err(|e| format!("event {seq} does not replay: {e}"))?;
            finished = finished_by(&event, &game);
            let encoded = event_pb(&event, &trace, &game, finished.as_ref());
            out.push((event, encoded));
        }
        Ok(Advance {
            version: version + out.len() as u64,
            events: out,
            game,
            finished,
        })
    }
}

/// What a watcher receives from a match's broadcast channel.
#[derive(Debug)]
enum Published {
    /// An accepted event (`message` is its `WatchMatchResponse`, encoded once for every watcher).
    Event {
        seq: u64,
        message: pb::WatchMatchResponse,
    },
    /// A seat connected or disconnected, or the match finished.
    Notice(pb::WatchMatchResponse),
}

/// The changing part of a match.
#[derive(Debug)]
struct Live {
    game: AnyGame,
    version: u64,
    finished: Option<Finished>,
    /// `request_id` → the event it produced, for idempotent retries.
    requests: HashMap<String, (u64, Player, Action)>,
    /// Open seated streams, `[South, North]`.
    presence: [usize; 2],
}

/// One match in memory.
#[derive(Debug)]
struct Slot {
    id: MatchId,
    kind: GameKind,
    options: Options,
    created_ms: u64,
    token_hashes: [[u8; 32]; 2],
    write: Mutex<()>,
    live: Mutex<Live>,
    events: broadcast::Sender<Arc<Published>>,
    watchers: AtomicUsize,
}

impl Live {
    /// The state at the end of a stored log, replayed through the engine.
    fn replayed(stored: &StoredMatch) -> Result<Live, String> {
        let StoredMatch { record, events } = stored;
        let mut game = AnyGame::new_match(record.kind, &record.options);
        let mut requests = HashMap::new();
        let mut trace = Vec::new();
        for event in events {
            trace.clear();
            notation::play_event(&mut game, event.player, &event.action, &mut trace)
                .map_err(|e| format!("event {} does not replay: {e}", event.seq))?;
            if !event.request_id.is_empty() {
                requests.insert(
                    event.request_id.clone(),
                    (event.seq, event.player, event.action),
                );
            }
        }
        Ok(Live {
            game,
            version: record.version,
            finished: record.finished,
            requests,
            presence: [0, 0],
        })
    }
}

impl Slot {
    /// Builds the match from its stored log by replaying it.
    fn replayed(stored: StoredMatch, buffer: usize) -> Result<Slot, String> {
        let live = Live::replayed(&stored)?;
        let record = stored.record;
        Ok(Slot {
            id: record.id,
            kind: record.kind,
            options: record.options,
            created_ms: record.created_ms,
            token_hashes: record.token_hashes,
            write: Mutex::new(()),
            live: Mutex::new(live),
            events: broadcast::channel(buffer).0,
            watchers: AtomicUsize::new(0),
        })
    }

    /// The seat whose token this is; `None` without a token (a spectator).
    fn seat(&self, token: Option<&str>) -> Result<Option<Player>, MatchError> {
        let Some(token) = token else { return Ok(None) };
        let hash = token_hash(token);
        Player::BOTH
            .into_iter()
            .find(|p| self.token_hashes[p.index()] == hash)
            .map(Some)
            .ok_or(MatchError::Unauthenticated(
                "the token is not a seat of this match",
            ))
    }

    fn record(&self, version: u64, finished: Option<Finished>) -> MatchRecord {
        MatchRecord {
            id: self.id,
            kind: self.kind,
            options: self.options,
            created_ms: self.created_ms,
            token_hashes: self.token_hashes,
            version,
            finished,
        }
    }

    /// The match as it stands, read in one short critical section and encoded outside it.
    fn to_pb(&self) -> pb::Match {
        let (game, version, finished, presence) = {
            let live = lock(&self.live);
            (
                live.game.clone(),
                live.version,
                live.finished,
                live.presence,
            )
        };
        match_pb(self, &game, version, finished, presence)
    }
}

fn result_pb(finished: &Finished) -> pb::MatchResult {
    pb::MatchResult {
        winner: convert::player_to_pb(finished.winner),
        reason: if finished.resigned.is_some() {
            pb::MatchEndReason::Resignation
        } else {
            pb::MatchEndReason::PlayedOut
        } as i32,
        resigned: convert::player_to_pb(finished.resigned),
        finished_at_ms: finished.at_ms,
    }
}

fn status_pb(finished: Option<&Finished>) -> i32 {
    if finished.is_some() {
        pb::MatchStatus::Finished as i32
    } else {
        pb::MatchStatus::Active as i32
    }
}

fn legal_moves_pb(game: &AnyGame, finished: Option<&Finished>) -> Vec<pb::Move> {
    if finished.is_some() {
        return Vec::new();
    }
    game.legal_moves().iter().map(convert::move_to_pb).collect()
}

fn match_pb(
    slot: &Slot,
    game: &AnyGame,
    version: u64,
    finished: Option<Finished>,
    presence: [usize; 2],
) -> pb::Match {
    pb::Match {
        match_id: slot.id.to_string(),
        kind: convert::kind_to_pb(slot.kind) as i32,
        options: Some(convert::options_to_pb(&slot.options)),
        state: Some(convert::state_to_pb(game)),
        version,
        status: status_pb(finished.as_ref()),
        seats: Player::BOTH
            .into_iter()
            .map(|p| pb::Seat {
                player: convert::player_to_pb(Some(p)),
                connected: presence[p.index()] > 0,
            })
            .collect(),
        legal_moves: legal_moves_pb(game, finished.as_ref()),
        result: finished.as_ref().map(result_pb),
        created_at_ms: slot.created_ms,
    }
}

fn event_pb(
    event: &EventRecord,
    trace: &[Event],
    game: &AnyGame,
    finished: Option<&Finished>,
) -> pb::MatchEvent {
    pb::MatchEvent {
        seq: event.seq,
        player: convert::player_to_pb(Some(event.player)),
        action: Some(match &event.action {
            Action::Move(mv) => pb::match_event::Action::Move(convert::move_to_pb(mv)),
            Action::Resign => pb::match_event::Action::Resignation(pb::Resignation {}),
        }),
        events: convert::events_to_pb(trace),
        state: Some(convert::state_to_pb(game)),
        legal_moves: legal_moves_pb(game, finished),
        accepted_at_ms: event.at_ms,
    }
}

fn finished_pb(version: u64, finished: &Finished) -> pb::WatchMatchResponse {
    pb::WatchMatchResponse {
        kind: Some(pb::watch_match_response::Kind::Finished(
            pb::MatchFinished {
                version,
                result: Some(result_pb(finished)),
            },
        )),
    }
}

fn summary_pb(record: &MatchRecord) -> pb::MatchSummary {
    pb::MatchSummary {
        match_id: record.id.to_string(),
        kind: convert::kind_to_pb(record.kind) as i32,
        status: status_pb(record.finished.as_ref()),
        version: record.version,
        created_at_ms: record.created_ms,
        result: record.finished.as_ref().map(result_pb),
    }
}

/// Replays a stored match, encoding every event with its trace, resulting state and next moves.
fn history_pb(stored: &StoredMatch) -> Result<Vec<pb::MatchEvent>, String> {
    Ok(replay_all(stored)?.0)
}

/// [`history_pb`] and the final state.
fn replay_all(stored: &StoredMatch) -> Result<(Vec<pb::MatchEvent>, AnyGame), String> {
    let record = &stored.record;
    let mut game = AnyGame::new_match(record.kind, &record.options);
    let mut trace = Vec::new();
    let mut out = Vec::with_capacity(stored.events.len());
    for event in &stored.events {
        trace.clear();
        notation::play_event(&mut game, event.player, &event.action, &mut trace)
            .map_err(|e| format!("event {} does not replay: {e}", event.seq))?;
        let finished = match event.action {
            Action::Resign => record.finished,
            Action::Move(_) => played_out(&game, event.at_ms),
        };
        out.push(event_pb(event, &trace, &game, finished.as_ref()));
    }
    Ok((out, game))
}

/// A new match's answer: the match and one token per seat.
#[derive(Debug)]
pub struct Created {
    /// The match at version 0.
    pub state: pb::Match,
    /// `[South, North]` tokens, shown once.
    pub tokens: [String; 2],
}

/// The match manager: every match this server holds, over one [`MatchStore`].
#[derive(Clone)]
pub struct Matches {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Matches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matches")
            .field("settings", &self.inner.settings)
            .finish_non_exhaustive()
    }
}

struct Inner {
    store: Arc<dyn MatchStore>,
    settings: MatchSettings,
    slots: Mutex<HashMap<MatchId, Arc<Slot>>>,
    watchers: AtomicUsize,
    metrics: Metrics,
}

/// Whether a read must first catch the match up with a shared store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fresh {
    /// As of now: caught up from the store if it is shared.
    Now,
    /// Whatever this server holds (the caller catches up itself).
    Held,
}

impl Matches {
    /// Opens the configured store (creating the data directory and database file if needed, or
    /// connecting to Redis).
    pub fn open(settings: &MatchSettings) -> Result<Matches, StoreError> {
        Matches::open_with_metrics(settings, Metrics::new())
    }

    /// [`Matches::open`], counting in `metrics`.
    pub fn open_with_metrics(
        settings: &MatchSettings,
        metrics: Metrics,
    ) -> Result<Matches, StoreError> {
        let store: Arc<dyn MatchStore> = match settings.store {
            StoreKind::Embedded => Arc::new(EmbeddedStore::open(&settings.data_dir)?),
            StoreKind::Memory => Arc::new(MemoryStore::new()),
            StoreKind::Redis => {
                let store = RedisStore::open(
                    &settings.redis_url,
                    &settings.redis_key_prefix,
                    settings.redis_request_ttl,
                )?;
                tracing::info!(
                    server = %store.server(),
                    prefix = %settings.redis_key_prefix,
                    "match store: redis"
                );
                Arc::new(store)
            }
        };
        Ok(Matches::with_store_and_metrics(
            store,
            settings.clone(),
            metrics,
        ))
    }

    /// A manager over `store`.
    pub fn with_store(store: Arc<dyn MatchStore>, settings: MatchSettings) -> Matches {
        Matches::with_store_and_metrics(store, settings, Metrics::new())
    }

    /// A manager over `store`, counting in `metrics`.
    pub fn with_store_and_metrics(
        store: Arc<dyn MatchStore>,
        settings: MatchSettings,
        metrics: Metrics,
    ) -> Matches {
        Matches {
            inner: Arc::new(Inner {
                store,
                settings,
                slots: Mutex::new(HashMap::new()),
                watchers: AtomicUsize::new(0),
                metrics,
            }),
        }
    }

    /// The match `id` (parsed from the request's `field`), loading it from the store on first use;
    /// with [`Fresh::Now`], caught up with a shared store.
    async fn slot(&self, field: &str, id: &str, fresh: Fresh) -> Result<Arc<Slot>, MatchError> {
        let id = MatchId::parse(id)
            .ok_or_else(|| MatchError::invalid(field, "a match id is 32 hex digits"))?;
        let held = lock(&self.inner.slots).get(&id).cloned();
        if let Some(slot) = held {
            if fresh == Fresh::Held || !self.inner.store.shared() {
                return Ok(slot);
            }
            let inner = self.inner.clone();
            return blocking(move || {
                inner.catch_up(&slot)?;
                Ok(slot)
            })
            .await;
        }
        let inner = self.inner.clone();
        blocking(move || {
            let stored = inner
                .store
                .load(&id)
                .map_err(|e| store_failed("loading a match", Some(id), e))?
                .ok_or_else(|| MatchError::NotFound(id.to_string()))?;
            let active = stored.record.finished.is_none();
            let slot = Slot::replayed(stored, inner.settings.watcher_buffer)
                .map_err(|e| store_failed("replaying a stored match", Some(id), e))?;
            // Another request may have loaded it meanwhile: keep the first, which may have moved on.
            Ok(lock(&inner.slots)
                .entry(id)
                .or_insert_with(|| {
                    if active {
                        inner.metrics.matches_active_add(1);
                    }
                    Arc::new(slot)
                })
                .clone())
        })
        .await
    }

    /// Starts a match of `kind`.
    pub async fn create(&self, kind: GameKind, options: Options) -> Result<Created, MatchError> {
        let game = AnyGame::new_match(kind, &options);
        let id = MatchId::random()
            .map_err(|e| store_failed("reading the OS random generator", None, e))?;
        let tokens = [random_token()?, random_token()?];
        let record = MatchRecord {
            id,
            kind,
            options,
            created_ms: now_ms(),
            token_hashes: [token_hash(&tokens[0]), token_hash(&tokens[1])],
            version: 0,
            finished: None,
        };
        let slot = Slot::replayed(
            StoredMatch {
                record: record.clone(),
                events: Vec::new(),
            },
            self.inner.settings.watcher_buffer,
        )
        .map_err(MatchError::Internal)?;
        let state = match_pb(&slot, &game, 0, None, [0, 0]);
        let inner = self.inner.clone();
        blocking(move || {
            inner
                .store
                .create(&record)
                .map_err(|e| store_failed("creating a match", Some(id), e))?;
            lock(&inner.slots).insert(id, Arc::new(slot));
            inner.metrics.matches_active_add(1);
            Ok(())
        })
        .await?;
        tracing::info!(match_id = %id, game = kind.name(), "match created");
        Ok(Created { state, tokens })
    }

    /// The match as it stands.
    pub async fn get(&self, id: &str) -> Result<pb::Match, MatchError> {
        Ok(self.slot("match_id", id, Fresh::Now).await?.to_pb())
    }

    /// A page of match summaries.
    pub async fn list(
        &self,
        kind: Option<GameKind>,
        finished: Option<bool>,
        page_size: usize,
        page_token: &str,
    ) -> Result<(Vec<pb::MatchSummary>, String), MatchError> {
        let after = if page_token.is_empty() {
            None
        } else {
            Some(MatchId::parse(page_token).ok_or_else(|| {
                MatchError::invalid("page_token", "not a page token of ListMatches")
            })?)
        };
        let limit = match page_size {
            0 => DEFAULT_PAGE_SIZE,
            n => n.min(MAX_PAGE_SIZE),
        };
        let inner = self.inner.clone();
        // One more than asked for tells whether there is a next page.
        let query = ListQuery {
            kind,
            finished,
            after,
            limit: limit + 1,
        };
        let mut records = blocking(move || {
            inner
                .store
                .list(&query)
                .map_err(|e| store_failed("listing matches", None, e))
        })
        .await?;
        let next = if records.len() > limit {
            records.truncate(limit);
            records.last().map(|r| r.id.to_string()).unwrap_or_default()
        } else {
            String::new()
        };
        Ok((records.iter().map(summary_pb).collect(), next))
    }

    /// Plays `action` for the seat holding `token`; see `proto/mancala/v1/matches.proto` for the rules.
    pub async fn submit(
        &self,
        id: &str,
        token: Option<&str>,
        action: SubmitAction<'_>,
        expected_version: Option<u64>,
        request_id: String,
    ) -> Result<pb::MatchEvent, MatchError> {
        let result = self
            .submit_unrecorded(id, token, action, expected_version, request_id)
            .await;
        if let Err(error) = &result {
            self.inner.metrics.move_rejected(rejection_reason(error));
        }
        result
    }

    async fn submit_unrecorded(
        &self,
        id: &str,
        token: Option<&str>,
        action: SubmitAction<'_>,
        expected_version: Option<u64>,
        request_id: String,
    ) -> Result<pb::MatchEvent, MatchError> {
        if request_id.len() > MAX_REQUEST_ID_BYTES {
            return Err(MatchError::invalid(
                "request_id",
                format!("at most {MAX_REQUEST_ID_BYTES} bytes"),
            ));
        }
        // `Inner::submit` catches up itself, under the match's writer lock.
        let slot = self.slot("match_id", id, Fresh::Held).await?;
        let seat = slot.seat(token)?.ok_or(MatchError::Unauthenticated(
            "a seat token is required: send `authorization: Bearer <token>`",
        ))?;
        let action = match action {
            SubmitAction::Resign => Action::Resign,
            SubmitAction::Move(mv) => Action::Move(
                convert::game_move("move", slot.kind, mv).map_err(MatchError::Invalid)?,
            ),
        };
        let inner = self.inner.clone();
        blocking(move || inner.submit(&slot, seat, action, expected_version, request_id)).await
    }

    /// Opens a watch stream; see [`watch`].
    pub async fn watch(
        &self,
        id: &str,
        token: Option<&str>,
        from_seq: Option<u64>,
    ) -> Result<WatchStream, MatchError> {
        let slot = self.slot("match_id", id, Fresh::Now).await?;
        let seat = slot.seat(token)?;
        watch::start(self.inner.clone(), slot, seat, from_seq)
    }

    /// The whole log, encoded, and the match's notation.
    pub async fn history(
        &self,
        id: &str,
    ) -> Result<(pb::Match, Vec<pb::MatchEvent>, String), MatchError> {
        let slot = self.slot("match_id", id, Fresh::Held).await?;
        let inner = self.inner.clone();
        blocking(move || {
            // The state shown is the one the log read leads to, whatever else moves the match on.
            let stored = inner.history(&slot)?;
            let notation = notation::export(
                slot.kind,
                &slot.options,
                stored.events.iter().map(|e| (e.player, &e.action)),
            );
            let (events, game) = replay_all(&stored)
                .map_err(|e| store_failed("replaying a stored match", Some(slot.id), e))?;
            let presence = lock(&slot.live).presence;
            let record = &stored.record;
            let state = match_pb(&slot, &game, record.version, record.finished, presence);
            // The log may be ahead of this server: bring the match (and its watchers) along.
            if record.version > lock(&slot.live).version {
                inner.catch_up(&slot)?;
            }
            Ok((state, events, notation))
        })
        .await
    }

    /// Deletes the finished matches older than the retention, from the store and from memory.
    pub async fn purge_expired(&self) -> Result<usize, MatchError> {
        self.purge_expired_at(now_ms()).await
    }

    /// [`Matches::purge_expired`] as if the clock read `now_ms`.
    pub async fn purge_expired_at(&self, now_ms: u64) -> Result<usize, MatchError> {
        let Some(retention) = self.inner.settings.retention else {
            return Ok(0);
        };
        let cutoff = now_ms.saturating_sub(retention.as_millis() as u64);
        let inner = self.inner.clone();
        blocking(move || {
            let purged = inner
                .store
                .purge_finished_before(cutoff)
                .map_err(|e| store_failed("purging old matches", None, e))?;
            let mut slots = lock(&inner.slots);
            for id in &purged {
                // Purged elsewhere while this server still counted it as active.
                if let Some(slot) = slots.remove(id) {
                    if lock(&slot.live).finished.is_none() {
                        inner.metrics.matches_active_add(-1);
                    }
                }
            }
            if !purged.is_empty() {
                tracing::info!(
                    count = purged.len(),
                    "finished matches past their retention deleted"
                );
            }
            Ok(purged.len())
        })
        .await
    }

    /// Runs [`Matches::purge_expired`] now and then (a quarter of the retention, between 1 s and
    /// 5 min) until the returned guard is dropped.
    pub fn spawn_purger(&self) -> Purger {
        let weak = Arc::downgrade(&self.inner);
        let period = self
            .inner
            .settings
            .retention
            .map_or(Duration::from_secs(3600), |r| {
                (r / 4).clamp(Duration::from_secs(1), Duration::from_secs(300))
            });
        Purger(tokio::spawn(async move {
            let mut ticks = tokio::time::interval(period);
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { break };
                let _ = Matches { inner }.purge_expired().await;
            }
        }))
    }
}

/// The background purge of expired matches; stops when dropped.
#[derive(Debug)]
pub struct Purger(tokio::task::JoinHandle<()>);

impl Drop for Purger {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// What `SubmitMove` or `Resign` asks for.
#[derive(Debug, Clone, Copy)]
pub enum SubmitAction<'a> {
    /// A move, still in its wire shape (decoded for the match's game).
    Move(Option<&'a pb::Move>),
    /// Resign the caller's seat.
    Resign,
}

impl Inner {
    /// The stored log of `slot`.
    fn history(&self, slot: &Slot) -> Result<StoredMatch, MatchError> {
        self.store
            .load(&slot.id)
            .map_err(|e| store_failed("reading a match's log", Some(slot.id), e))?
            .ok_or_else(|| MatchError::NotFound(slot.id.to_string()))
    }

    /// The answer of the earlier request that produced event `seq`.
    fn earlier_answer(&self, slot: &Slot, seq: u64) -> Result<pb::MatchEvent, MatchError> {
        let stored = self.history(slot)?;
        let mut events = history_pb(&stored)
            .map_err(|e| store_failed("replaying a stored match", Some(slot.id), e))?;
        events.truncate(seq as usize);
        events
            .pop()
            .ok_or_else(|| MatchError::Internal(format!("event {seq} is missing from the log")))
    }

    /// Brings `slot` up to the store's log (only what is new is read) and publishes the events its
    /// watchers have not seen; the store's version. Safe without the writer lock (see `advance`).
    fn catch_up(&self, slot: &Slot) -> Result<u64, MatchError> {
        let (game, version) = {
            let live = lock(&slot.live);
            (live.game.clone(), live.version)
        };
        let Some(stored) = self
            .store
            .events_after(&slot.id, version)
            .map_err(|e| store_failed("reading a match's log", Some(slot.id), e))?
        else {
            // Purged by another server sharing the store: forget it here too.
            if let Some(gone) = lock(&self.slots).remove(&slot.id) {
                if lock(&gone.live).finished.is_none() {
                    self.metrics.matches_active_add(-1);
                }
            }
            return Err(MatchError::NotFound(slot.id.to_string()));
        };
        let current = stored.record.version;
        if stored.events.is_empty() {
            return Ok(current);
        }
        let advance = Advance::replay(game, version, stored.events)
            .map_err(|e| store_failed("replaying a stored match", Some(slot.id), e))?;
        let fed = self.advance(slot, advance);
        self.metrics.remote_events(fed as u64);
        Ok(current)
    }

    /// Moves `slot` on to where `advance` leaves it, unless it is there already, publishing each
    /// event past the version held, in order; how many that was. Under `live` alone: whoever
    /// applies an event first (a local write, the store's feed, a catch-up) publishes it, the
    /// others find nothing left to do.
    fn advance(&self, slot: &Slot, advance: Advance) -> usize {
        let mut live = lock(&slot.live);
        if advance.version <= live.version {
            return 0;
        }
        let mut fed = 0;
        for (event, encoded) in advance.events {
            if event.seq <= live.version {
                continue;
            }
            if !event.request_id.is_empty() {
                live.requests
                    .insert(event.request_id, (event.seq, event.player, event.action));
            }
            let message = pb::WatchMatchResponse {
                kind: Some(pb::watch_match_response::Kind::Event(encoded)),
            };
            // Sent under `live`, so that a new watcher's snapshot and its subscription agree on
            // the version. An error only means nobody is watching.
            let _ = slot.events.send(Arc::new(Published::Event {
                seq: event.seq,
                message,
            }));
            fed += 1;
        }
        let newly_finished = live.finished.is_none() && advance.finished.is_some();
        live.game = advance.game;
        live.version = advance.version;
        live.finished = advance.finished;
        if let (true, Some(finished)) = (newly_finished, &advance.finished) {
            let notice = Published::Notice(finished_pb(advance.version, finished));
            let _ = slot.events.send(Arc::new(notice));
            self.metrics.matches_active_add(-1);
        }
        fed
    }

    /// An append reported by a shared store (by this server or another).
    fn on_appended(&self, appended: Appended) {
        match appended {
            Appended::Event { id, event } => {
                // Matches this server does not hold are read from the store when asked for.
                let Some(slot) = lock(&self.slots).get(&id).cloned() else {
                    return;
                };
                let event = match codec::decode_event(&slot.record(0, None), &event) {
                    Ok(event) => event,
                    Err(error) => {
                        tracing::warn!(match_id = %id, error = %error, "an undecodable event on the store's feed; reading the log instead");
                        let _ = self.catch_up(&slot);
                        return;
                    }
                };
                let (game, version) = {
                    let live = lock(&slot.live);
                    (live.game.clone(), live.version)
                };
                if event.seq <= version {
                    // Applied already (this server's own append, or a catch-up got there first).
                    return;
                }
                let fed = if event.seq == version + 1 {
                    match Advance::replay(game, version, vec![event]) {
                        Ok(advance) => self.advance(&slot, advance),
                        Err(error) => {
                            tracing::warn!(match_id = %id, error = %error, "an event on the store's feed does not replay; reading the log instead");
                            return self.catch_up_logged(&slot);
                        }
                    }
                } else {
                    // A gap: the feed lost messages, the log has them.
                    return self.catch_up_logged(&slot);
                };
                self.metrics.remote_events(fed as u64);
            }
            Appended::Resumed => {
                let slots: Vec<Arc<Slot>> = lock(&self.slots).values().cloned().collect();
                for slot in slots {
                    if lock(&slot.live).finished.is_none() {
                        self.catch_up_logged(&slot);
                    }
                }
            }
        }
    }

    fn catch_up_logged(&self, slot: &Slot) {
        if let Err(error) = self.catch_up(slot) {
            tracing::warn!(match_id = %slot.id, error = %error, "cannot catch up with the store");
        }
    }

    /// The blocking body of `submit`, under the match's writer lock: the checks and the append,
    /// again after each race lost to another server sharing the store.
    fn submit(
        &self,
        slot: &Slot,
        seat: Player,
        action: Action,
        expected_version: Option<u64>,
        request_id: String,
    ) -> Result<pb::MatchEvent, MatchError> {
        let _writer = lock(&slot.write);
        if self.store.shared() {
            self.catch_up(slot)?;
        }
        let mut current = 0;
        for _ in 0..MAX_ATTEMPTS {
            match self.try_submit(slot, seat, action, expected_version, &request_id)? {
                Ok(answer) => return Ok(answer),
                Err(stored) => {
                    self.metrics.store_conflict();
                    current = self.catch_up(slot)?.max(stored);
                }
            }
        }
        Err(MatchError::VersionMismatch {
            expected: expected_version.unwrap_or(current.saturating_sub(1)),
            current,
        })
    }

    /// One attempt of `submit`: the answer, or `Ok(Err(version))` when the store holds a newer
    /// version than this server did (or the request already).
    fn try_submit(
        &self,
        slot: &Slot,
        seat: Player,
        action: Action,
        expected_version: Option<u64>,
        request_id: &str,
    ) -> Result<Result<pb::MatchEvent, u64>, MatchError> {
        let (mut game, version, finished) = {
            let live = lock(&slot.live);
            if let Some(&(seq, player, earlier)) = live.requests.get(request_id) {
                drop(live);
                if (player, earlier) != (seat, action) {
                    return Err(MatchError::invalid(
                        "request_id",
                        format!(
                            "request_id {request_id:?} was used for another request (event {seq})"
                        ),
                    ));
                }
                return self.earlier_answer(slot, seq).map(Ok);
            }
            (live.game.clone(), live.version, live.finished)
        };
        if let Some(expected) = expected_version {
            if expected != version {
                return Err(MatchError::VersionMismatch {
                    expected,
                    current: version,
                });
            }
        }
        if finished.is_some() {
            return Err(MatchError::match_over());
        }
        let at_ms = now_ms();
        let mut trace = Vec::new();
        if let Action::Move(mv) = action {
            if let (engine::Move::Sow(_), Some(to_move)) = (mv, game.to_move()) {
                if to_move != seat {
                    return Err(MatchError::PermissionDenied(format!(
                        "it is {to_move}'s turn; {seat} may not sow now"
                    )));
                }
            }
            game.play(&mv, &mut trace).map_err(MatchError::Illegal)?;
        }
        let event = EventRecord {
            seq: version + 1,
            player: seat,
            action,
            request_id: request_id.to_string(),
            at_ms,
        };
        let finished = finished_by(&event, &game);
        match self.store.append(&slot.record(event.seq, finished), &event) {
            Ok(()) => {}
            // Another server sharing the store got there first.
            Err(StoreError::Conflict { current }) => return Ok(Err(current)),
            Err(StoreError::NotFound) => return Err(MatchError::NotFound(slot.id.to_string())),
            Err(e) => return Err(store_failed("appending a move", Some(slot.id), e)),
        }
        if let Action::Move(_) = action {
            self.metrics.move_applied(notation::kind_name(slot.kind));
        }
        let answer = event_pb(&event, &trace, &game, finished.as_ref());
        self.advance(
            slot,
            Advance {
                events: vec![(event.clone(), answer.clone())],
                game,
                version: event.seq,
                finished,
            },
        );
        Ok(Ok(answer))
    }
}

/// The `mancala_move_rejections_total` reason of a refused move or resignation.
fn rejection_reason(error: &MatchError) -> &'static str {
    match error {
        MatchError::Invalid(_) => "INVALID_ARGUMENT",
        MatchError::NotFound(_) => "NOT_FOUND",
        MatchError::Unauthenticated(_) => "UNAUTHENTICATED",
        MatchError::PermissionDenied(_) => "NOT_YOUR_TURN",
        MatchError::VersionMismatch { .. } => crate::api::error::VERSION_MISMATCH,
        MatchError::Illegal(illegal) => illegal.reason.code(),
        MatchError::NotImplemented(_) => "UNIMPLEMENTED",
        MatchError::OutOfRange { .. } => "OUT_OF_RANGE",
        MatchError::ResourceExhausted(_) => "RESOURCE_EXHAUSTED",
        MatchError::Internal(_) => "INTERNAL",
    }
}

impl Matches {
    /// Over a shared store: follows its feed of appends, so that every other server's events
    /// reach this server's watchers as they happen, until the returned guard is dropped. `None`
    /// for a store of this server alone.
    pub fn follow_store(&self) -> Option<Following> {
        let stop = Arc::new(AtomicBool::new(false));
        let weak = Arc::downgrade(&self.inner);
        let sink = Box::new(move |appended: Appended| {
            if let Some(inner) = weak.upgrade() {
                inner.on_appended(appended);
            }
        });
        let thread = self.inner.store.follow(sink, stop.clone())?;
        Some(Following {
            stop,
            _thread: thread,
        })
    }
}

/// The store's feed being followed (see [`Matches::follow_store`]); stops when dropped.
#[derive(Debug)]
pub struct Following {
    stop: Arc<AtomicBool>,
    _thread: std::thread::JoinHandle<()>,
}

impl Drop for Following {
    fn drop(&mut self) {
        // The thread notices within its poll interval; nobody waits for it.
        self.stop.store(true, Ordering::Release);
    }
}

#[cfg(test)]
mod tests;
