//! Out of file descriptors, end to end: the `mancala` binary under a low `RLIMIT_NOFILE` (the shell's
//! `ulimit -n`, so no `unsafe` and no extra package), flooded with connections until `accept` fails with
//! EMFILE. It must back off and log that once for the episode, keep serving the connections it has, and
//! accept again once the flood is gone (docs/guide/security-and-limits.md).
//!
//! Every wait is bounded and waits for something that must happen (a log line, an answer); the one fixed
//! pause shows that something does *not* happen (a second warning while the back-off retries), and is many
//! times the first pause of the back-off (10 ms).

use std::{
    net::SocketAddr,
    process::{Child, Command, Stdio},
    time::Duration,
};

use crate::support::replica::lines_of;
use crate::support::server::within;
use mancala::api::pb;
use pb::diagnostics_client::DiagnosticsClient;
use serde_json::Value;
use tokio::{net::TcpStream, sync::mpsc::UnboundedReceiver};
use tonic::transport::Channel;
use tonic_health::pb::{
    health_check_response::ServingStatus, health_client::HealthClient, HealthCheckRequest,
};

/// The descriptor limit of the server process: room for the runtime, the listener and a few dozen clients.
const OPEN_FILES: u32 = 64;
/// Connections the flood opens: more than the server has descriptors for, and few enough that the ones it
/// cannot accept fit in the listener's backlog (128 here), where they wait connected (past it the kernel
/// drops the handshake and `connect` hangs).
const FLOOD: usize = OPEN_FILES as usize + 32;
/// How long the flood is held once the server has warned: the back-off retries several times meanwhile.
const HOLD: Duration = Duration::from_secs(1);

const BACK_OFF_WARNING: &str =
    "cannot accept connections (out of file descriptors or memory?): retrying with back-off until one succeeds";
const RECOVERED: &str = "accepting connections again";

/// The `mancala` binary, killed if the test fails before it exits.
struct Subprocess(Child);

impl Drop for Subprocess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The next JSON log line of the server; `None` when its stdout closed.
async fn next_line(lines: &mut UnboundedReceiver<String>) -> Option<Value> {
    let line = within(lines.recv()).await?;
    Some(
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON log line ({e}): {line}")),
    )
}

/// Reads log lines until one whose message is `message`, returning it and the messages before it.
async fn until_message(
    lines: &mut UnboundedReceiver<String>,
    message: &str,
) -> (Value, Vec<String>) {
    let mut before = Vec::new();
    loop {
        let line = next_line(lines).await.unwrap_or_else(|| {
            panic!("the server exited before logging {message:?}; it logged {before:?}")
        });
        if line["message"] == message {
            return (line, before);
        }
        before.push(line["message"].as_str().unwrap_or_default().to_owned());
    }
}

/// The log lines that arrived so far, without waiting for more.
fn arrived(lines: &mut UnboundedReceiver<String>) -> Vec<Value> {
    std::iter::from_fn(|| lines.try_recv().ok())
        .map(|line| serde_json::from_str(&line).expect("a JSON log line"))
        .collect()
}

async fn health(channel: Channel) -> i32 {
    within(HealthClient::new(channel).check(HealthCheckRequest {
        service: String::new(),
    }))
    .await
    .expect("the health check answers")
    .into_inner()
    .status
}

#[tokio::test]
async fn out_of_descriptors_the_server_backs_off_logs_once_and_recovers() {
    // `exec` keeps the shell's pid for the server, so killing the child kills the server.
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -n {OPEN_FILES} && exec \"$0\" serve"))
        .arg(env!("CARGO_BIN_EXE_mancala"))
        .env("MANCALA__SERVER__LISTEN", "127.0.0.1:0")
        // Above the descriptor limit, so that the cap does not stop accepting before the descriptors run out;
        // the handshake timeout long, so that the flood holds its descriptors until the test closes it.
        .env("MANCALA__SERVER__MAX_CONNECTIONS", "1000")
        .env("MANCALA__SERVER__HANDSHAKE_TIMEOUT_MS", "600000")
        .env("MANCALA__MATCHES__STORE", "memory")
        .env("MANCALA__LOG__FORMAT", "json")
        .env("MANCALA__LOG__FILTER", "info")
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the mancala binary under sh");
    let mut child = Subprocess(child);
    let stdout = child.0.stdout.take().expect("piped stdout");
    let mut lines = lines_of(stdout);

    let (listening, _) = until_message(&mut lines, "listening").await;
    let addr: SocketAddr = listening["addr"]
        .as_str()
        .expect("an addr field")
        .parse()
        .expect("a socket address");

    // A client connected before the flood keeps its connection through it.
    let early = within(
        Channel::from_shared(format!("http://{addr}"))
            .expect("uri")
            .connect(),
    )
    .await
    .expect("connect before the flood");
    assert_eq!(health(early.clone()).await, ServingStatus::Serving as i32);

    let mut flood = Vec::with_capacity(FLOOD);
    for _ in 0..FLOOD {
        flood.push(
            within(TcpStream::connect(addr))
                .await
                .expect("the kernel takes the connection"),
        );
    }
    let (_, before) = until_message(&mut lines, BACK_OFF_WARNING).await;
    assert!(
        before
            .iter()
            .any(|m| m.starts_with("max_connections leaves too few file descriptors")),
        "the start-up warned that the cap is above the descriptor limit: {before:?}"
    );
    assert!(
        !before.iter().any(|m| m == RECOVERED),
        "no recovery before the episode: {before:?}"
    );

    // While it backs off the server is alive and serves the connection it has.
    tokio::time::sleep(HOLD).await;
    assert_eq!(health(early.clone()).await, ServingStatus::Serving as i32);
    let during = arrived(&mut lines);
    assert!(
        !during.iter().any(|l| l["message"] == BACK_OFF_WARNING),
        "the back-off is logged once per episode, not once per failed accept: {during:?}"
    );

    drop(flood);
    let (recovered, before) = until_message(&mut lines, RECOVERED).await;
    assert!(
        !before.iter().any(|m| m == BACK_OFF_WARNING),
        "one warning for the episode: {before:?}"
    );
    let errors = recovered["errors"].as_u64().expect("an errors field");
    assert!(
        errors >= 2,
        "accept was retried during the {HOLD:?} hold, each failure unlogged: {recovered}"
    );
    assert!(recovered["paused_ms"].as_u64().is_some(), "{recovered}");

    // A new connection and a real call work again.
    let late = within(
        Channel::from_shared(format!("http://{addr}"))
            .expect("uri")
            .connect(),
    )
    .await
    .expect("connect after the flood");
    let echoed = within(DiagnosticsClient::new(late.clone()).echo(pb::EchoRequest {
        payload: b"still here".to_vec(),
        response_payload_bytes: None,
    }))
    .await
    .expect("Echo answers after the flood")
    .into_inner();
    assert_eq!(echoed.payload, b"still here");
    assert_eq!(health(late).await, ServingStatus::Serving as i32);
    assert!(
        child.0.try_wait().expect("poll the child").is_none(),
        "the server is still running"
    );
}
