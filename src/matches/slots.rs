//! The concurrency core: one [`Slot`] per match held in memory, and the one function that moves a match on
//! ([`Inner::advance`]), shared by a local write, a catch-up with the store and the store's feed. The replay of a
//! log is `replay.rs`, the write that checks and appends an event `writes.rs`. The module doc of
//! [`crate::matches`] tells how the locks are used.

use super::error::{store_failed, MatchError};
use super::replay::{beginning, replay, Advance};
use super::view::{Encoder, MatchView, Update};
use super::Access;
use crate::clock::{Clocks, Time, TimeControl};
use crate::config::{ClockSettings, MatchSettings};
use crate::engine::across_turns::AcrossTurns;
use crate::engine::{AnyGame, Budget, GameKind, Options, Player};
use crate::identity::keys;
use crate::metrics::Metrics;
use crate::store::{
    Action, BotSeat, Finished, MatchId, MatchRecord, MatchStore, StoredMatch, SEATS,
};
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

pub(super) use crate::sync::lock;

/// Runs `work` (a write: the checks, the store's commit and what follows it) as a task of its own, and awaits it.
/// Once begun, a write runs to its end even if its caller goes away (the client cancels, its deadline passes): a
/// move the store has taken is always applied here and published to the watchers too.
pub(super) async fn detached<T: Send + 'static>(
    work: impl Future<Output = Result<T, MatchError>> + Send + 'static,
) -> Result<T, MatchError> {
    tokio::spawn(work).await.unwrap_or_else(|e| {
        tracing::error!(error = %e, "a match task panicked");
        Err(MatchError::Internal(
            "internal error; see the server log".into(),
        ))
    })
}

/// A new seat token: 64 lowercase hex digits (256 random bits).
pub(super) fn random_token() -> Result<String, MatchError> {
    let bytes = keys::random_bytes::<32>()
        .map_err(|e| store_failed("reading the OS random generator", None, e))?;
    Ok(keys::hex(&bytes))
}

/// What is kept of a seat token: its SHA-256, as of every credential.
pub(super) fn token_hash(token: &str) -> [u8; 32] {
    keys::hash(token)
}

/// When the server must next act on a match's clocks (a flag, an abort): what its header stores and its timer
/// waits for; `None` once it is over, or when no clock can decide anything.
pub(super) fn next_deadline(clocks: &Clocks, finished: Option<Finished>) -> Option<u64> {
    finished
        .is_none()
        .then(|| clocks.deadline().map(|due| due.at_ms()))
        .flatten()
}

/// What a watcher receives from a match's broadcast channel: messages encoded once for all.
#[derive(Debug)]
pub(super) enum Published<M> {
    /// An accepted event.
    Event { seq: u64, message: M },
    /// A seat connected or disconnected.
    Notice(M),
    /// The match finished: the last message of every stream.
    Finished(M),
}

/// The changing part of a match.
#[derive(Debug)]
pub(super) struct Live {
    pub(super) game: AnyGame,
    /// The clocks after the last event.
    pub(super) clocks: Clocks,
    /// The positions of the game being played and the seats agreeing to end it (§1).
    pub(super) across: AcrossTurns,
    pub(super) version: u64,
    pub(super) finished: Option<Finished>,
    /// `request_id` → the event it produced, for idempotent retries.
    pub(super) requests: HashMap<String, (u64, Player, Action)>,
    /// Open seated streams, `[South, North]`.
    pub(super) presence: [usize; SEATS],
    /// When the last event was accepted (the creation time before the first).
    pub(super) active_ms: u64,
}

impl Live {
    /// The state at the end of a stored log, replayed through the engine.
    fn replayed(stored: &StoredMatch, abort_after_ms: u64) -> Result<Live, String> {
        let StoredMatch { record, events } = stored;
        let (mut game, mut clocks, mut across) = beginning(record, abort_after_ms);
        let mut requests = HashMap::new();
        replay(
            (&mut game, &mut clocks, &mut across),
            0,
            events,
            |event, _, _, _| {
                if !event.request_id.is_empty() {
                    requests.insert(
                        event.request_id.clone(),
                        (event.seq, event.player, event.action),
                    );
                }
            },
        )?;
        Ok(Live {
            game,
            clocks,
            across,
            version: record.version,
            finished: record.finished,
            requests,
            presence: [0; SEATS],
            active_ms: events.last().map_or(record.active_ms, |e| e.at_ms),
        })
    }
}

