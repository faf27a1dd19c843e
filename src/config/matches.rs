//! `[matches]`, `[clock]`, `[bots]` and `[lobby]`: the server-held matches, where they are kept, their clocks,
//! the seats the server plays, and the lobby above them.

use std::{path::PathBuf, time::Duration};

use serde::{Deserialize, Deserializer};

use super::de::{millis, millis_zero_is_none};

/// `[matches]`: server-held matches.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSettings {
    /// Where matches are kept: `embedded` (a redb file in `data_dir`, durable) or `memory`.
    pub store: StoreKind,
    /// The directory of the embedded store's file `mancala.redb` (created if missing). A relative
    /// path is relative to the server's working directory.
    pub data_dir: PathBuf,
    /// How long a finished match is kept before it is deleted (`0`: forever).
    #[serde(rename = "retention_ms", deserialize_with = "millis_zero_is_none")]
    pub retention: Option<Duration>,
    /// Spectators' `WatchMatch` streams (no seat token) open at once on one match; more are
    /// RESOURCE_EXHAUSTED. The players' own streams are not counted (see `max_streams_per_seat`).
    pub max_watchers_per_match: usize,
    /// Spectators' `WatchMatch` streams open at once on the server; more are RESOURCE_EXHAUSTED.
    pub max_watchers_total: usize,
    /// `WatchMatch` streams one seat (its token) may have open at once on its match (a few devices);
    /// kept apart from the spectators' limits, so spectators can never lock a player out.
    pub max_streams_per_seat: usize,
    /// An idle watch stream gets a heartbeat this often (`0`: never).
    #[serde(
        rename = "heartbeat_interval_ms",
        deserialize_with = "millis_zero_is_none"
    )]
    pub heartbeat_interval: Option<Duration>,
    /// Events a watcher may fall behind before it is resynchronised with a snapshot.
    pub watcher_buffer: usize,
    /// The Redis server of the `redis` store, `redis://[:password@]host:port[/db]` (`rediss://`
    /// for TLS), or a Redis Cluster by its seed nodes, `redis+cluster://[:password@]host:port,host:port…`
    /// (`rediss+cluster://`). Never logged whole: it may carry a password.
    pub redis_url: String,
    /// Prepended to every key and channel the `redis` store uses, so that several deployments
    /// (or test runs) can share one Redis.
    pub redis_key_prefix: String,
    /// How long the `redis` store keeps a `request_id` as an idempotency key of its own (`0`:
    /// forever). Retries are answered from the match's log regardless; see `crate::store`.
    #[serde(
        rename = "redis_request_ttl_ms",
        deserialize_with = "millis_zero_is_none"
    )]
    pub redis_request_ttl: Option<Duration>,
    /// The replicas of its Redis primary a write must reach before the `redis` store acknowledges it (Redis's
    /// `WAIT`; `0`: the primary alone, replication left asynchronous).
    pub redis_wait_replicas: u32,
    /// How long a write waits for `redis_wait_replicas`; short of them by then it fails UNAVAILABLE.
    #[serde(rename = "redis_wait_timeout_ms", deserialize_with = "millis")]
    pub redis_wait_timeout: Duration,
    /// An unfinished match with no event for this long ends, with no winner (end reason EXPIRED),
    /// and is then kept for `retention_ms` like any finished match (`0`: never).
    #[serde(rename = "idle_expiry_ms", deserialize_with = "millis_zero_is_none")]
    pub idle_expiry: Option<Duration>,
}

/// Where matches are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreKind {
    /// One redb file in `matches.data_dir`: survives restarts and crashes.
    Embedded,
    /// In memory: lost when the process ends.
    Memory,
    /// In Redis at `matches.redis_url`: shared by every replica of the server.
    Redis,
}

impl std::str::FromStr for StoreKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "embedded" => Ok(StoreKind::Embedded),
            "memory" => Ok(StoreKind::Memory),
            "redis" => Ok(StoreKind::Redis),
            _ => Err(format!(
                "{s:?} is not a match store (expected \"embedded\", \"memory\" or \"redis\")"
            )),
        }
    }
}

