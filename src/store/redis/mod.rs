//! [`RedisStore`]: matches in Redis, shared by every replica of the server (`[matches] store = "redis"`), on one
//! Redis or on a Redis Cluster (`redis+cluster://`, `connection.rs`).
//!
//! The keys are listed, with the rule that makes them fit a cluster (a script keeps to one hash slot), in
//! `keys.rs`. The one write that matters, [`MatchStore::append`], is a Lua script ([`APPEND`]) on the match's own
//! keys, so Redis runs it whole, with nothing in between: it refuses a `request_id` it already holds, checks that the
//! stored version is `seq - 1`, pushes the event, rewrites the header (with when the match finished, if it did), sets
//! the idempotency key with its TTL, and publishes the event on the match's sharded channel (`SPUBLISH`). Two
//! replicas that race for one version therefore get exactly one `Ok`; the other gets [`StoreError::Conflict`] and
//! catches up from the log. Publishing inside the script means that a replica killed right after its append has
//! still told the others.
//!
//! What concerns more than one match lives in keys of its own, in other slots, written beside the script:
//! - the retention purge's index of finished matches is written *before* a finishing append (an entry for a match
//!   that did not finish after all is checked, and kept, by the purge, which deletes a match only if its header says
//!   it finished before the cutoff);
//! - the tenant's set of unfinished matches, which bounds `limits.max_active_matches`, gains a match before its
//!   header is created and loses it *after* its finishing append; a server killed in between leaves a finished match
//!   counted, which the next creation the limit refuses prunes (it drops every member whose header says finished);
//! - the listing's index of ids is written before the header.
//!
//! Every script starts `#!lua` (Redis 7): a script so declared counts as a write, which a replica never runs but
//! redirects to its primary. The cluster client's connections to the nodes are all `READONLY`, so that a replica
//! would otherwise answer a script from its own copy, stale or (a node that just rejoined) empty, whenever the
//! client's slot map is behind a failover.
//!
//! Each replica follows the sharded channels of the matches it holds (`shards.rs`) and feeds the events to their
//! watchers; a message it missed (a gap in `seq`, a lost connection, a slot that moved) is read back from the log,
//! which stays the authority.
//!
//! Durability is Redis's own, and its replication's: with `appendonly yes` and `appendfsync always` an acknowledged
//! move survives a crash of Redis too; with `matches.redis_wait_replicas` = n > 0 a write is acknowledged only once
//! `WAIT` says n replicas of its primary have it, so a failover that promotes one of them keeps it (`WAIT` makes the
//! write reach them, not their disks). Short of n within `redis_wait_timeout_ms`, the call fails UNAVAILABLE: the
//! write may or may not survive, and a retry with the same `request_id` is answered from the log either way.
//!
//! The client is redis-rs': on one Redis the [`ConnectionManager`](redis::aio::ConnectionManager), one multiplexed
//! connection that every call shares and that reconnects by itself; on a cluster its async cluster client, a
//! multiplexed connection per node that follows MOVED and ASK and retries after a failover. A command whose
//! connection dropped while it was in flight fails (the match manager reports it to its caller); an append is never
//! applied twice behind the client's back: the client's `request_id` is what makes retrying it safe. The store's
//! methods are async and await their reply on the caller's task. The followers of the classic channels (the lobby's
//! and tenants' feeds) are threads of their own with a blocking subscription. `rediss://` connects with TLS
//! (rustls), trusting the system's CA roots.

pub(super) mod connection;
mod follower;
mod keys;
mod shards;

use self::connection::{Connection, Shared, Target, IO_TIMEOUT};
pub(super) use self::follower::ChannelSink;
use self::follower::Follower;
pub(in crate::store) use self::keys::Keys;
use self::shards::{Interest, Shards};
use super::{
    codec, Appended, EventRecord, ListQuery, MatchId, MatchRecord, MatchStore, StoreError,
    StoredMatch, SEATS,
};
use crate::engine::Player;
use redis::{RedisError, RedisResult, Script};
use std::future::Future;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Ids read per round trip while listing.
const LIST_BATCH: usize = 200;

