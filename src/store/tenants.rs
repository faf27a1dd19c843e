//! Where tenants live: the operator's customers, their API keys (hashes only) and their own limits, in the
//! same store as the matches (embedded, memory or Redis), and the secret that signs player tokens.
//!
//! A tenant is one record, rewritten whole by every change, with a `revision` the store checks (as it checks
//! a match's `seq`), so two operators changing one tenant at once on two replicas never lose a change. The
//! server holds every tenant in memory (`crate::identity`) and reads them all again when told they changed:
//! over Redis every write is published on a channel every replica follows.

use super::embedded::{failed, Redb};
use super::{EmbeddedStore, MemoryStore, RedisStore, StoreError};
use prost::Message;
use redb::{ReadableTable, TableDefinition, WriteTransaction};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};

/// One API key of a tenant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRecord {
    /// The key's public id (the part of the key after `mk_`, before the secret), shown in listings.
    pub id: String,
    /// SHA-256 of the whole key. The key itself is shown once, when made, and never stored.
    pub hash: [u8; 32],
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// When it was revoked; a revoked key is refused.
    pub revoked_ms: Option<u64>,
}

/// A tenant's own limits, each overriding the server's `[limits]` when set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitOverrides {
    /// Calls per second.
    pub calls_per_second: Option<u32>,
    /// The bucket's size.
    pub burst: Option<u32>,
    /// Unfinished matches at once.
    pub max_active_matches: Option<u64>,
    /// Open `WatchMatch` streams at once (per replica).
    pub max_watchers: Option<u32>,
    /// Calls per second of one player.
    pub calls_per_second_per_player: Option<u32>,
    /// The burst of one player's bucket.
    pub burst_per_player: Option<u32>,
    /// Unfinished matches one player may have created.
    pub max_active_matches_per_player: Option<u64>,
    /// Spectator streams of one player (per replica).
    pub max_watchers_per_player: Option<u32>,
}

impl LimitOverrides {
    /// These overrides with those `changes` sets put over them: a limit `changes` leaves out keeps its value.
    pub fn changed_by(self, changes: LimitOverrides) -> LimitOverrides {
        LimitOverrides {
            calls_per_second: changes.calls_per_second.or(self.calls_per_second),
            burst: changes.burst.or(self.burst),
            max_active_matches: changes.max_active_matches.or(self.max_active_matches),
            max_watchers: changes.max_watchers.or(self.max_watchers),
            calls_per_second_per_player: changes
                .calls_per_second_per_player
                .or(self.calls_per_second_per_player),
            burst_per_player: changes.burst_per_player.or(self.burst_per_player),
            max_active_matches_per_player: changes
                .max_active_matches_per_player
                .or(self.max_active_matches_per_player),
            max_watchers_per_player: changes
                .max_watchers_per_player
                .or(self.max_watchers_per_player),
        }
    }
}

/// A customer of the service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TenantRecord {
    /// The tenant id the operator chose: 1 to 32 of `a-z`, `0-9` and `-`.
    pub id: String,
    /// A display name.
    pub name: String,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// A disabled tenant's keys and player tokens are refused; its matches stay in the store.
    pub disabled: bool,
    /// Every key ever made, revoked ones included.
    pub keys: Vec<KeyRecord>,
    /// Its own limits.
    pub limits: LimitOverrides,
    /// 1 for a new tenant, one more with every change.
    pub revision: u64,
}

/// Keeps tenants; every method but `follow_tenants` is awaited (see `crate::store`).
#[async_trait::async_trait]
pub trait TenantStore: Send + Sync + 'static {
    /// Every tenant.
    async fn tenants(&self) -> Result<Vec<TenantRecord>, StoreError>;

    /// Writes `record` if the stored revision is `record.revision - 1` (no tenant of that id for
    /// revision 1); otherwise [`StoreError::Conflict`] with the stored revision.
    async fn put_tenant(&self, record: &TenantRecord) -> Result<(), StoreError>;

    /// The secret that signs player tokens: the stored one, or `fresh` stored now if there is none yet (the
    /// first replica to ask decides it for all).
    async fn token_secret(&self, fresh: [u8; 32]) -> Result<[u8; 32], StoreError>;

    /// For a shared store: calls `changed` on a thread of its own whenever any server writes a tenant (and
    /// when the feed restarts, since changes may have been missed), until `stop` is set.
    fn follow_tenants(
        &self,
        changed: Box<dyn FnMut() + Send>,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        let _ = (changed, stop);
        None
    }
}