impl<'de> Deserialize<'de> for StoreKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// `[clock]`: the clocks of server-held matches (`CreateMatchRequest.time_control`; docs/guide/clocks.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSettings {
    /// How long a timed real-time match (Fischer or delay) waits for each seat's first sowing before the server
    /// aborts it (no result). Correspondence gives a whole turn; untimed matches are never aborted by the server.
    #[serde(rename = "abort_after_ms", deserialize_with = "millis")]
    pub abort_after: Duration,
    /// How long the seat to move must have had no open `WatchMatch` stream before its opponent may claim the
    /// win (`ClaimVictory`).
    #[serde(rename = "abandon_after_ms", deserialize_with = "millis")]
    pub abandon_after: Duration,
    /// The longest initial time, increment or delay a time control may have.
    pub max_initial_ms: u64,
    /// How often every unfinished timed match is read for a deadline this server does not know of yet (a flag
    /// due on a match another replica was keeping, before it stopped). At start-up the same read settles every
    /// overdue match at once. `0`: only at start-up.
    #[serde(rename = "sweep_interval_ms", deserialize_with = "millis_zero_is_none")]
    pub sweep_interval: Option<Duration>,
}

/// `[bots]`: the seats of server-held matches that the server plays itself (`CreateMatchRequest.bots`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSettings {
    /// How long after the previous event a bot's move is played at the earliest (the search itself runs at
    /// once; this only keeps a fast bot from answering before a person has seen the board). `0`: at once.
    #[serde(rename = "think_delay_ms", deserialize_with = "millis")]
    pub think_delay: Duration,
    /// The strongest level `CreateMatch` accepts (1 to the engine's top level): the higher levels search
    /// longer on the engine pool.
    pub max_level: u32,
    /// Bot searches running at once on this server: the threads of the engine pool's bot lane, kept for the
    /// server's own bots so that callers' searches never delay them (docs/guide/engine-work.md); the others wait
    /// their turn, those of bots on a clock sharing the lane equally with those of bots without. At least 1.
    pub max_thinking: usize,
    /// How often every unfinished match is checked for a bot move nobody is playing (the server that wrote the
    /// previous event died, or restarted), and over a shared store how long such a move is left to that
    /// server first. The check also runs once at start-up. `0`: only at start-up.
    #[serde(rename = "sweep_interval_ms", deserialize_with = "millis_zero_is_none")]
    pub sweep_interval: Option<Duration>,
}

/// `[lobby]`: challenges, seeks and the streams of players and tenants (docs/guide/lobby-and-bots.md).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbySettings {
    /// How long a challenge waits for an answer when the request does not say.
    #[serde(rename = "challenge_ttl_ms", deserialize_with = "millis")]
    pub challenge_ttl: Duration,
    /// The longest wait a challenge may ask for.
    #[serde(rename = "max_challenge_ttl_ms", deserialize_with = "millis")]
    pub max_challenge_ttl: Duration,
    /// How long a seek stays open when the request does not say (also its longest).
    #[serde(rename = "seek_ttl_ms", deserialize_with = "millis")]
    pub seek_ttl: Duration,
    /// A player's pending challenges and open seeks at once (RESOURCE_EXHAUSTED beyond).
    pub max_pending_per_player: usize,
    /// How often a player's or tenant's stream sends a heartbeat while nothing else happens.
    #[serde(rename = "heartbeat_ms", deserialize_with = "millis")]
    pub heartbeat: Duration,
    /// How often challenges and seeks are checked for expiry and a seek for its fallback to the built-in opponent
    /// (so these happen up to this late).
    #[serde(rename = "sweep_interval_ms", deserialize_with = "millis")]
    pub sweep_interval: Duration,
    /// How often the lobby compares its record of the tenants' matches with the match store, recording a creation,
    /// first move or end that a server stopped before recording (`kill -9` between the two writes), and creating a
    /// lobby match whose creation was cut short. Also once at start-up.
    #[serde(rename = "repair_interval_ms", deserialize_with = "millis")]
    pub repair_interval: Duration,
    /// `WatchPlayerEvents` streams one player may hold open on one server (and `WatchTenantFeed` streams one tenant).
    pub max_streams_per_player: usize,
}

