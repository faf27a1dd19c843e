//! Connections that cannot be hoarded: the handshake timeout, the connection cap and the idle
//! timeout, against the real server over real sockets.
//!
//! Waits are bounded by `support::server::TIMEOUT` and only wait for what must happen (a close, an answer);
//! the few fixed pauses show that something does *not* happen, and are several times the timeout
//! under test.

use std::{
    io,
    pin::Pin,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    task::{Context, Poll},
    time::Duration,
};

use crate::support::server::{within, TestServer};
use hyper_util::rt::TokioIo;
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf},
    net::TcpStream,
};
use tonic::transport::{Channel, Endpoint, Uri};

const CLIENT_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Reads until the server closes the connection (end of stream or reset), ignoring what it sends
/// (its SETTINGS frame, a GOAWAY).
async fn closed_by_server(stream: &mut TcpStream) {
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(_) => continue,
        }
    }
}

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_after_the_handshake_timeout() {
    let server = TestServer::start_with(|s| {
        s.server.handshake_timeout = Duration::from_millis(200);
    })
    .await;
    let mut silent = TcpStream::connect(server.addr).await.expect("connect");
    within(closed_by_server(&mut silent)).await;
    // The server itself is fine.
    within(server.rules().new_game(pb::NewGameRequest {
        kind: pb::GameKind::Bosh as i32,
        options: None,
    }))
    .await
    .expect("a call still succeeds");
}

#[tokio::test]
async fn a_connection_that_sends_half_the_preface_or_no_first_frame_is_closed() {
    let server = TestServer::start_with(|s| {
        s.server.handshake_timeout = Duration::from_millis(200);
    })
    .await;
    let mut half = TcpStream::connect(server.addr).await.expect("connect");
    half.write_all(&CLIENT_PREFACE[..12]).await.expect("write");
    within(closed_by_server(&mut half)).await;

    // The whole preface, then a SETTINGS header announcing 6 bytes that never come.
    let mut no_frame = TcpStream::connect(server.addr).await.expect("connect");
    no_frame.write_all(CLIENT_PREFACE).await.expect("write");
    no_frame
        .write_all(&[0, 0, 6, 0x4, 0, 0, 0, 0, 0])
        .await
        .expect("write");
    within(closed_by_server(&mut no_frame)).await;
}

#[tokio::test]
async fn at_the_connection_cap_a_new_connection_waits_until_one_closes() {
    // The test server's own channel is the first connection.
    let server = TestServer::start_with(|s| {
        s.server.max_connections = 2;
        s.server.handshake_timeout = Duration::from_secs(60);
    })
    .await;
    within(server.new_game(pb::GameKind::Bosh)).await;
    let hoarder = TcpStream::connect(server.addr).await.expect("connect");

    // The kernel completes the TCP handshake (the backlog), but the server does not accept it.
    let third = Endpoint::from_shared(format!("http://{}", server.addr))
        .expect("uri")
        .connect_lazy();
    let mut rules = pb::rules_client::RulesClient::new(third);
    let call = rules.new_game(pb::NewGameRequest {
        kind: pb::GameKind::Bosh as i32,
        options: None,
    });
    tokio::pin!(call);
    assert!(
        tokio::time::timeout(Duration::from_millis(500), &mut call)
            .await
            .is_err(),
        "a third connection is not served while two are open"
    );

    drop(hoarder);
    within(call)
        .await
        .expect("served once a connection has closed");
}

