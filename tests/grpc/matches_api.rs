//! Server-held matches over a real gRPC channel: every RPC of `mancala.v1.Matches`, every error
//! code, races on one version, idempotent retries, resuming watchers, a slow watcher, presence,
//! heartbeats, watcher limits and the end of streams on shutdown.
//!
//! Every await is bounded by a timeout; nothing sleeps to wait and nothing asserts on timing.

use mancala::api::pb;
use mancala::config::{Settings, StoreKind};
use mancala::server;
use pb::matches_client::MatchesClient;
use pb::watch_match_response::Kind;
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Request, Status, Streaming};
use tonic_types::StatusExt;

const STEP: Duration = Duration::from_secs(20);

async fn within<F: Future>(what: &str, f: F) -> F::Output {
    tokio::time::timeout(STEP, f)
        .await
        .unwrap_or_else(|_| panic!("timed out: {what}"))
}

struct TestServer {
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), server::ServeError>>,
}

impl TestServer {
    async fn start(settings: Settings) -> TestServer {
        let listener = within("bind", tokio::net::TcpListener::bind("127.0.0.1:0"))
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (shutdown, signal) = oneshot::channel::<()>();
        let task = tokio::spawn(server::run(listener, settings, async {
            let _ = signal.await;
        }));
        TestServer {
            addr,
            shutdown: Some(shutdown),
            task,
        }
    }

    async fn channel(&self) -> Channel {
        within(
            "connect",
            Endpoint::from_shared(format!("http://{}", self.addr))
                .expect("uri")
                .connect(),
        )
        .await
        .expect("connect")
    }

    async fn client(&self) -> MatchesClient<Channel> {
        MatchesClient::new(self.channel().await)
    }

    async fn stop(mut self) {
        let _ = self.shutdown.take().expect("once").send(());
        within("server stops", &mut self.task)
            .await
            .expect("no panic")
            .expect("clean stop");
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

fn settings() -> Settings {
    let mut settings = Settings::default();
    settings.matches.store = StoreKind::Memory;
    settings.server.shutdown_grace = Duration::from_secs(600);
    settings
}

fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("ascii"),
    );
    request
}

fn sow(pit: u32) -> pb::Move {
    pb::Move {
        action: Some(pb::r#move::Action::Sow(pb::Sow {
            pit,
            ..Default::default()
        })),
    }
}

/// A new Ba-awa match and its `[South, North]` tokens.
async fn create(client: &mut MatchesClient<Channel>) -> (pb::Match, [String; 2]) {
    let created = within(
        "create",
        client.create_match(pb::CreateMatchRequest {
            kind: pb::GameKind::BaAwa as i32,
            options: None,
            players: vec![],
            bots: vec![],
            time_control: None,
            start: None,
        }),
    )
    .await
    .expect("created")
    .into_inner();
    let tokens: Vec<String> = created.tokens.iter().map(|t| t.token.clone()).collect();
    assert_eq!(
        created.tokens.iter().map(|t| t.player).collect::<Vec<_>>(),
        [pb::Player::South as i32, pb::Player::North as i32]
    );
    (
        created.r#match.expect("match"),
        [tokens[0].clone(), tokens[1].clone()],
    )
}

async fn get(client: &mut MatchesClient<Channel>, id: &str) -> pb::Match {
    within(
        "get",
        client.get_match(pb::GetMatchRequest {
            match_id: id.to_string(),
        }),
    )
    .await
    .expect("get")
    .into_inner()
    .r#match
    .expect("match")
}

/// The index of the seat to move (South, 0, when nobody is: between games).
fn seat_to_move(m: &pb::Match) -> usize {
    match m.state.as_ref().map(|s| s.to_move) {
        Some(p) if p == pb::Player::North as i32 => 1,
        _ => 0,
    }
}

