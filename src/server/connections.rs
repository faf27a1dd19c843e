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
//! - [`Connection`] wraps each socket. It closes one that has not sent the HTTP/2 preface and its
//!   first frame (or, over HTTP/1.1, for browsers, the head of its first request) within
//!   `server.handshake_timeout_ms`, and one that has had no call in flight for
//!   `server.idle_timeout_ms`.
//! - With `[tls]`, each [`Connection`] runs its own TLS handshake, driven by hyper's first reads and
//!   writes in the connection's task: the accept loop never waits for a handshake, the handshake
//!   counts within the handshake timeout, and the timers see the decrypted HTTP/2 bytes. (tonic's
//!   own TLS would wrap these connections from outside, so the preface and idle accounting would
//!   see ciphertext, and the connection info the calls need would be hidden in its own type.)
//! - [`CallsLayer`] counts each connection's calls in flight, which the idle timeout reads. It
//!   finds the connection's counter in the request's extensions, where tonic puts the
//!   [`ConnectionInfo`] of the connection ([`Connected`]). It also puts the client's certificate
//!   chain there ([`PeerCertificates`], with mutual TLS).
//!
//! The maximum connection age is tonic's own (`Server::max_connection_age`): it sends the GOAWAY
//! that lets calls in flight finish, which a socket wrapper could not.

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

use http_body::{Body, Frame, SizeHint};
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::TcpStream,
    sync::{OwnedSemaphorePermit, Semaphore},
    time::Sleep,
};
use tokio_rustls::{rustls::ServerConfig, server::TlsStream, Accept, TlsAcceptor};
use tokio_stream::Stream;
use tokio_util::sync::PollSemaphore;
use tonic::transport::server::{Connected, TcpConnectInfo, TcpIncoming};
use tonic::transport::Server;

use crate::config::ServerSettings;
use crate::identity::callers::{Counts, Held};
use crate::identity::Address;
use crate::metrics::Metrics;
use crate::tls::PeerCertificates;

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
        CallsLayer
    }
}

/// The accepted connections of a listener, at most `max_connections` open at once.
///
/// It never yields an error: failures to accept are handled (and logged) here, since tonic would
/// only retry them at once. Dropping it closes the listener; tonic does so when shutdown starts.
pub(crate) struct Incoming {
    listener: TcpIncoming,
    permits: PollSemaphore,
    /// The permit for the next connection, taken before accepting it.
    permit: Option<OwnedSemaphorePermit>,
    /// Whether the last attempt to take a permit found none (logged once per episode).
    at_cap: bool,
    backoff: AcceptBackoff,
    /// While accepting is paused after a resource error.
    pause: Option<Pin<Box<Sleep>>>,
    limits: Arc<Limits>,
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
const DESCRIPTOR_ROOM: usize = 64;

/// The soft limit on open files of this process, where the system tells it without `unsafe`.
fn open_files_limit() -> Option<usize> {
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

/// The first pause after an accept error that only a closing connection can clear.
const FIRST_PAUSE: Duration = Duration::from_millis(10);
/// The longest pause: long enough not to burn CPU, short enough to notice a freed descriptor soon.
const LONGEST_PAUSE: Duration = Duration::from_secs(1);

/// What to do after an error from `accept`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AcceptAction {
    /// The error belonged to one connection (reset before it was accepted): accept the next.
    Retry,
    /// The process or system is out of something (EMFILE, ENFILE, ENOBUFS, ENOMEM): the next
    /// accept would fail the same way at once, so wait `pause`. `first`: the first error of the
    /// episode, the one to log.
    Pause { pause: Duration, first: bool },
}

/// A run of accept errors, reported when accepting succeeds again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Episode {
    errors: u32,
    paused: Duration,
}

/// The back-off policy for accept errors: 10 ms doubling to 1 s, reset by a successful accept.
#[derive(Debug, Default)]
struct AcceptBackoff {
    /// Consecutive resource errors so far.
    errors: u32,
    /// The total pause of this episode.
    paused: Duration,
}

