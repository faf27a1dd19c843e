//! Server-held matches: creation, seats and their tokens, versions, idempotent moves, the event log
//! and its fan-out to watchers.
//!
//! The event log is the spine of a match. A move is checked against the match's state, appended to the
//! [`MatchStore`] (durable before anyone hears of it), applied to the in-memory state, and then published once on
//! the match's broadcast channel, from which every watcher's stream reads. Resuming, retried requests and
//! `GetHistory` read the log back from the store and replay it.
//!
//! The manager speaks the rules' terms only: a move arrives decoded ([`crate::engine::Move`]), and answers are
//! [`MatchView`]s, [`MatchEvent`]s (with the engine's trace) and [`MatchSummary`]s. What watchers are sent is
//! encoded once per event by the [`Encoder`] the service layer supplies.
//!
//! Modules, one job each: [`view`] (the values answered and the encoder), `create` (a match begun), `error` ([`MatchError`] and its codes),
//! `slots` (the matches held, their locks), `replay` (the one replay of a log), `writes` (a seat's action or the
//! clocks' decision checked and appended), `watch` (the streams), `background` (the retention purge and the
//! store's feed), `bots` (the seats the server plays itself).
//!
//! Concurrency. Each match is a `Slot` with two locks:
//! - `write`, an async mutex, serialises the writers of one match. A writer holds it while it checks the move
//!   and awaits the store's commit (a Redis reply, the embedded file's fsync), so moves on one match are
//!   applied one at a time while different matches commit in parallel. A write runs as a task of its own
//!   (`slots::detached`), so that a caller who goes away never leaves a committed move unapplied;
//! - `live`, a `std` mutex never held across an `.await`, guards the current state for the instants it takes
//!   to read it, swap in a new one and publish the event. Readers (`GetMatch`, a new watcher) never wait for
//!   a commit.
//!
//! Several servers may share one store (Redis; [`MatchStore::shared`]). The store checks `seq` on
//! append (see [`MatchStore::append`]), so two servers can never both accept a move at the same
//! version: the one that loses catches up from the store's log, publishes the events its own
//! watchers missed, and checks the move again against the new state (ABORTED if the client's
//! `expected_version` is now stale). What a server holds in memory can lag the store, so over a
//! shared store every read and write first catches the match up from the log (one round trip when
//! nothing is new), and the store's feed of appends ([`MatchStore::follow`]) pushes every other
//! server's events to this server's watchers as they happen. Every change to a match's state goes
//! through one function, `Inner::advance` (in `slots`), which applies only events past the version in memory,
//! so the feed, a catch-up and a local write can race without an event being applied or sent twice.
//!
//! A slow watcher never stalls a match: publishing is a non-blocking `broadcast` send, and a watcher that falls
//! more than `watcher_buffer` events behind is resynchronised with a snapshot (see [`watch`]).

mod background;
mod bots;
mod create;
mod error;
mod replay;
mod slots;
mod timers;
pub mod view;
mod watch;
mod writes;

/// A match's text notation (export, replay), defined next to the engine it replays through.
pub use crate::engine::notation;

pub use crate::store::Following;
pub use background::Purger;
pub use bots::BotSweeper;
pub use error::MatchError;
pub use timers::ClockKeeper;
pub use view::{
    Created, Encoder, History, MatchEvent, MatchSummary, MatchView, SnapshotReason, Update,
};
pub use watch::WatchStream;

use self::replay::replay_all;
use self::slots::{detached, lock, Inner, Slot};
use crate::clock::{SystemTime, Time, TimeControl};
use crate::config::{ClockSettings, MatchSettings};
use crate::engine::{Budget, GameKind, Player};
use crate::identity::{Address, Identity, Party};
use crate::metrics::Metrics;
use crate::store::{Action, BotSeat, ListQuery, MatchId, MatchRecord, MatchStore, SEATS};
use error::store_failed;
use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};

/// The clocks' settings of a manager nobody gave any ([`Matches::with_clock`]): the built-in defaults of `[clock]`.
const DEFAULT_CLOCK: ClockSettings = ClockSettings {
    abort_after: std::time::Duration::from_secs(60),
    abandon_after: std::time::Duration::from_secs(60),
    max_initial_ms: 24 * 60 * 60 * 1000,
    sweep_interval: Some(std::time::Duration::from_secs(10)),
};

