//! The concurrency core: one [`Slot`] per match held in memory, the one loop that replays a log
//! through the engine, and the one function that moves a match on ([`Inner::advance`]), shared by
//! a local write, a catch-up with the store and the store's feed. The module doc of
//! [`crate::matches`] tells how the locks are used.

use super::error::{store_failed, MatchError};
use super::view::{Encoder, MatchEvent, MatchView, Update};
use super::Access;
use crate::clock::{Clocks, Due, Time, TimeControl};
use crate::config::{ClockSettings, MatchSettings};
use crate::engine::{self, notation, AnyGame, Budget, Event, GameKind, Options, Player, Status};
use crate::identity::keys;
use crate::metrics::Metrics;
use crate::store::{
    Action, BotSeat, EndReason, EventRecord, Finished, MatchId, MatchRecord, MatchStore,
    StoreError, StoredMatch, SEATS,
};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::sync::broadcast;

/// A boxed future, for the one write that calls itself.
type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How many times a move is checked again after losing the store's race to another server.
const MAX_ATTEMPTS: usize = 4;

pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // No critical section can leave its data half-changed (each assigns whole values), so a panic
    // elsewhere is no reason to stop serving the match.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

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

/// The refusal of `seat`'s sowing at `at_ms`, its flag having fallen at `flag_at_ms`.
fn out_of_time(seat: Player, at_ms: u64, flag_at_ms: u64) -> MatchError {
    MatchError::Timing {
        reason: "OUT_OF_TIME",
        message: format!(
            "{seat}'s time ran out {} ms before this sowing arrived: the match is lost on time",
            at_ms.saturating_sub(flag_at_ms)
        ),
        metadata: vec![("flag_at_ms", flag_at_ms)],
    }
}

/// How `event` leaves the match, `game` being the state after it: a resignation ends it, a move
/// ends it when the rules say the match is over.
fn finished_by(event: &EventRecord, game: &AnyGame) -> Option<Finished> {
    let end = |winner, reason| Finished {
        at_ms: event.at_ms,
        winner,
        resigned: (reason == EndReason::Resignation).then_some(event.player),
        reason,
    };
    match event.action {
        Action::Resign => Some(end(
            super::view::winner_without(game, event.player),
            EndReason::Resignation,
        )),
        Action::Expire => Some(end(None, EndReason::Expired)),
        Action::Flag => Some(end(
            super::view::winner_without(game, event.player),
            EndReason::TimeForfeit,
        )),
        Action::Abort => Some(end(None, EndReason::Aborted)),
        // The claimant wins a two-player match; in three-player Ba-awa the absent seat (the one to move) is out
        // and the others are placed by how they stand.
        Action::Claim => Some(end(
            match (game.seats(), game.to_move()) {
                (3, Some(absent)) => super::view::winner_without(game, absent),
                _ => Some(event.player),
            },
            EndReason::Abandoned,
        )),
        Action::Move(_) => (game.status() == Status::MatchOver)
            .then(|| end(game.to_setup().winner, EndReason::PlayedOut)),
    }
}

/// Plays `events` (which follow `version`) on `game`, as they were played when accepted, handing
/// each to `each` with its trace and the state and outcome after it; the outcome after the last.
/// The one replay of a log: loading a match, catching up with the store, `GetHistory` and a
/// resumed watcher all go through it.
pub(super) fn replay<'a>(
    game: &mut AnyGame,
    clocks: &mut Clocks,
    version: u64,
    events: impl IntoIterator<Item = &'a EventRecord>,
    mut each: impl FnMut(&EventRecord, &[Event], &AnyGame, &Clocks, Option<Finished>),
) -> Result<Option<Finished>, String> {
    let mut trace = Vec::new();
    let mut finished = None;
    for (event, seq) in events.into_iter().zip(version + 1..) {
        if event.seq != seq {
            return Err(format!("event {} where {seq} was expected", event.seq));
        }
        trace.clear();
        notation::play_event(game, event.player, &event.action, &mut trace)
            .map_err(|e| format!("event {seq} does not replay: {e}"))?;
        clocks.after(event.player, &event.action, event.at_ms, game);
        finished = finished_by(event, game);
        each(event, &trace, game, clocks, finished);
    }
    Ok(finished)
}

