//! The configuration layers (defaults → file → `MANCALA__*` environment), their errors, and the
//! binary's behaviour on a bad configuration. No test changes the process environment: each
//! passes its own variables to `Settings::load_from`.

use std::{
    collections::{BTreeMap, BTreeSet},
    io::Write,
    net::SocketAddr,
    path::Path,
    process::Command,
    time::Duration,
};

use mancala::config::{env_var_name, LogFormat, Settings, DEFAULTS};

const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/mancala.example.toml");

fn toml_file(contents: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .suffix(".toml")
        .tempfile()
        .expect("create a temporary file");
    file.write_all(contents.as_bytes())
        .expect("write the temporary file");
    file
}

fn env(vars: &[(&str, &str)]) -> Vec<(String, String)> {
    vars.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn load(file: Option<&Path>, vars: &[(&str, &str)]) -> Result<Settings, String> {
    Settings::load_from(file, env(vars)).map_err(|e| e.to_string())
}

/// The error of a configuration that must be refused; it must be one line naming `needle`.
fn refused(file_contents: Option<&str>, vars: &[(&str, &str)], needle: &str) -> String {
    let file = file_contents.map(toml_file);
    let error = load(file.as_ref().map(|f| f.path()), vars)
        .expect_err("this configuration must be refused");
    assert!(!error.contains('\n'), "error is not one line: {error:?}");
    assert!(
        error.contains(needle),
        "error does not name {needle:?}: {error}"
    );
    error
}

#[test]
fn defaults_load_without_file_or_environment() {
    let settings = load(None, &[]).expect("the defaults load");
    assert_eq!(settings, Settings::default());
    let server = &settings.server;
    assert_eq!(
        server.listen,
        "0.0.0.0:50051".parse::<SocketAddr>().unwrap()
    );
    assert_eq!(server.max_message_bytes, 1024 * 1024);
    assert_eq!(server.concurrency_limit_per_connection, Some(256));
    assert_eq!(server.max_concurrent_streams, 1024);
    assert_eq!(server.request_timeout, Some(Duration::from_secs(30)));
    assert_eq!(server.shutdown_grace, Duration::from_secs(10));
    assert!(server.tcp_nodelay);
    assert_eq!(server.tcp_keepalive, Some(Duration::from_secs(60)));
    assert_eq!(
        server.http2_keepalive_interval,
        Some(Duration::from_secs(30))
    );
    assert_eq!(server.http2_keepalive_timeout, Duration::from_secs(10));
    assert_eq!(server.max_connections, 10_000);
    assert_eq!(server.handshake_timeout, Duration::from_secs(10));
    assert_eq!(server.idle_timeout, Some(Duration::from_secs(300)));
    assert_eq!(server.max_connection_age, Some(Duration::from_secs(1800)));
    assert_eq!(
        server.max_connection_age_grace,
        Some(Duration::from_secs(30))
    );
    assert_eq!(server.health_listen, None, "no health listener by default");
    assert_eq!(settings.log.format, LogFormat::Plain);
    assert_eq!(settings.log.filter, "info");
}

/// Every `section.key` of a TOML text.
fn keys(toml: &str) -> BTreeSet<String> {
    let table: BTreeMap<String, BTreeMap<String, config::Value>> = config::Config::builder()
        .add_source(config::File::from_str(toml, config::FileFormat::Toml))
        .build()
        .and_then(config::Config::try_deserialize)
        .expect("a two-level TOML table");
    table
        .into_iter()
        .flat_map(|(section, entries)| {
            entries
                .into_keys()
                .map(move |key| format!("{section}.{key}"))
        })
        .collect()
}

#[test]
fn example_file_documents_every_key_at_its_default() {
    let settings = load(Some(Path::new(EXAMPLE)), &[]).expect("the example file loads");
    assert_eq!(settings, Settings::default());
    let example = std::fs::read_to_string(EXAMPLE).expect("read the example file");
    assert_eq!(keys(&example), keys(DEFAULTS));
}

#[test]
fn file_overrides_defaults_key_by_key() {
    let file = toml_file(
        r#"
        [server]
        listen = "127.0.0.1:7000"
        max_message_bytes = 2048
        request_timeout_ms = 0
        [log]
        format = "json"
        "#,
    );
    let settings = load(Some(file.path()), &[]).expect("the file loads");
    assert_eq!(settings.server.listen, "127.0.0.1:7000".parse().unwrap());
    assert_eq!(settings.server.max_message_bytes, 2048);
    assert_eq!(
        settings.server.request_timeout, None,
        "0 turns the timeout off"
    );
    assert_eq!(settings.log.format, LogFormat::Json);
    // Keys the file leaves out keep their defaults.
    let defaults = Settings::default();
    assert_eq!(
        settings.server.shutdown_grace,
        defaults.server.shutdown_grace
    );
    assert_eq!(settings.log.filter, defaults.log.filter);
}

#[test]
fn environment_overrides_file() {
    let file = toml_file(
        r#"
        [server]
        listen = "127.0.0.1:7000"
        shutdown_grace_ms = 5000
        [log]
        format = "plain"
        "#,
    );
    let settings = load(
        Some(file.path()),
        &[
            ("MANCALA__SERVER__LISTEN", "127.0.0.1:0"),
            ("MANCALA__LOG__FORMAT", "json"),
            ("MANCALA__SERVER__CONCURRENCY_LIMIT_PER_CONNECTION", "0"),
        ],
    )
    .expect("file and environment load");
    assert_eq!(settings.server.listen, "127.0.0.1:0".parse().unwrap());
    assert_eq!(settings.log.format, LogFormat::Json);
    assert_eq!(settings.server.concurrency_limit_per_connection, None);
    assert_eq!(settings.server.shutdown_grace, Duration::from_secs(5));
}

#[test]
fn variables_without_the_double_underscore_prefix_are_ignored() {
    // Kubernetes injects MANCALA_SERVICE_HOST and friends for a service named `mancala`.
    let settings = load(
        None,
        &[
            ("MANCALA_SERVICE_HOST", "10.0.0.1"),
            ("MANCALA_PORT", "tcp://10.0.0.1:50051"),
            ("PATH", "/usr/bin"),
        ],
    )
    .expect("unrelated variables are ignored");
    assert_eq!(settings, Settings::default());
}

/// The names operators put in manifests; renaming one is a breaking change.
#[test]
fn environment_variable_names_are_pinned() {
    let pinned = [
        ("MANCALA__SERVER__LISTEN", "127.0.0.1:1", "server", "listen"),
        (
            "MANCALA__SERVER__MAX_MESSAGE_BYTES",
            "77",
            "server",
            "max_message_bytes",
        ),
        (
            "MANCALA__SERVER__CONCURRENCY_LIMIT_PER_CONNECTION",
            "3",
            "server",
            "concurrency_limit_per_connection",
        ),
        (
            "MANCALA__SERVER__MAX_CONCURRENT_STREAMS",
            "5",
            "server",
            "max_concurrent_streams",
        ),
        (
            "MANCALA__SERVER__REQUEST_TIMEOUT_MS",
            "7",
            "server",
            "request_timeout_ms",
        ),
        (
            "MANCALA__SERVER__SHUTDOWN_GRACE_MS",
            "11",
            "server",
            "shutdown_grace_ms",
        ),
        (
            "MANCALA__SERVER__TCP_NODELAY",
            "false",
            "server",
            "tcp_nodelay",
        ),
        (
            "MANCALA__SERVER__TCP_KEEPALIVE_MS",
            "13",
            "server",
            "tcp_keepalive_ms",
        ),
        (
            "MANCALA__SERVER__HTTP2_KEEPALIVE_INTERVAL_MS",
            "17",
            "server",
            "http2_keepalive_interval_ms",
        ),
        (
            "MANCALA__SERVER__HTTP2_KEEPALIVE_TIMEOUT_MS",
            "19",
            "server",
            "http2_keepalive_timeout_ms",
        ),
        (
            "MANCALA__SERVER__MAX_CONNECTIONS",
            "41",
            "server",
            "max_connections",
        ),
        (
            "MANCALA__SERVER__MAX_CONNECTIONS_PER_ADDRESS",
            "43",
            "server",
            "max_connections_per_address",
        ),
        (
            "MANCALA__SERVER__HANDSHAKE_TIMEOUT_MS",
            "43",
            "server",
            "handshake_timeout_ms",
        ),
        (
            "MANCALA__SERVER__IDLE_TIMEOUT_MS",
            "47",
            "server",
            "idle_timeout_ms",
        ),
        (
            "MANCALA__SERVER__MAX_CONNECTION_AGE_MS",
            "53",
            "server",
            "max_connection_age_ms",
        ),
        (
            "MANCALA__SERVER__MAX_CONNECTION_AGE_GRACE_MS",
            "59",
            "server",
            "max_connection_age_grace_ms",
        ),
        (
            "MANCALA__SERVER__HEALTH_LISTEN",
            "127.0.0.1:3",
            "server",
            "health_listen",
        ),
        ("MANCALA__SERVER__ECHO", "false", "server", "echo"),
        ("MANCALA__SERVER__DEV", "true", "server", "dev"),
        (
            "MANCALA__SERVER__CORS_ALLOWED_ORIGINS",
            "https://a.example",
            "server",
            "cors_allowed_origins",
        ),
        ("MANCALA__LOG__FORMAT", "json", "log", "format"),
        ("MANCALA__LOG__FILTER", "debug", "log", "filter"),
        ("MANCALA__MATCHES__STORE", "memory", "matches", "store"),
        (
            "MANCALA__MATCHES__DATA_DIR",
            "/srv/m",
            "matches",
            "data_dir",
        ),
        (
            "MANCALA__MATCHES__RETENTION_MS",
            "23",
            "matches",
            "retention_ms",
        ),
        (
            "MANCALA__MATCHES__MAX_WATCHERS_PER_MATCH",
            "2",
            "matches",
            "max_watchers_per_match",
        ),
        (
            "MANCALA__MATCHES__MAX_WATCHERS_TOTAL",
            "3",
            "matches",
            "max_watchers_total",
        ),
        (
            "MANCALA__MATCHES__MAX_STREAMS_PER_SEAT",
            "5",
            "matches",
            "max_streams_per_seat",
        ),
        (
            "MANCALA__MATCHES__HEARTBEAT_INTERVAL_MS",
            "29",
            "matches",
            "heartbeat_interval_ms",
        ),
        (
            "MANCALA__MATCHES__WATCHER_BUFFER",
            "31",
            "matches",
            "watcher_buffer",
        ),
        (
            "MANCALA__MATCHES__REDIS_URL",
            "redis://10.0.0.7:6380/2",
            "matches",
            "redis_url",
        ),
        (
            "MANCALA__MATCHES__REDIS_KEY_PREFIX",
            "staging:",
            "matches",
            "redis_key_prefix",
        ),
        (
            "MANCALA__MATCHES__REDIS_REQUEST_TTL_MS",
            "37",
            "matches",
            "redis_request_ttl_ms",
        ),
        (
            "MANCALA__MATCHES__REDIS_WAIT_REPLICAS",
            "2",
            "matches",
            "redis_wait_replicas",
        ),
        (
            "MANCALA__MATCHES__REDIS_WAIT_TIMEOUT_MS",
            "41",
            "matches",
            "redis_wait_timeout_ms",
        ),
        (
            "MANCALA__METRICS__LISTEN",
            "127.0.0.1:9091",
            "metrics",
            "listen",
        ),
        (
            "MANCALA__ENGINE__POOL_THREADS",
            "3",
            "engine",
            "pool_threads",
        ),
        ("MANCALA__ENGINE__QUEUE_LIMIT", "5", "engine", "queue_limit"),
        (
            "MANCALA__ENGINE__INLINE_LAPS",
            "61",
            "engine",
            "inline_laps",
        ),
        (
            "MANCALA__ENGINE__RULES_BUDGET_LAPS",
            "67",
            "engine",
            "rules_budget_laps",
        ),
        (
            "MANCALA__ENGINE__MATCH_BUDGET_LAPS",
            "71",
            "engine",
            "match_budget_laps",
        ),
        (
            "MANCALA__ENGINE__QUICK_THREADS",
            "2",
            "engine",
            "quick_threads",
        ),
        (
            "MANCALA__ENGINE__QUICK_SEARCH_LAPS",
            "79",
            "engine",
            "quick_search_laps",
        ),
        (
            "MANCALA__ENGINE__MAX_LONG_CALLS_PER_CALLER",
            "4",
            "engine",
            "max_long_calls_per_caller",
        ),
        (
            "MANCALA__MATCHES__IDLE_EXPIRY_MS",
            "73",
            "matches",
            "idle_expiry_ms",
        ),
        ("MANCALA__AUTH__REQUIRED", "true", "auth", "required"),
        (
            "MANCALA__AUTH__OPERATOR_KEY_SHA256",
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "auth",
            "operator_key_sha256",
        ),
        (
            "MANCALA__AUTH__PLAYER_TOKEN_SECRET",
            "a-secret-of-thirty-two-bytes-or-more",
            "auth",
            "player_token_secret",
        ),
        (
            "MANCALA__AUTH__PLAYER_TOKEN_MAX_TTL_MS",
            "79000",
            "auth",
            "player_token_max_ttl_ms",
        ),
        (
            "MANCALA__AUTH__FAILURES_BEFORE_BACKOFF",
            "7",
            "auth",
            "failures_before_backoff",
        ),
        (
            "MANCALA__AUTH__FAILURE_WINDOW_MS",
            "30011",
            "auth",
            "failure_window_ms",
        ),
        (
            "MANCALA__AUTH__BACKOFF_INITIAL_MS",
            "1103",
            "auth",
            "backoff_initial_ms",
        ),
        (
            "MANCALA__AUTH__BACKOFF_MAX_MS",
            "1109",
            "auth",
            "backoff_max_ms",
        ),
        (
            "MANCALA__LIMITS__CALLS_PER_SECOND_PER_PLAYER",
            "61",
            "limits",
            "calls_per_second_per_player",
        ),
        (
            "MANCALA__LIMITS__BURST_PER_PLAYER",
            "67",
            "limits",
            "burst_per_player",
        ),
        (
            "MANCALA__LIMITS__MAX_ACTIVE_MATCHES_PER_PLAYER",
            "71",
            "limits",
            "max_active_matches_per_player",
        ),
        (
            "MANCALA__LIMITS__MAX_WATCHERS_PER_PLAYER",
            "73",
            "limits",
            "max_watchers_per_player",
        ),
        (
            "MANCALA__ADDRESSES__CALLS_PER_SECOND",
            "127",
            "addresses",
            "calls_per_second",
        ),
        ("MANCALA__ADDRESSES__BURST", "131", "addresses", "burst"),
        (
            "MANCALA__ADDRESSES__MAX_ACTIVE_MATCHES",
            "137",
            "addresses",
            "max_active_matches",
        ),
        (
            "MANCALA__ADDRESSES__MAX_WATCHERS",
            "139",
            "addresses",
            "max_watchers",
        ),
        (
            "MANCALA__ADDRESSES__MAX_TRACKED",
            "149",
            "addresses",
            "max_tracked",
        ),
        (
            "MANCALA__LIMITS__CALLS_PER_SECOND",
            "83",
            "limits",
            "calls_per_second",
        ),
        ("MANCALA__LIMITS__BURST", "89", "limits", "burst"),
        (
            "MANCALA__LIMITS__MAX_ACTIVE_MATCHES",
            "97",
            "limits",
            "max_active_matches",
        ),
        (
            "MANCALA__LIMITS__MAX_WATCHERS",
            "101",
            "limits",
            "max_watchers",
        ),
        (
            "MANCALA__SEARCH__DEFAULT_LEVEL",
            "2",
            "search",
            "default_level",
        ),
        (
            "MANCALA__SEARCH__MAX_ITERATIONS",
            "150000",
            "search",
            "max_iterations",
        ),
        (
            "MANCALA__SEARCH__MAX_TIME_MS",
            "111",
            "search",
            "max_time_ms",
        ),
        (
            "MANCALA__BOTS__THINK_DELAY_MS",
            "103",
            "bots",
            "think_delay_ms",
        ),
        ("MANCALA__BOTS__MAX_LEVEL", "4", "bots", "max_level"),
        ("MANCALA__BOTS__MAX_THINKING", "107", "bots", "max_thinking"),
        (
            "MANCALA__BOTS__SWEEP_INTERVAL_MS",
            "109",
            "bots",
            "sweep_interval_ms",
        ),
        (
            "MANCALA__CLOCK__ABORT_AFTER_MS",
            "30001",
            "clock",
            "abort_after_ms",
        ),
        (
            "MANCALA__CLOCK__ABANDON_AFTER_MS",
            "30002",
            "clock",
            "abandon_after_ms",
        ),
        (
            "MANCALA__CLOCK__MAX_INITIAL_MS",
            "30003",
            "clock",
            "max_initial_ms",
        ),
        (
            "MANCALA__CLOCK__SWEEP_INTERVAL_MS",
            "30004",
            "clock",
            "sweep_interval_ms",
        ),
        (
            "MANCALA__LOBBY__CHALLENGE_TTL_MS",
            "113",
            "lobby",
            "challenge_ttl_ms",
        ),
        // Alone, at least the default challenge_ttl_ms (600000).
        (
            "MANCALA__LOBBY__MAX_CHALLENGE_TTL_MS",
            "700001",
            "lobby",
            "max_challenge_ttl_ms",
        ),
        ("MANCALA__LOBBY__SEEK_TTL_MS", "131", "lobby", "seek_ttl_ms"),
        (
            "MANCALA__LOBBY__MAX_PENDING_PER_PLAYER",
            "137",
            "lobby",
            "max_pending_per_player",
        ),
        (
            "MANCALA__LOBBY__HEARTBEAT_MS",
            "139",
            "lobby",
            "heartbeat_ms",
        ),
        (
            "MANCALA__LOBBY__SWEEP_INTERVAL_MS",
            "149",
            "lobby",
            "sweep_interval_ms",
        ),
        (
            "MANCALA__LOBBY__REPAIR_INTERVAL_MS",
            "151",
            "lobby",
            "repair_interval_ms",
        ),
        (
            "MANCALA__LOBBY__MAX_STREAMS_PER_PLAYER",
            "157",
            "lobby",
            "max_streams_per_player",
        ),
        (
            "MANCALA__TELEMETRY__OTLP_ENDPOINT",
            "http://127.0.0.1:4317",
            "telemetry",
            "otlp_endpoint",
        ),
        (
            "MANCALA__TELEMETRY__SERVICE_NAME",
            "mancala-eu",
            "telemetry",
            "service_name",
        ),
        (
            "MANCALA__TELEMETRY__SAMPLE_RATIO",
            "0.25",
            "telemetry",
            "sample_ratio",
        ),
    ];
    let pinned_keys: BTreeSet<String> = pinned
        .iter()
        .map(|(_, _, section, key)| format!("{section}.{key}"))
        .collect();
    // The [tls] keys name files that must exist and go together: they are pinned in
    // `tls_settings_name_readable_pem_files_and_go_together`.
    let untls: BTreeSet<String> = keys(DEFAULTS)
        .into_iter()
        .filter(|k| !k.starts_with("tls."))
        .collect();
    assert_eq!(pinned_keys, untls, "every key has a pinned variable");

    for (var, value, section, key) in pinned {
        assert_eq!(env_var_name(section, key), var);
        let settings = load(None, &[(var, value)]).unwrap_or_else(|e| panic!("{var}: {e}"));
        assert_ne!(settings, Settings::default(), "{var} changed nothing");
    }

    let all: Vec<(&str, &str)> = pinned
        .iter()
        .map(|(var, value, ..)| (*var, *value))
        .collect();
    let s = load(None, &all).expect("all variables at once");
    assert_eq!(s.server.listen, "127.0.0.1:1".parse().unwrap());
    assert_eq!(s.server.max_message_bytes, 77);
    assert_eq!(s.server.concurrency_limit_per_connection, Some(3));
    assert_eq!(s.server.max_concurrent_streams, 5);
    assert_eq!(s.server.request_timeout, Some(Duration::from_millis(7)));
    assert_eq!(s.server.shutdown_grace, Duration::from_millis(11));
    assert!(!s.server.tcp_nodelay);
    assert_eq!(s.lobby.challenge_ttl, Duration::from_millis(113));
    assert_eq!(s.lobby.max_streams_per_player, 157);
    assert_eq!(s.matches.redis_wait_replicas, 2);
    assert_eq!(s.matches.redis_wait_timeout, Duration::from_millis(41));
    assert_eq!(s.server.max_connections_per_address, 43);
    assert_eq!(s.auth.failures_before_backoff, 7);
    assert_eq!(s.auth.backoff_max, Duration::from_millis(1109));
    assert_eq!(s.limits.max_active_matches_per_player, 71);
    assert_eq!(s.addresses.max_watchers, 139);
    assert_eq!(s.addresses.max_tracked, 149);
    assert_eq!(s.server.tcp_keepalive, Some(Duration::from_millis(13)));
    assert_eq!(
        s.server.http2_keepalive_interval,
        Some(Duration::from_millis(17))
    );
    assert_eq!(s.server.http2_keepalive_timeout, Duration::from_millis(19));
    assert_eq!(s.server.max_connections, 41);
    assert_eq!(
        (
            s.engine.pool_threads,
            s.engine.queue_limit,
            s.engine.inline_laps,
            s.engine.rules_budget_laps,
            s.engine.match_budget_laps
        ),
        (3, 5, 61, 67, 71)
    );
    assert_eq!(
        (
            s.engine.quick_threads,
            s.engine.quick_search_laps,
            s.engine.max_long_calls_per_caller
        ),
        (2, 79, 4)
    );
    assert_eq!(s.server.handshake_timeout, Duration::from_millis(43));
    assert_eq!(s.server.idle_timeout, Some(Duration::from_millis(47)));
    assert_eq!(s.server.max_connection_age, Some(Duration::from_millis(53)));
    assert_eq!(
        s.server.max_connection_age_grace,
        Some(Duration::from_millis(59))
    );
    assert_eq!(s.server.health_listen, Some("127.0.0.1:3".parse().unwrap()));
    assert_eq!(
        s.server.cors_allowed_origins,
        mancala::config::CorsOrigins::List(vec!["https://a.example".into()])
    );
    assert_eq!(s.log.format, LogFormat::Json);
    assert_eq!(s.log.filter, "debug");
    assert!(s.auth.required);
    assert_eq!(s.auth.player_token_max_ttl, Duration::from_millis(79000));
    assert_eq!(s.limits.calls_per_second, 83);
    assert_eq!(s.limits.max_watchers, 101);
    assert_eq!(s.matches.idle_expiry, Some(Duration::from_millis(73)));
    assert_eq!(
        (
            s.search.default_level,
            s.search.max_iterations,
            s.search.max_time
        ),
        (2, 150000, Duration::from_millis(111))
    );
    assert_eq!(
        s.telemetry.otlp_endpoint.as_deref(),
        Some("http://127.0.0.1:4317")
    );
    assert_eq!(s.telemetry.service_name, "mancala-eu");
    assert_eq!(s.telemetry.sample_ratio, 0.25);
    assert_eq!(s.bots.think_delay, Duration::from_millis(103));
    assert_eq!(
        (s.bots.max_level, s.bots.max_thinking, s.bots.sweep_interval),
        (4, 107, Some(Duration::from_millis(109)))
    );
}

#[test]
fn bad_auth_settings_are_refused_naming_the_key() {
    refused(
        None,
        &[("MANCALA__AUTH__OPERATOR_KEY_SHA256", "not-a-hash")],
        "auth.operator_key_sha256",
    );
    refused(
        None,
        &[("MANCALA__AUTH__PLAYER_TOKEN_SECRET", "short")],
        "auth.player_token_secret",
    );
    refused(
        Some("[limits]\ncalls_per_second = -1\n"),
        &[],
        "calls_per_second",
    );
}

#[test]
fn bad_bot_settings_are_refused_naming_the_key() {
    refused(None, &[("MANCALA__BOTS__MAX_LEVEL", "0")], "bots.max_level");
    refused(
        None,
        &[("MANCALA__BOTS__MAX_LEVEL", "99")],
        "bots.max_level",
    );
    refused(
        None,
        &[("MANCALA__BOTS__MAX_THINKING", "0")],
        "bots.max_thinking",
    );
}

#[test]
fn unknown_keys_are_refused() {
    refused(
        Some("[server]\nlisten_addr = \"127.0.0.1:1\"\n"),
        &[],
        "listen_addr",
    );
    refused(Some("[database]\nurl = \"redis://x\"\n"), &[], "database");
    refused(Some("port = 50051\n"), &[], "port");
    refused(None, &[("MANCALA__SERVER__PORT", "50051")], "port");
    refused(None, &[("MANCALA__LOGGING__FORMAT", "json")], "logging");
}

#[test]
fn bad_values_are_refused_naming_the_key() {
    refused(
        Some("[server]\nmax_message_bytes = \"lots\"\n"),
        &[],
        "max_message_bytes",
    );
    refused(
        Some("[server]\nmax_message_bytes = -1\n"),
        &[],
        "max_message_bytes",
    );
    refused(
        Some("[server]\nmax_message_bytes = 0\n"),
        &[],
        "max_message_bytes",
    );
    refused(Some("[server]\nlisten = \"nowhere\"\n"), &[], "listen");
    refused(Some("[server]\nlisten = \"127.0.0.1\"\n"), &[], "listen");
    refused(
        Some("[server]\nmax_concurrent_streams = 0\n"),
        &[],
        "max_concurrent_streams",
    );
    refused(Some("[log]\nformat = \"xml\"\n"), &[], "format");
    refused(Some("[log]\nfilter = \"info,=[\"\n"), &[], "filter");
    refused(
        None,
        &[("MANCALA__SERVER__REQUEST_TIMEOUT_MS", "soon")],
        "request_timeout_ms",
    );
    refused(None, &[("MANCALA__SERVER__LISTEN", "localhost")], "listen");
    refused(None, &[("MANCALA__MATCHES__STORE", "sqlite")], "sqlite");
    refused(
        None,
        &[("MANCALA__MATCHES__WATCHER_BUFFER", "0")],
        "watcher_buffer",
    );
    refused(
        None,
        &[("MANCALA__MATCHES__MAX_WATCHERS_TOTAL", "0")],
        "max_watchers_total",
    );
    refused(None, &[("MANCALA__MATCHES__DATA_DIR", "")], "data_dir");
    refused(
        None,
        &[("MANCALA__SERVER__TCP_NODELAY", "maybe")],
        "tcp_nodelay",
    );
    refused(
        None,
        &[("MANCALA__SERVER__MAX_CONNECTIONS", "0")],
        "max_connections",
    );
    refused(
        None,
        &[("MANCALA__SERVER__MAX_CONNECTIONS", "-1")],
        "max_connections",
    );
    refused(
        None,
        &[("MANCALA__SERVER__HANDSHAKE_TIMEOUT_MS", "0")],
        "handshake_timeout_ms",
    );
    refused(
        None,
        &[("MANCALA__SERVER__IDLE_TIMEOUT_MS", "five minutes")],
        "idle_timeout_ms",
    );
    refused(
        Some("[server]\nmax_connection_age_ms = -1\n"),
        &[],
        "max_connection_age_ms",
    );
    refused(
        None,
        &[("MANCALA__SEARCH__DEFAULT_LEVEL", "0")],
        "search.default_level",
    );
    refused(
        None,
        &[("MANCALA__SEARCH__DEFAULT_LEVEL", "99")],
        "search.default_level",
    );
    refused(
        None,
        &[("MANCALA__SEARCH__MAX_ITERATIONS", "0")],
        "search.max_iterations",
    );
    // The default level must be one a request may ask for (level 6 searches more than one iteration).
    refused(
        None,
        &[
            ("MANCALA__SEARCH__DEFAULT_LEVEL", "6"),
            ("MANCALA__SEARCH__MAX_ITERATIONS", "1"),
        ],
        "above search.max_iterations",
    );
}

/// `0` turns the connection timeouts off, where off makes sense.
#[test]
fn connection_timeouts_can_be_turned_off() {
    let s = load(
        None,
        &[
            ("MANCALA__SERVER__IDLE_TIMEOUT_MS", "0"),
            ("MANCALA__SERVER__MAX_CONNECTION_AGE_MS", "0"),
            ("MANCALA__SERVER__MAX_CONNECTION_AGE_GRACE_MS", "0"),
        ],
    )
    .expect("0 means off");
    assert_eq!(s.server.idle_timeout, None);
    assert_eq!(s.server.max_connection_age, None);
    assert_eq!(s.server.max_connection_age_grace, None);
}

#[test]
fn bad_files_are_refused() {
    refused(Some("[server\nlisten = 1\n"), &[], "TOML");
    let missing = Path::new("/nonexistent/mancala.toml");
    let error = load(Some(missing), &[]).expect_err("a missing file is an error");
    assert!(error.contains("/nonexistent/mancala.toml"), "{error}");
}

/// Runs the real binary; it must stop before binding, with exit code 1 and one line on stderr.
fn run_binary_expecting_failure(args: &[&str], vars: &[(&str, &str)], needle: &str) {
    let output = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .envs(vars.iter().copied())
        // Nothing may bind even if the configuration were accepted by mistake.
        .env("MANCALA__SERVER__LISTEN", "127.0.0.1:0")
        .env_remove("RUST_LOG")
        .output()
        .expect("run the mancala binary");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "stderr is not one line: {stderr:?}");
    assert!(lines[0].starts_with("mancala: "), "{stderr}");
    assert!(
        lines[0].contains(needle),
        "stderr does not name {needle:?}: {stderr}"
    );
    assert!(
        output.stdout.is_empty(),
        "nothing is logged before the configuration is valid"
    );
}