/// The longest `request_id` accepted, in bytes.
pub const MAX_REQUEST_ID_BYTES: usize = 128;
/// `ListMatches` page size when the request gives none.
pub const DEFAULT_PAGE_SIZE: usize = 50;
/// The largest `ListMatches` page.
pub const MAX_PAGE_SIZE: usize = 500;

/// Who asks, in the manager's terms: the service layer reads it off the call's credential.
#[derive(Debug, Clone, Copy, Default)]
pub struct Access<'a> {
    /// The caller's tenant (`Some("")`: the anonymous one). `None`: a bare seat token, which opens its own
    /// match only (and is charged to that match's tenant).
    pub tenant: Option<&'a str>,
    /// The player a player token speaks for, who acts for the seats bound to him.
    pub player: Option<&'a str>,
    /// A seat token.
    pub seat_token: Option<&'a str>,
    /// The client's address: what a seat token that opens no match is charged to.
    pub address: Option<Address>,
    /// Whose share of the tenant the caller spends (its player, or its address in the anonymous tenant): what a
    /// spectator's stream counts against.
    pub party: Option<&'a Party>,
}

impl Access<'_> {
    /// A caller of the anonymous tenant with `seat_token`, as every caller was before tenants.
    pub fn anonymous(seat_token: Option<&str>) -> Access<'_> {
        Access {
            tenant: if seat_token.is_some() { None } else { Some("") },
            seat_token,
            ..Access::default()
        }
    }
}

/// Whose a new match is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Owner {
    /// The tenant creating it.
    pub tenant: String,
    /// The player to bind each seat to, `[South, North]`; `None`: the seat gets a token (unless a bot plays it).
    pub players: [Option<String>; SEATS],
    /// The seats the server plays itself, `[South, North]`: no token, no player.
    pub bots: [Option<BotSeat>; SEATS],
    /// How the match is timed.
    pub time_control: TimeControl,
    /// Whose share of the tenant's unfinished matches it takes (a player's, or an address's in the anonymous
    /// tenant); `None`: the tenant's alone (an API key, the lobby).
    pub creator: Option<Party>,
}

/// A step in a match's life, told to whoever follows them (the lobby, `crate::lobby`) by the server that made it
/// happen, once the store has it: each step of each match is sent by exactly one server. A server killed between
/// the store's write and the telling loses the message; the follower compares its record with the store from
/// time to time to make up for that.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lifecycle {
    /// The match was created.
    Created(MatchRecord),
    /// Its first event was accepted.
    Started(MatchRecord),
    /// It ended (its header says how).
    Finished(MatchRecord),
}

/// The match manager: every match this server holds, over one [`MatchStore`]; what watchers are
/// sent is encoded by `E`.
pub struct Matches<E: Encoder> {
    inner: Arc<Inner<E>>,
}

impl<E: Encoder> Clone for Matches<E> {
    fn clone(&self) -> Self {
        Matches {
            inner: self.inner.clone(),
        }
    }
}

impl<E: Encoder> std::fmt::Debug for Matches<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matches")
            .field("settings", &self.inner.settings)
            .finish_non_exhaustive()
    }
}

/// The refusal of a match beyond the tenant's `limits.max_active_matches`.
fn too_many_active(active: u64) -> MatchError {
    MatchError::ResourceExhausted(format!(
        "the tenant has {active} unfinished matches, its limit (limits.max_active_matches); \
         finish or resign some first"
    ))
}

/// Whether a read must first catch the match up with a shared store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fresh {
    /// As of now: caught up from the store if it is shared.
    Now,
    /// Whatever this server holds (the caller catches up itself).
    Held,
}

impl<E: Encoder> Matches<E> {
    /// A manager over `store`.
    pub fn with_store(
        store: Arc<dyn MatchStore>,
        settings: MatchSettings,
        encoder: E,
    ) -> Matches<E> {
        Matches::with_store_and_metrics(store, settings, Metrics::new(), encoder)
    }

    /// A manager over `store`, counting in `metrics`.
    pub fn with_store_and_metrics(
        store: Arc<dyn MatchStore>,
        settings: MatchSettings,
        metrics: Metrics,
        encoder: E,
    ) -> Matches<E> {
        Matches {
            inner: Arc::new(Inner {
                store,
                settings,
                slots: Mutex::new(HashMap::new()),
                spectators: AtomicUsize::new(0),
                move_budget: Budget::unlimited(),
                inline_laps: u64::MAX,
                engine: None,
                bots: None,
                identity: None,
                lifecycle: None,
                metrics,
                encoder,
                time: Arc::new(SystemTime),
                clock: DEFAULT_CLOCK,
                timers: Default::default(),
            }),
        }
    }

