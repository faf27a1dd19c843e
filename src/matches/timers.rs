//! The clocks' timers: a match's flag falls, or its unstarted match is aborted, when the moment comes, whether
//! or not anybody calls (`crate::clock` keeps the rules of time).
//!
//! Each server keeps the next deadline of every match it holds ([`Timers`]): every change to a match passes through
//! `Inner::advance`, which schedules the deadline the new clocks give. One task ([`Matches::spawn_clock_keeper`])
//! sleeps until the soonest, then settles it: the flag (or the abort) is appended through the same check-and-append
//! as a move, with the deadline itself as its time, so that over a shared store the replicas holding the match may
//! all try and exactly one event is written. A request that arrives after a deadline settles it first
//! (`Inner::try_submit`).
//!
//! Deadlines this server does not hold in memory (after a restart, or a match another replica was keeping) are in
//! each match's stored header (`MatchRecord::deadline_ms`): the keeper reads them at start-up, which settles every
//! overdue match at once, and over a shared store every `clock.sweep_interval_ms`. Such a deadline is checked
//! against the header again when it comes; only a match that is due is loaded.
//!
//! Presence, for abandonment claims: over a shared store the keeper also records, every quarter of the abandonment
//! time, which seats have a stream open here (`MatchStore::seat_seen`), so that a replica asked for a claim knows
//! whether the seat is connected elsewhere.

use super::error::MatchError;
use super::slots::{detached, lock, next_deadline, Inner, Slot};
use super::view::Encoder;
use super::{Fresh, Matches};
use crate::engine::Player;
use crate::store::MatchId;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a settlement that failed (the store unreachable) waits before it is tried again.
const RETRY_MS: u64 = 1_000;

/// The next deadline of each match this server watches, soonest first.
#[derive(Debug, Default)]
pub(super) struct Timers {
    set: Mutex<TimerSet>,
    /// Told when a deadline sooner than every other is scheduled, so the keeper sleeps less.
    sooner: Arc<tokio::sync::Notify>,
}

#[derive(Debug, Default)]
struct TimerSet {
    by_time: BTreeSet<(u64, MatchId)>,
    by_match: HashMap<MatchId, u64>,
}

impl Timers {
    /// Watches match `id` for `deadline` (ms since the epoch) instead of what it was watched for; `None`: not at all.
    pub(super) fn schedule(&self, id: MatchId, deadline: Option<u64>) {
        let mut set = lock(&self.set);
        if let Some(old) = set.by_match.remove(&id) {
            set.by_time.remove(&(old, id));
        }
        let Some(at) = deadline else { return };
        let soonest = set.by_time.first().map(|&(t, _)| t);
        set.by_time.insert((at, id));
        set.by_match.insert(id, at);
        if soonest.is_none_or(|soonest| at < soonest) {
            self.sooner.notify_one();
        }
    }

    /// Watches match `id` for `deadline` unless it is watched for a sooner one already.
    pub(super) fn schedule_sooner(&self, id: MatchId, deadline: u64) {
        let held = lock(&self.set).by_match.get(&id).copied();
        if held.is_none_or(|held| deadline < held) {
            self.schedule(id, Some(deadline));
        }
    }

    /// The soonest deadline watched.
    fn soonest(&self) -> Option<u64> {
        lock(&self.set).by_time.first().map(|&(at, _)| at)
    }

    /// Takes out every match whose deadline is at or before `now_ms`.
    fn take_due(&self, now_ms: u64) -> Vec<MatchId> {
        let mut set = lock(&self.set);
        let mut due = Vec::new();
        while let Some(&(at, id)) = set.by_time.first() {
            if at > now_ms {
                break;
            }
            set.by_time.pop_first();
            set.by_match.remove(&id);
            due.push(id);
        }
        due
    }

    /// The deadline match `id` is watched for (tests).
    #[cfg(test)]
    pub(super) fn deadline_of(&self, id: &MatchId) -> Option<u64> {
        lock(&self.set).by_match.get(id).copied()
    }
}

