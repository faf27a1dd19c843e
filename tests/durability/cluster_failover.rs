//! Two replicas of the server over a Redis Cluster (three primaries, three replicas: `.ci/redis-cluster`), with
//! `matches.redis_wait_replicas = 1`: the primary of a busy match's slot is killed with SIGKILL while clients move in
//! several matches on both replicas. Every move acknowledged before, during or after the failover is in the log
//! afterwards, the clients' retries (same `request_id`) are answered as the first time, and a watcher on the other
//! replica sees every event once, in order, through the failover.
//!
//! With one replica per primary and `redis_wait_replicas = 1`, the promoted replica has no replica of its own until
//! the killed node is back: its slots refuse writes (UNAVAILABLE) meanwhile, which is what the setting promises. The
//! test brings the node back (`.ci/redis-cluster` restarts it; it rejoins as a replica) and the moves go on.
//!
//! It needs the cluster: `MANCALA_TEST_REDIS_CLUSTER_URL`, or the one `.ci/redis-cluster` starts on
//! 127.0.0.1:7000-7005. Without one it fails; it never passes unrun.

use crate::matches_redis::{redis_connection, Prefix};
use crate::support::replica::{authed, create, get, history, moved_on, next_event, next_request};
use crate::support::replica::{within, Replica};
use mancala::api::pb;
use mancala::api::pb::matches_client::MatchesClient;
use std::time::{Duration, Instant};
use tonic::transport::Channel;

/// The cluster of the test run.
fn cluster_url() -> String {
    std::env::var("MANCALA_TEST_REDIS_CLUSTER_URL")
        .ok()
        .filter(|url| !url.is_empty())
        .unwrap_or_else(|| {
            "redis+cluster://127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002".to_string()
        })
}

/// Matches played at once.
const MATCHES: usize = 4;
/// Moves each client makes at most.
const MOVES: usize = 30;
/// How long a client keeps retrying one move through the failover.
const RETRY_FOR: Duration = Duration::from_secs(60);

/// `host:port` of the primary serving `key`'s slot, and its process id.
fn primary_of(key: &str) -> (String, u32) {
    let mut con = redis_connection(&cluster_url());
    let slot: u16 = redis::cmd("CLUSTER")
        .arg("KEYSLOT")
        .arg(key)
        .query(&mut *con)
        .expect("CLUSTER KEYSLOT");
    let nodes: String = redis::cmd("CLUSTER")
        .arg("NODES")
        .query(&mut *con)
        .expect("CLUSTER NODES");
    // `<id> <ip:port@bus> <flags> <primary> … <slot ranges>`, a line per node.
    let address = nodes
        .lines()
        .filter(|line| line.split(' ').nth(2).is_some_and(|f| f.contains("master")))
        .filter(|line| !line.contains("fail"))
        .find(|line| {
            line.split(' ').skip(8).any(|range| {
                let (from, to) = range.split_once('-').unwrap_or((range, range));
                matches!((from.parse::<u16>(), to.parse::<u16>()), (Ok(f), Ok(t)) if f <= slot && slot <= t)
            })
        })
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|address| address.split('@').next())
        .unwrap_or_else(|| panic!("no primary serves slot {slot}:\n{nodes}"))
        .to_string();
    let mut node = redis::Client::open(format!("redis://{address}"))
        .and_then(|client| client.get_connection())
        .expect("the primary answers");
    let info: String = redis::cmd("INFO")
        .arg("server")
        .query(&mut node)
        .expect("INFO server");
    let pid = info
        .lines()
        .find_map(|line| line.trim().strip_prefix("process_id:"))
        .and_then(|pid| pid.parse().ok())
        .expect("a process id");
    (address, pid)
}

/// Starts the cluster's nodes that are down again (`.ci/redis-cluster`, idempotent) and waits for it to be whole.
fn heal_cluster() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/redis-cluster");
    let status = std::process::Command::new("bash")
        .arg(script)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("bash runs");
    assert!(status.success(), ".ci/redis-cluster failed: {status:?}");
}