#[test]
fn binary_refuses_a_bad_config_file_with_one_line() {
    let file = toml_file("[server]\nmax_message_bytes = \"lots\"\n");
    let path = file.path().to_str().expect("a UTF-8 temporary path");
    run_binary_expecting_failure(&["serve", "--config", path], &[], "max_message_bytes");
    run_binary_expecting_failure(&["--config", path], &[], "max_message_bytes");

    let file = toml_file("[server]\nbogus = 1\n");
    let path = file.path().to_str().expect("a UTF-8 temporary path");
    run_binary_expecting_failure(&["serve", "--config", path], &[], "bogus");

    let file = toml_file("[server\n");
    let path = file.path().to_str().expect("a UTF-8 temporary path");
    run_binary_expecting_failure(&["serve", "--config", path], &[], "TOML");

    run_binary_expecting_failure(
        &["serve", "--config", "/nonexistent/mancala.toml"],
        &[],
        "/nonexistent/mancala.toml",
    );
}

#[test]
fn binary_refuses_a_bad_environment_value_with_one_line() {
    run_binary_expecting_failure(&["serve"], &[("MANCALA__LOG__FORMAT", "xml")], "format");
    run_binary_expecting_failure(
        &[],
        &[("MANCALA__SERVER__SHUTDOWN_GRACE_MS", "-5")],
        "shutdown_grace_ms",
    );
    run_binary_expecting_failure(
        &[],
        &[
            ("MANCALA__TLS__CERT_FILE", "/nonexistent/tls.crt"),
            ("MANCALA__TLS__KEY_FILE", "/nonexistent/tls.key"),
        ],
        "tls.cert_file /nonexistent/tls.crt: cannot read",
    );
}