impl<E: Encoder> Inner<E> {
    /// Watches `slot` for the deadline its clocks give now.
    pub(super) fn watch_clocks(&self, slot: &Slot<E::Message>) {
        let deadline = {
            let live = lock(&slot.live);
            next_deadline(&live.clocks, live.finished)
        };
        self.timers.schedule(slot.id, deadline);
    }

    /// A seat's stream opened or closed on this server at `now_ms`: remembered here, and over a shared store
    /// recorded for the other replicas (by a task of its own: nobody waits for it).
    pub(super) fn seat_seen(self: &Arc<Self>, slot: &Slot<E::Message>, seat: Player, now_ms: u64) {
        slot.seen_ms[seat.index()].fetch_max(now_ms, Ordering::AcqRel);
        if self.store.shared() {
            let (inner, id) = (self.clone(), slot.id);
            tokio::spawn(async move {
                if let Err(error) = inner.store.seat_seen(&id, seat, now_ms).await {
                    tracing::warn!(match_id = %id, %error, "cannot record a seat's presence");
                }
            });
        }
    }
}

impl<E: Encoder> Matches<E> {
    /// Settles what the clocks of match `id` have made due by `now_ms` (a flag, an abort): the event this server
    /// appended, if any. What the keeper does when a deadline comes; tests call it with a clock of their own.
    pub async fn settle_clocks_at(
        &self,
        id: MatchId,
        now_ms: u64,
    ) -> Result<Option<super::MatchEvent>, MatchError> {
        let held = lock(&self.inner.slots).contains_key(&id);
        if !held {
            // A deadline read from the store's headers, of a match this server does not hold: its header alone says
            // whether it is due (loading it would replay its log, and this server would then follow it for ever).
            let header = self.inner.header(id).await?;
            match header {
                None => return Err(MatchError::NotFound(id.to_string())),
                Some(record) if record.finished.is_some() => return Ok(None),
                Some(record) => {
                    if let Some(at) = record.deadline_ms.filter(|&at| at > now_ms) {
                        self.inner.timers.schedule_sooner(id, at);
                        return Ok(None);
                    }
                    if record.deadline_ms.is_none() {
                        return Ok(None);
                    }
                }
            }
        }
        let slot = self.slot("match_id", &id.to_string(), Fresh::Held).await?;
        let inner = self.inner.clone();
        let held = slot.clone();
        let settled = detached(async move { inner.settle(&held, now_ms).await }).await;
        if let Ok(None) = settled {
            // Nothing due after all (the match moved on): watch for what its clocks say now.
            self.inner.watch_clocks(&slot);
        }
        settled
    }

    /// Reads every unfinished match's stored deadline and watches each that this server was not watching sooner:
    /// how matches this server never held (or held before a restart) are settled on time. How many have one.
    pub async fn sweep_clocks(&self) -> Result<usize, MatchError> {
        let records = self
            .unfinished_records_where("listing matches with clocks", |record| {
                record.deadline_ms.is_some()
            })
            .await?;
        for record in &records {
            if let Some(at) = record.deadline_ms {
                self.inner.timers.schedule_sooner(record.id, at);
            }
        }
        Ok(records.len())
    }

    /// Over a shared store: records every seat with a stream open here as seen now.
    async fn refresh_presence(&self) {
        let present: Vec<(MatchId, Player)> = lock(&self.inner.slots)
            .values()
            .flat_map(|slot| {
                let presence = lock(&slot.live).presence;
                Player::ALL
                    .into_iter()
                    .filter(move |seat| presence[seat.index()] > 0)
                    .map(move |seat| (slot.id, seat))
            })
            .collect();
        if present.is_empty() {
            return;
        }
        // Read here, just before the writes, whatever the keeper did before.
        let now_ms = self.inner.time.now_ms();
        for (id, seat) in present {
            if let Err(error) = self.inner.store.seat_seen(&id, seat, now_ms).await {
                tracing::warn!(match_id = %id, %error, "cannot record a seat's presence");
            }
        }
    }

