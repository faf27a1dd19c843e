//! The Players service beyond tokens and profiles, over a real channel: `WhoAmI` for each kind of caller, the
//! leaderboards (ranked by rating, with each player's record, last sight and presence), the online flag of a
//! player with his event stream open, the operator's `Admin/IssuePlayerToken`, and development mode
//! (`server.dev`): the tenant "dev" and the well-known operator key, so that a token is one call away. The same
//! across two replicas over Redis is in tests/durability/presence_redis.rs.

use crate::support::lobby::{authed, play_out, player_events, resign, within};
use crate::support::server::TestServer;
use mancala::api::pb;
use mancala::identity::keys;
use pb::admin_client::AdminClient;
use pb::lobby_client::LobbyClient;
use pb::players_client::PlayersClient;
use std::time::Duration;
use tonic::transport::Channel;
use tonic::Code;

const OPERATOR_KEY: &str = "mo_players-test-operator";

async fn server() -> TestServer {
    TestServer::start_with(|settings| {
        settings.auth.required = true;
        settings.auth.operator_key_sha256 = keys::hex(&keys::hash(OPERATOR_KEY));
        settings.bots.think_delay = Duration::ZERO;
        settings.lobby.heartbeat = Duration::from_millis(100);
    })
    .await
}

/// Tenant `id` made by the operator: its API key.
async fn tenant(channel: &Channel, id: &str) -> String {
    within(
        "CreateTenant",
        AdminClient::new(channel.clone()).create_tenant(authed(
            pb::CreateTenantRequest {
                tenant_id: id.into(),
                name: String::new(),
                limits: Some(pb::TenantLimits {
                    calls_per_second: Some(100_000),
                    burst: Some(100_000),
                    calls_per_second_per_player: Some(100_000),
                    burst_per_player: Some(100_000),
                    ..pb::TenantLimits::default()
                }),
            },
            OPERATOR_KEY,
        )),
    )
    .await
    .expect("CreateTenant")
    .into_inner()
    .api_key
}

/// The operator's token for `player` of `tenant`.
async fn operator_token(
    channel: &Channel,
    operator: &str,
    tenant: &str,
    player: &str,
) -> Result<pb::AdminIssuePlayerTokenResponse, tonic::Status> {
    within(
        "Admin/IssuePlayerToken",
        AdminClient::new(channel.clone()).issue_player_token(authed(
            pb::AdminIssuePlayerTokenRequest {
                tenant_id: tenant.into(),
                player_id: player.into(),
                ttl_seconds: 600,
            },
            operator,
        )),
    )
    .await
    .map(tonic::Response::into_inner)
}

async fn token(channel: &Channel, tenant: &str, player: &str) -> String {
    operator_token(channel, OPERATOR_KEY, tenant, player)
        .await
        .expect("a token")
        .token
}

async fn who_am_i(
    channel: &Channel,
    credential: &str,
) -> Result<pb::WhoAmIResponse, tonic::Status> {
    within(
        "WhoAmI",
        PlayersClient::new(channel.clone()).who_am_i(authed(pb::WhoAmIRequest {}, credential)),
    )
    .await
    .map(tonic::Response::into_inner)
}

async fn profile(channel: &Channel, credential: &str, player: &str) -> pb::PlayerProfile {
    within(
        "GetPlayer",
        PlayersClient::new(channel.clone()).get_player(authed(
            pb::GetPlayerRequest {
                player_id: player.into(),
            },
            credential,
        )),
    )
    .await
    .expect("GetPlayer")
    .into_inner()
    .profile
    .expect("a profile")
}

async fn leaderboard(
    channel: &Channel,
    credential: &str,
    request: pb::GetLeaderboardRequest,
) -> Result<pb::GetLeaderboardResponse, tonic::Status> {
    within(
        "GetLeaderboard",
        PlayersClient::new(channel.clone()).get_leaderboard(authed(request, credential)),
    )
    .await
    .map(tonic::Response::into_inner)
}

