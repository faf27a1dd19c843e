//! The load generator against the real server, in-process on 127.0.0.1: small request counts in closed-loop
//! and fixed-rate modes, the Echo baseline and the comparison. Counts are checked, never timings.

use std::time::Duration;

use crate::support::server::{within, TestServer};
use mancala::loadtest::{self, report::RpcReport, Config, Load, Mix, Report, Stop, Summary};

const REQUESTS: u64 = 300;

fn config(server: &TestServer) -> Config {
    Config {
        targets: vec![format!("http://{}", server.addr)],
        connections: 2,
        concurrency: 4,
        stop: Stop::Requests(REQUESTS),
        warmup: Duration::ZERO,
        positions: 24,
        // Plenty of illegal moves, so that refusals certainly happen in a few hundred calls.
        illegal: 0.3,
        ..Config::default()
    }
}

/// requests = Σ outcomes = OK + expected refusals + errors, and nothing went wrong.
fn check_counts(r: &RpcReport) {
    let outcomes: u64 = r.outcomes.values().sum();
    assert_eq!(r.requests, outcomes, "{}: requests vs outcomes", r.rpc);
    let ok = r.outcomes.get("OK").copied().unwrap_or(0);
    assert_eq!(ok + r.expected_refusals + r.errors, r.requests, "{}", r.rpc);
    assert_eq!(r.transport_errors, 0, "{}: transport errors", r.rpc);
    assert_eq!(r.errors, 0, "{}: errors {:?}", r.rpc, r.outcomes);
    assert_eq!(r.wrong_answers, 0, "{}: wrong answers", r.rpc);
}

fn check_report(report: &Report, requests: u64) {
    assert_eq!(report.overall.requests, requests);
    check_counts(&report.overall);
    for r in &report.rpcs {
        check_counts(r);
    }
    let by_rpc: u64 = report.rpcs.iter().map(|r| r.requests).sum();
    assert_eq!(by_rpc, report.overall.requests);
    assert!(report.overall.latency_us.max >= report.overall.latency_us.p50);
}

