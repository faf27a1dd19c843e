//! Two replicas over one Redis: two processes of the real binary on different ports with
//! `MANCALA__MATCHES__STORE=redis` and one key prefix (unique to the test run).
//!
//! - a match created on A is watched on B while the players submit alternately on A and B: the
//!   watcher sees every event exactly once, in order, identical to the answers;
//! - both replicas submit for the same version at once: exactly one is accepted;
//! - A is killed with SIGKILL in the middle of play: no acknowledged move is lost, B serves the
//!   match, a retried request is answered as the first time, and a watcher that was on A resumes
//!   on B from its seq.
//!
//! They need a Redis server: `MANCALA_TEST_REDIS_URL`, or the local `redis://127.0.0.1:6379` that every machine of
//! this project's kind runs (`.ci/redis` makes sure of it). Without one they fail; they never pass unrun.

use crate::support::replica::{
    authed, create, get, history, moved_on, next_event, next_request, within, Replica,
};
use mancala::api::pb;
use pb::watch_match_response::Kind;
use tonic::Code;

/// The Redis of the test run: `MANCALA_TEST_REDIS_URL`, or the local one every machine of this project's kind runs
/// (`.ci/redis` makes sure of it). A test fails, never passes unrun, when it cannot be reached.
pub(crate) fn redis_url() -> String {
    std::env::var("MANCALA_TEST_REDIS_URL")
        .ok()
        .filter(|url| !url.is_empty())
        .unwrap_or_else(|| "redis://127.0.0.1:6379".to_string())
}

/// A synchronous connection to the test run's Redis, or to its cluster (`redis+cluster://`), for a test to look at
/// the keys itself.
pub(crate) fn redis_connection(url: &str) -> Box<dyn redis::ConnectionLike> {
    try_redis_connection(url).expect("Redis (or the Redis Cluster) answers")
}

fn try_redis_connection(url: &str) -> Option<Box<dyn redis::ConnectionLike>> {
    Some(match mancala::config::RedisAt::parse(url).ok()? {
        mancala::config::RedisAt::Single(info) => {
            Box::new(redis::Client::open(*info).ok()?.get_connection().ok()?)
        }
        mancala::config::RedisAt::Cluster(seeds) => Box::new(
            redis::cluster::ClusterClient::new(seeds)
                .ok()?
                .get_connection()
                .ok()?,
        ),
    })
}

/// A key prefix of this test alone; its keys are deleted when dropped.
pub(crate) struct Prefix {
    url: String,
    prefix: String,
}

impl Prefix {
    pub(crate) fn new(url: &str, test: &str) -> Prefix {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        Prefix {
            url: url.to_string(),
            prefix: format!("mancala-test:{}:{nanos}:{test}:", std::process::id()),
        }
    }

    /// The Redis URL.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The key prefix.
    pub(crate) fn name(&self) -> &str {
        &self.prefix
    }

    /// Two replicas over this prefix, with metrics.
    pub(crate) async fn replicas(&self) -> (Replica, Replica) {
        self.replicas_with(&[]).await
    }

    /// One replica over this prefix, with metrics and `extra` variables.
    pub(crate) async fn replica_with(&self, extra: &[(&str, &str)]) -> Replica {
        let mut env = vec![
            ("MANCALA__MATCHES__STORE", "redis"),
            ("MANCALA__MATCHES__REDIS_URL", self.url.as_str()),
            ("MANCALA__MATCHES__REDIS_KEY_PREFIX", self.prefix.as_str()),
            ("MANCALA__METRICS__LISTEN", "127.0.0.1:0"),
        ];
        env.extend_from_slice(extra);
        Replica::start(&env).await
    }

    /// Two replicas over this prefix, with metrics and `extra` variables.
    pub(crate) async fn replicas_with(&self, extra: &[(&str, &str)]) -> (Replica, Replica) {
        let mut env = vec![
            ("MANCALA__MATCHES__STORE", "redis"),
            ("MANCALA__MATCHES__REDIS_URL", self.url.as_str()),
            ("MANCALA__MATCHES__REDIS_KEY_PREFIX", self.prefix.as_str()),
            ("MANCALA__METRICS__LISTEN", "127.0.0.1:0"),
        ];
        env.extend_from_slice(extra);
        (Replica::start(&env).await, Replica::start(&env).await)
    }
}

