//! The lobby over a real channel (the server in-process, auth required, one tenant, players "ann", "bob" and
//! "cy" with player tokens, a bot account "botty"): challenges made, accepted, declined, cancelled, expired and
//! offered again as rematches; seeks paired by game, options, rated flag and rating range, or falling back to
//! the server's bot; the matches played out through the Matches service with the players' tokens, moving their
//! ratings and records; the players' streams and the tenant's feed told of each step, and resumed without a gap
//! or a repeat. Every wait is for an event, bounded by `within`.

use crate::support::lobby::{
    authed, challenge, feed, finished, get_match, play_out, player_events, resign, seek, started,
    try_feed, try_player_events, within, Events,
};
use crate::support::server::TestServer;
use mancala::api::pb;
use mancala::identity::keys;
use pb::admin_client::AdminClient;
use pb::lobby_client::LobbyClient;
use pb::matches_client::MatchesClient;
use pb::players_client::PlayersClient;
use std::time::Duration;
use tonic::transport::Channel;
use tonic::{Code, Status};
use tonic_types::StatusExt;

const OPERATOR_KEY: &str = "mo_test-operator-key";
const TOKEN_SECRET: &str = "a-test-secret-of-at-least-thirty-two-bytes";

/// A server with one tenant and its players' tokens.
pub(crate) struct World {
    pub(crate) server: TestServer,
    /// The tenant's API key.
    pub(crate) key: String,
    pub(crate) ann: String,
    pub(crate) bob: String,
    pub(crate) cy: String,
    pub(crate) botty: String,
}

impl World {
    pub(crate) fn channel(&self) -> &Channel {
        &self.server.channel
    }

    pub(crate) fn lobby(&self) -> LobbyClient<Channel> {
        LobbyClient::new(self.server.channel.clone())
    }

    pub(crate) async fn events(&self, token: &str) -> Events<pb::PlayerEvent> {
        player_events(self.channel(), token, 0).await
    }
}

pub(crate) async fn world() -> World {
    world_with(|_| {}).await
}