/// The stored shape of a tenant (protobuf, like the matches: fields can be added without a migration).
#[derive(Clone, PartialEq, prost::Message)]
struct StoredTenant {
    #[prost(string, tag = "1")]
    id: String,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(uint64, tag = "3")]
    created_ms: u64,
    #[prost(bool, tag = "4")]
    disabled: bool,
    #[prost(message, repeated, tag = "5")]
    keys: Vec<StoredKey>,
    #[prost(uint32, optional, tag = "6")]
    calls_per_second: Option<u32>,
    #[prost(uint32, optional, tag = "7")]
    burst: Option<u32>,
    #[prost(uint64, optional, tag = "8")]
    max_active_matches: Option<u64>,
    #[prost(uint32, optional, tag = "9")]
    max_watchers: Option<u32>,
    #[prost(uint64, tag = "10")]
    revision: u64,
    /// The players' shares, absent in records written before them (the server's `[limits]` then apply).
    #[prost(uint32, optional, tag = "11")]
    calls_per_second_per_player: Option<u32>,
    #[prost(uint32, optional, tag = "12")]
    burst_per_player: Option<u32>,
    #[prost(uint64, optional, tag = "13")]
    max_active_matches_per_player: Option<u64>,
    #[prost(uint32, optional, tag = "14")]
    max_watchers_per_player: Option<u32>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredKey {
    #[prost(string, tag = "1")]
    id: String,
    #[prost(bytes = "vec", tag = "2")]
    hash: Vec<u8>,
    #[prost(uint64, tag = "3")]
    created_ms: u64,
    #[prost(uint64, optional, tag = "4")]
    revoked_ms: Option<u64>,
}

/// A tenant as bytes.
pub fn encode_tenant(record: &TenantRecord) -> Vec<u8> {
    StoredTenant {
        id: record.id.clone(),
        name: record.name.clone(),
        created_ms: record.created_ms,
        disabled: record.disabled,
        keys: record
            .keys
            .iter()
            .map(|key| StoredKey {
                id: key.id.clone(),
                hash: key.hash.to_vec(),
                created_ms: key.created_ms,
                revoked_ms: key.revoked_ms,
            })
            .collect(),
        calls_per_second: record.limits.calls_per_second,
        burst: record.limits.burst,
        max_active_matches: record.limits.max_active_matches,
        max_watchers: record.limits.max_watchers,
        revision: record.revision,
        calls_per_second_per_player: record.limits.calls_per_second_per_player,
        burst_per_player: record.limits.burst_per_player,
        max_active_matches_per_player: record.limits.max_active_matches_per_player,
        max_watchers_per_player: record.limits.max_watchers_per_player,
    }
    .encode_to_vec()
}

