//! Typed settings of the server, read in three layers, each overriding the one before:
//!
//! 1. the built-in defaults ([`DEFAULTS`], embedded: the server runs with no file at all);
//! 2. an optional TOML file (`mancala serve --config FILE`);
//! 3. environment variables `MANCALA__SECTION__KEY`, e.g. `MANCALA__SERVER__LISTEN=127.0.0.1:0`.
//!    The double underscore keeps them apart from the `MANCALA_SERVICE_HOST`-style variables that
//!    Kubernetes injects for a service named `mancala`.
//!
//! Unknown keys are rejected in every layer, so a typo never silently falls back to a default.
//! Every error is one line naming the key and the layer it came from, fit for stderr.
//! `deploy/mancala.example.toml` documents every key; a test checks it matches [`DEFAULTS`].

use std::{
    collections::HashMap,
    ffi::OsString,
    fmt,
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use serde::{Deserialize, Deserializer};

/// The built-in defaults, the lowest configuration layer.
pub const DEFAULTS: &str = r#"
[server]
listen = "0.0.0.0:50051"
max_message_bytes = 1048576
concurrency_limit_per_connection = 256
max_concurrent_streams = 1024
request_timeout_ms = 30000
shutdown_grace_ms = 10000
tcp_nodelay = true
tcp_keepalive_ms = 60000
http2_keepalive_interval_ms = 30000
http2_keepalive_timeout_ms = 10000
max_connections = 10000
max_connections_per_address = 100
handshake_timeout_ms = 10000
idle_timeout_ms = 300000
max_connection_age_ms = 1800000
max_connection_age_grace_ms = 30000
health_listen = ""
echo = true
cors_allowed_origins = ""

[log]
format = "plain"
filter = "info"

[matches]
store = "embedded"
data_dir = "data"
retention_ms = 604800000
max_watchers_per_match = 64
max_watchers_total = 10000
max_streams_per_seat = 4
heartbeat_interval_ms = 15000
watcher_buffer = 64
redis_url = "redis://127.0.0.1:6379"
redis_key_prefix = "mancala:"
redis_request_ttl_ms = 604800000
idle_expiry_ms = 604800000

[clock]
abort_after_ms = 60000
abandon_after_ms = 60000
max_initial_ms = 86400000
sweep_interval_ms = 10000

[bots]
think_delay_ms = 300
max_level = 6
max_thinking = 2
sweep_interval_ms = 10000

[lobby]
challenge_ttl_ms = 600000
max_challenge_ttl_ms = 604800000
seek_ttl_ms = 600000
max_pending_per_player = 20
heartbeat_ms = 15000
sweep_interval_ms = 1000
repair_interval_ms = 60000
max_streams_per_player = 4

[auth]
required = false
operator_key_sha256 = ""
player_token_secret = ""
player_token_max_ttl_ms = 86400000
failures_before_backoff = 20
failure_window_ms = 60000
backoff_initial_ms = 1000
backoff_max_ms = 300000

[limits]
calls_per_second = 1000
burst = 2000
max_active_matches = 10000
max_watchers = 1000
calls_per_second_per_player = 100
burst_per_player = 200
max_active_matches_per_player = 100
max_watchers_per_player = 32

[addresses]
calls_per_second = 1000
burst = 2000
max_active_matches = 20
max_watchers = 32
max_tracked = 100000

[metrics]
listen = ""

[telemetry]
otlp_endpoint = ""
service_name = "mancala"
sample_ratio = 1.0

[engine]
pool_threads = 0
queue_limit = 64
inline_laps = 100000
rules_budget_laps = 500000000
match_budget_laps = 2000000000
quick_threads = 1
quick_search_laps = 20000
max_long_calls_per_caller = 2

[search]
default_level = 4
max_iterations = 200000
max_time_ms = 10000

[tls]
cert_file = ""
key_file = ""
client_ca_file = ""
"#;

/// The prefix of the environment variables read as configuration.
pub const ENV_PREFIX: &str = "MANCALA";
/// The separator between prefix, section and key in those variables.
pub const ENV_SEPARATOR: &str = "__";

/// All the settings of the server.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// `[server]`: the listener, limits and timeouts.
    pub server: ServerSettings,
    /// `[log]`: the log format and filter.
    pub log: LogSettings,
    /// `[matches]`: server-held matches: storage, retention, watcher limits.
    pub matches: MatchSettings,
    /// `[metrics]`: the Prometheus endpoint.
    pub metrics: MetricsSettings,
    /// `[telemetry]`: OpenTelemetry traces sent over OTLP (off unless an endpoint is given).
    pub telemetry: TelemetrySettings,
    /// `[engine]`: how much rules work a call may do, and where it runs.
    pub engine: EngineSettings,
    /// `[search]`: what the built-in opponent's calls (`SuggestMove`, `AnalyzePosition`) may ask.
    pub search: SearchSettings,
    /// `[tls]`: TLS on the gRPC listener, and client certificates.
    pub tls: TlsSettings,
    /// `[auth]`: who may call: tenants' API keys, player tokens, the operator's key.
    pub auth: AuthSettings,
    /// `[limits]`: what one tenant, and each of its players, may use, unless the operator set the tenant's own.
    pub limits: TenantLimits,
    /// `[addresses]`: what one client address may use of the anonymous tenant, and how fast it may make
    /// up seat tokens.
    pub addresses: AddressLimits,
    /// `[clock]`: time controls, flag fall, abort and abandonment of server-held matches.
    pub clock: ClockSettings,
    /// `[bots]`: the built-in opponents that play seats of server-held matches.
    pub bots: BotSettings,
    /// `[lobby]`: challenges, seeks, ratings and the players' event streams.
    pub lobby: LobbySettings,
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

/// `[auth]`: who is calling. See docs/guide/tenants.md.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthSettings {
    /// Every call but health and reflection must carry a tenant's API key, a player token or a seat
    /// token (`authorization: Bearer …`). `false` (the local default): a call without one is the
    /// anonymous tenant's, which sees only the matches created without a key.
    pub required: bool,
    /// SHA-256 (64 hex digits) of the operator's key, which the `Admin` service (tenants and their
    /// keys) requires; empty: the Admin service refuses every call. `mancala operator-key` makes one.
    pub operator_key_sha256: String,
    /// The secret that signs player tokens (at least 32 bytes); empty: one is generated once and kept
    /// in the match store, so every replica over the same store shares it.
    pub player_token_secret: String,
    /// The longest life a player token may be given.
    #[serde(rename = "player_token_max_ttl_ms", deserialize_with = "millis")]
    pub player_token_max_ttl: Duration,
    /// UNAUTHENTICATED answers one client address may get within `failure_window_ms` before it is backed off:
    /// its calls with a credential the server has not seen it use successfully are then refused unchecked
    /// (RESOURCE_EXHAUSTED with a retry delay), so that guessing keys, tokens or seat tokens is slowed. `0`: never.
    pub failures_before_backoff: u32,
    /// The window in which those failures are counted.
    #[serde(rename = "failure_window_ms", deserialize_with = "millis")]
    pub failure_window: Duration,
    /// The first backoff; each failure past the threshold in the same episode doubles it.
    #[serde(rename = "backoff_initial_ms", deserialize_with = "millis")]
    pub backoff_initial: Duration,
    /// The longest backoff.
    #[serde(rename = "backoff_max_ms", deserialize_with = "millis")]
    pub backoff_max: Duration,
}