#[test]
fn redis_store_and_metrics_settings_load_and_bad_ones_are_refused() {
    let s = load(
        None,
        &[
            ("MANCALA__MATCHES__STORE", "redis"),
            (
                "MANCALA__MATCHES__REDIS_URL",
                "redis://:secret@10.0.0.7:6380",
            ),
            ("MANCALA__METRICS__LISTEN", "0.0.0.0:9090"),
        ],
    )
    .expect("a redis store and a metrics address");
    assert_eq!(s.matches.store, mancala::config::StoreKind::Redis);
    assert_eq!(s.matches.redis_key_prefix, "mancala:");
    assert_eq!(
        s.matches.redis_request_ttl,
        Some(Duration::from_secs(7 * 24 * 3600))
    );
    assert_eq!(s.metrics.listen, Some("0.0.0.0:9090".parse().unwrap()));
    assert_eq!(Settings::default().metrics.listen, None, "off by default");
    for off in ["", "off"] {
        let s = load(None, &[("MANCALA__METRICS__LISTEN", off)]).expect("off");
        assert_eq!(s.metrics.listen, None);
    }
    refused(None, &[("MANCALA__METRICS__LISTEN", "9090")], "9090");
    // A bad URL is refused by name, and a password in it is never repeated.
    let error = refused(
        None,
        &[
            ("MANCALA__MATCHES__STORE", "redis"),
            (
                "MANCALA__MATCHES__REDIS_URL",
                "postgres://u:hunter2@db:5432",
            ),
        ],
        "matches.redis_url",
    );
    assert!(!error.contains("hunter2"), "{error}");
    refused(None, &[("MANCALA__MATCHES__STORE", "mongo")], "redis");
    // A cluster by its seeds, writes acknowledged once a replica has them.
    let s = load(
        None,
        &[
            ("MANCALA__MATCHES__STORE", "redis"),
            (
                "MANCALA__MATCHES__REDIS_URL",
                "redis+cluster://:secret@10.0.0.7:7000,10.0.0.8:7000",
            ),
            ("MANCALA__MATCHES__REDIS_WAIT_REPLICAS", "1"),
            ("MANCALA__MATCHES__REDIS_WAIT_TIMEOUT_MS", "250ms"),
        ],
    )
    .expect("a cluster");
    assert_eq!(s.matches.redis_wait_replicas, 1);
    assert_eq!(s.matches.redis_wait_timeout, Duration::from_millis(250));
    assert_eq!(Settings::default().matches.redis_wait_replicas, 0);
    let cluster = |url: &'static str, prefix: &'static str| {
        [
            ("MANCALA__MATCHES__STORE", "redis"),
            ("MANCALA__MATCHES__REDIS_URL", url),
            ("MANCALA__MATCHES__REDIS_KEY_PREFIX", prefix),
        ]
    };
    for (url, problem) in [
        ("redis+cluster://:hunter2@", "names no seed node"),
        ("redis+cluster://:hunter2@h:1/2", "database 0 only"),
    ] {
        let error = refused(None, &cluster(url, "m:"), problem);
        assert!(!error.contains("hunter2"), "{error}");
    }
    refused(
        None,
        &cluster("redis+cluster://h:1", "{app}:"),
        "matches.redis_key_prefix must not contain { or }",
    );
}

