//! `[log]`, `[metrics]` and `[telemetry]`: the log lines, the Prometheus endpoint and the OTLP traces.

use std::net::SocketAddr;

use serde::{Deserialize, Deserializer};

use super::de::{optional_otlp_endpoint, optional_socket_addr};

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