impl AuthSettings {
    /// The operator key's hash, decoded (validated at load).
    pub fn operator_key_hash(&self) -> Option<[u8; 32]> {
        parse_sha256(&self.operator_key_sha256)
    }
}

/// 64 hex digits as 32 bytes.
fn parse_sha256(hex: &str) -> Option<[u8; 32]> {
    let hex = hex.trim().as_bytes();
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (byte, pair) in out.iter_mut().zip(hex.chunks(2)) {
        let digit = |b: u8| (b as char).to_digit(16);
        *byte = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
    }
    Some(out)
}

/// What one tenant may use (`[limits]` for every tenant; the operator may set a tenant's own). `0`
/// means no limit. Calls are counted per replica; active matches in the shared store, across replicas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TenantLimits {
    /// Calls per second, sustained (a token bucket refilled at this rate).
    pub calls_per_second: u32,
    /// Calls that may come at once after a quiet spell (the bucket's size; at least `calls_per_second`
    /// is sensible).
    pub burst: u32,
    /// Unfinished server-held matches at once.
    pub max_active_matches: u64,
    /// `WatchMatch` streams open at once on one replica.
    pub max_watchers: u32,
    /// Calls per second of one player (a player token's player id), sustained, inside the tenant's own rate:
    /// one player cannot spend the whole tenant's. API-key callers (the tenant's backend, acting for all its
    /// players) are held to the tenant's rate alone.
    pub calls_per_second_per_player: u32,
    /// The burst of one player's bucket.
    pub burst_per_player: u32,
    /// Unfinished matches one player may have created at once (`CreateMatch` with a player token), on one
    /// replica.
    pub max_active_matches_per_player: u64,
    /// Spectators' `WatchMatch` streams one player may hold open at once on one replica.
    pub max_watchers_per_player: u32,
}

