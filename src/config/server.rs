//! `[server]`: the listener, its limits and timeouts, and the origins allowed to call with grpc-web.

use std::{net::SocketAddr, time::Duration};

use serde::{Deserialize, Deserializer};

use super::de::{millis, millis_zero_is_none, optional_socket_addr, socket_addr, zero_is_none};

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
    /// Development mode (`mancala serve --dev`): the lobby works out of the box, on loopback only. An unspecified
    /// `listen` address (`0.0.0.0`, `::`) becomes `127.0.0.1` (any other address beyond loopback is refused), the
    /// operator key is [`super::DEV_OPERATOR_KEY`] unless `auth.operator_key_sha256` names one, and the server
    /// makes the tenant [`super::DEV_TENANT`] at start-up, so that `mancala tenants token dev PLAYER` mints a token.
    pub dev: bool,
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