#[tokio::test]
async fn an_idle_connection_is_closed_but_one_with_an_open_stream_is_kept() {
    let idle_timeout = Duration::from_millis(300);
    let server = TestServer::start_with(|s| {
        s.server.idle_timeout = Some(idle_timeout);
        // Nothing flows on the watch stream unless a move is made.
        s.matches.heartbeat_interval = None;
        // Pings are not calls; frequent ones must not keep the idle connection open.
        s.server.http2_keepalive_interval = Some(Duration::from_millis(50));
    })
    .await;

    let (idle_channel, idle_closed) = watched_channel(server.addr).await;
    let (watch_channel, watch_closed) = watched_channel(server.addr).await;
    let mut idle_client = MatchesClient::new(idle_channel);
    let created = within(idle_client.create_match(pb::CreateMatchRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: None,
        players: vec![],
        bots: vec![],
        time_control: None,
        start: None,
    }))
    .await
    .expect("created")
    .into_inner();
    let id = created
        .r#match
        .as_ref()
        .expect("the match")
        .match_id
        .clone();

    let mut watcher = MatchesClient::new(watch_channel);
    let mut stream = within(watcher.watch_match(pb::WatchMatchRequest {
        match_id: id.clone(),
        from_seq: None,
        previews: false,
    }))
    .await
    .expect("watching")
    .into_inner();
    within(stream.message())
        .await
        .expect("snapshot")
        .expect("a first message");

    within(idle_closed.closed()).await;
    // Several idle timeouts more: the watching connection stays open.
    tokio::time::sleep(idle_timeout * 5).await;
    assert!(
        !watch_closed.is_closed(),
        "a connection with an open stream is kept"
    );

    // And the stream still delivers: a resignation reaches it. (It goes over the test server's
    // own channel, whose connection was idle too: the client reconnects by itself.)
    let mut player = MatchesClient::new(server.channel.clone());
    let mut resign = tonic::Request::new(pb::ResignRequest {
        match_id: id,
        expected_version: None,
        request_id: String::new(),
    });
    resign.metadata_mut().insert(
        "authorization",
        format!("Bearer {}", created.tokens[0].token)
            .parse()
            .expect("ascii"),
    );
    within(player.resign(resign)).await.expect("resigned");
    within(stream.message())
        .await
        .expect("the event")
        .expect("a message after the resignation");
}

/// Whether the server closed a connection.
#[derive(Clone, Default)]
struct Closed {
    flag: Arc<AtomicBool>,
    notify: Arc<tokio::sync::Notify>,
}

impl Closed {
    fn is_closed(&self) -> bool {
        self.flag.load(Ordering::Acquire)
    }

    async fn closed(&self) {
        loop {
            let notified = self.notify.notified();
            if self.is_closed() {
                return;
            }
            notified.await;
        }
    }

    fn set(&self) {
        self.flag.store(true, Ordering::Release);
        self.notify.notify_waiters();
    }
}

/// A channel over one TCP connection that reports when the server closes it.
async fn watched_channel(addr: std::net::SocketAddr) -> (Channel, Closed) {
    let closed = Closed::default();
    let connector = OneConnection {
        addr,
        closed: closed.clone(),
    };
    let channel = within(
        Endpoint::from_shared(format!("http://{addr}"))
            .expect("uri")
            .connect_with_connector(connector),
    )
    .await
    .expect("connect");
    (channel, closed)
}

/// Connects to `addr`; the connection's end is reported to `closed`.
#[derive(Clone)]
struct OneConnection {
    addr: std::net::SocketAddr,
    closed: Closed,
}

impl tower_service::Service<Uri> for OneConnection {
    type Response = TokioIo<Watched>;
    type Error = io::Error;
    type Future = Pin<Box<dyn std::future::Future<Output = io::Result<TokioIo<Watched>>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: Uri) -> Self::Future {
        let (addr, closed) = (self.addr, self.closed.clone());
        Box::pin(async move {
            let stream = TcpStream::connect(addr).await?;
            Ok(TokioIo::new(Watched { stream, closed }))
        })
    }
}

/// A TCP stream that notes the end of what the server sends.
struct Watched {
    stream: TcpStream,
    closed: Closed,
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        match &polled {
            Poll::Ready(Ok(())) if buf.filled().len() == before => this.closed.set(),
            Poll::Ready(Err(_)) => this.closed.set(),
            _ => {}
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
