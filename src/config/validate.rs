//! The checks a configuration must pass that its types alone cannot express, each failing with one line that
//! names the key.

use std::time::Duration;

use super::{ConfigError, SearchSettings, Settings, StoreKind};

impl Settings {
    /// Checks what the types alone cannot.
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
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
            let at = super::RedisAt::parse(&matches.redis_url).map_err(ConfigError::new)?;
            let braces = matches.redis_key_prefix.contains(['{', '}']);
            if braces && matches!(at, super::RedisAt::Cluster(_)) {
                // A brace in the prefix would become every key's hash tag, or cut the matches' own tags short.
                return Err(ConfigError::new(
                    "matches.redis_key_prefix must not contain { or } on a Redis Cluster: the keys' hash tags follow it",
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
