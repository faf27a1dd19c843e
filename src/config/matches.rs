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
    /// for TLS). Never logged whole: it may carry a password.
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