impl AcceptBackoff {
    fn on_error(&mut self, error: &io::Error) -> AcceptAction {
        if is_per_connection(error) {
            return AcceptAction::Retry;
        }
        let pause = pause_after(self.errors);
        self.errors = self.errors.saturating_add(1);
        self.paused += pause;
        AcceptAction::Pause {
            pause,
            first: self.errors == 1,
        }
    }

    /// A connection was accepted: the episode of errors, if there was one, is over.
    fn on_accept(&mut self) -> Option<Episode> {
        if self.errors == 0 {
            return None;
        }
        let episode = Episode {
            errors: self.errors,
            paused: self.paused,
        };
        *self = AcceptBackoff::default();
        Some(episode)
    }
}

/// The pause after `earlier` consecutive resource errors.
fn pause_after(earlier: u32) -> Duration {
    FIRST_PAUSE
        .saturating_mul(1u32.checked_shl(earlier).unwrap_or(u32::MAX))
        .min(LONGEST_PAUSE)
}

/// Whether `accept` failed because of the one connection it was taking (the peer reset it, or
/// the network reported an error Linux passes on through accept), rather than for want of a
/// resource. Anything unknown counts as a resource error: a needless pause of 10 ms is harmless,
/// a busy loop is not.
fn is_per_connection(error: &io::Error) -> bool {
    use io::ErrorKind::*;
    matches!(
        error.kind(),
        ConnectionAborted
            | ConnectionReset
            | ConnectionRefused
            | Interrupted
            | WouldBlock
            | TimedOut
            | HostUnreachable
            | NetworkUnreachable
            | NetworkDown
    )
}

/// What a connection's calls and its idle timer share.
#[derive(Debug)]
struct CallCount {
    /// When the connection was accepted: the origin of `idle_since_ms`.
    accepted: Instant,
    /// Calls whose response has not ended yet.
    in_flight: AtomicUsize,
    /// When the last call ended (or the handshake did), in ms since `accepted`.
    idle_since_ms: AtomicU64,
}

impl CallCount {
    fn idle_since(&self) -> Instant {
        self.accepted + Duration::from_millis(self.idle_since_ms.load(Ordering::Acquire))
    }

    fn mark_idle(&self, now: Instant) {
        let ms = now.saturating_duration_since(self.accepted).as_millis();
        self.idle_since_ms
            .store(u64::try_from(ms).unwrap_or(u64::MAX), Ordering::Release);
    }
}

/// What tonic puts in each request's extensions for a [`Connection`] ([`Connected`]).
#[derive(Debug, Clone)]
pub struct ConnectionInfo {
    tcp: TcpConnectInfo,
    calls: Arc<CallCount>,
    /// The client's certificates, once the TLS handshake has verified them. tonic asks for the
    /// info when it accepts the connection, before the handshake, hence the cell.
    peer: Arc<OnceLock<PeerCertificates>>,
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
    fn new(
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

/// The bytes under a [`Connection`]: TCP, or TLS over TCP once its handshake is done.
enum Transport {
    Plain(TcpStream),
    /// The TLS handshake, under way (boxed: rustls' connection state is large).
    Accepting(Box<Accept<TcpStream>>),
    Tls(Box<TlsStream<TcpStream>>),
    /// The TLS handshake failed; the stream is gone.
    Failed,
}

impl AsyncRead for Transport {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_read(cx, buf),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_read(cx, buf),
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Err(not_established())),
        }
    }
}

impl AsyncWrite for Transport {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_write(cx, buf),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_write(cx, buf),
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Err(not_established())),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_write_vectored(cx, bufs),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_write_vectored(cx, bufs),
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Err(not_established())),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Transport::Plain(tcp) => tcp.is_write_vectored(),
            Transport::Tls(tls) => tls.is_write_vectored(),
            Transport::Accepting(_) | Transport::Failed => false,
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_flush(cx),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_flush(cx),
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Err(not_established())),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_shutdown(cx),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_shutdown(cx),
            // Nothing to close politely: dropping the connection closes the socket.
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Ok(())),
        }
    }
}

/// [`Connection`] establishes the transport before any read or write reaches it.
fn not_established() -> io::Error {
    io::Error::new(
        io::ErrorKind::NotConnected,
        "the TLS handshake has not completed",
    )
}

