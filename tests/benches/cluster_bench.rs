//! Moves per second through 1, 2 and 4 replicas of the server over a Redis Cluster (ignored: a measurement, not a
//! test), and what one move costs: the server's CPU, the Redis commands on the primaries and on their replicas, the
//! bytes between the servers and the primaries and from the primaries to their replicas, and Redis's CPU, each per
//! move, from the nodes' `INFO` (commandstats, stats, cpu) before and after each row. Each of `CLUSTER_BENCH_MATCHES`
//! clients plays its own Ba-awa match, one move at a time with `expected_version` (a new match when one ends), for
//! `CLUSTER_BENCH_SECONDS`, each match on one replica (as a balancer with match affinity would send it); a row
//! `... watched` adds `CLUSTER_BENCH_WATCHERS` spectators on every match, on the other replicas (the fan-out).
//!
//! ```sh
//! bash .ci/redis-cluster
//! MANCALA_TEST_REDIS_CLUSTER_URL=redis+cluster://127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002 \
//!   cargo test --release --test benches cluster_bench -- --ignored --nocapture
//! ```
//! `MANCALA_TEST_REDIS_URL` (one Redis) instead measures the same rows over one Redis, for comparison;
//! `CLUSTER_BENCH_WAIT=1` sets `matches.redis_wait_replicas`.

use crate::scale_bench::cpu_of;
use crate::scale_bench::{env_or, timed_move};
use crate::support::replica::{create, Replica};
use mancala::api::pb;
use mancala::config::RedisAt;
use pb::matches_client::MatchesClient;
use std::time::{Duration, Instant};
use tonic::transport::Channel;

/// Quiet servers that still log their address.
const LOG: &str = "warn,mancala=info,mancala::request=warn";

/// What the Redis nodes have done so far, summed.
#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    primary_commands: f64,
    replica_commands: f64,
    /// Bytes the primaries received from clients and sent to them (replication not counted).
    client_in: f64,
    client_out: f64,
    /// Bytes the primaries sent to their replicas.
    replication_out: f64,
    /// Seconds of CPU, every node.
    cpu: f64,
}

impl std::ops::Sub for Totals {
    type Output = Totals;
    fn sub(self, o: Totals) -> Totals {
        Totals {
            primary_commands: self.primary_commands - o.primary_commands,
            replica_commands: self.replica_commands - o.replica_commands,
            client_in: self.client_in - o.client_in,
            client_out: self.client_out - o.client_out,
            replication_out: self.replication_out - o.replication_out,
            cpu: self.cpu - o.cpu,
        }
    }
}

/// Every node of `url`'s Redis: the one, or every node a cluster's first seed knows.
fn nodes(url: &str) -> Vec<redis::Client> {
    match RedisAt::parse(url).expect("a Redis URL") {
        RedisAt::Single(info) => vec![redis::Client::open(*info).unwrap()],
        RedisAt::Cluster(seeds) => {
            let mut seed = redis::Client::open(seeds[0].clone())
                .unwrap()
                .get_connection()
                .expect("the seed answers");
            let listing: String = redis::cmd("CLUSTER").arg("NODES").query(&mut seed).unwrap();
            listing
                .lines()
                .filter_map(|line| line.split(' ').nth(1)?.split('@').next())
                .map(|addr| redis::Client::open(format!("redis://{addr}")).unwrap())
                .collect()
        }
    }
}

fn totals(nodes: &[redis::Client]) -> Totals {
    let mut t = Totals::default();
    for node in nodes {
        let mut con = node.get_connection().expect("a node answers");
        let info: String = redis::cmd("INFO")
            .arg("everything")
            .query(&mut con)
            .unwrap();
        let field = |name: &str| -> f64 {
            info.lines()
                .find_map(|line| line.trim().strip_prefix(name)?.strip_prefix(':'))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0.0)
        };
        let commands: f64 = info
            .lines()
            .filter(|line| line.starts_with("cmdstat_") && !line.starts_with("cmdstat_info:"))
            .filter_map(|line| {
                line.split("calls=")
                    .nth(1)?
                    .split(',')
                    .next()?
                    .parse::<f64>()
                    .ok()
            })
            .sum();
        if info.contains("role:master") {
            t.primary_commands += commands;
            t.client_in += field("total_net_input_bytes") - field("total_net_repl_input_bytes");
            t.client_out += field("total_net_output_bytes") - field("total_net_repl_output_bytes");
            t.replication_out += field("total_net_repl_output_bytes");
        } else {
            t.replica_commands += commands;
        }
        t.cpu += field("used_cpu_sys") + field("used_cpu_user");
    }
    t
}

