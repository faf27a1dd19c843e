//! One accepted connection and its timers: closed when it has not finished its opening within the handshake
//! timeout, or has had no call in flight for the idle timeout; what tonic is told of it ([`ConnectionInfo`]).

use std::{
    future::Future,
    io,
    pin::Pin,
    sync::{
        atomic::{AtomicU64, AtomicUsize, Ordering},
        Arc, OnceLock,
    },
    task::{ready, Context, Poll},
    time::{Duration, Instant},
};

use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::TcpStream,
    sync::OwnedSemaphorePermit,
    time::Sleep,
};
use tokio_rustls::TlsAcceptor;
use tonic::transport::server::{Connected, TcpConnectInfo};

use super::preface::Preface;
use super::transport::Transport;
use super::Limits;
use crate::identity::Address;
use crate::metrics::Metrics;
use crate::sync::Held;
use crate::tls::PeerCertificates;

/// What a connection's calls and its idle timer share.
#[derive(Debug)]
pub(super) struct CallCount {
    /// When the connection was accepted: the origin of `idle_since_ms`.
    pub(super) accepted: Instant,
    /// Calls whose response has not ended yet.
    pub(super) in_flight: AtomicUsize,
    /// When the last call ended (or the handshake did), in ms since `accepted`.
    pub(super) idle_since_ms: AtomicU64,
}

impl CallCount {
    fn idle_since(&self) -> Instant {
        self.accepted + Duration::from_millis(self.idle_since_ms.load(Ordering::Acquire))
    }

    pub(super) fn mark_idle(&self, now: Instant) {
        let ms = now.saturating_duration_since(self.accepted).as_millis();
        self.idle_since_ms
            .store(u64::try_from(ms).unwrap_or(u64::MAX), Ordering::Release);
    }
}

/// What tonic puts in each request's extensions for a [`Connection`] ([`Connected`]).
#[derive(Debug, Clone)]
pub struct ConnectionInfo {
    pub(super) tcp: TcpConnectInfo,
    pub(super) calls: Arc<CallCount>,
    /// The client's certificates, once the TLS handshake has verified them. tonic asks for the
    /// info when it accepts the connection, before the handshake, hence the cell.
    pub(super) peer: Arc<OnceLock<PeerCertificates>>,
}

/// An accepted client connection: a TCP stream that closes itself when the client says nothing.
///
/// The timers are polled whenever hyper waits to read (or write), which it always does on an
/// open HTTP/2 connection, so they need no task of their own.
pub struct Connection {
    stream: Transport,
    info: ConnectionInfo,
    /// Until the client has sent the preface and its first frame.
    handshake: Option<Handshake>,
    /// After the handshake, if idle connections are closed.
    idle: Option<Idle>,
    /// Why the connection was closed, once it has been.
    closed: Option<&'static str>,
    metrics: Metrics,
    // Held for the connection's life: dropping it lets the accept loop take another.
    _permit: OwnedSemaphorePermit,
    // Its place in its address's share, given back with the connection.
    _share: Option<Held<Address>>,
}

struct Handshake {
    progress: Preface,
    deadline: Pin<Box<Sleep>>,
}

struct Idle {
    timeout: Duration,
    check: Pin<Box<Sleep>>,
    /// When bytes last arrived.
    last_read: Instant,
    /// Whether closing was put off once already for bytes that had just arrived.
    deferred: bool,
}

/// How long after the last bytes arrived an idle connection is spared, once: those bytes may be a
/// request that hyper has read but not handed to the service yet. Only once, since they may as
/// well be PING answers, which must not keep a connection open.
const QUIET: Duration = Duration::from_secs(1);

impl Connection {
    pub(super) fn new(
        stream: TcpStream,
        permit: OwnedSemaphorePermit,
        share: Option<Held<Address>>,
        limits: &Limits,
    ) -> Connection {
        let accepted = Instant::now();
        let tcp = stream.connect_info();
        limits.metrics.connections_add(1);
        let stream = match &limits.tls {
            None => Transport::Plain(stream),
            // Only starts the handshake: its bytes flow when hyper first reads or writes.
            Some(config) => {
                Transport::Accepting(Box::new(TlsAcceptor::from(config.clone()).accept(stream)))
            }
        };
        Connection {
            stream,
            info: ConnectionInfo {
                tcp,
                calls: Arc::new(CallCount {
                    accepted,
                    in_flight: AtomicUsize::new(0),
                    idle_since_ms: AtomicU64::new(0),
                }),
                peer: Arc::new(OnceLock::new()),
            },
            handshake: Some(Handshake {
                progress: Preface::default(),
                deadline: Box::pin(tokio::time::sleep(limits.handshake_timeout)),
            }),
            idle: limits.idle_timeout.map(|timeout| Idle {
                timeout,
                check: Box::pin(tokio::time::sleep(timeout)),
                last_read: accepted,
                deferred: false,
            }),
            closed: None,
            metrics: limits.metrics.clone(),
            _permit: permit,
            _share: share,
        }
    }

    /// Notes bytes the client sent.
    fn received(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let now = Instant::now();
        if let Some(idle) = &mut self.idle {
            idle.last_read = now;
        }
        if let Some(handshake) = &mut self.handshake {
            if handshake.progress.feed(bytes) {
                self.handshake = None;
                // Idle time counts from the end of the handshake.
                self.info.calls.mark_idle(now);
                if let Some(idle) = &mut self.idle {
                    idle.check.as_mut().reset((now + idle.timeout).into());
                }
            }
        }
    }

