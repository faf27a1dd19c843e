//! Limits for every kind of caller (docs/guide/caller-limits.md), over real channels from different client
//! addresses (127.0.0.2, 127.0.0.3 …: see `support::addresses`): one address spending its share leaves another
//! untouched.

use crate::support::addresses::{channel_from, connect_from, loopback};
use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio_stream::StreamExt;
use tonic::metadata::MetadataValue;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

fn authed<T>(message: T, credential: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        MetadataValue::try_from(format!("Bearer {credential}")).expect("ASCII"),
    );
    request
}

/// A match of Bosh against the built-in opponent at level 1 (North), as the board page's "play the computer".
fn against_the_computer() -> pb::CreateMatchRequest {
    pb::CreateMatchRequest {
        kind: pb::GameKind::Bosh as i32,
        bots: vec![pb::SeatBot {
            player: pb::Player::North as i32,
            level: 1,
            seed: Some(1),
        }],
        ..Default::default()
    }
}

fn two_people() -> pb::CreateMatchRequest {
    pb::CreateMatchRequest {
        kind: pb::GameKind::Bosh as i32,
        ..Default::default()
    }
}

async fn create(
    channel: &Channel,
    request: pb::CreateMatchRequest,
) -> Result<pb::CreateMatchResponse, Status> {
    within(MatchesClient::new(channel.clone()).create_match(request))
        .await
        .map(tonic::Response::into_inner)
}

async fn watch(
    channel: &Channel,
    request: Request<pb::WatchMatchRequest>,
) -> Result<tonic::Streaming<pb::WatchMatchResponse>, Status> {
    let mut stream = within(MatchesClient::new(channel.clone()).watch_match(request))
        .await?
        .into_inner();
    // The snapshot: the stream is open and counted.
    within(stream.next())
        .await
        .expect("a first message")
        .expect("a snapshot");
    Ok(stream)
}

fn spectate(match_id: &str) -> Request<pb::WatchMatchRequest> {
    Request::new(pb::WatchMatchRequest {
        match_id: match_id.to_string(),
        ..Default::default()
    })
}

/// The `ErrorInfo` reason and `limit` of a RESOURCE_EXHAUSTED.
fn refusal(status: &Status) -> (String, String) {
    assert_eq!(
        status.code(),
        Code::ResourceExhausted,
        "{}",
        status.message()
    );
    let info = status
        .get_details_error_info()
        .expect("RESOURCE_EXHAUSTED carries ErrorInfo");
    let limit = info.metadata.get("limit").cloned().unwrap_or_default();
    (info.reason, limit)
}

#[tokio::test]
async fn an_anonymous_flood_from_one_address_leaves_another_able_to_play_the_computer_and_watch() {
    let server = TestServer::start_with(|s| {
        s.addresses.max_active_matches = 3;
        s.addresses.max_watchers = 2;
    })
    .await;
    let flooder = channel_from(loopback(2), server.addr).await;
    let player = channel_from(loopback(3), server.addr).await;

    // The flood: matches until the address's share is spent …
    let mut created = Vec::new();
    let refused = loop {
        match create(&flooder, two_people()).await {
            Ok(answer) => created.push(answer),
            Err(status) => break status,
        }
        assert!(created.len() <= 3, "the share is 3 matches");
    };
    assert_eq!(created.len(), 3);
    assert_eq!(
        refusal(&refused),
        (
            "CALLER_LIMIT".to_string(),
            "max_active_matches_per_address".to_string()
        )
    );
    assert!(refused.message().contains("addresses.max_active_matches"));
    let quota = refused.get_details_quota_failure().expect("QuotaFailure");
    assert_eq!(quota.violations[0].subject, "address:127.0.0.2");
    // … and spectator streams until that share is spent too.
    let first = created[0]
        .r#match
        .as_ref()
        .expect("a match")
        .match_id
        .clone();
    let mut streams = Vec::new();
    let refused = loop {
        match watch(&flooder, spectate(&first)).await {
            Ok(stream) => streams.push(stream),
            Err(status) => break status,
        }
        assert!(streams.len() <= 2, "the share is 2 streams");
    };
    assert_eq!(streams.len(), 2);
    assert_eq!(refusal(&refused).1, "max_watchers_per_address");

    // Another address plays the computer and watches the flooder's match.
    let game = create(&player, against_the_computer())
        .await
        .expect("another address creates a match against the computer");
    assert_eq!(game.tokens.len(), 1, "one seat for the person");
    let _spectating = watch(&player, spectate(&first))
        .await
        .expect("another address watches a match");

    // A closed stream gives its place back; an ended match its own.
    drop(streams.pop());
    // The stream's end reaches the server with its RST_STREAM: the next one is asked again until then.
    let mut again = watch(&flooder, spectate(&first)).await;
    for _ in 0..100 {
        if again.is_ok() {
            break;
        }
        tokio::task::yield_now().await;
        again = watch(&flooder, spectate(&first)).await;
    }
    again.expect("room for one more stream once one closed");
    let seat = created[0].tokens[0].token.clone();
    within(MatchesClient::new(flooder.clone()).resign(authed(
        pb::ResignRequest {
            match_id: first.clone(),
            ..Default::default()
        },
        &seat,
    )))
    .await
    .expect("resigned");
    create(&flooder, two_people())
        .await
        .expect("room for one more once a match ended");
}

