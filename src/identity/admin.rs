//! The operator's changes: tenants created and changed, API keys created, rotated and revoked, each written to
//! the store with its revision checked and then read back. Apart from the registry because these are the only
//! writes, made by the operator alone, where everything else reads.

use super::{keys, now_ms, Identity};
use crate::store::{KeyRecord, LimitOverrides, StoreError, TenantRecord};

/// Why an operator's change could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// A field of the request is wrong.
    #[error("{field}: {description}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// What is wrong.
        description: String,
    },
    /// No such tenant (or key).
    #[error("{0}")]
    NotFound(String),
    /// A tenant of that id exists.
    #[error("tenant {0:?} exists already")]
    Exists(String),
    /// The tenant cannot do what is asked as it stands (disabled, no valid key).
    #[error("{0}")]
    Unusable(String),
    /// The store failed, or another change won the race too often.
    #[error("{0}")]
    Store(#[from] StoreError),
}

/// Tenant ids that stand for something else in logs, metrics and quota details.
const RESERVED_IDS: [&str; 4] = ["anonymous", "operator", "unknown", "seat-tokens"];

/// A tenant id's problem, if it has one.
pub fn tenant_id_problem(id: &str) -> Option<&'static str> {
    let ok = (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !id.starts_with('-')
        && !RESERVED_IDS.contains(&id);
    (!ok).then_some("1 to 32 of a-z, 0-9 and '-', not starting with '-' (and not anonymous, operator, unknown or seat-tokens)")
}

impl Identity {
    /// Creates tenant `id` with its first key. The key is in the answer only.
    pub async fn create_tenant(
        &self,
        id: &str,
        name: &str,
        limits: LimitOverrides,
    ) -> Result<(TenantRecord, keys::NewKey), AdminError> {
        if let Some(problem) = tenant_id_problem(id) {
            return Err(AdminError::Invalid {
                field: "tenant_id",
                description: problem.into(),
            });
        }
        let key = new_key()?;
        let record = TenantRecord {
            id: id.into(),
            name: name.into(),
            created_ms: now_ms(),
            disabled: false,
            keys: vec![key_record(&key)],
            limits,
            revision: 1,
        };
        match self.inner.store.put_tenant(&record).await {
            Ok(()) => {}
            Err(StoreError::Conflict { .. }) => return Err(AdminError::Exists(id.into())),
            Err(e) => return Err(e.into()),
        }
        self.reload().await?;
        tracing::info!(tenant = id, key_id = %key.id, "tenant created");
        Ok((record, key))
    }

    /// A player token for `player` of tenant `id`, as its backend would get one (`Players/IssuePlayerToken`), for
    /// the operator: issued to the tenant's newest valid key, so that revoking that key revokes the token too.
    /// The token, its expiry (seconds since the epoch) and the key's id.
    pub async fn issue_token_for_operator(
        &self,
        id: &str,
        player: &str,
        ttl: Option<std::time::Duration>,
    ) -> Result<(String, u64, String), AdminError> {
        // As the store has it now: a tenant made a moment ago on another replica is known.
        self.reload().await?;
        let tenant = self
            .registry()
            .tenants
            .get(id)
            .cloned()
            .ok_or_else(|| AdminError::NotFound(format!("no tenant {id:?}")))?;
        if tenant.record.disabled {
            return Err(AdminError::Unusable(format!(
                "tenant {id:?} is disabled: its tokens would be refused (enable it first)"
            )));
        }
        let key = tenant
            .record
            .keys
            .iter()
            .filter(|key| key.revoked_ms.is_none())
            .max_by_key(|key| key.created_ms)
            .ok_or_else(|| {
                AdminError::Unusable(format!(
                    "tenant {id:?} has no valid API key to issue the token to (give it one: add-key)"
                ))
            })?;
        let (token, expires_at) = self.issue_token(&tenant, &key.id, player, ttl)?;
        Ok((token, expires_at, key.id.clone()))
    }

    /// Makes tenant `id` unless it exists; whether it was made.
    pub async fn ensure_tenant(&self, id: &str, name: &str) -> Result<bool, AdminError> {
        match self
            .create_tenant(id, name, LimitOverrides::default())
            .await
        {
            Ok(_) => Ok(true),
            Err(AdminError::Exists(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Changes tenant `id` with `change`, again if another replica changed it meanwhile.
    pub async fn update_tenant(
        &self,
        id: &str,
        mut change: impl FnMut(&mut TenantRecord) -> Result<(), AdminError>,
    ) -> Result<TenantRecord, AdminError> {
        for _ in 0..8 {
            let stored = self
                .inner
                .store
                .tenants()
                .await?
                .into_iter()
                .find(|t| t.id == id)
                .ok_or_else(|| AdminError::NotFound(format!("no tenant {id:?}")))?;
            let mut record = stored.clone();
            change(&mut record)?;
            record.revision = stored.revision + 1;
            match self.inner.store.put_tenant(&record).await {
                Ok(()) => {
                    self.reload().await?;
                    return Ok(record);
                }
                Err(StoreError::Conflict { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(AdminError::Store(StoreError::Failed(format!(
            "tenant {id:?} kept changing under this change; try again"
        ))))
    }

    /// A new key for tenant `id`; with `revoke_others`, every other key is revoked (a rotation): `overlap` from
    /// now, so that the tenant's backend can move to the new key, and the player tokens the old keys issued be
    /// renewed, before they stop working (zero: at once).
    pub async fn create_key(
        &self,
        id: &str,
        revoke_others: bool,
        overlap: std::time::Duration,
    ) -> Result<(TenantRecord, keys::NewKey), AdminError> {
        let key = new_key()?;
        let at = now_ms().saturating_add(u64::try_from(overlap.as_millis()).unwrap_or(u64::MAX));
        let record = self
            .update_tenant(id, |record| {
                if revoke_others {
                    for old in record.keys.iter_mut() {
                        // A key already due to be revoked sooner keeps its own moment.
                        old.revoked_ms = Some(old.revoked_ms.map_or(at, |due| due.min(at)));
                    }
                }
                record.keys.push(key_record(&key));
                Ok(())
            })
            .await?;
        tracing::info!(tenant = id, key_id = %key.id, revoke_others, overlap_ms = overlap.as_millis() as u64, "API key created");
        Ok((record, key))
    }

    /// Revokes key `key_id` of tenant `id`: refused from now on by this replica, by the others as soon as
    /// they hear of it.
    pub async fn revoke_key(&self, id: &str, key_id: &str) -> Result<TenantRecord, AdminError> {
        let at = now_ms();
        let record = self
            .update_tenant(id, |record| {
                let key = record
                    .keys
                    .iter_mut()
                    .find(|k| k.id == key_id)
                    .ok_or_else(|| {
                        AdminError::NotFound(format!("tenant {id:?} has no key {key_id:?}"))
                    })?;
                // At once, even a key a rotation had given an overlap.
                key.revoked_ms = Some(key.revoked_ms.map_or(at, |due| due.min(at)));
                Ok(())
            })
            .await?;
        tracing::info!(tenant = id, key_id, "API key revoked");
        Ok(record)
    }
}

fn new_key() -> Result<keys::NewKey, AdminError> {
    keys::new_key()
        .map_err(|e| AdminError::Store(StoreError::Failed(format!("the OS random generator: {e}"))))
}

fn key_record(key: &keys::NewKey) -> KeyRecord {
    KeyRecord {
        id: key.id.clone(),
        hash: key.hash,
        created_ms: now_ms(),
        revoked_ms: None,
    }
}
