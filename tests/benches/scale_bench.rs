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
//!
//! Each row also gives what a move cost in CPU: the server's (its process's utime + stime from /proc, split by
//! thread name with `SCALE_BENCH_THREADS=1`) and the clients' (this process's). `SCALE_BENCH_SETUPS` picks the rows
//! (`memory,embedded` needs no Redis) and `SCALE_BENCH_ROUNDS` repeats them in turn, so that stores compared share
//! the machine's moments.

use crate::support::replica::{authed, create, moved_on, next_request, Replica};
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tonic::transport::Channel;

/// Quiet servers that still log their address.
const LOG: &str = "warn,mancala=info,mancala::request=warn";
/// Every client plays from 127.0.0.1: more unfinished matches than one address's default share.
const ADDRESS_LIMIT: (&str, &str) = ("MANCALA__ADDRESSES__MAX_ACTIVE_MATCHES", "1000000");

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

/// The CPU seconds (utime + stime) in a `/proc/.../stat` line.
pub(crate) fn cpu_in(stat: &str) -> f64 {
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}

/// The CPU seconds of process `pid` (`self` for this one).
pub(crate) fn cpu_of(pid: &str) -> f64 {
    cpu_in(&std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default())
}

/// The CPU seconds of each thread of process `pid`, by thread id, with the thread's name.
fn threads_of(pid: u32) -> BTreeMap<String, (String, f64)> {
    let mut threads = BTreeMap::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let dir = task.path();
        let name = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
        let tid = task.file_name().to_string_lossy().into_owned();
        threads.insert(tid, (name.trim().to_string(), cpu_in(&stat)));
    }
    threads
}

/// The CPU each thread name of `pid` spent since `before`, in µs per move, with how many threads bore it.
fn threads_spent(pid: u32, before: &BTreeMap<String, (String, f64)>, moves: f64) -> String {
    let mut by_name: BTreeMap<String, (usize, f64)> = BTreeMap::new();
    for (tid, (name, cpu)) in threads_of(pid) {
        let spent = cpu - before.get(&tid).map_or(0.0, |(_, cpu)| *cpu);
        if spent > 0.0 {
            let entry = by_name.entry(name).or_default();
            entry.0 += 1;
            entry.1 += spent;
        }
    }
    by_name
        .iter()
        .map(|(name, (threads, cpu))| format!("{name} ×{threads}: {:.1}", cpu / moves * 1e6))
        .collect::<Vec<_>>()
        .join(", ")
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
    let server_cpu = || -> f64 { replicas.iter().map(|r| cpu_of(&r.pid().to_string())).sum() };
    let (server_before, clients_before) = (server_cpu(), cpu_of("self"));
    let threads_before: Vec<_> = replicas.iter().map(|r| threads_of(r.pid())).collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("no panic"));
    }
    let elapsed = started.elapsed().as_secs_f64();
    let moves = latencies.len().max(1) as f64;
    let server = (server_cpu() - server_before) / moves * 1e6;
    let clients = (cpu_of("self") - clients_before) / moves * 1e6;
    let threads = (env_or("SCALE_BENCH_THREADS", 0) == 1).then(|| {
        replicas
            .iter()
            .zip(&threads_before)
            .map(|(r, before)| threads_spent(r.pid(), before, moves))
            .collect::<Vec<_>>()
            .join(" / ")
    });
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    println!(
        "| {name} | {matches} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {server:.1} | {clients:.1} |",
        latencies.len(),
        latencies.len() as f64 / elapsed,
        pct(0.5),
        pct(0.99),
        pct(0.999),
    );
    if let Some(threads) = threads {
        println!("|  | server CPU µs/move by thread: {threads} |");
    }
}

/// Whether `SCALE_BENCH_SETUPS` (a comma-separated list; every setup when unset) names `setup`.
fn wanted(setup: &str) -> bool {
    std::env::var("SCALE_BENCH_SETUPS")
        .map_or(true, |setups| setups.split(',').any(|s| s.trim() == setup))
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a measurement: run with --ignored --nocapture (see the file's doc)"]
async fn moves_per_second_through_one_and_two_replicas() {
    let url = std::env::var("MANCALA_TEST_REDIS_URL").ok();
    if url.is_none() && wanted("redis") {
        eprintln!("notice: set MANCALA_TEST_REDIS_URL to measure the Redis store");
        return;
    }
    let matches = env_or("SCALE_BENCH_MATCHES", 64);
    let seconds = env_or("SCALE_BENCH_SECONDS", 10);
    println!("| setup | matches | moves | moves/s | p50 ms | p99 ms | p99.9 ms | server CPU µs/move | clients' CPU µs/move |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for _ in 0..env_or("SCALE_BENCH_ROUNDS", 1) {
        if wanted("memory") {
            let one = [Replica::start(&[
                ("MANCALA__MATCHES__STORE", "memory"),
                ("MANCALA__LOG__FILTER", LOG),
                ADDRESS_LIMIT,
            ])
            .await];
            measure("memory x1", &one, false, matches, seconds).await;
        }
        if wanted("embedded") {
            let dir = tempfile::tempdir().unwrap();
            let data = dir.path().to_str().unwrap().to_string();
            let one = [Replica::start(&[
                ("MANCALA__MATCHES__STORE", "embedded"),
                ("MANCALA__MATCHES__DATA_DIR", data.as_str()),
                ("MANCALA__LOG__FILTER", LOG),
                ADDRESS_LIMIT,
            ])
            .await];
            measure("embedded x1", &one, false, matches, seconds).await;
        }
        if let (Some(url), true) = (&url, wanted("redis")) {
            redis_rows(url, matches, seconds).await;
        }
    }
}

/// The rows over Redis: one replica, then two; the bench's keys deleted after.
async fn redis_rows(url: &str, matches: u64, seconds: u64) {
    let prefix = format!("mancala-bench:{}:", std::process::id());
    let redis = [
        ("MANCALA__MATCHES__STORE", "redis"),
        ("MANCALA__MATCHES__REDIS_URL", url),
        ("MANCALA__MATCHES__REDIS_KEY_PREFIX", prefix.as_str()),
        ("MANCALA__LOG__FILTER", LOG),
        ADDRESS_LIMIT,
    ];
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
    if let Ok(client) = redis::Client::open(url) {
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