#[test]
fn telemetry_is_off_by_default_and_bad_settings_are_refused_naming_the_key() {
    let defaults = Settings::default().telemetry;
    assert_eq!(defaults.otlp_endpoint, None, "no traces unless asked");
    assert_eq!(
        (defaults.service_name.as_str(), defaults.sample_ratio),
        ("mancala", 1.0)
    );
    for off in ["", "off"] {
        let s = load(None, &[("MANCALA__TELEMETRY__OTLP_ENDPOINT", off)]).expect("off");
        assert_eq!(s.telemetry.otlp_endpoint, None);
    }
    let s = load(
        Some(
            toml_file("[telemetry]\notlp_endpoint = \"http://collector:4317\"\nsample_ratio = 0\n")
                .path(),
        ),
        &[],
    )
    .expect("an endpoint and a ratio of 0 from a file");
    assert_eq!(
        (
            s.telemetry.otlp_endpoint.as_deref(),
            s.telemetry.sample_ratio
        ),
        (Some("http://collector:4317"), 0.0)
    );
    for endpoint in [
        "collector:4317",
        "http://collector",
        "grpc://collector:4317",
        "http://:4317",
    ] {
        refused(
            None,
            &[("MANCALA__TELEMETRY__OTLP_ENDPOINT", endpoint)],
            "telemetry.otlp_endpoint",
        );
    }
    refused(
        None,
        &[(
            "MANCALA__TELEMETRY__OTLP_ENDPOINT",
            "https://collector:4317",
        )],
        "TLS to the OTLP collector is not supported",
    );
    for ratio in ["1.5", "-0.1", "NaN"] {
        refused(
            None,
            &[("MANCALA__TELEMETRY__SAMPLE_RATIO", ratio)],
            "telemetry.sample_ratio",
        );
    }
    refused(
        None,
        &[("MANCALA__TELEMETRY__SERVICE_NAME", " ")],
        "telemetry.service_name",
    );
}