/// `[addresses]`: the share of one client address (an IPv4 address, or an IPv6 /64) in the anonymous tenant,
/// which has no player ids to tell its callers apart, and the bucket that calls with a seat token no match
/// knows are charged to. `0` means no limit. Counted on each replica. Behind a proxy or load balancer the
/// address is the proxy's (docs/guide/caller-limits.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddressLimits {
    /// Calls per second of one address without a credential, sustained; also what one address may spend on
    /// seat tokens that open no match.
    pub calls_per_second: u32,
    /// The burst of one address's bucket.
    pub burst: u32,
    /// Unfinished matches one address may have created at once without a credential.
    pub max_active_matches: u64,
    /// Spectators' `WatchMatch` streams (and `WatchTenantFeed` streams) one address may hold open at once
    /// without a credential.
    pub max_watchers: u32,
    /// Addresses (and players) each table of buckets and counts holds at most, so that cycling through
    /// addresses or player ids cannot grow the server's memory without bound. Past it, idle entries are dropped
    /// first; the callers that find no room left share one overflow entry. At least 1.
    pub max_tracked: usize,
}

/// `[tls]`: TLS on the gRPC listener (plaintext unless a certificate and its key are given). The files are
/// read and checked when the configuration loads, so a bad one stops the server before it binds.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlsSettings {
    /// The server's certificate chain, PEM, leaf first; `None` (`""`): plaintext.
    #[serde(deserialize_with = "optional_path")]
    pub cert_file: Option<PathBuf>,
    /// The private key of `cert_file`, PEM (PKCS#8, PKCS#1 or SEC1); set exactly when `cert_file` is.
    #[serde(deserialize_with = "optional_path")]
    pub key_file: Option<PathBuf>,
    /// CA certificates, PEM: when set, every client must present a certificate signed by one of them
    /// (mutual TLS); a client without one is refused in the handshake.
    #[serde(deserialize_with = "optional_path")]
    pub client_ca_file: Option<PathBuf>,
}

/// `[engine]`: bounded engine work. A call first runs inline on the async worker under `inline_laps`; the few
/// that need more (a long relay to decide, docs/guide/security-and-limits.md) run again on the engine pool under
/// their full budget, or are refused when the pool's queue is full.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSettings {
    /// Threads of the engine pool; `0`: half the machine's cores (at least one), so long calls never take
    /// every core from the cheap ones.
    pub pool_threads: usize,
    /// Long calls waiting for a pool thread; more are refused with RESOURCE_EXHAUSTED (`ENGINE_BUSY`).
    pub queue_limit: usize,
    /// Laps a call may spend inline before it moves to the pool (a lap: a relay lap past a move's sixteenth,
    /// or a step of the never-ending check); a budget below it is simply the whole budget, spent inline.
    pub inline_laps: u64,
    /// Laps a stateless Rules call may spend in all; past it the call is refused (`WORK_BUDGET_EXHAUSTED`).
    pub rules_budget_laps: u64,
    /// Laps a move of a server-held match may spend (its positions are reachable in play, so it gets more).
    pub match_budget_laps: u64,
    /// Threads of the engine pool's quick lane, where searches expected short (a hint at a low level) run apart
    /// from the long ones, so that they never wait behind a search of seconds (docs/guide/engine-work.md).
    /// At least 1.
    pub quick_threads: usize,
    /// The most laps a search may spend on the quick lane (a search spends a lap per move it plays, and a long
    /// relay's laps): a search whose budget is expected within it tries the quick lane first, and starts again
    /// on the long lane when it turns out longer. `0`: every search goes to the long lane.
    pub quick_search_laps: u64,
    /// Long calls (searches, Rules calls past `inline_laps`) one caller may have in flight, waiting or running;
    /// more are refused with RESOURCE_EXHAUSTED (`TOO_MANY_LONG_CALLS`). A caller is a player (player token), an
    /// API key, or a client address (anonymous calls). At least 1.
    pub max_long_calls_per_caller: usize,
}

/// `[search]`: the caps on the built-in opponent's searches asked through the Rules service (`SuggestMove`,
/// `AnalyzePosition`). A request above a cap is refused (INVALID_ARGUMENT naming the field and the cap), never
/// clamped: a clamped search would silently answer a different question than the one asked.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSettings {
    /// The level searched when a request names neither a level nor a budget, 1 to
    /// [`TOP_LEVEL`](crate::engine::search::TOP_LEVEL).
    pub default_level: u32,
    /// The most iterations (Monte Carlo playouts, alpha-beta nodes) a search may be asked for, by an explicit
    /// budget or through a level. Must be at least 1.
    pub max_iterations: u64,
    /// The longest time limit a request's budget may set (`0`: requests may set none).
    #[serde(rename = "max_time_ms", deserialize_with = "millis")]
    pub max_time: Duration,
}

impl EngineSettings {
    /// The pool's size, `pool_threads` resolved.
    pub fn pool_size(&self) -> usize {
        if self.pool_threads > 0 {
            return self.pool_threads;
        }
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        (cores / 2).max(1)
    }
}

