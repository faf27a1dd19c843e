//! Tournaments over a real channel (the lobby's world: the server in-process, auth required, players with tokens):
//! a round robin of two players and a built-in opponent played to its end, each pair once, an idle entrant each
//! round; a Swiss with an odd count, a late entrant and a withdrawal, where the bye must go past a rematch; and
//! every refusal with its code, reason or field.

use crate::lobby::{bad_fields, world, World};
use crate::support::lobby::{
    authed, create_tournament, enter_tournament, feed, play_out, player_events, short_tournament,
    start_tournament, tournament_updates, within, Events,
};
use mancala::api::pb;
use pb::tournaments_client::TournamentsClient;
use std::collections::HashSet;
use tonic::transport::Channel;
use tonic::{Code, Status};
use tonic_types::StatusExt;

fn client(world: &World) -> TournamentsClient<Channel> {
    TournamentsClient::new(world.channel().clone())
}

async fn create(
    world: &World,
    credential: &str,
    request: pb::CreateTournamentRequest,
) -> Result<pb::Tournament, Status> {
    create_tournament(world.channel(), credential, request).await
}

fn create_request(system: pb::TournamentSystem, rounds: u32) -> pb::CreateTournamentRequest {
    short_tournament(system, rounds, false)
}

async fn enter(
    world: &World,
    credential: &str,
    id: &str,
    bot_level: u32,
) -> Result<String, Status> {
    enter_tournament(world.channel(), credential, id, bot_level).await
}

async fn start(world: &World, credential: &str, id: &str) -> Result<pb::Tournament, Status> {
    start_tournament(world.channel(), credential, id).await
}

async fn withdraw(
    world: &World,
    credential: &str,
    id: &str,
    entrant: &str,
) -> Result<pb::Tournament, Status> {
    within(
        "WithdrawFromTournament",
        client(world).withdraw_from_tournament(authed(
            pb::WithdrawFromTournamentRequest {
                tournament_id: id.into(),
                entrant_id: entrant.into(),
            },
            credential,
        )),
    )
    .await
    .map(|r| r.into_inner().tournament.expect("a tournament"))
}

/// Reads `watcher` until the tournament reaches `round` (paired) or finishes.
async fn reach(watcher: &mut Events<pb::WatchTournamentResponse>, round: u32) -> pb::Tournament {
    watcher
        .until(|u| {
            u.tournament.clone().filter(|t| {
                t.current_round >= round || t.status == pb::TournamentStatus::Finished as i32
            })
        })
        .await
}

fn reason(status: &Status) -> String {
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    status.get_details_error_info().expect("ErrorInfo").reason
}

