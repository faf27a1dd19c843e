//! Three seats everywhere in the lobby (docs/ba-awa.md §4.7; docs/guide/lobby-and-bots.md), over a real channel: a
//! three-player Ba-awa match made with `CreateMatch` reaches all three players' streams and their `ListMatches`,
//! and the tenant feed lists its three seats; a challenge to two players and three seeks make one, and a lone
//! seeker falls back to two built-in opponents.

use crate::lobby::{
    accept, bad_fields, challenge_status, challenge_to, create_challenge, feed_until_finished,
    finished_of, seek_request, seek_with, started_of, world, World,
};
use crate::support::lobby::{authed, feed, resign, within, Events};
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use tonic::Code;

const S: i32 = pb::Player::South as i32;
const N: i32 = pb::Player::North as i32;
const E: i32 = pb::Player::East as i32;

pub(crate) fn three_players() -> pb::GameOptions {
    pb::GameOptions {
        ba_awa_players: 3,
        ..Default::default()
    }
}

/// The ids of `player`'s matches, from `ListMatches` by player.
pub(crate) async fn matches_of(world: &World, player: &str) -> Vec<String> {
    within(
        "ListMatches",
        MatchesClient::new(world.channel().clone()).list_matches(authed(
            pb::ListMatchesRequest {
                player_id: player.into(),
                ..Default::default()
            },
            &world.key,
        )),
    )
    .await
    .expect("ListMatches")
    .into_inner()
    .matches
    .into_iter()
    .map(|m| m.match_id)
    .collect()
}

/// Ann, Bob and Cy each find `match_id`, and only it, among their matches.
async fn listed_for_all_three(world: &World, match_id: &str) {
    for player in ["ann", "bob", "cy"] {
        assert_eq!(matches_of(world, player).await, [match_id], "{player}");
    }
}

/// The seats and player ids of `started`'s opponents, in the order given.
pub(crate) fn opponents(started: &pb::PlayerMatchStarted) -> Vec<(i32, String)> {
    started
        .opponents
        .iter()
        .map(|o| (o.seat, o.player_id.clone()))
        .collect()
}

/// Ann's, Bob's and Cy's event streams, opened now.
async fn three_streams(world: &World) -> [Events<pb::PlayerEvent>; 3] {
    [
        world.events(&world.ann).await,
        world.events(&world.bob).await,
        world.events(&world.cy).await,
    ]
}

#[tokio::test]
async fn a_three_player_match_made_directly_reaches_every_seat_and_the_feed() {
    let world = world().await;
    let [mut ann_events, mut bob_events, mut cy_events] = three_streams(&world).await;
    let mut backend = feed(world.channel(), &world.key, 0).await;
    let bind = |player: i32, id: &str| pb::SeatPlayer {
        player,
        player_id: id.into(),
    };
    let created = within(
        "CreateMatch",
        MatchesClient::new(world.channel().clone()).create_match(authed(
            pb::CreateMatchRequest {
                kind: pb::GameKind::BaAwa as i32,
                options: Some(three_players()),
                players: vec![bind(S, "bob"), bind(N, "ann"), bind(E, "cy")],
                ..Default::default()
            },
            &world.key,
        )),
    )
    .await
    .expect("CreateMatch")
    .into_inner();
    let match_id = created.r#match.expect("a match").match_id;

    // Every seat hears of it, East included, with the others in turn order from his seat (S → E → N, §4.7).
    let for_bob = started_of(&mut bob_events, &match_id).await;
    assert_eq!(for_bob.seat, S);
    assert_eq!(
        opponents(&for_bob),
        [(E, "cy".to_string()), (N, "ann".to_string())]
    );
    assert_eq!(for_bob.opponent.expect("an opponent").player_id, "cy");
    let for_cy = started_of(&mut cy_events, &match_id).await;
    assert_eq!(for_cy.seat, E);
    assert_eq!(
        opponents(&for_cy),
        [(N, "ann".to_string()), (S, "bob".to_string())]
    );
    let for_ann = started_of(&mut ann_events, &match_id).await;
    assert_eq!(for_ann.seat, N);
    assert_eq!(
        opponents(&for_ann),
        [(S, "bob".to_string()), (E, "cy".to_string())]
    );

    // Each player finds it among his matches.
    listed_for_all_three(&world, &match_id).await;

    // East resigns: the match ends, and each of the three is told with his own seat.
    resign(world.channel(), &world.cy, &match_id).await;
    assert_eq!(finished_of(&mut cy_events, &match_id).await.seat, E);
    assert_eq!(finished_of(&mut bob_events, &match_id).await.seat, S);
    assert_eq!(finished_of(&mut ann_events, &match_id).await.seat, N);

    let of_match = feed_until_finished(&mut backend, &match_id).await;
    let Some(pb::feed_event::Event::MatchCreated(made)) = &of_match[0].event else {
        panic!("the feed tells of the creation first")
    };
    let seats: Vec<(i32, &str)> = made
        .seats
        .iter()
        .map(|s| (s.player, s.player_id.as_str()))
        .collect();
    assert_eq!(seats, [(S, "bob"), (N, "ann"), (E, "cy")]);
}