    /// Keeps the matches' clocks with `settings`, reading the time from `time` (the system clock until set; tests
    /// give a [`crate::clock::ManualTime`]).
    pub fn with_clock(mut self, settings: ClockSettings, time: Arc<dyn Time>) -> Matches<E> {
        let inner =
            Arc::get_mut(&mut self.inner).expect("the clock is set before the manager is shared");
        inner.clock = settings;
        inner.time = time;
        self
    }

    /// The longest time a time control may give (`clock.max_initial_ms`).
    pub fn max_initial_ms(&self) -> u64 {
        self.inner.clock.max_initial_ms
    }

    /// Bounds the engine work of each move (a relay may run long before the never-ending check decides
    /// it, docs/common.md §1): the server gives the engine pool's match budget, which also stops at the end of
    /// the shutdown grace. A move that spends more than `inline_laps` is played on tokio's blocking pool rather
    /// than on the async worker (`engine.inline_laps`, as for the Rules calls). Unlimited, and inline, until set.
    pub fn with_move_budget(mut self, budget: Budget, inline_laps: u64) -> Matches<E> {
        let inner =
            Arc::get_mut(&mut self.inner).expect("the budget is set before the manager is shared");
        inner.move_budget = budget;
        inner.inline_laps = inline_laps;
        self
    }

    /// Plays the moves of matches under the engine pool's match budget (stopped at the end of the shutdown grace),
    /// inline while they stay within `engine.inline_laps`, else on the pool's long lane, under the one policy of
    /// engine work (fair between tenants; docs/guide/engine-work.md).
    pub fn with_engine(self, pool: &crate::pool::EnginePool) -> Matches<E> {
        let mut matches = self.with_move_budget(pool.match_budget(), pool.inline_laps());
        Arc::get_mut(&mut matches.inner)
            .expect("the engine is set before the manager is shared")
            .engine = Some(pool.clone());
        matches
    }

    /// Lets matches have bot seats, played by the server as `settings` say, their searches on `pool`
    /// (see the `bots` module). Without it, `create` refuses bot seats.
    pub fn with_bots(
        mut self,
        settings: crate::config::BotSettings,
        pool: crate::pool::EnginePool,
    ) -> Matches<E> {
        Arc::get_mut(&mut self.inner)
            .expect("the bots are set before the manager is shared")
            .bots = Some(bots::Bots::new(settings, pool));
        self
    }

    /// How long finished matches are kept (`matches.retention_ms`; `None`: for ever).
    pub fn retention(&self) -> Option<std::time::Duration> {
        self.inner.settings.retention
    }

    /// The strongest bot level `create` accepts; `None`: this manager plays no bot seats.
    pub fn max_bot_level(&self) -> Option<u32> {
        self.inner.bots.as_ref().map(|bots| bots.max_level())
    }

    /// Counts each tenant's calls, matches and streams against its limits. Without it, none are.
    pub fn with_identity(mut self, identity: Identity) -> Matches<E> {
        Arc::get_mut(&mut self.inner)
            .expect("the identity is set before the manager is shared")
            .identity = Some(identity);
        self
    }

    /// Tells `follower` of every match this server creates, starts or finishes ([`Lifecycle`]).
    pub fn with_lifecycle(
        mut self,
        follower: tokio::sync::mpsc::UnboundedSender<Lifecycle>,
    ) -> Matches<E> {
        Arc::get_mut(&mut self.inner)
            .expect("the follower is set before the manager is shared")
            .lifecycle = Some(follower);
        self
    }

    /// The match store's header of match `id` (`None`: the store has no such match), without its log.
    pub async fn header(&self, id: MatchId) -> Result<Option<MatchRecord>, MatchError> {
        self.inner.header(id).await
    }

    /// The headers of `tenant`'s matches, in id order after `after`, at most `limit` (for the lobby's repair).
    pub async fn headers(
        &self,
        tenant: &str,
        after: Option<MatchId>,
        limit: usize,
    ) -> Result<Vec<MatchRecord>, MatchError> {
        let query = ListQuery {
            tenant: Some(tenant.to_string()),
            after,
            limit,
            ..ListQuery::default()
        };
        self.inner
            .store
            .list(&query)
            .await
            .map_err(|e| store_failed("listing matches", None, e))
    }

