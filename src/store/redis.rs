//! [`RedisStore`]: matches in Redis, shared by every replica of the server (`[matches] store = "redis"`).
//!
//! Keys, each under `matches.redis_key_prefix` (`P`, default `mancala:`), with the match id in a hash
//! tag so that one match's keys would share a Redis Cluster slot:
//!
//! | key | type | holds |
//! |---|---|---|
//! | `P m:{id}` | hash | `v`: the version (the log's length), `h`: the header in the shared codec |
//! | `P log:{id}` | list | the events in the shared codec; event `seq` is at index `seq - 1` |
//! | `P req:{id}:<request_id>` | string | the `seq` a `request_id` produced, expiring after `redis_request_ttl_ms` |
//! | `P ids` | sorted set | every match id (score 0, so ordered by id: the pages of `ListMatches`) |
//! | `P finished` | sorted set | finished match ids scored by when they finished (the retention purge) |
//!
//! The one write that matters, [`MatchStore::append`], is a Lua script ([`APPEND`]), so Redis runs it
//! whole, with nothing in between: it refuses a `request_id` it already holds, checks that the stored
//! version is `seq - 1`, pushes the event, rewrites the header, sets the idempotency key with its TTL,
//! indexes a finished match, and publishes the event on the channel `P events`. Two replicas that
//! race for one version therefore get exactly one `Ok`; the other gets [`StoreError::Conflict`] and
//! catches up from the log. Publishing inside the script means that a replica killed right after
//! its append has still told the others.
//!
//! Every replica follows that channel ([`MatchStore::follow`]) on a thread of its own and feeds the
//! events to the watchers of the matches it holds; a message it missed (a gap in `seq`, a lost
//! connection) is read back from the log, which stays the authority.
//!
//! Durability is Redis's own: with `appendonly yes` and `appendfsync always` an acknowledged move
//! survives a crash of Redis too; with `everysec` up to a second of moves can be lost with it.
//!
//! The client is redis-rs' async [`ConnectionManager`]: one multiplexed connection that every call shares
//! (requests from many matches are pipelined on it) and that reconnects by itself, with backoff, once it
//! finds the connection dropped. A command that was in flight when the connection dropped fails (the match
//! manager reports it to its caller); nothing is retried here, so an append is never applied twice behind
//! the client's back: the client's `request_id` is what makes retrying it safe. The store's methods are async
//! and await their reply on the caller's task: no call holds a thread while Redis answers. The connection's
//! own task runs on the runtime the store was opened on (the server's). The followers of the channels
//! ([`MatchStore::follow`] and the lobby's and tenants' feeds) are the exception: each is a thread of its own
//! with a blocking subscription, which waits for messages and nothing else.
//! `rediss://` connects with TLS (rustls), trusting the system's CA roots (`SSL_CERT_FILE` or
//! `SSL_CERT_DIR` point elsewhere). `?protocol=resp3` in the URL also lets the manager notice a dropped
//! connection while idle, before a call fails on it.

use super::{
    codec, Appended, EventRecord, ListQuery, MatchId, MatchRecord, MatchStore, StoreError,
    StoredMatch, SEATS,
};
use crate::engine::Player;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, RedisError, RedisResult, Script};
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How long connecting, and each command, may take before the store reports a failure.
const IO_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest wait between two attempts of the connection manager to reconnect.
const RECONNECT_BACKOFF_MAX: Duration = Duration::from_secs(2);
/// How often the follower thread wakes to see whether it should stop.
const FOLLOW_POLL: Duration = Duration::from_millis(250);
/// The longest wait between attempts to reconnect the follower.
const FOLLOW_BACKOFF_MAX: Duration = Duration::from_secs(2);
/// Ids read per round trip while listing.
const LIST_BATCH: usize = 200;