/// Plays every board of `round` that has a player (the built-in opponents play their own).
async fn play_round(world: &World, t: &pb::Tournament, round: u32, tokens: &[(&str, &str)]) {
    let token = |entrant: &str| {
        tokens
            .iter()
            .find(|(e, _)| *e == entrant)
            .map(|(_, token)| *token)
    };
    for board in &t.round_pairings[round as usize - 1].boards {
        let seats = [
            token(&board.south_entrant_id),
            token(&board.north_entrant_id),
        ];
        if seats.iter().any(Option::is_some) {
            play_out(&[world.channel().clone()], &board.match_id, seats).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_three_meets_each_pair_once_with_one_idle_each_round() {
    let world = world().await;
    // Ann creates it, so she may enter a built-in opponent and start it.
    let t = create(
        &world,
        &world.ann,
        create_request(pb::TournamentSystem::RoundRobin, 0),
    )
    .await
    .unwrap();
    assert_eq!(t.created_by, "ann");
    assert_eq!(t.status, pb::TournamentStatus::Open as i32);
    let id = t.tournament_id.clone();
    let mut watcher = tournament_updates(world.channel(), &world.key, &id, 0).await;
    let mut bob_events = player_events(world.channel(), &world.bob, 0).await;
    let mut backend = feed(world.channel(), &world.key, 0).await;
    assert_eq!(enter(&world, &world.ann, &id, 0).await.unwrap(), "ann");
    assert_eq!(enter(&world, &world.bob, &id, 0).await.unwrap(), "bob");
    let bot = enter(&world, &world.ann, &id, 1).await.unwrap();
    assert_eq!(bot, "bot 1 #1");
    let t = start(&world, &world.ann, &id).await.unwrap();
    assert_eq!((t.rounds, t.current_round), (3, 1));
    // The tenant's feed names the tournament and round of each match it makes.
    let made = backend
        .until(|e| match &e.event {
            Some(pb::feed_event::Event::MatchCreated(m)) => Some(m.clone()),
            _ => None,
        })
        .await;
    assert_eq!(
        (made.tournament_id.as_str(), made.tournament_round),
        (id.as_str(), 1)
    );
    assert_eq!(made.match_id, t.round_pairings[0].boards[0].match_id);
    let tokens = [("ann", world.ann.as_str()), ("bob", world.bob.as_str())];
    let mut met = HashSet::new();
    let mut idle = Vec::new();
    for round in 1..=3 {
        let t = reach(&mut watcher, round).await;
        let pairing = &t.round_pairings[round as usize - 1];
        assert_eq!(pairing.boards.len(), 1, "{pairing:?}");
        assert_eq!(pairing.idle_entrant_ids.len(), 1);
        assert!(
            pairing.bye_entrant_id.is_empty(),
            "no byes in a round robin"
        );
        idle.push(pairing.idle_entrant_ids[0].clone());
        let b = &pairing.boards[0];
        let mut pair = [b.south_entrant_id.clone(), b.north_entrant_id.clone()];
        pair.sort();
        assert!(met.insert(pair), "each pair once");
        if round == 2 {
            // A stream opened now restates bob's last tournament event: this round's pairing.
            let mut fresh = player_events(world.channel(), &world.bob, 0).await;
            let restated = fresh
                .until(|e| match &e.event {
                    Some(pb::player_event::Event::Tournament(t)) if e.restated => Some(t.clone()),
                    _ => None,
                })
                .await;
            assert_eq!(
                (restated.kind, restated.round),
                (pb::TournamentEventKind::RoundPaired as i32, 2)
            );
        }
        play_round(&world, &t, round, &tokens).await;
    }
    let t = reach(&mut watcher, 4).await;
    assert_eq!(t.status, pb::TournamentStatus::Finished as i32);
    idle.sort();
    assert_eq!(idle, ["ann", "bob", "bot 1 #1"], "each sits out once");
    let total: f64 = t.standings.iter().map(|s| s.points).sum();
    assert_eq!(total, 3.0);
    for s in &t.standings {
        assert_eq!(s.south + s.north, 2);
        assert!(s.south.abs_diff(s.north) <= 1, "{s:?}");
    }
    // Bob heard of his entry, of each round (one of them idle: no match), and of the end.
    let finished = bob_events
        .until(|e| match &e.event {
            Some(pb::player_event::Event::Tournament(t))
                if t.kind == pb::TournamentEventKind::Finished as i32 =>
            {
                Some(t.clone())
            }
            _ => None,
        })
        .await;
    let rank = t.standings.iter().find(|s| s.entrant_id == "bob").unwrap();
    assert_eq!((finished.rank, finished.points), (rank.rank, rank.points));
    let kinds: Vec<i32> = bob_events
        .seen
        .iter()
        .filter_map(|e| match &e.event {
            Some(pb::player_event::Event::Tournament(t)) => Some(t.kind),
            _ => None,
        })
        .collect();
    use pb::TournamentEventKind as K;
    assert_eq!(
        kinds,
        [
            K::Entered,
            K::Started,
            K::RoundPaired,
            K::RoundPaired,
            K::RoundPaired,
            K::Finished
        ]
        .map(|k| k as i32)
    );
    // Over: nothing more is taken.
    let refused = enter(&world, &world.cy, &id, 0).await.unwrap_err();
    assert_eq!(reason(&refused), "TOURNAMENT_CLOSED");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_bye_skips_a_rematch_with_a_late_entrant_and_a_withdrawal() {
    let world = world().await;
    let t = create(
        &world,
        &world.key,
        create_request(pb::TournamentSystem::Swiss, 2),
    )
    .await
    .unwrap();
    assert_eq!(t.created_by, "");
    let id = t.tournament_id.clone();
    let mut watcher = tournament_updates(world.channel(), &world.key, &id, 0).await;
    for token in [&world.ann, &world.bob, &world.cy] {
        enter(&world, token, &id, 0).await.unwrap();
    }
    let t = start(&world, &world.key, &id).await.unwrap();
    // All on 0 points: seed order; cy, the lowest, has the bye; ann (higher) sits South.
    let round = &t.round_pairings[0];
    assert_eq!(round.bye_entrant_id, "cy");
    let b = &round.boards[0];
    assert_eq!(
        (b.south_entrant_id.as_str(), b.north_entrant_id.as_str()),
        ("ann", "bob")
    );
    // A late entrant joins from round 2; cy withdraws.
    assert_eq!(enter(&world, &world.botty, &id, 0).await.unwrap(), "botty");
    let t = withdraw(&world, &world.cy, &id, "").await.unwrap();
    assert!(t
        .entrants
        .iter()
        .any(|e| e.entrant_id == "cy" && e.withdrawn));
    play_round(
        &world,
        &t,
        1,
        &[
            ("ann", &world.ann),
            ("bob", &world.bob),
            ("botty", &world.botty),
        ],
    )
    .await;
    let t = reach(&mut watcher, 2).await;
    // Round 2: ann, bob, botty. Botty (0 points, seed 4) would have the bye, but ann and bob have met: the next
    // lowest of ann and bob has it, and the other meets botty.
    let round1 = &t.round_pairings[0].boards[0];
    let ann_first = round1.result != pb::BoardResult::NorthWon as i32;
    let (higher, lower) = if ann_first {
        ("ann", "bob")
    } else {
        ("bob", "ann")
    };
    let round = &t.round_pairings[1];
    assert_eq!(round.bye_entrant_id, lower, "{t:?}");
    let b = &round.boards[0];
    let mut pair = [b.south_entrant_id.as_str(), b.north_entrant_id.as_str()];
    pair.sort();
    let mut expected = [higher, "botty"];
    expected.sort();
    assert_eq!(pair, expected);
    // Seats: ann sat South in round 1, bob North; botty has sat nowhere.
    let south = if higher == "ann" { "botty" } else { "bob" };
    assert_eq!(b.south_entrant_id, south);
    play_round(
        &world,
        &t,
        2,
        &[
            ("ann", &world.ann),
            ("bob", &world.bob),
            ("botty", &world.botty),
        ],
    )
    .await;
    let t = reach(&mut watcher, 3).await;
    assert_eq!(t.status, pb::TournamentStatus::Finished as i32);
    let lower_line = t.standings.iter().find(|s| s.entrant_id == lower).unwrap();
    assert_eq!(lower_line.byes, 1);
    let cy = t.standings.iter().find(|s| s.entrant_id == "cy").unwrap();
    assert_eq!((cy.points, cy.byes, cy.withdrawn), (1.0, 1, true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_name_the_field_the_reason_or_the_rule() {
    let world = world().await;
    let three = pb::CreateTournamentRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: Some(pb::GameOptions {
            ba_awa_players: 3,
            ..pb::GameOptions::default()
        }),
        ..create_request(pb::TournamentSystem::Swiss, 3)
    };
    let refused = create(&world, &world.key, three).await.unwrap_err();
    assert_eq!(bad_fields(&refused), ["options.ba_awa_players"]);
    for (system, rounds, field) in [
        (pb::TournamentSystem::Swiss, 0, "rounds"),
        (pb::TournamentSystem::RoundRobin, 4, "rounds"),
        (pb::TournamentSystem::Unspecified, 0, "system"),
    ] {
        let refused = create(&world, &world.key, create_request(system, rounds))
            .await
            .unwrap_err();
        assert_eq!(bad_fields(&refused), [field], "{system:?} {rounds}");
    }

    let t = create(
        &world,
        &world.ann,
        create_request(pb::TournamentSystem::RoundRobin, 0),
    )
    .await
    .unwrap();
    let id = t.tournament_id.as_str();
    let refused = enter(&world, &world.key, "not-an-id", 0).await.unwrap_err();
    assert_eq!(bad_fields(&refused), ["tournament_id"]);
    let unknown = "0123456789abcdef0123456789abcdef";
    let refused = enter(&world, &world.ann, unknown, 0).await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    // The API key enters built-in opponents, not itself.
    let refused = enter(&world, &world.key, id, 0).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    // Bob is not the creator: no bots, no start.
    let refused = enter(&world, &world.bob, id, 1).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let refused = enter(&world, &world.ann, id, 99).await.unwrap_err();
    assert_eq!(bad_fields(&refused), ["bot_level"]);
    enter(&world, &world.ann, id, 0).await.unwrap();
    let refused = enter(&world, &world.ann, id, 0).await.unwrap_err();
    assert_eq!(reason(&refused), "ALREADY_ENTERED");
    let refused = start(&world, &world.ann, id).await.unwrap_err();
    assert_eq!(reason(&refused), "TOO_FEW_ENTRANTS");
    enter(&world, &world.bob, id, 0).await.unwrap();
    let refused = start(&world, &world.bob, id).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let refused = withdraw(&world, &world.bob, id, "ann").await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    let refused = withdraw(&world, &world.cy, id, "").await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    start(&world, &world.ann, id).await.unwrap();
    let refused = start(&world, &world.key, id).await.unwrap_err();
    assert_eq!(reason(&refused), "TOURNAMENT_CLOSED");
    // A round robin's schedule is fixed at the start.
    let refused = enter(&world, &world.cy, id, 0).await.unwrap_err();
    assert_eq!(reason(&refused), "TOURNAMENT_CLOSED");
}

async fn list(
    world: &World,
    status: pb::TournamentStatus,
    page_size: u32,
    page_token: &str,
) -> pb::ListTournamentsResponse {
    within(
        "ListTournaments",
        client(world).list_tournaments(authed(
            pb::ListTournamentsRequest {
                status: status as i32,
                page_size,
                page_token: page_token.into(),
            },
            &world.bob,
        )),
    )
    .await
    .expect("ListTournaments")
    .into_inner()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournaments_are_listed_newest_first_a_page_at_a_time_and_by_status() {
    let world = world().await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let t = create(
            &world,
            &world.key,
            create_request(pb::TournamentSystem::Swiss, 1),
        )
        .await
        .unwrap();
        ids.push(t.tournament_id);
    }
    // The oldest runs: two built-in opponents play it.
    for level in [1, 2] {
        enter(&world, &world.key, &ids[0], level).await.unwrap();
    }
    start(&world, &world.key, &ids[0]).await.unwrap();
    let first = list(&world, pb::TournamentStatus::Unspecified, 2, "").await;
    let names: Vec<&str> = first
        .tournaments
        .iter()
        .map(|t| t.tournament_id.as_str())
        .collect();
    assert_eq!(names, [ids[2].as_str(), ids[1].as_str()]);
    assert!(!first.next_page_token.is_empty());
    let second = list(
        &world,
        pb::TournamentStatus::Unspecified,
        2,
        &first.next_page_token,
    )
    .await;
    assert_eq!(second.tournaments.len(), 1);
    assert_eq!(second.tournaments[0].tournament_id, ids[0]);
    assert!(second.next_page_token.is_empty());
    let open = list(&world, pb::TournamentStatus::Open, 0, "").await;
    assert_eq!(open.tournaments.len(), 2);
    let refused = within(
        "ListTournaments",
        client(&world).list_tournaments(authed(
            pb::ListTournamentsRequest {
                status: 0,
                page_size: 0,
                page_token: "yesterday".into(),
            },
            &world.key,
        )),
    )
    .await
    .unwrap_err();
    assert_eq!(bad_fields(&refused), ["page_token"]);
}