impl TlsSettings {
    /// The files of a TLS listener, or `None` for plaintext. A key without a certificate (or the other way
    /// round), or client CAs without either, is an error naming the missing key.
    pub fn files(&self) -> Result<Option<crate::tls::Files<'_>>, ConfigError> {
        match (&self.cert_file, &self.key_file) {
            (Some(cert), Some(key)) => Ok(Some(crate::tls::Files {
                cert,
                key,
                client_ca: self.client_ca_file.as_deref(),
            })),
            (Some(_), None) => Err(ConfigError::new(
                "tls.key_file must be set with tls.cert_file (the certificate's private key)",
            )),
            (None, Some(_)) => Err(ConfigError::new(
                "tls.cert_file must be set with tls.key_file (the certificate of that key)",
            )),
            (None, None) if self.client_ca_file.is_some() => Err(ConfigError::new(
                "tls.client_ca_file needs tls.cert_file and tls.key_file (client certificates are part of TLS)",
            )),
            (None, None) => Ok(None),
        }
    }
}

/// `[metrics]`: the Prometheus endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsSettings {
    /// Where `GET /metrics` is served (Prometheus text format); `None` (`""` or `"off"`): nowhere.
    /// Port 0 picks a free port, logged as `metrics listening addr=…`.
    #[serde(deserialize_with = "optional_socket_addr")]
    pub listen: Option<SocketAddr>,
}

/// `[telemetry]`: OpenTelemetry traces, one span per gRPC call, exported over OTLP/gRPC.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TelemetrySettings {
    /// The collector's OTLP/gRPC endpoint, `http://host:4317`; `None` (`""` or `"off"`): no traces are
    /// exported, and the calls' trace context is not read. Plaintext only: the collector is expected to be a
    /// local agent or sidecar.
    #[serde(deserialize_with = "optional_otlp_endpoint")]
    pub otlp_endpoint: Option<String>,
    /// The `service.name` resource attribute of every span.
    pub service_name: String,
    /// The share of new traces kept, 0.0 to 1.0. A call whose `traceparent` says its trace is sampled (or not)
    /// follows the caller's decision, so a trace is never kept in part.
    pub sample_ratio: f64,
}

// `sample_ratio` is checked to be a number between 0 and 1 (never NaN), so equality is total.
impl Eq for TelemetrySettings {}

/// `[server]`: the listener, limits and timeouts.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    /// The address to listen on; port 0 picks a free port (the bound address is logged).
    #[serde(deserialize_with = "socket_addr")]
    pub listen: SocketAddr,
    /// The largest request message a service decodes, in bytes. A larger one is refused with
    /// OUT_OF_RANGE before it reaches a handler.
    pub max_message_bytes: usize,
    /// Requests served at once on one connection; more wait their turn. `0` means no limit.
    #[serde(deserialize_with = "zero_is_none")]
    pub concurrency_limit_per_connection: Option<usize>,
    /// HTTP/2 streams (calls) one client may have open at once on one connection.
    pub max_concurrent_streams: u32,
    /// A call whose handler has not answered by then is cancelled (`0`: no limit). A client's own
    /// shorter `grpc-timeout` still applies. Streams count only until their first response.
    #[serde(
        rename = "request_timeout_ms",
        deserialize_with = "millis_zero_is_none"
    )]
    pub request_timeout: Option<Duration>,
    /// On SIGTERM/SIGINT: how long calls in flight may take to finish before the server stops anyway.
    #[serde(rename = "shutdown_grace_ms", deserialize_with = "millis")]
    pub shutdown_grace: Duration,
    /// Set `TCP_NODELAY` on accepted connections (small gRPC messages go out at once).
    pub tcp_nodelay: bool,
    /// Idle time before TCP keepalive probes start on a connection (`0`: off).
    #[serde(rename = "tcp_keepalive_ms", deserialize_with = "millis_zero_is_none")]
    pub tcp_keepalive: Option<Duration>,
    /// Interval of HTTP/2 PING frames that keep idle connections alive through proxies (`0`: off).
    #[serde(
        rename = "http2_keepalive_interval_ms",
        deserialize_with = "millis_zero_is_none"
    )]
    pub http2_keepalive_interval: Option<Duration>,
    /// How long to wait for the answer to such a PING before closing the connection.
    #[serde(rename = "http2_keepalive_timeout_ms", deserialize_with = "millis")]
    pub http2_keepalive_timeout: Duration,
    /// Connections served at once. At the cap the server stops accepting (new connections wait in
    /// the kernel's backlog) until one closes, so a flood of connections cannot exhaust the
    /// process's file descriptors. Keep it below the descriptor limit (`ulimit -n`), leaving room
    /// for the store, Redis and metrics. Must be at least 1.
    pub max_connections: usize,
    /// Connections one client address (an IPv4 address, or an IPv6 /64) may hold at once, its share of
    /// `max_connections`: one more is accepted and closed at once, so that one client reopening sockets cannot
    /// hold the whole cap (`0`: no share). Behind a proxy every client has the proxy's address: raise it, or
    /// set 0.
    pub max_connections_per_address: usize,
    /// A connection that has not sent the HTTP/2 preface and its first frame within this time is
    /// closed, so that clients that connect and say nothing (or half a preface) cannot hold
    /// connections. Must be at least 1.
    #[serde(rename = "handshake_timeout_ms", deserialize_with = "millis")]
    pub handshake_timeout: Duration,
    /// A connection with no call in flight for this long is closed (`0`: never). An open
    /// `WatchMatch` stream is a call in flight; HTTP/2 keepalive PINGs are not. gRPC clients
    /// reconnect on their next call.
    #[serde(rename = "idle_timeout_ms", deserialize_with = "millis_zero_is_none")]
    pub idle_timeout: Option<Duration>,
    /// A connection this old is asked to go away (HTTP/2 GOAWAY: calls in flight go on, new calls
    /// open a new connection), so that client-side balancing spreads load onto replicas added
    /// since (`0`: never). A `WatchMatch` stream still open `max_connection_age_grace_ms` later is
    /// cut with the connection; its client resumes with `from_seq` on a new one.
    #[serde(
        rename = "max_connection_age_ms",
        deserialize_with = "millis_zero_is_none"
    )]
    pub max_connection_age: Option<Duration>,
    /// How long calls in flight may keep a connection open after `max_connection_age` before it
    /// is closed anyway (`0`: as long as they last, so a stream holds its connection forever).
    #[serde(
        rename = "max_connection_age_grace_ms",
        deserialize_with = "millis_zero_is_none"
    )]
    pub max_connection_age_grace: Option<Duration>,
    /// A second listener serving `grpc.health.v1` alone, always in plaintext, with the same statuses
    /// (NOT_SERVING from the start of a drain); `None` (`""` or `"off"`): none. For Kubernetes' `grpc`
    /// probes, which cannot speak TLS, when `[tls]` is on. Port 0 picks a free port, logged as
    /// `health listening addr=…`.
    #[serde(deserialize_with = "optional_socket_addr")]
    pub health_listen: Option<SocketAddr>,
    /// Whether `Diagnostics/Echo` answers (the load generator's baseline). `false`: it is UNIMPLEMENTED, for a
    /// server exposed to clients that have no use for it.
    pub echo: bool,
    /// The origins of other web pages whose scripts may call the services with grpc-web (CORS), besides the
    /// board page served on this port, which needs none: `""` (none), a comma-separated list of origins
    /// (`"https://play.example.com, http://localhost:5173"`), or `"*"` (any page on the web).
    #[serde(deserialize_with = "cors_origins")]
    pub cors_allowed_origins: CorsOrigins,
}

