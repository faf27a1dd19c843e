//! Prometheus metrics: what the server counts, and the tiny HTTP endpoint that serves them.
//!
//! Every gRPC call is counted by [`crate::telemetry::GrpcTraceLayer`], which sees each call's method
//! and final status (the names follow go-grpc-prometheus, so its dashboards work as they are):
//!
//! | series | type | labels |
//! |---|---|---|
//! | `grpc_server_started_total` | counter | `grpc_service`, `grpc_method` |
//! | `grpc_server_handled_total` | counter | `grpc_service`, `grpc_method`, `grpc_code` (`OK`, `NOT_FOUND` …) |
//! | `grpc_server_handling_seconds` | histogram | `grpc_service`, `grpc_method` (a stream counts until it closes) |
//!
//! Server-held matches ([`crate::matches`]):
//!
//! | series | type | labels |
//! |---|---|---|
//! | `mancala_matches_active` | gauge | matches this replica holds in memory that are not finished |
//! | `mancala_watchers` | gauge | open `WatchMatch` streams on this replica |
//! | `mancala_moves_applied_total` | counter | `game` (`ba-awa`, `bosh`, `bao-la-kete`): moves this replica accepted (sowings and `NextGame`) |
//! | `mancala_move_rejections_total` | counter | `reason`: the `ErrorInfo` reason (`PIT_EMPTY`, `VERSION_MISMATCH` …) or the status (`NOT_YOUR_TURN`, `UNAUTHENTICATED` …) |
//! | `mancala_store_conflicts_total` | counter | appends another replica won (each is caught up from the log) |
//! | `mancala_store_append_seconds` | histogram | how long the store took to check and append one event of a match (Redis' round trip, or the embedded store's group commit) |
//! | `mancala_store_journal_moves` | gauge | moves waiting in the embedded store's journal to be moved into their matches' records |
//! | `mancala_store_checkpoint_seconds` | histogram | how long the embedded store took to move its journal into the match records (a batch of moves may wait behind one) |
//! | `mancala_store_checkpoint_failures_total` | counter | checkpoints of the embedded store's journal that failed (the journal stays, is read, and is tried again later) |
//! | `mancala_store_refusing_writes` | gauge | 1 while the embedded store's file refuses writes after a storage failure (a full disk), until it is reopened |
//! | `mancala_store_reopens_total` | counter | times the embedded store reopened its database after a storage failure |
//! | `mancala_remote_events_total` | counter | events appended by other replicas and fed to this one's watchers |
//! | `mancala_bot_moves_total` | counter | `game`: moves this replica played for bot seats (sowings and `NextGame`) |
//! | `mancala_bot_think_seconds` | histogram | `game`: how long a bot's search took on the engine pool |
//! | `mancala_lobby_entries_total` | counter | `entry`: entries this replica wrote to the tenants' lobby logs (challenges, seeks, profiles, matches created, started, finished) |
//! | `mancala_lobby_conflicts_total` | counter | lobby writes that lost the store's race to another replica (decided again) |
//! | `mancala_lobby_streams` | gauge | open `WatchPlayerEvents` and `WatchTenantFeed` streams on this replica |
//! | `mancala_bot_moves_hurried_total` | counter | bot moves chosen by a one-ply search because the bot's clock left no time for its own (the engine's bot lane was busy past the move's share of the clock) |
//! | `mancala_bot_moves_dropped_total` | counter | `reason` (`lost_race`: another replica or the opponent acted first; `engine`: the search did not finish; `illegal`: the search chose a refused move; `store`: the append failed): bot moves thought out but not played here |
//!
//! Engine work ([`crate::pool`], docs/guide/engine-work.md):
//!
//! | series | type | labels |
//! |---|---|---|
//! | `mancala_engine_work_total` | counter | `outcome` (`inline`, `pool`, `exhausted`, `cancelled`, `busy`, `caller_cap`): callers' rules work by how it ended |
//! | `mancala_engine_pool_running` | gauge | long jobs running on the engine pool now, every lane |
//! | `mancala_engine_queue_wait_seconds` | histogram | `lane` (`quick`, `long`, `bots`): how long a job waited for a thread of its lane |
//! | `mancala_engine_lane_running` | gauge | `lane`: jobs holding a thread of the lane now |
//! | `mancala_engine_lane_waiting` | gauge | `lane`: jobs waiting for a thread of the lane now |
//!
//! Connections ([`crate::server`]'s accept loop):
//!
//! | series | type | labels |
//! |---|---|---|
//! | `mancala_connections` | gauge | open client connections |
//! | `mancala_connections_closed_total` | counter | `reason` (`handshake_timeout`, `idle_timeout`, `tls_handshake_failed`): connections the server closed |
//! | `mancala_tenant_calls_total` | counter | `tenant` (a tenant id the server holds, `anonymous`, `seat-tokens`, `operator` or `unknown`), `outcome` (`admitted`, `rate_limited`, `unauthenticated`): calls by who made them |
//! | `mancala_accept_paused_total` | counter | `reason` (`max_connections`, `accept_error`): times accepting stopped, once per episode |
//! | `mancala_caller_refusals_total` | counter | `limit` (`calls_per_second_per_player`, `calls_per_second_per_address`, `unknown_seat_tokens_per_address`, `max_active_matches_per_player`, `max_active_matches_per_address`, `max_watchers_per_player`, `max_watchers_per_address`, `max_connections_per_address`, `auth_backoff`): calls and connections refused for one caller's share (never labelled by the caller: unbounded) |
//! | `mancala_auth_backoffs_total` | counter | addresses backed off after repeated UNAUTHENTICATED answers, once per episode |
//!
//! The process (Linux, read from `/proc` at each scrape, as every Prometheus client names them):
//!
//! | series | type | what |
//! |---|---|---|
//! | `process_cpu_seconds_total` | counter | CPU time, user and system |
//! | `process_resident_memory_bytes` | gauge | resident memory |
//! | `process_virtual_memory_bytes` | gauge | virtual memory |
//! | `process_open_fds`, `process_max_fds` | gauge | open file descriptors (sockets included), and the limit |
//! | `process_threads` | gauge | OS threads (the runtime's workers, the engine pool, the store's) |
//! | `process_start_time_seconds` | gauge | when the process started, seconds since the Unix epoch |
//!
//! Method labels come from the served protocol's descriptors (given by the server,
//! [`Metrics::serving`]), so that a client calling made-up
//! paths cannot grow the label set: any other path is counted as `unknown`/`unknown`.
//!
//! The endpoint ([`serve`]) answers `GET /metrics` (and `GET /`) in the text format; it is an axum router
//! (axum is already in the build through tonic) on the server's runtime, with its own listener.

