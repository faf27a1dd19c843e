//! Moves per second through one and two replicas (ignored: a measurement, not a test). Each of
//! `SCALE_BENCH_MATCHES` clients plays its own Ba-awa match, one move at a time with
//! `expected_version` (a new match when one ends), for `SCALE_BENCH_SECONDS`, against:
//!
//! - `memory x1`, `embedded x1`: one replica, the single-node stores, for reference;
//! - `redis x1`: one replica over Redis;
//! - `redis x2 pinned`: two replicas over one Redis, each match on one of them;
//! - `redis x2 alternating`: two replicas, each match's moves alternating between them (what a
//!   balancer that picks a replica per call does), so every move is also fed to the other one.
//!
//! ```sh
//! MANCALA_TEST_REDIS_URL=redis://127.0.0.1:6379 \
//!   cargo test --release --test benches scale_bench -- --ignored --nocapture
//! ```

use crate::support::replica::{authed, create, moved_on, next_request, Replica};
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use std::time::{Duration, Instant};
use tonic::transport::Channel;

/// Quiet servers that still log their address.
const LOG: &str = "warn,mancala=info,mancala::request=warn";

pub(crate) fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Plays for `seconds` over `clients` (a match's move `n` goes to `clients[n % len]`); the
/// latencies of the accepted moves.
async fn play(mut clients: Vec<MatchesClient<Channel>>, until: Instant) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let mut n = 0;
    while Instant::now() < until {
        let (mut m, tokens) = create(&mut clients[0]).await;
        while !m.legal_moves.is_empty() && Instant::now() < until {
            let replicas = clients.len();
            latencies.push(timed_move(&mut clients[n % replicas], &mut m, &tokens, n).await);
            n += 1;
        }
    }
    latencies
}

/// Plays a legal move of `m` (its `n`-th choice) on `client` and moves `m` on; how long the answer took.
pub(crate) async fn timed_move(
    client: &mut MatchesClient<Channel>,
    m: &mut pb::Match,
    tokens: &[String],
    n: usize,
) -> Duration {
    let (request, token) = next_request(m, tokens, n * 7 + 1);
    let start = Instant::now();
    let event = client
        .submit_move(authed(request, &token))
        .await
        .expect("accepted")
        .into_inner()
        .event
        .unwrap();
    let took = start.elapsed();
    moved_on(m, &event);
    took
}

async fn measure(name: &str, replicas: &[Replica], alternate: bool, matches: u64, seconds: u64) {
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for i in 0..matches as usize {
        let mut clients = Vec::new();
        if alternate {
            for r in 0..replicas.len() {
                clients.push(replicas[(i + r) % replicas.len()].client().await);
            }
        } else {
            clients.push(replicas[i % replicas.len()].client().await);
        }
        tasks.push(tokio::spawn(play(clients, until)));
    }
    let started = Instant::now();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("no panic"));
    }
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    println!(
        "| {name} | {matches} | {} | {:.0} | {:.2} | {:.2} | {:.2} |",
        latencies.len(),
        latencies.len() as f64 / elapsed,
        pct(0.5),
        pct(0.99),
        pct(0.999),
    );
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a measurement: run with --ignored --nocapture (see the file's doc)"]
async fn moves_per_second_through_one_and_two_replicas() {
    let Ok(url) = std::env::var("MANCALA_TEST_REDIS_URL") else {
        eprintln!("notice: set MANCALA_TEST_REDIS_URL to measure the Redis store");
        return;
    };
    let matches = env_or("SCALE_BENCH_MATCHES", 64);
    let seconds = env_or("SCALE_BENCH_SECONDS", 10);
    let prefix = format!("mancala-bench:{}:", std::process::id());
    let redis = [
        ("MANCALA__MATCHES__STORE", "redis"),
        ("MANCALA__MATCHES__REDIS_URL", url.as_str()),
        ("MANCALA__MATCHES__REDIS_KEY_PREFIX", prefix.as_str()),
        ("MANCALA__LOG__FILTER", LOG),
    ];
    println!("| setup | matches | moves | moves/s | p50 ms | p99 ms | p99.9 ms |");
    println!("|---|---|---|---|---|---|---|");
    {
        let one = [Replica::start(&[
            ("MANCALA__MATCHES__STORE", "memory"),
            ("MANCALA__LOG__FILTER", LOG),
        ])
        .await];
        measure("memory x1", &one, false, matches, seconds).await;
    }
    {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().to_str().unwrap().to_string();
        let one = [Replica::start(&[
            ("MANCALA__MATCHES__STORE", "embedded"),
            ("MANCALA__MATCHES__DATA_DIR", data.as_str()),
            ("MANCALA__LOG__FILTER", LOG),
        ])
        .await];
        measure("embedded x1", &one, false, matches, seconds).await;
    }
    {
        let one = [Replica::start(&redis).await];
        measure("redis x1", &one, false, matches, seconds).await;
    }
    {
        let two = [Replica::start(&redis).await, Replica::start(&redis).await];
        measure("redis x2 pinned", &two, false, matches, seconds).await;
        measure("redis x2 alternating", &two, true, matches, seconds).await;
    }
    // The bench's keys.
    if let Ok(client) = redis::Client::open(url.as_str()) {
        if let Ok(mut con) = client.get_connection() {
            let keys: Vec<Vec<u8>> = redis::cmd("KEYS")
                .arg(format!("{prefix}*"))
                .query(&mut con)
                .unwrap_or_default();
            for chunk in keys.chunks(1000) {
                let _: Result<(), _> = redis::cmd("DEL").arg(chunk).query(&mut con);
            }
        }
    }
}
