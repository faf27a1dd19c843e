//! Clocks over a real channel, on a server whose time the test moves by hand (`support::timed`): a flag falls with
//! nobody calling, an unstarted match is aborted, aborts and abandonment claims are granted and refused, and a
//! server restarted on its data directory settles an overdue match at once. Nothing here sleeps.

use crate::support::replica::{authed, next_event, next_request, seat_to_move, within};
use crate::support::timed::{create, departure, sow, watch, TimedServer, START_MS};
use mancala::api::pb;
use mancala::clock::ManualTime;
use pb::watch_match_response::Kind;
use tonic::Code;
use tonic_types::StatusExt;

fn fischer(initial_ms: u64, increment_ms: u64) -> pb::TimeControl {
    pb::TimeControl {
        control: Some(pb::time_control::Control::Fischer(pb::FischerTime {
            initial_ms,
            increment_ms,
        })),
    }
}

/// The `MatchFinished` that ends a stream, skipping presence and heartbeats.
async fn finished(stream: &mut tonic::Streaming<pb::WatchMatchResponse>) -> pb::MatchResult {
    loop {
        match within("the end", stream.message())
            .await
            .expect("open")
            .expect("more")
            .kind
            .unwrap()
        {
            Kind::Finished(finished) => return finished.result.unwrap(),
            Kind::Heartbeat(_) | Kind::Presence(_) => continue,
            other => panic!("expected the end, got {other:?}"),
        }
    }
}

fn reason(status: &tonic::Status) -> String {
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

fn metadata(status: &tonic::Status, key: &str) -> Option<u64> {
    status
        .get_details_error_info()
        .and_then(|info| info.metadata.get(key).and_then(|v| v.parse().ok()))
}

#[tokio::test]
async fn a_flag_falls_when_the_time_runs_out_with_nobody_calling() {
    let time = ManualTime::new(START_MS);
    let server = TimedServer::start(&time, |_| {}).await;
    let mut client = server.matches();
    let (mut m, tokens) = create(&mut client, Some(fischer(60_000, 1_000))).await;
    let clocks = m.clocks.clone().expect("a timed match shows its clocks");
    assert_eq!(clocks.remaining_ms, vec![60_000, 60_000]);
    assert!(!clocks.started);
    assert_eq!(
        clocks.abort_at_ms,
        START_MS + 60_000,
        "clock.abort_after_ms"
    );
    assert_eq!(m.time_control, Some(fischer(60_000, 1_000)));
    time.advance(5_000);
    sow(&mut client, &mut m, &tokens).await;
    time.advance(5_000);
    let event = sow(&mut client, &mut m, &tokens).await;
    let clocks = event
        .clocks
        .expect("every event of a timed match carries the clocks");
    assert!(clocks.started);
    let mover = seat_to_move(&m);
    assert_eq!(
        clocks.running,
        [pb::Player::South, pb::Player::North][mover] as i32
    );
    assert_eq!(clocks.flag_at_ms, START_MS + 10_000 + 60_000);
    // 20 s for this sowing: 60 − 20 + 1.
    time.advance(20_000);
    let event = sow(&mut client, &mut m, &tokens).await;
    assert_eq!(event.clocks.unwrap().remaining_ms[mover], 41_000);
    let flagged = seat_to_move(&m);
    let mut stream = watch(&mut client, &m, None).await;
    time.advance(60_000);
    let flag = next_event(&mut stream).await;
    assert!(matches!(
        flag.action,
        Some(pb::match_event::Action::Flag(_))
    ));
    assert_eq!(
        flag.player,
        [pb::Player::South, pb::Player::North][flagged] as i32
    );
    assert_eq!(
        flag.accepted_at_ms,
        START_MS + 30_000 + 60_000,
        "as of the flag"
    );
    assert_eq!(flag.clocks.unwrap().remaining_ms[flagged], 0);
    let result = finished(&mut stream).await;
    assert_eq!(result.reason, pb::MatchEndReason::TimeForfeit as i32);
    assert_eq!(
        result.winner,
        [pb::Player::North, pb::Player::South][flagged] as i32
    );
    // The flagged seat's sowing, even with the version it had: lost on time, and when.
    let (request, token) = next_request(&m, &tokens, 0);
    let late = within("late", client.submit_move(authed(request, &token)))
        .await
        .unwrap_err();
    assert_eq!(late.code(), Code::FailedPrecondition);
    assert_eq!(reason(&late), "OUT_OF_TIME");
    assert_eq!(metadata(&late, "flag_at_ms"), Some(flag.accepted_at_ms));
    // Anything else: the match is over.
    let resign = pb::ResignRequest {
        match_id: m.match_id.clone(),
        expected_version: None,
        request_id: String::new(),
    };
    let over = within(
        "resign",
        client.resign(authed(resign, &tokens[1 - flagged])),
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&over), "MATCH_OVER");
}