/// The check-and-append; see the module doc. Returns `{0, seq}` (appended), `{1, version}`
/// (the stored version is not `seq - 1`, or the request was already applied at that version), or
/// `{2, 0}` (no such match).
///
/// KEYS: 1 header hash, 2 log list, 3 request key. ARGV: 1 seq, 2 header, 3 event, 4 "1" when there is a request
/// id, 5 its TTL in ms ("0": none), 6 finished-at ms ("" while active), 7 the match's sharded channel.
pub const APPEND: &str = r#"#!lua
local version = redis.call('HGET', KEYS[1], 'v')
if not version then return {2, 0} end
version = tonumber(version)
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[3]) == 1 then return {1, version} end
if version + 1 ~= tonumber(ARGV[1]) then return {1, version} end
redis.call('RPUSH', KEYS[2], ARGV[3])
if ARGV[6] == '' then
  redis.call('HSET', KEYS[1], 'v', ARGV[1], 'h', ARGV[2])
else
  redis.call('HSET', KEYS[1], 'v', ARGV[1], 'h', ARGV[2], 'f', ARGV[6])
end
if ARGV[4] == '1' then
  if ARGV[5] == '0' then
    redis.call('SET', KEYS[3], ARGV[1])
  else
    redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[5])
  end
end
redis.call('SPUBLISH', ARGV[7], ARGV[3])
return {0, tonumber(ARGV[1])}
"#;

/// A match's header and its events from index ARGV[1] on. KEYS: 1 header, 2 log.
const READ: &str = r#"#!lua
return {redis.call('HGET', KEYS[1], 'h'), redis.call('LRANGE', KEYS[2], ARGV[1], -1)}
"#;

/// Counts a match among its tenant's unfinished ones unless the tenant has `max`: `{0, n}` counted (n: the
/// tenant's unfinished matches before), `{1, n}` refused. A match counted already is counted once.
/// KEYS: 1 the tenant's set of unfinished matches. ARGV: 1 the id, 2 max ("0": none).
const RESERVE: &str = r#"#!lua
local active = redis.call('SCARD', KEYS[1])
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return {0, active - 1} end
local max = tonumber(ARGV[2])
if max > 0 and active >= max then return {1, active} end
redis.call('SADD', KEYS[1], ARGV[1])
return {0, active}
"#;

/// Writes a new match's header unless it exists. KEYS: 1 header. ARGV: 1 version, 2 header.
const CREATE: &str = r#"#!lua
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'h', ARGV[2])
return 1
"#;

/// Deletes a match that finished before the cutoff: 1 deleted, 0 gone already, 2 kept (not finished, or since).
/// KEYS: 1 header, 2 log, 3 seats seen. ARGV: 1 the cutoff (ms).
const PURGE: &str = r#"#!lua
local finished = redis.call('HGET', KEYS[1], 'f')
if not finished then
  if redis.call('EXISTS', KEYS[1]) == 1 then return 2 end
  return 0
end
if tonumber(finished) >= tonumber(ARGV[1]) then return 2 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
"#;

/// Moves a finished match of the single index of earlier versions into its bucket, its header marked finished.
/// KEYS: 1 header. ARGV: 1 finished-at (ms).
const MARK_FINISHED: &str = r#"#!lua
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'f', ARGV[1]) end
return 0
"#;

/// What `matches.redis_wait_replicas` asks of each write.
#[derive(Clone, Copy, Debug)]
struct Replicated {
    /// Replicas of the primary that must have the write before it is acknowledged.
    replicas: u32,
    /// How long to wait for them.
    timeout: Duration,
}

/// Matches in Redis.
pub struct RedisStore {
    target: Target,
    keys: Keys,
    request_ttl: Option<Duration>,
    replicated: Option<Replicated>,
    /// Cloned for each call: the clones share the connection (or, on a cluster, the connection to each node).
    connection: Arc<Shared>,
    /// The runtime the store was opened on, where the matches' feed runs.
    runtime: tokio::runtime::Handle,
    shards: Shards,
    append: Script,
    read: Script,
    reserve: Script,
    create: Script,
    purge: Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the URL: it may hold a password.
        f.debug_struct("RedisStore")
            .field("servers", &self.server())
            .field("prefix", &self.keys.prefix())
            .finish_non_exhaustive()
    }
}

