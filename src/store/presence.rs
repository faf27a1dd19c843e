//! Who is online: each player of a tenant holding his event stream open on some server, and when each was last
//! seen so. Apart from the lobby's log because presence is not history: it changes with every connection and is
//! forgotten when it lapses, so it is kept beside the log, not in it (an entry per connection would wake every
//! stream of the tenant).
//!
//! A server says, for each player with a stream open on it, that it holds him until a time a little ahead
//! (`hold`), and says so again before that time while the stream stays open; when his last stream there closes it
//! lets go (`release`). A player is online while some server's hold has not lapsed: a server that dies without
//! letting go stops counting when its holds lapse. Over Redis every replica sees every hold; the embedded and
//! memory stores, which one server alone uses, keep them in memory.

use super::{RedisStore, StoreError};
use crate::sync::lock;
use std::collections::HashMap;
use std::sync::Mutex;

/// One player's presence, as a lookup answers it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    /// Some server holds him now.
    pub online: bool,
    /// The latest time a server held or released him, in milliseconds since the Unix epoch (0: never).
    pub last_seen_ms: u64,
}

/// Keeps the players' presence; every method is awaited.
#[async_trait::async_trait]
pub trait PresenceStore: Send + Sync + 'static {
    /// `holder` (one server) holds `player` of `tenant` until `until_ms`; he was seen at `now_ms`.
    async fn presence_hold(
        &self,
        tenant: &str,
        player: &str,
        holder: &str,
        now_ms: u64,
        until_ms: u64,
    ) -> Result<(), StoreError>;

    /// `holder` lets go of `player` (his last stream there closed at `now_ms`).
    async fn presence_release(
        &self,
        tenant: &str,
        player: &str,
        holder: &str,
        now_ms: u64,
    ) -> Result<(), StoreError>;

    /// The presence of each of `players` at `now_ms`, in their order.
    async fn presence_of(
        &self,
        tenant: &str,
        players: &[String],
        now_ms: u64,
    ) -> Result<Vec<Presence>, StoreError>;
}

/// One player's holds in memory: until when each holder holds him, and when he was last seen.
#[derive(Debug, Default)]
struct Held {
    holders: HashMap<String, u64>,
    last_seen_ms: u64,
}

/// Presence in this server's memory: the embedded and memory stores', which no other server shares.
#[derive(Debug, Default)]
pub struct LocalPresence {
    players: Mutex<HashMap<(String, String), Held>>,
}

#[async_trait::async_trait]
impl PresenceStore for LocalPresence {
    async fn presence_hold(
        &self,
        tenant: &str,
        player: &str,
        holder: &str,
        now_ms: u64,
        until_ms: u64,
    ) -> Result<(), StoreError> {
        let mut players = lock(&self.players);
        let held = players
            .entry((tenant.to_string(), player.to_string()))
            .or_default();
        held.holders.insert(holder.to_string(), until_ms);
        held.last_seen_ms = held.last_seen_ms.max(now_ms);
        Ok(())
    }

    async fn presence_release(
        &self,
        tenant: &str,
        player: &str,
        holder: &str,
        now_ms: u64,
    ) -> Result<(), StoreError> {
        let mut players = lock(&self.players);
        let held = players
            .entry((tenant.to_string(), player.to_string()))
            .or_default();
        held.holders.remove(holder);
        held.last_seen_ms = held.last_seen_ms.max(now_ms);
        Ok(())
    }

    async fn presence_of(
        &self,
        tenant: &str,
        players: &[String],
        now_ms: u64,
    ) -> Result<Vec<Presence>, StoreError> {
        let held = lock(&self.players);
        Ok(players
            .iter()
            .map(|player| {
                held.get(&(tenant.to_string(), player.clone())).map_or_else(
                    Presence::default,
                    |held| Presence {
                        online: held.holders.values().any(|&until| until > now_ms),
                        last_seen_ms: held.last_seen_ms,
                    },
                )
            })
            .collect())
    }
}

/// A hold: the holder's member of the tenant's sorted set, scored by when it lapses (lapsed ones pruned).
/// KEYS: 1 the holds (a sorted set of "<player> <holder>"). ARGV: 1 the member, 2 now, 3 until (empty: release).
const PRESENCE_HOLD: &str = r#"#!lua
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 0
"#;

/// The player's last-seen time raised, never lowered. KEYS: 1 last seen (a hash player → ms). ARGV: 1 the player,
/// 2 now. A script of its own: the holds and the times are two keys, which a cluster may place on two nodes.
const PRESENCE_SEEN: &str = r#"#!lua
local seen = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if seen < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return 0
"#;

