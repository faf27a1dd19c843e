//! The deserializers of the keys whose text needs reading: durations (`…_ms`), socket addresses, the OTLP
//! endpoint and paths, where `""`, `"off"` or `0` means none.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use serde::{Deserialize, Deserializer};

pub(super) fn socket_addr<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<SocketAddr, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(|_| {
        serde::de::Error::custom(format_args!(
            "{text:?} is not a socket address (expected IP:PORT, e.g. \"0.0.0.0:50051\")"
        ))
    })
}

/// An address, or nothing for `""` and `"off"`.
pub(super) fn optional_socket_addr<'de, D: Deserializer<'de>>(
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
pub(super) fn optional_otlp_endpoint<'de, D: Deserializer<'de>>(
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
pub(super) fn optional_path<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<PathBuf>, D::Error> {
    let text = String::deserialize(deserializer)?;
    Ok((!text.trim().is_empty()).then(|| PathBuf::from(text)))
}

/// A duration key (`…_ms`): a whole number of milliseconds (`30000`), or a duration with its unit as the command
/// line takes them (`"30s"`, `"1m 30s"`, `"250ms"`, `"7days"`).
pub(super) fn millis<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
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

pub(super) fn millis_zero_is_none<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Duration>, D::Error> {
    millis(deserializer).map(|duration| (!duration.is_zero()).then_some(duration))
}

pub(super) fn zero_is_none<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<usize>, D::Error> {
    usize::deserialize(deserializer).map(|n| (n != 0).then_some(n))
}