use prometheus::{
    Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// Latency buckets, in seconds: 100 µs to 10 s.
const LATENCY_BUCKETS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

/// Bot think-time buckets, in seconds: 1 ms to 1 min.
const THINK_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// Engine queue-wait buckets, in seconds: 100 µs (a free thread) to 1 min (a flood).
const WAIT_BUCKETS: &[f64] = &[
    0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
    30.0, 60.0,
];

/// The label of a path that is not a served method.
const UNKNOWN: &str = "unknown";

/// The server's metrics, in one registry of their own. Cheap to clone.
#[derive(Clone)]
pub struct Metrics {
    inner: Arc<Inner>,
}

struct Inner {
    registry: Registry,
    rpcs: HashSet<(String, String)>,
    started: IntCounterVec,
    handled: IntCounterVec,
    handling: HistogramVec,
    matches_active: IntGauge,
    watchers: IntGauge,
    moves_applied: IntCounterVec,
    rejections: IntCounterVec,
    store_conflicts: IntCounter,
    remote_events: IntCounter,
    connections: IntGauge,
    connections_closed: IntCounterVec,
    accept_paused: IntCounterVec,
    tenant_calls: IntCounterVec,
    caller_refusals: IntCounterVec,
    auth_backoffs: IntCounter,
    /// `mancala_engine_work_total` by outcome, resolved once: the inline one is counted on every rules call.
    engine_work: [IntCounter; EngineOutcome::ALL.len()],
    engine_running: IntGauge,
    /// By [`EngineLane`], resolved once.
    engine_queue_wait: [Histogram; EngineLane::ALL.len()],
    engine_lane_running: [IntGauge; EngineLane::ALL.len()],
    engine_lane_waiting: [IntGauge; EngineLane::ALL.len()],
    bot_hurried: IntCounter,
    bot_moves: IntCounterVec,
    bot_think: HistogramVec,
    bot_dropped: IntCounterVec,
    matches_ended: IntCounterVec,
    store_appends: Histogram,
    store_journal: IntGauge,
    store_checkpoints: Histogram,
    store_checkpoint_failures: IntCounter,
    store_refusing_writes: IntGauge,
    store_reopens: IntCounter,
    lobby_entries: IntCounterVec,
    lobby_conflicts: IntCounter,
    lobby_streams: IntGauge,
}

/// How a call's engine work ended (`crate::pool`), the `outcome` label of `mancala_engine_work_total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineOutcome {
    /// Decided inline, within the inline budget.
    Inline,
    /// Decided on the pool.
    Pool,
    /// Refused: the budget was spent.
    Exhausted,
    /// Stopped: the caller went away, or the server stopped.
    Cancelled,
    /// Refused: the pool's queue was full.
    Busy,
    /// Refused: the caller already had its share of long calls in flight.
    CallerCap,
}