async fn submit(
    client: &mut MatchesClient<Channel>,
    id: &str,
    token: &str,
    mv: pb::Move,
    expected_version: Option<u64>,
    request_id: &str,
) -> Result<pb::MatchEvent, Status> {
    let request = pb::SubmitMoveRequest {
        match_id: id.to_string(),
        r#move: Some(mv),
        expected_version,
        request_id: request_id.to_string(),
    };
    within("submit", client.submit_move(authed(request, token)))
        .await
        .map(|r| r.into_inner().event.expect("event"))
}

/// Plays legal move `n` (modulo their number) for the seat to move; `NextGame` by `next_by`.
async fn play(
    client: &mut MatchesClient<Channel>,
    id: &str,
    tokens: &[String; 2],
    n: usize,
    next_by: usize,
) -> pb::MatchEvent {
    let m = get(client, id).await;
    let mv = m.legal_moves[n % m.legal_moves.len()].clone();
    let seat = match mv.action {
        Some(pb::r#move::Action::NextGame(_)) => next_by,
        _ => seat_to_move(&m),
    };
    submit(client, id, &tokens[seat], mv, Some(m.version), "")
        .await
        .expect("a legal move by the right seat is accepted")
}

async fn watch(
    client: &mut MatchesClient<Channel>,
    id: &str,
    token: Option<&str>,
    from_seq: Option<u64>,
) -> Result<Streaming<pb::WatchMatchResponse>, Status> {
    let request = pb::WatchMatchRequest {
        match_id: id.to_string(),
        from_seq,
        previews: false,
    };
    let request = match token {
        Some(token) => authed(request, token),
        None => Request::new(request),
    };
    within("watch", client.watch_match(request))
        .await
        .map(|r| r.into_inner())
}

async fn next(stream: &mut Streaming<pb::WatchMatchResponse>) -> Kind {
    within("a stream message", stream.message())
        .await
        .expect("no error")
        .expect("not the end")
        .kind
        .expect("a kind")
}

/// The next message that is not a heartbeat or a presence notice.
async fn next_log(stream: &mut Streaming<pb::WatchMatchResponse>) -> Kind {
    loop {
        match next(stream).await {
            Kind::Heartbeat(_) | Kind::Presence(_) => continue,
            other => return other,
        }
    }
}

fn error_info(status: &Status) -> (String, std::collections::HashMap<String, String>) {
    let info = status
        .get_error_details()
        .error_info()
        .cloned()
        .expect("ErrorInfo");
    (info.reason, info.metadata)
}

#[tokio::test]
async fn create_get_and_list_with_filters_and_paging() {
    let server = TestServer::start(settings()).await;
    let mut client = server.client().await;

    let (created, tokens) = create(&mut client).await;
    assert_eq!(created.match_id.len(), 32);
    assert_eq!(created.version, 0);
    assert_eq!(created.status, pb::MatchStatus::Active as i32);
    assert_eq!(created.legal_moves.len(), 6, "South's six pits");
    assert_ne!(tokens[0], tokens[1]);
    assert_eq!(get(&mut client, &created.match_id).await, created);

    // Bad requests.
    for request in [
        pb::CreateMatchRequest {
            kind: 0,
            options: None,
            players: vec![],
            bots: vec![],
            time_control: None,
            start: None,
        },
        pb::CreateMatchRequest {
            kind: pb::GameKind::BaAwa as i32,
            options: Some(pb::GameOptions {
                first_player: 0,
                ba_awa_target: 9,
                ..Default::default()
            }),
            players: vec![],
            bots: vec![],
            time_control: None,
            start: None,
        },
    ] {
        let status = within("bad create", client.create_match(request))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    }
    let request = |id: &str| pb::GetMatchRequest {
        match_id: id.to_string(),
    };
    let status = within("bad id", client.get_match(request("nope")))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    let status = within("unknown id", client.get_match(request(&"0".repeat(32))))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    let history = pb::GetHistoryRequest {
        match_id: "f".repeat(32),
    };
    let status = within("unknown history", client.get_history(history))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);

    // Five matches, one finished; pages of two.
    let mut ids = vec![created.match_id.clone()];
    for _ in 0..4 {
        ids.push(create(&mut client).await.0.match_id);
    }
    let resign = pb::ResignRequest {
        match_id: ids[0].clone(),
        ..Default::default()
    };
    within("resign", client.resign(authed(resign, &tokens[0])))
        .await
        .expect("resigned");
    let list = |status: pb::MatchStatus, page_token: String| pb::ListMatchesRequest {
        kind: pb::GameKind::BaAwa as i32,
        status: status as i32,
        page_size: 2,
        page_token,
        player_id: String::new(),
    };
    let mut seen = Vec::new();
    let mut token = String::new();
    loop {
        let page = within(
            "list",
            client.list_matches(list(pb::MatchStatus::Unspecified, token)),
        )
        .await
        .expect("list")
        .into_inner();
        assert!(page.matches.len() <= 2);
        seen.extend(page.matches.into_iter().map(|m| m.match_id));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(seen, sorted, "every match once, in id order");

    let finished = within(
        "list finished",
        client.list_matches(list(pb::MatchStatus::Finished, String::new())),
    )
    .await
    .expect("list")
    .into_inner();
    assert_eq!(finished.matches.len(), 1);
    assert_eq!(finished.matches[0].match_id, ids[0]);
    let result = finished.matches[0].result.clone().expect("result");
    assert_eq!(result.reason, pb::MatchEndReason::Resignation as i32);
    assert_eq!(result.winner, pb::Player::North as i32);

    let bosh = pb::ListMatchesRequest {
        kind: pb::GameKind::Bosh as i32,
        ..Default::default()
    };
    let none = within("list bosh", client.list_matches(bosh))
        .await
        .expect("list")
        .into_inner();
    assert!(none.matches.is_empty());
    let bad = pb::ListMatchesRequest {
        page_token: "garbage".into(),
        ..Default::default()
    };
    let status = within("bad page token", client.list_matches(bad))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
}

#[tokio::test]
async fn submit_checks_the_token_the_seat_the_version_and_the_rules() {
    let server = TestServer::start(settings()).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let id = m.match_id.clone();

    // No token, a malformed header, a token of no seat: UNAUTHENTICATED.
    let request = pb::SubmitMoveRequest {
        match_id: id.clone(),
        r#move: Some(sow(0)),
        ..Default::default()
    };
    let status = within("no token", client.submit_move(request.clone()))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");
    let mut basic = Request::new(request.clone());
    basic
        .metadata_mut()
        .insert("authorization", "Basic abc".parse().unwrap());
    let status = within("basic auth", client.submit_move(basic))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");
    let status = submit(&mut client, &id, &"0".repeat(64), sow(0), None, "")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");
    // Another match's token is no better.
    let (_, others) = create(&mut client).await;
    let status = submit(&mut client, &id, &others[0], sow(0), None, "")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");

    // North's valid token while South is to move: PERMISSION_DENIED.
    let status = submit(&mut client, &id, &tokens[1], sow(6), None, "")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");

    // A malformed move: INVALID_ARGUMENT; an unknown match: NOT_FOUND.
    let status = submit(&mut client, &id, &tokens[0], sow(99), None, "")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let status = submit(&mut client, &"a".repeat(32), &tokens[0], sow(0), None, "")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound, "{status:?}");

    // An illegal move: FAILED_PRECONDITION with the Rules service's reason for the same state.
    let mut rules = pb::rules_client::RulesClient::new(server.channel().await);
    let state = m.state.clone().expect("state");
    let expected = within(
        "rules",
        rules.apply_move(pb::ApplyMoveRequest {
            state: Some(state),
            r#move: Some(sow(6)),
            skip_events: false,
        }),
    )
    .await
    .unwrap_err();
    let status = submit(&mut client, &id, &tokens[0], sow(6), None, "")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    assert_eq!(error_info(&status), error_info(&expected));
    assert_eq!(error_info(&status).0, "NOT_YOUR_PIT");

    // Nothing so far changed the match.
    assert_eq!(get(&mut client, &id).await.version, 0);

    // A legal move; then the same expected version again is stale: ABORTED with the current one.
    let event = submit(&mut client, &id, &tokens[0], sow(0), Some(0), "")
        .await
        .unwrap();
    assert_eq!(event.seq, 1);
    assert_eq!(event.player, pb::Player::South as i32);
    assert_eq!(event.action, Some(pb::match_event::Action::Move(sow(0))));
    assert!(!event.events.is_empty(), "the sowing trace");
    assert!(!event.legal_moves.is_empty());
    let now = get(&mut client, &id).await;
    assert_eq!(now.version, 1);
    assert_eq!(now.state, event.state);
    assert_eq!(now.legal_moves, event.legal_moves);
    let status = submit(&mut client, &id, &tokens[1], sow(6), Some(0), "")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Aborted, "{status:?}");
    let (reason, metadata) = error_info(&status);
    assert_eq!(reason, "VERSION_MISMATCH");
    assert_eq!(metadata["current_version"], "1");
}