/// An accepted event with what replaying it showed.
pub(super) fn match_event(
    event: &EventRecord,
    trace: &[Event],
    game: &AnyGame,
    clocks: &Clocks,
    finished: Option<Finished>,
) -> MatchEvent {
    MatchEvent {
        seq: event.seq,
        player: event.player,
        action: event.action,
        trace: trace.to_vec(),
        game: game.clone(),
        clocks: *clocks,
        finished,
        at_ms: event.at_ms,
    }
}

/// A new match's position and clocks, before its first event.
pub(super) fn beginning(record: &MatchRecord, abort_after_ms: u64) -> (AnyGame, Clocks) {
    let game = AnyGame::new_match(record.kind, &record.options);
    let clocks = Clocks::new(
        record.time_control,
        abort_after_ms,
        record.created_ms,
        &game,
    );
    (game, clocks)
}

/// Every event of a stored match, replayed, and the state and clocks the log leads to.
pub(super) fn replay_all(
    stored: &StoredMatch,
    abort_after_ms: u64,
) -> Result<(Vec<MatchEvent>, AnyGame, Clocks), String> {
    let (mut game, mut clocks) = beginning(&stored.record, abort_after_ms);
    let mut out = Vec::with_capacity(stored.events.len());
    replay(
        &mut game,
        &mut clocks,
        0,
        &stored.events,
        |event, trace, game, clocks, finished| {
            out.push(match_event(event, trace, game, clocks, finished))
        },
    )?;
    Ok((out, game, clocks))
}

/// A match moved on from some version: the new events, each with its message for watchers, and
/// where they leave the match. Computed outside the match's locks, applied by `Inner::advance`.
pub(super) struct Advance<M> {
    pub(super) events: Vec<(EventRecord, M)>,
    pub(super) game: AnyGame,
    pub(super) clocks: Clocks,
    pub(super) version: u64,
    pub(super) finished: Option<Finished>,
}