/// How long a seat's last sighting is kept after the last refresh: far beyond any abandonment time, and gone with
/// the match soon after it is.
const SEEN_TTL_MS: u64 = 7 * 24 * 60 * 60 * 1000;

/// A seat's field in the hash of sightings.
fn seat_field(seat: Player) -> &'static str {
    match seat {
        Player::South => "S",
        Player::North => "N",
        Player::East => "E",
    }
}

impl RedisStore {
    /// Connects to `url` (one Redis, or a cluster's seeds with `redis+cluster://`), failing now, with a one-line
    /// reason, if it does not answer, and keeps its keys under `prefix`. The connection's tasks run on the runtime
    /// this is awaited on.
    pub async fn open(
        url: &str,
        prefix: &str,
        request_ttl: Option<Duration>,
    ) -> Result<RedisStore, StoreError> {
        // rediss:// builds a rustls config, which needs a process-wide crypto provider: ring, the
        // only one compiled in. An error only means one is installed already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let target = Target::parse(url).map_err(StoreError::Failed)?;
        let server = target.servers();
        let connection = tokio::time::timeout(IO_TIMEOUT * 2, target.connect())
            .await
            .map_err(|_| StoreError::Failed(format!("cannot reach Redis at {server}: timed out")))?
            .map_err(|e| StoreError::Failed(format!("cannot reach Redis at {server}: {e}")))?;
        let store = RedisStore {
            target: target.clone(),
            keys: Keys::new(prefix),
            request_ttl,
            replicated: None,
            connection: Arc::new(Shared::new(target.clone(), connection)),
            runtime: tokio::runtime::Handle::current(),
            shards: Shards::new(),
            append: Script::new(APPEND),
            read: Script::new(READ),
            reserve: Script::new(RESERVE),
            create: Script::new(CREATE),
            purge: Script::new(PURGE),
        };
        let scripts = [
            &store.append,
            &store.read,
            &store.reserve,
            &store.create,
            &store.purge,
        ];
        store
            .with(|mut con| async move {
                redis::cmd("PING").query_async::<()>(&mut con).await?;
                // Load the scripts once (on every primary of a cluster), so that appends go by EVALSHA from the start.
                for script in scripts {
                    script.load_async(&mut con).await?;
                }
                Ok(())
            })
            .await
            .map_err(|e| StoreError::Failed(format!("Redis at {server} does not answer: {e}")))?;
        store.move_legacy_indexes().await?;
        Ok(store)
    }

    /// Acknowledges a write (a match's creation or append, a lobby append, a tenant's change) only once `replicas`
    /// replicas of its primary have it, waiting at most `timeout` (`WAIT`); 0 acknowledges it once the primary has it.
    pub fn require_replicas(mut self, replicas: u32, timeout: Duration) -> RedisStore {
        self.replicated = (replicas > 0).then_some(Replicated { replicas, timeout });
        self
    }

    /// `host:port` of the server, or the cluster's seeds, for logs and errors (never the password).
    pub fn server(&self) -> String {
        self.target.servers()
    }

    /// Runs `work` on a clone of the shared connection and awaits it. Nothing is retried here: the connection
    /// reconnects by itself after a dropped connection (the cluster client retries what a failover interrupted).
    pub(super) async fn with<T, F>(
        &self,
        work: impl FnOnce(Connection) -> F,
    ) -> Result<T, StoreError>
    where
        F: Future<Output = RedisResult<T>>,
    {
        work(self.connection.get())
            .await
            .map_err(|error| self.failed(error))
    }

    /// A failed command's error for the caller, after the connection had a look at it (`connection::Shared`).
    fn failed(&self, error: RedisError) -> StoreError {
        self.connection.noticed(&error, &self.runtime);
        StoreError::Failed(format!("redis: {error}"))
    }

    /// The names of the keys.
    pub(super) fn keys(&self) -> &Keys {
        &self.keys
    }

