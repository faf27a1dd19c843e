//! The built-in defaults: the lowest configuration layer, one TOML document with every key.

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
dev = false
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
redis_wait_replicas = 0
redis_wait_timeout_ms = 1000
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
