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
//!
//! One file per job: the defaults (`defaults.rs`), the sections' types by area (`server.rs`, `engine.rs`,
//! `matches.rs`, `auth.rs`, `tls.rs`, `observability.rs`), the checks the types alone cannot make
//! (`validate.rs`), and the deserializers of durations, addresses and paths (`de.rs`).
//! Every type is re-exported here, so `crate::config::X` names it wherever it lives.

mod auth;
mod de;
mod defaults;
mod dev;
mod engine;
mod matches;
mod observability;
mod server;
mod tls;
mod validate;

use std::{collections::HashMap, ffi::OsString, fmt, path::Path};

use serde::Deserialize;

pub use self::{
    auth::{AddressLimits, AuthSettings, TenantLimits},
    defaults::DEFAULTS,
    dev::{DEV_OPERATOR_KEY, DEV_TENANT},
    engine::{EngineSettings, SearchSettings},
    matches::{BotSettings, ClockSettings, LobbySettings, MatchSettings, RedisAt, StoreKind},
    observability::{LogFormat, LogSettings, MetricsSettings, TelemetrySettings},
    server::{CorsOrigins, ServerSettings},
    tls::TlsSettings,
};

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
        let mut settings = settings;
        settings.develop()?;
        settings.validate()?;
        Ok(settings)
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
