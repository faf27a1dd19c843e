//! Where the lobby lives (`crate::lobby`): one append-only log per tenant, of opaque entries numbered 1, 2, 3 …
//!
//! The lobby's state (challenges, seeks, profiles, ratings, which matches have begun and ended) is the replay of
//! its tenant's log, as a match's state is the replay of its events; so the store only has to append with a check
//! and read back in order. The check is the one matches have: entry `seq` is written only if the log holds
//! `seq - 1` entries, so two replicas deciding on the same state never both write. Over Redis every append is
//! announced on a channel every replica follows, which wakes the streams waiting on that tenant.

use super::embedded::{failed, Redb};
use super::embedded_writes::{LobbyAppend, Write};
use super::{EmbeddedStore, MemoryStore, RedisStore, StoreError};
use redb::{ReadableTable, TableDefinition, WriteTransaction};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};

/// One entry of a tenant's lobby log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyEntry {
    /// Its place in the log, from 1.
    pub seq: u64,
    /// What the lobby wrote (its own codec).
    pub bytes: Vec<u8>,
}

/// What a shared store reports to [`LobbyStore::follow_lobby`]'s sink.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyAppended {
    /// Some server appended entry `seq` to `tenant`'s log.
    Entry {
        /// The tenant.
        tenant: String,
        /// The entry's number.
        seq: u64,
    },
    /// The feed (re)started: appends made while it was down were not reported; read the logs.
    Resumed,
}

/// Keeps the lobby logs; every method but `follow_lobby` is awaited, as the match store's are.
#[async_trait::async_trait]
pub trait LobbyStore: Send + Sync + 'static {
    /// Appends `entries` (at least one) to `tenant`'s log as entries `first`, `first + 1` …, all or none, if it
    /// holds exactly `first - 1` entries; otherwise [`StoreError::Conflict`] with the number it holds. Durable when
    /// it returns `Ok`.
    async fn lobby_append(
        &self,
        tenant: &str,
        first: u64,
        entries: &[Vec<u8>],
    ) -> Result<(), StoreError>;

    /// At most `limit` entries of `tenant`'s log after `after`, in order (none for a tenant without a log).
    async fn lobby_read(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LobbyEntry>, StoreError>;

    /// Every tenant with a lobby log.
    async fn lobby_tenants(&self) -> Result<Vec<String>, StoreError>;

    /// For a shared store: reports every append by any server to `sink`, on a thread of its own, until `stop`.
    fn follow_lobby(
        &self,
        sink: Box<dyn FnMut(LobbyAppended) + Send>,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        let _ = (sink, stop);
        None
    }
}

/// (tenant, seq) → entry.
pub(super) const LOBBY: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("lobby");
/// tenant → the number of entries.
pub(super) const LOBBY_LENGTHS: TableDefinition<&str, u64> = TableDefinition::new("lobby_lengths");

/// Creates the embedded store's lobby tables (at open, so that readers never meet a missing table).
pub(super) fn create_embedded_tables(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.open_table(LOBBY).map_err(failed)?;
    txn.open_table(LOBBY_LENGTHS).map_err(failed)?;
    Ok(())
}

/// The lobby's calls, as they block (the embedded store runs them off the async workers).
impl Redb {
    fn lobby_read(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LobbyEntry>, StoreError> {
        // Held for the transaction's life, so that a reopen waits for it.
        let db = self.db()?;
        let txn = db.begin_read().map_err(failed)?;
        let log = txn.open_table(LOBBY).map_err(failed)?;
        let mut out = Vec::new();
        if after == u64::MAX {
            return Ok(out);
        }
        for entry in log
            .range((tenant, after + 1)..=(tenant, u64::MAX))
            .map_err(failed)?
            .take(limit)
        {
            let (key, value) = entry.map_err(failed)?;
            out.push(LobbyEntry {
                seq: key.value().1,
                bytes: value.value().to_vec(),
            });
        }
        Ok(out)
    }

    fn lobby_tenants(&self) -> Result<Vec<String>, StoreError> {
        // Held for the transaction's life, so that a reopen waits for it.
        let db = self.db()?;
        let txn = db.begin_read().map_err(failed)?;
        let lengths = txn.open_table(LOBBY_LENGTHS).map_err(failed)?;
        let mut out = Vec::new();
        for entry in lengths.iter().map_err(failed)? {
            let (tenant, _) = entry.map_err(failed)?;
            out.push(tenant.value().to_string());
        }
        Ok(out)
    }
}

#[async_trait::async_trait]
impl LobbyStore for EmbeddedStore {
    async fn lobby_append(
        &self,
        tenant: &str,
        first: u64,
        entries: &[Vec<u8>],
    ) -> Result<(), StoreError> {
        // Committed by the store's writer thread, with the matches' writes waiting at the same moment.
        self.write(Write::Lobby(LobbyAppend {
            tenant: tenant.to_string(),
            first,
            entries: entries.to_vec(),
        }))
        .await
    }

