//! The real `mancala` binary as a subprocess (a replica): started on 127.0.0.1:0 with the given
//! `MANCALA__*` variables, its gRPC and metrics addresses read from its JSON log, killed (SIGKILL)
//! when dropped. Shared by the tests that need whole processes.

use mancala::api::pb;
use pb::matches_client::MatchesClient;
use std::future::Future;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tonic::transport::Channel;
use tonic::Request;

/// Every await in these tests is bounded by this.
pub const STEP: Duration = Duration::from_secs(30);

pub async fn within<F: Future>(what: &str, f: F) -> F::Output {
    tokio::time::timeout(STEP, f)
        .await
        .unwrap_or_else(|_| panic!("timed out: {what}"))
}

/// The lines a child process writes to `stdout`, as they come, read on a thread of their own (the channel closes
/// when the process closes its output).
pub fn lines_of(
    stdout: impl Read + Send + 'static,
) -> tokio::sync::mpsc::UnboundedReceiver<String> {
    let (tx, lines) = tokio::sync::mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// A running server process.
pub struct Replica {
    pub child: Child,
    pub addr: SocketAddr,
    /// Where `/metrics` answers, when `MANCALA__METRICS__LISTEN` was given.
    pub metrics: Option<SocketAddr>,
    /// Where the plaintext health listener answers, when `MANCALA__SERVER__HEALTH_LISTEN` was given.
    pub health: Option<SocketAddr>,
    /// The messages the server logged until it was ready, in order.
    pub startup_messages: Vec<String>,
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Replica {
    /// Starts the binary with `env` on top of a JSON log on 127.0.0.1:0.
    pub async fn start(env: &[(&str, &str)]) -> Replica {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mancala"));
        command
            .arg("serve")
            .env("MANCALA__SERVER__LISTEN", "127.0.0.1:0")
            .env("MANCALA__LOG__FORMAT", "json")
            .env("MANCALA__LOG__FILTER", "info")
            // As the in-process test server: tests drive a replica from 127.0.0.1 faster than one address's share
            // of the anonymous tenant's calls; a test of that share sets it in `env`.
            .env("MANCALA__ADDRESSES__CALLS_PER_SECOND", "0")
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (key, value) in env {
            command.env(key, value);
        }
        let wants_metrics = env.iter().any(|(k, _)| *k == "MANCALA__METRICS__LISTEN");
        let wants_health = env
            .iter()
            .any(|(k, _)| *k == "MANCALA__SERVER__HEALTH_LISTEN");
        let child = command.spawn().expect("start the mancala binary");
        // Owned by a Replica from now on, so that a panic below (no listening line) kills it.
        let mut replica = Replica {
            child,
            addr: SocketAddr::from(([0, 0, 0, 0], 0)),
            metrics: None,
            health: None,
            startup_messages: Vec::new(),
        };
        let stdout = replica.child.stdout.take().expect("piped stdout");
        let mut lines = lines_of(stdout);
        let (mut addr, mut metrics, mut health) = (None, None, None);
        while addr.is_none()
            || (wants_metrics && metrics.is_none())
            || (wants_health && health.is_none())
        {
            let line = within("the listening lines", lines.recv())
                .await
                .expect("the server logs before it exits");
            let json: serde_json::Value = serde_json::from_str(&line).expect("a JSON log line");
            let parsed = || -> SocketAddr {
                json["addr"]
                    .as_str()
                    .expect("addr")
                    .parse()
                    .expect("an address")
            };
            let message = json["message"].as_str().unwrap_or_default();
            match message {
                "listening" => addr = Some(parsed()),
                "metrics listening" => metrics = Some(parsed()),
                m if m.starts_with("health listening") => health = Some(parsed()),
                _ => {}
            }
            replica.startup_messages.push(message.to_string());
        }
        // Keep draining stdout so the server never blocks on a full pipe.
        tokio::spawn(async move { while lines.recv().await.is_some() {} });
        replica.addr = addr.expect("listening");
        replica.metrics = metrics;
        replica.health = health;
        replica
    }

    pub async fn client(&self) -> MatchesClient<Channel> {
        let channel = within(
            "connect",
            Channel::from_shared(format!("http://{}", self.addr))
                .unwrap()
                .connect(),
        )
        .await
        .expect("connect");
        MatchesClient::new(channel)
    }

    /// The process's id (to read its CPU time).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the process with SIGKILL (std's `kill` on Unix) and reaps it.
    pub fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    /// `GET path` on the metrics endpoint: the status line and the body.
    pub fn scrape(&self, path: &str) -> (String, String) {
        let addr = self.metrics.expect("started with MANCALA__METRICS__LISTEN");
        let mut stream = std::net::TcpStream::connect(addr).expect("connect to /metrics");
        stream.set_read_timeout(Some(STEP)).unwrap();
        // One request per connection: the server closes it after the answer, and the body ends there.
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("a response");
        let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
        let status = head.lines().next().unwrap_or_default().to_string();
        (status, body.to_string())
    }
}

pub fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

/// A new Ba-awa match: the match and its `[South, North]` tokens.
pub async fn create(client: &mut MatchesClient<Channel>) -> (pb::Match, Vec<String>) {
    let created = within(
        "create",
        client.create_match(pb::CreateMatchRequest {
            kind: pb::GameKind::BaAwa as i32,
            options: None,
            players: vec![],
            bots: vec![],
            time_control: None,
            start: None,
        }),
    )
    .await
    .expect("create")
    .into_inner();
    let tokens = created.tokens.into_iter().map(|t| t.token).collect();
    (created.r#match.unwrap(), tokens)
}

pub async fn get(client: &mut MatchesClient<Channel>, id: &str) -> pb::Match {
    within(
        "get",
        client.get_match(pb::GetMatchRequest {
            match_id: id.into(),
        }),
    )
    .await
    .expect("get")
    .into_inner()
    .r#match
    .unwrap()
}

pub async fn history(client: &mut MatchesClient<Channel>, id: &str) -> pb::GetHistoryResponse {
    within(
        "history",
        client.get_history(pb::GetHistoryRequest {
            match_id: id.into(),
        }),
    )
    .await
    .expect("history")
    .into_inner()
}

/// The seat (0 South, 1 North) to move in `m`; South between games.
pub fn seat_to_move(m: &pb::Match) -> usize {
    match m.state.as_ref().map(|s| s.to_move) {
        Some(p) if p == pb::Player::North as i32 => 1,
        _ => 0,
    }
}

/// The next move of the match (legal move `n` modulo their number) with `expected_version` and a
/// request id, and the token to send it with.
pub fn next_request(m: &pb::Match, tokens: &[String], n: usize) -> (pb::SubmitMoveRequest, String) {
    let mv = m.legal_moves[n % m.legal_moves.len()].clone();
    let request = pb::SubmitMoveRequest {
        match_id: m.match_id.clone(),
        r#move: Some(mv),
        expected_version: Some(m.version),
        request_id: format!("move-{}", m.version + 1),
    };
    (request, tokens[seat_to_move(m)].clone())
}

/// `m` moved on by its accepted `event`, as a client that reads only answers would track it.
pub fn moved_on(m: &mut pb::Match, event: &pb::MatchEvent) {
    m.version = event.seq;
    m.state = event.state.clone();
    m.legal_moves = event.legal_moves.clone();
}

/// The next event of a watch stream, skipping heartbeats and presence; panics on anything else.
pub async fn next_event(stream: &mut tonic::Streaming<pb::WatchMatchResponse>) -> pb::MatchEvent {
    use pb::watch_match_response::Kind;
    loop {
        match within("a watched event", stream.message())
            .await
            .expect("the stream is open")
            .expect("more messages")
            .kind
            .unwrap()
        {
            Kind::Event(event) => return event,
            Kind::Heartbeat(_) | Kind::Presence(_) => continue,
            other => panic!("expected an event, got {other:?}"),
        }
    }
}