fn three_player_challenge(
    to: &str,
    also_to: &str,
    seat: pb::SeatPreference,
) -> pb::CreateChallengeRequest {
    pb::CreateChallengeRequest {
        to_player_id: to.into(),
        also_to_player_id: also_to.into(),
        kind: pb::GameKind::BaAwa as i32,
        options: Some(three_players()),
        seat: seat as i32,
        ..Default::default()
    }
}

/// A challenge to two players: the first to accept joins and is told the challenge still waits; the second makes
/// the match, every seat bound, and all three hear of it. A player it does not name cannot take a seat, nor can
/// the one who joined accept twice.
#[tokio::test]
async fn a_challenge_to_two_players_makes_the_match_when_both_accept() {
    let world = world().await;
    let [mut ann_events, mut bob_events, mut cy_events] = three_streams(&world).await;
    let made = create_challenge(
        &world,
        &world.ann,
        three_player_challenge("bob", "cy", pb::SeatPreference::East),
    )
    .await
    .expect("a three-player challenge");
    let id = made.challenge_id.clone();
    assert_eq!(
        (made.to_player_id.as_str(), made.also_to_player_id.as_str()),
        ("bob", "cy")
    );
    // Both challenged players are told, and list it as incoming.
    challenge_status(&mut bob_events, &id, pb::ChallengeStatus::Pending).await;
    challenge_status(&mut cy_events, &id, pb::ChallengeStatus::Pending).await;

    // Cy accepts first: no match yet, the challenge waits for Bob.
    let joined = accept(&world, &world.cy, &id).await.expect("Cy joins");
    assert!(joined.r#match.is_none());
    assert_eq!(joined.seat, 0);
    let challenge = joined.challenge.expect("the challenge");
    assert_eq!(challenge.status, pb::ChallengeStatus::Pending as i32);
    assert_eq!(challenge.joined_player_ids, ["cy"]);
    let told = ann_events
        .until(|e| {
            crate::support::lobby::challenge(e)
                .filter(|c| c.challenge_id == id && !c.joined_player_ids.is_empty())
        })
        .await;
    assert_eq!(told.joined_player_ids, ["cy"]);
    let twice = accept(&world, &world.cy, &id).await.unwrap_err();
    assert_eq!(bad_fields(&twice), ["challenge_id"]);
    let stranger = accept(&world, &world.botty, &id).await.unwrap_err();
    assert_eq!(stranger.code(), Code::PermissionDenied, "{stranger:?}");

    // Bob accepts: the match is made. Ann sits East as asked; the others take South and North in the order
    // they accepted.
    let accepted = accept(&world, &world.bob, &id).await.expect("Bob accepts");
    assert_eq!(accepted.seat, N);
    let m = accepted.r#match.expect("the match");
    let match_id = m.match_id.clone();
    let seats: Vec<(i32, &str)> = m
        .seats
        .iter()
        .map(|s| (s.player, s.player_id.as_str()))
        .collect();
    assert_eq!(seats, [(S, "cy"), (N, "bob"), (E, "ann")]);
    for (events, seat) in [
        (&mut ann_events, E),
        (&mut bob_events, N),
        (&mut cy_events, S),
    ] {
        let started = started_of(events, &match_id).await;
        assert_eq!(started.seat, seat);
        assert_eq!(started.challenge_id, id);
        assert_eq!(started.opponents.len(), 2);
    }
    // No longer pending for anyone.
    let listed = within(
        "ListChallenges",
        world
            .lobby()
            .list_challenges(authed(pb::ListChallengesRequest::default(), &world.bob)),
    )
    .await
    .expect("ListChallenges")
    .into_inner();
    assert!(listed.incoming.is_empty());
    listed_for_all_three(&world, &match_id).await;
}

/// What a three-player challenge or seek may not ask for: a second player in a two-player game, the same
/// player twice, East in a two-player game, a rating.
#[tokio::test]
async fn three_player_lobby_requests_are_checked_naming_the_field() {
    let world = world().await;
    let mut two_player = three_player_challenge("bob", "cy", pb::SeatPreference::Random);
    two_player.options = None;
    let refused = create_challenge(&world, &world.ann, two_player)
        .await
        .unwrap_err();
    assert_eq!(bad_fields(&refused), ["also_to_player_id"]);
    let same = three_player_challenge("bob", "bob", pb::SeatPreference::Random);
    let refused = create_challenge(&world, &world.ann, same)
        .await
        .unwrap_err();
    assert_eq!(bad_fields(&refused), ["also_to_player_id"]);
    let east = pb::CreateChallengeRequest {
        seat: pb::SeatPreference::East as i32,
        ..challenge_to("bob", pb::GameKind::Bosh, false, pb::SeatPreference::Random)
    };
    let refused = create_challenge(&world, &world.ann, east)
        .await
        .unwrap_err();
    assert_eq!(bad_fields(&refused), ["seat"]);
    let rated = pb::CreateChallengeRequest {
        rated: true,
        ..three_player_challenge("bob", "cy", pb::SeatPreference::Random)
    };
    let refused = create_challenge(&world, &world.ann, rated)
        .await
        .unwrap_err();
    assert_eq!(bad_fields(&refused), ["rated"]);
    let rated_seek = pb::SeekRequest {
        options: Some(three_players()),
        ..seek_request(pb::GameKind::BaAwa, true)
    };
    let refused = seek_with(&world, &world.ann, rated_seek).await.unwrap_err();
    assert_eq!(bad_fields(&refused), ["rated"]);
}

/// Three seeks for three-player Ba-awa: the first two wait, the third pairs all three into one match; each
/// seeker hears of it with his own seek and the two others, and the feed lists the three seats and seeks.
#[tokio::test]
async fn three_seeks_pair_into_one_three_player_match() {
    let world = world().await;
    let mut backend = feed(world.channel(), &world.key, 0).await;
    let request = || pb::SeekRequest {
        options: Some(three_players()),
        ..seek_request(pb::GameKind::BaAwa, false)
    };
    // A two-player seek of the same game is no partner for them.
    let two_player = seek_with(
        &world,
        &world.botty,
        seek_request(pb::GameKind::BaAwa, false),
    )
    .await
    .expect("a two-player seek");
    assert_eq!(two_player.status, pb::SeekStatus::Open as i32);
    let mut seeks = Vec::new();
    let mut events = Vec::new();
    for token in [&world.ann, &world.bob, &world.cy] {
        events.push(world.events(token).await);
        let seek = seek_with(&world, token, request()).await.expect("a seek");
        seeks.push(seek);
    }
    assert_eq!(seeks[0].status, pb::SeekStatus::Open as i32);
    assert_eq!(
        seeks[1].status,
        pb::SeekStatus::Open as i32,
        "two seekers wait for a third"
    );
    assert_eq!(seeks[2].status, pb::SeekStatus::Paired as i32);
    let match_id = seeks[2].match_id.clone();
    let mut seats = Vec::new();
    for (n, stream) in events.iter_mut().enumerate() {
        let started = started_of(stream, &match_id).await;
        assert_eq!(started.seek_id, seeks[n].seek_id);
        assert_eq!(started.opponents.len(), 2);
        seats.push(started.seat);
    }
    seats.sort();
    assert_eq!(seats, [S, N, E], "one seat each");
    let created = loop {
        if let Some(pb::feed_event::Event::MatchCreated(created)) = backend.next().await.event {
            break created;
        }
    };
    assert_eq!(created.match_id, match_id);
    assert_eq!(created.seats.len(), 3);
    assert_eq!(created.seek_ids.len(), 3);
    listed_for_all_three(&world, &match_id).await;
    assert!(matches_of(&world, "botty").await.is_empty());
}

/// A lone seeker of three-player Ba-awa falls back to the server's opponent, which takes both other seats: a bot
/// that seeks gets a match to play without being handed its id.
#[tokio::test]
async fn a_three_player_seek_falls_back_to_two_built_in_opponents() {
    let world = world().await;
    let mut events = world.events(&world.botty).await;
    let seek = seek_with(
        &world,
        &world.botty,
        pb::SeekRequest {
            options: Some(three_players()),
            fallback_bot_level: 1,
            fallback_after_ms: 1,
            ..seek_request(pb::GameKind::BaAwa, false)
        },
    )
    .await
    .expect("a seek");
    let started = events
        .until(|e| crate::support::lobby::started(e).filter(|s| s.seek_id == seek.seek_id))
        .await;
    assert_eq!(started.opponents.len(), 2);
    assert!(started
        .opponents
        .iter()
        .all(|o| o.bot_level == 1 && o.player_id.is_empty()));
    let m =
        crate::support::lobby::get_match(world.channel(), &world.botty, &started.match_id).await;
    assert_eq!(m.seats.len(), 3);
    assert_eq!(m.seats.iter().filter(|s| s.bot_level == 1).count(), 2);
}