#[tokio::test]
async fn an_unstarted_timed_match_is_aborted_and_a_seat_may_abort_until_both_have_sown() {
    let time = ManualTime::new(START_MS);
    let server = TimedServer::start(&time, |_| {}).await;
    let mut client = server.matches();
    // Nobody sows: aborted by the server after clock.abort_after_ms.
    let (m, _) = create(&mut client, Some(fischer(180_000, 0))).await;
    let mut stream = watch(&mut client, &m, None).await;
    time.advance(60_000);
    let abort = next_event(&mut stream).await;
    assert!(matches!(
        abort.action,
        Some(pb::match_event::Action::Abort(_))
    ));
    let result = finished(&mut stream).await;
    assert_eq!(result.reason, pb::MatchEndReason::Aborted as i32);
    assert_eq!(result.winner, pb::Player::Unspecified as i32);
    // A seat aborts before its first sowing.
    let (mut m, tokens) = create(&mut client, None).await;
    sow(&mut client, &mut m, &tokens).await;
    let abort = pb::AbortRequest {
        match_id: m.match_id.clone(),
        expected_version: Some(1),
        request_id: "abort-1".into(),
    };
    let event = within("abort", client.abort(authed(abort.clone(), &tokens[1])))
        .await
        .expect("aborted")
        .into_inner()
        .event
        .unwrap();
    assert_eq!(event.seq, 2);
    // Retried: the same answer.
    let again = within("abort again", client.abort(authed(abort, &tokens[1])))
        .await
        .expect("the same answer")
        .into_inner()
        .event
        .unwrap();
    assert_eq!(again.seq, 2);
    // Too late once each seat has sown.
    let (mut m, tokens) = create(&mut client, None).await;
    sow(&mut client, &mut m, &tokens).await;
    sow(&mut client, &mut m, &tokens).await;
    let late = within(
        "late abort",
        client.abort(authed(
            pb::AbortRequest {
                match_id: m.match_id.clone(),
                expected_version: None,
                request_id: String::new(),
            },
            &tokens[0],
        )),
    )
    .await
    .unwrap_err();
    assert_eq!(late.code(), Code::FailedPrecondition);
    assert_eq!(reason(&late), "ABORT_TOO_LATE");
}