    /// After a write sent on `con` to the slot of `key`: waits for the replicas `matches.redis_wait_replicas` asks
    /// for, UNAVAILABLE if they are not reached in time.
    pub(super) async fn replicated(
        &self,
        con: &mut Connection,
        key: &[u8],
        what: &str,
    ) -> Result<(), StoreError> {
        let Some(Replicated { replicas, timeout }) = self.replicated else {
            return Ok(());
        };
        let reached = con
            .wait(keys::slot(key), replicas, timeout)
            .await
            .map_err(|error| self.failed(error))?;
        if reached >= replicas {
            return Ok(());
        }
        Err(StoreError::Unavailable(format!(
            "{what} reached {reached} of the {replicas} Redis replicas matches.redis_wait_replicas asks for within \
             {} ms: it may or may not be kept; retry with the same request_id",
            timeout.as_millis()
        )))
    }

    /// Moves the single id indexes of earlier versions (`P ids`, `P finished`) into their buckets, once.
    async fn move_legacy_indexes(&self) -> Result<(), StoreError> {
        let keys = &self.keys;
        let (ids, finished): (Vec<String>, Vec<(String, u64)>) = self
            .with(|mut con| async move {
                let ids = redis::cmd("ZRANGE")
                    .arg(keys.legacy_ids())
                    .arg(0)
                    .arg(-1)
                    .query_async(&mut con)
                    .await?;
                let finished = redis::cmd("ZRANGE")
                    .arg(keys.legacy_finished())
                    .arg(0)
                    .arg(-1)
                    .arg("WITHSCORES")
                    .query_async(&mut con)
                    .await?;
                Ok((ids, finished))
            })
            .await?;
        if ids.is_empty() && finished.is_empty() {
            return Ok(());
        }
        let mark = Script::new(MARK_FINISHED);
        for id in ids.iter().filter_map(|id| MatchId::parse(id)) {
            let _: () = self
                .with(|mut con| async move {
                    redis::cmd("ZADD")
                        .arg(keys.ids(Keys::bucket(&id)))
                        .arg(0)
                        .arg(id.to_string())
                        .query_async(&mut con)
                        .await
                })
                .await?;
        }
        for (id, at) in finished.iter() {
            let Some(id) = MatchId::parse(id) else {
                continue;
            };
            let mark = &mark;
            let _: () = self
                .with(|mut con| async move {
                    mark.key(keys.header(&id))
                        .arg(*at)
                        .invoke_async::<()>(&mut con)
                        .await?;
                    redis::cmd("ZADD")
                        .arg(keys.finished(Keys::bucket(&id)))
                        .arg(*at)
                        .arg(id.to_string())
                        .query_async(&mut con)
                        .await
                })
                .await?;
        }
        self.with(|mut con| async move {
            redis::cmd("DEL")
                .arg(keys.legacy_ids())
                .query_async::<()>(&mut con)
                .await?;
            redis::cmd("DEL")
                .arg(keys.legacy_finished())
                .query_async::<()>(&mut con)
                .await
        })
        .await?;
        tracing::info!(
            matches = ids.len(),
            finished = finished.len(),
            "moved the match indexes of an earlier version into their buckets"
        );
        Ok(())
    }

    /// The header and the events after `after`, read atomically (a script, not a transaction: a cluster client
    /// follows a script's redirection, not a transaction's).
    async fn read(&self, id: &MatchId, after: u64) -> Result<Option<StoredMatch>, StoreError> {
        // `after` may be past the log (u64::MAX: the header alone); `as isize` would wrap it to -1, the last event.
        let start = isize::try_from(after).unwrap_or(isize::MAX);
        let (header, raw): (Option<Vec<u8>>, Vec<Vec<u8>>) = self
            .with(|mut con| async move {
                self.read
                    .key(self.keys.header(id))
                    .key(self.keys.log(id))
                    .arg(start)
                    .invoke_async(&mut con)
                    .await
            })
            .await?;
        let Some(header) = header else {
            return Ok(None);
        };
        let record = codec::decode_match(*id, &header)?;
        let events = raw
            .iter()
            .map(|bytes| codec::decode_event(&record, bytes))
            .collect::<Result<Vec<_>, _>>()?;
        if events.len() as u64 != record.version.saturating_sub(after)
            || events
                .iter()
                .zip(after.saturating_add(1)..)
                .any(|(e, seq)| e.seq != seq)
        {
            return Err(StoreError::Failed(format!(
                "match {id}: the log holds {} events after {after} for version {}",
                events.len(),
                record.version
            )));
        }
        Ok(Some(StoredMatch { record, events }))
    }