/// The HTTP/2 client preface (RFC 9113 §3.4).
const CLIENT_PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const PREFACE_LEN: usize = CLIENT_PREFACE.len();
/// A frame header: 24-bit length, type, flags, stream id (RFC 9113 §4.1).
const FRAME_HEADER_LEN: usize = 9;
/// The end of an HTTP/1.1 request head (RFC 9112 §2.1): the last four bytes of an empty line.
const END_OF_HEAD: u32 = u32::from_be_bytes(*b"\r\n\r\n");

/// How much of the client's opening has arrived: the HTTP/2 preface and its first frame (its SETTINGS), or,
/// for an HTTP/1.1 client (a browser's grpc-web or the board page), the head of its first request.
///
/// Only the bytes are counted, not checked: hyper refuses a wrong preface, frame or request itself. What
/// matters here is that a client cannot hold a connection by sending them slowly, or part of them. A client is
/// taken for HTTP/1.1 from its first byte that departs from the HTTP/2 preface (`POST`, `GET` … depart by the
/// second or third byte).
#[derive(Debug, Default)]
struct Preface {
    seen: usize,
    header: [u8; FRAME_HEADER_LEN],
    /// Once the client is known to speak HTTP/1.1: its last four bytes.
    http1: Option<u32>,
}

impl Preface {
    /// Notes `bytes`, the next ones the client sent; true once the opening is complete.
    fn feed(&mut self, bytes: &[u8]) -> bool {
        for (offset, &byte) in bytes.iter().enumerate() {
            let at = self.seen + offset;
            if self.http1.is_none() && at < PREFACE_LEN && byte != CLIENT_PREFACE[at] {
                // The bytes so far matched the preface: they are its first `at`.
                let mut tail = 0;
                for &earlier in &CLIENT_PREFACE[..at] {
                    tail = (tail << 8) | u32::from(earlier);
                }
                self.http1 = Some(tail);
            }
            if let Some(tail) = &mut self.http1 {
                *tail = (*tail << 8) | u32::from(byte);
                if *tail == END_OF_HEAD {
                    self.seen = self.seen.saturating_add(offset + 1);
                    return true;
                }
                continue;
            }
            match at.checked_sub(PREFACE_LEN) {
                Some(i) if i < FRAME_HEADER_LEN => self.header[i] = byte,
                Some(_) => break,
                None => {}
            }
        }
        self.seen = self.seen.saturating_add(bytes.len());
        if self.http1.is_some() {
            return false;
        }
        let [a, b, c, ..] = self.header;
        let first_frame = u32::from_be_bytes([0, a, b, c]) as usize;
        self.seen >= PREFACE_LEN + FRAME_HEADER_LEN + first_frame
    }
}

/// Counts each connection's calls in flight; see [`Connections::layer`].
///
/// It also puts the connection's [`TcpConnectInfo`] in the request, where
/// `tonic::Request::remote_addr` looks for it, and the client's verified certificates
/// ([`PeerCertificates`]) when it presented some.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CallsLayer;

impl<S> tower_layer::Layer<S> for CallsLayer {
    type Service = Calls<S>;

    fn layer(&self, inner: S) -> Calls<S> {
        Calls { inner }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Calls<S> {
    inner: S,
}

impl<S, ReqBody, ResBody> tower_service::Service<http::Request<ReqBody>> for Calls<S>
where
    S: tower_service::Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
{
    type Response = http::Response<CallBody<ResBody>>;
    type Error = S::Error;
    type Future = CallFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<ReqBody>) -> Self::Future {
        let info = request.extensions().get::<ConnectionInfo>().cloned();
        let call = info.map(|info| {
            if let Some(peer) = info.peer.get() {
                request.extensions_mut().insert(peer.clone());
            }
            request.extensions_mut().insert(info.tcp);
            InFlight::new(info.calls)
        });
        CallFuture {
            inner: self.inner.call(request),
            call,
        }
    }
}

/// One call in flight on a connection, until dropped.
#[derive(Debug)]
struct InFlight(Arc<CallCount>);

impl InFlight {
    fn new(calls: Arc<CallCount>) -> InFlight {
        calls.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(calls)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        // Idle time starts now; written before the count drops so the timer never sees zero
        // calls with an old idle time.
        self.0.mark_idle(Instant::now());
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

pin_project_lite::pin_project! {
    pub(crate) struct CallFuture<F> {
        #[pin]
        inner: F,
        call: Option<InFlight>,
    }
}

impl<F, B, E> Future for CallFuture<F>
where
    F: Future<Output = Result<http::Response<B>, E>>,
{
    type Output = Result<http::Response<CallBody<B>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = ready!(this.inner.poll(cx))?;
        // The call lasts as long as its response body: a stream is in flight until it ends.
        let call = this.call.take();
        Poll::Ready(Ok(response.map(|inner| CallBody { inner, _call: call })))
    }
}

pin_project_lite::pin_project! {
    /// A response body that keeps its call counted until hyper drops it.
    pub(crate) struct CallBody<B> {
        #[pin]
        inner: B,
        _call: Option<InFlight>,
    }
}

impl<B: Body> Body for CallBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        self.project().inner.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_rustls::rustls::pki_types::CertificateDer;