#[tokio::test]
async fn a_retried_request_id_applies_once_and_returns_the_original_answer() {
    let server = TestServer::start(settings()).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let id = m.match_id;

    let first = submit(&mut client, &id, &tokens[0], sow(2), Some(0), "move-1")
        .await
        .unwrap();
    // The retry carries the now stale expected version: still the original answer, not ABORTED.
    let retry = submit(&mut client, &id, &tokens[0], sow(2), Some(0), "move-1")
        .await
        .unwrap();
    assert_eq!(retry, first);
    assert_eq!(get(&mut client, &id).await.version, 1, "applied once");

    // The key again for something else: INVALID_ARGUMENT, nothing applied.
    let status = submit(&mut client, &id, &tokens[1], sow(7), None, "move-1")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let status = submit(&mut client, &id, &tokens[0], sow(3), None, &"x".repeat(129))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert_eq!(get(&mut client, &id).await.version, 1);

    // A resignation is idempotent the same way.
    let resign = || pb::ResignRequest {
        match_id: id.clone(),
        expected_version: None,
        request_id: "give-up".into(),
    };
    let first = within("resign", client.resign(authed(resign(), &tokens[1])))
        .await
        .unwrap()
        .into_inner();
    let again = within("resign again", client.resign(authed(resign(), &tokens[1])))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first, again);
    assert_eq!(get(&mut client, &id).await.version, 2);
}