pub(crate) async fn world_with(configure: impl FnOnce(&mut mancala::config::Settings)) -> World {
    let server = TestServer::start_with(|settings| {
        settings.auth.required = true;
        settings.auth.operator_key_sha256 = keys::hex(&keys::hash(OPERATOR_KEY));
        settings.auth.player_token_secret = TOKEN_SECRET.into();
        settings.bots.think_delay = Duration::ZERO;
        settings.lobby.sweep_interval = Duration::from_millis(20);
        settings.lobby.heartbeat = Duration::from_millis(100);
        settings.lobby.repair_interval = Duration::from_millis(500);
        configure(settings);
    })
    .await;
    let key = within(
        "CreateTenant",
        AdminClient::new(server.channel.clone()).create_tenant(authed(
            pb::CreateTenantRequest {
                tenant_id: "acme".into(),
                name: "Acme games".into(),
                limits: Some(pb::TenantLimits {
                    calls_per_second: Some(100_000),
                    burst: Some(100_000),
                    // Its players poll as fast as the test runs: each player's share as large.
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
    .api_key;
    let token = |player: &'static str| {
        let channel = server.channel.clone();
        let key = key.clone();
        async move {
            within(
                "IssuePlayerToken",
                PlayersClient::new(channel).issue_player_token(authed(
                    pb::IssuePlayerTokenRequest {
                        player_id: player.into(),
                        ttl_seconds: 600,
                    },
                    &key,
                )),
            )
            .await
            .expect("IssuePlayerToken")
            .into_inner()
            .token
        }
    };
    let (ann, bob, cy, botty) = (
        token("ann").await,
        token("bob").await,
        token("cy").await,
        token("botty").await,
    );
    let profile = within(
        "UpdatePlayer",
        PlayersClient::new(server.channel.clone()).update_player(authed(
            pb::UpdatePlayerRequest {
                player_id: "botty".into(),
                display_name: "Botty".into(),
                bot: Some(pb::BotAccount {
                    owner: "the bot team".into(),
                    description: "plays the first legal move".into(),
                }),
            },
            &key,
        )),
    )
    .await
    .expect("UpdatePlayer")
    .into_inner()
    .profile
    .expect("a profile");
    assert_eq!(profile.bot.expect("a bot account").owner, "the bot team");
    World {
        server,
        key,
        ann,
        bob,
        cy,
        botty,
    }
}

pub(crate) fn challenge_to(
    to: &str,
    kind: pb::GameKind,
    rated: bool,
    seat: pb::SeatPreference,
) -> pb::CreateChallengeRequest {
    pb::CreateChallengeRequest {
        to_player_id: to.into(),
        also_to_player_id: String::new(),
        kind: kind as i32,
        options: None,
        rated,
        seat: seat as i32,
        ttl_seconds: 0,
        time_control: None,
    }
}

pub(crate) async fn create_challenge(
    world: &World,
    token: &str,
    request: pb::CreateChallengeRequest,
) -> Result<pb::Challenge, Status> {
    within(
        "CreateChallenge",
        world.lobby().create_challenge(authed(request, token)),
    )
    .await
    .map(|r| r.into_inner().challenge.expect("a challenge"))
}

pub(crate) async fn accept(
    world: &World,
    token: &str,
    id: &str,
) -> Result<pb::AcceptChallengeResponse, Status> {
    within(
        "AcceptChallenge",
        world.lobby().accept_challenge(authed(
            pb::AcceptChallengeRequest {
                challenge_id: id.into(),
            },
            token,
        )),
    )
    .await
    .map(tonic::Response::into_inner)
}

pub(crate) async fn seek_with(
    world: &World,
    token: &str,
    request: pb::SeekRequest,
) -> Result<pb::Seek, Status> {
    within("Seek", world.lobby().seek(authed(request, token)))
        .await
        .map(|r| r.into_inner().seek.expect("a seek"))
}

pub(crate) fn seek_request(kind: pb::GameKind, rated: bool) -> pb::SeekRequest {
    pb::SeekRequest {
        kind: kind as i32,
        options: None,
        rated,
        rating_min: 0,
        rating_max: 0,
        fallback_bot_level: 0,
        fallback_after_ms: 0,
        ttl_seconds: 0,
        time_control: None,
    }
}

async fn profile(world: &World, player: &str) -> pb::PlayerProfile {
    within(
        "GetPlayer",
        PlayersClient::new(world.channel().clone()).get_player(authed(
            pb::GetPlayerRequest {
                player_id: player.into(),
            },
            &world.key,
        )),
    )
    .await
    .expect("GetPlayer")
    .into_inner()
    .profile
    .expect("a profile")
}

fn rating_in(profile: &pb::PlayerProfile, kind: pb::GameKind) -> pb::GameRating {
    profile
        .ratings
        .iter()
        .find(|r| r.kind == kind as i32)
        .cloned()
        .expect("a rating per game")
}

/// The status's ErrorInfo reason and its metadata["status"].
pub(crate) fn closed_reason(status: &Status) -> (String, String) {
    let info = status.get_details_error_info().expect("ErrorInfo");
    (
        info.reason,
        info.metadata.get("status").cloned().unwrap_or_default(),
    )
}

/// The fields a BadRequest names.
pub(crate) fn bad_fields(status: &Status) -> Vec<String> {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    status
        .get_details_bad_request()
        .expect("BadRequest")
        .field_violations
        .into_iter()
        .map(|v| v.field)
        .collect()
}

/// The challenge of `id` with status `status` on `events`.
pub(crate) async fn challenge_status(
    events: &mut Events<pb::PlayerEvent>,
    id: &str,
    status: pb::ChallengeStatus,
) -> pb::Challenge {
    events
        .until(|e| challenge(e).filter(|c| c.challenge_id == id && c.status == status as i32))
        .await
}

/// The `match_started` of `match_id` on `events`.
pub(crate) async fn started_of(
    events: &mut Events<pb::PlayerEvent>,
    match_id: &str,
) -> pb::PlayerMatchStarted {
    events
        .until(|e| started(e).filter(|s| s.match_id == match_id))
        .await
}

/// The `match_finished` of `match_id` on `events`.
pub(crate) async fn finished_of(
    events: &mut Events<pb::PlayerEvent>,
    match_id: &str,
) -> pb::PlayerMatchFinished {
    events
        .until(|e| finished(e).filter(|s| s.match_id == match_id))
        .await
}

pub(crate) fn feed_kind(event: &pb::FeedEvent) -> (&'static str, String) {
    use pb::feed_event::Event;
    match event.event.as_ref().expect("an event") {
        Event::MatchCreated(m) => ("created", m.match_id.clone()),
        Event::MatchStarted(m) => ("started", m.match_id.clone()),
        Event::MatchFinished(m) => ("finished", m.match_id.clone()),
        Event::Heartbeat(_) => ("heartbeat", String::new()),
    }
}

/// Reads the feed until match `id` is finished: its events, in order.
pub(crate) async fn feed_until_finished(
    feed: &mut Events<pb::FeedEvent>,
    id: &str,
) -> Vec<pb::FeedEvent> {
    let mut of_match = Vec::new();
    loop {
        let event = feed.next().await;
        let (kind, match_id) = feed_kind(&event);
        if match_id == id {
            of_match.push(event);
            if kind == "finished" {
                return of_match;
            }
        }
    }
}

#[tokio::test]
async fn a_rated_challenge_is_accepted_played_out_and_moves_both_ratings() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    let mut bob_events = world.events(&world.bob).await;
    let mut backend = feed(world.channel(), &world.key, 0).await;

    let made = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::BaAwa, true, pb::SeatPreference::South),
    )
    .await
    .expect("ann challenges bob");
    assert_eq!(made.status, pb::ChallengeStatus::Pending as i32);
    assert_eq!(
        (made.from_player_id.as_str(), made.to_player_id.as_str()),
        ("ann", "bob")
    );
    assert!(made.expires_at_ms > made.created_at_ms);
    let id = made.challenge_id.clone();
    // Both are told of it.
    let seen = challenge_status(&mut bob_events, &id, pb::ChallengeStatus::Pending).await;
    assert_eq!(seen, made);
    challenge_status(&mut ann_events, &id, pb::ChallengeStatus::Pending).await;
    // Bob lists it as incoming, ann as outgoing.
    let listed = within(
        "ListChallenges",
        world
            .lobby()
            .list_challenges(authed(pb::ListChallengesRequest::default(), &world.bob)),
    )
    .await
    .unwrap()
    .into_inner();
    assert_eq!(
        listed
            .incoming
            .iter()
            .map(|c| c.challenge_id.as_str())
            .collect::<Vec<_>>(),
        [id.as_str()]
    );
    assert!(listed.outgoing.is_empty());

    let accepted = accept(&world, &world.bob, &id).await.expect("bob accepts");
    assert_eq!(
        accepted.seat,
        pb::Player::North as i32,
        "ann asked for South"
    );
    let challenge_now = accepted.challenge.expect("the challenge");
    assert_eq!(challenge_now.status, pb::ChallengeStatus::Accepted as i32);
    assert_eq!(challenge_now.accepted_by_player_id, "bob");
    let m = accepted.r#match.expect("the match");
    assert_eq!(challenge_now.match_id, m.match_id);
    assert_eq!(m.seats[0].player_id, "ann");
    assert_eq!(m.seats[1].player_id, "bob");
    let match_id = m.match_id.clone();

    let for_ann = started_of(&mut ann_events, &match_id).await;
    let for_bob = started_of(&mut bob_events, &match_id).await;
    assert_eq!(for_ann.seat, pb::Player::South as i32);
    assert_eq!(for_bob.seat, pb::Player::North as i32);
    assert_eq!(for_ann.challenge_id, id);
    assert_eq!(for_bob.challenge_id, id);
    assert!(for_ann.rated && for_bob.rated);
    assert_eq!(for_ann.kind, pb::GameKind::BaAwa as i32);
    let (ann_opp, bob_opp) = (for_ann.opponent.unwrap(), for_bob.opponent.unwrap());
    assert_eq!((ann_opp.player_id.as_str(), ann_opp.bot_level), ("bob", 0));
    assert_eq!(bob_opp.player_id, "ann");
    assert_eq!(ann_opp.rating, 1500.0);
    assert!(!ann_opp.is_bot_account);

    let end = play_out(
        std::slice::from_ref(world.channel()),
        &match_id,
        [Some(&world.ann), Some(&world.bob)],
    )
    .await;
    let result = end.result.expect("a result");
    // Ended by play: by the rules, or by the rules of endless play (§1) when first-move play holds a standing.
    assert!(
        [
            pb::MatchEndReason::PlayedOut as i32,
            pb::MatchEndReason::Repetition as i32,
            pb::MatchEndReason::MatchLength as i32
        ]
        .contains(&result.reason),
        "{result:?}"
    );

    let ann_end = finished_of(&mut ann_events, &match_id).await;
    let bob_end = finished_of(&mut bob_events, &match_id).await;
    assert_eq!(ann_end.seat, pb::Player::South as i32);
    assert_eq!(bob_end.seat, pb::Player::North as i32);
    assert_eq!(ann_end.result.as_ref().unwrap().winner, result.winner);
    assert!(ann_end.rated);
    assert_eq!(ann_end.rating_changes, bob_end.rating_changes);
    let changes = &ann_end.rating_changes;
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert_eq!(
        (changes[0].player_id.as_str(), changes[1].player_id.as_str()),
        ("ann", "bob"),
        "South's first"
    );
    assert!(changes.iter().all(|c| c.before == 1500.0));

    let (ann_p, bob_p) = (profile(&world, "ann").await, profile(&world, "bob").await);
    let (ann_r, bob_r) = (
        rating_in(&ann_p, pb::GameKind::BaAwa),
        rating_in(&bob_p, pb::GameKind::BaAwa),
    );
    assert_eq!(ann_r.rating, changes[0].after);
    assert_eq!(bob_r.rating, changes[1].after);
    assert_eq!((ann_r.rated_matches, bob_r.rated_matches), (1, 1));
    assert!(ann_r.deviation < 350.0 && ann_r.provisional);
    match result.winner {
        w if w == pb::Player::South as i32 => {
            assert!(changes[0].after > 1500.0 && changes[1].after < 1500.0);
            assert_eq!(
                (ann_r.wins, ann_r.losses, bob_r.wins, bob_r.losses),
                (1, 0, 0, 1)
            );
        }
        w if w == pb::Player::North as i32 => {
            assert!(changes[0].after < 1500.0 && changes[1].after > 1500.0);
            assert_eq!(
                (ann_r.wins, ann_r.losses, bob_r.wins, bob_r.losses),
                (0, 1, 1, 0)
            );
        }
        _ => assert_eq!((ann_r.draws, bob_r.draws), (1, 1)),
    }
    // Other games are untouched.
    let bosh = rating_in(&ann_p, pb::GameKind::Bosh);
    assert_eq!((bosh.rating, bosh.rated_matches, bosh.wins), (1500.0, 0, 0));

    // The backend saw the match created, started and finished, once each.
    let of_match = feed_until_finished(&mut backend, &match_id).await;
    let kinds: Vec<&str> = of_match.iter().map(|e| feed_kind(e).0).collect();
    assert_eq!(kinds, ["created", "started", "finished"]);
    let Some(pb::feed_event::Event::MatchCreated(created)) = &of_match[0].event else {
        unreachable!()
    };
    assert_eq!(created.challenge_id, id);
    assert!(created.rated);
    assert_eq!(
        created
            .seats
            .iter()
            .map(|s| (s.player, s.player_id.as_str()))
            .collect::<Vec<_>>(),
        [
            (pb::Player::South as i32, "ann"),
            (pb::Player::North as i32, "bob")
        ]
    );
    let Some(pb::feed_event::Event::MatchFinished(done)) = &of_match[2].event else {
        unreachable!()
    };
    assert!(done.rated);
    assert_eq!(&done.rating_changes, changes);
    assert_eq!(done.result.as_ref().unwrap().winner, result.winner);
    // The players' events are the same entries as the feed's.
    let ann_ids = ann_events.ids();
    assert!(ann_ids.contains(&of_match[0].event_id) && ann_ids.contains(&of_match[2].event_id));
    assert!(
        !ann_ids.contains(&of_match[1].event_id),
        "a player is not told of the first move"
    );
}

#[tokio::test]
async fn a_declined_challenge_is_closed_for_both_and_cannot_be_accepted() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    // Opened before: a stream opened at 0 starts from now, and the decline is news only to streams open then.
    let mut bob_events = world.events(&world.bob).await;
    let made = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .unwrap();
    let declined = within(
        "DeclineChallenge",
        world.lobby().decline_challenge(authed(
            pb::DeclineChallengeRequest {
                challenge_id: made.challenge_id.clone(),
                reason: pb::DeclineReason::Later as i32,
            },
            &world.bob,
        )),
    )
    .await
    .expect("bob declines")
    .into_inner()
    .challenge
    .unwrap();
    assert_eq!(declined.status, pb::ChallengeStatus::Declined as i32);
    assert_eq!(declined.decline_reason, pb::DeclineReason::Later as i32);
    let seen = challenge_status(
        &mut ann_events,
        &made.challenge_id,
        pb::ChallengeStatus::Declined,
    )
    .await;
    assert_eq!(seen.decline_reason, pb::DeclineReason::Later as i32);
    challenge_status(
        &mut bob_events,
        &made.challenge_id,
        pb::ChallengeStatus::Declined,
    )
    .await;

    let refused = accept(&world, &world.bob, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert_eq!(
        closed_reason(&refused),
        ("CHALLENGE_CLOSED".into(), "DECLINED".into())
    );
    // Only the player challenged declines.
    let other = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .unwrap();
    for token in [&world.cy, &world.ann] {
        let refused = within(
            "DeclineChallenge",
            world.lobby().decline_challenge(authed(
                pb::DeclineChallengeRequest {
                    challenge_id: other.challenge_id.clone(),
                    reason: 0,
                },
                token,
            )),
        )
        .await
        .unwrap_err();
        assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    }
}

async fn cancel(world: &World, token: &str, id: &str) -> Result<pb::Challenge, Status> {
    within(
        "CancelChallenge",
        world.lobby().cancel_challenge(authed(
            pb::CancelChallengeRequest {
                challenge_id: id.into(),
            },
            token,
        )),
    )
    .await
    .map(|r| r.into_inner().challenge.unwrap())
}

#[tokio::test]
async fn only_the_challenger_cancels_and_both_see_it_cancelled() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    let mut bob_events = world.events(&world.bob).await;
    let made = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::BaAwa, true, pb::SeatPreference::North),
    )
    .await
    .unwrap();
    for token in [&world.bob, &world.cy] {
        let refused = cancel(&world, token, &made.challenge_id).await.unwrap_err();
        assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    }
    let cancelled = cancel(&world, &world.ann, &made.challenge_id)
        .await
        .expect("ann cancels");
    assert_eq!(cancelled.status, pb::ChallengeStatus::Cancelled as i32);
    challenge_status(
        &mut ann_events,
        &made.challenge_id,
        pb::ChallengeStatus::Cancelled,
    )
    .await;
    challenge_status(
        &mut bob_events,
        &made.challenge_id,
        pb::ChallengeStatus::Cancelled,
    )
    .await;
    let again = cancel(&world, &world.ann, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition);
    assert_eq!(
        closed_reason(&again),
        ("CHALLENGE_CLOSED".into(), "CANCELLED".into())
    );
    let refused = accept(&world, &world.bob, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(
        closed_reason(&refused),
        ("CHALLENGE_CLOSED".into(), "CANCELLED".into())
    );
    let listed = within(
        "ListChallenges",
        world
            .lobby()
            .list_challenges(authed(pb::ListChallengesRequest::default(), &world.ann)),
    )
    .await
    .unwrap()
    .into_inner();
    assert!(listed.outgoing.is_empty() && listed.incoming.is_empty());
}