#[test]
fn tls_settings_name_readable_pem_files_and_go_together() {
    let pki = crate::support::tls::TestPki::new();
    let (cert, key, ca) = (
        pki.server_cert_file.to_str().expect("UTF-8 path"),
        pki.server_key_file.to_str().expect("UTF-8 path"),
        pki.ca_file.to_str().expect("UTF-8 path"),
    );
    assert!(
        matches!(Settings::default().tls.files(), Ok(None)),
        "plaintext by default"
    );
    let vars = [
        ("MANCALA__TLS__CERT_FILE", cert, "tls", "cert_file"),
        ("MANCALA__TLS__KEY_FILE", key, "tls", "key_file"),
        ("MANCALA__TLS__CLIENT_CA_FILE", ca, "tls", "client_ca_file"),
    ];
    for (var, _, section, key) in vars {
        assert_eq!(env_var_name(section, key), var);
    }
    let all: Vec<(&str, &str)> = vars.iter().map(|(var, value, ..)| (*var, *value)).collect();
    let s = load(None, &all).expect("a certificate, its key and client CAs");
    assert_eq!(s.tls.cert_file.as_deref(), Some(Path::new(cert)));
    assert_eq!(s.tls.key_file.as_deref(), Some(Path::new(key)));
    assert_eq!(s.tls.client_ca_file.as_deref(), Some(Path::new(ca)));
    load(None, &all[..2]).expect("TLS without client certificates");

    // One without the other names the missing key.
    refused(None, &all[..1], "tls.key_file");
    refused(None, &all[1..2], "tls.cert_file");
    refused(None, &all[2..], "tls.client_ca_file needs tls.cert_file");
    // Missing, unreadable or wrong files are named, with the setting, before anything binds.
    let missing = pki.dir.path().join("missing.pem");
    let missing = missing.to_str().expect("UTF-8 path");
    refused(
        None,
        &[("MANCALA__TLS__CERT_FILE", missing), all[1]],
        "tls.cert_file",
    );
    refused(
        None,
        &[all[0], ("MANCALA__TLS__KEY_FILE", missing)],
        "tls.key_file",
    );
    // A key where the certificate should be, and a certificate where the key should be.
    refused(
        None,
        &[
            ("MANCALA__TLS__CERT_FILE", key),
            ("MANCALA__TLS__KEY_FILE", key),
        ],
        "no PEM certificate",
    );
    refused(
        None,
        &[
            ("MANCALA__TLS__CERT_FILE", cert),
            ("MANCALA__TLS__KEY_FILE", cert),
        ],
        "no PEM private key",
    );
    // The client's key does not go with the server's certificate.
    let client_key = pki.client_key_file.to_str().expect("UTF-8 path");
    refused(
        None,
        &[all[0], ("MANCALA__TLS__KEY_FILE", client_key)],
        "does not go with tls.cert_file",
    );
    refused(
        None,
        &[all[0], all[1], ("MANCALA__TLS__CLIENT_CA_FILE", missing)],
        "tls.client_ca_file",
    );
}

