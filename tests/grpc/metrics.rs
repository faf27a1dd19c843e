//! `/metrics` of the real binary: after a few calls, a scrape finds each series with the right
//! labels and values (requests, latencies and codes per RPC; active matches, watchers, moves
//! applied per game, rejections by reason).

use crate::support::replica::{authed, create, next_request, within, Replica};
use mancala::api::pb;
use tonic::Code;
use tonic_types::StatusExt;

fn sow(pit: u32) -> pb::Move {
    pb::Move {
        action: Some(pb::r#move::Action::Sow(pb::Sow {
            pit,
            ..Default::default()
        })),
    }
}

#[tokio::test]
async fn a_scrape_after_a_few_calls_finds_every_series() {
    let server = Replica::start(&[
        ("MANCALA__MATCHES__STORE", "memory"),
        ("MANCALA__METRICS__LISTEN", "127.0.0.1:0"),
    ])
    .await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;

    // One accepted move, then two refused ones: a pit South does not own, and North out of turn.
    let (request, token) = next_request(&m, &tokens, 0);
    let accepted = within("submit", client.submit_move(authed(request, &token)))
        .await
        .expect("accepted")
        .into_inner()
        .event
        .unwrap();
    let north_to_move = accepted.state.as_ref().unwrap().to_move == pb::Player::North as i32;
    let (mover, waiter) = if north_to_move { (1, 0) } else { (0, 1) };
    let own_pit_of_waiter = if waiter == 0 { 0 } else { 6 };
    let not_yours = pb::SubmitMoveRequest {
        match_id: m.match_id.clone(),
        r#move: Some(sow(own_pit_of_waiter)),
        ..Default::default()
    };
    let refused = within(
        "not your pit",
        client.submit_move(authed(not_yours.clone(), &tokens[mover])),
    )
    .await
    .expect_err("refused");
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    // NOT_YOUR_PIT, or PIT_EMPTY if the first move emptied it: the rules say which.
    let reason = refused.get_details_error_info().expect("ErrorInfo").reason;
    let refused = within(
        "not your turn",
        client.submit_move(authed(not_yours, &tokens[waiter])),
    )
    .await
    .expect_err("refused");
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    // One open watch stream.
    let mut watcher = within(
        "watch",
        client.watch_match(pb::WatchMatchRequest {
            match_id: m.match_id.clone(),
            from_seq: None,
            previews: false,
        }),
    )
    .await
    .expect("watch")
    .into_inner();
    within("snapshot", watcher.message())
        .await
        .expect("open")
        .expect("a snapshot");

    let (status, text) = server.scrape("/metrics");
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    let matches = r#"grpc_service="mancala.v1.Matches""#;
    for line in [
        format!(r#"grpc_server_started_total{{grpc_method="CreateMatch",{matches}}} 1"#),
        format!(
            r#"grpc_server_handled_total{{grpc_code="OK",grpc_method="CreateMatch",{matches}}} 1"#
        ),
        format!(
            r#"grpc_server_handled_total{{grpc_code="OK",grpc_method="SubmitMove",{matches}}} 1"#
        ),
        format!(
            r#"grpc_server_handled_total{{grpc_code="FAILED_PRECONDITION",grpc_method="SubmitMove",{matches}}} 1"#
        ),
        format!(
            r#"grpc_server_handled_total{{grpc_code="PERMISSION_DENIED",grpc_method="SubmitMove",{matches}}} 1"#
        ),
        format!(r#"grpc_server_handling_seconds_count{{grpc_method="SubmitMove",{matches}}} 3"#),
        format!(
            r#"grpc_server_handling_seconds_bucket{{grpc_method="SubmitMove",{matches},le="+Inf"}} 3"#
        ),
        format!(r#"grpc_server_started_total{{grpc_method="WatchMatch",{matches}}} 1"#),
        r#"mancala_moves_applied_total{game="ba-awa"} 1"#.to_string(),
        format!(r#"mancala_move_rejections_total{{reason="{reason}"}} 1"#),
        r#"mancala_move_rejections_total{reason="NOT_YOUR_TURN"} 1"#.to_string(),
        "mancala_matches_active 1".to_string(),
        "mancala_watchers 1".to_string(),
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line} in\n{text}");
    }
    assert!(text.contains("# TYPE grpc_server_handling_seconds histogram"));

    // The stream's end is counted once it closes; other paths are 404.
    drop(watcher);
    let (status, _) = server.scrape("/elsewhere");
    assert!(status.starts_with("HTTP/1.1 404"), "{status}");
}