/// `server.cors_allowed_origins`: the pages of other origins that may call with grpc-web.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorsOrigins {
    /// Any origin (`"*"`).
    Any,
    /// These origins, each `scheme://host[:port]` (empty: only the page on this port).
    List(Vec<String>),
}

/// A comma-separated list of origins, or `"*"`.
fn cors_origins<'de, D: Deserializer<'de>>(deserializer: D) -> Result<CorsOrigins, D::Error> {
    let text = String::deserialize(deserializer)?;
    if text.trim() == "*" {
        return Ok(CorsOrigins::Any);
    }
    let mut origins = Vec::new();
    for origin in text.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        origins.push(parse_origin(origin).map_err(serde::de::Error::custom)?);
    }
    Ok(CorsOrigins::List(origins))
}

/// An origin as a browser sends it: `http://` or `https://`, a host, an optional port, nothing after.
fn parse_origin(origin: &str) -> Result<String, String> {
    let bad = |why: &str| {
        Err(format!(
            "{origin:?} is not an origin ({why}; expected scheme://host[:port] such as \"https://play.example.com\", \
             or \"*\" alone)"
        ))
    };
    let Some((scheme, rest)) = origin.split_once("://") else {
        return bad("no scheme");
    };
    if scheme != "http" && scheme != "https" {
        return bad("the scheme must be http or https");
    }
    if rest.is_empty() || rest.contains(['/', '?', '#', '@', ' ', '*']) {
        return bad("only a host and a port may follow the scheme");
    }
    if let Some((_, port)) = rest.rsplit_once(':').filter(|_| !rest.ends_with(']')) {
        if port.parse::<u16>().is_err() {
            return bad("the port must be a number up to 65535");
        }
    }
    // Browsers send the host in lowercase; the comparison is exact.
    Ok(origin.to_ascii_lowercase())
}

/// `[log]`: the log format and filter.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSettings {
    /// `plain` (human-readable lines) or `json` (one object per line).
    pub format: LogFormat,
    /// A `tracing` filter directive such as `info` or `mancala=debug,h2=warn`.
    /// `RUST_LOG`, when set, takes its place.
    pub filter: String,
}

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

/// The shape of log lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines (`key=value` fields).
    Plain,
    /// One JSON object per line, fields at the top level of `fields`.
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "plain" => Ok(LogFormat::Plain),
            "json" => Ok(LogFormat::Json),
            _ => Err(format!(
                "{s:?} is not a log format (expected \"plain\" or \"json\")"
            )),
        }
    }
}