#[tokio::test]
async fn an_unanswered_challenge_expires_on_both_streams_and_cannot_be_accepted_after() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    let mut bob_events = world.events(&world.bob).await;
    let made = create_challenge(
        &world,
        &world.ann,
        pb::CreateChallengeRequest {
            ttl_seconds: 1,
            ..challenge_to("bob", pb::GameKind::Bosh, true, pb::SeatPreference::Random)
        },
    )
    .await
    .unwrap();
    assert_eq!(made.expires_at_ms - made.created_at_ms, 1000);
    let expired = challenge_status(
        &mut ann_events,
        &made.challenge_id,
        pb::ChallengeStatus::Expired,
    )
    .await;
    assert_eq!(expired.expires_at_ms, made.expires_at_ms);
    challenge_status(
        &mut bob_events,
        &made.challenge_id,
        pb::ChallengeStatus::Expired,
    )
    .await;
    let refused = accept(&world, &world.bob, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert_eq!(
        closed_reason(&refused),
        ("CHALLENGE_CLOSED".into(), "EXPIRED".into())
    );
    // A ttl beyond the server's longest is refused.
    let refused = create_challenge(
        &world,
        &world.ann,
        pb::CreateChallengeRequest {
            ttl_seconds: u32::MAX,
            ..challenge_to("bob", pb::GameKind::Bosh, true, pb::SeatPreference::Random)
        },
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["ttl_seconds"]);
}