impl RedisStore {
    async fn presence_set(
        &self,
        tenant: &str,
        player: &str,
        holder: &str,
        now_ms: u64,
        until_ms: Option<u64>,
    ) -> Result<(), StoreError> {
        // Player ids have no spaces (`identity::tokens::player_id_problem`): the first space ends the player.
        let member = format!("{player} {holder}");
        let (holds, seen) = self.keys().presence(tenant);
        self.with(|mut con| async move {
            redis::Script::new(PRESENCE_HOLD)
                .key(holds)
                .arg(member)
                .arg(now_ms)
                .arg(until_ms.map(|until| until.to_string()).unwrap_or_default())
                .invoke_async::<i64>(&mut con)
                .await?;
            redis::Script::new(PRESENCE_SEEN)
                .key(seen)
                .arg(player)
                .arg(now_ms)
                .invoke_async::<i64>(&mut con)
                .await?;
            Ok(())
        })
        .await
    }
}

#[async_trait::async_trait]
impl PresenceStore for RedisStore {
    async fn presence_hold(
        &self,
        tenant: &str,
        player: &str,
        holder: &str,
        now_ms: u64,
        until_ms: u64,
    ) -> Result<(), StoreError> {
        self.presence_set(tenant, player, holder, now_ms, Some(until_ms))
            .await
    }

    async fn presence_release(
        &self,
        tenant: &str,
        player: &str,
        holder: &str,
        now_ms: u64,
    ) -> Result<(), StoreError> {
        self.presence_set(tenant, player, holder, now_ms, None)
            .await
    }

    async fn presence_of(
        &self,
        tenant: &str,
        players: &[String],
        now_ms: u64,
    ) -> Result<Vec<Presence>, StoreError> {
        if players.is_empty() {
            return Ok(Vec::new());
        }
        let (holds, seen) = self.keys().presence(tenant);
        let (live, seen): (Vec<String>, Vec<Option<u64>>) = self
            .with(|mut con| async move {
                // Two keys, perhaps on two nodes: two commands.
                let live = redis::cmd("ZRANGEBYSCORE")
                    .arg(&holds)
                    .arg(format!("({now_ms}"))
                    .arg("+inf")
                    .query_async(&mut con)
                    .await?;
                let seen = redis::cmd("HMGET")
                    .arg(&seen)
                    .arg(players)
                    .query_async(&mut con)
                    .await?;
                Ok((live, seen))
            })
            .await?;
        let online: std::collections::HashSet<&str> = live
            .iter()
            .filter_map(|member| member.split_once(' ').map(|(player, _)| player))
            .collect();
        Ok(players
            .iter()
            .zip(seen)
            .map(|(player, seen)| Presence {
                online: online.contains(player.as_str()),
                last_seen_ms: seen.unwrap_or(0),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What every presence store must do.
    async fn holds_lapse_and_release_and_last_seen_only_grows(
        store: &dyn PresenceStore,
        tenant: &str,
    ) {
        let who = &["ann".to_string(), "bob".to_string()];
        let at = |now| async move { store.presence_of(tenant, who, now).await.unwrap() };
        assert_eq!(at(1_000).await, [Presence::default(); 2]);
        store
            .presence_hold(tenant, "ann", "a", 1_000, 4_000)
            .await
            .unwrap();
        store
            .presence_hold(tenant, "ann", "b", 2_000, 5_000)
            .await
            .unwrap();
        let online = |last_seen_ms| Presence {
            online: true,
            last_seen_ms,
        };
        assert_eq!(at(3_000).await, [online(2_000), Presence::default()]);
        // One server lets go; the other still holds him.
        store
            .presence_release(tenant, "ann", "b", 3_000)
            .await
            .unwrap();
        assert_eq!(at(3_500).await[0], online(3_000));
        // The first server's hold lapses (it died): offline, last seen when last held or released.
        assert_eq!(
            at(4_000).await[0],
            Presence {
                online: false,
                last_seen_ms: 3_000
            }
        );
        // An older hold never moves last seen back.
        store
            .presence_hold(tenant, "ann", "a", 2_500, 9_000)
            .await
            .unwrap();
        assert_eq!(at(4_000).await[0], online(3_000));
        assert_eq!(
            store
                .presence_of("another-tenant", who, 4_000)
                .await
                .unwrap(),
            [Presence::default(); 2]
        );
    }

    #[tokio::test]
    async fn the_local_presence_holds_lapses_and_releases() {
        holds_lapse_and_release_and_last_seen_only_grows(&LocalPresence::default(), "acme").await;
    }

    #[tokio::test]
    async fn the_redis_presence_holds_lapses_and_releases_for_every_replica() {
        let url = crate::store::test_redis_url();
        let prefix = format!("mancala-test-presence-{}:", std::process::id());
        let store = RedisStore::open(&url, &prefix, Some(std::time::Duration::from_secs(60)))
            .await
            .unwrap();
        holds_lapse_and_release_and_last_seen_only_grows(&store, "acme").await;
    }
}