    /// Counts match `id` among `tenant`'s unfinished ones, unless it is at `max` even once the matches that finished
    /// behind a server's back (killed between its finishing append and the count's update) are taken off it.
    async fn reserve(&self, tenant: &str, id: &MatchId, max: u64) -> Result<(), StoreError> {
        let active_key = self.keys.active(tenant);
        for pruned in [false, true] {
            let active_key = &active_key;
            let (outcome, active): (u8, u64) = self
                .with(|mut con| async move {
                    self.reserve
                        .key(active_key)
                        .arg(id.to_string())
                        .arg(max)
                        .invoke_async(&mut con)
                        .await
                })
                .await?;
            if outcome == 0 {
                return Ok(());
            }
            if pruned || self.prune_active(active_key).await? == 0 {
                return Err(StoreError::TooManyActive { active });
            }
        }
        unreachable!("the loop returns")
    }

    /// Takes the matches whose header says finished off a tenant's set of unfinished ones; how many.
    async fn prune_active(&self, active_key: &str) -> Result<usize, StoreError> {
        let members: Vec<String> = self
            .with(|mut con| async move {
                redis::cmd("SMEMBERS")
                    .arg(active_key)
                    .query_async(&mut con)
                    .await
            })
            .await?;
        let ids: Vec<MatchId> = members.iter().filter_map(|m| MatchId::parse(m)).collect();
        let commands = ids
            .iter()
            .map(|id| {
                let mut hexists = redis::cmd("HEXISTS");
                hexists.arg(self.keys.header(id)).arg("f");
                hexists
            })
            .collect();
        let finished: Vec<bool> = self
            .with(|con| async move { con.each(commands).await })
            .await?;
        let done: Vec<String> = ids
            .iter()
            .zip(finished)
            .filter(|(_, finished)| *finished)
            .map(|(id, _)| id.to_string())
            .collect();
        let pruned = done.len();
        if pruned > 0 {
            let _: () = self
                .with(|mut con| async move {
                    redis::cmd("SREM")
                        .arg(active_key)
                        .arg(done)
                        .query_async(&mut con)
                        .await
                })
                .await?;
        }
        Ok(pruned)
    }
}

#[async_trait::async_trait]
impl MatchStore for RedisStore {
    async fn create(
        &self,
        record: &MatchRecord,
        max_active: Option<u64>,
    ) -> Result<(), StoreError> {
        let id = record.id;
        let keys = &self.keys;
        // Indexed for the listing first (a listing skips an id without a header), then looked for: a creation that
        // is retried, or made by two replicas, happens once and counts once.
        let mut index = redis::cmd("ZADD");
        index
            .arg(keys.ids(Keys::bucket(&id)))
            .arg(0)
            .arg(id.to_string());
        let mut exists = redis::cmd("EXISTS");
        exists.arg(keys.header(&id));
        let answers: Vec<i64> = self
            .with(|con| async move { con.each(vec![index, exists]).await })
            .await?;
        if answers.get(1) == Some(&1) {
            return Ok(());
        }
        self.reserve(&record.tenant, &id, max_active.unwrap_or(0))
            .await?;
        let header = keys.header(&id);
        let mut con = self.connection.get();
        self.create
            .key(&header)
            .arg(record.version)
            .arg(codec::encode_match(record))
            .invoke_async::<u8>(&mut con)
            .await
            .map_err(|error| self.failed(error))?;
        self.replicated(&mut con, header.as_bytes(), "the match's creation")
            .await
    }

    async fn unfinished_count(&self, tenant: &str) -> Result<u64, StoreError> {
        self.with(|mut con| async move {
            redis::cmd("SCARD")
                .arg(self.keys.active(tenant))
                .query_async(&mut con)
                .await
        })
        .await
    }

    async fn load(&self, id: &MatchId) -> Result<Option<StoredMatch>, StoreError> {
        self.read(id, 0).await
    }

    async fn events_after(
        &self,
        id: &MatchId,
        after: u64,
    ) -> Result<Option<StoredMatch>, StoreError> {
        self.read(id, after).await
    }

