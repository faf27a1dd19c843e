//! The lobby across two replicas (real binaries) over one Redis, with auth required: a challenge made on A is
//! accepted on B, both players' streams (one on each replica) are told of the match's start and end once each
//! while the moves go to either replica, a stream dropped on A and resumed on B misses nothing; two players
//! taking one open challenge on two replicas at once make one match; a seek's fallback to the server's bot, swept
//! by both replicas, makes one match; a decline, a cancel and an expiry on either replica reach both streams once.
//! Needs `MANCALA_TEST_REDIS_URL`, like `matches_redis`.

use crate::matches_redis::{redis_url, Prefix};
use crate::support::lobby::{
    authed, challenge, feed, finished, get_match, play_out, player_events, started, within, Events,
};
use crate::support::replica::Replica;
use mancala::api::pb;
use mancala::identity::keys;
use pb::admin_client::AdminClient;
use pb::lobby_client::LobbyClient;
use pb::players_client::PlayersClient;
use tonic::transport::Channel;
use tonic::Code;
use tonic_types::StatusExt;

pub(crate) const OPERATOR_KEY: &str = "mo_redis-lobby-operator";

pub(crate) async fn replicas(prefix: &Prefix) -> (Replica, Replica) {
    let hash = keys::hex(&keys::hash(OPERATOR_KEY));
    prefix
        .replicas_with(&[
            ("MANCALA__AUTH__REQUIRED", "true"),
            ("MANCALA__AUTH__OPERATOR_KEY_SHA256", hash.as_str()),
            ("MANCALA__BOTS__THINK_DELAY_MS", "0"),
            ("MANCALA__LOBBY__SWEEP_INTERVAL_MS", "20"),
            ("MANCALA__LOBBY__HEARTBEAT_MS", "200"),
            ("MANCALA__LOBBY__REPAIR_INTERVAL_MS", "500"),
        ])
        .await
}

pub(crate) async fn channel(replica: &Replica) -> Channel {
    within(
        "connect",
        Channel::from_shared(format!("http://{}", replica.addr))
            .unwrap()
            .connect(),
    )
    .await
    .expect("connect")
}