impl EngineOutcome {
    const ALL: [EngineOutcome; 6] = [
        EngineOutcome::Inline,
        EngineOutcome::Pool,
        EngineOutcome::Exhausted,
        EngineOutcome::Cancelled,
        EngineOutcome::Busy,
        EngineOutcome::CallerCap,
    ];

    fn label(self) -> &'static str {
        match self {
            EngineOutcome::Inline => "inline",
            EngineOutcome::Pool => "pool",
            EngineOutcome::Exhausted => "exhausted",
            EngineOutcome::Cancelled => "cancelled",
            EngineOutcome::Busy => "busy",
            EngineOutcome::CallerCap => "caller_cap",
        }
    }
}

/// A lane of the engine pool (`crate::pool`), the `lane` label of the engine's queue metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineLane {
    /// Callers' searches expected short (a hint), tried apart from the long ones.
    Quick,
    /// Callers' long work: searches, Rules calls and match moves that turned long.
    Long,
    /// The server's own bots' searches.
    Bots,
}

impl EngineLane {
    const ALL: [EngineLane; 3] = [EngineLane::Quick, EngineLane::Long, EngineLane::Bots];

    /// The label.
    pub fn label(self) -> &'static str {
        match self {
            EngineLane::Quick => "quick",
            EngineLane::Long => "long",
            EngineLane::Bots => "bots",
        }
    }
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

/// Every `(service, method)` of the encoded `FileDescriptorSet`s `sets`.
fn served_rpcs(sets: &[&[u8]]) -> HashSet<(String, String)> {
    use prost::Message;
    let mut rpcs = HashSet::new();
    for set in sets {
        let Ok(set) = prost_types::FileDescriptorSet::decode(*set) else {
            continue;
        };
        for file in set.file {
            let package = file.package.unwrap_or_default();
            for service in file.service {
                let name = match &package {
                    p if p.is_empty() => service.name().to_string(),
                    p => format!("{p}.{}", service.name()),
                };
                for method in service.method {
                    rpcs.insert((name.clone(), method.name().to_string()));
                }
            }
        }
    }
    rpcs
}

impl Metrics {
    /// A fresh registry with every series registered (and nothing counted yet), which knows no
    /// methods: every call is counted as `unknown` (enough for what is not a server).
    pub fn new() -> Metrics {
        Metrics::serving(&[])
    }