#[tokio::test]
async fn a_challenge_to_another_player_is_not_the_callers_to_accept_and_accepting_twice_is_closed()
{
    let world = world().await;
    let made = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .unwrap();
    let refused = accept(&world, &world.cy, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let refused = accept(&world, &world.ann, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(
        refused.code(),
        Code::PermissionDenied,
        "the challenger is not the one challenged: {refused:?}"
    );
    let first = accept(&world, &world.bob, &made.challenge_id)
        .await
        .expect("bob accepts");
    let again = accept(&world, &world.bob, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition, "{again:?}");
    assert_eq!(
        closed_reason(&again),
        ("CHALLENGE_CLOSED".into(), "ACCEPTED".into())
    );
    // One match was made: bob's stream has one match_started, for it.
    let mut bob_events = world.events(&world.bob).await;
    let match_id = first.r#match.unwrap().match_id;
    started_of(&mut bob_events, &match_id).await;
    // Random seats: each has one.
    let m = get_match(world.channel(), &world.bob, &match_id).await;
    let mut seated = [m.seats[0].player_id.clone(), m.seats[1].player_id.clone()];
    seated.sort();
    assert_eq!(seated, ["ann", "bob"]);
    let refused = accept(&world, &world.bob, "0123456789abcdef0123456789abcdef")
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
}

#[tokio::test]
async fn an_open_challenge_is_taken_by_a_third_player_and_a_bot_account_shows_as_one() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    let mut botty_events = world.events(&world.botty).await;
    let made = create_challenge(
        &world,
        &world.ann,
        challenge_to("", pb::GameKind::BaAwa, false, pb::SeatPreference::South),
    )
    .await
    .unwrap();
    assert_eq!(made.to_player_id, "");
    let refused = accept(&world, &world.ann, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(bad_fields(&refused), ["challenge_id"], "not one's own");
    let accepted = accept(&world, &world.botty, &made.challenge_id)
        .await
        .expect("botty takes it");
    assert_eq!(accepted.seat, pb::Player::North as i32);
    assert_eq!(
        accepted.challenge.as_ref().unwrap().accepted_by_player_id,
        "botty"
    );
    let match_id = accepted.r#match.unwrap().match_id;
    let for_ann = started_of(&mut ann_events, &match_id).await;
    let opponent = for_ann.opponent.unwrap();
    assert_eq!(opponent.player_id, "botty");
    assert!(opponent.is_bot_account, "botty is a bot account");
    let for_botty = started_of(&mut botty_events, &match_id).await;
    assert_eq!(for_botty.challenge_id, made.challenge_id);
    assert!(!for_botty.opponent.unwrap().is_bot_account);
    // Only bots listed with bots_only.
    let bots = within(
        "ListPlayers",
        PlayersClient::new(world.channel().clone()).list_players(authed(
            pb::ListPlayersRequest {
                bots_only: true,
                page_size: 0,
                page_token: String::new(),
            },
            &world.key,
        )),
    )
    .await
    .unwrap()
    .into_inner();
    assert_eq!(
        bots.players
            .iter()
            .map(|p| p.player_id.as_str())
            .collect::<Vec<_>>(),
        ["botty"]
    );
    // Someone else cannot take it any more.
    let again = accept(&world, &world.cy, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(
        closed_reason(&again),
        ("CHALLENGE_CLOSED".into(), "ACCEPTED".into())
    );
    // Cy was told of nothing: his first event is his own challenge, made now.
    let mut cy_events = world.events(&world.cy).await;
    let mine = create_challenge(
        &world,
        &world.cy,
        challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .unwrap();
    let first = challenge(&cy_events.next().await).expect("a challenge first");
    assert_eq!(first.challenge_id, mine.challenge_id);
}

#[tokio::test]
async fn a_rematch_after_a_finished_match_swaps_the_seats() {
    let world = world().await;
    let made = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::Bosh, true, pb::SeatPreference::South),
    )
    .await
    .unwrap();
    let accepted = accept(&world, &world.bob, &made.challenge_id)
        .await
        .unwrap();
    let first = accepted.r#match.unwrap().match_id;
    // Not before it is over.
    let refused = within(
        "OfferRematch",
        world.lobby().offer_rematch(authed(
            pb::OfferRematchRequest {
                match_id: first.clone(),
                ttl_seconds: 0,
            },
            &world.ann,
        )),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert_eq!(
        refused.get_details_error_info().expect("ErrorInfo").reason,
        "NO_REMATCH"
    );
    let mut bob_events = world.events(&world.bob).await;
    resign(world.channel(), &world.ann, &first).await;
    let end = finished_of(&mut bob_events, &first).await;
    assert_eq!(
        end.result.unwrap().reason,
        pb::MatchEndReason::Resignation as i32
    );
    assert_eq!(
        end.rating_changes.len(),
        2,
        "a resignation of a rated match moves the ratings"
    );
    // Not by a player of no seat in it.
    let refused = within(
        "OfferRematch",
        world.lobby().offer_rematch(authed(
            pb::OfferRematchRequest {
                match_id: first.clone(),
                ttl_seconds: 0,
            },
            &world.cy,
        )),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");

    let offer = within(
        "OfferRematch",
        world.lobby().offer_rematch(authed(
            pb::OfferRematchRequest {
                match_id: first.clone(),
                ttl_seconds: 0,
            },
            &world.ann,
        )),
    )
    .await
    .expect("ann offers a rematch")
    .into_inner()
    .challenge
    .unwrap();
    assert_eq!(offer.to_player_id, "bob");
    assert_eq!(offer.rematch_of_match_id, first);
    assert_eq!(
        offer.seat,
        pb::SeatPreference::North as i32,
        "ann was South"
    );
    assert!(offer.rated);
    assert_eq!(offer.kind, pb::GameKind::Bosh as i32);
    let seen = challenge_status(
        &mut bob_events,
        &offer.challenge_id,
        pb::ChallengeStatus::Pending,
    )
    .await;
    assert_eq!(seen.rematch_of_match_id, first);
    let second = accept(&world, &world.bob, &offer.challenge_id)
        .await
        .expect("bob accepts");
    // Each is shown the other's rating as the first match left it.
    let rematch = started_of(&mut bob_events, &second.r#match.as_ref().unwrap().match_id).await;
    assert_eq!(
        rematch.opponent.unwrap().rating,
        end.rating_changes[0].after
    );
    let m = second.r#match.unwrap();
    assert_eq!(
        (m.seats[0].player_id.as_str(), m.seats[1].player_id.as_str()),
        ("bob", "ann")
    );
    assert_eq!(second.seat, pb::Player::South as i32);
}

#[tokio::test]
async fn seeks_pair_by_game_rated_flag_and_rating_range() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    let mut cy_events = world.events(&world.cy).await;
    let ann_seek = seek_with(&world, &world.ann, seek_request(pb::GameKind::Bosh, true))
        .await
        .unwrap();
    assert_eq!(ann_seek.status, pb::SeekStatus::Open as i32);
    let seen = ann_events.until(seek).await;
    assert_eq!(seen, ann_seek);
    // Bob wants opponents of 1600 and more: ann (1500) is not one; bob is not paired.
    let bob_seek = seek_with(
        &world,
        &world.bob,
        pb::SeekRequest {
            rating_min: 1600,
            ..seek_request(pb::GameKind::Bosh, true)
        },
    )
    .await
    .unwrap();
    assert_eq!(bob_seek.status, pb::SeekStatus::Open as i32);
    // Cy's unrated Bosh and rated Ba-awa seeks match nobody.
    let unrated = seek_with(&world, &world.cy, seek_request(pb::GameKind::Bosh, false))
        .await
        .unwrap();
    assert_eq!(unrated.status, pb::SeekStatus::Open as i32);
    let other_game = seek_with(&world, &world.cy, seek_request(pb::GameKind::BaAwa, true))
        .await
        .unwrap();
    assert_eq!(other_game.status, pb::SeekStatus::Open as i32);
    // Cy's rated Bosh seek, open to 1400..1600, pairs with ann's (the oldest compatible), not bob's.
    let paired = seek_with(
        &world,
        &world.cy,
        pb::SeekRequest {
            rating_min: 1400,
            rating_max: 1600,
            ..seek_request(pb::GameKind::Bosh, true)
        },
    )
    .await
    .unwrap();
    assert_eq!(paired.status, pb::SeekStatus::Paired as i32, "{paired:?}");
    assert_eq!(paired.opponent_player_id, "ann");
    let match_id = paired.match_id.clone();
    let for_ann = started_of(&mut ann_events, &match_id).await;
    assert_eq!(for_ann.seek_id, ann_seek.seek_id);
    assert!(for_ann.rated);
    assert_eq!(for_ann.opponent.unwrap().player_id, "cy");
    let for_cy = started_of(&mut cy_events, &match_id).await;
    assert_eq!(for_cy.seek_id, paired.seek_id);
    assert_ne!(for_ann.seat, for_cy.seat);
    let m = get_match(world.channel(), &world.ann, &match_id).await;
    assert_eq!(m.kind, pb::GameKind::Bosh as i32);
    // Bob's seek is still open: he can cancel it, and then not again.
    let cancelled = cancel_seek(&world, &world.bob, &bob_seek.seek_id)
        .await
        .expect("still open");
    assert_eq!(cancelled.status, pb::SeekStatus::Cancelled as i32);
    // Ann's is paired: closed.
    let refused = cancel_seek(&world, &world.ann, &ann_seek.seek_id)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert_eq!(
        closed_reason(&refused),
        ("SEEK_CLOSED".into(), "PAIRED".into())
    );
    // The rated match between two seekers moves ratings.
    let mut backend = feed(world.channel(), &world.key, 0).await;
    resign(world.channel(), &world.cy, &match_id).await;
    let end = finished_of(&mut cy_events, &match_id).await;
    assert_eq!(end.rating_changes.len(), 2);
    let of_match = feed_until_finished(&mut backend, &match_id).await;
    let Some(pb::feed_event::Event::MatchCreated(created)) = &of_match[0].event else {
        panic!("created first: {of_match:?}")
    };
    let mut seeks = created.seek_ids.clone();
    seeks.sort();
    let mut expected = vec![ann_seek.seek_id.clone(), paired.seek_id.clone()];
    expected.sort();
    assert_eq!(seeks, expected);
}

async fn cancel_seek(world: &World, token: &str, id: &str) -> Result<pb::Seek, Status> {
    within(
        "CancelSeek",
        world
            .lobby()
            .cancel_seek(authed(pb::CancelSeekRequest { seek_id: id.into() }, token)),
    )
    .await
    .map(|r| r.into_inner().seek.unwrap())
}

#[tokio::test]
async fn a_seek_falls_back_to_the_servers_bot_and_the_match_is_played_against_it() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    let sought = seek_with(
        &world,
        &world.ann,
        pb::SeekRequest {
            fallback_bot_level: 1,
            fallback_after_ms: 50,
            ..seek_request(pb::GameKind::BaAwa, true)
        },
    )
    .await
    .unwrap();
    assert_eq!(sought.status, pb::SeekStatus::Open as i32);
    let begun = ann_events.until(started).await;
    assert_eq!(begun.seek_id, sought.seek_id);
    assert!(!begun.rated, "a fallback is never rated");
    let opponent = begun.opponent.unwrap();
    assert_eq!(
        (
            opponent.player_id.as_str(),
            opponent.bot_level,
            opponent.rating
        ),
        ("", 1, 0.0)
    );
    let m = get_match(world.channel(), &world.ann, &begun.match_id).await;
    let ann_seat = usize::from(begun.seat == pb::Player::North as i32);
    assert_eq!(m.seats[ann_seat].player_id, "ann");
    assert_eq!(m.seats[1 - ann_seat].bot_level, 1);
    let mut tokens = [None, None];
    tokens[ann_seat] = Some(world.ann.as_str());
    let end = play_out(
        std::slice::from_ref(world.channel()),
        &begun.match_id,
        tokens,
    )
    .await;
    let winner = end.result.unwrap().winner;
    let done = finished_of(&mut ann_events, &begun.match_id).await;
    assert!(!done.rated && done.rating_changes.is_empty());
    let standing = rating_in(&profile(&world, "ann").await, pb::GameKind::BaAwa);
    assert_eq!((standing.rating, standing.rated_matches), (1500.0, 0));
    assert_eq!(
        standing.wins + standing.losses + standing.draws,
        1,
        "{standing:?}"
    );
    if winner == begun.seat {
        assert_eq!(standing.wins, 1);
    }
    // A rematch of a match against the server's bot is refused.
    let refused = within(
        "OfferRematch",
        world.lobby().offer_rematch(authed(
            pb::OfferRematchRequest {
                match_id: begun.match_id.clone(),
                ttl_seconds: 0,
            },
            &world.ann,
        )),
    )
    .await
    .unwrap_err();
    assert_eq!(
        refused.get_details_error_info().expect("ErrorInfo").reason,
        "NO_REMATCH"
    );
}

#[tokio::test]
async fn a_seek_is_cancelled_by_its_seeker_only_or_expires() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    let sought = seek_with(&world, &world.ann, seek_request(pb::GameKind::BaAwa, false))
        .await
        .unwrap();
    let refused = cancel_seek(&world, &world.bob, &sought.seek_id)
        .await
        .unwrap_err();
    assert_eq!(
        refused.code(),
        Code::PermissionDenied,
        "another player's seek: {refused:?}"
    );
    let refused = cancel_seek(&world, &world.bob, "0123456789abcdef0123456789abcdef")
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    let cancelled = cancel_seek(&world, &world.ann, &sought.seek_id)
        .await
        .expect("ann cancels");
    assert_eq!(cancelled.status, pb::SeekStatus::Cancelled as i32);
    ann_events
        .until(|e| {
            seek(e).filter(|s| {
                s.seek_id == sought.seek_id && s.status == pb::SeekStatus::Cancelled as i32
            })
        })
        .await;
    let again = cancel_seek(&world, &world.ann, &sought.seek_id)
        .await
        .unwrap_err();
    assert_eq!(
        closed_reason(&again),
        ("SEEK_CLOSED".into(), "CANCELLED".into())
    );

    let short = seek_with(
        &world,
        &world.ann,
        pb::SeekRequest {
            ttl_seconds: 1,
            ..seek_request(pb::GameKind::BaAwa, false)
        },
    )
    .await
    .unwrap();
    let expired = ann_events
        .until(|e| {
            seek(e)
                .filter(|s| s.seek_id == short.seek_id && s.status != pb::SeekStatus::Open as i32)
        })
        .await;
    assert_eq!(expired.status, pb::SeekStatus::Expired as i32);
    let refused = cancel_seek(&world, &world.ann, &short.seek_id)
        .await
        .unwrap_err();
    assert_eq!(
        closed_reason(&refused),
        ("SEEK_CLOSED".into(), "EXPIRED".into())
    );
}

#[tokio::test]
async fn a_stream_resumed_after_its_last_event_misses_nothing_and_repeats_nothing() {
    let world = world().await;
    let mut whole = world.events(&world.ann).await;
    let mut first = world.events(&world.ann).await;
    let challenge_ann =
        |to: &'static str| challenge_to(to, pb::GameKind::Bosh, false, pb::SeatPreference::Random);
    // Events for ann, and some for others only in between.
    let mut made = Vec::new();
    for to in ["bob", "cy", "bob"] {
        made.push(
            create_challenge(&world, &world.ann, challenge_ann(to))
                .await
                .unwrap(),
        );
        create_challenge(&world, &world.bob, challenge_ann("cy"))
            .await
            .unwrap();
    }
    for _ in 0..3 {
        first.next().await;
    }
    let cut = first.last_id();
    drop(first);
    // More while it is away: a decline, a match, its end.
    within(
        "DeclineChallenge",
        world.lobby().decline_challenge(authed(
            pb::DeclineChallengeRequest {
                challenge_id: made[1].challenge_id.clone(),
                reason: 0,
            },
            &world.cy,
        )),
    )
    .await
    .unwrap();
    let accepted = accept(&world, &world.bob, &made[0].challenge_id)
        .await
        .unwrap();
    let match_id = accepted.r#match.unwrap().match_id;
    resign(world.channel(), &world.bob, &match_id).await;
    let seen_all = finished_of(&mut whole, &match_id).await;
    assert_eq!(seen_all.match_id, match_id);
    let last = whole.last_id();

    let mut resumed = player_events(world.channel(), &world.ann, cut).await;
    while resumed.last_id() < last {
        resumed.next().await;
    }
    // It opens with what stands for ann, made at or before the cut (her third challenge, still pending), restated
    // as the event that made it, and a heartbeat at the cut; then the events after the cut.
    let (restated, news): (Vec<_>, Vec<_>) = resumed.seen.iter().cloned().partition(|e| e.restated);
    assert_eq!(
        restated,
        [pb::PlayerEvent {
            restated: true,
            ..whole.seen[2].clone()
        }],
        "the pending challenge is restated"
    );
    assert_eq!(resumed.last_heartbeat.map(|_| ()), Some(()));
    let mut joined = whole.ids()[..3].to_vec();
    assert_eq!(joined.last(), Some(&cut));
    joined.extend(news.iter().map(|e| e.event_id));
    assert_eq!(
        joined,
        whole.ids(),
        "the two streams together are the whole one"
    );
    assert_eq!(news, whole.seen[3..], "the same events");

    // Heartbeats carry the latest id passed: at least the last event, and a point to resume from.
    let mark = resumed.heartbeat().await;
    assert!(mark >= last, "{mark} < {last}");
    let from_mark = player_events(world.channel(), &world.ann, mark).await;
    drop(from_mark);
    // Nothing is after the latest id.
    let refused = try_player_events(world.channel(), &world.ann, mark + 1_000)
        .await
        .err()
        .expect("refused");
    assert_eq!(refused.code(), Code::OutOfRange, "{refused:?}");
    let refused = try_feed(world.channel(), &world.key, mark + 1_000)
        .await
        .err()
        .expect("refused");
    assert_eq!(refused.code(), Code::OutOfRange, "{refused:?}");
    // The feed's heartbeats too.
    let mut backend = feed(world.channel(), &world.key, mark).await;
    assert!(backend.heartbeat().await >= mark);
}

#[tokio::test]
async fn bad_requests_are_refused_naming_the_field_and_credentials_are_checked() {
    let world = world().await;
    let refused = create_challenge(
        &world,
        &world.ann,
        pb::CreateChallengeRequest {
            kind: 0,
            ..challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random)
        },
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["kind"]);
    let refused = create_challenge(
        &world,
        &world.ann,
        challenge_to(
            "bob smith",
            pb::GameKind::Bosh,
            false,
            pb::SeatPreference::Random,
        ),
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["to_player_id"]);
    let refused = create_challenge(
        &world,
        &world.ann,
        challenge_to("ann", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["to_player_id"]);
    let refused = create_challenge(
        &world,
        &world.ann,
        pb::CreateChallengeRequest {
            seat: 7,
            ..challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random)
        },
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["seat"]);
    for id in ["", "xyz", "0123456789ABCDEF0123456789ABCDEF0"] {
        let refused = accept(&world, &world.bob, id).await.unwrap_err();
        assert_eq!(bad_fields(&refused), ["challenge_id"], "{id:?}");
        let refused = cancel_seek(&world, &world.bob, id).await.unwrap_err();
        assert_eq!(bad_fields(&refused), ["seek_id"], "{id:?}");
    }
    let refused = within(
        "DeclineChallenge",
        world.lobby().decline_challenge(authed(
            pb::DeclineChallengeRequest {
                challenge_id: "0123456789abcdef0123456789abcdef".into(),
                reason: 99,
            },
            &world.bob,
        )),
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["reason"]);
    let refused = seek_with(
        &world,
        &world.ann,
        seek_request(pb::GameKind::Unspecified, false),
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["kind"]);
    let refused = seek_with(
        &world,
        &world.ann,
        pb::SeekRequest {
            rating_min: 1600,
            rating_max: 1400,
            ..seek_request(pb::GameKind::Bosh, false)
        },
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["rating_min"]);
    let refused = seek_with(
        &world,
        &world.ann,
        pb::SeekRequest {
            fallback_bot_level: 99,
            ..seek_request(pb::GameKind::Bosh, false)
        },
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["fallback_bot_level"]);
    let refused = within(
        "OfferRematch",
        world.lobby().offer_rematch(authed(
            pb::OfferRematchRequest {
                match_id: "nope".into(),
                ttl_seconds: 0,
            },
            &world.ann,
        )),
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["match_id"]);

    // The API key acts for no player here.
    let refused = create_challenge(
        &world,
        &world.key,
        challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let refused = seek_with(&world, &world.key, seek_request(pb::GameKind::Bosh, false))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let refused = try_player_events(world.channel(), &world.key, 0)
        .await
        .err()
        .expect("refused");
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    // The feed is the backend's: not a player's.
    let refused = try_feed(world.channel(), &world.ann, 0)
        .await
        .err()
        .expect("refused");
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    // Without a credential, or with a forged one.
    let refused = within(
        "ListChallenges",
        world
            .lobby()
            .list_challenges(pb::ListChallengesRequest::default()),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    let refused = try_player_events(world.channel(), "not-a-token", 0)
        .await
        .err()
        .expect("refused");
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    // A player token sets its own profile only.
    let refused = within(
        "UpdatePlayer",
        PlayersClient::new(world.channel().clone()).update_player(authed(
            pb::UpdatePlayerRequest {
                player_id: "bob".into(),
                display_name: "Not Bob".into(),
                bot: None,
            },
            &world.ann,
        )),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let refused = within(
        "UpdatePlayer",
        PlayersClient::new(world.channel().clone()).update_player(authed(
            pb::UpdatePlayerRequest {
                player_id: String::new(),
                display_name: "x".repeat(65),
                bot: None,
            },
            &world.ann,
        )),
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["display_name"]);
}

#[tokio::test]
async fn a_match_created_directly_with_bound_seats_is_on_both_streams_and_the_feed() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    let mut bob_events = world.events(&world.bob).await;
    let mut backend = feed(world.channel(), &world.key, 0).await;
    let created = within(
        "CreateMatch",
        MatchesClient::new(world.channel().clone()).create_match(authed(
            pb::CreateMatchRequest {
                kind: pb::GameKind::BaAwa as i32,
                options: None,
                players: vec![
                    pb::SeatPlayer {
                        player: pb::Player::South as i32,
                        player_id: "bob".into(),
                    },
                    pb::SeatPlayer {
                        player: pb::Player::North as i32,
                        player_id: "ann".into(),
                    },
                ],
                bots: vec![],
                time_control: None,
                start: None,
            },
            &world.key,
        )),
    )
    .await
    .expect("CreateMatch")
    .into_inner();
    let match_id = created.r#match.unwrap().match_id;
    let for_ann = started_of(&mut ann_events, &match_id).await;
    assert_eq!(for_ann.seat, pb::Player::North as i32);
    assert_eq!(
        (for_ann.challenge_id.as_str(), for_ann.seek_id.as_str()),
        ("", "")
    );
    assert!(!for_ann.rated);
    assert_eq!(for_ann.opponent.unwrap().player_id, "bob");
    let for_bob = started_of(&mut bob_events, &match_id).await;
    assert_eq!(for_bob.seat, pb::Player::South as i32);

    let end = play_out(
        std::slice::from_ref(world.channel()),
        &match_id,
        [Some(&world.bob), Some(&world.ann)],
    )
    .await;
    let winner = end.result.unwrap().winner;
    let done = finished_of(&mut ann_events, &match_id).await;
    assert!(!done.rated && done.rating_changes.is_empty());
    finished_of(&mut bob_events, &match_id).await;
    let of_match = feed_until_finished(&mut backend, &match_id).await;
    assert_eq!(
        of_match.iter().map(|e| feed_kind(e).0).collect::<Vec<_>>(),
        ["created", "started", "finished"]
    );
    let Some(pb::feed_event::Event::MatchCreated(made)) = &of_match[0].event else {
        unreachable!()
    };
    assert_eq!(made.challenge_id, "");
    assert!(made.seek_ids.is_empty());
    assert_eq!(made.seats[0].player_id, "bob");
    let standing = rating_in(&profile(&world, "bob").await, pb::GameKind::BaAwa);
    assert_eq!((standing.rating, standing.rated_matches), (1500.0, 0));
    assert_eq!(standing.wins + standing.losses + standing.draws, 1);
    if winner == pb::Player::South as i32 {
        assert_eq!(standing.wins, 1);
    }
}

#[tokio::test]
async fn a_quiet_stream_gets_its_heartbeats_while_others_keep_the_tenant_busy() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    // Bob and cy challenge each other and cancel, without a pause, until told to stop: entries keep coming,
    // none of them ann's.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let busy = {
        let (channel, bob, stop) = (world.channel().clone(), world.bob.clone(), stop.clone());
        tokio::spawn(async move {
            let mut lobby = LobbyClient::new(channel);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let made = lobby
                    .create_challenge(authed(
                        challenge_to("cy", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
                        &bob,
                    ))
                    .await
                    .expect("bob challenges")
                    .into_inner()
                    .challenge
                    .unwrap();
                lobby
                    .cancel_challenge(authed(
                        pb::CancelChallengeRequest {
                            challenge_id: made.challenge_id,
                        },
                        &bob,
                    ))
                    .await
                    .expect("bob cancels");
            }
        })
    };
    let first = ann_events.heartbeat().await;
    let second = ann_events.heartbeat().await;
    assert!(second >= first);
    assert!(
        ann_events.seen.is_empty(),
        "nothing of the traffic is ann's"
    );
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    within("the traffic stops", busy).await.unwrap();
}

#[tokio::test]
async fn a_player_holds_a_bounded_number_of_streams_and_a_closed_one_frees_its_place() {
    let world = world().await;
    let mut open = Vec::new();
    for _ in 0..4 {
        open.push(world.events(&world.ann).await);
    }
    let refused = try_player_events(world.channel(), &world.ann, 0)
        .await
        .err()
        .expect("refused");
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    // Another player is not held back by ann's.
    let _bob = world.events(&world.bob).await;
    drop(open.pop());
    // The server notices the closed stream when it next looks: ask until it has.
    let reopened = within("a place frees up", async {
        loop {
            match try_player_events(world.channel(), &world.ann, 0).await {
                Ok(events) => return events,
                Err(status) if status.code() == Code::ResourceExhausted => {
                    tokio::task::yield_now().await
                }
                Err(status) => panic!("{status:?}"),
            }
        }
    })
    .await;
    drop(reopened);
}

#[tokio::test]
async fn a_player_has_a_bounded_number_of_pending_challenges_and_open_seeks() {
    let server_world = world().await;
    let world = &server_world;
    // The default limit is 20: make 20, then one more is refused, whether challenge or seek.
    let mut made = Vec::new();
    for i in 0..20 {
        if i % 2 == 0 {
            made.push(
                create_challenge(
                    world,
                    &world.ann,
                    challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
                )
                .await
                .expect("within the limit"),
            );
        } else {
            seek_with(
                world,
                &world.ann,
                seek_request(pb::GameKind::BaoLaKete, false),
            )
            .await
            .expect("within the limit");
        }
    }
    let refused = create_challenge(
        world,
        &world.ann,
        challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    let refused = seek_with(world, &world.ann, seek_request(pb::GameKind::Bosh, false))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    // Answered challenges free their places.
    cancel(world, &world.ann, &made[0].challenge_id)
        .await
        .unwrap();
    create_challenge(
        world,
        &world.ann,
        challenge_to("cy", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .expect("a place again");
    // Others are not held back by ann's.
    create_challenge(
        world,
        &world.bob,
        challenge_to("ann", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .expect("bob's own limit");
}

#[tokio::test]
async fn a_challenges_options_reach_the_match_and_the_streams() {
    let world = world().await;
    let mut bob_events = world.events(&world.bob).await;
    let options = pb::GameOptions {
        first_player: pb::Player::North as i32,
        ba_awa_target: 12,
        ..Default::default()
    };
    let made = create_challenge(
        &world,
        &world.ann,
        pb::CreateChallengeRequest {
            options: Some(options),
            ..challenge_to("bob", pb::GameKind::BaAwa, false, pb::SeatPreference::South)
        },
    )
    .await
    .unwrap();
    assert_eq!(made.options, Some(options));
    let seen = challenge_status(
        &mut bob_events,
        &made.challenge_id,
        pb::ChallengeStatus::Pending,
    )
    .await;
    assert_eq!(seen.options, Some(options), "as stored and read back");
    let accepted = accept(&world, &world.bob, &made.challenge_id)
        .await
        .unwrap();
    let m = accepted.r#match.unwrap();
    assert_eq!(m.options, Some(options));
    assert_eq!(m.state.unwrap().to_move, pb::Player::North as i32);
    let begun = started_of(&mut bob_events, &m.match_id).await;
    assert_eq!(begun.options, Some(options));
    // A seek with these options pairs only with the same options.
    let plain = seek_with(&world, &world.ann, seek_request(pb::GameKind::BaAwa, false))
        .await
        .unwrap();
    let other = seek_with(
        &world,
        &world.bob,
        pb::SeekRequest {
            options: Some(options),
            ..seek_request(pb::GameKind::BaAwa, false)
        },
    )
    .await
    .unwrap();
    assert_eq!(
        other.status,
        pb::SeekStatus::Open as i32,
        "not ann's plain seek"
    );
    // Default options spelled out are the defaults.
    let spelled = seek_with(
        &world,
        &world.cy,
        pb::SeekRequest {
            options: Some(pb::GameOptions {
                first_player: pb::Player::South as i32,
                ba_awa_target: 10,
                ..Default::default()
            }),
            ..seek_request(pb::GameKind::BaAwa, false)
        },
    )
    .await
    .unwrap();
    assert_eq!(spelled.status, pb::SeekStatus::Paired as i32, "{spelled:?}");
    assert_eq!(spelled.opponent_player_id, "ann");
    let _ = plain;
}

#[tokio::test]
async fn a_challenges_time_control_reaches_the_match_and_seeks_pair_only_with_the_same_one() {
    let world = world().await;
    let blitz = pb::TimeControl {
        control: Some(pb::time_control::Control::Fischer(pb::FischerTime {
            initial_ms: 180_000,
            increment_ms: 2_000,
        })),
    };
    let made = create_challenge(
        &world,
        &world.ann,
        pb::CreateChallengeRequest {
            time_control: Some(blitz),
            ..challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::South)
        },
    )
    .await
    .unwrap();
    assert_eq!(made.time_control, Some(blitz));
    let accepted = accept(&world, &world.bob, &made.challenge_id)
        .await
        .unwrap();
    let m = accepted.r#match.unwrap();
    assert_eq!(m.time_control, Some(blitz));
    let clocks = m.clocks.expect("a timed match shows its clocks");
    assert_eq!(clocks.remaining_ms, vec![180_000, 180_000]);
    // Seeks: an untimed one waits while a timed one is open, and two timed alike pair.
    let timed = seek_with(
        &world,
        &world.ann,
        pb::SeekRequest {
            time_control: Some(blitz),
            ..seek_request(pb::GameKind::Bosh, false)
        },
    )
    .await
    .unwrap();
    let untimed = seek_with(&world, &world.cy, seek_request(pb::GameKind::Bosh, false))
        .await
        .unwrap();
    assert_eq!(untimed.status, pb::SeekStatus::Open as i32, "{untimed:?}");
    let paired = seek_with(
        &world,
        &world.bob,
        pb::SeekRequest {
            time_control: Some(blitz),
            ..seek_request(pb::GameKind::Bosh, false)
        },
    )
    .await
    .unwrap();
    assert_eq!(paired.status, pb::SeekStatus::Paired as i32, "{paired:?}");
    assert_eq!(paired.opponent_player_id, "ann");
    let _ = timed;
    // A time control the server would refuse is refused at once, naming the field.
    let refused = create_challenge(
        &world,
        &world.ann,
        pb::CreateChallengeRequest {
            time_control: Some(pb::TimeControl {
                control: Some(pb::time_control::Control::Correspondence(
                    pb::CorrespondenceTime { days_per_move: 99 },
                )),
            }),
            ..challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::South)
        },
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), vec!["time_control".to_string()]);
}

#[tokio::test]
async fn another_tenants_players_see_none_of_this_tenants_lobby() {
    let world = world().await;
    let rival_key = within(
        "CreateTenant",
        AdminClient::new(world.channel().clone()).create_tenant(authed(
            pb::CreateTenantRequest {
                tenant_id: "rival".into(),
                name: String::new(),
                limits: None,
            },
            OPERATOR_KEY,
        )),
    )
    .await
    .unwrap()
    .into_inner()
    .api_key;
    let rival_bob = within(
        "IssuePlayerToken",
        PlayersClient::new(world.channel().clone()).issue_player_token(authed(
            pb::IssuePlayerTokenRequest {
                player_id: "bob".into(),
                ttl_seconds: 600,
            },
            &rival_key,
        )),
    )
    .await
    .unwrap()
    .into_inner()
    .token;
    let mut rival_events = player_events(world.channel(), &rival_bob, 0).await;
    let mut rival_feed = feed(world.channel(), &rival_key, 0).await;
    let mut bob_events = world.events(&world.bob).await;
    let made = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::BaAwa, true, pb::SeatPreference::South),
    )
    .await
    .unwrap();
    let refused = accept(&world, &rival_bob, &made.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    let accepted = accept(&world, &world.bob, &made.challenge_id)
        .await
        .unwrap();
    resign(
        world.channel(),
        &world.bob,
        &accepted.r#match.unwrap().match_id,
    )
    .await;
    bob_events.until(finished).await;
    // The rival's bob is still at 1500 and his stream and feed told of nothing: their first events are ones of
    // their own tenant, made now.
    let standing = within(
        "GetPlayer",
        PlayersClient::new(world.channel().clone()).get_player(authed(
            pb::GetPlayerRequest {
                player_id: "bob".into(),
            },
            &rival_key,
        )),
    )
    .await
    .unwrap()
    .into_inner()
    .profile
    .unwrap();
    assert_eq!(rating_in(&standing, pb::GameKind::BaAwa).rated_matches, 0);
    let ours = within(
        "CreateMatch",
        MatchesClient::new(world.channel().clone()).create_match(authed(
            pb::CreateMatchRequest {
                kind: pb::GameKind::BaAwa as i32,
                options: None,
                players: vec![pb::SeatPlayer {
                    player: pb::Player::South as i32,
                    player_id: "bob".into(),
                }],
                bots: vec![],
                time_control: None,
                start: None,
            },
            &rival_key,
        )),
    )
    .await
    .unwrap()
    .into_inner()
    .r#match
    .unwrap()
    .match_id;
    assert_eq!(
        started(&rival_events.next().await)
            .expect("a match first")
            .match_id,
        ours
    );
    assert_eq!(feed_kind(&rival_feed.next().await), ("created", ours));
}

#[tokio::test]
async fn a_fallback_waits_for_room_under_the_tenants_limit_of_unfinished_matches() {
    let world = world().await;
    let key = within(
        "CreateTenant",
        AdminClient::new(world.channel().clone()).create_tenant(authed(
            pb::CreateTenantRequest {
                tenant_id: "small".into(),
                name: String::new(),
                limits: Some(pb::TenantLimits {
                    max_active_matches: Some(1),
                    calls_per_second: Some(100_000),
                    burst: Some(100_000),
                    // Its players poll as fast as the test runs: each player's share as large.
                    calls_per_second_per_player: Some(100_000),
                    burst_per_player: Some(100_000),
                    ..pb::TenantLimits::default()
                }),
            },
            OPERATOR_KEY,
        )),
    )
    .await
    .unwrap()
    .into_inner()
    .api_key;
    let token = |player: &'static str| {
        let (channel, key) = (world.channel().clone(), key.clone());
        async move {
            within(
                "IssuePlayerToken",
                PlayersClient::new(channel).issue_player_token(authed(
                    pb::IssuePlayerTokenRequest {
                        player_id: player.into(),
                        ttl_seconds: 600,
                    },
                    &key,
                )),
            )
            .await
            .unwrap()
            .into_inner()
            .token
        }
    };
    let (ann, bob, cy) = (token("ann").await, token("bob").await, token("cy").await);
    let mut ann_events = player_events(world.channel(), &ann, 0).await;
    let sought = seek_with(
        &world,
        &ann,
        pb::SeekRequest {
            fallback_bot_level: 1,
            fallback_after_ms: 1500,
            ..seek_request(pb::GameKind::BaAwa, false)
        },
    )
    .await
    .expect("room for one more now");
    // The tenant's one unfinished match is taken before the fallback is due.
    let made = create_challenge(
        &world,
        &bob,
        challenge_to("cy", pb::GameKind::BaAwa, false, pb::SeatPreference::South),
    )
    .await
    .unwrap();
    let taken = accept(&world, &cy, &made.challenge_id)
        .await
        .expect("the one match");
    let taken = taken.r#match.unwrap().match_id;
    // Now there is no room: a seek or an accept is refused at once.
    let refused = seek_with(&world, &bob, seek_request(pb::GameKind::BaAwa, false))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    let other = create_challenge(
        &world,
        &bob,
        challenge_to("cy", pb::GameKind::BaAwa, false, pb::SeatPreference::South),
    )
    .await
    .unwrap();
    let refused = accept(&world, &cy, &other.challenge_id).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    // Give the sweep its chance at the fallback while there is no room. Whatever ann is told of, every match
    // she is told has started exists.
    let begun = tokio::select! {
        begun = ann_events.until(started) => Some(begun),
        () = tokio::time::sleep(Duration::from_millis(2500)) => None,
    };
    if let Some(begun) = &begun {
        let m = within(
            "GetMatch",
            MatchesClient::new(world.channel().clone()).get_match(authed(
                pb::GetMatchRequest {
                    match_id: begun.match_id.clone(),
                },
                &ann,
            )),
        )
        .await;
        panic!(
            "ann was told of match {} while the tenant had no room for it: {m:?}",
            begun.match_id
        );
    }
    // Room again: the fallback is played, the match exists and is played out against the bot.
    resign(world.channel(), &bob, &taken).await;
    let begun = ann_events.until(started).await;
    assert_eq!(begun.seek_id, sought.seek_id);
    let ann_seat = usize::from(begun.seat == pb::Player::North as i32);
    let mut tokens = [None, None];
    tokens[ann_seat] = Some(ann.as_str());
    play_out(
        std::slice::from_ref(world.channel()),
        &begun.match_id,
        tokens,
    )
    .await;
    ann_events
        .until(|e| finished(e).filter(|f| f.match_id == begun.match_id))
        .await;
}

#[tokio::test]
async fn a_rated_match_left_to_expire_moves_no_rating_and_counts_in_no_record() {
    let world =
        world_with(|settings| settings.matches.idle_expiry = Some(Duration::from_millis(200)))
            .await;
    let mut ann_events = world.events(&world.ann).await;
    let made = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::BaAwa, true, pb::SeatPreference::South),
    )
    .await
    .unwrap();
    let accepted = accept(&world, &world.bob, &made.challenge_id)
        .await
        .unwrap();
    let match_id = accepted.r#match.unwrap().match_id;
    let end = finished_of(&mut ann_events, &match_id).await;
    assert_eq!(
        end.result.as_ref().unwrap().reason,
        pb::MatchEndReason::Expired as i32
    );
    assert!(end.rated && end.rating_changes.is_empty(), "{end:?}");
    for player in ["ann", "bob"] {
        let standing = rating_in(&profile(&world, player).await, pb::GameKind::BaAwa);
        assert_eq!(
            (
                standing.rating,
                standing.rated_matches,
                standing.wins,
                standing.losses,
                standing.draws
            ),
            (1500.0, 0, 0, 0, 0),
            "{player}"
        );
    }
    // Expired, it is finished: a rematch may be offered.
    within(
        "OfferRematch",
        world.lobby().offer_rematch(authed(
            pb::OfferRematchRequest {
                match_id: match_id.clone(),
                ttl_seconds: 0,
            },
            &world.bob,
        )),
    )
    .await
    .expect("a rematch of an expired match");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_a_player_or_the_backend_is_told_of_exists_already() {
    let world = world().await;
    let mut ann_events = world.events(&world.ann).await;
    let mut backend = feed(world.channel(), &world.key, 0).await;
    for round in 0..30 {
        let made = create_challenge(
            &world,
            &world.ann,
            challenge_to(
                "bob",
                pb::GameKind::BaAwa,
                false,
                pb::SeatPreference::Random,
            ),
        )
        .await
        .unwrap();
        // Bob accepts on a task of his own; ann and the backend look the match up the moment they hear of it.
        let accepting = {
            let (channel, bob, id) = (
                world.channel().clone(),
                world.bob.clone(),
                made.challenge_id.clone(),
            );
            tokio::spawn(async move {
                LobbyClient::new(channel)
                    .accept_challenge(authed(
                        pb::AcceptChallengeRequest { challenge_id: id },
                        &bob,
                    ))
                    .await
                    .expect("bob accepts")
            })
        };
        let begun = ann_events.until(started).await;
        let found = within(
            "GetMatch",
            MatchesClient::new(world.channel().clone()).get_match(authed(
                pb::GetMatchRequest {
                    match_id: begun.match_id.clone(),
                },
                &world.ann,
            )),
        )
        .await;
        assert!(
            found.is_ok(),
            "round {round}: ann was told of a match not there: {found:?}"
        );
        let created = loop {
            let event = backend.next().await;
            if let (("created", id), _) = (feed_kind(&event), ()) {
                break id;
            }
        };
        assert_eq!(created, begun.match_id);
        within("accepted", accepting).await.unwrap();
        resign(world.channel(), &world.ann, &begun.match_id).await;
    }
}