/// The check-and-append; see the module doc. Returns `{0, seq}` (appended), `{1, version}`
/// (the stored version is not `seq - 1`, or the request was already applied at that version), or
/// `{2, 0}` (no such match).
///
/// KEYS: 1 header hash, 2 log list, 3 request key, 4 finished set, 5 the tenant's active set.
/// ARGV: 1 seq, 2 header, 3 event, 4 "1" when there is a request id, 5 its TTL in ms ("0":
/// none), 6 finished-at ms ("" while active), 7 the id, 8 the channel, 9 the message.
pub const APPEND: &str = r#"
local version = redis.call('HGET', KEYS[1], 'v')
if not version then return {2, 0} end
version = tonumber(version)
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[3]) == 1 then return {1, version} end
if version + 1 ~= tonumber(ARGV[1]) then return {1, version} end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'h', ARGV[2])
if ARGV[4] == '1' then
  if ARGV[5] == '0' then
    redis.call('SET', KEYS[3], ARGV[1])
  else
    redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[5])
  end
end
if ARGV[6] ~= '' then
  redis.call('ZADD', KEYS[4], ARGV[6], ARGV[7])
  redis.call('SREM', KEYS[5], ARGV[7])
end
redis.call('PUBLISH', ARGV[8], ARGV[9])
return {0, tonumber(ARGV[1])}
"#;

/// Creates a match unless its tenant has `max` unfinished ones: `{0, n}` created (n: the tenant's active
/// matches before), `{1, n}` refused.
/// KEYS: 1 header hash, 2 ids, 3 the tenant's active set. ARGV: 1 version, 2 header, 3 the id, 4 max ("0":
/// none).
const CREATE: &str = r#"
local active = redis.call('SCARD', KEYS[3])
if redis.call('EXISTS', KEYS[1]) == 1 then return {0, active} end
local max = tonumber(ARGV[4])
if max > 0 and active >= max then return {1, active} end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'h', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[3])
redis.call('SADD', KEYS[3], ARGV[3])
return {0, active}
"#;

/// Deletes one finished match if it is still there; returns 1 if it deleted it.
/// KEYS: 1 header, 2 log, 3 ids, 4 finished. ARGV: 1 the id.
const PURGE: &str = r#"
local removed = redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[1], KEYS[2])
return removed
"#;

/// Matches in Redis.
pub struct RedisStore {
    client: Client,
    prefix: String,
    request_ttl: Option<Duration>,
    /// Cloned for each call: the clones share the one multiplexed connection.
    connection: ConnectionManager,
    append: Script,
    create: Script,
    purge: Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the URL: it may hold a password.
        f.debug_struct("RedisStore")
            .field("server", &self.server())
            .field("prefix", &self.prefix)
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

fn failed(error: RedisError) -> StoreError {
    StoreError::Failed(format!("redis: {error}"))
}

/// The message published for an appended event: the match id (16 bytes), then the event.
fn published(id: &MatchId, event: &[u8]) -> Vec<u8> {
    let mut message = Vec::with_capacity(16 + event.len());
    message.extend_from_slice(&id.0);
    message.extend_from_slice(event);
    message
}

impl RedisStore {
    /// Connects to `url` (failing now, with a one-line reason, if Redis does not answer) and
    /// keeps its keys under `prefix`. The connection's task runs on the runtime this is awaited on.
    pub async fn open(
        url: &str,
        prefix: &str,
        request_ttl: Option<Duration>,
    ) -> Result<RedisStore, StoreError> {
        // rediss:// builds a rustls config, which needs a process-wide crypto provider: ring, the
        // only one compiled in. An error only means one is installed already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = Client::open(url)
            .map_err(|_| StoreError::Failed("matches.redis_url is not a Redis URL".into()))?;
        let server = client.get_connection_info().addr().to_string();
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(IO_TIMEOUT))
            .set_response_timeout(Some(IO_TIMEOUT))
            .set_max_delay(RECONNECT_BACKOFF_MAX);
        let connection = ConnectionManager::new_with_config(client.clone(), config)
            .await
            .map_err(|e| StoreError::Failed(format!("cannot reach Redis at {server}: {e}")))?;
        let store = RedisStore {
            client,
            prefix: prefix.to_string(),
            request_ttl,
            connection,
            append: Script::new(APPEND),
            create: Script::new(CREATE),
            purge: Script::new(PURGE),
        };
        let scripts = [&store.append, &store.purge, &store.create];
        store
            .with(|mut con| async move {
                redis::cmd("PING").query_async::<()>(&mut con).await?;
                // Load the scripts once, so that appends go by EVALSHA from the start.
                for script in scripts {
                    script.load_async(&mut con).await?;
                }
                Ok(())
            })
            .await
            .map_err(|e| StoreError::Failed(format!("Redis at {server} does not answer: {e}")))?;
        Ok(store)
    }

