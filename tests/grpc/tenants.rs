//! Tenants, keys, player tokens and limits, over a real channel (docs/guide/tenants.md): who may
//! call, who sees which match, who plays which seat, and what a tenant over its limits is told.

use crate::support::server::{within, TestServer};
use mancala::api::pb;
use mancala::identity::{keys, TokenSigner};
use pb::admin_client::AdminClient;
use pb::matches_client::MatchesClient;
use pb::players_client::PlayersClient;
use pb::rules_client::RulesClient;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tonic::transport::Channel;
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

const OPERATOR_KEY: &str = "mo_test-operator-key";
const TOKEN_SECRET: &str = "a-test-secret-of-at-least-thirty-two-bytes";

fn with<T>(message: T, credential: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {credential}").parse().unwrap(),
    );
    request
}

async fn server(configure: impl FnOnce(&mut mancala::config::Settings)) -> TestServer {
    TestServer::start_with(|settings| {
        settings.auth.required = true;
        settings.auth.operator_key_sha256 = keys::hex(&keys::hash(OPERATOR_KEY));
        settings.auth.player_token_secret = TOKEN_SECRET.into();
        configure(settings);
    })
    .await
}

/// Creates tenant `id` (with `limits`) and returns its first key.
async fn tenant(channel: &Channel, id: &str, limits: Option<pb::TenantLimits>) -> String {
    within(AdminClient::new(channel.clone()).create_tenant(with(
        pb::CreateTenantRequest {
            tenant_id: id.into(),
            name: format!("{id} games"),
            limits,
        },
        OPERATOR_KEY,
    )))
    .await
    .expect("CreateTenant answers")
    .into_inner()
    .api_key
}

async fn create(
    channel: &Channel,
    credential: &str,
    players: Vec<pb::SeatPlayer>,
) -> Result<pb::CreateMatchResponse, Status> {
    within(MatchesClient::new(channel.clone()).create_match(with(
        pb::CreateMatchRequest {
            kind: pb::GameKind::BaAwa as i32,
            options: None,
            players,
            bots: vec![],
            time_control: None,
            start: None,
        },
        credential,
    )))
    .await
    .map(tonic::Response::into_inner)
}

async fn player_token(channel: &Channel, key: &str, player: &str) -> String {
    within(PlayersClient::new(channel.clone()).issue_player_token(with(
        pb::IssuePlayerTokenRequest {
            player_id: player.into(),
            ttl_seconds: 600,
        },
        key,
    )))
    .await
    .expect("IssuePlayerToken answers")
    .into_inner()
    .token
}

async fn new_game(channel: &Channel, request: Request<pb::NewGameRequest>) -> Result<(), Status> {
    within(RulesClient::new(channel.clone()).new_game(request))
        .await
        .map(|_| ())
}

fn new_game_request() -> pb::NewGameRequest {
    pb::NewGameRequest {
        kind: pb::GameKind::Bosh as i32,
        options: None,
    }
}

fn sow(pit: u32) -> pb::Move {
    pb::Move {
        action: Some(pb::r#move::Action::Sow(pb::Sow {
            pit,
            ..pb::Sow::default()
        })),
    }
}

async fn submit(channel: &Channel, credential: &str, id: &str, pit: u32) -> Result<(), Status> {
    within(MatchesClient::new(channel.clone()).submit_move(with(
        pb::SubmitMoveRequest {
            match_id: id.into(),
            r#move: Some(sow(pit)),
            expected_version: None,
            request_id: String::new(),
        },
        credential,
    )))
    .await
    .map(|_| ())
}

