//! Bounded engine work over a real channel (issue 11): a crafted position whose move must be watched for
//! thousands of laps is refused within a budget smaller than that while cheap calls keep being answered; a long
//! call (a search of millions of playouts) abandoned by its deadline stops its work; a server asked to stop
//! stops within its grace although long calls are running.

use crate::support::replica::{within, Replica};
use mancala::api::pb;
use mancala::loadtest::attack::{crafted_validate as validate_crafted, CRAFTED_LAPS};
use pb::rules_client::RulesClient;
use std::time::Duration;
use tonic::transport::Channel;
use tonic::Code;
use tonic_types::StatusExt;

async fn rules(addr: std::net::SocketAddr) -> RulesClient<Channel> {
    let channel = within(
        "connect",
        Channel::from_shared(format!("http://{addr}"))
            .unwrap()
            .connect(),
    )
    .await
    .expect("connect");
    RulesClient::new(channel)
}

/// The value of the series `name` (with its labels, as printed) in a scrape, 0 when absent.
fn series(server: &Replica, name: &str) -> i64 {
    let (_, body) = server.scrape("/metrics");
    body.lines()
        .find_map(|line| line.strip_prefix(name)?.trim().parse().ok())
        .unwrap_or(0)
}

/// Scrapes until `name` reads `value` (bounded by the step timeout).
async fn until_series(server: &Replica, name: &str, value: i64) {
    within(&format!("{name} = {value}"), async {
        while series(server, name) != value {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
}

#[tokio::test]
async fn with_enough_budget_the_long_relay_is_decided() {
    let server = Replica::start(&[("MANCALA__MATCHES__STORE", "memory")]).await;
    let answer = within(
        "validate",
        rules(server.addr).await.validate_move(validate_crafted()),
    )
    .await
    .expect("decided")
    .into_inner();
    assert!(!answer.legal);
    assert_eq!(
        answer.reason,
        pb::IllegalMoveReason::NeverEndingMove as i32,
        "{answer:?}"
    );
}

#[tokio::test]
async fn long_relays_are_refused_within_their_budget_while_cheap_calls_go_on() {
    // A budget below the crafted relay's laps: every attack is refused, after moving off the async workers.
    let budget = (CRAFTED_LAPS / 2).to_string();
    let server = Replica::start(&[
        ("MANCALA__MATCHES__STORE", "memory"),
        ("MANCALA__METRICS__LISTEN", "127.0.0.1:0"),
        ("MANCALA__ENGINE__INLINE_LAPS", "1000"),
        ("MANCALA__ENGINE__RULES_BUDGET_LAPS", budget.as_str()),
        ("MANCALA__ENGINE__POOL_THREADS", "1"),
        ("MANCALA__ENGINE__QUEUE_LIMIT", "2"),
    ])
    .await;
    // Built once: building it decides the long relay here, on the test's one runtime thread, which would then
    // not answer the server's keepalive PINGs in time (seconds, in a debug build).
    let attack = validate_crafted();
    let attackers: Vec<_> = (0..4)
        .map(|_| {
            let client = rules(server.addr);
            let attack = attack.clone();
            tokio::spawn(async move {
                let mut client = client.await;
                let mut reasons = Vec::new();
                for _ in 0..5 {
                    let refused = client
                        .validate_move(attack.clone())
                        .await
                        .expect_err("never decided within half its laps");
                    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
                    reasons.push(refused.get_details_error_info().expect("ErrorInfo").reason);
                }
                reasons
            })
        })
        .collect();
    // Meanwhile a client makes cheap calls, one after another: every one is answered.
    let mut cheap = rules(server.addr).await;
    for _ in 0..100 {
        let start = within(
            "a cheap call",
            cheap.new_game(pb::NewGameRequest {
                kind: pb::GameKind::Bosh as i32,
                options: None,
            }),
        )
        .await
        .expect("answered")
        .into_inner()
        .state;
        let moves = within(
            "a cheap call",
            cheap.list_legal_moves(pb::ListLegalMovesRequest {
                state: start,
                skip_previews: false,
            }),
        )
        .await
        .expect("answered")
        .into_inner()
        .moves;
        assert!(!moves.is_empty());
    }
    let mut reasons = Vec::new();
    for attacker in attackers {
        reasons.extend(within("the attack", attacker).await.expect("attacker"));
    }
    // Past the queue, or past the two long calls one caller (this test's one address) may have in flight.
    assert!(
        reasons.iter().all(|r| r == "WORK_BUDGET_EXHAUSTED"
            || r == "ENGINE_BUSY"
            || r == "TOO_MANY_LONG_CALLS"),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r == "WORK_BUDGET_EXHAUSTED"),
        "{reasons:?}"
    );
    assert_eq!(
        series(&server, "mancala_engine_work_total{outcome=\"exhausted\"}"),
        reasons
            .iter()
            .filter(|r| *r == "WORK_BUDGET_EXHAUSTED")
            .count() as i64
    );
}

/// A search that would run for minutes: a million Monte Carlo playouts of Bao la Kete from the start.
fn long_search() -> pb::SuggestMoveRequest {
    let start = mancala::engine::AnyGame::new_match(
        mancala::engine::GameKind::BaoLaKete,
        &mancala::engine::Options::default(),
    );
    pb::SuggestMoveRequest {
        state: Some(mancala::api::convert::state_to_pb(&start)),
        strength: Some(pb::suggest_move_request::Strength::Budget(
            pb::SearchBudget {
                algorithm: pb::SearchAlgorithm::Mcts as i32,
                iterations: 1_000_000,
                max_depth: 0,
                time_limit_ms: 0,
            },
        )),
        seed: 7,
        seat: 0,
        skip_preview: true,
    }
}

/// Settings for a server that accepts [`long_search`].
const LONG_SEARCHES: [(&str, &str); 2] = [
    ("MANCALA__SEARCH__MAX_ITERATIONS", "1000000"),
    ("MANCALA__SEARCH__MAX_TIME_MS", "600000"),
];

#[tokio::test]
async fn a_call_abandoned_at_its_deadline_stops_its_work() {
    let server = Replica::start(&[
        ("MANCALA__MATCHES__STORE", "memory"),
        ("MANCALA__METRICS__LISTEN", "127.0.0.1:0"),
        ("MANCALA__ENGINE__POOL_THREADS", "1"),
        LONG_SEARCHES[0],
        LONG_SEARCHES[1],
    ])
    .await;
    let mut client = rules(server.addr).await;
    let mut request = tonic::Request::new(long_search());
    request.set_timeout(Duration::from_millis(200));
    let late = within("the deadline", client.suggest_move(request))
        .await
        .expect_err("past its deadline");
    // The client's own channel gives up at the deadline too: whichever side answers first.
    assert!(
        matches!(late.code(), Code::DeadlineExceeded | Code::Cancelled),
        "{late:?}"
    );
    // The pool's one thread stops the abandoned work and is free again.
    until_series(
        &server,
        "mancala_engine_work_total{outcome=\"cancelled\"}",
        1,
    )
    .await;
    until_series(&server, "mancala_engine_pool_running", 0).await;
    assert_eq!(
        series(&server, "mancala_engine_work_total{outcome=\"pool\"}"),
        0
    );
}

#[tokio::test]
async fn shutdown_stops_long_calls_within_its_grace() {
    let mut server = Replica::start(&[
        ("MANCALA__MATCHES__STORE", "memory"),
        ("MANCALA__METRICS__LISTEN", "127.0.0.1:0"),
        ("MANCALA__SERVER__SHUTDOWN_GRACE_MS", "300"),
        ("MANCALA__ENGINE__POOL_THREADS", "2"),
        LONG_SEARCHES[0],
        LONG_SEARCHES[1],
    ])
    .await;
    let search = long_search();
    let calls: Vec<_> = (0..2)
        .map(|_| {
            let client = rules(server.addr);
            let search = search.clone();
            tokio::spawn(async move { client.await.suggest_move(search).await })
        })
        .collect();
    until_series(&server, "mancala_engine_pool_running", 2).await;
    let terminated = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .expect("kill -TERM");
    assert!(terminated.success());
    // Without cancellation the two searches would run for minutes; stopped, the process exits at once.
    let exited = within("the exit", async {
        loop {
            if let Some(status) = server.child.try_wait().expect("try_wait") {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(exited.success(), "{exited:?}");
    for call in calls {
        let ended = within("a long call", call).await.expect("joined");
        assert!(ended.is_err(), "{ended:?}");
    }
}