impl<'de> Deserialize<'de> for LogFormat {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A configuration that cannot be used. Its `Display` is a single line naming the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    message: String,
}

impl ConfigError {
    fn new(message: impl fmt::Display) -> Self {
        // Some sources (the TOML parser) explain over several lines with a source excerpt; a
        // launcher shows stderr's last line, so fold everything into one.
        let message = message
            .to_string()
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !is_source_excerpt(line))
            .collect::<Vec<_>>()
            .join(" ");
        ConfigError { message }
    }
}

/// A line of a parser's source excerpt (`1 | [server`, `  |        ^`), which makes no sense folded.
fn is_source_excerpt(line: &str) -> bool {
    line.trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start()
        .starts_with('|')
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid configuration: {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

impl Default for Settings {
    /// The built-in defaults alone.
    fn default() -> Self {
        Settings::load_from(None, std::iter::empty())
            .expect("the built-in defaults are valid (tested)")
    }
}

impl Settings {
    /// Loads the defaults, then `file` if given, then the `MANCALA__*` variables of this process.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        let mut env = Vec::new();
        for (name, value) in std::env::vars_os() {
            let Some(name) = name.to_str() else { continue };
            if !name.starts_with(&format!("{ENV_PREFIX}{ENV_SEPARATOR}")) {
                continue;
            }
            let value = value.into_string().map_err(|_: OsString| {
                ConfigError::new(format_args!("environment variable {name} is not UTF-8"))
            })?;
            env.push((name.to_owned(), value));
        }
        Self::load_from(file, env)
    }

    /// Loads the defaults, then `file` if given, then the `MANCALA__*` entries of `env` (other
    /// entries are ignored). Tests pass their own `env` instead of changing the process's.
    pub fn load_from(
        file: Option<&Path>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, ConfigError> {
        let env: HashMap<String, String> = env.into_iter().collect();
        let mut builder = config::Config::builder()
            .add_source(config::File::from_str(DEFAULTS, config::FileFormat::Toml));
        if let Some(file) = file {
            let text = std::fs::read_to_string(file).map_err(|e| {
                ConfigError::new(format_args!(
                    "cannot read config file {}: {e}",
                    file.display()
                ))
            })?;
            builder = builder.add_source(TomlFile {
                path: file.display().to_string(),
                text,
            });
        }
        let builder = builder.add_source(
            config::Environment::with_prefix(ENV_PREFIX)
                .prefix_separator(ENV_SEPARATOR)
                .separator(ENV_SEPARATOR)
                .source(Some(env.into_iter().collect())),
        );
        let settings: Settings = builder
            .build()
            .and_then(config::Config::try_deserialize)
            .map_err(ConfigError::new)?;
        settings.validate()?;
        Ok(settings)
    }

    /// Checks what the types alone cannot.
    fn validate(&self) -> Result<(), ConfigError> {
        if self.server.max_message_bytes == 0 {
            return Err(ConfigError::new(
                "server.max_message_bytes must be at least 1",
            ));
        }
        if self.server.max_concurrent_streams == 0 {
            return Err(ConfigError::new(
                "server.max_concurrent_streams must be at least 1",
            ));
        }
        if self.server.max_connections == 0 {
            return Err(ConfigError::new(
                "server.max_connections must be at least 1",
            ));
        }
        if self.server.handshake_timeout.is_zero() {
            return Err(ConfigError::new(
                "server.handshake_timeout_ms must be at least 1 (a connection that never speaks HTTP/2 must be closed)",
            ));
        }
        if self.addresses.max_tracked == 0 {
            return Err(ConfigError::new("addresses.max_tracked must be at least 1"));
        }
        if self.auth.failures_before_backoff > 0
            && (self.auth.failure_window.is_zero() || self.auth.backoff_initial.is_zero())
        {
            return Err(ConfigError::new(
                "auth.failure_window_ms and auth.backoff_initial_ms must be at least 1 while auth.failures_before_backoff is set",
            ));
        }
        if self.auth.backoff_max < self.auth.backoff_initial {
            return Err(ConfigError::new(
                "auth.backoff_max_ms must be at least auth.backoff_initial_ms",
            ));
        }
        let matches = &self.matches;
        for (key, value) in [
            ("max_watchers_per_match", matches.max_watchers_per_match),
            ("max_watchers_total", matches.max_watchers_total),
            ("max_streams_per_seat", matches.max_streams_per_seat),
            ("watcher_buffer", matches.watcher_buffer),
        ] {
            if value == 0 {
                return Err(ConfigError::new(format_args!(
                    "matches.{key} must be at least 1"
                )));
            }
        }
        if matches.store == StoreKind::Embedded && matches.data_dir.as_os_str().is_empty() {
            return Err(ConfigError::new(
                "matches.data_dir must be set for the embedded store",
            ));
        }
        if matches.store == StoreKind::Redis {
            // The URL may hold a password: the message never repeats it.
            if redis::Client::open(matches.redis_url.as_str()).is_err() {
                return Err(ConfigError::new(
                    "matches.redis_url is not a Redis URL (expected redis://[:password@]host:port[/db] or rediss://…)",
                ));
            }
        }
        // Reads and parses the PEM files: a missing or bad one is reported now, not at the first connection.
        if let Some(files) = self.tls.files()? {
            crate::tls::server_config(&files).map_err(ConfigError::new)?;
        }
        self.search.validate()?;
        let bots = &self.bots;
        let top = crate::engine::search::TOP_LEVEL;
        if !(1..=top).contains(&bots.max_level) {
            return Err(ConfigError::new(format_args!(
                "bots.max_level must be between 1 and {top}"
            )));
        }
        if bots.max_thinking == 0 {
            return Err(ConfigError::new("bots.max_thinking must be at least 1"));
        }
        let engine = &self.engine;
        for (key, value) in [
            ("quick_threads", engine.quick_threads),
            (
                "max_long_calls_per_caller",
                engine.max_long_calls_per_caller,
            ),
        ] {
            if value == 0 {
                return Err(ConfigError::new(format_args!(
                    "engine.{key} must be at least 1"
                )));
            }
        }
        let clock = &self.clock;
        if clock.abort_after < Duration::from_secs(1) {
            return Err(ConfigError::new(
                "clock.abort_after_ms must be at least 1000 (a match must give its first sowings time to come)",
            ));
        }
        if clock.abandon_after < Duration::from_secs(1) {
            return Err(ConfigError::new(
                "clock.abandon_after_ms must be at least 1000 (a reconnecting player must have time to come back)",
            ));
        }
        if clock.max_initial_ms < crate::clock::MIN_INITIAL_MS {
            return Err(ConfigError::new(format!(
                "clock.max_initial_ms must be at least {} (the shortest time control)",
                crate::clock::MIN_INITIAL_MS
            )));
        }
        let lobby = &self.lobby;
        for (key, value) in [
            ("challenge_ttl_ms", lobby.challenge_ttl),
            ("max_challenge_ttl_ms", lobby.max_challenge_ttl),
            ("seek_ttl_ms", lobby.seek_ttl),
            ("heartbeat_ms", lobby.heartbeat),
            ("sweep_interval_ms", lobby.sweep_interval),
            ("repair_interval_ms", lobby.repair_interval),
        ] {
            if value.is_zero() {
                return Err(ConfigError::new(format_args!(
                    "lobby.{key} must be at least 1"
                )));
            }
        }
        if lobby.max_challenge_ttl < lobby.challenge_ttl {
            return Err(ConfigError::new(
                "lobby.max_challenge_ttl_ms must be at least lobby.challenge_ttl_ms",
            ));
        }
        if lobby.max_pending_per_player == 0 || lobby.max_streams_per_player == 0 {
            return Err(ConfigError::new(
                "lobby.max_pending_per_player and lobby.max_streams_per_player must be at least 1",
            ));
        }
        let auth = &self.auth;
        if !auth.operator_key_sha256.is_empty() && auth.operator_key_hash().is_none() {
            return Err(ConfigError::new(
                "auth.operator_key_sha256 must be 64 hex digits (the SHA-256 of the operator key; `mancala operator-key` makes one)",
            ));
        }
        if !auth.player_token_secret.is_empty() && auth.player_token_secret.len() < 32 {
            return Err(ConfigError::new(
                "auth.player_token_secret must be at least 32 bytes (or empty: generated and kept in the store)",
            ));
        }
        if auth.player_token_max_ttl < Duration::from_secs(1) {
            return Err(ConfigError::new(
                "auth.player_token_max_ttl_ms must be at least 1000",
            ));
        }
        let telemetry = &self.telemetry;
        if !(0.0..=1.0).contains(&telemetry.sample_ratio) {
            return Err(ConfigError::new(format_args!(
                "telemetry.sample_ratio must be between 0.0 and 1.0 (the share of new traces kept), not {}",
                telemetry.sample_ratio
            )));
        }
        if telemetry.service_name.trim().is_empty() {
            return Err(ConfigError::new(
                "telemetry.service_name must not be empty (it names this service in every trace)",
            ));
        }
        if let Err(error) = tracing_subscriber::EnvFilter::builder().parse(&self.log.filter) {
            return Err(ConfigError::new(format_args!(
                "log.filter {:?} is not a valid filter: {error}",
                self.log.filter
            )));
        }
        Ok(())
    }
}

impl SearchSettings {
    fn validate(&self) -> Result<(), ConfigError> {
        use crate::engine::{search, GameKind};
        if self.max_iterations == 0 {
            return Err(ConfigError::new("search.max_iterations must be at least 1"));
        }
        let level = self.default_level;
        if !(1..=search::TOP_LEVEL).contains(&level) {
            return Err(ConfigError::new(format_args!(
                "search.default_level must be a level from 1 to {}, not {level}",
                search::TOP_LEVEL
            )));
        }
        // The default must be a level every request may ask for.
        for kind in GameKind::ALL {
            let iterations = search::level(kind, level).map_or(0, |t| t.limits.iterations);
            if iterations > self.max_iterations {
                return Err(ConfigError::new(format_args!(
                    "search.default_level {level} searches {iterations} iterations in {}, above search.max_iterations ({})",
                    kind.name(),
                    self.max_iterations
                )));
            }
        }
        Ok(())
    }
}

/// The name of the environment variable that sets `section.key`, e.g. `MANCALA__SERVER__LISTEN`.
pub fn env_var_name(section: &str, key: &str) -> String {
    format!(
        "{ENV_PREFIX}{ENV_SEPARATOR}{}{ENV_SEPARATOR}{}",
        section.to_uppercase(),
        key.to_uppercase()
    )
}

/// A TOML file read by us, so that errors name it as the operator wrote it.
#[derive(Debug, Clone)]
struct TomlFile {
    path: String,
    text: String,
}

impl config::Source for TomlFile {
    fn clone_into_box(&self) -> Box<dyn config::Source + Send + Sync> {
        Box::new(self.clone())
    }

    fn collect(&self) -> Result<config::Map<String, config::Value>, config::ConfigError> {
        config::Format::parse(&config::FileFormat::Toml, Some(&self.path), &self.text).map_err(
            |cause| config::ConfigError::FileParse {
                uri: Some(self.path.clone()),
                cause,
            },
        )
    }
}

fn socket_addr<'de, D: Deserializer<'de>>(deserializer: D) -> Result<SocketAddr, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(|_| {
        serde::de::Error::custom(format_args!(
            "{text:?} is not a socket address (expected IP:PORT, e.g. \"0.0.0.0:50051\")"
        ))
    })
}

/// An address, or nothing for `""` and `"off"`.
fn optional_socket_addr<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<SocketAddr>, D::Error> {
    let text = String::deserialize(deserializer)?;
    match text.trim() {
        "" | "off" => Ok(None),
        addr => addr.parse().map(Some).map_err(|_| {
            serde::de::Error::custom(format_args!(
                "{text:?} is not a socket address (expected IP:PORT such as \"0.0.0.0:9090\", or \"off\")"
            ))
        }),
    }
}

/// An OTLP endpoint URL (`http://`, a host and a port), or nothing for `""` and `"off"`.
fn optional_otlp_endpoint<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(deserializer)?;
    let text = text.trim();
    if text.is_empty() || text == "off" {
        return Ok(None);
    }
    let wrong = || {
        serde::de::Error::custom(format_args!(
            "{text:?} is not an OTLP/gRPC endpoint (expected a URL such as \"http://127.0.0.1:4317\", or \"off\")"
        ))
    };
    let uri: http::Uri = text.parse().map_err(|_| wrong())?;
    match (uri.scheme_str(), uri.host(), uri.port_u16()) {
        (Some("https"), _, _) => Err(serde::de::Error::custom(format_args!(
            "{text:?}: TLS to the OTLP collector is not supported; send to a local collector or agent over http://"
        ))),
        (Some("http"), Some(host), Some(_)) if !host.is_empty() => Ok(Some(text.to_string())),
        _ => Err(wrong()),
    }
}