#[tokio::test]
async fn a_seat_away_for_the_abandonment_time_can_be_claimed_and_one_with_a_stream_cannot() {
    let time = ManualTime::new(START_MS);
    let server = TimedServer::start(&time, |_| {}).await;
    let mut client = server.matches();
    let (mut m, tokens) = create(&mut client, Some(fischer(3_600_000, 0))).await;
    sow(&mut client, &mut m, &tokens).await;
    sow(&mut client, &mut m, &tokens).await;
    let absent = seat_to_move(&m);
    let claimant = 1 - absent;
    let claim = |token: &str| {
        authed(
            pb::ClaimVictoryRequest {
                match_id: m.match_id.clone(),
                expected_version: None,
                request_id: String::new(),
            },
            token,
        )
    };
    // The seat to move is connected: no claim, however long it thinks.
    let mut mine = watch(&mut client, &m, Some(&tokens[claimant])).await;
    let theirs = watch(&mut client, &m, Some(&tokens[absent])).await;
    time.advance(120_000);
    let refused = within("claim", client.claim_victory(claim(&tokens[claimant])))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "NOT_ABANDONED");
    assert!(refused.message().contains("stream open"), "{refused:?}");
    // It leaves: the claimant's stream hears of it, and the absence counts from then.
    drop(theirs);
    departure(&mut mine).await;
    let early = within("claim", client.claim_victory(claim(&tokens[claimant])))
        .await
        .unwrap_err();
    assert_eq!(reason(&early), "NOT_ABANDONED");
    let claimable_at = metadata(&early, "claimable_at_ms").expect("when it will be");
    assert_eq!(
        claimable_at,
        time_now(&time) + 60_000,
        "clock.abandon_after_ms"
    );
    // Its own turn is never claimable by itself.
    let own = within("own claim", client.claim_victory(claim(&tokens[absent])))
        .await
        .unwrap_err();
    assert_eq!(reason(&own), "NOT_ABANDONED");
    time.advance(60_000);
    let event = within("claim", client.claim_victory(claim(&tokens[claimant])))
        .await
        .expect("granted")
        .into_inner()
        .event
        .unwrap();
    assert!(matches!(
        event.action,
        Some(pb::match_event::Action::Claim(_))
    ));
    assert_eq!(next_event(&mut mine).await.seq, event.seq);
    let result = finished(&mut mine).await;
    assert_eq!(result.reason, pb::MatchEndReason::Abandoned as i32);
    assert_eq!(
        result.winner,
        [pb::Player::South, pb::Player::North][claimant] as i32
    );
}

fn time_now(time: &ManualTime) -> u64 {
    mancala::clock::Time::now_ms(time)
}

#[tokio::test]
async fn bad_time_controls_name_the_field_and_the_limit() {
    let time = ManualTime::new(START_MS);
    let server = TimedServer::start(&time, |_| {}).await;
    let mut client = server.matches();
    for (control, expected) in [
        (fischer(0, 1_000), "at least 1000 ms"),
        (fischer(90_000_000, 0), "clock.max_initial_ms"),
        (
            pb::TimeControl {
                control: Some(pb::time_control::Control::Correspondence(
                    pb::CorrespondenceTime { days_per_move: 0 },
                )),
            },
            "1 to 30",
        ),
    ] {
        let refused = within(
            "refused",
            client.create_match(pb::CreateMatchRequest {
                kind: pb::GameKind::Bosh as i32,
                options: None,
                players: vec![],
                bots: vec![],
                time_control: Some(control),
                start: None,
            }),
        )
        .await
        .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        let violations = refused.get_details_bad_request().unwrap().field_violations;
        assert_eq!(violations[0].field, "time_control");
        assert!(
            violations[0].description.contains(expected),
            "{violations:?}"
        );
    }
}

#[tokio::test]
async fn a_server_restarted_on_its_data_directory_settles_an_overdue_match_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let time = ManualTime::new(START_MS);
    let on_disk = |settings: &mut mancala::config::Settings| {
        settings.matches.store = mancala::config::StoreKind::Embedded;
        settings.matches.data_dir = dir.path().to_path_buf();
    };
    let first = TimedServer::start(&time, on_disk).await;
    let mut client = first.matches();
    let (mut m, tokens) = create(&mut client, Some(fischer(30_000, 0))).await;
    sow(&mut client, &mut m, &tokens).await;
    sow(&mut client, &mut m, &tokens).await;
    drop(client);
    first.stop().await;
    // `run` has returned, but the background tasks it aborted drop their hold on the store's file a moment later
    // (a process that exits never waits for it; a second server in this process must).
    within("the first server lets go of its store", async {
        while mancala::store::EmbeddedStore::open(dir.path()).is_err() {
            // A short sleep, not a spin: the server's tasks and its blocking writes need the CPU more than this loop.
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await;
    // Down for an hour: the flag fell 30 s in.
    time.advance(3_600_000);
    let second = TimedServer::start(&time, on_disk).await;
    let mut client = second.matches();
    let mut stream = watch(&mut client, &m, None).await;
    let flag = next_event(&mut stream).await;
    assert!(matches!(
        flag.action,
        Some(pb::match_event::Action::Flag(_))
    ));
    assert_eq!(flag.accepted_at_ms, START_MS + 30_000);
    assert_eq!(
        finished(&mut stream).await.reason,
        pb::MatchEndReason::TimeForfeit as i32
    );
}
