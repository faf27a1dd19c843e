//! The manager's background work: the retention purge of finished matches, and, over a shared
//! store, following its feed of appends so that other servers' events reach this one's watchers.

use super::error::{store_failed, MatchError};
use super::replay::Advance;
use super::slots::{detached, lock, Inner, Slot};
use super::view::Encoder;
use super::{Fresh, Matches};
use crate::engine::Player;
use crate::store::{codec, Action, Appended, Following, ListQuery, MatchId, MatchRecord};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

impl<E: Encoder> Matches<E> {
    /// Deletes the finished matches older than the retention, from the store and from memory.
    pub async fn purge_expired(&self) -> Result<usize, MatchError> {
        self.purge_expired_at(self.inner.time.now_ms()).await
    }

    /// [`Matches::purge_expired`] as if the clock read `now_ms`.
    pub async fn purge_expired_at(&self, now_ms: u64) -> Result<usize, MatchError> {
        let Some(retention) = self.inner.settings.retention else {
            return Ok(0);
        };
        let cutoff = now_ms.saturating_sub(retention.as_millis() as u64);
        let inner = self.inner.clone();
        detached(async move {
            let purged = inner
                .store
                .purge_finished_before(cutoff)
                .await
                .map_err(|e| store_failed("purging old matches", None, e))?;
            for id in &purged {
                // Purged elsewhere while this server still counted it as active.
                inner.forget(id);
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

    /// The ids of the unfinished matches whose stored header `keep` accepts, read from the store a page at a
    /// time: the sweeps' one scan (`what` names it in a store failure).
    pub(super) async fn unfinished_where(
        &self,
        what: &'static str,
        keep: impl Fn(&MatchRecord) -> bool,
    ) -> Result<Vec<MatchId>, MatchError> {
        Ok(self
            .unfinished_records_where(what, keep)
            .await?
            .into_iter()
            .map(|record| record.id)
            .collect())
    }

    /// [`Matches::unfinished_where`], with the headers.
    pub(super) async fn unfinished_records_where(
        &self,
        what: &'static str,
        keep: impl Fn(&MatchRecord) -> bool,
    ) -> Result<Vec<MatchRecord>, MatchError> {
        /// Headers read at once.
        const PAGE: usize = 500;
        let mut records = Vec::new();
        let mut after = None;
        loop {
            let query = ListQuery {
                finished: Some(false),
                after,
                limit: PAGE,
                ..ListQuery::default()
            };
            let page = self
                .inner
                .store
                .list(&query)
                .await
                .map_err(|e| store_failed(what, None, e))?;
            let last = (page.len() == PAGE).then(|| page[PAGE - 1].id);
            records.extend(page.into_iter().filter(|record| keep(record)));
            match last {
                Some(last) => after = Some(last),
                None => break,
            }
        }
        Ok(records)
    }

    /// Ends every unfinished match that has had no event for `matches.idle_expiry_ms`, as if the clock read
    /// `now_ms`: each gets an `expire` event (no winner, end reason EXPIRED), through the same check-and-append
    /// as a move, so that over a shared store each expires once whichever replicas sweep at the same time, and
    /// a move that comes first wins. How many this server expired.
    pub async fn expire_idle_at(&self, now_ms: u64) -> Result<usize, MatchError> {
        let Some(expiry) = self.inner.settings.idle_expiry else {
            return Ok(0);
        };
        let cutoff = now_ms.saturating_sub(expiry.as_millis() as u64);
        // 0: written before the expiry existed, so its idle time is unknown.
        let idle = self
            .unfinished_where("listing matches to expire", move |record| {
                record.active_ms != 0 && record.active_ms <= cutoff
            })
            .await?;
        let mut expired = 0;
        for id in idle {
            let Ok(slot) = self.slot("match_id", &id.to_string(), Fresh::Held).await else {
                continue;
            };
            let seat = lock(&slot.live).game.to_move().unwrap_or(Player::South);
            let inner = self.inner.clone();
            let outcome = detached(async move {
                inner
                    .submit(&slot, seat, Action::Expire, None, String::new(), now_ms)
                    .await
            })
            .await;
            // Refused: played on meanwhile, or finished or expired by another replica.
            if outcome.is_ok() {
                expired += 1;
            }
        }
        if expired > 0 {
            tracing::info!(count = expired, "idle matches expired");
        }
        Ok(expired)
    }

    /// Runs [`Matches::purge_expired`] (every quarter of the retention, between 1 s and 5 min) and the idle
    /// expiry (every quarter of `idle_expiry_ms`, between 50 ms and 5 min) until the returned guard is dropped.
    pub fn spawn_purger(&self) -> Purger {
        let weak = Arc::downgrade(&self.inner);
        let settings = &self.inner.settings;
        let purge_every = settings.retention.map_or(Duration::from_secs(3600), |r| {
            (r / 4).clamp(Duration::from_secs(1), Duration::from_secs(300))
        });
        let expire_every = settings
            .idle_expiry
            .map(|idle| (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(300)));
        Purger::spawn(async move {
            let tick = expire_every.map_or(purge_every, |every| every.min(purge_every));
            let mut ticks = tokio::time::interval(tick);
            let mut last_purge = None::<tokio::time::Instant>;
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { break };
                let matches = Matches { inner };
                if expire_every.is_some() {
                    let _ = matches.expire_idle_at(matches.inner.time.now_ms()).await;
                }
                if last_purge.is_none_or(|at| at.elapsed() >= purge_every) {
                    last_purge = Some(tokio::time::Instant::now());
                    let _ = matches.purge_expired().await;
                }
            }
        })
    }

    /// Over a shared store: follows its feed of appends, so that every other server's events
    /// reach this server's watchers as they happen, until the returned guard is dropped. `None`
    /// for a store of this server alone.
    pub fn follow_store(&self) -> Option<Following> {
        let stop = Arc::new(AtomicBool::new(false));
        let weak = Arc::downgrade(&self.inner);
        // The feed's thread waits for each report to be applied (a catch-up reads the store, on this runtime):
        // reports are applied one at a time, in the order the store sent them.
        let runtime = tokio::runtime::Handle::current();
        let sink = Box::new(move |appended: Appended| {
            if let Some(inner) = weak.upgrade() {
                runtime.block_on(inner.on_appended(appended));
            }
        });
        let thread = self.inner.store.follow(sink, stop.clone())?;
        Some(Following::new(stop, thread))
    }
}

/// The background purge of expired matches; stops when dropped.
pub type Purger = crate::sync::TaskGuard;

impl<E: Encoder> Inner<E> {
    /// An append reported by a shared store (by this server or another).
    async fn on_appended(&self, appended: Appended) {
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
                        let _ = self.catch_up(&slot).await;
                        return;
                    }
                };
                let (position, version) = {
                    let live = lock(&slot.live);
                    (
                        (live.game.clone(), live.clocks, live.across.clone()),
                        live.version,
                    )
                };
                if event.seq <= version {
                    // Applied already (this server's own append, or a catch-up got there first).
                    return;
                }
                let fed = if event.seq == version + 1 {
                    match Advance::replay(&self.encoder, position, version, vec![event]) {
                        Ok(advance) => self.advance(&slot, advance),
                        Err(error) => {
                            tracing::warn!(match_id = %id, error = %error, "an event on the store's feed does not replay; reading the log instead");
                            return self.catch_up_logged(&slot).await;
                        }
                    }
                } else {
                    // A gap: the feed lost messages, the log has them.
                    return self.catch_up_logged(&slot).await;
                };
                self.metrics.remote_events(fed as u64);
            }
            Appended::Following { id } => {
                // Subscribed just now: what was appended before is read from the log.
                let Some(slot) = lock(&self.slots).get(&id).cloned() else {
                    return;
                };
                if lock(&slot.live).finished.is_none() {
                    self.catch_up_logged(&slot).await;
                }
            }
            Appended::Resumed => {
                let slots: Vec<Arc<Slot<E::Message>>> =
                    lock(&self.slots).values().cloned().collect();
                for slot in slots {
                    if lock(&slot.live).finished.is_none() {
                        self.catch_up_logged(&slot).await;
                    }
                }
            }
        }
    }
}