/// A rated Ba-awa match made by a challenge from `from` to `to`, played out with random moves: its id.
async fn rated_match(channel: &Channel, from: &str, to: &str, to_id: &str) -> String {
    let lobby = LobbyClient::new(channel.clone());
    let challenge = within(
        "CreateChallenge",
        lobby.clone().create_challenge(authed(
            pb::CreateChallengeRequest {
                to_player_id: to_id.into(),
                kind: pb::GameKind::BaAwa as i32,
                rated: true,
                ..Default::default()
            },
            from,
        )),
    )
    .await
    .expect("CreateChallenge")
    .into_inner()
    .challenge
    .unwrap();
    let accepted = within(
        "AcceptChallenge",
        lobby.clone().accept_challenge(authed(
            pb::AcceptChallengeRequest {
                challenge_id: challenge.challenge_id,
            },
            to,
        )),
    )
    .await
    .expect("AcceptChallenge")
    .into_inner();
    let id = accepted.r#match.unwrap().match_id;
    let seats = match accepted.seat == pb::Player::South as i32 {
        true => [Some(to), Some(from)],
        false => [Some(from), Some(to)],
    };
    play_out(std::slice::from_ref(channel), &id, seats).await;
    id
}

/// Polls `check` on `player`'s profile until it holds (presence changes land within a heartbeat or two).
async fn until_profile(
    channel: &Channel,
    credential: &str,
    player: &str,
    check: impl Fn(&pb::PlayerProfile) -> bool,
) -> pb::PlayerProfile {
    within("the profile awaited", async {
        loop {
            let seen = profile(channel, credential, player).await;
            if check(&seen) {
                return seen;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
}

#[tokio::test]
async fn who_am_i_names_the_callers_tenant_player_profile_and_bot_account() {
    let server = server().await;
    let channel = &server.channel;
    let key = tenant(channel, "acme").await;
    let botty = token(channel, "acme", "botty").await;
    within(
        "UpdatePlayer",
        PlayersClient::new(channel.clone()).update_player(authed(
            pb::UpdatePlayerRequest {
                player_id: String::new(),
                display_name: "Botty".into(),
                bot: Some(pb::BotAccount {
                    owner: "the bot team".into(),
                    description: String::new(),
                }),
            },
            &botty,
        )),
    )
    .await
    .expect("a player sets his own profile");
    let me = who_am_i(channel, &botty).await.expect("WhoAmI");
    assert_eq!(
        (
            me.tenant_id.as_str(),
            me.caller(),
            me.player_id.as_str(),
            me.display_name.as_str(),
            me.is_bot
        ),
        ("acme", pb::CallerKind::Player, "botty", "Botty", true)
    );
    let profile = me.profile.expect("a player's profile");
    assert_eq!(profile.bot.expect("a bot account").owner, "the bot team");
    assert_eq!(
        profile
            .ratings
            .iter()
            .map(|r| (r.kind, r.rating))
            .collect::<Vec<_>>(),
        [
            (pb::GameKind::BaoLaKete as i32, 1500.0),
            (pb::GameKind::Bosh as i32, 1500.0),
            (pb::GameKind::BaAwa as i32, 1500.0)
        ],
        "every game's rating, in GameKind order"
    );
    // The tenant's backend is the tenant, and no player.
    let backend = who_am_i(channel, &key).await.expect("WhoAmI with the key");
    assert_eq!(
        (
            backend.tenant_id.as_str(),
            backend.caller(),
            backend.player_id.as_str()
        ),
        ("acme", pb::CallerKind::TenantKey, "")
    );
    assert!(backend.profile.is_none() && !backend.is_bot);
    // No credential on a server that requires one, and a forged token, are refused.
    let anonymous = within(
        "WhoAmI without a credential",
        PlayersClient::new(channel.clone()).who_am_i(pb::WhoAmIRequest {}),
    )
    .await
    .expect_err("refused");
    assert_eq!(anonymous.code(), Code::Unauthenticated, "{anonymous:?}");
    let forged = format!("{}x", &botty[..botty.len() - 1]);
    assert_eq!(
        who_am_i(channel, &forged)
            .await
            .expect_err("refused")
            .code(),
        Code::Unauthenticated
    );
}

#[tokio::test]
async fn a_player_with_his_stream_open_is_online_until_it_closes_and_was_seen_then() {
    let server = server().await;
    let channel = &server.channel;
    let key = tenant(channel, "acme").await;
    let ann = token(channel, "acme", "ann").await;
    let before = profile(channel, &key, "ann").await;
    assert!(!before.online);
    assert_eq!(before.last_seen_at_ms, 0, "never seen");
    let stream = player_events(channel, &ann, 0).await;
    // Held as soon as the stream is open.
    let online = profile(channel, &key, "ann").await;
    assert!(online.online, "{online:?}");
    assert!(online.last_seen_at_ms > 0);
    let me = who_am_i(channel, &ann).await.unwrap().profile.unwrap();
    assert!(me.online, "WhoAmI shows it too");
    drop(stream);
    let offline = until_profile(channel, &key, "ann", |p| !p.online).await;
    assert!(
        offline.last_seen_at_ms >= online.last_seen_at_ms,
        "last seen when the stream closed: {offline:?}"
    );
    let listed = within(
        "ListPlayers",
        PlayersClient::new(channel.clone())
            .list_players(authed(pb::ListPlayersRequest::default(), &key)),
    )
    .await
    .unwrap()
    .into_inner()
    .players;
    assert!(listed.iter().all(|p| !p.online), "{listed:?}");
}

#[tokio::test]
async fn a_leaderboard_ranks_a_games_players_by_rating_with_record_last_sight_and_presence() {
    let server = server().await;
    let channel = &server.channel;
    let key = tenant(channel, "acme").await;
    let [ann, bob, cy] = [
        token(channel, "acme", "ann").await,
        token(channel, "acme", "bob").await,
        token(channel, "acme", "cy").await,
    ];
    rated_match(channel, &ann, &bob, "bob").await;
    rated_match(channel, &bob, &cy, "cy").await;
    rated_match(channel, &cy, &ann, "ann").await;
    // Dan finishes a Bosh match only: he is on Bosh's board, not on Ba-awa's.
    let dan = token(channel, "acme", "dan").await;
    let bosh = within(
        "CreateChallenge",
        LobbyClient::new(channel.clone()).create_challenge(authed(
            pb::CreateChallengeRequest {
                to_player_id: "ann".into(),
                kind: pb::GameKind::Bosh as i32,
                ..Default::default()
            },
            &dan,
        )),
    )
    .await
    .unwrap()
    .into_inner()
    .challenge
    .unwrap();
    let bosh = within(
        "AcceptChallenge",
        LobbyClient::new(channel.clone()).accept_challenge(authed(
            pb::AcceptChallengeRequest {
                challenge_id: bosh.challenge_id,
            },
            &ann,
        )),
    )
    .await
    .unwrap()
    .into_inner()
    .r#match
    .unwrap()
    .match_id;
    resign(channel, &dan, &bosh).await;
    let _cy_online = player_events(channel, &cy, 0).await;

    // The reference, from each player's own profile: rating, then rated matches, then id.
    let mut reference = Vec::new();
    for player in ["ann", "bob", "cy"] {
        let p = profile(channel, &key, player).await;
        let r = p
            .ratings
            .iter()
            .find(|r| r.kind == pb::GameKind::BaAwa as i32)
            .cloned()
            .unwrap();
        reference.push((player.to_string(), r, p.last_seen_at_ms));
    }
    reference.sort_by(|a, b| {
        b.1.rating
            .total_cmp(&a.1.rating)
            .then(b.1.rated_matches.cmp(&a.1.rated_matches))
            .then(a.0.cmp(&b.0))
    });
    let ask = |page_size, page_token: String| pb::GetLeaderboardRequest {
        kind: pb::GameKind::BaAwa as i32,
        bots_only: false,
        page_size,
        page_token,
    };
    let board = leaderboard(channel, &ann, ask(0, String::new()))
        .await
        .expect("GetLeaderboard");
    assert_eq!(board.kind, pb::GameKind::BaAwa as i32);
    assert!(board.next_page_token.is_empty());
    assert_eq!(
        board
            .entries
            .iter()
            .map(|e| (e.rank, e.player_id.clone(), e.rating.unwrap(), e.games))
            .collect::<Vec<_>>(),
        reference
            .iter()
            .zip(1..)
            .map(|((player, r, _), rank)| (rank, player.clone(), *r, 2))
            .collect::<Vec<_>>(),
        "ranked by rating, each with his two rated matches"
    );
    for entry in &board.entries {
        assert_eq!(entry.online, entry.player_id == "cy", "{entry:?}");
        assert!(
            entry.last_seen_at_ms > 0,
            "each finished a match: {entry:?}"
        );
    }
    // A page at a time, the ranks going on.
    let first = leaderboard(channel, &key, ask(2, String::new()))
        .await
        .unwrap();
    assert_eq!(first.entries.len(), 2);
    let second = leaderboard(channel, &key, ask(2, first.next_page_token.clone()))
        .await
        .unwrap();
    assert_eq!(
        second.entries.iter().map(|e| e.rank).collect::<Vec<_>>(),
        [3]
    );
    assert!(second.next_page_token.is_empty());
    // Bosh's board has the two who finished a Bosh match.
    let bosh_board = leaderboard(
        channel,
        &key,
        pb::GetLeaderboardRequest {
            kind: pb::GameKind::Bosh as i32,
            ..ask(0, String::new())
        },
    )
    .await
    .unwrap();
    let mut on_bosh: Vec<String> = bosh_board
        .entries
        .iter()
        .map(|e| e.player_id.clone())
        .collect();
    on_bosh.sort();
    assert_eq!(on_bosh, ["ann", "dan"]);
    // Bad requests name the field.
    for (request, field) in [
        (
            pb::GetLeaderboardRequest {
                kind: 0,
                ..ask(0, String::new())
            },
            "kind",
        ),
        (ask(0, "not-a-token".into()), "page_token"),
    ] {
        let refused = leaderboard(channel, &key, request)
            .await
            .expect_err("refused");
        assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
        assert!(refused.message().contains(field), "{refused:?}");
    }
}

#[tokio::test]
async fn the_operator_mints_a_tenants_player_tokens_which_die_with_the_tenants_key() {
    let server = server().await;
    let channel = &server.channel;
    tenant(channel, "acme").await;
    let minted = operator_token(channel, OPERATOR_KEY, "acme", "ann")
        .await
        .expect("minted");
    assert!(!minted.key_id.is_empty() && minted.expires_at > 0);
    assert_eq!(
        who_am_i(channel, &minted.token).await.unwrap().player_id,
        "ann"
    );
    // Not the operator, an unknown tenant, a bad player id.
    let refused = operator_token(channel, &minted.token, "acme", "bob")
        .await
        .expect_err("a player is not the operator");
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    let refused = operator_token(channel, OPERATOR_KEY, "nobody", "bob")
        .await
        .expect_err("no such tenant");
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    let refused = operator_token(channel, OPERATOR_KEY, "acme", "has space")
        .await
        .expect_err("a bad player id");
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    // Revoking the key it was issued to revokes the token; without a valid key none is minted.
    within(
        "RevokeApiKey",
        AdminClient::new(channel.clone()).revoke_api_key(authed(
            pb::RevokeApiKeyRequest {
                tenant_id: "acme".into(),
                key_id: minted.key_id.clone(),
            },
            OPERATOR_KEY,
        )),
    )
    .await
    .unwrap();
    assert_eq!(
        who_am_i(channel, &minted.token).await.unwrap_err().code(),
        Code::Unauthenticated
    );
    let refused = operator_token(channel, OPERATOR_KEY, "acme", "ann")
        .await
        .expect_err("no valid key");
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
}

#[tokio::test]
async fn development_mode_has_the_dev_tenant_and_the_well_known_operator_key() {
    let server = TestServer::start_with(|settings| settings.server.dev = true).await;
    let channel = &server.channel;
    let minted = operator_token(channel, mancala::config::DEV_OPERATOR_KEY, "dev", "my-bot")
        .await
        .expect("the dev tenant's token, with the well-known key");
    let me = who_am_i(channel, &minted.token).await.unwrap();
    assert_eq!(
        (me.tenant_id.as_str(), me.player_id.as_str()),
        ("dev", "my-bot")
    );
    // The lobby works with it at once.
    let mut events = player_events(channel, &minted.token, 0).await;
    events.heartbeat().await;
    // Not on a server out of development mode.
    let plain = TestServer::start().await;
    let refused = operator_token(
        &plain.channel,
        mancala::config::DEV_OPERATOR_KEY,
        "dev",
        "x",
    )
    .await
    .expect_err("no well-known key without development mode");
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
}