    async fn lobby_read(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LobbyEntry>, StoreError> {
        let tenant = tenant.to_string();
        self.off_runtime(move |redb| redb.lobby_read(&tenant, after, limit))
            .await
    }

    async fn lobby_tenants(&self) -> Result<Vec<String>, StoreError> {
        self.off_runtime(|redb| redb.lobby_tenants()).await
    }
}

/// The memory store's lobby logs.
#[derive(Debug, Default)]
pub(super) struct MemoryLobby {
    logs: Mutex<BTreeMap<String, Vec<Vec<u8>>>>,
}

#[async_trait::async_trait]
impl LobbyStore for MemoryStore {
    async fn lobby_append(
        &self,
        tenant: &str,
        first: u64,
        entries: &[Vec<u8>],
    ) -> Result<(), StoreError> {
        let mut logs = self
            .lobby
            .logs
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let log = logs.entry(tenant.to_string()).or_default();
        if log.len() as u64 + 1 != first {
            return Err(StoreError::Conflict {
                current: log.len() as u64,
            });
        }
        log.extend(entries.iter().cloned());
        Ok(())
    }

    async fn lobby_read(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LobbyEntry>, StoreError> {
        let logs = self
            .lobby
            .logs
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let Some(log) = logs.get(tenant) else {
            return Ok(Vec::new());
        };
        let start = usize::try_from(after).unwrap_or(usize::MAX).min(log.len());
        Ok(log[start..]
            .iter()
            .take(limit)
            .zip(start as u64 + 1..)
            .map(|(bytes, seq)| LobbyEntry {
                seq,
                bytes: bytes.clone(),
            })
            .collect())
    }

    async fn lobby_tenants(&self) -> Result<Vec<String>, StoreError> {
        let logs = self
            .lobby
            .logs
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Ok(logs.keys().cloned().collect())
    }
}

/// Appends entries if the log holds exactly `first - 1`: `{0, last}` written, `{1, length}` not.
/// KEYS: 1 the tenant's log (a list). ARGV: 1 first, 2 the tenant, 3 the channel, 4… the entries. The set of
/// tenants with a log is written before, by a command of its own (a script keeps to one hash slot, `redis/keys.rs`).
const LOBBY_APPEND: &str = r#"#!lua
local length = redis.call('LLEN', KEYS[1])
if length + 1 ~= tonumber(ARGV[1]) then return {1, length} end
local last = redis.call('RPUSH', KEYS[1], unpack(ARGV, 4))
redis.call('PUBLISH', ARGV[3], ARGV[2] .. ' ' .. last)
return {0, last}
"#;

/// How many entries one Redis read returns at most (the lobby reads on in pages).
const REDIS_PAGE: usize = 1000;

#[async_trait::async_trait]
impl LobbyStore for RedisStore {
    async fn lobby_append(
        &self,
        tenant: &str,
        first: u64,
        entries: &[Vec<u8>],
    ) -> Result<(), StoreError> {
        let keys = self.keys();
        let log = keys.lobby(tenant);
        // Listed with its first entry, before it: a tenant listed with an empty log reads as one without.
        let (outcome, length, mut con): (u8, u64, _) = self
            .with(|mut con| async {
                if first == 1 {
                    redis::cmd("SADD")
                        .arg(keys.lobby_tenants())
                        .arg(tenant)
                        .query_async::<()>(&mut con)
                        .await?;
                }
                let script = redis::Script::new(LOBBY_APPEND);
                let mut invocation = script.key(&log);
                invocation.arg(first).arg(tenant).arg(keys.lobby_channel());
                for bytes in entries {
                    invocation.arg(bytes.as_slice());
                }
                let (outcome, length) = invocation.invoke_async(&mut con).await?;
                Ok((outcome, length, con))
            })
            .await?;
        match outcome {
            0 => {
                self.replicated(&mut con, log.as_bytes(), "the lobby's entry")
                    .await
            }
            _ => Err(StoreError::Conflict { current: length }),
        }
    }