    /// [`Metrics::new`], labelling calls of the methods of the encoded `FileDescriptorSet`s
    /// `descriptor_sets` (the protocol the server speaks) by their names.
    pub fn serving(descriptor_sets: &[&[u8]]) -> Metrics {
        let registry = Registry::new();
        fn register<M: prometheus::core::Collector + Clone + 'static>(
            registry: &Registry,
            metric: M,
        ) -> M {
            registry
                .register(Box::new(metric.clone()))
                .expect("each series is registered once, with a valid name");
            metric
        }
        // The process itself, read from /proc at each scrape (the prometheus crate's own collector, the series
        // every Prometheus client names alike): what an operator looks at first when a replica misbehaves.
        #[cfg(target_os = "linux")]
        registry
            .register(Box::new(
                prometheus::process_collector::ProcessCollector::for_self(),
            ))
            .expect("the process collector is registered once");
        let counters = |name: &str, help: &str, labels: &[&str]| {
            register(
                &registry,
                IntCounterVec::new(Opts::new(name, help), labels).expect("valid counter"),
            )
        };
        let started = counters(
            "grpc_server_started_total",
            "gRPC calls started on the server.",
            &["grpc_service", "grpc_method"],
        );
        let handled = counters(
            "grpc_server_handled_total",
            "gRPC calls completed on the server, by status code.",
            &["grpc_service", "grpc_method", "grpc_code"],
        );
        let handling = register(
            &registry,
            HistogramVec::new(
                HistogramOpts::new(
                    "grpc_server_handling_seconds",
                    "Time from a call's start to its final status (a stream's whole life).",
                )
                .buckets(LATENCY_BUCKETS.to_vec()),
                &["grpc_service", "grpc_method"],
            )
            .expect("valid histogram"),
        );
        let moves_applied = counters(
            "mancala_moves_applied_total",
            "Moves accepted by this replica, by game.",
            &["game"],
        );
        let rejections = counters(
            "mancala_move_rejections_total",
            "SubmitMove and Resign calls refused, by reason.",
            &["reason"],
        );
        let connections_closed = counters(
            "mancala_connections_closed_total",
            "Client connections closed by the server for saying nothing or failing the TLS handshake, by reason.",
            &["reason"],
        );
        let accept_paused = counters(
            "mancala_accept_paused_total",
            "Times the server stopped accepting connections (at the cap, or out of resources).",
            &["reason"],
        );
        let tenant_calls = counters(
            "mancala_tenant_calls_total",
            "Calls by tenant (ids the operator created: bounded) and outcome of their credential and rate check.",
            &["tenant", "outcome"],
        );
        let caller_refusals = counters(
            "mancala_caller_refusals_total",
            "Calls and connections refused for one caller's share of a limit (one player, one address), by limit.",
            &["limit"],
        );
        let gauge = |name: &str, help: &str| {
            register(&registry, IntGauge::new(name, help).expect("valid gauge"))
        };
        let matches_active = gauge(
            "mancala_matches_active",
            "Unfinished matches this replica holds in memory.",
        );
        let watchers = gauge(
            "mancala_watchers",
            "Open WatchMatch streams on this replica.",
        );
        let connections = gauge("mancala_connections", "Open client connections.");
        let counter = |name: &str, help: &str| {
            register(
                &registry,
                IntCounter::new(name, help).expect("valid counter"),
            )
        };
        let auth_backoffs = counter(
            "mancala_auth_backoffs_total",
            "Addresses backed off after repeated UNAUTHENTICATED answers, once per episode.",
        );
        let store_conflicts = counter(
            "mancala_store_conflicts_total",
            "Appends refused by the store because another server appended first.",
        );
        let remote_events = counter(
            "mancala_remote_events_total",
            "Events appended by other servers and fed to this server's watchers.",
        );
        let engine_work = register(
            &registry,
            IntCounterVec::new(
                Opts::new(
                    "mancala_engine_work_total",
                    "Rules work of calls by outcome: decided inline or on the engine pool, refused (budget spent, \
                     pool busy) or cancelled.",
                ),
                &["outcome"],
            )
            .expect("valid counter"),
        );
        let engine_work = EngineOutcome::ALL.map(|o| engine_work.with_label_values(&[o.label()]));
        let engine_running = gauge(
            "mancala_engine_pool_running",
            "Long calls running on the engine pool now.",
        );
        let queue_wait = register(
            &registry,
            HistogramVec::new(
                HistogramOpts::new(
                    "mancala_engine_queue_wait_seconds",
                    "How long a job waited for a thread of its lane of the engine pool, by lane (quick, long, bots).",
                )
                .buckets(WAIT_BUCKETS.to_vec()),
                &["lane"],
            )
            .expect("valid histogram"),
        );
        let engine_queue_wait = EngineLane::ALL.map(|l| queue_wait.with_label_values(&[l.label()]));
        let lane_gauges = |name: &str, help: &str| {
            let vec = register(
                &registry,
                IntGaugeVec::new(Opts::new(name, help), &["lane"]).expect("valid gauge"),
            );
            EngineLane::ALL.map(|l| vec.with_label_values(&[l.label()]))
        };
        let engine_lane_running = lane_gauges(
            "mancala_engine_lane_running",
            "Jobs holding a thread of the engine pool's lane now, by lane.",
        );
        let engine_lane_waiting = lane_gauges(
            "mancala_engine_lane_waiting",
            "Jobs waiting for a thread of the engine pool's lane now, by lane.",
        );
        let bot_hurried = counter(
            "mancala_bot_moves_hurried_total",
            "Bot moves chosen by a one-ply search because the bot's clock left no time for its own search.",
        );
        let bot_moves = counters(
            "mancala_bot_moves_total",
            "Moves this replica played for the bot seats of matches, by game.",
            &["game"],
        );
        let bot_think = register(
            &registry,
            HistogramVec::new(
                HistogramOpts::new(
                    "mancala_bot_think_seconds",
                    "How long a bot's search took on the engine pool, by game.",
                )
                .buckets(THINK_BUCKETS.to_vec()),
                &["game"],
            )
            .expect("valid histogram"),
        );
        let bot_dropped = counters(
            "mancala_bot_moves_dropped_total",
            "Bot moves thought out but not played by this replica (another acted first, the search or the store \
             failed), by reason.",
            &["reason"],
        );
        let matches_ended = counters(
            "mancala_matches_ended_total",
            "Matches this replica ended (it wrote the last event), by reason (played_out, resignation, expired, \
             time_forfeit, aborted, abandoned).",
            &["reason"],
        );
        let store_appends = register(
            &registry,
            Histogram::with_opts(
                HistogramOpts::new(
                    "mancala_store_append_seconds",
                    "How long the match store took to check and append one event (a move, a resignation, the \
                     clock's decision), conflicts and failures included.",
                )
                .buckets(LATENCY_BUCKETS.to_vec()),
            )
            .expect("valid histogram"),
        );
        let store_journal = gauge(
            "mancala_store_journal_moves",
            "Moves waiting in the embedded store's journal to be moved into their matches' records (checkpointed \
             at 1,024, when idle, and on stopping and starting).",
        );
        let store_checkpoints = register(
            &registry,
            Histogram::with_opts(
                HistogramOpts::new(
                    "mancala_store_checkpoint_seconds",
                    "How long the embedded store took to move its journal into the match records: the longest a \
                     batch of moves may wait behind one.",
                )
                .buckets(LATENCY_BUCKETS.to_vec()),
            )
            .expect("valid histogram"),
        );
        let store_checkpoint_failures = register(
            &registry,
            IntCounter::new(
                "mancala_store_checkpoint_failures_total",
                "Checkpoints of the embedded store's journal that failed (a full disk, say): the journal stays, is \
                 read, and is tried again later.",
            )
            .expect("valid counter"),
        );
        let store_refusing_writes = gauge(
            "mancala_store_refusing_writes",
            "1 while the embedded store's file refuses writes after a storage failure (a full disk, an I/O error): \
             moves and new matches are refused until a probe write succeeds and the database is reopened.",
        );
        let store_reopens = register(
            &registry,
            IntCounter::new(
                "mancala_store_reopens_total",
                "Times the embedded store closed and reopened its database after a storage failure.",
            )
            .expect("valid counter"),
        );
        let lobby_entries = counters(
            "mancala_lobby_entries_total",
            "Entries this replica wrote to the tenants' lobby logs, by entry (profile, challenge, \
             challenge_closed, seek, seek_closed, match_created, match_started, match_finished).",
            &["entry"],
        );
        let lobby_conflicts = register(
            &registry,
            IntCounter::new(
                "mancala_lobby_conflicts_total",
                "Lobby writes that lost the store's race to another replica and were decided again.",
            )
            .expect("valid counter"),
        );
        let lobby_streams = gauge(
            "mancala_lobby_streams",
            "Open WatchPlayerEvents and WatchTenantFeed streams on this replica.",
        );
        Metrics {
            inner: Arc::new(Inner {
                lobby_entries,
                lobby_conflicts,
                lobby_streams,
                engine_work,
                engine_running,
                engine_queue_wait,
                engine_lane_running,
                engine_lane_waiting,
                bot_hurried,
                bot_moves,
                bot_think,
                bot_dropped,
                matches_ended,
                store_appends,
                store_journal,
                store_checkpoints,
                store_checkpoint_failures,
                store_refusing_writes,
                store_reopens,
                registry,
                rpcs: served_rpcs(descriptor_sets),
                started,
                handled,
                handling,
                matches_active,
                watchers,
                moves_applied,
                rejections,
                store_conflicts,
                remote_events,
                connections,
                connections_closed,
                accept_paused,
                tenant_calls,
                caller_refusals,
                auth_backoffs,
            }),
        }
    }

    /// The `(service, method)` labels of a request path such as `/mancala.v1.Rules/NewGame`.
    pub fn rpc_labels(&self, service: &str, method: &str) -> (String, String) {
        if self
            .inner
            .rpcs
            .contains(&(service.to_string(), method.to_string()))
        {
            (service.to_string(), method.to_string())
        } else {
            (UNKNOWN.to_string(), UNKNOWN.to_string())
        }
    }

    /// A call started.
    pub fn call_started(&self, service: &str, method: &str) {
        self.inner
            .started
            .with_label_values(&[service, method])
            .inc();
    }

    /// A call ended with `code` (a canonical name such as `OK`) after `elapsed`.
    pub fn call_handled(&self, service: &str, method: &str, code: &str, elapsed: Duration) {
        self.inner
            .handled
            .with_label_values(&[service, method, code])
            .inc();
        self.inner
            .handling
            .with_label_values(&[service, method])
            .observe(elapsed.as_secs_f64());
    }

    /// The number of unfinished matches held changed by `delta`.
    pub fn matches_active_add(&self, delta: i64) {
        self.inner.matches_active.add(delta);
    }

    /// The number of open watch streams changed by `delta`.
    pub fn watchers_add(&self, delta: i64) {
        self.inner.watchers.add(delta);
    }

    /// This replica accepted a move in a match of `game`.
    pub fn move_applied(&self, game: &str) {
        self.inner.moves_applied.with_label_values(&[game]).inc();
    }

    /// A move or resignation was refused for `reason`.
    pub fn move_rejected(&self, reason: &str) {
        self.inner.rejections.with_label_values(&[reason]).inc();
    }

    /// An append lost a race with another server.
    pub fn store_conflict(&self) {
        self.inner.store_conflicts.inc();
    }

    /// `n` events appended elsewhere reached this server's watchers.
    pub fn remote_events(&self, n: u64) {
        self.inner.remote_events.inc_by(n);
    }

    /// A call's engine work ended so.
    pub fn engine_work(&self, outcome: EngineOutcome) {
        self.inner.engine_work[outcome as usize].inc();
    }

    /// The number of long calls running on the engine pool changed by `delta`.
    pub fn engine_running_add(&self, delta: i64) {
        self.inner.engine_running.add(delta);
    }

    /// A job of `lane` waited `waited` for its thread.
    pub fn engine_queue_wait(&self, lane: EngineLane, waited: Duration) {
        self.inner.engine_queue_wait[lane as usize].observe(waited.as_secs_f64());
    }

    /// The jobs holding a thread of `lane` changed by `delta`.
    pub fn engine_lane_running_add(&self, lane: EngineLane, delta: i64) {
        self.inner.engine_lane_running[lane as usize].add(delta);
    }

    /// `waiting` jobs wait for a thread of `lane` now.
    pub fn engine_lane_waiting_set(&self, lane: EngineLane, waiting: usize) {
        self.inner.engine_lane_waiting[lane as usize].set(waiting.try_into().unwrap_or(i64::MAX));
    }

    /// A bot's move was chosen by the one-ply fallback: its clock left no time for its search.
    pub fn bot_hurried(&self) {
        self.inner.bot_hurried.inc();
    }

    /// This replica played a bot's move in a match of `game`.
    pub fn bot_moved(&self, game: &str) {
        self.inner.bot_moves.with_label_values(&[game]).inc();
    }

    /// A bot of a match of `game` searched for `elapsed`.
    pub fn bot_thought(&self, game: &str, elapsed: Duration) {
        self.inner
            .bot_think
            .with_label_values(&[game])
            .observe(elapsed.as_secs_f64());
    }

    /// The match store checked and appended one event (or refused it) in `elapsed`.
    pub fn store_appended(&self, elapsed: Duration) {
        self.inner.store_appends.observe(elapsed.as_secs_f64());
    }

    /// The embedded store's journal holds `moves` moves.
    pub fn store_journal_set(&self, moves: u64) {
        self.inner.store_journal.set(moves as i64);
    }

    /// The embedded store moved its journal into the match records in `elapsed`.
    pub fn store_checkpointed(&self, elapsed: Duration) {
        self.inner.store_checkpoints.observe(elapsed.as_secs_f64());
    }

    /// A checkpoint of the embedded store's journal failed.
    pub fn store_checkpoint_failed(&self) {
        self.inner.store_checkpoint_failures.inc();
    }

    /// The embedded store's file refuses writes (`true`) or takes them again.
    pub fn store_refusing_writes(&self, refusing: bool) {
        self.inner.store_refusing_writes.set(i64::from(refusing));
    }

    /// The embedded store reopened its database after a storage failure.
    pub fn store_reopened(&self) {
        self.inner.store_reopens.inc();
    }

    /// This replica wrote a lobby entry of kind `entry`.
    pub fn lobby_entry(&self, entry: &str) {
        self.inner.lobby_entries.with_label_values(&[entry]).inc();
    }

    /// A lobby write lost the store's race and is decided again.
    pub fn lobby_conflict(&self) {
        self.inner.lobby_conflicts.inc();
    }

    /// The open lobby streams changed by `delta`.
    pub fn lobby_streams_add(&self, delta: i64) {
        self.inner.lobby_streams.add(delta);
    }

    /// A bot's move was not played here, for `reason` (`lost_race`, `engine`, `illegal`, `store`).
    pub fn bot_dropped(&self, reason: &str) {
        self.inner.bot_dropped.with_label_values(&[reason]).inc();
    }

    /// This replica wrote the event that ended a match, for `reason`.
    pub fn match_ended(&self, reason: &str) {
        self.inner.matches_ended.with_label_values(&[reason]).inc();
    }

    /// The number of open client connections changed by `delta`.
    pub fn connections_add(&self, delta: i64) {
        self.inner.connections.add(delta);
    }

    /// The server closed a connection for `reason` (`handshake_timeout`, `idle_timeout`, `tls_handshake_failed`).
    pub fn connection_closed(&self, reason: &str) {
        self.inner
            .connections_closed
            .with_label_values(&[reason])
            .inc();
    }

    /// Accepting stopped for `reason` (`max_connections`, `accept_error`).
    pub fn accept_paused(&self, reason: &str) {
        self.inner.accept_paused.with_label_values(&[reason]).inc();
    }

    /// A call or connection refused for one caller's share of `limit` (`mancala_caller_refusals_total`).
    pub fn caller_refused(&self, limit: &str) {
        self.inner.caller_refusals.with_label_values(&[limit]).inc();
    }

    /// An address backed off after repeated UNAUTHENTICATED answers (`mancala_auth_backoffs_total`).
    pub fn auth_backoff(&self) {
        self.inner.auth_backoffs.inc();
    }

    /// A call of `tenant` (a label of bounded cardinality: see the table) was `outcome`.
    pub fn tenant_call(&self, tenant: &str, outcome: &str) {
        self.inner
            .tenant_calls
            .with_label_values(&[tenant, outcome])
            .inc();
    }

    /// Everything, in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Encoding into a String cannot fail for families this registry produced.
        let _ = TextEncoder::new().encode_utf8(&self.inner.registry.gather(), &mut text);
        text
    }
}