    /// `host:port` of the server, for logs and errors (never the password).
    pub fn server(&self) -> String {
        self.client.get_connection_info().addr().to_string()
    }

    /// Runs `work` on a clone of the shared connection and awaits it. Nothing is retried: the connection
    /// manager reconnects by itself after a dropped connection, and the call that saw it drop fails.
    pub(super) async fn with<T, F>(
        &self,
        work: impl FnOnce(ConnectionManager) -> F,
    ) -> Result<T, StoreError>
    where
        F: Future<Output = RedisResult<T>>,
    {
        work(self.connection.clone()).await.map_err(failed)
    }

    fn header_key(&self, id: &MatchId) -> String {
        format!("{}m:{{{id}}}", self.prefix)
    }

    fn log_key(&self, id: &MatchId) -> String {
        format!("{}log:{{{id}}}", self.prefix)
    }

    fn request_key(&self, id: &MatchId, request_id: &str) -> Vec<u8> {
        let mut key = format!("{}req:{{{id}}}:", self.prefix).into_bytes();
        key.extend_from_slice(request_id.as_bytes());
        key
    }

    fn ids_key(&self) -> String {
        format!("{}ids", self.prefix)
    }

    /// The set of a tenant's unfinished matches (its size is what `limits.max_active_matches` bounds).
    fn active_key(&self, tenant: &str) -> String {
        format!("{}active:{tenant}", self.prefix)
    }

    /// When each seat of a match last had a stream open on some replica (`seat_seen`).
    fn seen_key(&self, id: &MatchId) -> String {
        format!("{}seen:{{{id}}}", self.prefix)
    }

    fn finished_key(&self) -> String {
        format!("{}finished", self.prefix)
    }

    /// The channel every append is published on.
    pub fn channel(&self) -> String {
        format!("{}events", self.prefix)
    }

