//! The lobby's own work, on tasks of its own: recording the matches' lifecycles as the match manager tells them,
//! the sweep (expired challenges and seeks, a seek's fallback to the built-in opponent, pairing seeks that two
//! replicas opened at the same instant), the repair (what a killed server did not record), and over a shared store
//! the feed of other replicas' appends, which wakes this server's streams.

use super::entry::{Entry, Origin, SeatRecord};
use super::state::TenantState;
use super::{now_ms, ChallengeStatus, Lobby, LobbyError, LobbyId, SeekStatus};
use crate::engine::Player;
use crate::matches::{Encoder, Following, Lifecycle};
use crate::store::{LobbyAppended, MatchId, MatchRecord};
use crate::sync::TaskGuard;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedReceiver;

/// How many match headers the repair reads at once.
const REPAIR_PAGE: usize = 500;
/// The most lifecycle steps recorded in one write.
const LIFECYCLE_BATCH: usize = 256;

/// The lobby's running tasks; dropping this stops them.
#[derive(Debug)]
pub struct LobbyTasks {
    _tasks: Vec<TaskGuard>,
    _following: Option<Following>,
}

impl<E: Encoder> Lobby<E> {
    /// Starts the lobby's tasks: `lifecycles` is the receiving end of the match manager's
    /// [`crate::matches::Matches::with_lifecycle`].
    pub fn start(&self, lifecycles: UnboundedReceiver<Lifecycle>) -> LobbyTasks {
        let mut tasks = Vec::new();
        let lobby = self.clone();
        tasks.push(TaskGuard::spawn(async move {
            lobby.follow_lifecycles(lifecycles).await
        }));
        let lobby = self.clone();
        let every = self.inner.settings.sweep_interval;
        tasks.push(TaskGuard::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(error) = lobby.sweep_at(now_ms()).await {
                    tracing::warn!(error = %error, "the lobby's sweep failed; it runs again");
                }
            }
        }));
        let lobby = self.clone();
        let every = self.inner.settings.repair_interval;
        tasks.push(TaskGuard::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(error) = lobby.repair().await {
                    tracing::warn!(error = %error, "the lobby's repair failed; it runs again");
                }
            }
        }));
        let lobby = self.clone();
        tasks.push(TaskGuard::spawn(async move { lobby.keep_presence().await }));
        let stop = Arc::new(AtomicBool::new(false));
        let lobby = self.clone();
        let thread = self.inner.store.follow_lobby(
            Box::new(move |appended| match appended {
                LobbyAppended::Entry { tenant, seq } => lobby.woken(&tenant, seq),
                LobbyAppended::Resumed => lobby.woken_all(),
            }),
            stop.clone(),
        );
        LobbyTasks {
            _tasks: tasks,
            _following: thread.map(|thread| Following::new(stop, thread)),
        }
    }

    /// Records the steps the match manager tells of, as many as are waiting at once in one write per tenant (so
    /// that the lobby keeps up with matches created and finished faster than one store commit each).
    async fn follow_lifecycles(&self, mut lifecycles: UnboundedReceiver<Lifecycle>) {
        let mut steps = Vec::with_capacity(LIFECYCLE_BATCH);
        while lifecycles.recv_many(&mut steps, LIFECYCLE_BATCH).await > 0 {
            let mut by_tenant: HashMap<String, Vec<MatchRecord>> = HashMap::new();
            for step in steps.drain(..) {
                let (Lifecycle::Created(record)
                | Lifecycle::Started(record)
                | Lifecycle::Finished(record)) = step;
                by_tenant
                    .entry(record.tenant.clone())
                    .or_default()
                    .push(record);
            }
            for (tenant, records) in by_tenant {
                let count = records.len();
                if let Err(error) = self.observe(&tenant, records, true).await {
                    tracing::warn!(tenant, matches = count, error = %error, "the lobby could not record matches' steps yet; the repair will");
                }
            }
        }
    }

    /// The tenants whose lobby the background work looks at: those with a log in the store, and those held here.
    pub(super) async fn tenants(&self) -> Result<Vec<String>, LobbyError> {
        let mut tenants = self
            .inner
            .store
            .lobby_tenants()
            .await
            .map_err(|e| super::error::store_failed("listing the lobby's tenants", e))?;
        tenants.extend(super::lock(&self.inner.tenants).keys().cloned());
        tenants.sort();
        tenants.dedup();
        Ok(tenants)
    }

    /// Expires the challenges and seeks due at `now_ms`, plays a seek's fallback when it is due, and pairs seeks
    /// still open. Whichever replicas sweep at once, each change is written once (decided against the log). A
    /// tenant whose sweep fails is logged and left for the next sweep; the other tenants are swept.
    pub async fn sweep_at(&self, now_ms: u64) -> Result<(), LobbyError> {
        for tenant in self.tenants().await? {
            if let Some(retention) = self.inner.retention {
                let held = self.tenant(&tenant);
                let cutoff = now_ms.saturating_sub(retention.as_millis() as u64);
                held.state.lock().await.forget_before(cutoff);
            }
            if let Err(error) = self.sweep_tenant_at(&tenant, now_ms).await {
                tracing::warn!(tenant, error = %error, "the lobby's sweep of a tenant failed; it runs again");
            }
        }
        Ok(())
    }

    async fn sweep_tenant_at(&self, tenant: &str, now_ms: u64) -> Result<(), LobbyError> {
        let (challenges, seeks): (Vec<LobbyId>, Vec<LobbyId>) = self
            .read(tenant, move |state| {
                (
                    state
                        .pending_challenges()
                        .iter()
                        .filter(|c| c.expires_ms <= now_ms)
                        .map(|c| c.id)
                        .collect(),
                    state.open_seeks().iter().map(|s| s.id).collect(),
                )
            })
            .await?;
        for id in challenges {
            self.decide(tenant, move |state| {
                let due = state.challenge(&id).is_some_and(|c| {
                    c.status == ChallengeStatus::Pending && c.expires_ms <= now_ms
                });
                Ok((
                    due.then_some(Entry::ChallengeClosed {
                        id,
                        status: ChallengeStatus::Expired,
                    }),
                    (),
                ))
            })
            .await?;
        }
        if seeks.is_empty() {
            return Ok(());
        }
        // A pairing or a fallback makes a match: only while the tenant has room for one more. Otherwise the seeks
        // wait (or expire), rather than their seekers being told of a match the match store then refuses.
        let mut room = None;
        for id in seeks {
            let has_room = match room {
                Some(known) => known,
                None => {
                    let known = self.inner.matches.room_for_one_more(tenant).await.is_ok();
                    room = Some(known);
                    known
                }
            };
            if has_room && self.pair(tenant, id).await?.status != SeekStatus::Open {
                room = None;
            }
            let match_id = super::random_id()?;
            let created = self
                .decide(tenant, move |state| {
                    let entry = seek_due(state, &id, now_ms, match_id, has_room);
                    Ok((entry.clone(), entry))
                })
                .await?;
            if let Some(entry) = created {
                if matches!(entry, Entry::MatchCreated { .. }) {
                    // A fallback: the match against the built-in opponent is to be made.
                    room = None;
                    self.create_match(tenant, &entry).await?;
                }
            }
        }
        Ok(())
    }

    /// Compares the lobby's record of every tenant's matches with the match store and records what is missing:
    /// a lobby match whose creation was cut short is created, a first move or an end nobody recorded is recorded,
    /// an unfinished match the lobby never heard of is recorded as created.
    pub async fn repair(&self) -> Result<(), LobbyError> {
        let mut tenants = self.tenants().await?;
        if !tenants.iter().any(String::is_empty) {
            tenants.push(String::new());
        }
        for tenant in tenants {
            if let Err(error) = self.repair_tenant(&tenant).await {
                tracing::warn!(tenant, error = %error, "the lobby's repair of a tenant failed; it runs again");
            }
        }
        Ok(())
    }

    async fn repair_tenant(&self, tenant: &str) -> Result<(), LobbyError> {
        let unfinished: Vec<(MatchId, Option<Entry>)> = self
            .read(tenant, |state| {
                state
                    .unfinished_matches()
                    .map(|(id, info)| (*id, info.from_lobby().then(|| info.created_entry(*id))))
                    .collect()
            })
            .await?;
        for (id, arranged) in unfinished {
            // One match that cannot be repaired yet (its tenant at its limit of unfinished matches, say) does
            // not hold back the others, nor the other tenants.
            if let Err(error) = self.repair_match(tenant, id, arranged).await {
                tracing::warn!(tenant, match_id = %id, error = %error, "the lobby could not repair a match yet; the repair runs again");
            }
        }
        let mut after = None;
        loop {
            let page = self
                .inner
                .matches
                .headers(tenant, after, REPAIR_PAGE)
                .await?;
            let Some(last) = page.last() else {
                break;
            };
            after = Some(last.id);
            let unfinished: Vec<MatchRecord> =
                page.into_iter().filter(|r| r.finished.is_none()).collect();
            self.observe(tenant, unfinished, false).await?;
        }
        Ok(())
    }
}