    async fn append(&self, record: &MatchRecord, event: &EventRecord) -> Result<(), StoreError> {
        let id = record.id;
        let keys = &self.keys;
        let encoded = codec::encode_event(event);
        let ttl = self.request_ttl.map_or(0, |ttl| ttl.as_millis().max(1));
        let finished_at = record.finished.map(|f| f.at_ms);
        let header = keys.header(&id);
        let mut con = self.connection.get();
        let mut invocation = self.append.key(&header);
        invocation
            .key(keys.log(&id))
            .key(keys.request(&id, &event.request_id))
            .arg(event.seq)
            .arg(codec::encode_match(record))
            .arg(&encoded)
            .arg(if event.request_id.is_empty() {
                "0"
            } else {
                "1"
            })
            .arg(ttl.to_string())
            .arg(finished_at.map_or(String::new(), |at| at.to_string()))
            .arg(keys.events(&id));
        let append = invocation.invoke_async::<(u8, u64)>(&mut con);
        // A finishing append is indexed for the purge at the same time (in another slot): the purge checks the
        // header, so an append that loses its race leaves nothing wrong, and one that wins is never left out.
        let mut index = self.connection.get();
        let indexed = async move {
            match finished_at {
                Some(at) => {
                    redis::cmd("ZADD")
                        .arg(keys.finished(Keys::bucket(&id)))
                        .arg(at)
                        .arg(id.to_string())
                        .query_async::<()>(&mut index)
                        .await
                }
                None => Ok(()),
            }
        };
        let (appended, indexed) = tokio::join!(append, indexed);
        let (outcome, version) = appended.map_err(|error| self.failed(error))?;
        indexed.map_err(|error| self.failed(error))?;
        match outcome {
            0 => {}
            1 => return Err(StoreError::Conflict { current: version }),
            _ => return Err(StoreError::NotFound),
        }
        self.replicated(&mut con, header.as_bytes(), "the move")
            .await?;
        if finished_at.is_some() {
            // After: a match is counted until its end is stored (see `reserve` for a server killed in between).
            let _: () = self
                .with(|mut con| async move {
                    redis::cmd("SREM")
                        .arg(keys.active(&record.tenant))
                        .arg(id.to_string())
                        .query_async(&mut con)
                        .await
                })
                .await?;
        }
        Ok(())
    }

    async fn list(&self, query: &ListQuery) -> Result<Vec<MatchRecord>, StoreError> {
        let keys = &self.keys;
        let mut out = Vec::new();
        let mut after = query.after;
        // The buckets hold ids by their first byte: in id order, bucket after bucket.
        let mut bucket = after.as_ref().map_or(0, Keys::bucket);
        while out.len() < query.limit && bucket < keys::BUCKETS {
            let start = after
                .filter(|after| Keys::bucket(after) == bucket)
                .map_or("-".to_string(), |id| format!("({id}"));
            let ids: Vec<String> = self
                .with(|mut con| async move {
                    redis::cmd("ZRANGEBYLEX")
                        .arg(keys.ids(bucket))
                        .arg(&start)
                        .arg("+")
                        .arg("LIMIT")
                        .arg(0)
                        .arg(LIST_BATCH)
                        .query_async(&mut con)
                        .await
                })
                .await?;
            let ids: Vec<MatchId> = ids.iter().filter_map(|id| MatchId::parse(id)).collect();
            let Some(last) = ids.last() else {
                bucket += 1;
                continue;
            };
            after = Some(*last);
            let commands = ids
                .iter()
                .map(|id| {
                    let mut hget = redis::cmd("HGET");
                    hget.arg(keys.header(id)).arg("h");
                    hget
                })
                .collect();
            let headers: Vec<Option<Vec<u8>>> = self
                .with(|con| async move { con.each(commands).await })
                .await?;
            for (id, header) in ids.iter().zip(headers) {
                // Purged between the two reads, or a creation that failed.
                let Some(header) = header else { continue };
                let record = codec::decode_match(*id, &header)?;
                if query.matches(&record) && out.len() < query.limit {
                    out.push(record);
                }
            }
        }
        Ok(out)
    }