    /// Ready with the reason to close the connection, once a timeout has passed.
    fn poll_timeouts(&mut self, cx: &mut Context<'_>) -> Poll<&'static str> {
        if let Some(reason) = self.closed {
            return Poll::Ready(reason);
        }
        let reason = if let Some(handshake) = &mut self.handshake {
            ready!(handshake.deadline.as_mut().poll(cx));
            "handshake_timeout"
        } else if let Some(idle) = &mut self.idle {
            loop {
                ready!(idle.check.as_mut().poll(cx));
                match idle.next_check(&self.info.calls, Instant::now()) {
                    Some(at) => idle.check.as_mut().reset(at.into()),
                    None => break,
                }
            }
            "idle_timeout"
        } else {
            return Poll::Pending;
        };
        self.closed = Some(reason);
        self.metrics.connection_closed(reason);
        tracing::debug!(
            reason,
            remote = ?self.info.tcp.remote_addr(),
            "closing a connection"
        );
        Poll::Ready(reason)
    }

    /// Drives the TLS handshake, if one is under way: ready once the stream carries HTTP/2 bytes.
    /// Pending until then (with the handshake timeout running, as for a slow HTTP/2 preface).
    fn poll_established(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let Transport::Accepting(accept) = &mut self.stream else {
            return match self.stream {
                Transport::Failed => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::ConnectionAborted,
                    "the TLS handshake failed",
                ))),
                _ => Poll::Ready(Ok(())),
            };
        };
        let accepted = match Pin::new(accept.as_mut()).poll(cx) {
            Poll::Ready(accepted) => accepted,
            Poll::Pending => return self.pending_or_closed(cx),
        };
        match accepted {
            Ok(tls) => {
                if let Some(chain) = tls.get_ref().1.peer_certificates() {
                    if let Some(peer) = PeerCertificates::new(chain) {
                        let _ = self.info.peer.set(peer);
                    }
                }
                self.stream = Transport::Tls(Box::new(tls));
                Poll::Ready(Ok(()))
            }
            Err(error) => {
                // A plaintext client, an untrusted or missing client certificate, no common
                // protocol: the client's problem, so only a debug line, and a count.
                self.stream = Transport::Failed;
                self.closed = Some("tls_handshake_failed");
                self.metrics.connection_closed("tls_handshake_failed");
                tracing::debug!(
                    %error,
                    remote = ?self.info.tcp.remote_addr(),
                    "closing a connection: the TLS handshake failed"
                );
                Poll::Ready(Err(error))
            }
        }
    }

    /// Turns a pending inner poll into the closing error once a timeout has passed.
    fn pending_or_closed<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match self.poll_timeouts(cx) {
            Poll::Ready(reason) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("connection closed by the server: {reason}"),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Idle {
    /// When to look again, or `None` to close the connection now.
    fn next_check(&mut self, calls: &CallCount, now: Instant) -> Option<Instant> {
        next_idle_check(self.timeout, self.last_read, &mut self.deferred, calls, now)
    }
}

/// When an idle timer with `timeout` should look again, or `None` to close the connection now.
/// `deferred`: whether closing was already put off for bytes that had just arrived.
fn next_idle_check(
    timeout: Duration,
    last_read: Instant,
    deferred: &mut bool,
    calls: &CallCount,
    now: Instant,
) -> Option<Instant> {
    if calls.in_flight.load(Ordering::Acquire) > 0 {
        *deferred = false;
        return Some(now + timeout);
    }
    let due = calls.idle_since() + timeout;
    if due > now {
        *deferred = false;
        return Some(due);
    }
    let quiet = last_read + QUIET;
    if !*deferred && quiet > now {
        *deferred = true;
        return Some(quiet);
    }
    None
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.metrics.connections_add(-1);
    }
}

impl Connected for Connection {
    type ConnectInfo = ConnectionInfo;

    fn connect_info(&self) -> ConnectionInfo {
        self.info.clone()
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.closed.is_some() {
            return this.pending_or_closed(cx);
        }
        ready!(this.poll_established(cx))?;
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                this.received(&buf.filled()[before..]);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(error)) => Poll::Ready(Err(error)),
            Poll::Pending => this.pending_or_closed(cx),
        }
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_established(cx))?;
        // A client that never reads must not hold the connection by blocking our writes either.
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Pending => this.pending_or_closed(cx),
            ready => ready,
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_established(cx))?;
        match Pin::new(&mut this.stream).poll_write_vectored(cx, bufs) {
            Poll::Pending => this.pending_or_closed(cx),
            ready => ready,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_established(cx))?;
        match Pin::new(&mut this.stream).poll_flush(cx) {
            Poll::Pending => this.pending_or_closed(cx),
            ready => ready,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idle_connection_closes_only_with_no_call_for_the_whole_timeout() {
        let start = Instant::now();
        let calls = CallCount {
            accepted: start,
            in_flight: AtomicUsize::new(0),
            idle_since_ms: AtomicU64::new(0),
        };
        let timeout = Duration::from_secs(60);
        let secs = |s| start + Duration::from_secs(s);
        let later = secs(61);
        let mut deferred = false;
        let mut check =
            |last_read, now| next_idle_check(timeout, last_read, &mut deferred, &calls, now);
        assert_eq!(check(start, later), None);
        // A call in flight keeps it, however long.
        calls.in_flight.store(1, Ordering::Release);
        assert_eq!(check(start, later), Some(later + timeout));
        // A call that ended 30 s ago gives it 30 s more.
        calls.in_flight.store(0, Ordering::Release);
        calls.mark_idle(secs(31));
        assert_eq!(check(start, later), Some(secs(91)));
        // Bytes that just arrived may be a call hyper has not handed over yet: wait a moment, once
        // (they may as well be PING answers, which come again and again).
        calls.mark_idle(start);
        let just_now = later - Duration::from_millis(10);
        assert_eq!(check(just_now, later), Some(just_now + QUIET));
        let after_quiet = just_now + QUIET;
        assert_eq!(check(after_quiet, after_quiet), None);
    }
}