impl<E: Encoder> Lobby<E> {
    /// Records what the lobby has not of match `id`, or creates it if the lobby `arranged` it and the match store
    /// does not have it.
    async fn repair_match(
        &self,
        tenant: &str,
        id: MatchId,
        arranged: Option<Entry>,
    ) -> Result<(), LobbyError> {
        match self.inner.matches.header(id).await? {
            Some(record) => self.observe(tenant, vec![record], true).await,
            None => match arranged {
                Some(entry) => {
                    tracing::warn!(tenant, match_id = %id, "creating a lobby match whose creation was cut short");
                    self.create_match(tenant, &entry).await
                }
                None => Ok(()),
            },
        }
    }
}

/// What seek `id` comes to at `now_ms`, if it is open and due: a match against the built-in opponent (its fallback
/// is due: at `fallback_after_ms`, or at expiry when that is 0; only if the tenant has `room` for one more match)
/// or its expiry.
fn seek_due(
    state: &TenantState,
    id: &LobbyId,
    now_ms: u64,
    match_id: MatchId,
    room: bool,
) -> Option<Entry> {
    let seek = state.seek(id).filter(|s| s.status == SeekStatus::Open)?;
    if let Some(fallback) = seek.fallback.filter(|_| room) {
        let due = if fallback.after_ms == 0 {
            seek.expires_ms
        } else {
            seek.created_ms
                .saturating_add(fallback.after_ms)
                .min(seek.expires_ms)
        };
        if now_ms >= due {
            // The seeker's seat is drawn from the seek's random id.
            let seat = if id.0[0] & 1 == 0 {
                Player::South
            } else {
                Player::North
            };
            // Every other seat (two of them in three-player Ba-awa) is the built-in opponent's.
            let mut seats = vec![
                SeatRecord {
                    bot_level: Some(fallback.level),
                    ..SeatRecord::default()
                };
                seek.options.seats(seek.kind)
            ];
            seats[seat.index()] = state.seat_record(&seek.player, seek.kind);
            return Some(Entry::MatchCreated {
                id: match_id,
                kind: seek.kind,
                options: seek.options,
                time_control: seek.time_control,
                rated: false,
                seats,
                origin: Origin::Seeks(vec![seek.id]),
            });
        }
    }
    (now_ms >= seek.expires_ms).then_some(Entry::SeekClosed {
        id: *id,
        status: SeekStatus::Expired,
    })
}