async fn run(config: &Config) -> Summary {
    within(loadtest::run(config)).await.expect("the load runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_loop_counts_add_up_and_refusals_are_expected() {
    let server = TestServer::start().await;
    let summary = run(&config(&server)).await;
    let rules = summary.rules.as_ref().expect("a rules report");
    assert!(summary.baseline.is_none() && summary.comparison.is_none());
    check_report(rules, REQUESTS);
    assert_eq!(rules.mode, "closed_loop");
    let names: Vec<_> = rules.rpcs.iter().map(|r| r.rpc).collect();
    assert_eq!(names, ["ValidateMove", "ApplyMove", "ListLegalMoves"]);
    assert!(summary.to_text().contains("ValidateMove"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_are_refused_with_failed_precondition() {
    let server = TestServer::start().await;
    let config = Config {
        mix: "apply=100".parse::<Mix>().expect("a mix"),
        illegal: 0.5,
        ..config(&server)
    };
    let summary = run(&config).await;
    let rules = summary.rules.as_ref().expect("a rules report");
    check_report(rules, REQUESTS);
    let apply = &rules.rpcs[0];
    assert_eq!(apply.rpc, "ApplyMove");
    assert!(apply.expected_refusals > 0);
    assert_eq!(
        apply.outcomes.get("FAILED_PRECONDITION").copied(),
        Some(apply.expected_refusals)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fixed_rate_counts_add_up() {
    let server = TestServer::start().await;
    let config = Config {
        rate: Some(2_000.0),
        warmup: Duration::from_millis(50),
        ..config(&server)
    };
    let summary = run(&config).await;
    let rules = summary.rules.as_ref().expect("a rules report");
    check_report(rules, REQUESTS);
    assert_eq!(rules.mode, "fixed_rate");
    let service = rules
        .overall
        .service_time_us
        .expect("service time at a fixed rate");
    assert!(service.max > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_baseline_echoes_requests_and_answers_as_large_as_the_rules_calls() {
    let server = TestServer::start().await;
    let config = Config {
        load: Load::Baseline,
        ..config(&server)
    };
    let summary = run(&config).await;
    assert!(summary.rules.is_none());
    let baseline = summary.baseline.as_ref().expect("a baseline report");
    check_report(baseline, REQUESTS);
    let names: Vec<_> = baseline.rpcs.iter().map(|r| r.rpc).collect();
    assert_eq!(
        names,
        ["Echo~ValidateMove", "Echo~ApplyMove", "Echo~ListLegalMoves"]
    );
    let c = &summary.corpus;
    // Each Echo is at most a few bytes short of its rules call (a length prefix), never longer.
    assert!(
        c.baseline_request_bytes <= c.mean_request_bytes
            && c.baseline_request_bytes + 6.0 >= c.mean_request_bytes,
        "{c:?}"
    );
    assert!(
        c.baseline_response_bytes <= c.mean_response_bytes
            && c.baseline_response_bytes + 3.0 >= c.mean_response_bytes,
        "{c:?}"
    );
    // ListLegalMoves answers with previews: the answers are larger than the requests.
    assert!(c.mean_response_bytes > c.mean_request_bytes, "{c:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compare_reports_both_and_the_json_parses() {
    let server = TestServer::start().await;
    let config = Config {
        load: Load::Compare,
        rate: Some(3_000.0),
        rounds: 3,
        ..config(&server)
    };
    let summary = run(&config).await;
    check_report(summary.rules.as_ref().expect("rules"), REQUESTS);
    check_report(summary.baseline.as_ref().expect("baseline"), REQUESTS);
    let comparison = summary.comparison.as_ref().expect("a comparison");
    assert!(comparison.throughput_pct > 0.0 && comparison.p99_ratio > 0.0);
    // One ratio a round (the rounds alternate which load goes first), and their median among them.
    let by_round = &comparison.throughput_pct_by_round;
    assert_eq!((comparison.rounds, by_round.len()), (3, 3), "{by_round:?}");
    assert!(by_round.iter().all(|&p| p > 0.0), "{by_round:?}");
    let mut sorted = by_round.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(comparison.throughput_pct_median, sorted[1]);

    let json = serde_json::to_string_pretty(&summary).expect("serialises");
    let value: serde_json::Value = serde_json::from_str(&json).expect("the JSON parses");
    assert_eq!(value["rules"]["overall"]["requests"], REQUESTS);
    assert_eq!(value["baseline"]["rpcs"][0]["rpc"], "Echo~ValidateMove");
    assert!(value["comparison"]["p99_ratio"].is_number());
    assert_eq!(
        value["comparison"]["throughput_pct_by_round"]
            .as_array()
            .map(Vec::len),
        Some(3)
    );
    assert!(value["rules"]["overall"]["outcomes"]["OK"].is_number());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn side_by_side_runs_both_loads_on_both_servers() {
    let (one, two) = (TestServer::start().await, TestServer::start().await);
    let config = Config {
        load: Load::Compare,
        baseline_targets: vec![format!("http://{}", two.addr)],
        rate: Some(3_000.0),
        rounds: 2,
        ..config(&one)
    };
    let summary = run(&config).await;
    for report in [&summary.rules, &summary.baseline] {
        let report = report.as_ref().expect("both loads ran");
        check_report(report, REQUESTS);
        // Each load ran on one server in the first round and on the other in the second.
        assert_eq!(
            report.targets,
            [one.addr, two.addr].map(|a| format!("http://{a}"))
        );
    }
    let comparison = summary.comparison.as_ref().expect("a comparison");
    assert!(comparison.side_by_side);
    assert_eq!(comparison.throughput_pct_by_round.len(), 2);
    let text = comparison.to_text(
        summary.rules.as_ref().expect("rules"),
        summary.baseline.as_ref().expect("baseline"),
    );
    assert!(text.contains("side by side on two servers"), "{text}");

    // The baseline really goes to its own server: one that is not there is the error.
    let nowhere = Config {
        baseline_targets: vec!["http://127.0.0.1:9".into()],
        ..config
    };
    let error = within(loadtest::run(&nowhere))
        .await
        .expect_err("nothing listens there");
    assert!(
        error
            .to_string()
            .starts_with("cannot connect to http://127.0.0.1:9"),
        "{error}"
    );
}

#[tokio::test]
async fn an_unreachable_target_is_one_clear_error() {
    // Port 9 of loopback (discard) is closed on any sane test machine; nothing is sent anywhere else.
    let config = Config {
        targets: vec!["http://127.0.0.1:9".into()],
        stop: Stop::Requests(1),
        ..Config::default()
    };
    let error = within(loadtest::run(&config))
        .await
        .expect_err("nothing listens there");
    assert!(error
        .to_string()
        .starts_with("cannot connect to http://127.0.0.1:9"));
}

#[test]
fn settings_are_checked_before_anything_is_sent() {
    let bad = |f: fn(&mut Config)| {
        let mut config = Config {
            targets: vec!["http://127.0.0.1:50051".into()],
            ..Config::default()
        };
        f(&mut config);
        config.validate().expect_err("refused")
    };
    bad(|c| c.targets.clear());
    bad(|c| c.targets = vec!["127.0.0.1:50051".into()]);
    bad(|c| c.connections = 0);
    bad(|c| c.rate = Some(0.0));
    bad(|c| c.illegal = 1.5);
    bad(|c| c.stop = Stop::Requests(0));
    // A baseline server is only for a comparison, and an https:// one needs the CA like any other.
    let beside = bad(|c| c.baseline_targets = vec!["http://127.0.0.1:50052".into()]);
    assert!(
        beside
            .to_string()
            .contains("--baseline-target is for --compare"),
        "{beside}"
    );
    bad(|c| {
        c.load = Load::Compare;
        c.baseline_targets = vec!["https://127.0.0.1:50052".into()];
    });
    assert!("validate=1,bogus=2".parse::<Mix>().is_err());
    assert!("validate=0".parse::<Mix>().is_err());
    assert_eq!(
        "apply=3, list=1".parse::<Mix>(),
        Ok(Mix {
            validate: 0,
            apply: 3,
            list: 1
        })
    );
}

#[test]
fn the_dump_is_real_requests_in_ghz_configurations() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = Config {
        targets: vec!["http://127.0.0.1:50051".into()],
        positions: 8,
        ..Config::default()
    };
    let corpus = loadtest::corpus::Corpus::build(&config.games, config.positions, config.seed);
    let written = loadtest::dump::dump(dir.path(), &corpus, &config).expect("dumped");
    assert_eq!(written.len(), 8);
    for name in ["validate-move", "apply-move", "list-legal-moves"] {
        let text =
            std::fs::read_to_string(dir.path().join(format!("ghz-{name}.json"))).expect("read");
        let ghz: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(ghz["host"], "127.0.0.1:50051");
        let data = ghz["data"].as_array().expect("an array of requests");
        assert_eq!(data.len(), 8 * config.games.len());
        assert!(data[0]["state"]["pits"].is_array());
        let frame = std::fs::read(dir.path().join(format!("{name}.grpc"))).expect("read");
        let len = u32::from_be_bytes(frame[1..5].try_into().expect("4 bytes")) as usize;
        assert_eq!((frame[0], frame.len()), (0, 5 + len));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_generator_loads_a_tls_server_trusting_the_given_ca() {
    let pki = crate::support::tls::TestPki::new();
    let server = TestServer::start_as(
        |s| pki.configure(s, false),
        Some(
            tonic::transport::ClientTlsConfig::new()
                .ca_certificate(tonic::transport::Certificate::from_pem(&pki.ca_pem)),
        ),
    )
    .await;
    let https = Config {
        targets: vec![format!("https://{}", server.addr)],
        ca_file: Some(pki.ca_file.clone()),
        ..config(&server)
    };
    let summary = run(&https).await;
    check_report(summary.rules.as_ref().expect("a rules report"), REQUESTS);

    // An https:// target without the CA, or the CA for plaintext targets, is a mistake said at once.
    let no_ca = Config {
        ca_file: None,
        ..https.clone()
    };
    let error = loadtest::run(&no_ca).await.expect_err("no CA").to_string();
    assert!(error.contains("--ca"), "{error}");
    let plaintext = Config {
        ca_file: Some(pki.ca_file.clone()),
        ..config(&server)
    };
    let error = loadtest::run(&plaintext)
        .await
        .expect_err("CA for http")
        .to_string();
    assert!(error.contains("--ca"), "{error}");
}
