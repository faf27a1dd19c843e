//! Durability: the real `mancala` binary, killed with SIGKILL in the middle of a match while moves
//! are in flight, then restarted on the same data directory. Every acknowledged move is back, with
//! its history and version; a watcher resumes from its seq; play goes on.

use mancala::api::pb;
use pb::matches_client::MatchesClient;
use pb::watch_match_response::Kind;
use std::future::Future;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tonic::transport::Channel;
use tonic::Request;

const STEP: Duration = Duration::from_secs(30);

async fn within<F: Future>(what: &str, f: F) -> F::Output {
    tokio::time::timeout(STEP, f)
        .await
        .unwrap_or_else(|_| panic!("timed out: {what}"))
}

/// The binary, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts the binary on port 0 with the embedded store in `data_dir`; reads the bound address
    /// from its JSON log.
    async fn start(data_dir: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .arg("serve")
            .env("MANCALA__SERVER__LISTEN", "127.0.0.1:0")
            .env("MANCALA__MATCHES__STORE", "embedded")
            .env("MANCALA__MATCHES__DATA_DIR", data_dir)
            .env("MANCALA__LOG__FORMAT", "json")
            .env("MANCALA__LOG__FILTER", "info")
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the mancala binary");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, mut lines) = tokio::sync::mpsc::unbounded_channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let addr = loop {
            let line = within("the listening line", lines.recv())
                .await
                .expect("the server logs before it exits");
            let json: serde_json::Value = serde_json::from_str(&line).expect("a JSON log line");
            if json["message"] == "listening" {
                break json["addr"]
                    .as_str()
                    .expect("addr")
                    .parse()
                    .expect("an address");
            }
        };
        // Keep draining stdout so the server never blocks on a full pipe.
        tokio::spawn(async move { while lines.recv().await.is_some() {} });
        Server { child, addr }
    }

    async fn client(&self) -> MatchesClient<Channel> {
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
}

fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