    async fn purge_finished_before(&self, cutoff_ms: u64) -> Result<Vec<MatchId>, StoreError> {
        let keys = &self.keys;
        let commands = (0..keys::BUCKETS)
            .map(|bucket| {
                let mut range = redis::cmd("ZRANGEBYSCORE");
                range
                    .arg(keys.finished(bucket))
                    .arg("-inf")
                    .arg(format!("({cutoff_ms}"));
                range
            })
            .collect();
        let buckets: Vec<Vec<String>> = self
            .with(|con| async move { con.each(commands).await })
            .await?;
        let mut purged = Vec::new();
        for id in buckets.iter().flatten().filter_map(|id| MatchId::parse(id)) {
            // Several replicas may purge at once: each match is reported by the one that deleted it.
            let outcome: u8 = self
                .with(|mut con| async move {
                    self.purge
                        .key(keys.header(&id))
                        .key(keys.log(&id))
                        .key(keys.seats_seen(&id))
                        .arg(cutoff_ms)
                        .invoke_async(&mut con)
                        .await
                })
                .await?;
            if outcome == 2 {
                continue;
            }
            let bucket = Keys::bucket(&id);
            let _: () = self
                .with(|mut con| async move {
                    redis::cmd("ZREM")
                        .arg(keys.finished(bucket))
                        .arg(id.to_string())
                        .query_async::<()>(&mut con)
                        .await?;
                    redis::cmd("ZREM")
                        .arg(keys.ids(bucket))
                        .arg(id.to_string())
                        .query_async(&mut con)
                        .await
                })
                .await?;
            if outcome == 1 {
                purged.push(id);
            }
        }
        Ok(purged)
    }

    async fn seat_seen(&self, id: &MatchId, seat: Player, at_ms: u64) -> Result<(), StoreError> {
        let key = self.keys.seats_seen(id);
        self.with(|mut con| async move {
            // Each server writes its own "now"; one slightly behind another can set the time back by a few
            // milliseconds at most, nothing an abandonment time of seconds notices.
            redis::pipe()
                .cmd("HSET")
                .arg(&key)
                .arg(seat_field(seat))
                .arg(at_ms)
                .ignore()
                .cmd("PEXPIRE")
                .arg(&key)
                .arg(SEEN_TTL_MS)
                .ignore()
                .query_async::<()>(&mut con)
                .await
        })
        .await
    }

    async fn seats_seen(&self, id: &MatchId) -> Result<[u64; SEATS], StoreError> {
        let key = self.keys.seats_seen(id);
        let seen: (Option<u64>, Option<u64>, Option<u64>) = self
            .with(|mut con| async move {
                redis::cmd("HMGET")
                    .arg(&key)
                    .arg(seat_field(Player::South))
                    .arg(seat_field(Player::North))
                    .arg(seat_field(Player::East))
                    .query_async(&mut con)
                    .await
            })
            .await?;
        Ok([seen.0, seen.1, seen.2].map(|at| at.unwrap_or(0)))
    }

    fn shared(&self) -> bool {
        true
    }

    fn follow_match(&self, id: &MatchId, follow: bool) {
        self.shards.tell(if follow {
            Interest::Follow(*id)
        } else {
            Interest::Forget(*id)
        });
    }

    fn follow(
        &self,
        sink: Box<dyn FnMut(Appended) + Send>,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        self.shards.start(
            &self.runtime,
            self.target.clone(),
            self.keys.clone(),
            sink,
            stop,
        )
    }
}

impl RedisStore {
    /// Follows the classic channel `channel` on a thread of its own until `stop`: `sink` gets each message's
    /// payload, and `None` whenever the subscription (re)starts (what was published meanwhile was missed).
    pub(super) fn follow_channel(
        &self,
        channel: String,
        what: &'static str,
        sink: ChannelSink,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        let follower = Follower {
            clients: self.target.followable(),
            channel,
            what,
            server: self.server(),
            sink,
            stop,
        };
        std::thread::Builder::new()
            .name(format!("mancala-redis-{what}"))
            .spawn(move || follower.run())
            .map_err(|e| tracing::error!(error = %e, what, "cannot start a Redis follower thread"))
            .ok()
    }
}

#[cfg(test)]
mod tests;