impl Drop for Prefix {
    fn drop(&mut self) {
        let Ok(at) = mancala::config::RedisAt::parse(&self.url) else {
            return;
        };
        // Each node's keys (a cluster's seeds answer KEYS for their own slots), deleted one by one through a
        // connection that knows where each lives.
        let nodes = match &at {
            mancala::config::RedisAt::Single(info) => vec![(**info).clone()],
            mancala::config::RedisAt::Cluster(seeds) => seeds.clone(),
        };
        let mut keys: Vec<Vec<u8>> = Vec::new();
        for node in nodes {
            let Ok(mut con) = redis::Client::open(node).and_then(|c| c.get_connection()) else {
                continue;
            };
            keys.extend(
                redis::cmd("KEYS")
                    .arg(format!("{}*", self.prefix))
                    .query::<Vec<Vec<u8>>>(&mut con)
                    .unwrap_or_default(),
            );
        }
        if keys.is_empty() {
            return;
        }
        let Some(mut con) = try_redis_connection(&self.url) else {
            return;
        };
        for key in keys {
            let _: Result<(), _> = redis::cmd("DEL").arg(key).query(&mut *con);
        }
    }
}

/// The value of the series `name` (exact line prefix, labels included) in a scrape, or 0.
fn series(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .map_or(0.0, |value| value.parse().expect("a number"))
}