#[tokio::test]
async fn made_up_seat_tokens_from_one_address_do_not_slow_a_real_seat_from_another() {
    let server = TestServer::start_with(|s| {
        s.addresses.calls_per_second = 1;
        s.addresses.burst = 5;
        // Counted apart in `repeated_bad_credentials_back_off_that_address_and_not_another`.
        s.auth.failures_before_backoff = 0;
    })
    .await;
    let owner = channel_from(loopback(3), server.addr).await;
    let guesser = channel_from(loopback(2), server.addr).await;
    let game = create(&owner, two_people()).await.expect("created");
    let id = game.r#match.expect("a match").match_id;
    let token = game.tokens[0].token.clone();

    let get = |credential: String| {
        authed(
            pb::GetMatchRequest {
                match_id: id.clone(),
            },
            &credential,
        )
    };
    for guess in 0..5u32 {
        let made_up = format!("{guess:064x}");
        let status = within(MatchesClient::new(guesser.clone()).get_match(get(made_up)))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::Unauthenticated, "{}", status.message());
    }
    // The bucket refills at one call a second: however slow this machine, the next guesses soon find it empty.
    let mut refused = false;
    for guess in 5..50u32 {
        let made_up = format!("{guess:064x}");
        let answer = within(MatchesClient::new(guesser.clone()).get_match(get(made_up))).await;
        if answer.is_err_and(|status| status.code() == Code::ResourceExhausted) {
            refused = true;
            break;
        }
    }
    assert!(refused, "the guessing address's bucket is empty");
    let status = within(MatchesClient::new(guesser.clone()).get_match(get(format!("{:064x}", 99))))
        .await
        .unwrap_err();
    let quota = status.get_details_quota_failure().expect("QuotaFailure");
    assert_eq!(quota.violations[0].subject, "address:127.0.0.2");
    assert!(status.get_details_retry_info().is_some());

    // The real seat, from its own address, is charged to its match's tenant: never refused.
    for _ in 0..20 {
        within(MatchesClient::new(owner.clone()).get_match(get(token.clone())))
            .await
            .expect("the real seat is served");
    }
}

#[tokio::test]
async fn a_client_holding_its_share_of_connections_does_not_block_another_address() {
    let server = TestServer::start_with(|s| {
        // The test server's own channel (127.0.0.1) holds one.
        s.server.max_connections = 4;
        s.server.max_connections_per_address = 2;
        s.server.handshake_timeout = Duration::from_secs(60);
    })
    .await;
    let hoarder = loopback(2);
    let _first = connect_from(hoarder, server.addr).await.expect("connect");
    let _second = connect_from(hoarder, server.addr).await.expect("connect");
    // A third from the same address is accepted and closed at once.
    let mut third = connect_from(hoarder, server.addr).await.expect("connect");
    let mut buf = [0u8; 64];
    let read = within(third.read(&mut buf)).await;
    assert!(
        matches!(read, Ok(0) | Err(_)),
        "the server closes the connection past the share"
    );

    // Another address is served.
    let other = channel_from(loopback(3), server.addr).await;
    within(
        pb::rules_client::RulesClient::new(other).new_game(pb::NewGameRequest {
            kind: pb::GameKind::Bosh as i32,
            options: None,
        }),
    )
    .await
    .expect("another address is served");
}

#[tokio::test]
async fn repeated_bad_credentials_back_off_that_address_and_not_another() {
    let server = TestServer::start_with(|s| {
        s.auth.failures_before_backoff = 3;
        s.auth.backoff_initial = Duration::from_secs(600);
        s.auth.backoff_max = Duration::from_secs(600);
    })
    .await;
    let guesser = channel_from(loopback(2), server.addr).await;
    let other = channel_from(loopback(3), server.addr).await;
    let new_game = |channel: &Channel, credential: Option<&str>| {
        let message = pb::NewGameRequest {
            kind: pb::GameKind::Bosh as i32,
            options: None,
        };
        let request = match credential {
            Some(credential) => authed(message, credential),
            None => Request::new(message),
        };
        let mut client = pb::rules_client::RulesClient::new(channel.clone());
        async move { within(client.new_game(request)).await.map(|_| ()) }
    };
    let made_up = "mk_00000000_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    for _ in 0..3 {
        let status = new_game(&guesser, Some(made_up)).await.unwrap_err();
        assert_eq!(status.code(), Code::Unauthenticated);
    }
    // Backed off: refused unchecked, with a retry delay.
    let status = new_game(&guesser, Some("mk_11111111_another_guess"))
        .await
        .unwrap_err();
    let (reason, _) = refusal(&status);
    assert_eq!(reason, "AUTH_BACKOFF");
    let retry = status.get_details_retry_info().expect("RetryInfo");
    assert!(retry.retry_delay.is_some_and(|d| d > Duration::ZERO));

    // Nobody else: the guesser without a credential, and another address with a bad one (checked as ever).
    new_game(&guesser, None)
        .await
        .expect("a call without a credential is not guessing");
    let status = new_game(&other, Some(made_up)).await.unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    new_game(&other, None)
        .await
        .expect("another address is served");
}

#[tokio::test]
async fn the_anonymous_tenants_feed_is_counted_per_address() {
    let server = TestServer::start_with(|s| s.lobby.max_streams_per_player = 2).await;
    let flooder = channel_from(loopback(2), server.addr).await;
    let other = channel_from(loopback(3), server.addr).await;
    let feed = |channel: &Channel| {
        let mut lobby = pb::lobby_client::LobbyClient::new(channel.clone());
        async move {
            within(lobby.watch_tenant_feed(pb::WatchTenantFeedRequest { after_event_id: 0 }))
                .await
                .map(tonic::Response::into_inner)
        }
    };
    let _held = [
        feed(&flooder).await.expect("first"),
        feed(&flooder).await.expect("second"),
    ];
    let refused = feed(&flooder).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted);
    assert!(
        refused.message().contains("127.0.0.2"),
        "{}",
        refused.message()
    );
    feed(&other)
        .await
        .expect("another address opens the anonymous tenant's feed");
}