/// A path, or nothing for `""`.
fn optional_path<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<PathBuf>, D::Error> {
    let text = String::deserialize(deserializer)?;
    Ok((!text.trim().is_empty()).then(|| PathBuf::from(text)))
}

/// A duration key (`…_ms`): a whole number of milliseconds (`30000`), or a duration with its unit as the command
/// line takes them (`"30s"`, `"1m 30s"`, `"250ms"`, `"7days"`).
fn millis<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Given {
        Millis(u64),
        Text(String),
    }
    match Given::deserialize(deserializer)? {
        Given::Millis(ms) => Ok(Duration::from_millis(ms)),
        Given::Text(text) => parse_duration(&text).map_err(serde::de::Error::custom),
    }
}

/// [`millis`]'s text: digits alone are milliseconds (environment variables arrive as text), anything else a
/// duration with units.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if let Ok(ms) = text.parse::<u64>() {
        return Ok(Duration::from_millis(ms));
    }
    humantime::parse_duration(text).map_err(|e| {
        format!("{text:?} is not a duration: {e} (milliseconds, or a number with a unit: \"30s\", \"5m\", \"250ms\")")
    })
}

fn millis_zero_is_none<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Duration>, D::Error> {
    millis(deserializer).map(|duration| (!duration.is_zero()).then_some(duration))
}

fn zero_is_none<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<usize>, D::Error> {
    usize::deserialize(deserializer).map(|n| (n != 0).then_some(n))
}