#[test]
fn durations_take_milliseconds_or_a_number_with_its_unit() {
    let file =
        toml_file("[server]\nshutdown_grace_ms = \"2m 30s\"\n[clock]\nabandon_after_ms = 45000\n");
    let settings = load(
        Some(file.path()),
        &[
            ("MANCALA__MATCHES__RETENTION_MS", "7days"),
            ("MANCALA__SERVER__REQUEST_TIMEOUT_MS", "1500"),
            ("MANCALA__CLOCK__ABORT_AFTER_MS", "1500ms"),
        ],
    )
    .unwrap();
    assert_eq!(settings.server.shutdown_grace, Duration::from_secs(150));
    assert_eq!(settings.clock.abandon_after, Duration::from_secs(45));
    assert_eq!(
        settings.matches.retention,
        Some(Duration::from_secs(7 * 24 * 3600))
    );
    assert_eq!(
        settings.server.request_timeout,
        Some(Duration::from_millis(1500))
    );
    assert_eq!(settings.clock.abort_after, Duration::from_millis(1500));
    refused(
        None,
        &[("MANCALA__CLOCK__ABORT_AFTER_MS", "5 parsecs")],
        "abort_after_ms",
    );
    refused(
        None,
        &[("MANCALA__CLOCK__ABANDON_AFTER_MS", "10ms")],
        "abandon_after_ms",
    );
}
