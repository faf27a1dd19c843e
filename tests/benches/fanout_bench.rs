//! Streaming measurements (ignored: a measurement, not a test), against the real binary with the memory store:
//!
//! 1. one move fanned out to `FANOUT_WATCHERS` spectators of one match: the delivery latency of every move
//!    to every watcher, from just before `SubmitMove` is sent to the watcher's receipt;
//! 2. the server's resident memory per open watcher, and per match for `FANOUT_MATCHES` concurrent matches;
//! 3. moves per second over those matches, played at once from 16 clients for `FANOUT_PLAY_SECONDS`, each
//!    client going round its own matches one move at a time, with the latency of every `SubmitMove`.
//!
//! ```sh
//! cargo test --release --test benches fanout_bench -- --ignored --nocapture
//! ```

use crate::support::replica::{authed, create, moved_on, next_request, within, Replica};
use mancala::api::pb;
use mancala::api::pb::matches_client::MatchesClient;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tonic::transport::Channel;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The server's resident memory, from /proc.
fn resident_bytes(replica: &Replica) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", replica.child.id()))
        .expect("proc status");
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kib * 1024
}

/// Submits move `n` of `m`'s legal moves for the player to move and returns the accepted event.
async fn submit(
    client: &mut MatchesClient<Channel>,
    m: &pb::Match,
    tokens: &[String],
    n: usize,
) -> pb::MatchEvent {
    let (request, token) = next_request(m, tokens, n);
    within("submit", client.submit_move(authed(request, &token)))
        .await
        .expect("accepted")
        .into_inner()
        .event
        .expect("the accepted event")
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run with --ignored --nocapture"]
async fn fan_out_and_memory() {
    let watchers = env_or("FANOUT_WATCHERS", 1000);
    let moves = env_or("FANOUT_MOVES", 20);
    let matches = env_or("FANOUT_MATCHES", 20_000);
    let play_for = Duration::from_secs(env_or("FANOUT_PLAY_SECONDS", 5) as u64);
    let limit = (watchers + 10).to_string();
    let replica = Replica::start(&[
        ("MANCALA__MATCHES__STORE", "memory"),
        ("MANCALA__MATCHES__MAX_WATCHERS_PER_MATCH", &limit),
        ("MANCALA__MATCHES__MAX_WATCHERS_TOTAL", &limit),
        (
            "MANCALA__LOG__FILTER",
            "warn,mancala=info,mancala::request=warn",
        ),
    ])
    .await;
    let mut client = replica.client().await;
    let (mut m, tokens) = create(&mut client).await;
    let rss_before_watchers = resident_bytes(&replica);

    // Watchers spread over 8 connections (HTTP/2 limits the streams of one).
    let mut connections = Vec::new();
    for _ in 0..8 {
        connections.push(replica.client().await);
    }
    let received: Arc<Mutex<Vec<(u64, Instant)>>> = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for w in 0..watchers {
        let mut c = connections[w % connections.len()].clone();
        let mut stream = within(
            "watch",
            c.watch_match(pb::WatchMatchRequest {
                match_id: m.match_id.clone(),
                from_seq: None,
                previews: false,
            }),
        )
        .await
        .expect("watch")
        .into_inner();
        // The snapshot first, so every watcher is subscribed before the first move.
        within("snapshot", stream.message())
            .await
            .expect("open")
            .expect("a snapshot");
        let received = received.clone();
        tasks.push(tokio::spawn(async move {
            use pb::watch_match_response::Kind;
            let mut seen = 0;
            while seen < moves {
                let Ok(Some(message)) = stream.message().await else {
                    return;
                };
                if let Some(Kind::Event(e)) = message.kind {
                    received.lock().unwrap().push((e.seq, Instant::now()));
                    seen += 1;
                }
            }
        }));
    }
    let rss_with_watchers = resident_bytes(&replica);

    let mut sent = Vec::new();
    for n in 0..moves {
        let started = Instant::now();
        let event = submit(&mut client, &m, &tokens, n).await;
        sent.push((event.seq, started));
        moved_on(&mut m, &event);
    }
    for task in tasks {
        within("watchers finish", task).await.unwrap();
    }
    let received = std::mem::take(&mut *received.lock().unwrap());
    let mut latencies: Vec<Duration> = received
        .iter()
        .map(|(seq, at)| {
            let started = sent.iter().find(|(s, _)| s == seq).expect("a sent move").1;
            at.saturating_duration_since(started)
        })
        .collect();
    latencies.sort();
    assert_eq!(
        latencies.len(),
        watchers * moves,
        "every watcher got every move"
    );
    println!(
        "fan-out: {moves} moves × {watchers} watchers = {} deliveries; p50 {:.2?}, p90 {:.2?}, p99 {:.2?}, max {:.2?}",
        latencies.len(),
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.90),
        percentile(&latencies, 0.99),
        latencies[latencies.len() - 1],
    );
    println!(
        "memory per watcher: {:.1} KiB ({} watchers: RSS {:.1} → {:.1} MiB)",
        (rss_with_watchers.saturating_sub(rss_before_watchers)) as f64 / watchers as f64 / 1024.0,
        watchers,
        rss_before_watchers as f64 / 1048576.0,
        rss_with_watchers as f64 / 1048576.0,
    );

    // Many concurrent matches: created from 16 clients at once, each match with its first move played.
    let rss_before_matches = resident_bytes(&replica);
    let per_client = matches / 16;
    let mut creators = Vec::new();
    for c in 0..16 {
        let mut client = connections[c % connections.len()].clone();
        creators.push(tokio::spawn(async move {
            let mut made = Vec::with_capacity(per_client);
            for _ in 0..per_client {
                let (mut m, tokens) = create(&mut client).await;
                let event = submit(&mut client, &m, &tokens, 0).await;
                moved_on(&mut m, &event);
                made.push((m, tokens));
            }
            (client, made)
        }));
    }
    let mut clients = Vec::new();
    for creator in creators {
        clients.push(creator.await.unwrap());
    }
    let rss_with_matches = resident_bytes(&replica);
    let per_match =
        rss_with_matches.saturating_sub(rss_before_matches) as f64 / (per_client * 16) as f64;
    println!(
        "memory per match: {:.0} bytes ({} matches: RSS {:.1} → {:.1} MiB); 100,000 matches ≈ {:.0} MiB",
        per_match,
        per_client * 16,
        rss_before_matches as f64 / 1048576.0,
        rss_with_matches as f64 / 1048576.0,
        (rss_before_matches as f64 + per_match * 100_000.0) / 1048576.0,
    );

    // Moves over all those matches at once: each client goes round its own, one move at a time.
    let started = Instant::now();
    let mut players = Vec::new();
    for (mut client, mut made) in clients {
        players.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            'play: while started.elapsed() < play_for {
                let mut moved = false;
                for (m, tokens) in made.iter_mut() {
                    if started.elapsed() >= play_for {
                        break 'play;
                    }
                    if m.legal_moves.is_empty() {
                        continue; // over
                    }
                    let sent = Instant::now();
                    let event = submit(&mut client, m, tokens, latencies.len()).await;
                    latencies.push(sent.elapsed());
                    moved_on(m, &event);
                    moved = true;
                }
                if !moved {
                    break; // every match of this client is over
                }
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for player in players {
        latencies.extend(player.await.unwrap());
    }
    let elapsed = started.elapsed();
    latencies.sort();
    println!(
        "moves over {} matches from 16 clients: {} moves in {:.1?} = {:.0} moves/s; SubmitMove p50 {:.2?}, p99 {:.2?}, max {:.2?}",
        per_client * 16,
        latencies.len(),
        elapsed,
        latencies.len() as f64 / elapsed.as_secs_f64(),
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        latencies[latencies.len() - 1],
    );
}