#[tokio::test]
async fn two_clients_racing_on_one_version_one_wins_and_the_other_is_aborted() {
    let server = TestServer::start(settings()).await;
    let mut setup = server.client().await;
    let (m, tokens) = create(&mut setup).await;
    let id = m.match_id;
    // Two connections, as two devices of the same player would have.
    let mut a = server.client().await;
    let mut b = server.client().await;
    for round in 0..10 {
        let m = get(&mut setup, &id).await;
        let seat = seat_to_move(&m);
        let (first, second) = (
            m.legal_moves[0].clone(),
            m.legal_moves[m.legal_moves.len() - 1].clone(),
        );
        let (ra, rb) = tokio::join!(
            submit(&mut a, &id, &tokens[seat], first, Some(m.version), ""),
            submit(&mut b, &id, &tokens[seat], second, Some(m.version), ""),
        );
        let (won, lost) = match (ra, rb) {
            (Ok(won), Err(lost)) | (Err(lost), Ok(won)) => (won, lost),
            (ra, rb) => panic!("round {round}: exactly one must win: {ra:?} / {rb:?}"),
        };
        assert_eq!(won.seq, m.version + 1);
        assert_eq!(lost.code(), Code::Aborted, "{lost:?}");
        assert_eq!(
            error_info(&lost).1["current_version"],
            (m.version + 1).to_string()
        );
        assert_eq!(get(&mut setup, &id).await.version, m.version + 1);
    }
}