/// The endpoint's routes: `GET /metrics` (and `GET /`, what a browser opens) in the text format; any other
/// path is 404, and another method on those two is 405 (axum's method router).
pub fn router(metrics: Metrics) -> axum::Router {
    use axum::routing::get;
    axum::Router::new()
        .route("/metrics", get(scrape))
        .route("/", get(scrape))
        .fallback(|| async {
            (
                http::StatusCode::NOT_FOUND,
                [(http::header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                "metrics are at /metrics\n",
            )
        })
        .with_state(metrics)
}

async fn scrape(
    axum::extract::State(metrics): axum::extract::State<Metrics>,
) -> impl axum::response::IntoResponse {
    (
        [(http::header::CONTENT_TYPE, prometheus::TEXT_FORMAT)],
        metrics.render(),
    )
}

/// Serves [`router`] on `listener` (HTTP/1.1, keep-alive) until the task is dropped or aborted.
pub async fn serve(listener: TcpListener, metrics: Metrics) {
    // axum::serve only returns on an error of the listener it could not get past.
    if let Err(error) = axum::serve(listener, router(metrics)).await {
        tracing::error!(error = %error, "the metrics endpoint stopped");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_format_names_every_series_with_its_labels() {
        let metrics = Metrics::new();
        metrics.call_started("mancala.v1.Rules", "NewGame");
        metrics.call_handled(
            "mancala.v1.Rules",
            "NewGame",
            "OK",
            Duration::from_millis(2),
        );
        metrics.move_applied("ba_awa");
        metrics.move_rejected("PIT_EMPTY");
        metrics.watchers_add(2);
        metrics.watchers_add(-1);
        let text = metrics.render();
        for line in [
            r#"grpc_server_started_total{grpc_method="NewGame",grpc_service="mancala.v1.Rules"} 1"#,
            r#"grpc_server_handled_total{grpc_code="OK",grpc_method="NewGame",grpc_service="mancala.v1.Rules"} 1"#,
            r#"grpc_server_handling_seconds_bucket{grpc_method="NewGame",grpc_service="mancala.v1.Rules",le="0.0025"} 1"#,
            r#"mancala_moves_applied_total{game="ba_awa"} 1"#,
            r#"mancala_move_rejections_total{reason="PIT_EMPTY"} 1"#,
            "mancala_watchers 1",
            "mancala_matches_active 0",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
        // The process's own series, read from /proc.
        #[cfg(target_os = "linux")]
        for series in [
            "process_cpu_seconds_total ",
            "process_resident_memory_bytes ",
            "process_open_fds ",
            "process_threads ",
        ] {
            assert!(
                text.lines().any(|l| l.starts_with(series)),
                "{series} in\n{text}"
            );
        }
    }
}