/// One match in memory.
#[derive(Debug)]
pub(super) struct Slot<M> {
    pub(super) id: MatchId,
    pub(super) kind: GameKind,
    pub(super) options: Options,
    /// The position the match began from (`None`: the game's opening), kept for its header.
    pub(super) start: Option<Arc<AnyGame>>,
    pub(super) created_ms: u64,
    pub(super) token_hashes: [[u8; 32]; SEATS],
    pub(super) tenant: String,
    pub(super) players: [Option<String>; SEATS],
    /// The seats the server plays itself, `[South, North]`.
    pub(super) bots: [Option<BotSeat>; SEATS],
    /// How the match is timed.
    pub(super) time_control: TimeControl,
    /// When each seat, `[South, North]`, last had a stream open on this server (while one is open: when its
    /// last one opened), or when this server took the match up: what an abandonment claim measures from.
    pub(super) seen_ms: [AtomicU64; SEATS],
    /// Held by the one writer of the match across its checks and the store's commit (an await).
    pub(super) write: tokio::sync::Mutex<()>,
    pub(super) live: Mutex<Live>,
    pub(super) events: broadcast::Sender<Arc<Published<M>>>,
    /// Open spectator streams (no seat token).
    pub(super) spectators: AtomicUsize,
    /// Open streams of each seat, `[South, North]`: counted apart, so spectators never take them.
    pub(super) seat_streams: [AtomicUsize; SEATS],
}

impl<M> Slot<M> {
    /// Builds the match from its stored log by replaying it.
    pub(super) fn replayed(
        stored: StoredMatch,
        buffer: usize,
        abort_after_ms: u64,
        now_ms: u64,
    ) -> Result<Slot<M>, String> {
        let live = Live::replayed(&stored, abort_after_ms)?;
        let record = stored.record;
        Ok(Slot {
            time_control: record.time_control,
            seen_ms: [(); SEATS].map(|()| AtomicU64::new(now_ms)),
            id: record.id,
            kind: record.kind,
            options: record.options,
            start: record.start,
            created_ms: record.created_ms,
            token_hashes: record.token_hashes,
            tenant: record.tenant,
            players: record.players,
            bots: record.bots,
            write: tokio::sync::Mutex::new(()),
            live: Mutex::new(live),
            events: broadcast::channel(buffer).0,
            spectators: AtomicUsize::new(0),
            seat_streams: Default::default(),
        })
    }

    /// The seat `access` acts for: the seat of its token, or the seat bound to its player; `None` for a
    /// spectator (a caller of the match's tenant with neither).
    pub(super) fn seat(&self, access: &Access<'_>) -> Result<Option<Player>, MatchError> {
        if let Some(token) = access.seat_token {
            let hash = token_hash(token);
            // A seat the match does not have has no token (all zeros, which no token hashes to).
            return Player::ALL
                .into_iter()
                .find(|p| self.token_hashes[p.index()] == hash)
                .map(Some)
                .ok_or(MatchError::Unauthenticated(
                    "the token is not a seat of this match",
                ));
        }
        Ok(access.player.and_then(|player| {
            Player::ALL
                .into_iter()
                .find(|p| self.players[p.index()].as_deref() == Some(player))
        }))
    }

    /// Whether `access` may know of this match: a caller of its tenant, or the holder of one of its seat
    /// tokens. Anyone else is told there is no such match, so that its existence is not revealed.
    pub(super) fn visible_to(&self, access: &Access<'_>) -> bool {
        match (access.tenant, access.seat_token) {
            (Some(tenant), _) => tenant == self.tenant,
            (None, Some(token)) => {
                let hash = token_hash(token);
                self.token_hashes.contains(&hash)
            }
            (None, None) => false,
        }
    }

    pub(super) fn record(&self, version: u64, finished: Option<Finished>) -> MatchRecord {
        MatchRecord {
            id: self.id,
            kind: self.kind,
            options: self.options,
            start: self.start.clone(),
            created_ms: self.created_ms,
            token_hashes: self.token_hashes,
            tenant: self.tenant.clone(),
            players: self.players.clone(),
            bots: self.bots,
            active_ms: self.created_ms,
            version,
            finished,
            time_control: self.time_control,
            deadline_ms: None,
        }
    }

