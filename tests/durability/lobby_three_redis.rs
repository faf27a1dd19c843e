//! Three seats in the lobby across two replicas (real binaries) over one Redis (docs/ba-awa.md §4.7): a
//! three-player match made with `CreateMatch` on one replica reaches East's stream and `ListMatches` on the other,
//! and three three-player seeks opened at once on both replicas are paired into one match, once. Needs
//! `MANCALA_TEST_REDIS_URL`, like `matches_redis`.

use crate::lobby_redis::{channel, replicas, tenant, token};
use crate::matches_redis::{redis_url, Prefix};
use crate::support::lobby::{authed, feed, player_events, started, within};
use mancala::api::pb;
use pb::lobby_client::LobbyClient;
use pb::matches_client::MatchesClient;
use tonic::transport::Channel;

fn three_players() -> pb::GameOptions {
    pb::GameOptions {
        ba_awa_players: 3,
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_player_matches_reach_every_seat_across_replicas_and_three_seeks_pair_once() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "lobby-three");
    let (a, b) = replicas(&prefix).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);
    let key = tenant(&on_a).await;
    let ann = token(&on_a, &key, "ann").await;
    let bob = token(&on_b, &key, "bob").await;
    let cy = token(&on_b, &key, "cy").await;
    let mut ann_events = player_events(&on_a, &ann, 0).await;
    let mut bob_events = player_events(&on_b, &bob, 0).await;
    let mut cy_events = player_events(&on_b, &cy, 0).await;
    let mut backend = feed(&on_b, &key, 0).await;

    // Made on A with East bound to Cy, whose stream is on B.
    let bind = |player: pb::Player, id: &str| pb::SeatPlayer {
        player: player as i32,
        player_id: id.into(),
    };
    let created = within(
        "CreateMatch",
        MatchesClient::new(on_a.clone()).create_match(authed(
            pb::CreateMatchRequest {
                kind: pb::GameKind::BaAwa as i32,
                options: Some(three_players()),
                players: vec![
                    bind(pb::Player::South, "ann"),
                    bind(pb::Player::North, "bob"),
                    bind(pb::Player::East, "cy"),
                ],
                ..Default::default()
            },
            &key,
        )),
    )
    .await
    .expect("CreateMatch")
    .into_inner();
    let direct = created.r#match.expect("a match").match_id;
    let for_cy = cy_events.until(started).await;
    assert_eq!(
        (for_cy.match_id.as_str(), for_cy.seat),
        (direct.as_str(), pb::Player::East as i32)
    );
    assert_eq!(for_cy.opponents.len(), 2);
    let listed = within(
        "ListMatches",
        MatchesClient::new(on_b.clone()).list_matches(authed(
            pb::ListMatchesRequest {
                player_id: "cy".into(),
                ..Default::default()
            },
            &key,
        )),
    )
    .await
    .expect("ListMatches")
    .into_inner();
    let ids: Vec<&str> = listed.matches.iter().map(|m| m.match_id.as_str()).collect();
    assert_eq!(ids, [direct.as_str()]);
    assert_eq!(ann_events.until(started).await.match_id, direct);
    assert_eq!(bob_events.until(started).await.match_id, direct);

    // Three seeks at once, on both replicas: one match, all three seated, each told once.
    let seek_on = |channel: &Channel, token: &str| {
        let (channel, token) = (channel.clone(), token.to_string());
        async move {
            LobbyClient::new(channel)
                .seek(authed(
                    pb::SeekRequest {
                        kind: pb::GameKind::BaAwa as i32,
                        options: Some(three_players()),
                        ..Default::default()
                    },
                    &token,
                ))
                .await
                .expect("Seek")
                .into_inner()
                .seek
                .expect("a seek")
        }
    };
    let (s1, s2, s3) = within("three seek", async {
        tokio::join!(
            seek_on(&on_a, &ann),
            seek_on(&on_b, &bob),
            seek_on(&on_a, &cy)
        )
    })
    .await;
    let ann_match = ann_events.until(started).await;
    let bob_match = bob_events.until(started).await;
    let cy_match = cy_events.until(started).await;
    assert_eq!(ann_match.match_id, bob_match.match_id, "one match");
    assert_eq!(ann_match.match_id, cy_match.match_id, "one match");
    assert_eq!(
        [&ann_match.seek_id, &bob_match.seek_id, &cy_match.seek_id],
        [&s1.seek_id, &s2.seek_id, &s3.seek_id]
    );
    let mut seats = [ann_match.seat, bob_match.seat, cy_match.seat];
    seats.sort();
    assert_eq!(
        seats,
        [pb::Player::South, pb::Player::North, pb::Player::East].map(|p| p as i32)
    );
    let mut created = Vec::new();
    while created.len() < 2 {
        if let Some(pb::feed_event::Event::MatchCreated(m)) = backend.next().await.event {
            created.push(m);
        }
    }
    assert_eq!(created[0].match_id, direct);
    assert_eq!(
        created[1].match_id, ann_match.match_id,
        "the feed's only new match"
    );
    assert_eq!(created[1].seats.len(), 3);
    assert_eq!(created[1].seek_ids.len(), 3);
}