    /// Whether `tenant` may create another match under its `limits.max_active_matches` (checked again, atomically,
    /// by the creation itself).
    pub async fn room_for_one_more(&self, tenant: &str) -> Result<(), MatchError> {
        let Some(max) = self.max_active(tenant) else {
            return Ok(());
        };
        let active = self
            .inner
            .store
            .unfinished_count(tenant)
            .await
            .map_err(|e| store_failed("counting matches", None, e))?;
        if active >= max {
            return Err(too_many_active(active));
        }
        Ok(())
    }

    /// Whether `creator` may create another match under its share of `tenant`'s (per replica: see
    /// [`crate::identity::callers::Created`]). At its limit, the matches it is counted for are read again: one that
    /// ended on another replica, expired or was deleted is no longer counted.
    async fn room_for_one_more_of(&self, tenant: &str, creator: &Party) -> Result<(), MatchError> {
        let Some(identity) = &self.inner.identity else {
            return Ok(());
        };
        let Some(max) = identity.max_created(creator, &identity.tenant(tenant)) else {
            return Ok(());
        };
        let created = identity.created();
        if (created.count(creator) as u64) < max {
            return Ok(());
        }
        for id in created.of(creator) {
            let ended = self
                .inner
                .header(id)
                .await?
                .is_none_or(|record| record.finished.is_some());
            if ended {
                created.ended(id);
            }
        }
        let active = created.count(creator);
        if active as u64 >= max {
            self.inner.metrics.caller_refused(match creator {
                Party::Player { .. } => "max_active_matches_per_player",
                Party::Address(_) => "max_active_matches_per_address",
            });
            return Err(MatchError::OverLimit(
                identity.too_many_created(creator, active),
            ));
        }
        Ok(())
    }

    fn max_active(&self, tenant: &str) -> Option<u64> {
        self.inner.identity.as_ref().and_then(|identity| {
            let max = identity.tenant(tenant).limits.max_active_matches;
            (max > 0).then_some(max)
        })
    }

    /// The match `id` if `access` may know of it ([`Slot::visible_to`]; NOT_FOUND otherwise, as for a match
    /// that does not exist).
    async fn visible(
        &self,
        access: &Access<'_>,
        id: &str,
        fresh: Fresh,
    ) -> Result<Arc<Slot<E::Message>>, MatchError> {
        let slot = match self.slot("match_id", id, fresh).await {
            Ok(slot) => slot,
            Err(error) => {
                self.charge_unknown_seat_token(access)?;
                return Err(error);
            }
        };
        if !slot.visible_to(access) {
            self.charge_unknown_seat_token(access)?;
            // A wrong seat token on a match of the anonymous tenant, which any caller without a credential
            // may read anyway: refused as it always was, UNAUTHENTICATED.
            if access.tenant.is_none() && slot.tenant.is_empty() {
                slot.seat(access)?;
            }
            return Err(MatchError::NotFound(id.to_string()));
        }
        if let (None, Some(identity)) = (access.tenant, &self.inner.identity) {
            // A bare seat token that opens this match: not for a disabled tenant's match, and charged to the match's
            // tenant, whose seat it is.
            let tenant = identity.tenant(&slot.tenant);
            if tenant.record.disabled {
                return Err(MatchError::Unauthenticated(
                    "the match's tenant is disabled",
                ));
            }
            identity.charge(&tenant).map_err(MatchError::Throttled)?;
        }
        Ok(slot)
    }

    /// A bare seat token that opened no match: charged to the caller's address, so that made-up tokens empty that
    /// address's bucket and nobody else's.
    fn charge_unknown_seat_token(&self, access: &Access<'_>) -> Result<(), MatchError> {
        if access.tenant.is_some() {
            return Ok(());
        }
        match (&self.inner.identity, access.address) {
            (Some(identity), Some(address)) => {
                identity
                    .charge_unknown_seat_token(address)
                    .map_err(|throttled| {
                        self.inner
                            .metrics
                            .caller_refused("unknown_seat_tokens_per_address");
                        MatchError::Throttled(throttled)
                    })
            }
            _ => Ok(()),
        }
    }