async fn get(client: &mut MatchesClient<Channel>, id: &str) -> pb::Match {
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

async fn history(client: &mut MatchesClient<Channel>, id: &str) -> pb::GetHistoryResponse {
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

/// A new Ba-awa match between two people, and its seats' tokens (South's, North's).
async fn create_ba_awa(client: &mut MatchesClient<Channel>) -> (pb::Match, Vec<String>) {
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
    let tokens: Vec<String> = created.tokens.into_iter().map(|t| t.token).collect();
    (created.r#match.unwrap(), tokens)
}

/// The next move of the match (varied by `n`), the token to send it with, and the request.
fn next_request(m: &pb::Match, tokens: &[String], n: usize) -> (pb::SubmitMoveRequest, String) {
    let mv = m.legal_moves[n % m.legal_moves.len()].clone();
    let seat = match m.state.as_ref().map(|s| s.to_move) {
        Some(p) if p == pb::Player::North as i32 => 1,
        _ => 0,
    };
    let request = pb::SubmitMoveRequest {
        match_id: m.match_id.clone(),
        r#move: Some(mv),
        expected_version: Some(m.version),
        request_id: format!("move-{}", m.version + 1),
    };
    (request, tokens[seat].clone())
}

#[tokio::test]
async fn a_match_survives_sigkill_with_its_history_version_and_watchers() {
    let data = tempfile::tempdir().expect("a temporary data directory");
    let server = Server::start(data.path()).await;
    let mut client = server.client().await;
    let (mut m, tokens) = create_ba_awa(&mut client).await;
    let id = m.match_id.clone();

    let mut watcher = within(
        "watch",
        client.watch_match(pb::WatchMatchRequest {
            match_id: id.clone(),
            from_seq: None,
            previews: false,
        }),
    )
    .await
    .expect("watch")
    .into_inner();

    // Moves acknowledged before the kill, in order.
    let mut acked: Vec<pb::MatchEvent> = Vec::new();
    for n in 0..12 {
        let (request, token) = next_request(&m, &tokens, n * 5 + 3);
        let event = within("submit", client.submit_move(authed(request, &token)))
            .await
            .expect("accepted")
            .into_inner()
            .event
            .unwrap();
        acked.push(event);
        m = get(&mut client, &id).await;
    }
    // The watcher has read up to seq 5 when it loses the server.
    let mut watched = 0;
    while watched < 5 {
        match within("watch message", watcher.message())
            .await
            .expect("open")
            .expect("more")
            .kind
            .unwrap()
        {
            Kind::Event(e) => {
                assert_eq!(e, acked[watched]);
                watched += 1;
            }
            Kind::Snapshot(_) | Kind::Presence(_) | Kind::Heartbeat(_) => {}
            Kind::Finished(_) => panic!("the match is not over"),
        }
    }

    // A second client keeps moving while the process is killed: the kill lands between or during
    // its requests. Only what was acknowledged counts.
    let mut mover = server.client().await;
    let in_flight = {
        let tokens = tokens.clone();
        let mut m = m.clone();
        let mut acked = acked.clone();
        let (ready_tx, ready) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let mut ready_tx = Some(ready_tx);
            for n in 0.. {
                let (request, token) = next_request(&m, &tokens, n * 5 + 3);
                let expected = request.clone();
                match tokio::time::timeout(STEP, mover.submit_move(authed(request, &token))).await {
                    Ok(Ok(answer)) => {
                        let event = answer.into_inner().event.unwrap();
                        // Build the next request from the answer, as a client without GetMatch would.
                        m.version = event.seq;
                        m.state = event.state.clone();
                        m.legal_moves = event.legal_moves.clone();
                        assert_eq!(expected.expected_version, Some(event.seq - 1));
                        acked.push(event);
                        if acked.len() >= 15 {
                            if let Some(ready) = ready_tx.take() {
                                let _ = ready.send(());
                            }
                        }
                    }
                    _ => break,
                }
            }
            acked
        });
        within("three more moves", ready)
            .await
            .expect("the mover moved");
        task
    };
    let mut server = server;
    server.child.kill().expect("SIGKILL"); // std's kill is SIGKILL on Unix
    server.child.wait().expect("reaped");
    let acked = within("the mover stops", in_flight)
        .await
        .expect("no panic");
    drop(watcher);
    drop(client);

    // Restart on the same directory.
    let server = Server::start(data.path()).await;
    let mut client = server.client().await;
    let after = get(&mut client, &id).await;
    let last = acked.last().unwrap();
    // Every acknowledged move is there; a move whose answer was lost to the kill may be too.
    assert!(
        after.version == last.seq || after.version == last.seq + 1,
        "version {} after the restart, {} acknowledged",
        after.version,
        last.seq
    );
    let restored = history(&mut client, &id).await;
    assert_eq!(restored.events.len() as u64, after.version);
    assert_eq!(
        &restored.events[..acked.len()],
        &acked[..],
        "the history of every acknowledged move is identical"
    );
    assert_eq!(restored.events.last().unwrap().state, after.state);
    let replayed = mancala::matches::notation::replay(&restored.notation).expect("replays");
    assert_eq!(
        Some(mancala::api::convert::state_to_pb(&replayed.game)),
        after.state
    );

    // An acknowledged request retried after the restart still applies once.
    let retry = pb::SubmitMoveRequest {
        match_id: id.clone(),
        r#move: match &last.action {
            Some(pb::match_event::Action::Move(mv)) => Some(mv.clone()),
            other => panic!("{other:?}"),
        },
        expected_version: Some(last.seq - 1),
        request_id: format!("move-{}", last.seq),
    };
    let seat = if last.player == pb::Player::North as i32 {
        1
    } else {
        0
    };
    let again = within("retry", client.submit_move(authed(retry, &tokens[seat])))
        .await
        .expect("the original answer")
        .into_inner()
        .event
        .unwrap();
    assert_eq!(&again, last);

    // The watcher resumes from seq 5: exactly the events it missed, then live ones.
    let mut resumed = within(
        "resume",
        client.watch_match(pb::WatchMatchRequest {
            match_id: id.clone(),
            from_seq: Some(watched as u64),
            previews: false,
        }),
    )
    .await
    .expect("resume")
    .into_inner();
    let mut expected = restored.events[watched..].to_vec();
    // Play goes on.
    let (request, token) = next_request(&after, &tokens, 1);
    let next = within(
        "a move after the restart",
        client.submit_move(authed(request, &token)),
    )
    .await
    .expect("accepted")
    .into_inner()
    .event
    .unwrap();
    assert_eq!(next.seq, after.version + 1);
    expected.push(next);
    for event in &expected {
        let seen = loop {
            match within("resumed message", resumed.message())
                .await
                .expect("open")
                .expect("more")
                .kind
                .unwrap()
            {
                Kind::Event(e) => break e,
                Kind::Presence(_) | Kind::Heartbeat(_) => continue,
                other => panic!("only events after a resume: {other:?}"),
            }
        };
        assert_eq!(&seen, event);
    }
}