#[tokio::test]
async fn a_resignation_ends_the_match_and_its_streams() {
    let server = TestServer::start(settings()).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let id = m.match_id;
    let mut spectator = watch(&mut client, &id, None, None).await.unwrap();
    assert!(matches!(next_log(&mut spectator).await, Kind::Snapshot(_)));

    let resign = || pb::ResignRequest {
        match_id: id.clone(),
        ..Default::default()
    };
    let status = within("resign without token", client.resign(resign()))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    let event = within("resign", client.resign(authed(resign(), &tokens[1])))
        .await
        .unwrap()
        .into_inner()
        .event
        .unwrap();
    assert_eq!(event.seq, 1);
    assert_eq!(event.player, pb::Player::North as i32);
    assert!(event.legal_moves.is_empty());

    let Kind::Event(seen) = next_log(&mut spectator).await else {
        panic!("the resignation event")
    };
    assert_eq!(seen, event);
    let Kind::Finished(finished) = next_log(&mut spectator).await else {
        panic!("the final message")
    };
    let result = finished.result.unwrap();
    assert_eq!(
        (result.winner, result.reason, result.resigned),
        (
            pb::Player::South as i32,
            pb::MatchEndReason::Resignation as i32,
            pb::Player::North as i32
        )
    );
    let end = within("end of stream", spectator.message()).await.unwrap();
    assert!(end.is_none(), "the stream ends with OK");

    let now = get(&mut client, &id).await;
    assert_eq!(now.status, pb::MatchStatus::Finished as i32);
    assert!(now.legal_moves.is_empty());
    // Nothing more is accepted: FAILED_PRECONDITION MATCH_OVER, for a move and a resignation.
    let status = submit(&mut client, &id, &tokens[0], sow(0), None, "")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(error_info(&status).0, "MATCH_OVER");
    let status = within("resign twice", client.resign(authed(resign(), &tokens[0])))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);

    // A watcher of a finished match gets the snapshot and the end at once.
    let mut late = watch(&mut client, &id, None, None).await.unwrap();
    assert!(matches!(next_log(&mut late).await, Kind::Snapshot(_)));
    assert!(matches!(next_log(&mut late).await, Kind::Finished(_)));
    assert!(within("end", late.message()).await.unwrap().is_none());
}