    /// The match `id` (parsed from the request's `field`), loading it from the store on first use;
    /// with [`Fresh::Now`], caught up with a shared store.
    async fn slot(
        &self,
        field: &str,
        id: &str,
        fresh: Fresh,
    ) -> Result<Arc<Slot<E::Message>>, MatchError> {
        let id = MatchId::parse(id)
            .ok_or_else(|| MatchError::invalid(field, "a match id is 32 hex digits"))?;
        let held = lock(&self.inner.slots).get(&id).cloned();
        if let Some(slot) = held {
            if fresh == Fresh::Held || !self.inner.store.shared() {
                return Ok(slot);
            }
            self.inner.catch_up(&slot).await?;
            return Ok(slot);
        }
        let inner = &self.inner;
        let stored = inner
            .store
            .load(&id)
            .await
            .map_err(|e| store_failed("loading a match", Some(id), e))?
            .ok_or_else(|| MatchError::NotFound(id.to_string()))?;
        let active = stored.record.finished.is_none();
        let slot = Slot::replayed(
            stored,
            inner.settings.watcher_buffer,
            inner.abort_after_ms(),
            inner.time.now_ms(),
        )
        .map_err(|e| store_failed("replaying a stored match", Some(id), e))?;
        // Another request may have loaded it meanwhile: keep the first, which may have moved on.
        let mut installed = false;
        let slot = lock(&inner.slots)
            .entry(id)
            .or_insert_with(|| {
                if active {
                    inner.metrics.matches_active_add(1);
                }
                installed = true;
                Arc::new(slot)
            })
            .clone();
        if installed {
            inner.store.follow_match(&id, true);
            inner.watch_clocks(&slot);
        }
        Ok(slot)
    }

    /// The match as it stands.
    pub async fn get(&self, access: &Access<'_>, id: &str) -> Result<MatchView, MatchError> {
        let slot = self.visible(access, id, Fresh::Now).await?;
        Ok(slot.view(self.inner.time.now_ms()))
    }

    /// A page of the summaries of `tenant`'s matches, and the token of the next page (empty after the last).
    pub async fn list(
        &self,
        tenant: &str,
        kind: Option<GameKind>,
        finished: Option<bool>,
        page_size: usize,
        page_token: &str,
    ) -> Result<(Vec<MatchSummary>, String), MatchError> {
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
        // One more than asked for tells whether there is a next page.
        let query = ListQuery {
            kind,
            tenant: Some(tenant.to_string()),
            finished,
            after,
            limit: limit + 1,
        };
        let mut records = self
            .inner
            .store
            .list(&query)
            .await
            .map_err(|e| store_failed("listing matches", None, e))?;
        let next = if records.len() > limit {
            records.truncate(limit);
            records.last().map(|r| r.id.to_string()).unwrap_or_default()
        } else {
            String::new()
        };
        Ok((records.iter().map(MatchSummary::of).collect(), next))
    }