    async fn lobby_read(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<LobbyEntry>, StoreError> {
        let limit = limit.clamp(1, REDIS_PAGE);
        let Ok(start) = isize::try_from(after) else {
            return Ok(Vec::new());
        };
        let stop = start.saturating_add(limit as isize - 1);
        let entries: Vec<Vec<u8>> = self
            .with(|mut con| async move {
                redis::cmd("LRANGE")
                    .arg(self.keys().lobby(tenant))
                    .arg(start)
                    .arg(stop)
                    .query_async(&mut con)
                    .await
            })
            .await?;
        Ok(entries
            .into_iter()
            .zip(after + 1..)
            .map(|(bytes, seq)| LobbyEntry { seq, bytes })
            .collect())
    }

    async fn lobby_tenants(&self) -> Result<Vec<String>, StoreError> {
        self.with(|mut con| async move {
            redis::cmd("SMEMBERS")
                .arg(self.keys().lobby_tenants())
                .query_async(&mut con)
                .await
        })
        .await
    }

    fn follow_lobby(
        &self,
        mut sink: Box<dyn FnMut(LobbyAppended) + Send>,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        self.follow_channel(
            self.keys().lobby_channel(),
            "lobby",
            Box::new(move |payload: Option<&[u8]>| {
                let Some(payload) = payload else {
                    return sink(LobbyAppended::Resumed);
                };
                // "<tenant> <seq>"; tenant ids have no spaces. Anything else is not ours: read everything again.
                let text = String::from_utf8_lossy(payload);
                match text
                    .rsplit_once(' ')
                    .and_then(|(tenant, seq)| Some((tenant, seq.parse().ok()?)))
                {
                    Some((tenant, seq)) => sink(LobbyAppended::Entry {
                        tenant: tenant.to_string(),
                        seq,
                    }),
                    None => sink(LobbyAppended::Resumed),
                }
            }),
            stop,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What every lobby store must do.
    async fn appends_are_checked_and_read_back_in_order(store: &dyn LobbyStore, tenant: &str) {
        assert!(store.lobby_read(tenant, 0, 10).await.unwrap().is_empty());
        let one = |bytes: &[u8]| vec![bytes.to_vec()];
        assert!(matches!(
            store.lobby_append(tenant, 2, &one(b"two")).await,
            Err(StoreError::Conflict { current: 0 })
        ));
        store.lobby_append(tenant, 1, &one(b"one")).await.unwrap();
        assert!(matches!(
            store.lobby_append(tenant, 1, &one(b"again")).await,
            Err(StoreError::Conflict { current: 1 })
        ));
        store
            .lobby_append(tenant, 2, &[b"two".to_vec(), b"three".to_vec()])
            .await
            .unwrap();
        let all = store.lobby_read(tenant, 0, 10).await.unwrap();
        assert_eq!(
            all.iter()
                .map(|e| (e.seq, e.bytes.as_slice()))
                .collect::<Vec<_>>(),
            [(1, &b"one"[..]), (2, b"two"), (3, b"three")]
        );
        let page = store.lobby_read(tenant, 1, 1).await.unwrap();
        assert_eq!(
            page,
            [LobbyEntry {
                seq: 2,
                bytes: b"two".to_vec()
            }]
        );
        assert!(store.lobby_read(tenant, 3, 10).await.unwrap().is_empty());
        assert!(store
            .lobby_read(tenant, u64::MAX, 10)
            .await
            .unwrap()
            .is_empty());
        assert!(store
            .lobby_tenants()
            .await
            .unwrap()
            .contains(&tenant.to_string()));
        assert!(store
            .lobby_read("nobody-here", 0, 10)
            .await
            .unwrap()
            .is_empty());
    }

    #[tokio::test]
    async fn the_memory_store_keeps_checked_lobby_logs() {
        appends_are_checked_and_read_back_in_order(&MemoryStore::new(), "acme").await;
    }

    #[tokio::test]
    async fn the_embedded_store_keeps_checked_lobby_logs_across_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        appends_are_checked_and_read_back_in_order(
            &EmbeddedStore::open(dir.path()).unwrap(),
            "acme",
        )
        .await;
        let reopened = EmbeddedStore::open(dir.path()).unwrap();
        assert_eq!(reopened.lobby_read("acme", 0, 10).await.unwrap().len(), 3);
        // Tenant ids sort next to each other: one tenant's range never reaches into the next's.
        reopened
            .lobby_append("acme-2", 1, &[b"x".to_vec()])
            .await
            .unwrap();
        assert_eq!(reopened.lobby_read("acme", 0, 10).await.unwrap().len(), 3);
        reopened
            .lobby_append("", 1, &[b"anonymous".to_vec()])
            .await
            .unwrap();
        assert_eq!(reopened.lobby_read("", 0, 10).await.unwrap().len(), 1);
    }

    #[tokio::test]
    async fn the_redis_store_keeps_checked_lobby_logs() {
        let url = crate::store::test_redis_url();
        let prefix = format!("mancala-test-lobby-{}:", std::process::id());
        let store = RedisStore::open(&url, &prefix, Some(std::time::Duration::from_secs(60)))
            .await
            .unwrap();
        let tenant = format!("t{}", std::process::id());
        appends_are_checked_and_read_back_in_order(&store, &tenant).await;
    }
}