impl<M> Advance<M> {
    /// Plays `events` (which follow `version`) on `game` and `clocks`, encoding each for the watchers.
    pub(super) fn replay<E: Encoder<Message = M>>(
        encoder: &E,
        (mut game, mut clocks): (AnyGame, Clocks),
        version: u64,
        events: Vec<EventRecord>,
    ) -> Result<Advance<M>, String> {
        let mut encoded = Vec::with_capacity(events.len());
        let finished = replay(
            &mut game,
            &mut clocks,
            version,
            &events,
            |event, trace, game, clocks, finished| {
                let event = match_event(event, trace, game, clocks, finished);
                encoded.push(encoder.encode(Update::Event(&event)));
            },
        )?;
        Ok(Advance {
            version: version + events.len() as u64,
            events: events.into_iter().zip(encoded).collect(),
            game,
            clocks,
            finished,
        })
    }
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
        let (mut game, mut clocks) = beginning(record, abort_after_ms);
        let mut requests = HashMap::new();
        replay(&mut game, &mut clocks, 0, events, |event, _, _, _, _| {
            if !event.request_id.is_empty() {
                requests.insert(
                    event.request_id.clone(),
                    (event.seq, event.player, event.action),
                );
            }
        })?;
        Ok(Live {
            game,
            clocks,
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
        (game, clocks): (AnyGame, Clocks),
        version: u64,
        finished: Option<Finished>,
        presence: [usize; SEATS],
        now_ms: u64,
    ) -> MatchView {
        MatchView {
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
        let (position, version, finished, presence) = {
            let live = lock(&self.live);
            (
                (live.game.clone(), live.clocks),
                live.version,
                live.finished,
                live.presence,
            )
        };
        self.view_of(position, version, finished, presence, now_ms)
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
            if lock(&gone.live).finished.is_none() {
                self.metrics.matches_active_add(-1);
            }
        }
    }

    /// The answer of the earlier request that produced event `seq`.
    async fn earlier_answer(
        &self,
        slot: &Slot<E::Message>,
        seq: u64,
    ) -> Result<MatchEvent, MatchError> {
        let stored = self.history(slot).await?;
        let (mut events, _, _) = replay_all(&stored, self.abort_after_ms())
            .map_err(|e| store_failed("replaying a stored match", Some(slot.id), e))?;
        events.truncate(seq as usize);
        events
            .pop()
            .ok_or_else(|| MatchError::Internal(format!("event {seq} is missing from the log")))
    }

    /// Brings `slot` up to the store's log (only what is new is read) and publishes the events its
    /// watchers have not seen; the store's version. Safe without the writer lock (see `advance`).
    pub(super) async fn catch_up(&self, slot: &Slot<E::Message>) -> Result<u64, MatchError> {
        let (position, version) = {
            let live = lock(&slot.live);
            ((live.game.clone(), live.clocks), live.version)
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

    /// The body of a seat's action, under the match's writer lock: the checks and the append, again after
    /// each race lost to another server sharing the store.
    pub(super) async fn submit(
        &self,
        slot: &Slot<E::Message>,
        seat: Player,
        action: Action,
        expected_version: Option<u64>,
        request_id: String,
        at_ms: u64,
    ) -> Result<MatchEvent, MatchError> {
        let _writer = slot.write.lock().await;
        if self.store.shared() {
            self.catch_up(slot).await?;
        }
        // Stamped once the match is this request's alone: a sowing that waited for the writer lock behind the
        // keeper's flag is judged at the moment it is decided, and the log's times never go backwards.
        let at_ms = at_ms
            .max(self.time.now_ms())
            .max(lock(&slot.live).active_ms);
        let mut current = 0;
        for _ in 0..MAX_ATTEMPTS {
            match self
                .try_submit(slot, seat, action, expected_version, &request_id, at_ms)
                .await?
            {
                Ok(answer) => return Ok(answer),
                Err(stored) => {
                    self.metrics.store_conflict();
                    current = self.catch_up(slot).await?.max(stored);
                }
            }
        }
        Err(MatchError::VersionMismatch {
            expected: expected_version.unwrap_or(current.saturating_sub(1)),
            current,
        })
    }

    /// Appends what the clocks of `slot` have made due by `now_ms` (a flag, an abort), unless the match moved on
    /// or another server appended it first; the event appended here, if any. The timers' and the sweep's work.
    pub(super) async fn settle(
        &self,
        slot: &Slot<E::Message>,
        now_ms: u64,
    ) -> Result<Option<MatchEvent>, MatchError> {
        let _writer = slot.write.lock().await;
        if self.store.shared() {
            self.catch_up(slot).await?;
        }
        for _ in 0..MAX_ATTEMPTS {
            let Some(due) = self.due(slot, now_ms) else {
                return Ok(None);
            };
            match self
                .try_submit(slot, due.seat(), due.action(), None, "", due.at_ms())
                .await?
            {
                Ok(event) => return Ok(Some(event)),
                Err(_) => {
                    self.metrics.store_conflict();
                    self.catch_up(slot).await?;
                }
            }
        }
        Ok(None)
    }

    /// What the clocks of `slot` have made due by `now_ms`, unless the match is over.
    pub(super) fn due(&self, slot: &Slot<E::Message>, now_ms: u64) -> Option<Due> {
        let live = lock(&slot.live);
        live.finished
            .is_none()
            .then(|| live.clocks.due_at(now_ms))?
    }

    /// Why `seat` may not claim the match at `at_ms` (`ClaimVictory`), if it may not: the seat to sow must be
    /// another seat, a person's, with no stream open here and none seen anywhere (over a shared store) for
    /// `clock.abandon_after_ms`, counted from the start of its turn at the earliest.
    async fn claim_refusal(
        &self,
        slot: &Slot<E::Message>,
        seat: Player,
        game: &AnyGame,
        clocks: &Clocks,
        at_ms: u64,
    ) -> Result<(), MatchError> {
        let refuse = |message: String, claimable_at_ms: Option<u64>| MatchError::Timing {
            reason: "NOT_ABANDONED",
            message,
            metadata: claimable_at_ms
                .map(|at| ("claimable_at_ms", at))
                .into_iter()
                .collect(),
        };
        if game.status() != Status::InProgress {
            return Err(refuse(
                "between games either seat may start the next game (NextGame); there is nobody to claim against"
                    .into(),
                None,
            ));
        }
        let Some(absent) = game.to_move() else {
            return Err(refuse("no seat is to move".into(), None));
        };
        if absent == seat {
            return Err(refuse(
                format!("it is {seat}'s own turn; only the seat waiting for it may claim"),
                None,
            ));
        }
        if !clocks.started() {
            return Err(refuse(
                "the clocks have not started (each seat has not sown once yet): abort the match instead".into(),
                None,
            ));
        }
        if let Some(bot) = slot.bots[absent.index()] {
            return Err(refuse(
                format!(
                    "{absent} is the server's opponent (level {}), which never leaves",
                    bot.level
                ),
                None,
            ));
        }
        let (present, turn_ms) = {
            let live = lock(&slot.live);
            (live.presence[absent.index()] > 0, live.active_ms)
        };
        if present {
            return Err(refuse(
                format!("{absent} has a stream open on the match"),
                None,
            ));
        }
        let mut seen = slot.seen_ms[absent.index()].load(Ordering::Acquire);
        if self.store.shared() {
            let elsewhere = self
                .store
                .seats_seen(&slot.id)
                .await
                .map_err(|e| store_failed("reading the seats' presence", Some(slot.id), e))?;
            seen = seen.max(elsewhere[absent.index()]);
        }
        let since = seen.max(turn_ms);
        let claimable_at = since.saturating_add(self.clock.abandon_after.as_millis() as u64);
        if at_ms < claimable_at {
            return Err(refuse(
                format!(
                    "{absent} has been away (no stream, no move) for {} ms; a claim needs {} ms (clock.abandon_after_ms)",
                    at_ms.saturating_sub(since),
                    self.clock.abandon_after.as_millis()
                ),
                Some(claimable_at),
            ));
        }
        Ok(())
    }

    /// One attempt of `submit`: the answer, or `Ok(Err(version))` when the store holds a newer
    /// version than this server did (or the request already). Boxed: it calls itself once, to append what the
    /// clocks decided before the request came.
    fn try_submit<'a>(
        &'a self,
        slot: &'a Slot<E::Message>,
        seat: Player,
        action: Action,
        expected_version: Option<u64>,
        request_id: &'a str,
        at_ms: u64,
    ) -> BoxFuture<'a, Result<Result<MatchEvent, u64>, MatchError>> {
        Box::pin(self.try_submit_once(slot, seat, action, expected_version, request_id, at_ms))
    }

    async fn try_submit_once(
        &self,
        slot: &Slot<E::Message>,
        seat: Player,
        action: Action,
        expected_version: Option<u64>,
        request_id: &str,
        at_ms: u64,
    ) -> Result<Result<MatchEvent, u64>, MatchError> {
        let (earlier, (mut game, mut clocks, version, finished)) = {
            let live = lock(&slot.live);
            (
                live.requests.get(request_id).copied(),
                (live.game.clone(), live.clocks, live.version, live.finished),
            )
        };
        if let Some((seq, player, earlier)) = earlier {
            if (player, earlier) != (seat, action) {
                return Err(MatchError::invalid(
                    "request_id",
                    format!("request_id {request_id:?} was used for another request (event {seq})"),
                ));
            }
            return self.earlier_answer(slot, seq).await.map(Ok);
        }
        if let (Some(ended), Action::Move(engine::Move::Sow(_))) = (finished, action) {
            // The flag falls on the seat to move, which the flag event leaves as it was.
            if ended.reason == EndReason::TimeForfeit && game.to_move() == Some(seat) {
                // The flag fell (and was written) before this sowing came: say so, whatever version it expected.
                return Err(out_of_time(seat, at_ms, ended.at_ms));
            }
        }
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
        let by_a_seat = matches!(
            action,
            Action::Move(_) | Action::Resign | Action::Abort | Action::Claim
        );
        if by_a_seat && !game.in_match(seat) {
            // An eliminated player of three-player Ba-awa neither plays nor ends the others' match.
            return Err(MatchError::PermissionDenied(format!(
                "{seat} is out of the match (eliminated, docs/ba-awa.md §4.7) and no longer acts in it"
            )));
        }
        if let Some(due) = clocks.due_at(at_ms) {
            if (seat, action) != (due.seat(), due.action()) {
                // The clocks decided before this request came: what they decided is appended first, and the
                // request is refused (a sowing after its seat's flag, with its own reason).
                if let Err(stored) = self
                    .try_submit(slot, due.seat(), due.action(), None, "", due.at_ms())
                    .await?
                {
                    return Ok(Err(stored));
                }
                return Err(match (due, action) {
                    (
                        Due::Flag {
                            seat: flagged,
                            at_ms: flag_at,
                        },
                        Action::Move(engine::Move::Sow(_)),
                    ) if flagged == seat => out_of_time(seat, at_ms, flag_at),
                    _ => MatchError::match_over(),
                });
            }
        }
        let mut trace = Vec::new();
        match action {
            Action::Expire if !self.idle_at(slot, at_ms) => {
                // Played on meanwhile (here or on another replica): nothing to expire.
                return Err(MatchError::invalid("action", "the match is not idle"));
            }
            Action::Flag if clocks.due_at(at_ms) != Some(Due::Flag { seat, at_ms }) => {
                // Only the server writes a flag, from clocks it has just read: another server's event moved the
                // match on meanwhile (the store's feed applies it without this lock). Read again and decide again.
                return Ok(Err(version + 1));
            }
            Action::Abort if clocks.started() => {
                return Err(MatchError::Timing {
                    reason: "ABORT_TOO_LATE",
                    message: "each seat has sown once: the match can no longer be aborted (resign instead)"
                        .into(),
                    metadata: Vec::new(),
                });
            }
            Action::Claim => {
                self.claim_refusal(slot, seat, &game, &clocks, at_ms)
                    .await?
            }
            Action::Move(mv) => {
                self.check_turn(slot, seat, mv, &game)?;
                (game, trace) = self.play(slot, game, mv).await?;
            }
            _ => {}
        }
        clocks.after(seat, &action, at_ms, &game);
        let event = EventRecord {
            seq: version + 1,
            player: seat,
            action,
            request_id: request_id.to_string(),
            at_ms,
        };
        let finished = finished_by(&event, &game);
        let mut record = slot.record(event.seq, finished);
        record.active_ms = at_ms;
        record.deadline_ms = next_deadline(&clocks, finished);
        match self.store.append(&record, &event).await {
            Ok(()) => {}
            // Another server sharing the store got there first.
            Err(StoreError::Conflict { current }) => return Ok(Err(current)),
            Err(StoreError::NotFound) => return Err(MatchError::NotFound(slot.id.to_string())),
            Err(e) => return Err(store_failed("appending a move", Some(slot.id), e)),
        }
        match action {
            Action::Move(_) => self.metrics.move_applied(notation::kind_name(slot.kind)),
            Action::Flag | Action::Abort | Action::Claim => {
                tracing::info!(match_id = %slot.id, seat = %seat, event = notation::event_line(seat, &action), "match ended by the clock or a claim");
            }
            _ => {}
        }
        if event.seq == 1 {
            self.tell(super::Lifecycle::Started(record.clone()));
        }
        if let Some(finished) = finished {
            self.metrics.match_ended(finished.reason.name());
            self.tell(super::Lifecycle::Finished(record));
        }
        let answer = match_event(&event, &trace, &game, &clocks, finished);
        // Encoded here, outside the match's locks, once for every watcher.
        let message = self.encoder.encode(Update::Event(&answer));
        self.advance(
            slot,
            Advance {
                events: vec![(event, message)],
                game,
                clocks,
                version: answer.seq,
                finished,
            },
        );
        Ok(Ok(answer))
    }

    /// Plays `mv` on `game` within the move budget (a move is never accepted undecided): inline while it stays
    /// within `inline_laps` laps, as nearly every move does, else again from the start on the engine pool's long
    /// lane (for the match's tenant, the match as its caller), so that a long relay never holds an async worker
    /// and takes its fair turn with the callers' long work. The state after it, and the engine's trace.
    async fn play(
        &self,
        slot: &Slot<E::Message>,
        game: AnyGame,
        mv: engine::Move,
    ) -> Result<(AnyGame, Vec<Event>), MatchError> {
        let full = self.move_budget.limit();
        let mut trace = Vec::new();
        let mut after = game.clone();
        match Budget::laps(self.inline_laps.min(full)).run(|| after.play(&mv, &mut trace)) {
            Ok((played, _)) => return played.map(|()| (after, trace)).map_err(MatchError::Illegal),
            Err(engine::Unfinished::Exhausted { .. }) if full > self.inline_laps => {}
            Err(unfinished) => return Err(unfinished.into()),
        }
        let budget = self.move_budget.clone();
        let long_move = move || {
            let (mut game, mut trace) = (game, Vec::new());
            budget
                .run(|| game.play(&mv, &mut trace))
                .map(|(played, _)| played.map(|()| (game, trace)))
        };
        let played = match &self.engine {
            Some(pool) => {
                let owner = crate::pool::Owner::new(&slot.tenant, &format!("match {}", slot.id));
                pool.run_move(owner, long_move)
                    .await
                    .map_err(|e| match e {
                        crate::pool::WorkError::Unfinished(unfinished) => unfinished,
                        // Only the server's stop refuses a move's turn.
                        _ => engine::Unfinished::Cancelled,
                    })
                    .and_then(|ran| ran)
            }
            None => tokio::task::spawn_blocking(long_move)
                .await
                .map_err(|e| MatchError::Internal(format!("a move's engine work failed: {e}")))?,
        };
        played?.map_err(MatchError::Illegal)
    }

    /// Refuses a move `seat` may not make now: a sowing out of turn, or a bot's choice between games.
    fn check_turn(
        &self,
        slot: &Slot<E::Message>,
        seat: Player,
        mv: engine::Move,
        game: &AnyGame,
    ) -> Result<(), MatchError> {
        if let (engine::Move::Sow(_), Some(to_move)) = (mv, game.to_move()) {
            if to_move != seat {
                if let Some(bot) = slot.bots[to_move.index()] {
                    return Err(MatchError::PermissionDenied(format!(
                        "it is {to_move}'s turn, and {to_move} is the server's opponent (level {}): \
                         the server plays its moves; wait for its event",
                        bot.level
                    )));
                }
                return Err(MatchError::PermissionDenied(format!(
                    "it is {to_move}'s turn; {seat} may not sow now"
                )));
            }
        }
        let has_bot = slot.bots.iter().any(Option::is_some);
        if let (engine::Move::NextGame(_), true) = (mv, has_bot) {
            // Either seat may start the next game, except that a bot's choice is the bot's to make.
            let chooser = super::bots::actor(game).filter(|_| game.status() != Status::InProgress);
            if let Some(chooser) = chooser.filter(|&chooser| chooser != seat) {
                if let Some(bot) = slot.bots[chooser.index()] {
                    return Err(MatchError::PermissionDenied(format!(
                        "between games {chooser} chooses, and {chooser} is the server's opponent (level {}): \
                         the server sends its NextGame; wait for its event",
                        bot.level
                    )));
                }
            }
        }
        Ok(())
    }
}