/// Creates tenant "acme" on `channel`: its API key.
pub(crate) async fn tenant(channel: &Channel) -> String {
    within(
        "CreateTenant",
        AdminClient::new(channel.clone()).create_tenant(authed(
            pb::CreateTenantRequest {
                tenant_id: "acme".into(),
                name: String::new(),
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
    .api_key
}

pub(crate) async fn token(channel: &Channel, key: &str, player: &str) -> String {
    within(
        "IssuePlayerToken",
        PlayersClient::new(channel.clone()).issue_player_token(authed(
            pb::IssuePlayerTokenRequest {
                player_id: player.into(),
                ttl_seconds: 600,
            },
            key,
        )),
    )
    .await
    .expect("IssuePlayerToken")
    .into_inner()
    .token
}

async fn challenge_on(channel: &Channel, token: &str, to: &str, rated: bool) -> pb::Challenge {
    within(
        "CreateChallenge",
        LobbyClient::new(channel.clone()).create_challenge(authed(
            pb::CreateChallengeRequest {
                to_player_id: to.into(),
                also_to_player_id: String::new(),
                kind: pb::GameKind::BaAwa as i32,
                options: None,
                rated,
                seat: pb::SeatPreference::South as i32,
                ttl_seconds: 0,
                time_control: None,
            },
            token,
        )),
    )
    .await
    .expect("CreateChallenge")
    .into_inner()
    .challenge
    .unwrap()
}

async fn accept_on(
    channel: &Channel,
    token: &str,
    id: &str,
) -> Result<pb::AcceptChallengeResponse, tonic::Status> {
    LobbyClient::new(channel.clone())
        .accept_challenge(authed(
            pb::AcceptChallengeRequest {
                challenge_id: id.into(),
            },
            token,
        ))
        .await
        .map(tonic::Response::into_inner)
}

/// Reads `events` up to the challenge `id` (a marker made after everything else).
async fn up_to_challenge(events: &mut Events<pb::PlayerEvent>, id: &str) {
    events
        .until(|e| challenge(e).filter(|c| c.challenge_id == id))
        .await;
}

/// How many `match_started` and `match_finished` of `match_id` are among `seen`.
fn steps_of(seen: &[pb::PlayerEvent], match_id: &str) -> (usize, usize) {
    (
        seen.iter()
            .filter_map(started)
            .filter(|s| s.match_id == match_id)
            .count(),
        seen.iter()
            .filter_map(finished)
            .filter(|f| f.match_id == match_id)
            .count(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_made_on_a_is_accepted_on_b_and_both_streams_hear_of_it_once() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "lobby-two");
    let (a, b) = replicas(&prefix).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);
    let key = tenant(&on_a).await;
    let ann = token(&on_a, &key, "ann").await;
    let bob = token(&on_b, &key, "bob").await;

    let mut ann_on_a = player_events(&on_a, &ann, 0).await;
    let mut ann_whole = player_events(&on_b, &ann, 0).await;
    let mut bob_on_b = player_events(&on_b, &bob, 0).await;
    let mut backend = feed(&on_a, &key, 0).await;

    let made = challenge_on(&on_a, &ann, "bob", true).await;
    // Told on B, where bob is.
    let seen = bob_on_b
        .until(|e| challenge(e).filter(|c| c.challenge_id == made.challenge_id))
        .await;
    assert_eq!(seen.status, pb::ChallengeStatus::Pending as i32);
    let accepted = within("accept on B", accept_on(&on_b, &bob, &made.challenge_id))
        .await
        .expect("bob accepts on B");
    let match_id = accepted.r#match.unwrap().match_id;
    let for_ann = ann_on_a
        .until(|e| started(e).filter(|s| s.match_id == match_id))
        .await;
    assert_eq!(for_ann.seat, pb::Player::South as i32);
    assert_eq!(for_ann.challenge_id, made.challenge_id);
    let for_bob = bob_on_b
        .until(|e| started(e).filter(|s| s.match_id == match_id))
        .await;
    assert_eq!(for_bob.seat, pb::Player::North as i32);
    // Ann's stream on A goes away here.
    let cut = ann_on_a.last_id();
    let before_cut = ann_on_a.seen.clone();
    drop(ann_on_a);

    // The moves go to A and B in turn.
    let end = play_out(
        &[on_a.clone(), on_b.clone()],
        &match_id,
        [Some(&ann), Some(&bob)],
    )
    .await;
    let winner = end.result.expect("a result").winner;
    // The lobby records the end after the last move's answer: once bob on B has heard of it, B's lobby has it, and
    // ann's stream resumed there finds the match finished (not one to restate as standing).
    let bob_end = bob_on_b
        .until(|e| finished(e).filter(|f| f.match_id == match_id))
        .await;
    let mut resumed = player_events(&on_b, &ann, cut).await;
    let ann_end = resumed
        .until(|e| finished(e).filter(|f| f.match_id == match_id))
        .await;
    assert_eq!(ann_end.rating_changes.len(), 2);
    assert_eq!(ann_end.rating_changes, bob_end.rating_changes);
    assert_eq!(ann_end.result.as_ref().unwrap().winner, winner);

    // A marker after everything: bob challenges ann (on A).
    let marker = challenge_on(&on_a, &bob, "ann", false).await;
    up_to_challenge(&mut resumed, &marker.challenge_id).await;
    up_to_challenge(&mut ann_whole, &marker.challenge_id).await;
    up_to_challenge(&mut bob_on_b, &marker.challenge_id).await;
    let mut joined: Vec<pb::PlayerEvent> = before_cut;
    joined.extend(resumed.seen.iter().cloned());
    assert_eq!(
        joined, ann_whole.seen,
        "the stream dropped on A and resumed on B is the whole one"
    );
    assert_eq!(steps_of(&joined, &match_id), (1, 1), "ann's, once each");
    assert_eq!(
        steps_of(&bob_on_b.seen, &match_id),
        (1, 1),
        "bob's, once each"
    );

    // Both replicas agree on the ratings.
    for channel in [&on_a, &on_b] {
        let profile = within(
            "GetPlayer",
            PlayersClient::new(channel.clone()).get_player(authed(
                pb::GetPlayerRequest {
                    player_id: "ann".into(),
                },
                &key,
            )),
        )
        .await
        .unwrap()
        .into_inner()
        .profile
        .unwrap();
        let rating = profile
            .ratings
            .iter()
            .find(|r| r.kind == pb::GameKind::BaAwa as i32)
            .unwrap();
        assert_eq!(rating.rating, ann_end.rating_changes[0].after);
        assert_eq!(rating.rated_matches, 1);
    }
    // The backend heard of it once: created, started, finished.
    let mut kinds = Vec::new();
    loop {
        use pb::feed_event::Event;
        let event = backend.next().await;
        match event.event.unwrap() {
            Event::MatchCreated(m) if m.match_id == match_id => kinds.push("created"),
            Event::MatchStarted(m) if m.match_id == match_id => kinds.push("started"),
            Event::MatchFinished(m) if m.match_id == match_id => {
                kinds.push("finished");
                break;
            }
            _ => {}
        }
    }
    assert_eq!(kinds, ["created", "started", "finished"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_open_challenge_taken_on_both_replicas_at_once_and_a_fallback_swept_by_both_make_one_match_each(
) {
    let url = redis_url();
    let prefix = Prefix::new(&url, "lobby-race");
    let (a, b) = replicas(&prefix).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);
    let key = tenant(&on_a).await;
    let ann = token(&on_a, &key, "ann").await;
    let bob = token(&on_a, &key, "bob").await;
    let cy = token(&on_b, &key, "cy").await;
    let mut ann_events = player_events(&on_b, &ann, 0).await;

    for _ in 0..5 {
        let open = challenge_on(&on_a, &ann, "", false).await;
        let (by_bob, by_cy) = within("both accept", async {
            tokio::join!(
                accept_on(&on_a, &bob, &open.challenge_id),
                accept_on(&on_b, &cy, &open.challenge_id)
            )
        })
        .await;
        let (won, lost) = match (by_bob, by_cy) {
            (Ok(won), Err(lost)) | (Err(lost), Ok(won)) => (won, lost),
            other => panic!("exactly one accepts: {other:?}"),
        };
        assert_eq!(lost.code(), Code::FailedPrecondition, "{lost:?}");
        assert_eq!(
            lost.get_details_error_info().expect("ErrorInfo").reason,
            "CHALLENGE_CLOSED"
        );
        let match_id = won.r#match.unwrap().match_id;
        let begun = ann_events.until(started).await;
        assert_eq!(begun.match_id, match_id, "one match, the winner's");
        assert_eq!(begun.challenge_id, open.challenge_id);
    }

    // A seek falling back to the bot at once: both replicas sweep it, one match is made.
    let sought = within(
        "Seek",
        LobbyClient::new(on_a.clone()).seek(authed(
            pb::SeekRequest {
                kind: pb::GameKind::BaAwa as i32,
                options: None,
                rated: false,
                rating_min: 0,
                rating_max: 0,
                fallback_bot_level: 1,
                fallback_after_ms: 1,
                ttl_seconds: 0,
                time_control: None,
            },
            &ann,
        )),
    )
    .await
    .expect("Seek")
    .into_inner()
    .seek
    .unwrap();
    let begun = ann_events.until(started).await;
    assert_eq!(begun.seek_id, sought.seek_id);
    let m = get_match(&on_b, &ann, &begun.match_id).await;
    let ann_seat = usize::from(begun.seat == pb::Player::North as i32);
    assert_eq!(m.seats[1 - ann_seat].bot_level, 1);
    // Nothing else started for ann before this marker.
    let marker = challenge_on(&on_b, &bob, "ann", false).await;
    up_to_challenge(&mut ann_events, &marker.challenge_id).await;
    let starts = ann_events.seen.iter().filter_map(started).count();
    assert_eq!(starts, 6, "five challenges and one fallback");
}

fn seek_request(rated: bool) -> pb::SeekRequest {
    pb::SeekRequest {
        kind: pb::GameKind::BaAwa as i32,
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_seeks_opened_at_once_on_two_replicas_are_paired_once() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "lobby-seeks");
    let (a, b) = replicas(&prefix).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);
    let key = tenant(&on_a).await;
    let ann = token(&on_a, &key, "ann").await;
    let bob = token(&on_b, &key, "bob").await;
    let mut ann_events = player_events(&on_a, &ann, 0).await;
    let mut bob_events = player_events(&on_b, &bob, 0).await;
    let mut backend = feed(&on_b, &key, 0).await;
    let seek_on = |channel: &Channel, token: &str| {
        let (channel, token) = (channel.clone(), token.to_string());
        async move {
            LobbyClient::new(channel)
                .seek(authed(seek_request(true), &token))
                .await
                .expect("Seek")
                .into_inner()
                .seek
                .unwrap()
        }
    };
    let mut matches = Vec::new();
    for round in 0..5 {
        let (ann_seek, bob_seek) = within("both seek", async {
            tokio::join!(seek_on(&on_a, &ann), seek_on(&on_b, &bob))
        })
        .await;
        // Paired at once by one of the two calls, or by a sweep.
        let for_ann = ann_events.until(started).await;
        let for_bob = bob_events.until(started).await;
        assert_eq!(
            for_ann.match_id, for_bob.match_id,
            "round {round}: one match"
        );
        assert_eq!(for_ann.seek_id, ann_seek.seek_id);
        assert_eq!(for_bob.seek_id, bob_seek.seek_id);
        assert_ne!(for_ann.seat, for_bob.seat);
        let created = loop {
            if let Some(pb::feed_event::Event::MatchCreated(created)) = backend.next().await.event {
                break created;
            }
        };
        assert_eq!(
            created.match_id, for_ann.match_id,
            "round {round}: the feed's only new match"
        );
        let mut seeks = created.seek_ids.clone();
        seeks.sort();
        let mut expected = vec![ann_seek.seek_id, bob_seek.seek_id];
        expected.sort();
        assert_eq!(seeks, expected);
        matches.push(for_ann.match_id);
    }
    // Nothing else started: a marker after everything.
    let marker = challenge_on(&on_a, &bob, "ann", false).await;
    up_to_challenge(&mut ann_events, &marker.challenge_id).await;
    up_to_challenge(&mut bob_events, &marker.challenge_id).await;
    for events in [&ann_events, &bob_events] {
        let started: Vec<String> = events
            .seen
            .iter()
            .filter_map(started)
            .map(|s| s.match_id)
            .collect();
        assert_eq!(started, matches);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_ended_on_a_replica_killed_at_once_is_recorded_by_the_other() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "lobby-kill");
    let (mut a, b) = replicas(&prefix).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);
    let key = tenant(&on_b).await;
    let ann = token(&on_b, &key, "ann").await;
    let bob = token(&on_b, &key, "bob").await;
    let mut bob_events = player_events(&on_b, &bob, 0).await;
    let made = challenge_on(&on_b, &ann, "bob", true).await;
    let accepted = within("accept", accept_on(&on_b, &bob, &made.challenge_id))
        .await
        .expect("bob accepts");
    let match_id = accepted.r#match.unwrap().match_id;
    // The resignation is written by A, which dies the moment it answers: before it may have told its lobby.
    crate::support::lobby::resign(&on_a, &ann, &match_id).await;
    a.kill();
    let end = bob_events
        .until(|e| finished(e).filter(|f| f.match_id == match_id))
        .await;
    assert_eq!(
        end.result.unwrap().reason,
        pb::MatchEndReason::Resignation as i32
    );
    assert_eq!(end.rating_changes.len(), 2, "rated: both ratings moved");
    let marker = challenge_on(&on_b, &ann, "bob", false).await;
    up_to_challenge(&mut bob_events, &marker.challenge_id).await;
    assert_eq!(steps_of(&bob_events.seen, &match_id), (1, 1));
}

/// How many events of challenge `id` with `status` are among `seen`.
fn statuses_of(seen: &[pb::PlayerEvent], id: &str, status: pb::ChallengeStatus) -> usize {
    seen.iter()
        .filter_map(challenge)
        .filter(|c| c.challenge_id == id && c.status == status as i32)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_a_cancel_and_an_expiry_on_either_replica_reach_both_streams_once() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "lobby-closings");
    let (a, b) = replicas(&prefix).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);
    let key = tenant(&on_a).await;
    let ann = token(&on_a, &key, "ann").await;
    let bob = token(&on_b, &key, "bob").await;
    let mut ann_events = player_events(&on_a, &ann, 0).await;
    let mut bob_events = player_events(&on_b, &bob, 0).await;
    // Made on A, declined on B.
    let declined = challenge_on(&on_a, &ann, "bob", false).await;
    within(
        "DeclineChallenge",
        LobbyClient::new(on_b.clone()).decline_challenge(authed(
            pb::DeclineChallengeRequest {
                challenge_id: declined.challenge_id.clone(),
                reason: pb::DeclineReason::Casual as i32,
            },
            &bob,
        )),
    )
    .await
    .expect("bob declines on B");
    // Made on B, cancelled on A.
    let cancelled = challenge_on(&on_b, &ann, "bob", false).await;
    within(
        "CancelChallenge",
        LobbyClient::new(on_a.clone()).cancel_challenge(authed(
            pb::CancelChallengeRequest {
                challenge_id: cancelled.challenge_id.clone(),
            },
            &ann,
        )),
    )
    .await
    .expect("ann cancels on A");
    // Left to expire: both replicas sweep every 20 ms, one of them writes the expiry.
    let expiring = within(
        "CreateChallenge",
        LobbyClient::new(on_a.clone()).create_challenge(authed(
            pb::CreateChallengeRequest {
                to_player_id: "bob".into(),
                also_to_player_id: String::new(),
                kind: pb::GameKind::Bosh as i32,
                options: None,
                rated: false,
                seat: pb::SeatPreference::Random as i32,
                ttl_seconds: 1,
                time_control: None,
            },
            &ann,
        )),
    )
    .await
    .expect("CreateChallenge")
    .into_inner()
    .challenge
    .unwrap();
    for events in [&mut ann_events, &mut bob_events] {
        events
            .until(|e| {
                challenge(e).filter(|c| {
                    c.challenge_id == expiring.challenge_id
                        && c.status == pb::ChallengeStatus::Expired as i32
                })
            })
            .await;
    }
    let late = accept_on(&on_b, &bob, &expiring.challenge_id)
        .await
        .unwrap_err();
    assert_eq!(late.code(), Code::FailedPrecondition, "{late:?}");
    assert_eq!(
        late.get_error_details()
            .error_info()
            .map(|i| i.reason.clone()),
        Some("CHALLENGE_CLOSED".to_string())
    );
    // A marker made after everything: both streams have read all of it by then.
    let marker = challenge_on(&on_b, &ann, "bob", false).await;
    up_to_challenge(&mut ann_events, &marker.challenge_id).await;
    up_to_challenge(&mut bob_events, &marker.challenge_id).await;
    for (who, events) in [("ann", &ann_events), ("bob", &bob_events)] {
        for (id, status) in [
            (&declined.challenge_id, pb::ChallengeStatus::Declined),
            (&cancelled.challenge_id, pb::ChallengeStatus::Cancelled),
            (&expiring.challenge_id, pb::ChallengeStatus::Expired),
        ] {
            assert_eq!(
                statuses_of(&events.seen, id, status),
                1,
                "{who}: {status:?} of {id} once: {:?}",
                events.seen
            );
        }
    }
    let told = ann_events
        .seen
        .iter()
        .filter_map(challenge)
        .find(|c| {
            c.challenge_id == declined.challenge_id
                && c.status == pb::ChallengeStatus::Declined as i32
        })
        .expect("the decline");
    assert_eq!(told.decline_reason, pb::DeclineReason::Casual as i32);
}

/// `player`'s profile as `channel`'s replica sees it.
async fn profile_on(channel: &Channel, key: &str, player: &str) -> pb::PlayerProfile {
    within(
        "GetPlayer",
        PlayersClient::new(channel.clone()).get_player(authed(
            pb::GetPlayerRequest {
                player_id: player.into(),
            },
            key,
        )),
    )
    .await
    .expect("GetPlayer")
    .into_inner()
    .profile
    .expect("a profile")
}

/// Polls `player`'s presence on `channel`'s replica until it is `online`.
async fn until_online(
    channel: &Channel,
    key: &str,
    player: &str,
    online: bool,
) -> pb::PlayerProfile {
    within("the presence awaited", async {
        loop {
            let seen = profile_on(channel, key, player).await;
            if seen.online == online {
                return seen;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_and_leaderboards_are_the_same_on_both_replicas_and_a_dead_replicas_players_go_offline(
) {
    let url = redis_url();
    let prefix = Prefix::new(&url, "lobby-presence");
    let (mut a, b) = replicas(&prefix).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);
    let key = tenant(&on_a).await;
    let ann = token(&on_a, &key, "ann").await;
    let bob = token(&on_b, &key, "bob").await;
    // A rated match between them, the moves to either replica.
    let made = challenge_on(&on_a, &ann, "bob", true).await;
    let accepted = within("accept on B", accept_on(&on_b, &bob, &made.challenge_id))
        .await
        .expect("bob accepts");
    let match_id = accepted.r#match.unwrap().match_id;
    play_out(
        &[on_a.clone(), on_b.clone()],
        &match_id,
        [Some(&ann), Some(&bob)],
    )
    .await;

    // Ann's stream is on A, Bob's on B: each replica sees both online.
    let ann_on_a = player_events(&on_a, &ann, 0).await;
    let bob_on_b = player_events(&on_b, &bob, 0).await;
    for (channel, player) in [(&on_b, "ann"), (&on_a, "bob")] {
        let seen = profile_on(channel, &key, player).await;
        assert!(
            seen.online && seen.last_seen_at_ms > 0,
            "{player}: {seen:?}"
        );
    }
    // Both replicas rank the same, and agree with the profiles.
    let board_on = |channel: Channel| {
        let key = key.clone();
        async move {
            within(
                "GetLeaderboard",
                PlayersClient::new(channel).get_leaderboard(authed(
                    pb::GetLeaderboardRequest {
                        kind: pb::GameKind::BaAwa as i32,
                        ..Default::default()
                    },
                    &key,
                )),
            )
            .await
            .expect("GetLeaderboard")
            .into_inner()
            .entries
        }
    };
    let (board_a, board_b) = (board_on(on_a.clone()).await, board_on(on_b.clone()).await);
    let ranked = |board: &[pb::LeaderboardEntry]| {
        board
            .iter()
            .map(|e| {
                (
                    e.rank,
                    e.player_id.clone(),
                    e.rating.unwrap().rating,
                    e.games,
                    e.online,
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(ranked(&board_a), ranked(&board_b));
    assert_eq!(board_a.len(), 2);
    for entry in &board_a {
        let own = profile_on(&on_b, &key, &entry.player_id).await;
        let rating = own
            .ratings
            .iter()
            .find(|r| r.kind == pb::GameKind::BaAwa as i32)
            .unwrap();
        assert_eq!(entry.rating.as_ref(), Some(rating));
        assert_eq!((entry.games, entry.online), (1, true));
    }
    assert!(
        board_a[0].rating.as_ref().unwrap().rating >= board_a[1].rating.as_ref().unwrap().rating,
        "best first: {board_a:?}"
    );

    // Bob closes his stream on B: offline on A too. A dies with Ann's open: B sees her go offline once A's hold
    // lapses (three heartbeats), last seen before that.
    drop(bob_on_b);
    until_online(&on_a, &key, "bob", false).await;
    let alive = profile_on(&on_b, &key, "ann").await;
    a.kill();
    drop(ann_on_a);
    let gone = until_online(&on_b, &key, "ann", false).await;
    assert!(
        gone.last_seen_at_ms >= alive.last_seen_at_ms.saturating_sub(1_000),
        "{gone:?}"
    );
}