    /// Keeps the clocks of every match this server knows of until the returned guard is dropped: sleeps until the
    /// soonest deadline and settles it; sweeps the store's deadlines at once and every `clock.sweep_interval_ms`;
    /// over a shared store, records the seats with a stream open here. Time comes from the manager's [`Time`].
    ///
    /// [`Time`]: crate::clock::Time
    pub fn spawn_clock_keeper(&self) -> ClockKeeper {
        let weak = Arc::downgrade(&self.inner);
        let time = self.inner.time.clone();
        let sooner = self.inner.timers.sooner.clone();
        let sweep_every = self
            .inner
            .clock
            .sweep_interval
            .map(|every| every.as_millis() as u64);
        let shared = self.inner.store.shared();
        // A store of this server alone: every deadline after the start-up sweep passes through this server.
        let sweep_every = sweep_every.filter(|_| shared);
        // Four refreshes within the abandonment time: a connected seat is never seen as gone elsewhere.
        let refresh_every = (self.inner.clock.abandon_after / 4)
            .max(Duration::from_millis(100))
            .as_millis() as u64;
        ClockKeeper::spawn(async move {
            let mut next_sweep = Some(0);
            let mut next_refresh = shared.then_some(0);
            loop {
                let wake_at = {
                    let Some(inner) = weak.upgrade() else { break };
                    let matches = Matches { inner };
                    let now = time.now_ms();
                    if next_sweep.is_some_and(|at| at <= now) {
                        next_sweep = match matches.sweep_clocks().await {
                            Ok(_) => sweep_every.map(|every| now + every),
                            Err(error) => {
                                // Until one sweep has read the store, overdue matches may be waiting: try again.
                                tracing::warn!(%error, "the sweep of the matches' clocks failed; trying again");
                                Some(now + RETRY_MS)
                            }
                        };
                    }
                    if next_refresh.is_some_and(|at| at <= now) {
                        matches.refresh_presence().await;
                        next_refresh = Some(now + refresh_every);
                    }
                    for id in matches.inner.timers.take_due(now) {
                        match matches.settle_clocks_at(id, now).await {
                            Ok(_) | Err(MatchError::NotFound(_)) => {}
                            Err(error) => {
                                tracing::warn!(match_id = %id, %error, "cannot settle a match's clocks; trying again");
                                matches.inner.timers.schedule_sooner(id, now + RETRY_MS);
                            }
                        }
                    }
                    [matches.inner.timers.soonest(), next_sweep, next_refresh]
                        .into_iter()
                        .flatten()
                        .min()
                };
                // The manager is not held while sleeping: a server that stops is not kept alive by its clocks.
                let sleep = time.sleep_until(wake_at.unwrap_or(u64::MAX));
                tokio::select! {
                    () = sleep => {}
                    () = sooner.notified() => {}
                }
            }
        })
    }
}

/// The task keeping the matches' clocks; stops when dropped.
pub type ClockKeeper = crate::sync::TaskGuard;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soonest_deadline_comes_first_and_a_new_one_replaces_the_old() {
        let timers = Timers::default();
        let (a, b) = (MatchId([1; 16]), MatchId([2; 16]));
        timers.schedule(a, Some(500));
        timers.schedule(b, Some(300));
        assert_eq!(timers.soonest(), Some(300));
        timers.schedule(b, Some(900));
        assert_eq!(timers.soonest(), Some(500));
        timers.schedule_sooner(b, 950);
        assert_eq!(timers.deadline_of(&b), Some(900), "not later");
        timers.schedule_sooner(b, 100);
        assert_eq!(timers.take_due(499), vec![b]);
        assert_eq!(timers.take_due(499), vec![]);
        timers.schedule(a, None);
        assert_eq!(timers.take_due(u64::MAX), vec![]);
    }
}