/// Plays `m` on `client` until the server goes away (or the match ends), sending the seq of each acknowledged move
/// to `acked`; the last one acknowledged.
async fn play_until_killed(
    mut client: MatchesClient<Channel>,
    mut m: pb::Match,
    tokens: Vec<String>,
    acked: tokio::sync::mpsc::UnboundedSender<()>,
) -> u64 {
    let mut last = m.version;
    for n in 0.. {
        if m.legal_moves.is_empty() {
            break;
        }
        let (request, token) = next_request(&m, &tokens, n * 3 + 1);
        match tokio::time::timeout(STEP, client.submit_move(authed(request, &token))).await {
            Ok(Ok(answer)) => {
                let event = answer.into_inner().event.unwrap();
                m.version = event.seq;
                m.state = event.state.clone();
                m.legal_moves = event.legal_moves.clone();
                last = event.seq;
                let _ = acked.send(());
            }
            _ => break,
        }
    }
    last
}

/// Several matches moving at once, the server killed three times while they move: after each restart every
/// acknowledged move of every match is there, its history whole (the group commit's batches hold several matches'
/// moves, and a kill can land in any of them), and play goes on.
#[tokio::test]
async fn matches_moving_together_survive_repeated_sigkills() {
    const MATCHES: usize = 6;
    let data = tempfile::tempdir().expect("a temporary data directory");
    let mut server = Server::start(data.path()).await;
    let mut client = server.client().await;
    let mut matches = Vec::new();
    for _ in 0..MATCHES {
        let (m, tokens) = create_ba_awa(&mut client).await;
        matches.push((m.match_id, tokens));
    }
    for round in 0..3 {
        let (acked, mut acks) = tokio::sync::mpsc::unbounded_channel();
        let mut players = Vec::new();
        for (id, tokens) in &matches {
            let m = get(&mut client, id).await;
            players.push(tokio::spawn(play_until_killed(
                server.client().await,
                m,
                tokens.clone(),
                acked.clone(),
            )));
        }
        drop(acked);
        // Killed once the matches together have had some forty moves acknowledged (or all have ended).
        for _ in 0..40 {
            if within("a move", acks.recv()).await.is_none() {
                break;
            }
        }
        server.child.kill().expect("SIGKILL");
        server.child.wait().expect("reaped");
        let mut last = Vec::new();
        for player in players {
            last.push(within("the player stops", player).await.expect("no panic"));
        }
        drop(client);
        server = Server::start(data.path()).await;
        client = server.client().await;
        for ((id, _), last) in matches.iter().zip(last) {
            let after = get(&mut client, id).await;
            assert!(
                after.version == last || after.version == last + 1,
                "round {round}: match {id} at version {} after the restart, {last} acknowledged",
                after.version
            );
            let restored = history(&mut client, id).await;
            assert_eq!(restored.events.len() as u64, after.version);
            if let Some(event) = restored.events.last() {
                assert_eq!(event.state, after.state, "round {round}: match {id}");
            }
        }
    }
}