    /// The header and the events after `after`, read atomically.
    async fn read(&self, id: &MatchId, after: u64) -> Result<Option<StoredMatch>, StoreError> {
        // `after` may be past the log (u64::MAX: the header alone); `as isize` would wrap it to -1, the last event.
        let start = isize::try_from(after).unwrap_or(isize::MAX);
        let (header, raw): (Option<Vec<u8>>, Vec<Vec<u8>>) = self
            .with(|mut con| async move {
                redis::pipe()
                    .atomic()
                    .hget(self.header_key(id), "h")
                    .lrange(self.log_key(id), start, -1)
                    .query_async(&mut con)
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
}

#[async_trait::async_trait]
impl MatchStore for RedisStore {
    async fn create(
        &self,
        record: &MatchRecord,
        max_active: Option<u64>,
    ) -> Result<(), StoreError> {
        let id = record.id;
        let (outcome, active): (u8, u64) = self
            .with(|mut con| async move {
                self.create
                    .key(self.header_key(&id))
                    .key(self.ids_key())
                    .key(self.active_key(&record.tenant))
                    .arg(record.version)
                    .arg(codec::encode_match(record))
                    .arg(id.to_string())
                    .arg(max_active.unwrap_or(0))
                    .invoke_async(&mut con)
                    .await
            })
            .await?;
        match outcome {
            0 => Ok(()),
            _ => Err(StoreError::TooManyActive { active }),
        }
    }

    async fn unfinished_count(&self, tenant: &str) -> Result<u64, StoreError> {
        self.with(|mut con| async move {
            redis::cmd("SCARD")
                .arg(self.active_key(tenant))
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
        let encoded = codec::encode_event(event);
        let ttl = self.request_ttl.map_or(0, |ttl| ttl.as_millis().max(1));
        let finished_at = record
            .finished
            .map_or(String::new(), |f| f.at_ms.to_string());
        let (outcome, version): (u8, u64) = self
            .with(|mut con| async move {
                self.append
                    .key(self.header_key(&id))
                    .key(self.log_key(&id))
                    .key(self.request_key(&id, &event.request_id))
                    .key(self.finished_key())
                    .key(self.active_key(&record.tenant))
                    .arg(event.seq)
                    .arg(codec::encode_match(record))
                    .arg(&encoded)
                    .arg(if event.request_id.is_empty() {
                        "0"
                    } else {
                        "1"
                    })
                    .arg(ttl.to_string())
                    .arg(&finished_at)
                    .arg(id.to_string())
                    .arg(self.channel())
                    .arg(published(&id, &encoded))
                    .invoke_async(&mut con)
                    .await
            })
            .await?;
        match outcome {
            0 => Ok(()),
            1 => Err(StoreError::Conflict { current: version }),
            _ => Err(StoreError::NotFound),
        }
    }

    async fn list(&self, query: &ListQuery) -> Result<Vec<MatchRecord>, StoreError> {
        let mut out = Vec::new();
        let mut after = query.after;
        while out.len() < query.limit {
            let start = after.map_or("-".to_string(), |id| format!("({id}"));
            let ids: Vec<String> = self
                .with(|mut con| async move {
                    redis::cmd("ZRANGEBYLEX")
                        .arg(self.ids_key())
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
            let Some(last) = ids.last() else { break };
            after = Some(*last);
            let batch = &ids;
            let headers: Vec<Option<Vec<u8>>> = self
                .with(|mut con| async move {
                    let mut pipe = redis::pipe();
                    for id in batch {
                        pipe.hget(self.header_key(id), "h");
                    }
                    pipe.query_async(&mut con).await
                })
                .await?;
            for (id, header) in ids.iter().zip(headers) {
                // Purged between the two reads.
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
        let ids: Vec<String> = self
            .with(|mut con| async move {
                redis::cmd("ZRANGEBYSCORE")
                    .arg(self.finished_key())
                    .arg("-inf")
                    .arg(format!("({cutoff_ms}"))
                    .query_async(&mut con)
                    .await
            })
            .await?;
        let mut purged = Vec::new();
        for id in ids.iter().filter_map(|id| MatchId::parse(id)) {
            // Several replicas may purge at once: each match is reported by the one that deleted it.
            let removed: u8 = self
                .with(|mut con| async move {
                    self.purge
                        .key(self.header_key(&id))
                        .key(self.log_key(&id))
                        .key(self.ids_key())
                        .key(self.finished_key())
                        .arg(id.to_string())
                        .invoke_async(&mut con)
                        .await
                })
                .await?;
            if removed == 1 {
                purged.push(id);
            }
        }
        Ok(purged)
    }

    async fn seat_seen(&self, id: &MatchId, seat: Player, at_ms: u64) -> Result<(), StoreError> {
        let key = self.seen_key(id);
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
        let key = self.seen_key(id);
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

    fn follow(
        &self,
        mut sink: Box<dyn FnMut(Appended) + Send>,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        self.follow_channel(
            self.channel(),
            "appends",
            Box::new(move |payload: Option<&[u8]>| {
                let Some(payload) = payload else {
                    // Whatever was published while nobody listened is in the log: catch up now.
                    return sink(Appended::Resumed);
                };
                let Some((id, event)) = payload.split_first_chunk::<16>() else {
                    tracing::warn!(
                        bytes = payload.len(),
                        "ignored a malformed message on the channel of appends"
                    );
                    return;
                };
                sink(Appended::Event {
                    id: MatchId(*id),
                    event: event.to_vec(),
                });
            }),
            stop,
        )
    }
}

impl RedisStore {
    /// The key prefix.
    pub(super) fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Follows `channel` on a thread of its own until `stop`: `sink` gets each message's payload, and `None`
    /// whenever the subscription (re)starts (what was published meanwhile was missed).
    pub(super) fn follow_channel(
        &self,
        channel: String,
        what: &'static str,
        sink: ChannelSink,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        let follower = Follower {
            client: self.client.clone(),
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

/// What a followed channel's messages go to: each payload, and `None` when the subscription (re)starts.
pub(super) type ChannelSink = Box<dyn FnMut(Option<&[u8]>) + Send>;

/// Reads one channel and hands each message to its sink.
struct Follower {
    client: Client,
    channel: String,
    what: &'static str,
    server: String,
    sink: ChannelSink,
    stop: Arc<AtomicBool>,
}

impl Follower {
    fn run(mut self) {
        let mut backoff = Duration::from_millis(50);
        let mut connected_before = false;
        while !self.stop.load(Ordering::Acquire) {
            match self.follow(&mut connected_before) {
                Ok(()) => return,
                Err(error) => {
                    tracing::warn!(
                        server = %self.server,
                        channel = self.what,
                        error = %error,
                        retry_ms = backoff.as_millis() as u64,
                        "lost a Redis channel; what it missed is read again once it is back"
                    );
                    std::thread::sleep(backoff);
                    backoff = (backoff * 2).min(FOLLOW_BACKOFF_MAX);
                }
            }
        }
    }

    /// One subscription, until `stop` (`Ok`) or a connection error.
    fn follow(&mut self, connected_before: &mut bool) -> Result<(), RedisError> {
        let mut con = self.client.get_connection_with_timeout(IO_TIMEOUT)?;
        con.set_write_timeout(Some(IO_TIMEOUT))?;
        let mut pubsub = con.as_pubsub();
        pubsub.subscribe(&self.channel)?;
        pubsub.set_read_timeout(Some(FOLLOW_POLL))?;
        if std::mem::replace(connected_before, true) {
            tracing::info!(server = %self.server, channel = self.what, "following a Redis channel again");
        }
        (self.sink)(None);
        loop {
            if self.stop.load(Ordering::Acquire) {
                return Ok(());
            }
            let message = match pubsub.get_message() {
                Ok(message) => message,
                Err(error) if error.is_timeout() => continue,
                Err(error) => return Err(error),
            };
            (self.sink)(Some(message.get_payload_bytes()));
        }
    }
}

/// Value conversions the pipelines above rely on, checked without a server.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_message_is_the_id_then_the_event() {
        let id = MatchId([9; 16]);
        let message = published(&id, b"event");
        let (head, rest) = message.split_first_chunk::<16>().unwrap();
        assert_eq!(MatchId(*head), id);
        assert_eq!(rest, b"event");
    }

    #[tokio::test]
    async fn a_read_past_the_log_is_the_header_alone() {
        use crate::engine::{GameKind, Move, Options, Player, Sow};
        use crate::store::{Action, EventRecord, MatchRecord};
        let url = crate::store::test_redis_url();
        let prefix = format!("mancala-test-read-past-{}:", std::process::id());
        let store = RedisStore::open(&url, &prefix, Some(Duration::from_secs(60)))
            .await
            .unwrap();
        let mut record = MatchRecord {
            id: MatchId([7; 16]),
            kind: GameKind::BaAwa,
            options: Options::default(),
            created_ms: 1,
            token_hashes: [[1; 32], [2; 32], [0; 32]],
            tenant: "acme".into(),
            players: [None, None, None],
            bots: [None, None, None],
            active_ms: 1,
            version: 0,
            finished: None,
            time_control: Default::default(),
            deadline_ms: None,
        };
        store.create(&record, None).await.unwrap();
        record.version = 1;
        let event = EventRecord {
            seq: 1,
            player: Player::South,
            action: Action::Move(Move::Sow(Sow::from(3))),
            request_id: String::new(),
            at_ms: 2,
        };
        store.append(&record, &event).await.unwrap();
        for after in [1, 2, u64::MAX] {
            let read = store
                .events_after(&record.id, after)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(read.record, record, "after {after}");
            assert!(read.events.is_empty(), "after {after}: {:?}", read.events);
        }
        assert_eq!(
            store
                .events_after(&record.id, 0)
                .await
                .unwrap()
                .unwrap()
                .events,
            [event]
        );
    }

    #[test]
    fn scripts_name_their_keys_and_arguments_as_append_passes_them() {
        // A guard against editing one side only: the script reads ARGV[1]..ARGV[9], KEYS[1]..KEYS[5].
        for n in 1..=9 {
            assert!(APPEND.contains(&format!("ARGV[{n}]")), "ARGV[{n}]");
        }
        assert!(!APPEND.contains("ARGV[10]"));
        for n in 1..=5 {
            assert!(APPEND.contains(&format!("KEYS[{n}]")), "KEYS[{n}]");
        }
        assert!(!APPEND.contains("KEYS[6]"));
        for n in 1..=4 {
            assert!(CREATE.contains(&format!("ARGV[{n}]")), "ARGV[{n}]");
        }
        for n in 1..=3 {
            assert!(CREATE.contains(&format!("KEYS[{n}]")), "KEYS[{n}]");
        }
    }
}