    /// A SETTINGS frame header announcing `len` bytes of payload.
    fn settings_header(len: u32) -> Vec<u8> {
        let [_, a, b, c] = len.to_be_bytes();
        vec![a, b, c, 0x4, 0, 0, 0, 0, 0]
    }

    #[test]
    fn the_handshake_ends_with_the_first_frame_however_it_is_split() {
        let mut bytes = CLIENT_PREFACE.to_vec();
        bytes.extend(settings_header(12));
        bytes.extend([0u8; 12]);
        for split in 0..=bytes.len() {
            let mut preface = Preface::default();
            let (a, b) = bytes.split_at(split);
            let done_early = preface.feed(a);
            assert_eq!(done_early, split == bytes.len(), "split at {split}");
            assert!(preface.feed(b), "split at {split}");
        }
        let mut preface = Preface::default();
        for (i, byte) in bytes.iter().enumerate() {
            assert_eq!(preface.feed(&[*byte]), i + 1 == bytes.len());
        }
    }

    #[test]
    fn an_http1_request_head_ends_the_handshake_however_it_is_split() {
        for head in [
            &b"POST /mancala.v1.Rules/NewGame HTTP/1.1\r\nhost: a\r\n\r\n"[..],
            b"GET / HTTP/1.1\r\n\r\n",
            b"PRIX / HTTP/1.1\r\n\r\n",
        ] {
            for split in 0..head.len() {
                let (a, b) = head.split_at(split);
                let mut preface = Preface::default();
                assert!(!preface.feed(a), "{head:?} split at {split}");
                assert!(preface.feed(b), "{head:?} split at {split}");
            }
        }
        // A request line without the empty line after its headers is not a handshake.
        let mut preface = Preface::default();
        assert!(!preface.feed(b"GET / HTTP/1.1\r\nhost: a\r\n"));
        assert!(!preface.feed(b"x-more: b\r\n"));
        assert!(preface.feed(b"\r\n"));
    }

    #[test]
    fn half_a_preface_or_a_frame_header_without_its_payload_is_not_a_handshake() {
        let mut preface = Preface::default();
        assert!(!preface.feed(&CLIENT_PREFACE[..12]));
        assert!(!preface.feed(&CLIENT_PREFACE[12..]));
        assert!(!preface.feed(&settings_header(6)));
        assert!(!preface.feed(&[0; 5]));
        assert!(preface.feed(&[0]));
        // An empty SETTINGS frame completes with its header.
        let mut preface = Preface::default();
        let mut bytes = CLIENT_PREFACE.to_vec();
        bytes.extend(settings_header(0));
        assert!(preface.feed(&bytes));
    }

    fn emfile() -> io::Error {
        // EMFILE on Linux and the BSDs.
        io::Error::from_raw_os_error(24)
    }