/// Plays up to `MOVES` moves of `m`, alternating between the two replicas, retrying each (same request) until it
/// is answered; every answered event, and how many calls failed.
async fn play(
    mut clients: [MatchesClient<Channel>; 2],
    mut m: pb::Match,
    tokens: Vec<String>,
    started: tokio::sync::mpsc::UnboundedSender<()>,
) -> (Vec<pb::MatchEvent>, usize) {
    let mut acked = Vec::new();
    let mut failures = 0;
    for n in 0..MOVES {
        if m.legal_moves.is_empty() {
            break;
        }
        let (request, token) = next_request(&m, &tokens, n * 3 + 1);
        let since = Instant::now();
        let event = loop {
            let client = &mut clients[(n + failures) % 2];
            let answer = tokio::time::timeout(
                Duration::from_secs(20),
                client.submit_move(authed(request.clone(), &token)),
            )
            .await;
            match answer {
                Ok(Ok(answer)) => break answer.into_inner().event.expect("an event"),
                Ok(Err(status)) => {
                    assert!(
                        matches!(
                            status.code(),
                            tonic::Code::Unavailable | tonic::Code::Internal
                        ),
                        "move {n}: only the store's failure may refuse it: {status:?}"
                    );
                    failures += 1;
                }
                Err(_) => failures += 1,
            }
            assert!(
                since.elapsed() < RETRY_FOR,
                "move {n} not answered within {RETRY_FOR:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(event.seq, m.version + 1, "the retried move, once");
        moved_on(&mut m, &event);
        acked.push(event);
        let _ = started.send(());
    }
    (acked, failures)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_primary_killed_under_load_loses_no_acknowledged_move_and_every_stream_resumes() {
    let url = cluster_url();
    heal_cluster();
    let prefix = Prefix::new(&url, "failover");
    let env = [("MANCALA__MATCHES__REDIS_WAIT_REPLICAS", "1")];
    let (a, b): (Replica, Replica) = prefix.replicas_with(&env).await;
    let (mut on_a, mut on_b) = (a.client().await, b.client().await);

    let mut games = Vec::new();
    for _ in 0..MATCHES {
        games.push(create(&mut on_a).await);
    }
    let doomed = &games[0].0.match_id;
    // A spectator on B from the start of the match whose primary dies.
    let mut watcher = within(
        "watch on B",
        on_b.watch_match(pb::WatchMatchRequest {
            match_id: doomed.clone(),
            from_seq: Some(0),
            previews: false,
        }),
    )
    .await
    .expect("watch on B")
    .into_inner();
    let (address, pid) = primary_of(&format!("{}m:{{{doomed}}}", prefix.name()));

    let (started_tx, mut started) = tokio::sync::mpsc::unbounded_channel();
    let players: Vec<_> = games
        .iter()
        .map(|(m, tokens)| {
            tokio::spawn(play(
                [on_a.clone(), on_b.clone()],
                m.clone(),
                tokens.clone(),
                started_tx.clone(),
            ))
        })
        .collect();
    // Under load: a few moves answered in every match, then the primary dies.
    for _ in 0..(2 * MATCHES) {
        within("moves before the kill", started.recv()).await;
    }
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success(), "kill -KILL {pid} ({address})");
    // Its replica takes over within a few node timeouts; until the killed node is back as a replica of it (which
    // `.ci/redis-cluster` waits for the takeover to do), WAIT 1 cannot be met there: the moves of its slots are
    // refused, and retried.
    tokio::task::spawn_blocking(heal_cluster)
        .await
        .expect("healed");

    let mut refused = 0;
    for ((m, _), player) in games.iter().zip(players) {
        let (acked, failures) = within("a match played on", player).await.expect("no panic");
        refused += failures;
        assert!(!acked.is_empty());
        // Every acknowledged move is there, on both replicas, at its seq; nothing else is.
        for client in [&mut on_a, &mut on_b] {
            let log = history(client, &m.match_id).await;
            assert_eq!(
                log.events, acked,
                "match {}: the log is the acknowledged moves",
                m.match_id
            );
            assert_eq!(get(client, &m.match_id).await.version, acked.len() as u64);
        }
    }
    eprintln!("calls refused or timed out through the failover: {refused}");
    // The watcher on B saw the doomed match whole, each event once, in order.
    let log = history(&mut on_b, doomed).await;
    for event in &log.events {
        assert_eq!(&next_event(&mut watcher).await, event);
    }
}