#[tokio::test]
async fn without_a_credential_every_call_but_health_is_unauthenticated() {
    let server = server(|_| {}).await;
    let refused = new_game(&server.channel, Request::new(new_game_request()))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert!(
        refused.message().contains("requires a credential"),
        "{refused:?}"
    );
    let refused = within(
        MatchesClient::new(server.channel.clone()).list_matches(pb::ListMatchesRequest::default()),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    let refused = new_game(
        &server.channel,
        with(new_game_request(), "mk_00000000_nonsense"),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    // Probes need no credential.
    let health = within(
        tonic_health::pb::health_client::HealthClient::new(server.channel.clone()).check(
            tonic_health::pb::HealthCheckRequest {
                service: String::new(),
            },
        ),
    )
    .await
    .expect("health answers without a key");
    assert_eq!(health.into_inner().status, 1);
    // The Admin service wants the operator's key, not a tenant's.
    let key = tenant(&server.channel, "acme", None).await;
    let refused = within(
        AdminClient::new(server.channel.clone())
            .list_tenants(with(pb::ListTenantsRequest {}, &key)),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    new_game(&server.channel, with(new_game_request(), &key))
        .await
        .expect("a tenant's key opens the Rules service");
}

#[tokio::test]
async fn one_tenant_cannot_see_list_watch_or_touch_another_tenants_match() {
    let server = server(|_| {}).await;
    let channel = &server.channel;
    let a = tenant(channel, "tenant-a", None).await;
    let b = tenant(channel, "tenant-b", None).await;
    let created = create(channel, &a, vec![]).await.expect("A creates");
    let id = created.r#match.unwrap().match_id;
    let south_token = created.tokens[0].token.clone();
    let mut client = MatchesClient::new(channel.clone());

    let get = within(client.get_match(with(
        pb::GetMatchRequest {
            match_id: id.clone(),
        },
        &b,
    )))
    .await
    .unwrap_err();
    assert_eq!(get.code(), Code::NotFound, "{get:?}");
    let watch = within(client.watch_match(with(
        pb::WatchMatchRequest {
            match_id: id.clone(),
            from_seq: None,
            previews: false,
        },
        &b,
    )))
    .await
    .unwrap_err();
    assert_eq!(watch.code(), Code::NotFound);
    let history = within(client.get_history(with(
        pb::GetHistoryRequest {
            match_id: id.clone(),
        },
        &b,
    )))
    .await
    .unwrap_err();
    assert_eq!(history.code(), Code::NotFound);
    assert_eq!(
        submit(channel, &b, &id, 0).await.unwrap_err().code(),
        Code::NotFound
    );
    let resign = within(client.resign(with(
        pb::ResignRequest {
            match_id: id.clone(),
            ..pb::ResignRequest::default()
        },
        &b,
    )))
    .await
    .unwrap_err();
    assert_eq!(resign.code(), Code::NotFound);
    let listed = |credential: String| {
        let mut client = client.clone();
        async move {
            within(client.list_matches(with(pb::ListMatchesRequest::default(), &credential)))
                .await
                .unwrap()
                .into_inner()
                .matches
                .into_iter()
                .map(|m| m.match_id)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(listed(b.clone()).await, Vec::<String>::new());
    assert_eq!(listed(a.clone()).await, vec![id.clone()]);
    // A's own key reads it, and the seat token alone plays its seat.
    within(client.get_match(with(
        pb::GetMatchRequest {
            match_id: id.clone(),
        },
        &a,
    )))
    .await
    .expect("A reads its match");
    submit(channel, &south_token, &id, 0)
        .await
        .expect("the seat token plays its seat");
}

#[tokio::test]
async fn a_revoked_key_stops_working_at_once_and_a_rotation_keeps_the_new_one() {
    let server = server(|_| {}).await;
    let channel = &server.channel;
    let first = tenant(channel, "acme", None).await;
    new_game(channel, with(new_game_request(), &first))
        .await
        .unwrap();
    let mut admin = AdminClient::new(channel.clone());
    let rotated = within(admin.create_api_key(with(
        pb::CreateApiKeyRequest {
            tenant_id: "acme".into(),
            revoke_others: true,
            overlap_ms: 0,
        },
        OPERATOR_KEY,
    )))
    .await
    .unwrap()
    .into_inner();
    let second = rotated.api_key;
    let refused = new_game(channel, with(new_game_request(), &first))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    new_game(channel, with(new_game_request(), &second))
        .await
        .expect("the new key works");
    let key_id = second.split('_').nth(1).unwrap().to_string();
    within(admin.revoke_api_key(with(
        pb::RevokeApiKeyRequest {
            tenant_id: "acme".into(),
            key_id,
        },
        OPERATOR_KEY,
    )))
    .await
    .unwrap();
    let refused = new_game(channel, with(new_game_request(), &second))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    // Listed by id and dates, never the key itself.
    let listed = within(admin.list_tenants(with(pb::ListTenantsRequest {}, OPERATOR_KEY)))
        .await
        .unwrap()
        .into_inner();
    let acme = &listed.tenants[0];
    assert_eq!(acme.keys.len(), 2);
    assert!(acme.keys.iter().all(|k| k.revoked_at_ms > 0));
    assert!(!format!("{listed:?}").contains(&second));
}

#[tokio::test]
async fn expired_forged_and_other_tenants_player_tokens_are_refused() {
    let server = server(|_| {}).await;
    let channel = &server.channel;
    let key = tenant(channel, "acme", None).await;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let token = player_token(channel, &key, "ann").await;
    new_game(channel, with(new_game_request(), &token))
        .await
        .expect("a fresh player token works");
    let key_id = key.split('_').nth(1).unwrap();
    let signer = TokenSigner::new(TOKEN_SECRET.as_bytes());
    let expired = signer.issue("acme", key_id, "ann", now - 600, 60);
    let refused = new_game(channel, with(new_game_request(), &expired))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    assert!(refused.message().contains("expired"), "{refused:?}");
    let forged = TokenSigner::new(&[9; 32]).issue("acme", key_id, "ann", now, 600);
    let refused = new_game(channel, with(new_game_request(), &forged))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    let unknown_tenant = signer.issue("nobody", key_id, "ann", now, 600);
    let refused = new_game(channel, with(new_game_request(), &unknown_tenant))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    // A player token cannot mint tokens.
    let refused = within(PlayersClient::new(channel.clone()).issue_player_token(with(
        pb::IssuePlayerTokenRequest {
            player_id: "mallory".into(),
            ttl_seconds: 0,
        },
        &token,
    )))
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    // Rotating the key that issued a token revokes the token too.
    within(AdminClient::new(channel.clone()).create_api_key(with(
        pb::CreateApiKeyRequest {
            tenant_id: "acme".into(),
            revoke_others: true,
            overlap_ms: 0,
        },
        OPERATOR_KEY,
    )))
    .await
    .unwrap();
    let refused = new_game(channel, with(new_game_request(), &token))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated);
    assert!(refused.message().contains("revoked"), "{refused:?}");
}

#[tokio::test]
async fn a_player_bound_to_a_seat_plays_it_and_nobody_else_can() {
    let server = server(|_| {}).await;
    let channel = &server.channel;
    let key = tenant(channel, "acme", None).await;
    let bind = |player: pb::Player, id: &str| pb::SeatPlayer {
        player: player as i32,
        player_id: id.into(),
    };
    let created = create(
        channel,
        &key,
        vec![
            bind(pb::Player::South, "ann"),
            bind(pb::Player::North, "bob"),
        ],
    )
    .await
    .expect("created with bound seats");
    assert!(created.tokens.is_empty(), "bound seats get no token");
    let view = created.r#match.unwrap();
    assert_eq!(view.seats[0].player_id, "ann");
    let id = view.match_id;
    let ann = player_token(channel, &key, "ann").await;
    let bob = player_token(channel, &key, "bob").await;
    let carl = player_token(channel, &key, "carl").await;
    // South to move: only ann.
    let refused = submit(channel, &bob, &id, 0).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let refused = submit(channel, &carl, &id, 0).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    assert!(refused.message().contains("no seat"), "{refused:?}");
    let refused = submit(channel, &key, &id, 0).await.unwrap_err();
    assert!(
        matches!(
            refused.code(),
            Code::Unauthenticated | Code::PermissionDenied
        ),
        "{refused:?}"
    );
    submit(channel, &ann, &id, 0)
        .await
        .expect("ann plays South");
    submit(channel, &bob, &id, 6)
        .await
        .expect("bob plays North");
    // carl is of the tenant: he may watch, not play.
    within(
        MatchesClient::new(channel.clone())
            .get_match(with(pb::GetMatchRequest { match_id: id }, &carl)),
    )
    .await
    .expect("a player of the tenant reads its matches");
    let bad = create(
        channel,
        &key,
        vec![
            bind(pb::Player::South, "ann"),
            bind(pb::Player::North, "ann"),
        ],
    )
    .await
    .unwrap_err();
    assert_eq!(bad.code(), Code::InvalidArgument);
}

#[tokio::test]
async fn over_its_rate_a_tenant_gets_retry_info_and_is_served_again_after_the_delay() {
    let server = server(|_| {}).await;
    let channel = &server.channel;
    let limits = pb::TenantLimits {
        calls_per_second: Some(2),
        burst: Some(2),
        ..pb::TenantLimits::default()
    };
    let key = tenant(channel, "slow", Some(limits)).await;
    let mut refused = None;
    for _ in 0..5 {
        if let Err(status) = new_game(channel, with(new_game_request(), &key)).await {
            refused = Some(status);
            break;
        }
    }
    let refused = refused.expect("the third call within a second is refused");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    let retry = refused
        .get_details_retry_info()
        .and_then(|info| info.retry_delay)
        .expect("RetryInfo with a delay");
    assert!(
        retry > Duration::ZERO && retry <= Duration::from_secs(1),
        "{retry:?}"
    );
    let quota = refused.get_details_quota_failure().expect("QuotaFailure");
    assert_eq!(quota.violations[0].subject, "tenant:slow");
    // Another tenant is not slowed down.
    let other = tenant(channel, "fast", None).await;
    new_game(channel, with(new_game_request(), &other))
        .await
        .unwrap();
    // The advertised delay is the contract: after it, a call is accepted.
    tokio::time::sleep(retry).await;
    new_game(channel, with(new_game_request(), &key))
        .await
        .expect("served again after the advertised delay");
}

#[tokio::test]
async fn a_tenant_at_its_unfinished_matches_limit_creates_again_once_one_ends() {
    let server = server(|_| {}).await;
    let channel = &server.channel;
    let limits = pb::TenantLimits {
        max_active_matches: Some(1),
        ..pb::TenantLimits::default()
    };
    let key = tenant(channel, "small", Some(limits)).await;
    let first = create(channel, &key, vec![]).await.unwrap();
    let refused = create(channel, &key, vec![]).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert!(
        refused.message().contains("max_active_matches"),
        "{refused:?}"
    );
    within(MatchesClient::new(channel.clone()).resign(with(
        pb::ResignRequest {
            match_id: first.r#match.unwrap().match_id,
            ..pb::ResignRequest::default()
        },
        &first.tokens[0].token,
    )))
    .await
    .unwrap();
    create(channel, &key, vec![]).await.expect("room again");
}

#[tokio::test]
async fn an_idle_match_expires_with_no_winner_and_an_expiry_event() {
    let server = server(|settings| {
        settings.matches.idle_expiry = Some(Duration::from_millis(200));
    })
    .await;
    let channel = &server.channel;
    let key = tenant(channel, "acme", None).await;
    let id = create(channel, &key, vec![])
        .await
        .unwrap()
        .r#match
        .unwrap()
        .match_id;
    let mut client = MatchesClient::new(channel.clone());
    // The sweep runs every 50 ms here; wait for its effect, bounded.
    let finished = within(async {
        loop {
            let view = client
                .get_match(with(
                    pb::GetMatchRequest {
                        match_id: id.clone(),
                    },
                    &key,
                ))
                .await
                .unwrap()
                .into_inner()
                .r#match
                .unwrap();
            if view.status == pb::MatchStatus::Finished as i32 {
                break view;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    let result = finished.result.unwrap();
    assert_eq!(result.reason, pb::MatchEndReason::Expired as i32);
    assert_eq!(result.winner, pb::Player::Unspecified as i32);
    let history = within(client.get_history(with(pb::GetHistoryRequest { match_id: id }, &key)))
        .await
        .unwrap()
        .into_inner();
    assert!(matches!(
        history.events.last().unwrap().action,
        Some(pb::match_event::Action::Expiry(_))
    ));
    assert!(
        history.notation.trim_end().ends_with("S expire"),
        "{}",
        history.notation
    );
}

#[tokio::test]
async fn without_required_auth_a_keyless_caller_is_the_anonymous_tenant_and_sees_only_its_matches()
{
    let server = TestServer::start_with(|settings| {
        settings.auth.operator_key_sha256 = keys::hex(&keys::hash(OPERATOR_KEY));
    })
    .await;
    let channel = &server.channel;
    let key = tenant(channel, "acme", None).await;
    let acme_match = create(channel, &key, vec![])
        .await
        .unwrap()
        .r#match
        .unwrap()
        .match_id;
    let mut client = MatchesClient::new(channel.clone());
    let anonymous = within(client.create_match(pb::CreateMatchRequest {
        kind: pb::GameKind::Bosh as i32,
        options: None,
        players: vec![],
        bots: vec![],
        time_control: None,
        start: None,
    }))
    .await
    .expect("no credential needed")
    .into_inner();
    let listed = within(client.list_matches(pb::ListMatchesRequest::default()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.matches.len(), 1);
    assert_eq!(
        listed.matches[0].match_id,
        anonymous.r#match.unwrap().match_id
    );
    let hidden = within(client.get_match(pb::GetMatchRequest {
        match_id: acme_match,
    }))
    .await
    .unwrap_err();
    assert_eq!(hidden.code(), Code::NotFound);
}

#[tokio::test]
async fn a_player_is_held_to_his_share_of_his_tenants_matches_and_calls_and_the_backend_is_not() {
    let server = server(|_| {}).await;
    let channel = &server.channel;
    // The players' shares are the tenant's own limits, overriding `[limits]`.
    let matchy = tenant(
        channel,
        "matchy",
        Some(pb::TenantLimits {
            max_active_matches_per_player: Some(2),
            ..pb::TenantLimits::default()
        }),
    )
    .await;
    let ann = player_token(channel, &matchy, "ann").await;
    let bob = player_token(channel, &matchy, "bob").await;
    create(channel, &ann, vec![]).await.expect("ann's first");
    create(channel, &ann, vec![]).await.expect("ann's second");
    let refused = create(channel, &ann, vec![]).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    let info = refused.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.reason, "CALLER_LIMIT");
    assert_eq!(info.metadata["limit"], "max_active_matches_per_player");
    assert!(refused
        .message()
        .contains("limits.max_active_matches_per_player"));
    create(channel, &bob, vec![])
        .await
        .expect("another player of the tenant");
    create(channel, &matchy, vec![])
        .await
        .expect("the tenant's backend");

    let chatty = tenant(
        channel,
        "chatty",
        Some(pb::TenantLimits {
            calls_per_second_per_player: Some(1),
            burst_per_player: Some(3),
            ..pb::TenantLimits::default()
        }),
    )
    .await;
    let ann = player_token(channel, &chatty, "ann").await;
    let bob = player_token(channel, &chatty, "bob").await;
    // The bucket refills at one call a second: however slow this machine, a few more calls find it empty.
    let mut refused = None;
    for _ in 0..50 {
        if let Err(status) = new_game(channel, with(new_game_request(), &ann)).await {
            refused = Some(status);
            break;
        }
    }
    let refused = refused.expect("ann is held to her share of the tenant's rate");
    assert_eq!(refused.code(), Code::ResourceExhausted);
    let quota = refused.get_details_quota_failure().expect("QuotaFailure");
    assert_eq!(quota.violations[0].subject, "player:ann");
    assert!(refused.get_details_retry_info().is_some());
    new_game(channel, with(new_game_request(), &bob))
        .await
        .expect("another player is served");
    new_game(channel, with(new_game_request(), &chatty))
        .await
        .expect("the backend is served");
}

#[tokio::test]
async fn the_operators_changes_do_what_they_say_limits_disabling_rotations_and_expiries() {
    let server = server(|_| {}).await;
    let channel = &server.channel;
    let limits = pb::TenantLimits {
        calls_per_second: Some(50),
        burst: Some(60),
        max_active_matches: Some(7),
        ..Default::default()
    };
    let key = tenant(channel, "acme", Some(limits)).await;
    let mut admin = AdminClient::new(channel.clone());

    // `tenants limits` changes only the limits it is given (merge); the others keep the tenant's values.
    let changed = within(admin.set_tenant_limits(with(
        pb::SetTenantLimitsRequest {
            tenant_id: "acme".into(),
            limits: Some(pb::TenantLimits {
                burst: Some(80),
                ..Default::default()
            }),
            merge: true,
        },
        OPERATOR_KEY,
    )))
    .await
    .unwrap()
    .into_inner()
    .tenant
    .unwrap();
    let own = changed.limits.unwrap();
    assert_eq!(
        (own.calls_per_second, own.burst, own.max_active_matches),
        (Some(50), Some(80), Some(7))
    );

    // A player token's expiry in the protocol's unit too.
    let issued = within(PlayersClient::new(channel.clone()).issue_player_token(with(
        pb::IssuePlayerTokenRequest {
            player_id: "ann".into(),
            ttl_seconds: 600,
        },
        &key,
    )))
    .await
    .unwrap()
    .into_inner();
    assert_eq!(issued.expires_at_ms, issued.expires_at * 1000);

    // A rotation with an overlap: the old key and its player tokens work on until the overlap ends.
    let before_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let rotated = within(admin.create_api_key(with(
        pb::CreateApiKeyRequest {
            tenant_id: "acme".into(),
            revoke_others: true,
            overlap_ms: 3_600_000,
        },
        OPERATOR_KEY,
    )))
    .await
    .unwrap()
    .into_inner();
    let old = &rotated.tenant.as_ref().unwrap().keys[0];
    assert!(old.revoked_at_ms >= before_ms + 3_600_000, "{old:?}");
    for credential in [&key, &issued.token, &rotated.api_key] {
        new_game(channel, with(new_game_request(), credential))
            .await
            .expect("within the overlap every key and token works");
    }

    // A disabled tenant's key is refused as disabled, naming the tenant, not as unknown.
    within(admin.set_tenant_disabled(with(
        pb::SetTenantDisabledRequest {
            tenant_id: "acme".into(),
            disabled: true,
        },
        OPERATOR_KEY,
    )))
    .await
    .unwrap();
    for credential in [&key, &issued.token] {
        let refused = new_game(channel, with(new_game_request(), credential))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::Unauthenticated);
        assert!(
            refused.message().contains("\"acme\" is disabled"),
            "{refused:?}"
        );
    }
}
