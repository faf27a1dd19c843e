//! The tenants as this server holds them: every tenant in memory, with a map from key hash to tenant, read
//! again from the store after each change (here, on another replica, or every period), and the limits each is
//! given. Apart from `auth.rs` and `limits.rs` because they only read what this keeps current.

use super::limits::Bucket;
use super::{Identity, Tenant, ANONYMOUS, REFRESH_EVERY};
use crate::config::TenantLimits;
use crate::store::{Following, LimitOverrides, StoreError, TenantRecord};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

#[derive(Default)]
pub(super) struct Registry {
    pub(super) tenants: HashMap<String, Arc<Tenant>>,
    /// Key hash → the tenant and the key's id.
    pub(super) keys: HashMap<[u8; 32], (Arc<Tenant>, String)>,
}

/// A stand-in tenant (the anonymous one, the seat tokens' bucket) with `limits`.
pub(super) fn pseudo_tenant(id: &str, name: &str, limits: TenantLimits) -> Arc<Tenant> {
    Arc::new(Tenant {
        record: TenantRecord {
            id: id.into(),
            name: name.into(),
            created_ms: 0,
            disabled: false,
            keys: Vec::new(),
            limits: LimitOverrides::default(),
            revision: 0,
        },
        limits,
        bucket: Arc::new(Bucket::new(&limits)),
        watchers: Arc::default(),
    })
}

/// `overrides` over `defaults`.
pub fn resolve(defaults: &TenantLimits, overrides: &LimitOverrides) -> TenantLimits {
    TenantLimits {
        calls_per_second: overrides
            .calls_per_second
            .unwrap_or(defaults.calls_per_second),
        burst: overrides.burst.unwrap_or(defaults.burst),
        max_active_matches: overrides
            .max_active_matches
            .unwrap_or(defaults.max_active_matches),
        max_watchers: overrides.max_watchers.unwrap_or(defaults.max_watchers),
        calls_per_second_per_player: overrides
            .calls_per_second_per_player
            .unwrap_or(defaults.calls_per_second_per_player),
        burst_per_player: overrides
            .burst_per_player
            .unwrap_or(defaults.burst_per_player),
        max_active_matches_per_player: overrides
            .max_active_matches_per_player
            .unwrap_or(defaults.max_active_matches_per_player),
        max_watchers_per_player: overrides
            .max_watchers_per_player
            .unwrap_or(defaults.max_watchers_per_player),
    }
}

impl Identity {
    pub(super) fn registry(&self) -> std::sync::RwLockReadGuard<'_, Registry> {
        self.inner
            .registry
            .read()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads every tenant from the store again. Buckets and stream counts of tenants whose limits did not change
    /// carry over.
    pub async fn reload(&self) -> Result<(), StoreError> {
        let _one_at_a_time = self.inner.reloading.lock().await;
        let records = self.inner.store.tenants().await?;
        let mut next = Registry::default();
        {
            let current = self.registry();
            for record in records {
                let limits = resolve(&self.inner.defaults, &record.limits);
                let (bucket, watchers) = match current.tenants.get(&record.id) {
                    Some(old) if old.limits == limits => (old.bucket.clone(), old.watchers.clone()),
                    Some(old) => (Arc::new(Bucket::new(&limits)), old.watchers.clone()),
                    None => (Arc::new(Bucket::new(&limits)), Arc::default()),
                };
                let tenant = Arc::new(Tenant {
                    record,
                    limits,
                    bucket,
                    watchers,
                });
                // Every key, a disabled tenant's and revoked ones too: a refusal then says why (the check is
                // `authenticate`'s), where an unknown key could only be "unknown".
                for key in &tenant.record.keys {
                    next.keys.insert(key.hash, (tenant.clone(), key.id.clone()));
                }
                next.tenants.insert(tenant.record.id.clone(), tenant);
            }
        }
        *self
            .inner
            .registry
            .write()
            .unwrap_or_else(PoisonError::into_inner) = next;
        Ok(())
    }

    /// Whether [`Identity::refresh`] would read the store now (a cheap check, before leaving the worker).
    pub fn refresh_due(&self) -> bool {
        self.inner
            .last_refresh
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none_or(|at| at.elapsed() >= REFRESH_EVERY)
    }

    /// Reads the tenants again every `period`, until the returned task is aborted: what a lost message of
    /// the store's channel (or a failed reload) leaves stale is stale for one period at most.
    pub fn spawn_reloads(&self, period: Duration) -> tokio::task::JoinHandle<()> {
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(period);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { break };
                let identity = Identity { inner };
                if let Err(error) = identity.reload().await {
                    tracing::warn!(error = %error, "cannot read the tenants again");
                }
            }
        })
    }

    /// After [`AuthError::Unknown`](super::AuthError::Unknown): reads the store again unless that was done less than
    /// [`REFRESH_EVERY`] ago (so that a flood of made-up keys costs the store little).
    pub async fn refresh(&self) -> Result<bool, StoreError> {
        {
            let mut last = self
                .inner
                .last_refresh
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if last.is_some_and(|at| at.elapsed() < REFRESH_EVERY) {
                return Ok(false);
            }
            *last = Some(Instant::now());
        }
        self.reload().await?;
        Ok(true)
    }

    /// Over a shared store: reads the tenants again whenever any replica changes one, until the guard is
    /// dropped. `None` for a store of this server alone.
    pub fn follow_store(&self) -> Option<Following> {
        let stop = Arc::new(AtomicBool::new(false));
        let weak = Arc::downgrade(&self.inner);
        // The feed's thread waits for each reload (a read of the store, on this runtime).
        let runtime = tokio::runtime::Handle::current();
        let thread = self.inner.store.follow_tenants(
            Box::new(move || {
                if let Some(inner) = weak.upgrade() {
                    if let Err(error) = runtime.block_on((Identity { inner }).reload()) {
                        tracing::warn!(error = %error, "cannot read the tenants again");
                    }
                }
            }),
            stop.clone(),
        )?;
        Some(Following::new(stop, thread))
    }
    /// The tenant `id` as held (the anonymous one for `""`); a tenant this replica does not know (yet)
    /// gets the server's limits.
    pub fn tenant(&self, id: &str) -> Arc<Tenant> {
        if id == ANONYMOUS {
            return self.inner.anonymous.clone();
        }
        if let Some(tenant) = self.registry().tenants.get(id) {
            return tenant.clone();
        }
        pseudo_tenant(id, "", self.inner.defaults)
    }
    /// Every tenant, by id.
    pub fn tenants(&self) -> Vec<Arc<Tenant>> {
        let mut all: Vec<_> = self.registry().tenants.values().cloned().collect();
        all.sort_by(|a, b| a.record.id.cmp(&b.record.id));
        all
    }
}