    /// The match at `version` in `game`, with the seats' presence.
    pub(super) fn view_of(
        &self,
        (game, clocks, across): (AnyGame, Clocks, &AcrossTurns),
        version: u64,
        finished: Option<Finished>,
        presence: [usize; SEATS],
        now_ms: u64,
    ) -> MatchView {
        MatchView {
            agreement: across.agreement(),
            occurrences: across.occurrences(&game) as u32,
            id: self.id,
            kind: self.kind,
            options: self.options,
            created_ms: self.created_ms,
            game,
            clocks,
            as_of_ms: now_ms,
            version,
            finished,
            connected: presence.map(|open| open > 0),
            players: self.players.clone(),
            bots: self.bots,
        }
    }

    /// The match as it stands at `now_ms`, read in one short critical section.
    pub(super) fn view(&self, now_ms: u64) -> MatchView {
        let live = lock(&self.live);
        self.view_of(
            (live.game.clone(), live.clocks, &live.across),
            live.version,
            live.finished,
            live.presence,
            now_ms,
        )
    }
}

/// The state shared by every handle of a [`super::Matches`].
pub(super) struct Inner<E: Encoder> {
    pub(super) store: Arc<dyn MatchStore>,
    pub(super) settings: MatchSettings,
    pub(super) slots: Mutex<HashMap<MatchId, Arc<Slot<E::Message>>>>,
    /// Open spectator streams on this server.
    pub(super) spectators: AtomicUsize,
    /// What the engine may spend on one move ([`super::Matches::with_move_budget`]).
    pub(super) move_budget: Budget,
    /// What a move may spend on the async worker before it is played again on the engine pool.
    pub(super) inline_laps: u64,
    /// Where a move that turned long is played: the engine pool's long lane ([`super::Matches::with_engine`]),
    /// shared fairly with the callers' long work; `None`: tokio's blocking pool.
    pub(super) engine: Option<crate::pool::EnginePool>,
    /// Who plays the bot seats ([`super::Matches::with_bots`]); `None`: bot seats are refused.
    pub(super) bots: Option<super::bots::Bots>,
    /// The tenants' limits ([`super::Matches::with_identity`]).
    pub(super) identity: Option<crate::identity::Identity>,
    /// Who is told of each match's creation, start and end ([`super::Matches::with_lifecycle`]).
    pub(super) lifecycle: Option<tokio::sync::mpsc::UnboundedSender<super::Lifecycle>>,
    pub(super) metrics: Metrics,
    pub(super) encoder: E,
    /// Where "now" comes from ([`super::Matches::with_clock`]).
    pub(super) time: Arc<dyn Time>,
    /// The clocks' settings ([`super::Matches::with_clock`]).
    pub(super) clock: ClockSettings,
    /// The moments this server will look at a match's clocks again.
    pub(super) timers: super::timers::Timers,
}

impl<E: Encoder> Inner<E> {
    /// The abort time of a real-time match's first sowings, in milliseconds.
    pub(super) fn abort_after_ms(&self) -> u64 {
        self.clock.abort_after.as_millis() as u64
    }

    /// Tells the follower of lifecycles, if any, of `step` (a follower gone is nobody to tell).
    pub(super) fn tell(&self, step: super::Lifecycle) {
        if let Some(follower) = &self.lifecycle {
            let _ = follower.send(step);
        }
    }

    /// The stored header of match `id`, without its log (`None`: the store has no such match).
    pub(super) async fn header(&self, id: MatchId) -> Result<Option<MatchRecord>, MatchError> {
        self.store
            .events_after(&id, u64::MAX)
            .await
            .map(|stored| stored.map(|stored| stored.record))
            .map_err(|e| store_failed("reading a match", Some(id), e))
    }

    /// The stored log of `slot`.
    pub(super) async fn history(&self, slot: &Slot<E::Message>) -> Result<StoredMatch, MatchError> {
        self.store
            .load(&slot.id)
            .await
            .map_err(|e| store_failed("reading a match's log", Some(slot.id), e))?
            .ok_or_else(|| MatchError::NotFound(slot.id.to_string()))
    }