/// Where `matches.redis_url` points: one Redis, or the seed nodes of a Redis Cluster.
#[derive(Clone, Debug)]
pub enum RedisAt {
    /// `redis://[:password@]host:port[/db]` or `rediss://…`.
    Single(Box<redis::ConnectionInfo>),
    /// `redis+cluster://[user:password@]host:port,host:port…[/?options]` (`rediss+cluster://` with TLS): the seeds,
    /// any of which tells the client the rest, each with the credentials and options of the URL.
    Cluster(Vec<redis::ConnectionInfo>),
}

impl RedisAt {
    /// Reads `url`. The error says what is wrong without repeating the URL, which may hold a password.
    pub fn parse(url: &str) -> Result<RedisAt, String> {
        use redis::IntoConnectionInfo;
        let cluster = [
            ("redis+cluster://", "redis://"),
            ("rediss+cluster://", "rediss://"),
        ]
        .into_iter()
        .find_map(|(scheme, single)| Some((url.strip_prefix(scheme)?, single)));
        let Some((rest, scheme)) = cluster else {
            return url
                .into_connection_info()
                .map(|info| RedisAt::Single(Box::new(info))).map_err(|_| {
                "matches.redis_url is not a Redis URL (expected redis://[:password@]host:port[/db], rediss://…, \
                 or redis+cluster://host:port,host:port…)"
                    .to_string()
            });
        };
        let end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(end);
        let (user, hosts) = match authority.rfind('@') {
            Some(at) => authority.split_at(at + 1),
            None => ("", authority),
        };
        let seeds = hosts
            .split(',')
            .filter(|host| !host.trim().is_empty())
            .map(|host| format!("{scheme}{user}{}{tail}", host.trim()).into_connection_info())
            .collect::<redis::RedisResult<Vec<_>>>()
            .map_err(|_| {
                "matches.redis_url: a seed node of redis+cluster:// is not host:port".to_string()
            })?;
        if seeds.is_empty() {
            return Err("matches.redis_url: redis+cluster:// names no seed node".into());
        }
        if seeds.iter().any(|seed| seed.redis_settings().db() != 0) {
            return Err("matches.redis_url: a Redis Cluster has database 0 only".into());
        }
        Ok(RedisAt::Cluster(seeds))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_url_names_its_seeds_with_the_credentials_and_options_of_each() {
        let Ok(RedisAt::Cluster(seeds)) =
            RedisAt::parse("redis+cluster://:secret@10.0.0.1:7000,10.0.0.2:7001/?protocol=resp3")
        else {
            panic!("a cluster")
        };
        let addrs: Vec<String> = seeds.iter().map(|s| s.addr().to_string()).collect();
        assert_eq!(addrs, ["10.0.0.1:7000", "10.0.0.2:7001"]);
        for seed in &seeds {
            assert_eq!(seed.redis_settings().password(), Some("secret"));
            assert_eq!(
                seed.redis_settings().protocol(),
                redis::ProtocolVersion::RESP3
            );
        }
        assert!(matches!(
            RedisAt::parse("redis://127.0.0.1:6379"),
            Ok(RedisAt::Single(_))
        ));
        assert!(matches!(
            RedisAt::parse("rediss+cluster://a:1,b:2"),
            Ok(RedisAt::Cluster(seeds)) if seeds.len() == 2
        ));
    }

    #[test]
    fn a_bad_cluster_url_says_what_is_wrong_without_repeating_it() {
        for (url, problem) in [
            ("redis+cluster://", "names no seed node"),
            ("redis+cluster://:pw@,", "names no seed node"),
            ("redis+cluster://h:1/3", "database 0 only"),
            ("redis+cluster://h:notaport", "is not host:port"),
            ("http://:pw@h:1", "is not a Redis URL"),
        ] {
            let error = RedisAt::parse(url).err().unwrap_or_else(|| panic!("{url}"));
            assert!(error.contains(problem), "{url}: {error}");
            assert!(!error.contains("pw"), "{error}");
        }
    }
}
