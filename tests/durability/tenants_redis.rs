//! Tenants across two replicas over one Redis, with auth required: what the operator does on one replica holds
//! on the other (a new key works there, a revoked one stops), isolation holds whichever replica is asked,
//! player tokens of one replica are good on the other (one signing secret, kept in Redis), a tenant's limit of
//! unfinished matches counts both replicas' matches, and an idle match expires once however many replicas
//! sweep. Needs `MANCALA_TEST_REDIS_URL`, like `matches_redis`.

use crate::matches_redis::{redis_url, Prefix};
use crate::support::replica::{authed, within, Replica, STEP};
use mancala::api::pb;
use mancala::identity::keys;
use pb::admin_client::AdminClient;
use pb::matches_client::MatchesClient;
use pb::players_client::PlayersClient;
use tonic::transport::Channel;
use tonic::Code;

const OPERATOR_KEY: &str = "mo_redis-test-operator";

async fn channel(replica: &Replica) -> Channel {
    within(
        "connect",
        Channel::from_shared(format!("http://{}", replica.addr))
            .unwrap()
            .connect(),
    )
    .await
    .expect("connect")
}

async fn tenant(channel: &Channel, id: &str, limits: Option<pb::TenantLimits>) -> String {
    within(
        "create tenant",
        AdminClient::new(channel.clone()).create_tenant(authed(
            pb::CreateTenantRequest {
                tenant_id: id.into(),
                name: String::new(),
                limits,
            },
            OPERATOR_KEY,
        )),
    )
    .await
    .expect("CreateTenant")
    .into_inner()
    .api_key
}

async fn create(
    channel: &Channel,
    credential: &str,
    players: Vec<pb::SeatPlayer>,
) -> Result<pb::CreateMatchResponse, tonic::Status> {
    within(
        "create match",
        MatchesClient::new(channel.clone()).create_match(authed(
            pb::CreateMatchRequest {
                kind: pb::GameKind::BaAwa as i32,
                options: None,
                players,
                bots: vec![],
                time_control: None,
                start: None,
            },
            credential,
        )),
    )
    .await
    .map(tonic::Response::into_inner)
}

async fn get(channel: &Channel, credential: &str, id: &str) -> Result<pb::Match, tonic::Status> {
    within(
        "get match",
        MatchesClient::new(channel.clone()).get_match(authed(
            pb::GetMatchRequest {
                match_id: id.into(),
            },
            credential,
        )),
    )
    .await
    .map(|r| r.into_inner().r#match.unwrap())
}

async fn replicas(prefix: &Prefix, extra: &[(&str, &str)]) -> (Replica, Replica) {
    let hash = keys::hex(&keys::hash(OPERATOR_KEY));
    let mut env = vec![
        ("MANCALA__AUTH__REQUIRED", "true"),
        ("MANCALA__AUTH__OPERATOR_KEY_SHA256", hash.as_str()),
    ];
    env.extend_from_slice(extra);
    prefix.replicas_with(&env).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_operator_does_on_one_replica_holds_on_the_other() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "tenants-two");
    let (a, b) = replicas(&prefix, &[]).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);

    let acme = tenant(&on_a, "acme", None).await;
    let rival = tenant(&on_a, "rival", None).await;
    // Made on A a moment ago, good on B at once.
    let created = create(&on_b, &acme, vec![])
        .await
        .expect("acme's key works on B");
    let id = created.r#match.unwrap().match_id;
    for channel in [&on_a, &on_b] {
        get(channel, &acme, &id)
            .await
            .expect("acme reads its match");
        let hidden = get(channel, &rival, &id).await.unwrap_err();
        assert_eq!(hidden.code(), Code::NotFound, "{hidden:?}");
        let listed = within(
            "list",
            MatchesClient::new(channel.clone())
                .list_matches(authed(pb::ListMatchesRequest::default(), &rival)),
        )
        .await
        .unwrap()
        .into_inner();
        assert!(listed.matches.is_empty());
    }

    // A player token issued on A plays a bound seat on B.
    let token = within(
        "issue",
        PlayersClient::new(on_a.clone()).issue_player_token(authed(
            pb::IssuePlayerTokenRequest {
                player_id: "ann".into(),
                ttl_seconds: 600,
            },
            &acme,
        )),
    )
    .await
    .unwrap()
    .into_inner()
    .token;
    let bound = create(
        &on_a,
        &acme,
        vec![pb::SeatPlayer {
            player: pb::Player::South as i32,
            player_id: "ann".into(),
        }],
    )
    .await
    .unwrap();
    within(
        "ann plays on B",
        MatchesClient::new(on_b.clone()).submit_move(authed(
            pb::SubmitMoveRequest {
                match_id: bound.r#match.unwrap().match_id,
                r#move: Some(pb::Move {
                    action: Some(pb::r#move::Action::Sow(pb::Sow {
                        pit: 0,
                        ..pb::Sow::default()
                    })),
                }),
                expected_version: Some(0),
                request_id: String::new(),
            },
            &token,
        )),
    )
    .await
    .expect("a token issued on A acts on B");

    // Revoked on A: refused on B as soon as B hears of it (its channel), well within one step.
    let key_id = acme.split('_').nth(1).unwrap().to_string();
    within(
        "revoke",
        AdminClient::new(on_a.clone()).revoke_api_key(authed(
            pb::RevokeApiKeyRequest {
                tenant_id: "acme".into(),
                key_id,
            },
            OPERATOR_KEY,
        )),
    )
    .await
    .unwrap();
    assert_eq!(
        get(&on_a, &acme, &id).await.unwrap_err().code(),
        Code::Unauthenticated,
        "at once on the replica that revoked it"
    );
    let deadline = tokio::time::Instant::now() + STEP;
    loop {
        match get(&on_b, &acme, &id).await {
            Err(status) if status.code() == Code::Unauthenticated => break,
            _ if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await
            }
            other => panic!("B still accepts a key revoked on A: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tenants_unfinished_matches_are_counted_across_replicas_and_idle_ones_expire_once() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "tenants-limits");
    let (a, b) = replicas(&prefix, &[("MANCALA__MATCHES__IDLE_EXPIRY_MS", "400")]).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);
    let limits = pb::TenantLimits {
        max_active_matches: Some(1),
        ..pb::TenantLimits::default()
    };
    let key = tenant(&on_a, "small", Some(limits)).await;
    let first = create(&on_a, &key, vec![]).await.expect("the first match");
    let refused = create(&on_b, &key, vec![]).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    // Nobody plays: both replicas sweep, the match expires once, and the tenant has room again.
    let id = first.r#match.unwrap().match_id;
    let deadline = tokio::time::Instant::now() + STEP;
    while get(&on_b, &key, &id).await.unwrap().status != pb::MatchStatus::Finished as i32 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the idle match did not expire"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let history = within(
        "history",
        MatchesClient::new(on_a.clone())
            .get_history(authed(pb::GetHistoryRequest { match_id: id }, &key)),
    )
    .await
    .unwrap()
    .into_inner();
    let expiries = history
        .events
        .iter()
        .filter(|e| matches!(e.action, Some(pb::match_event::Action::Expiry(_))))
        .count();
    assert_eq!(expiries, 1, "{history:?}");
    assert_eq!(history.events.len(), 1);
    create(&on_b, &key, vec![])
        .await
        .expect("room again once it expired");
}