    #[test]
    fn resource_errors_back_off_from_10ms_doubling_to_1s_and_log_once() {
        let mut backoff = AcceptBackoff::default();
        let pauses: Vec<AcceptAction> = (0..10).map(|_| backoff.on_error(&emfile())).collect();
        let ms = |ms| Duration::from_millis(ms);
        let expected = [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000];
        for (i, (action, want)) in pauses.iter().zip(expected).enumerate() {
            assert_eq!(
                *action,
                AcceptAction::Pause {
                    pause: ms(want),
                    first: i == 0
                }
            );
        }
        assert_eq!(
            backoff.on_accept(),
            Some(Episode {
                errors: 10,
                paused: ms(expected.iter().sum())
            })
        );
        // The next episode starts again at 10 ms, and is logged again.
        assert_eq!(backoff.on_accept(), None);
        assert_eq!(
            backoff.on_error(&emfile()),
            AcceptAction::Pause {
                pause: ms(10),
                first: true
            }
        );
    }

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

    #[test]
    fn the_pause_never_overflows() {
        assert_eq!(pause_after(u32::MAX), LONGEST_PAUSE);
        assert_eq!(pause_after(40), LONGEST_PAUSE);
        assert_eq!(pause_after(0), FIRST_PAUSE);
    }

    #[test]
    fn a_connection_reset_before_accept_is_skipped_without_pause() {
        let mut backoff = AcceptBackoff::default();
        for kind in [
            io::ErrorKind::ConnectionAborted,
            io::ErrorKind::ConnectionReset,
            io::ErrorKind::Interrupted,
        ] {
            assert_eq!(backoff.on_error(&kind.into()), AcceptAction::Retry);
        }
        assert_eq!(backoff.on_accept(), None, "no episode to report");
        // ENFILE, ENOBUFS and ENOMEM (Linux numbers) pause like EMFILE; so does anything unknown.
        for errno in [23, 105, 12] {
            assert!(matches!(
                backoff.on_error(&io::Error::from_raw_os_error(errno)),
                AcceptAction::Pause { .. }
            ));
        }
        assert!(matches!(
            backoff.on_error(&io::Error::other("unheard of")),
            AcceptAction::Pause { .. }
        ));
    }

    /// Answers with what the request's extensions held: the client's certificates, the TCP info.
    struct Extensions;

    impl tower_service::Service<http::Request<()>> for Extensions {
        type Response = http::Response<(Option<PeerCertificates>, bool)>;
        type Error = std::convert::Infallible;
        type Future = std::future::Ready<Result<Self::Response, Self::Error>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, request: http::Request<()>) -> Self::Future {
            let peer = request.extensions().get::<PeerCertificates>().cloned();
            let tcp = request.extensions().get::<TcpConnectInfo>().is_some();
            std::future::ready(Ok(http::Response::new((peer, tcp))))
        }
    }

    #[tokio::test]
    async fn a_verified_client_certificate_reaches_the_request_and_plaintext_has_none() {
        use tower_layer::Layer;
        use tower_service::Service;
        let info = ConnectionInfo {
            tcp: TcpConnectInfo {
                local_addr: None,
                remote_addr: None,
            },
            calls: Arc::new(CallCount {
                accepted: Instant::now(),
                in_flight: AtomicUsize::new(0),
                idle_since_ms: AtomicU64::new(0),
            }),
            peer: Arc::new(OnceLock::new()),
        };
        let mut service = CallsLayer.layer(Extensions);
        let request = || {
            let mut request = http::Request::new(());
            request.extensions_mut().insert(info.clone());
            request
        };
        let (peer, tcp) = service
            .call(request())
            .await
            .expect("answered")
            .into_body()
            .inner;
        assert_eq!(
            peer, None,
            "no certificate before (or without) a TLS handshake"
        );
        assert!(tcp, "the TCP info is there for tonic's remote_addr");

        // The handshake fills the cell after tonic took the connection's info: later calls see it.
        let chain = [CertificateDer::from(vec![0x30, 0x03, 0x02, 0x01, 0x01])];
        let _ = info
            .peer
            .set(PeerCertificates::new(&chain).expect("a chain"));
        let (peer, _) = service
            .call(request())
            .await
            .expect("answered")
            .into_body()
            .inner;
        let peer = peer.expect("the client's certificates");
        assert_eq!(peer.end_entity(), &chain[0]);
        assert_eq!(peer.chain().len(), 1);
        assert_eq!(
            PeerCertificates::new(&[]),
            None,
            "no certificate is no chain"
        );
    }

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