/// Plays for `until` on `client`; the latencies of the accepted moves.
async fn play(
    mut client: MatchesClient<Channel>,
    watchers: Vec<MatchesClient<Channel>>,
    until: Instant,
) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let mut n = 0;
    while Instant::now() < until {
        let (mut m, tokens) = create(&mut client).await;
        // Spectators of this match on the other replicas, read to the end in the background.
        for watcher in &watchers {
            let mut watcher = watcher.clone();
            let id = m.match_id.clone();
            tokio::spawn(async move {
                if let Ok(stream) = watcher
                    .watch_match(pb::WatchMatchRequest {
                        match_id: id,
                        from_seq: None,
                        previews: false,
                    })
                    .await
                {
                    let mut stream = stream.into_inner();
                    while let Ok(Some(_)) = stream.message().await {}
                }
            });
        }
        while !m.legal_moves.is_empty() && Instant::now() < until {
            latencies.push(timed_move(&mut client, &mut m, &tokens, n).await);
            n += 1;
        }
    }
    latencies
}

async fn measure(
    name: &str,
    url: &str,
    replicas: &[Replica],
    watchers: u64,
    matches: u64,
    seconds: u64,
) {
    let nodes = nodes(url);
    let until = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for i in 0..matches as usize {
        let client = replicas[i % replicas.len()].client().await;
        let mut spectators = Vec::new();
        for w in 0..watchers as usize {
            spectators.push(replicas[(i + 1 + w) % replicas.len()].client().await);
        }
        tasks.push(tokio::spawn(play(client, spectators, until)));
    }
    let before = totals(&nodes);
    let server_before: f64 = replicas.iter().map(|r| cpu_of(&r.pid().to_string())).sum();
    let started = Instant::now();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("no panic"));
    }
    let elapsed = started.elapsed().as_secs_f64();
    let server = replicas
        .iter()
        .map(|r| cpu_of(&r.pid().to_string()))
        .sum::<f64>()
        - server_before;
    let spent = totals(&nodes) - before;
    latencies.sort();
    let moves = latencies.len() as f64;
    let pct = |p: f64| {
        latencies
            .get(((moves * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    println!(
        "| {name} | {matches} | {} | {:.0} | {:.2} / {:.2} | {:.0} | {:.1} / {:.1} | {:.0} / {:.0} / {:.0} | {:.0} |",
        latencies.len(),
        moves / elapsed,
        pct(0.5),
        pct(0.99),
        server / moves * 1e6,
        spent.primary_commands / moves,
        spent.replica_commands / moves,
        spent.client_in / moves,
        spent.client_out / moves,
        spent.replication_out / moves,
        spent.cpu / moves * 1e6,
    );
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a measurement: run with --ignored --nocapture (see the file's doc)"]
async fn moves_per_second_through_one_two_and_four_replicas_over_a_cluster() {
    let url = std::env::var("MANCALA_TEST_REDIS_CLUSTER_URL")
        .or_else(|_| std::env::var("MANCALA_TEST_REDIS_URL"))
        .expect(
            "MANCALA_TEST_REDIS_CLUSTER_URL (or MANCALA_TEST_REDIS_URL) names the Redis to measure",
        );
    let matches = env_or("CLUSTER_BENCH_MATCHES", 64);
    let seconds = env_or("CLUSTER_BENCH_SECONDS", 10);
    let watchers = env_or("CLUSTER_BENCH_WATCHERS", 2);
    let wait = std::env::var("CLUSTER_BENCH_WAIT").unwrap_or_else(|_| "0".into());
    let prefix = format!("mancala-bench-{}-", std::process::id());
    let env = [
        ("MANCALA__MATCHES__STORE", "redis"),
        ("MANCALA__MATCHES__REDIS_URL", url.as_str()),
        ("MANCALA__MATCHES__REDIS_KEY_PREFIX", prefix.as_str()),
        ("MANCALA__MATCHES__REDIS_WAIT_REPLICAS", wait.as_str()),
        ("MANCALA__MATCHES__MAX_WATCHERS_TOTAL", "1000000"),
        // The matches a row leaves unfinished count against the one client address of every row after it.
        ("MANCALA__ADDRESSES__MAX_ACTIVE_MATCHES", "1000000"),
        ("MANCALA__ADDRESSES__MAX_WATCHERS", "1000000"),
        ("MANCALA__ADDRESSES__CALLS_PER_SECOND", "0"),
        ("MANCALA__LOG__FILTER", LOG),
    ];
    println!("| setup | matches | moves | moves/s | p50 / p99 ms | server CPU µs/move | commands/move: primaries / replicas | bytes/move: in / out / to replicas | Redis CPU µs/move |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut replicas = Vec::new();
    for n in [1usize, 2, 4] {
        while replicas.len() < n {
            replicas.push(Replica::start(&env).await);
        }
        measure(&format!("x{n}"), &url, &replicas, 0, matches, seconds).await;
    }
    measure(
        &format!("x4, {watchers} watchers a match"),
        &url,
        &replicas,
        watchers,
        matches,
        seconds,
    )
    .await;
}