#[tokio::test]
async fn a_stream_opened_at_zero_starts_from_what_stands_now_not_from_the_history() {
    let world = world().await;
    // History: a declined challenge and a match played to its end. What stands: a challenge waiting for Bob, an
    // unfinished match of his.
    let declined = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .unwrap();
    within(
        "DeclineChallenge",
        world.lobby().decline_challenge(authed(
            pb::DeclineChallengeRequest {
                challenge_id: declined.challenge_id.clone(),
                reason: pb::DeclineReason::Generic as i32,
            },
            &world.bob,
        )),
    )
    .await
    .unwrap();
    let played = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::BaAwa, false, pb::SeatPreference::North),
    )
    .await
    .unwrap();
    let played = accept(&world, &world.bob, &played.challenge_id)
        .await
        .unwrap()
        .r#match
        .unwrap()
        .match_id;
    resign(world.channel(), &world.bob, &played).await;
    let ongoing = create_challenge(
        &world,
        &world.cy,
        challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::South),
    )
    .await
    .unwrap();
    let ongoing = accept(&world, &world.bob, &ongoing.challenge_id)
        .await
        .unwrap()
        .r#match
        .unwrap()
        .match_id;
    let waiting = create_challenge(
        &world,
        &world.ann,
        challenge_to("bob", pb::GameKind::BaAwa, true, pb::SeatPreference::Random),
    )
    .await
    .unwrap();
    // Bob's bot starts fresh: it is told of the match to play and the challenge to answer, then a heartbeat at the
    // latest event, and nothing of what is over.
    let mut bob = world.events(&world.bob).await;
    let latest = bob.heartbeat().await;
    let told: Vec<String> = bob
        .seen
        .iter()
        .map(|e| match &e.event {
            Some(pb::player_event::Event::MatchStarted(s)) => format!("match {}", s.match_id),
            Some(pb::player_event::Event::Challenge(c)) => {
                format!("challenge {} {}", c.challenge_id, c.status)
            }
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        told,
        [
            format!("match {ongoing}"),
            format!(
                "challenge {} {}",
                waiting.challenge_id,
                pb::ChallengeStatus::Pending as i32
            ),
        ]
    );
    assert!(
        latest >= bob.last_id(),
        "the heartbeat marks the latest event"
    );
    assert!(bob.seen.iter().all(|e| e.restated), "{:?}", bob.seen);
    // Resuming from the heartbeat's mark restates the same two (a bot restarted with its saved id still finds its
    // match), then misses what comes next and nothing else.
    let standing = bob.ids();
    drop(bob);
    let mut resumed = player_events(world.channel(), &world.bob, latest).await;
    assert_eq!(resumed.heartbeat().await, latest, "the resume point");
    assert_eq!(
        resumed.seen.iter().map(|e| e.event_id).collect::<Vec<_>>(),
        standing,
        "{:?}",
        resumed.seen
    );
    assert!(resumed.seen.iter().all(|e| e.restated));
    let restated = resumed.seen.len();
    resign(world.channel(), &world.bob, &ongoing).await;
    assert_eq!(finished_of(&mut resumed, &ongoing).await.match_id, ongoing);
    assert_eq!(resumed.seen.len(), restated + 1, "{:?}", resumed.seen);
    assert!(!resumed.seen[restated].restated);
}