    /// The summaries of `tenant`'s matches `ids` that the store still has, in the order given (for a list made
    /// elsewhere, as the lobby's "my games").
    pub async fn summaries(
        &self,
        tenant: &str,
        ids: Vec<MatchId>,
    ) -> Result<Vec<MatchSummary>, MatchError> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(record) = self.inner.header(id).await?.filter(|r| r.tenant == tenant) {
                out.push(MatchSummary::of(&record));
            }
        }
        Ok(out)
    }

    /// The seat holding `token` in match `id`, ready to act: the first half of `SubmitMove` and
    /// `Resign`. The caller decodes the move for [`Seated::kind`], then calls [`Seated::act`]; a
    /// refusal on the way is counted by [`Seated::refuse`]. Checks, in order: the `request_id`,
    /// the match, the token.
    pub async fn seated(
        &self,
        access: &Access<'_>,
        id: &str,
        request_id: String,
    ) -> Result<Seated<E>, MatchError> {
        let seated = self.seated_unrecorded(access, id, request_id).await;
        if let Err(error) = &seated {
            self.inner.metrics.move_rejected(error.code());
        }
        seated
    }

    async fn seated_unrecorded(
        &self,
        access: &Access<'_>,
        id: &str,
        request_id: String,
    ) -> Result<Seated<E>, MatchError> {
        if request_id.len() > MAX_REQUEST_ID_BYTES {
            return Err(MatchError::invalid(
                "request_id",
                format!("at most {MAX_REQUEST_ID_BYTES} bytes"),
            ));
        }
        // `Inner::submit` catches up itself, under the match's writer lock.
        let slot = self.visible(access, id, Fresh::Held).await?;
        let seat = match (slot.seat(access)?, access.player) {
            (Some(seat), _) => seat,
            (None, Some(player)) => {
                return Err(MatchError::PermissionDenied(format!(
                    "player {player:?} has no seat in this match"
                )))
            }
            (None, None) => {
                return Err(MatchError::Unauthenticated(
                    "a seat token or a player token of a seated player is required: send `authorization: Bearer <token>`",
                ))
            }
        };
        Ok(Seated {
            inner: self.inner.clone(),
            slot,
            seat,
            request_id,
        })
    }

    /// Plays `action` for the seat holding `token` ([`Matches::seated`], then [`Seated::act`]);
    /// see `proto/mancala/v1/matches.proto` for the rules.
    pub async fn submit(
        &self,
        access: &Access<'_>,
        id: &str,
        action: Action,
        expected_version: Option<u64>,
        request_id: String,
    ) -> Result<MatchEvent, MatchError> {
        if matches!(action, Action::Expire | Action::Flag) {
            return Err(MatchError::invalid(
                "action",
                "only the server expires a match or lets a flag fall",
            ));
        }
        self.seated(access, id, request_id)
            .await?
            .act(action, expected_version)
            .await
    }

    /// Opens a watch stream; see [`watch`].
    pub async fn watch(
        &self,
        access: &Access<'_>,
        id: &str,
        from_seq: Option<u64>,
    ) -> Result<WatchStream<E::Message>, MatchError> {
        let slot = self.visible(access, id, Fresh::Now).await?;
        let seat = slot.seat(access)?;
        watch::start(self.inner.clone(), slot, seat, from_seq, access.party)
    }

    /// The whole log, replayed, and the match's notation.
    pub async fn history(&self, access: &Access<'_>, id: &str) -> Result<History, MatchError> {
        let slot = self.visible(access, id, Fresh::Held).await?;
        let inner = &self.inner;
        // The state shown is the one the log read leads to, whatever else moves the match on.
        let stored = inner.history(&slot).await?;
        let notation = notation::export(
            slot.kind,
            &slot.options,
            stored.record.start.as_deref(),
            stored.events.iter().map(|e| (e.player, &e.action)),
        );
        let (events, (game, clocks, across)) = replay_all(&stored, inner.abort_after_ms())
            .map_err(|e| store_failed("replaying a stored match", Some(slot.id), e))?;
        let presence = lock(&slot.live).presence;
        let record = &stored.record;
        let now = inner.time.now_ms();
        let view = slot.view_of(
            (game, clocks, &across),
            record.version,
            record.finished,
            presence,
            now,
        );
        // The log may be ahead of this server: bring the match (and its watchers) along.
        if record.version > lock(&slot.live).version {
            inner.catch_up(&slot).await?;
        }
        Ok(History {
            view,
            events,
            notation,
        })
    }
}

/// A request from one seat of a match, its token checked (see [`Matches::seated`]).
pub struct Seated<E: Encoder> {
    inner: Arc<Inner<E>>,
    slot: Arc<Slot<E::Message>>,
    seat: Player,
    request_id: String,
}

impl<E: Encoder> std::fmt::Debug for Seated<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seated")
            .field("match_id", &self.slot.id)
            .field("seat", &self.seat)
            .finish_non_exhaustive()
    }
}

impl<E: Encoder> Seated<E> {
    /// The game of the match, which a move is decoded for.
    pub fn kind(&self) -> GameKind {
        self.slot.kind
    }

    /// Counts `error` (found by the caller, decoding the move) as a refused move, and returns it.
    pub fn refuse(&self, error: MatchError) -> MatchError {
        self.inner.metrics.move_rejected(error.code());
        error
    }

    /// Plays `action` for this seat, unless `expected_version` is stale; a retried `request_id`
    /// gets the answer it had.
    pub async fn act(
        self,
        action: Action,
        expected_version: Option<u64>,
    ) -> Result<MatchEvent, MatchError> {
        let Seated {
            inner,
            slot,
            seat,
            request_id,
        } = self;
        let (held, slot_held) = (inner.clone(), slot.clone());
        let result = detached(async move {
            let now = inner.time.now_ms();
            inner
                .submit(&slot, seat, action, expected_version, request_id, now)
                .await
        })
        .await;
        match &result {
            // This server wrote the event: if a bot is to answer, it is this server's to play.
            Ok(_) => bots::wake(&held, &slot_held),
            Err(error) => held.metrics.move_rejected(error.code()),
        }
        result
    }
}

#[cfg(test)]
mod tests;
