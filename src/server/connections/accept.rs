//! The accept loop: at most `server.max_connections` open at once, each client address within its share of
//! them, and a pause instead of a busy loop when accepting fails for want of resources.

use std::{
    future::Future,
    io,
    pin::Pin,
    sync::Arc,
    task::{ready, Context, Poll},
};

use tokio::{net::TcpStream, sync::OwnedSemaphorePermit, time::Sleep};
use tokio_stream::Stream;
use tokio_util::sync::PollSemaphore;
use tonic::transport::server::TcpIncoming;

use super::backoff::{AcceptAction, AcceptBackoff};
use super::connection::Connection;
use super::Limits;
use crate::identity::Address;
use crate::sync::Held;

/// The accepted connections of a listener, at most `max_connections` open at once.
///
/// It never yields an error: failures to accept are handled (and logged) here, since tonic would
/// only retry them at once. Dropping it closes the listener; tonic does so when shutdown starts.
pub(crate) struct Incoming {
    pub(super) listener: TcpIncoming,
    pub(super) permits: PollSemaphore,
    /// The permit for the next connection, taken before accepting it.
    pub(super) permit: Option<OwnedSemaphorePermit>,
    /// Whether the last attempt to take a permit found none (logged once per episode).
    pub(super) at_cap: bool,
    pub(super) backoff: AcceptBackoff,
    /// While accepting is paused after a resource error.
    pub(super) pause: Option<Pin<Box<Sleep>>>,
    pub(super) limits: Arc<Limits>,
}

impl Stream for Incoming {
    type Item = io::Result<Connection>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(pause) = &mut this.pause {
                ready!(pause.as_mut().poll(cx));
                this.pause = None;
            }
            if this.permit.is_none() {
                match this.permits.poll_acquire(cx) {
                    Poll::Ready(Some(permit)) => {
                        if this.at_cap {
                            this.at_cap = false;
                            tracing::info!(
                                max_connections = this.limits.max_connections,
                                "below max_connections again: accepting connections"
                            );
                        }
                        this.permit = Some(permit);
                    }
                    // The semaphore is never closed.
                    Poll::Ready(None) => return Poll::Ready(None),
                    Poll::Pending => {
                        if !this.at_cap {
                            this.at_cap = true;
                            this.limits.metrics.accept_paused("max_connections");
                            tracing::warn!(
                                max_connections = this.limits.max_connections,
                                "max_connections reached: not accepting until a connection closes"
                            );
                        }
                        return Poll::Pending;
                    }
                }
            }
            match ready!(Pin::new(&mut this.listener).poll_next(cx)) {
                None => return Poll::Ready(None),
                Some(Ok(stream)) => {
                    if let Some(episode) = this.backoff.on_accept() {
                        tracing::info!(
                            errors = episode.errors,
                            paused_ms = episode.paused.as_millis() as u64,
                            "accepting connections again"
                        );
                    }
                    let share = match this.limits.share(&stream) {
                        Ok(share) => share,
                        // Closed at once (dropped); its permit stays for the next connection.
                        Err(()) => continue,
                    };
                    let permit = this
                        .permit
                        .take()
                        .expect("a permit is taken before accepting");
                    return Poll::Ready(Some(Ok(Connection::new(
                        stream,
                        permit,
                        share,
                        &this.limits,
                    ))));
                }
                Some(Err(error)) => match this.backoff.on_error(&error) {
                    AcceptAction::Retry => {
                        tracing::debug!(%error, "a connection failed while being accepted");
                    }
                    AcceptAction::Pause { pause, first } => {
                        if first {
                            this.limits.metrics.accept_paused("accept_error");
                            tracing::warn!(
                                %error,
                                "cannot accept connections (out of file descriptors or memory?): \
                                 retrying with back-off until one succeeds"
                            );
                        }
                        this.pause = Some(Box::pin(tokio::time::sleep(pause)));
                    }
                },
            }
        }
    }
}

impl Limits {
    /// `stream`'s place in its address's share; `Err` when the address holds its share already (the refusal is
    /// counted and logged at DEBUG: a refusal is the limit working, not a fault).
    fn share(&self, stream: &TcpStream) -> Result<Option<Held<Address>>, ()> {
        if self.max_per_address == 0 {
            return Ok(None);
        }
        let Ok(peer) = stream.peer_addr() else {
            return Ok(None);
        };
        let address = Address::of(peer.ip());
        match self.per_address.take(&address, self.max_per_address) {
            Ok(held) => Ok(Some(held)),
            Err(open) => {
                self.metrics.caller_refused("max_connections_per_address");
                tracing::debug!(
                    %address,
                    open,
                    "connection closed: the address holds its share (server.max_connections_per_address)"
                );
                Err(())
            }
        }
    }
}

/// Descriptors the server needs besides its client connections: the listener, the store, Redis,
/// the metrics endpoint, the runtime. A rough allowance, only for the start-up warning.
pub(super) const DESCRIPTOR_ROOM: usize = 64;

/// The soft limit on open files of this process, where the system tells it without `unsafe`.
pub(super) fn open_files_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    parse_open_files_limit(&limits)
}

/// The soft limit of the "Max open files" line of a `/proc/<pid>/limits` text.
fn parse_open_files_limit(limits: &str) -> Option<usize> {
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_open_files_limit_is_read_from_proc_limits() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \n\
                    Max cpu time              unlimited            unlimited            seconds   \n\
                    Max open files            1024                 524288               files     \n";
        assert_eq!(parse_open_files_limit(text), Some(1024));
        let unlimited =
            "Max open files            unlimited            unlimited            files\n";
        assert_eq!(parse_open_files_limit(unlimited), None);
        assert_eq!(parse_open_files_limit(""), None);
    }
}