/// A match of `kind` made with `CreateMatch`, South bound to `south` and North to `north`; its id.
async fn bound_match(world: &World, kind: pb::GameKind, south: &str, north: &str) -> String {
    let seat = |player: pb::Player, id: &str| pb::SeatPlayer {
        player: player as i32,
        player_id: id.into(),
    };
    within(
        "CreateMatch",
        MatchesClient::new(world.channel().clone()).create_match(authed(
            pb::CreateMatchRequest {
                kind: kind as i32,
                options: None,
                players: vec![
                    seat(pb::Player::South, south),
                    seat(pb::Player::North, north),
                ],
                bots: vec![],
                time_control: None,
                start: None,
            },
            &world.key,
        )),
    )
    .await
    .expect("CreateMatch")
    .into_inner()
    .r#match
    .unwrap()
    .match_id
}

#[tokio::test]
async fn a_players_matches_are_listed_newest_first_by_status_a_page_at_a_time() {
    let world = world().await;
    let first = bound_match(&world, pb::GameKind::BaAwa, "bob", "ann").await;
    let second = bound_match(&world, pb::GameKind::Bosh, "cy", "bob").await;
    let third = bound_match(&world, pb::GameKind::BaAwa, "ann", "bob").await;
    let theirs = bound_match(&world, pb::GameKind::BaAwa, "ann", "cy").await;
    resign(world.channel(), &world.bob, &second).await;
    let list = |token: &str, status: pb::MatchStatus, page_size: u32, page_token: String| {
        let request = authed(
            pb::ListMatchesRequest {
                kind: 0,
                status: status as i32,
                page_size,
                page_token,
                player_id: "bob".into(),
            },
            token,
        );
        let mut client = MatchesClient::new(world.channel().clone());
        async move { within("ListMatches", client.list_matches(request)).await }
    };
    let ids = |response: &pb::ListMatchesResponse| -> Vec<String> {
        response
            .matches
            .iter()
            .map(|m| m.match_id.clone())
            .collect()
    };
    // Bob's own "my games", with his token: newest first, Ann and Cy's match not among them.
    let all = list(&world.bob, pb::MatchStatus::Unspecified, 0, String::new())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(&all), [third.clone(), second.clone(), first.clone()]);
    assert!(all.next_page_token.is_empty());
    assert!(!ids(&all).contains(&theirs));
    // By status: the resigned one is finished (the lobby hears of the end within moments).
    let finished = loop {
        let page = list(&world.key, pb::MatchStatus::Finished, 0, String::new())
            .await
            .unwrap()
            .into_inner();
        if !page.matches.is_empty() {
            break page;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(ids(&finished), std::slice::from_ref(&second));
    assert_eq!(finished.matches[0].status, pb::MatchStatus::Finished as i32);
    let active = list(&world.key, pb::MatchStatus::Active, 0, String::new())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ids(&active), [third.clone(), first.clone()]);
    // A page at a time.
    let mut paged = Vec::new();
    let mut token = String::new();
    loop {
        let page = list(&world.ann, pb::MatchStatus::Unspecified, 1, token)
            .await
            .unwrap()
            .into_inner();
        paged.extend(ids(&page));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    assert_eq!(paged, [third, second, first]);
    let refused = list(&world.bob, pb::MatchStatus::Unspecified, 0, "nope".into())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(bad_fields(&refused), ["page_token"]);
}

/// `ListChallenges` with `open`: a lobby's list for a player token. Ann's open challenge and her seek are listed for
/// Bob (and not for Ann, whose own they are); Bob's challenge addressed to Cy is nobody else's to see; Bob takes the
/// open challenge from the list, and answers the seek by seeking the same.
#[tokio::test]
async fn a_player_lists_the_tenants_open_challenges_and_seeks_and_takes_them() {
    let world = world().await;
    let list = |token: &str, open: bool| {
        let request = authed(pb::ListChallengesRequest { open }, token);
        let mut lobby = world.lobby();
        async move {
            within("ListChallenges", lobby.list_challenges(request))
                .await
                .expect("ListChallenges")
                .into_inner()
        }
    };
    let open = create_challenge(
        &world,
        &world.ann,
        challenge_to("", pb::GameKind::Bosh, false, pb::SeatPreference::Random),
    )
    .await
    .expect("ann's open challenge");
    let to_cy = create_challenge(
        &world,
        &world.bob,
        challenge_to("cy", pb::GameKind::BaAwa, false, pb::SeatPreference::South),
    )
    .await
    .expect("bob challenges cy");
    let sought = seek_with(&world, &world.ann, seek_request(pb::GameKind::BaAwa, false))
        .await
        .expect("ann seeks");
    assert_eq!(sought.status, pb::SeekStatus::Open as i32);

    // Without `open`, as before: nothing of the tenant's.
    let plain = list(&world.bob, false).await;
    assert!(plain.open_challenges.is_empty() && plain.open_seeks.is_empty());
    fn ids(cs: &[pb::Challenge]) -> Vec<&str> {
        cs.iter().map(|c| c.challenge_id.as_str()).collect()
    }
    let bobs = list(&world.bob, true).await;
    assert_eq!(ids(&bobs.open_challenges), [open.challenge_id.as_str()]);
    assert_eq!(bobs.open_seeks, std::slice::from_ref(&sought));
    assert_eq!(ids(&bobs.outgoing), [to_cy.challenge_id.as_str()]);
    // Ann's own are not offered to her; Cy sees Bob's challenge as his incoming one, not as an open one.
    let anns = list(&world.ann, true).await;
    assert!(anns.open_challenges.is_empty() && anns.open_seeks.is_empty());
    let cys = list(&world.cy, true).await;
    assert_eq!(ids(&cys.incoming), [to_cy.challenge_id.as_str()]);
    assert_eq!(ids(&cys.open_challenges), [open.challenge_id.as_str()]);

    // Bob takes both: the open challenge by its id, the seek by seeking the same.
    let taken = accept(&world, &world.bob, &open.challenge_id)
        .await
        .expect("bob takes the open challenge");
    assert!(taken.r#match.is_some());
    let paired = seek_with(&world, &world.bob, seek_request(pb::GameKind::BaAwa, false))
        .await
        .expect("bob answers the seek");
    assert_eq!(paired.status, pb::SeekStatus::Paired as i32);
    assert_eq!(paired.opponent_player_id, "ann");
    let after = list(&world.cy, true).await;
    assert!(after.open_challenges.is_empty() && after.open_seeks.is_empty());
}