#[tokio::test]
async fn a_whole_match_streams_every_event_in_order_and_its_history_replays() {
    let server = TestServer::start(settings()).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let id = m.match_id;
    let mut spectator = watch(&mut client, &id, None, None).await.unwrap();
    let Kind::Snapshot(snapshot) = next_log(&mut spectator).await else {
        panic!("a snapshot first")
    };
    assert_eq!(snapshot.reason, pb::SnapshotReason::Initial as i32);
    assert_eq!(snapshot.r#match.unwrap().version, 0);

    // Play to the end; every NextGame is sent by North, whoever moved last.
    let mut played = Vec::new();
    let mut n = 0usize;
    let mut next_games = 0;
    loop {
        n = n.wrapping_mul(31).wrapping_add(7);
        let event = play(&mut client, &id, &tokens, n, 1).await;
        if let Some(pb::match_event::Action::Move(pb::Move {
            action: Some(pb::r#move::Action::NextGame(_)),
        })) = &event.action
        {
            assert_eq!(event.player, pb::Player::North as i32);
            next_games += 1;
        }
        let over = event.legal_moves.is_empty();
        played.push(event);
        if over {
            break;
        }
        assert!(played.len() < 5_000, "a Ba-awa match ends");
    }
    assert!(next_games > 0, "the between-games step is reachable");

    for expected in &played {
        let Kind::Event(seen) = next_log(&mut spectator).await else {
            panic!("event {}", expected.seq)
        };
        assert_eq!(&seen, expected, "the streamed event is the answer");
    }
    let Kind::Finished(finished) = next_log(&mut spectator).await else {
        panic!("the end")
    };
    assert_eq!(finished.version, played.len() as u64);
    // Ended by play: by the rules, or by the rules of endless play (§1) when first-move play holds a standing.
    let reason = finished.result.unwrap().reason;
    assert!(
        [
            pb::MatchEndReason::PlayedOut as i32,
            pb::MatchEndReason::Repetition as i32,
            pb::MatchEndReason::MatchLength as i32
        ]
        .contains(&reason),
        "{reason}"
    );

    let history = within(
        "history",
        client.get_history(pb::GetHistoryRequest {
            match_id: id.clone(),
        }),
    )
    .await
    .unwrap()
    .into_inner();
    assert_eq!(history.events, played);
    let final_match = history.r#match.unwrap();
    assert_eq!(final_match.version, played.len() as u64);
    let replayed = mancala::matches::notation::replay(&history.notation).expect("replays");
    assert_eq!(replayed.events.len(), played.len());
    assert_eq!(
        Some(mancala::api::convert::state_to_pb(&replayed.game)),
        final_match.state
    );
}

#[tokio::test]
async fn presence_says_when_a_seat_connects_and_drops_and_heartbeats_keep_idle_streams_alive() {
    let mut settings = settings();
    settings.matches.heartbeat_interval = Some(Duration::from_millis(50));
    let server = TestServer::start(settings).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let id = m.match_id;

    let mut spectator = watch(&mut client, &id, None, None).await.unwrap();
    assert!(matches!(next(&mut spectator).await, Kind::Snapshot(_)));
    // An idle stream hears heartbeats.
    let Kind::Heartbeat(beat) = next(&mut spectator).await else {
        panic!("a heartbeat")
    };
    assert_eq!(beat.version, 0);

    let status = watch(&mut client, &id, Some("not-a-token"), None)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);

    let mut south = watch(&mut client, &id, Some(&tokens[0]), None)
        .await
        .unwrap();
    let presence = loop {
        match next(&mut spectator).await {
            Kind::Presence(p) => break p,
            Kind::Heartbeat(_) => continue,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        (presence.player, presence.connected),
        (pb::Player::South as i32, true)
    );
    let Kind::Snapshot(own) = next(&mut south).await else {
        panic!("snapshot")
    };
    assert!(own.r#match.unwrap().seats[0].connected);
    let seats = get(&mut client, &id).await.seats;
    assert_eq!(
        seats.iter().map(|s| s.connected).collect::<Vec<_>>(),
        [true, false]
    );

    drop(south);
    let presence = loop {
        match next(&mut spectator).await {
            Kind::Presence(p) => break p,
            Kind::Heartbeat(_) => continue,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        (presence.player, presence.connected),
        (pb::Player::South as i32, false)
    );
    assert!(!get(&mut client, &id).await.seats[0].connected);
}

#[tokio::test]
async fn a_watcher_that_resumes_from_its_seq_sees_every_event_exactly_once() {
    let server = TestServer::start(settings()).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let id = m.match_id;

    let mut first = watch(&mut client, &id, None, None).await.unwrap();
    assert!(matches!(next_log(&mut first).await, Kind::Snapshot(_)));
    let mut played = Vec::new();
    for n in 0..3 {
        played.push(play(&mut client, &id, &tokens, n, 0).await);
    }
    let mut seen = Vec::new();
    for _ in 0..3 {
        let Kind::Event(e) = next_log(&mut first).await else {
            panic!("event")
        };
        seen.push(e);
    }
    let last_seq = seen.last().unwrap().seq;
    drop(first);

    // Moves while the watcher is away.
    for n in 3..7 {
        played.push(play(&mut client, &id, &tokens, n, 0).await);
    }
    let mut resumed = watch(&mut client, &id, None, Some(last_seq)).await.unwrap();
    for _ in 3..7 {
        let Kind::Event(e) = next_log(&mut resumed).await else {
            panic!("a missed event, not a snapshot")
        };
        seen.push(e);
    }
    // Then the live ones.
    for n in 7..9 {
        played.push(play(&mut client, &id, &tokens, n, 0).await);
        let Kind::Event(e) = next_log(&mut resumed).await else {
            panic!("a live event")
        };
        seen.push(e);
    }
    assert_eq!(seen, played, "every event exactly once, in order");

    // From the very start, and from beyond the end.
    let mut all = watch(&mut client, &id, None, Some(0)).await.unwrap();
    for expected in &played {
        let Kind::Event(e) = next_log(&mut all).await else {
            panic!("event")
        };
        assert_eq!(&e, expected);
    }
    let status = watch(&mut client, &id, None, Some(10)).await.unwrap_err();
    assert_eq!(status.code(), Code::OutOfRange, "{status:?}");
    let status = watch(&mut client, &"e".repeat(32), None, None)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
}

#[tokio::test]
async fn watcher_limits_per_match_and_in_total_answer_resource_exhausted() {
    let mut settings = settings();
    settings.matches.max_watchers_per_match = 2;
    settings.matches.max_watchers_total = 3;
    let server = TestServer::start(settings).await;
    let mut client = server.client().await;
    let (a, _) = create(&mut client).await;
    let (b, _) = create(&mut client).await;

    let _a1 = watch(&mut client, &a.match_id, None, None).await.unwrap();
    let _a2 = watch(&mut client, &a.match_id, None, None).await.unwrap();
    let status = watch(&mut client, &a.match_id, None, None)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    let _b1 = watch(&mut client, &b.match_id, None, None).await.unwrap();
    let status = watch(&mut client, &b.match_id, None, None)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
}

#[tokio::test]
async fn seated_players_keep_their_streams_under_a_spectator_flood() {
    let mut settings = settings();
    settings.matches.max_watchers_per_match = 3;
    settings.matches.max_watchers_total = 3;
    settings.matches.max_streams_per_seat = 2;
    let server = TestServer::start(settings).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let id = &m.match_id;

    // Spectators take every spectator slot of the match and of the server.
    let mut flood = Vec::new();
    for _ in 0..3 {
        flood.push(watch(&mut client, id, None, None).await.unwrap());
    }
    let status = watch(&mut client, id, None, None).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");

    // Each player still opens his streams, up to his own limit.
    let mut players = Vec::new();
    for token in &tokens {
        for _ in 0..2 {
            let mut stream = watch(&mut client, id, Some(token.as_str()), None)
                .await
                .unwrap();
            assert!(matches!(next_log(&mut stream).await, Kind::Snapshot(_)));
            players.push(stream);
        }
        let status = watch(&mut client, id, Some(token.as_str()), None)
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
        assert!(
            status.message().contains("max_streams_per_seat"),
            "{status:?}"
        );
    }
    // A player who closes a stream gets its slot back; the spectators' limits are unchanged.
    players.pop();
    within("the freed seat slot", async {
        loop {
            match watch(&mut client, id, Some(&tokens[1]), None).await {
                Ok(stream) => return stream,
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
            }
        }
    })
    .await;
    let status = watch(&mut client, id, None, None).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
}

#[tokio::test]
async fn a_slow_watcher_delays_neither_the_moves_nor_the_other_watchers() {
    let mut settings = settings();
    settings.matches.watcher_buffer = 4;
    let server = TestServer::start(settings).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let id = m.match_id;

    // The slow client's connection takes in almost nothing before it reads.
    let slow_channel = within(
        "slow connect",
        Endpoint::from_shared(format!("http://{}", server.addr))
            .unwrap()
            .initial_stream_window_size(Some(1024))
            .initial_connection_window_size(Some(1024))
            .connect(),
    )
    .await
    .unwrap();
    let mut slow = watch(&mut MatchesClient::new(slow_channel), &id, None, None)
        .await
        .unwrap();
    let mut fast = watch(&mut client, &id, None, None).await.unwrap();
    assert!(matches!(next_log(&mut fast).await, Kind::Snapshot(_)));

    const MOVES: u64 = 60;
    for n in 0..MOVES as usize {
        // Each move is answered while the slow watcher reads nothing.
        let event = play(&mut client, &id, &tokens, n * 7 + 1, 0).await;
        let Kind::Event(seen) = next_log(&mut fast).await else {
            panic!("the fast watcher hears every event")
        };
        assert_eq!(seen, event);
    }

    // The slow watcher, reading at last: a consistent stream that was resynchronised.
    let mut cursor = None;
    let mut resynced = false;
    while cursor != Some(MOVES) {
        match next_log(&mut slow).await {
            Kind::Snapshot(s) => {
                resynced |= s.reason == pb::SnapshotReason::Resync as i32;
                cursor = Some(s.r#match.unwrap().version);
            }
            Kind::Event(e) => {
                assert_eq!(Some(e.seq), cursor.map(|c| c + 1), "no gap, no duplicate");
                cursor = Some(e.seq);
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(resynced, "60 events behind a buffer of 4: resynchronised");
}

#[tokio::test]
async fn shutdown_ends_every_watch_stream() {
    let server = TestServer::start(settings()).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let mut spectator = watch(&mut client, &m.match_id, None, None).await.unwrap();
    let mut seated = watch(&mut client, &m.match_id, Some(&tokens[0]), None)
        .await
        .unwrap();
    assert!(matches!(next_log(&mut spectator).await, Kind::Snapshot(_)));
    assert!(matches!(next_log(&mut seated).await, Kind::Snapshot(_)));

    let stopped = tokio::spawn(server.stop());
    for stream in [&mut spectator, &mut seated] {
        let end = loop {
            match within("the end of a stream", stream.message()).await {
                Ok(Some(_)) => continue,
                Ok(None) => break None,
                Err(status) => break Some(status),
            }
        };
        // The server's drain ends idle streams with UNAVAILABLE: resume elsewhere from the seq.
        let status = end.expect("ended by the server");
        assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    }
    within("server stops", stopped).await.expect("stopped");
}

#[tokio::test]
async fn a_watch_with_previews_carries_each_legal_moves_outcome_at_every_turn() {
    let server = TestServer::start(settings()).await;
    let mut client = server.client().await;
    let (m, tokens) = create(&mut client).await;
    let open = |previews: bool| pb::WatchMatchRequest {
        match_id: m.match_id.clone(),
        from_seq: None,
        previews,
    };
    let mut plain = within("watch", client.watch_match(open(false)))
        .await
        .expect("watch")
        .into_inner();
    let mut rich = within("watch", client.watch_match(open(true)))
        .await
        .expect("watch with previews")
        .into_inner();
    let snapshot = |message: Option<pb::WatchMatchResponse>| match message.and_then(|r| r.kind) {
        Some(pb::watch_match_response::Kind::Snapshot(s)) => s.r#match.expect("match"),
        other => panic!("a snapshot first: {other:?}"),
    };
    let bare = snapshot(within("snapshot", plain.message()).await.unwrap());
    assert!(bare.previews.is_empty(), "previews only when asked for");
    let first = snapshot(within("snapshot", rich.message()).await.unwrap());
    // Exactly what Rules/ListLegalMoves answers for the same state.
    let listed = within(
        "ListLegalMoves",
        pb::rules_client::RulesClient::new(server.channel().await).list_legal_moves(
            pb::ListLegalMovesRequest {
                state: first.state.clone(),
                skip_previews: false,
            },
        ),
    )
    .await
    .expect("ListLegalMoves")
    .into_inner()
    .moves;
    assert_eq!(first.previews, listed);
    assert_eq!(
        first
            .previews
            .iter()
            .map(|p| p.r#move.clone().unwrap())
            .collect::<Vec<_>>(),
        first.legal_moves
    );
    assert!(first
        .previews
        .iter()
        .all(|p| p.result.is_some() && !p.events.is_empty()));
    // Every event carries the next turn's previews; the preview of the move played is the state it led to.
    let chosen = first.previews[0].clone();
    let mover = seat_to_move(&first);
    let event = submit(
        &mut client,
        &m.match_id,
        &tokens[mover],
        chosen.r#move.clone().unwrap(),
        Some(0),
        "",
    )
    .await
    .expect("the first legal move");
    assert_eq!(event.state, chosen.result);
    let streamed = match within("event", rich.message())
        .await
        .unwrap()
        .and_then(|r| r.kind)
    {
        Some(pb::watch_match_response::Kind::Event(e)) => e,
        other => panic!("the event: {other:?}"),
    };
    assert_eq!(streamed.seq, 1);
    assert_eq!(streamed.previews.len(), streamed.legal_moves.len());
    assert!(!streamed.previews.is_empty());
}
