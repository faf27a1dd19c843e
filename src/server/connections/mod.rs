//! Connections that cannot be hoarded: the accept loop, the connection cap and the timeouts that
//! close connections which say nothing.
//!
//! - [`Incoming`] accepts connections for tonic, at most `server.max_connections` at a time. At
//!   the cap it stops accepting (new connections wait in the kernel's backlog, where they cost the
//!   process nothing) until one closes. One client address (an IPv4 address, an IPv6 /64) holds at
//!   most `server.max_connections_per_address` of them: one more is accepted and closed at once, so
//!   that a client reopening idle sockets cannot hold the whole cap and lock every other client out. When accepting fails for want of resources (out of file
//!   descriptors, buffers or memory) it backs off instead of retrying at once, which would spin a
//!   core on an error that only a closing connection can clear.
//! - [`Connection`](connection::Connection) wraps each socket. It closes one that has not sent the HTTP/2 preface and its
//!   first frame (or, over HTTP/1.1, for browsers, the head of its first request) within
//!   `server.handshake_timeout_ms`, and one that has had no call in flight for
//!   `server.idle_timeout_ms`.
//! - With `[tls]`, each [`Connection`](connection::Connection) runs its own TLS handshake, driven by hyper's first reads and
//!   writes in the connection's task: the accept loop never waits for a handshake, the handshake
//!   counts within the handshake timeout, and the timers see the decrypted HTTP/2 bytes. (tonic's
//!   own TLS would wrap these connections from outside, so the preface and idle accounting would
//!   see ciphertext, and the connection info the calls need would be hidden in its own type.)
//! - [`CallsLayer`] counts each connection's calls in flight, which the idle timeout reads. It
//!   finds the connection's counter in the request's extensions, where tonic puts the
//!   [`ConnectionInfo`](connection::ConnectionInfo) of the connection ([`Connected`](tonic::transport::server::Connected)). It also puts the client's certificate
//!   chain there ([`PeerCertificates`](crate::tls::PeerCertificates), with mutual TLS).
//!
//! The maximum connection age is tonic's own (`Server::max_connection_age`): it sends the GOAWAY
//!
//! One file per job: the accept loop and the per-address share (`accept.rs`), its back-off on accept errors
//! (`backoff.rs`), each connection and its timers (`connection.rs`), the TLS under it (`transport.rs`), the
//! opening the handshake timeout waits for (`preface.rs`), and the calls-in-flight layer (`calls.rs`).

mod accept;
mod backoff;
mod calls;
mod connection;
mod preface;
mod transport;

use std::{sync::Arc, time::Duration};

use tokio::sync::Semaphore;
use tokio_rustls::rustls::ServerConfig;
use tokio_util::sync::PollSemaphore;
use tonic::transport::server::TcpIncoming;
use tonic::transport::Server;

pub(crate) use self::accept::Incoming;
pub(crate) use self::calls::CallsLayer;

use self::accept::{open_files_limit, DESCRIPTOR_ROOM};
use self::backoff::AcceptBackoff;
use crate::config::ServerSettings;
use crate::identity::Address;
use crate::metrics::Metrics;
use crate::sync::Counts;

/// The connection limits of a server, shared by its accept loop and its connections.
#[derive(Debug, Clone)]
pub(crate) struct Connections {
    limits: Arc<Limits>,
}

#[derive(Debug)]
struct Limits {
    max_connections: usize,
    /// One address's share of `max_connections` (`0`: none).
    max_per_address: usize,
    /// Connections open per address: an entry lives as long as one of its connections.
    per_address: Counts<Address>,
    handshake_timeout: Duration,
    idle_timeout: Option<Duration>,
    max_connection_age: Option<Duration>,
    max_connection_age_grace: Option<Duration>,
    /// The TLS every connection starts with; `None`: plaintext.
    tls: Option<Arc<ServerConfig>>,
    metrics: Metrics,
}

impl Connections {
    /// The limits of `settings`, counted in `metrics`; connections speak TLS with `tls`.
    pub(crate) fn new(
        settings: &ServerSettings,
        tls: Option<Arc<ServerConfig>>,
        metrics: Metrics,
    ) -> Connections {
        Connections {
            limits: Arc::new(Limits {
                max_connections: settings.max_connections,
                max_per_address: settings.max_connections_per_address,
                per_address: Counts::default(),
                handshake_timeout: settings.handshake_timeout,
                idle_timeout: settings.idle_timeout,
                max_connection_age: settings.max_connection_age,
                max_connection_age_grace: settings.max_connection_age_grace,
                tls,
                metrics,
            }),
        }
    }

    /// The connections of `listener` (which sets the socket options), under these limits.
    pub(crate) fn incoming(&self, listener: TcpIncoming) -> Incoming {
        let max_connections = self.limits.max_connections;
        if let Some(limit) = open_files_limit() {
            if max_connections.saturating_add(DESCRIPTOR_ROOM) > limit {
                tracing::warn!(
                    max_connections,
                    open_files_limit = limit,
                    "max_connections leaves too few file descriptors for the rest of the server: \
                     connections will be refused by accept errors first; raise `ulimit -n` or \
                     lower server.max_connections"
                );
            }
        }
        Incoming {
            listener,
            permits: PollSemaphore::new(Arc::new(Semaphore::new(self.limits.max_connections))),
            permit: None,
            at_cap: false,
            backoff: AcceptBackoff::default(),
            pause: None,
            limits: self.limits.clone(),
        }
    }

    /// `builder` with the maximum connection age and its grace.
    pub(crate) fn configure(&self, mut builder: Server) -> Server {
        if let Some(age) = self.limits.max_connection_age {
            builder = builder.max_connection_age(age);
        }
        // Without an age tonic never uses the grace.
        if let Some(grace) = self.limits.max_connection_age_grace {
            builder = builder.max_connection_age_grace(grace);
        }
        builder
    }

    /// The layer that counts each connection's calls in flight, for the idle timeout.
    pub(crate) fn layer(&self) -> CallsLayer {
        crate::middleware::Layer(calls::Calls)
    }
}