/// A tenant from bytes.
pub fn decode_tenant(bytes: &[u8]) -> Result<TenantRecord, StoreError> {
    let t = StoredTenant::decode(bytes)
        .map_err(|e| StoreError::Failed(format!("a stored tenant: {e}")))?;
    let keys = t
        .keys
        .into_iter()
        .map(|key| {
            Ok(KeyRecord {
                hash: key.hash.as_slice().try_into().map_err(|_| {
                    StoreError::Failed(format!("tenant {}: a key hash is not 32 bytes", t.id))
                })?,
                id: key.id,
                created_ms: key.created_ms,
                revoked_ms: key.revoked_ms,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(TenantRecord {
        id: t.id,
        name: t.name,
        created_ms: t.created_ms,
        disabled: t.disabled,
        keys,
        limits: LimitOverrides {
            calls_per_second: t.calls_per_second,
            burst: t.burst,
            max_active_matches: t.max_active_matches,
            max_watchers: t.max_watchers,
            calls_per_second_per_player: t.calls_per_second_per_player,
            burst_per_player: t.burst_per_player,
            max_active_matches_per_player: t.max_active_matches_per_player,
            max_watchers_per_player: t.max_watchers_per_player,
        },
        revision: t.revision,
    })
}

fn conflict_unless(stored: u64, record: &TenantRecord) -> Result<(), StoreError> {
    if stored + 1 == record.revision {
        Ok(())
    } else {
        Err(StoreError::Conflict { current: stored })
    }
}

const TENANTS: TableDefinition<&str, &[u8]> = TableDefinition::new("tenants");
const SECRETS: TableDefinition<&str, &[u8]> = TableDefinition::new("secrets");
const TOKEN_SECRET: &str = "player_token";

/// Creates the embedded store's tenant tables (at open, so that readers never meet a missing table).
pub(super) fn create_embedded_tables(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.open_table(TENANTS).map_err(failed)?;
    txn.open_table(SECRETS).map_err(failed)?;
    Ok(())
}

/// The tenants' calls, as they block (the embedded store runs them off the async workers).
impl Redb {
    fn tenants(&self) -> Result<Vec<TenantRecord>, StoreError> {
        // Held for the transaction's life, so that a reopen waits for it.
        let db = self.db()?;
        let txn = db.begin_read().map_err(failed)?;
        let table = txn.open_table(TENANTS).map_err(failed)?;
        let mut out = Vec::new();
        for entry in table.iter().map_err(failed)? {
            let (_, value) = entry.map_err(failed)?;
            out.push(decode_tenant(value.value())?);
        }
        Ok(out)
    }

    fn put_tenant(&self, record: &TenantRecord) -> Result<(), StoreError> {
        // Held for the transaction's life, so that a reopen waits for it.
        let db = self.db()?;
        let txn = db.begin_write().map_err(failed)?;
        {
            let mut table = txn.open_table(TENANTS).map_err(failed)?;
            let stored = match table.get(record.id.as_str()).map_err(failed)? {
                Some(bytes) => decode_tenant(bytes.value())?.revision,
                None => 0,
            };
            conflict_unless(stored, record)?;
            table
                .insert(record.id.as_str(), encode_tenant(record).as_slice())
                .map_err(failed)?;
        }
        txn.commit().map_err(failed)
    }

    fn token_secret(&self, fresh: [u8; 32]) -> Result<[u8; 32], StoreError> {
        // Held for the transaction's life, so that a reopen waits for it.
        let db = self.db()?;
        let txn = db.begin_write().map_err(failed)?;
        let secret = {
            let mut table = txn.open_table(SECRETS).map_err(failed)?;
            let stored = table
                .get(TOKEN_SECRET)
                .map_err(failed)?
                .map(|bytes| bytes.value().to_vec());
            match stored {
                Some(bytes) => bytes
                    .as_slice()
                    .try_into()
                    .map_err(|_| failed("the stored player-token secret is not 32 bytes"))?,
                None => {
                    table
                        .insert(TOKEN_SECRET, fresh.as_slice())
                        .map_err(failed)?;
                    fresh
                }
            }
        };
        txn.commit().map_err(failed)?;
        Ok(secret)
    }
}

#[async_trait::async_trait]
impl TenantStore for EmbeddedStore {
    async fn tenants(&self) -> Result<Vec<TenantRecord>, StoreError> {
        self.off_runtime(|redb| redb.tenants()).await
    }

    async fn put_tenant(&self, record: &TenantRecord) -> Result<(), StoreError> {
        let record = record.clone();
        self.off_runtime(move |redb| redb.put_tenant(&record)).await
    }

    async fn token_secret(&self, fresh: [u8; 32]) -> Result<[u8; 32], StoreError> {
        self.off_runtime(move |redb| redb.token_secret(fresh)).await
    }
}

/// The memory store's tenants.
#[derive(Debug, Default)]
pub(super) struct MemoryTenants {
    tenants: Mutex<Vec<TenantRecord>>,
    secret: Mutex<Option<[u8; 32]>>,
}

#[async_trait::async_trait]
impl TenantStore for MemoryStore {
    async fn tenants(&self) -> Result<Vec<TenantRecord>, StoreError> {
        Ok(self
            .tenants
            .tenants
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone())
    }

    async fn put_tenant(&self, record: &TenantRecord) -> Result<(), StoreError> {
        let mut tenants = self
            .tenants
            .tenants
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let stored = tenants.iter().position(|t| t.id == record.id);
        conflict_unless(stored.map_or(0, |i| tenants[i].revision), record)?;
        match stored {
            Some(i) => tenants[i] = record.clone(),
            None => tenants.push(record.clone()),
        }
        Ok(())
    }

    async fn token_secret(&self, fresh: [u8; 32]) -> Result<[u8; 32], StoreError> {
        Ok(*self
            .tenants
            .secret
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(fresh))
    }
}

/// Writes a tenant if its stored revision is the one before: `{0, rev}` written, `{1, stored}` not.
/// KEYS: 1 the tenants hash. ARGV: 1 the id, 2 the revision, 3 the record, 4 the channel.
const PUT_TENANT: &str = r#"#!lua
local stored = tonumber(redis.call('HGET', KEYS[1], 'rev:' .. ARGV[1]) or '0')
if stored + 1 ~= tonumber(ARGV[2]) then return {1, stored} end
redis.call('HSET', KEYS[1], 'rev:' .. ARGV[1], ARGV[2], 't:' .. ARGV[1], ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[1])
return {0, tonumber(ARGV[2])}
"#;

#[async_trait::async_trait]
impl TenantStore for RedisStore {
    async fn tenants(&self) -> Result<Vec<TenantRecord>, StoreError> {
        let all: Vec<(String, Vec<u8>)> = self
            .with(|mut con| async move {
                redis::cmd("HGETALL")
                    .arg(self.keys().tenants())
                    .query_async(&mut con)
                    .await
            })
            .await?;
        all.iter()
            .filter(|(field, _)| field.starts_with("t:"))
            .map(|(_, bytes)| decode_tenant(bytes))
            .collect()
    }

    async fn put_tenant(&self, record: &TenantRecord) -> Result<(), StoreError> {
        let key = self.keys().tenants();
        let (outcome, stored, mut con): (u8, u64, _) = self
            .with(|mut con| async move {
                let (outcome, stored) = redis::Script::new(PUT_TENANT)
                    .key(self.keys().tenants())
                    .arg(&record.id)
                    .arg(record.revision)
                    .arg(encode_tenant(record))
                    .arg(self.keys().tenants_channel())
                    .invoke_async(&mut con)
                    .await?;
                Ok((outcome, stored, con))
            })
            .await?;
        match outcome {
            0 => {
                self.replicated(&mut con, key.as_bytes(), "the tenant's change")
                    .await
            }
            _ => Err(StoreError::Conflict { current: stored }),
        }
    }

    async fn token_secret(&self, fresh: [u8; 32]) -> Result<[u8; 32], StoreError> {
        let key = self.keys().token_secret();
        // SET NX then GET, in one transaction: the first replica's secret is everyone's.
        let (stored,): (Vec<u8>,) = self
            .with(|mut con| async move {
                redis::pipe()
                    .atomic()
                    .cmd("SET")
                    .arg(&key)
                    .arg(fresh.as_slice())
                    .arg("NX")
                    .ignore()
                    .get(&key)
                    .query_async(&mut con)
                    .await
            })
            .await?;
        stored
            .as_slice()
            .try_into()
            .map_err(|_| failed("the stored player-token secret is not 32 bytes"))
    }

    fn follow_tenants(
        &self,
        mut changed: Box<dyn FnMut() + Send>,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        self.follow_channel(
            self.keys().tenants_channel(),
            "tenants",
            Box::new(move |_: Option<&[u8]>| changed()),
            stop,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acme(revision: u64) -> TenantRecord {
        TenantRecord {
            id: "acme".into(),
            name: "Acme Games".into(),
            created_ms: 1,
            disabled: false,
            keys: vec![KeyRecord {
                id: "0a1b2c3d".into(),
                hash: [9; 32],
                created_ms: 2,
                revoked_ms: Some(3),
            }],
            limits: LimitOverrides {
                calls_per_second: Some(5),
                max_watchers: Some(0),
                ..LimitOverrides::default()
            },
            revision,
        }
    }

    #[tokio::test]
    async fn tenants_survive_the_codec() {
        let record = acme(4);
        assert_eq!(decode_tenant(&encode_tenant(&record)).unwrap(), record);
        assert!(decode_tenant(b"\xff\xff").is_err());
    }

    #[test]
    fn a_tenant_stored_before_the_players_shares_reads_as_having_none_of_its_own() {
        let mut record = acme(4);
        record.limits.max_active_matches_per_player = Some(7);
        record.limits.burst_per_player = Some(0);
        assert_eq!(decode_tenant(&encode_tenant(&record)).unwrap(), record);
        // What an older server wrote: fields 1 to 10 only.
        let mut old = StoredTenant::decode(encode_tenant(&acme(4)).as_slice()).unwrap();
        (
            old.calls_per_second_per_player,
            old.burst_per_player,
            old.max_active_matches_per_player,
            old.max_watchers_per_player,
        ) = (None, None, None, None);
        let read = decode_tenant(&old.encode_to_vec()).unwrap();
        assert_eq!(read, acme(4));
        assert_eq!(read.limits.max_watchers_per_player, None);
    }

    async fn revisions_are_checked(store: &dyn TenantStore) {
        assert!(matches!(
            store.put_tenant(&acme(2)).await,
            Err(StoreError::Conflict { current: 0 })
        ));
        store.put_tenant(&acme(1)).await.unwrap();
        assert!(matches!(
            store.put_tenant(&acme(1)).await,
            Err(StoreError::Conflict { current: 1 })
        ));
        store.put_tenant(&acme(2)).await.unwrap();
        assert_eq!(store.tenants().await.unwrap(), vec![acme(2)]);
        let first = store.token_secret([1; 32]).await.unwrap();
        assert_eq!(first, [1; 32]);
        assert_eq!(
            store.token_secret([2; 32]).await.unwrap(),
            first,
            "kept once set"
        );
    }

    #[tokio::test]
    async fn the_memory_store_checks_revisions_and_keeps_one_secret() {
        revisions_are_checked(&MemoryStore::new()).await;
    }

    #[tokio::test]
    async fn the_embedded_store_checks_revisions_and_keeps_one_secret() {
        let dir = tempfile::tempdir().unwrap();
        revisions_are_checked(&EmbeddedStore::open(dir.path()).unwrap()).await;
    }
}