#[tokio::test]
async fn a_match_created_on_a_is_watched_on_b_while_players_alternate_between_replicas() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "alternate");
    let (a, b) = prefix.replicas().await;
    let (mut on_a, mut on_b) = (a.client().await, b.client().await);
    let (mut m, tokens) = create(&mut on_a).await;
    let id = m.match_id.clone();

    // B has never seen the match: it reads it from Redis.
    let mut watcher = within(
        "watch on B",
        on_b.watch_match(pb::WatchMatchRequest {
            match_id: id.clone(),
            from_seq: None,
            previews: false,
        }),
    )
    .await
    .expect("watch on B")
    .into_inner();
    match within("snapshot", watcher.message())
        .await
        .unwrap()
        .unwrap()
        .kind
    {
        Some(Kind::Snapshot(snapshot)) => assert_eq!(snapshot.r#match.unwrap().version, 0),
        other => panic!("a snapshot first: {other:?}"),
    }

    let mut acked = Vec::new();
    for n in 0..40 {
        if m.legal_moves.is_empty() {
            break;
        }
        // Even moves on A, odd ones on B; each replica is told only what its client saw.
        let (request, token) = next_request(&m, &tokens, n * 7 + 1);
        let client = if n % 2 == 0 { &mut on_a } else { &mut on_b };
        let event = within("submit", client.submit_move(authed(request, &token)))
            .await
            .unwrap_or_else(|status| panic!("move {n} refused: {status:?}"))
            .into_inner()
            .event
            .unwrap();
        assert_eq!(event.seq, m.version + 1);
        moved_on(&mut m, &event);
        acked.push(event);
        // Read-your-writes across replicas: the other one answers with this move at once.
        let other = if n % 2 == 0 { &mut on_b } else { &mut on_a };
        assert_eq!(get(other, &id).await.version, m.version);
    }
    assert!(acked.len() >= 20, "a long enough match: {}", acked.len());

    // Every event exactly once, in order, identical to the answer its submitter got.
    for expected in &acked {
        assert_eq!(&next_event(&mut watcher).await, expected);
    }
    // ... and nothing twice: the next event after them is the next move.
    if !m.legal_moves.is_empty() {
        let (request, token) = next_request(&m, &tokens, 0);
        let next = within("one more", on_a.submit_move(authed(request, &token)))
            .await
            .expect("accepted")
            .into_inner()
            .event
            .unwrap();
        assert_eq!(next_event(&mut watcher).await, next);
    }

    // B fed A's moves to its watcher from the store's channel.
    let (status, text) = b.scrape("/metrics");
    assert!(status.contains("200"), "{status}");
    assert!(
        series(&text, "mancala_remote_events_total") >= 1.0,
        "{text}"
    );
    assert!(series(&text, r#"mancala_moves_applied_total{game="ba-awa"}"#) >= 1.0);
}

#[tokio::test]
async fn concurrent_submits_for_one_version_on_two_replicas_accept_exactly_one() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "race");
    let (a, b) = prefix.replicas().await;
    let (mut on_a, mut on_b) = (a.client().await, b.client().await);
    let (mut won_by_a, mut won_by_b) = (0, 0);
    let mut races = 0;
    // Races until 30 are run, over as many matches as that takes (a match can end early).
    while races < 30 {
        let (mut m, tokens) = create(&mut on_a).await;
        let id = m.match_id.clone();
        // Both replicas hold the match before its races start.
        get(&mut on_b, &id).await;
        let mut winners = Vec::new();
        while races < 30 && !m.legal_moves.is_empty() {
            races += 1;
            // The same seat, the same version, possibly different moves, different request ids.
            let (mut first, token) = next_request(&m, &tokens, races);
            let (mut second, _) = next_request(&m, &tokens, races + 1);
            first.request_id = format!("a-{races}");
            second.request_id = format!("b-{races}");
            let (answer_a, answer_b) = within("both submits", async {
                tokio::join!(
                    on_a.submit_move(authed(first, &token)),
                    on_b.submit_move(authed(second, &token)),
                )
            })
            .await;
            let event = match (answer_a, answer_b) {
                (Ok(won), Err(lost)) => {
                    assert_eq!(lost.code(), Code::Aborted, "{lost:?}");
                    won_by_a += 1;
                    won.into_inner().event.unwrap()
                }
                (Err(lost), Ok(won)) => {
                    assert_eq!(lost.code(), Code::Aborted, "{lost:?}");
                    won_by_b += 1;
                    won.into_inner().event.unwrap()
                }
                (Ok(_), Ok(_)) => {
                    panic!("race {races}: both replicas accepted version {}", m.version)
                }
                (Err(x), Err(y)) => panic!("race {races}: neither accepted: {x:?} / {y:?}"),
            };
            assert_eq!(event.seq, m.version + 1);
            moved_on(&mut m, &event);
            winners.push(event);
        }
        // The log holds the winners and nothing else, whichever replica is asked.
        for client in [&mut on_a, &mut on_b] {
            let log = history(client, &id).await;
            assert_eq!(log.events, winners);
            assert_eq!(log.r#match.unwrap().version, winners.len() as u64);
        }
    }
    eprintln!("races won: A {won_by_a}, B {won_by_b}");
}

#[tokio::test]
async fn sigkill_of_a_replica_loses_no_acknowledged_move_and_its_watcher_resumes_on_the_other() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "sigkill");
    let (mut a, b) = prefix.replicas().await;
    let (mut on_a, mut on_b) = (a.client().await, b.client().await);
    let (mut m, tokens) = create(&mut on_a).await;
    let id = m.match_id.clone();

    let watch = |from_seq| pb::WatchMatchRequest {
        match_id: id.clone(),
        from_seq,
        previews: false,
    };
    let mut watcher_on_a = within("watch on A", on_a.watch_match(watch(Some(0))))
        .await
        .expect("watch on A")
        .into_inner();
    // A spectator on B from the start, who must not notice A's death.
    let mut watcher_on_b = within("watch on B", on_b.watch_match(watch(Some(0))))
        .await
        .expect("watch on B")
        .into_inner();

    let mut acked: Vec<pb::MatchEvent> = Vec::new();
    for n in 0..10 {
        let (request, token) = next_request(&m, &tokens, n * 5 + 3);
        let event = within("submit on A", on_a.submit_move(authed(request, &token)))
            .await
            .expect("accepted")
            .into_inner()
            .event
            .unwrap();
        moved_on(&mut m, &event);
        acked.push(event);
    }
    // The watcher on A has read up to seq 4 when it loses the server.
    let mut watched = 0;
    while watched < 4 {
        assert_eq!(next_event(&mut watcher_on_a).await, acked[watched]);
        watched += 1;
    }

    // A client keeps moving on A while A is killed: the kill lands between or during requests.
    let mut mover = a.client().await;
    let in_flight = {
        let (tokens, mut m, mut acked) = (tokens.clone(), m.clone(), acked.clone());
        let (ready_tx, ready) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let mut ready_tx = Some(ready_tx);
            for n in 0.. {
                if m.legal_moves.is_empty() {
                    break;
                }
                let (request, token) = next_request(&m, &tokens, n * 5 + 3);
                match tokio::time::timeout(
                    crate::support::replica::STEP,
                    mover.submit_move(authed(request, &token)),
                )
                .await
                {
                    Ok(Ok(answer)) => {
                        let event = answer.into_inner().event.unwrap();
                        moved_on(&mut m, &event);
                        acked.push(event);
                        if acked.len() >= 14 {
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
        within("four more moves", ready)
            .await
            .expect("the mover moved");
        task
    };
    a.kill();
    let acked = within("the mover stops", in_flight)
        .await
        .expect("no panic");
    drop(watcher_on_a);

    // B serves the match with every acknowledged move; one whose answer was lost may be there too.
    let after = get(&mut on_b, &id).await;
    let last = acked.last().unwrap();
    assert!(
        after.version == last.seq || after.version == last.seq + 1,
        "version {} on B, {} acknowledged on A",
        after.version,
        last.seq
    );
    let log = history(&mut on_b, &id).await;
    assert_eq!(log.events.len() as u64, after.version);
    assert_eq!(&log.events[..acked.len()], &acked[..]);

    // A request acknowledged by A and retried on B is answered as the first time, not applied again.
    let retry = pb::SubmitMoveRequest {
        match_id: id.clone(),
        r#move: match &last.action {
            Some(pb::match_event::Action::Move(mv)) => Some(mv.clone()),
            other => panic!("{other:?}"),
        },
        expected_version: Some(last.seq - 1),
        request_id: format!("move-{}", last.seq),
    };
    let seat = usize::from(last.player == pb::Player::North as i32);
    let again = within("retry on B", on_b.submit_move(authed(retry, &tokens[seat])))
        .await
        .expect("the original answer")
        .into_inner()
        .event
        .unwrap();
    assert_eq!(&again, last);

    // The watcher that was on A resumes on B from its seq: exactly what it missed, then live moves.
    let mut resumed = within("resume on B", on_b.watch_match(watch(Some(watched as u64))))
        .await
        .expect("resume on B")
        .into_inner();
    let mut expected = log.events[watched..].to_vec();
    let mut m = after;
    for n in 0..3 {
        if m.legal_moves.is_empty() {
            break;
        }
        let (request, token) = next_request(&m, &tokens, n);
        let event = within("a move on B", on_b.submit_move(authed(request, &token)))
            .await
            .expect("accepted")
            .into_inner()
            .event
            .unwrap();
        moved_on(&mut m, &event);
        expected.push(event);
    }
    for event in &expected {
        assert_eq!(&next_event(&mut resumed).await, event);
    }
    // The spectator on B saw the whole match, each event once, through A's death.
    let mut whole = log.events.clone();
    whole.extend_from_slice(&expected[log.events.len() - watched..]);
    for event in &whole {
        assert_eq!(&next_event(&mut watcher_on_b).await, event);
    }
}

/// Runs `program` with `args` in `dir`; `false` (after a notice) if it cannot run or fails.
fn run(dir: &std::path::Path, program: &str, args: &[&str]) -> bool {
    match std::process::Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
    {
        Ok(status) if status.success() => true,
        other => {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "notice: TLS test skipped: {program} {args:?}: {other:?}"
            );
            false
        }
    }
}

/// A Redis server of this test alone, killed when dropped.
struct ChildServer(std::process::Child);

impl Drop for ChildServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn a_replica_reaches_redis_over_tls_with_a_rediss_url() {
    // A CA, a certificate for 127.0.0.1 signed by it, and a Redis that speaks only TLS with it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(path.join("san.ext"), "subjectAltName=IP:127.0.0.1\n").unwrap();
    let steps: [&[&str]; 3] = [
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "1",
            "-subj",
            "/CN=mancala test CA",
        ],
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "redis.key",
            "-out",
            "redis.csr",
            "-subj",
            "/CN=127.0.0.1",
        ],
        &[
            "x509",
            "-req",
            "-in",
            "redis.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "redis.pem",
            "-days",
            "1",
            "-extfile",
            "san.ext",
        ],
    ];
    for step in steps {
        if !run(path, "openssl", step) {
            return;
        }
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let Ok(child) = std::process::Command::new("redis-server")
        .args([
            "--port",
            "0",
            "--tls-port",
            &port,
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--tls-cert-file",
            "redis.pem",
            "--tls-key-file",
            "redis.key",
            "--tls-ca-cert-file",
            "ca.pem",
            "--tls-auth-clients",
            "no",
        ])
        .current_dir(path)
        .stdout(std::process::Stdio::null())
        .spawn()
    else {
        eprintln!("notice: TLS test skipped: no redis-server");
        return;
    };
    let _redis = ChildServer(child);
    // Wait (bounded) until it accepts connections.
    let deadline = std::time::Instant::now() + crate::support::replica::STEP;
    while std::net::TcpStream::connect(format!("127.0.0.1:{port}")).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "the TLS Redis never listened"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    // Without the test CA among its roots, the server refuses the certificate and does not start.
    let url = format!("rediss://127.0.0.1:{port}");
    let untrusting = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
        .arg("serve")
        .env("MANCALA__SERVER__LISTEN", "127.0.0.1:0")
        .env("MANCALA__MATCHES__STORE", "redis")
        .env("MANCALA__MATCHES__REDIS_URL", &url)
        .env("SSL_CERT_FILE", path.join("redis.csr"))
        .stdout(std::process::Stdio::null())
        .output()
        .expect("run the binary");
    assert!(!untrusting.status.success());
    let stderr = String::from_utf8_lossy(&untrusting.stderr);
    assert!(
        stderr.contains("cannot reach Redis at 127.0.0.1"),
        "{stderr}"
    );

    // The replica trusts the test CA alone (rustls-native-certs reads SSL_CERT_FILE).
    let ca = path.join("ca.pem");
    let server = Replica::start(&[
        ("MANCALA__MATCHES__STORE", "redis"),
        ("MANCALA__MATCHES__REDIS_URL", url.as_str()),
        ("SSL_CERT_FILE", ca.to_str().unwrap()),
    ])
    .await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let (request, token) = next_request(&m, &tokens, 0);
    let event = within(
        "a move over TLS",
        client.submit_move(authed(request, &token)),
    )
    .await
    .expect("accepted")
    .into_inner()
    .event
    .unwrap();
    assert_eq!(get(&mut client, &m.match_id).await.version, event.seq);
}