    /// Whether `slot` has had no event for the idle expiry at `now_ms`.
    pub(super) fn idle_at(&self, slot: &Slot<E::Message>, now_ms: u64) -> bool {
        let Some(expiry) = self.settings.idle_expiry else {
            return false;
        };
        lock(&slot.live)
            .active_ms
            .saturating_add(expiry.as_millis() as u64)
            <= now_ms
    }

    /// Forgets `id` here (purged, here or by another server sharing the store).
    pub(super) fn forget(&self, id: &MatchId) {
        if let Some(gone) = lock(&self.slots).remove(id) {
            self.store.follow_match(id, false);
            if lock(&gone.live).finished.is_none() {
                self.metrics.matches_active_add(-1);
            }
        }
    }

    /// Brings `slot` up to the store's log (only what is new is read) and publishes the events its
    /// watchers have not seen; the store's version. Safe without the writer lock (see `advance`).
    pub(super) async fn catch_up(&self, slot: &Slot<E::Message>) -> Result<u64, MatchError> {
        let (position, version) = {
            let live = lock(&slot.live);
            (
                (live.game.clone(), live.clocks, live.across.clone()),
                live.version,
            )
        };
        let Some(stored) = self
            .store
            .events_after(&slot.id, version)
            .await
            .map_err(|e| store_failed("reading a match's log", Some(slot.id), e))?
        else {
            // Purged by another server sharing the store: forget it here too.
            self.forget(&slot.id);
            return Err(MatchError::NotFound(slot.id.to_string()));
        };
        let current = stored.record.version;
        if stored.events.is_empty() {
            return Ok(current);
        }
        let advance = Advance::replay(&self.encoder, position, version, stored.events)
            .map_err(|e| store_failed("replaying a stored match", Some(slot.id), e))?;
        let fed = self.advance(slot, advance);
        self.metrics.remote_events(fed as u64);
        Ok(current)
    }

    /// Moves `slot` on to where `advance` leaves it, unless it is there already, publishing each
    /// event past the version held, in order; how many that was. Under `live` alone: whoever
    /// applies an event first (a local write, the store's feed, a catch-up) publishes it, the
    /// others find nothing left to do.
    pub(super) fn advance(&self, slot: &Slot<E::Message>, advance: Advance<E::Message>) -> usize {
        let mut live = lock(&slot.live);
        if advance.version <= live.version {
            return 0;
        }
        let mut fed = 0;
        let active_ms = advance.events.last().map(|(event, _)| event.at_ms);
        for (event, message) in advance.events {
            if event.seq <= live.version {
                continue;
            }
            if !event.request_id.is_empty() {
                live.requests
                    .insert(event.request_id, (event.seq, event.player, event.action));
            }
            // Sent under `live`, so that a new watcher's snapshot and its subscription agree on
            // the version. An error only means nobody is watching.
            let _ = slot.events.send(Arc::new(Published::Event {
                seq: event.seq,
                message,
            }));
            fed += 1;
        }
        let newly_finished = live.finished.is_none() && advance.finished.is_some();
        if let Some(at_ms) = active_ms {
            live.active_ms = at_ms;
        }
        live.game = advance.game;
        live.clocks = advance.clocks;
        live.across = advance.across;
        live.version = advance.version;
        live.finished = advance.finished;
        // The clocks' next deadline is this server's to watch, whoever wrote the event: over a shared store the
        // replicas that hold the match race to settle it, and the store's check lets one win.
        self.timers
            .schedule(slot.id, next_deadline(&advance.clocks, advance.finished));
        if let (true, Some(finished)) = (newly_finished, &advance.finished) {
            let notice = self.encoder.encode(Update::Finished {
                version: advance.version,
                finished,
                placing: super::view::placing(&live.game, finished),
            });
            let _ = slot.events.send(Arc::new(Published::Finished(notice)));
            self.metrics.matches_active_add(-1);
            // Whoever created it has room for another (the end came from any replica: this one holds the match).
            if let Some(identity) = &self.identity {
                identity.created().ended(slot.id);
            }
        }
        fed
    }

    pub(super) async fn catch_up_logged(&self, slot: &Slot<E::Message>) {
        if let Err(error) = self.catch_up(slot).await {
            tracing::warn!(match_id = %slot.id, error = %error, "cannot catch up with the store");
        }
    }
}
