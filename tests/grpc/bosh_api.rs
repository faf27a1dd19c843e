//! Bosh through the Rules service over a real channel (RULES.md §3.6): B-1, B-4 and B-5 with their events,
//! the refill between rounds by default and by choice, and the Bosh refusals.


use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::event::Kind;
use pb::r#move::Action;
use tonic::Code;
use tonic_types::StatusExt;

const SOUTH: i32 = pb::Player::South as i32;
const NORTH: i32 = pb::Player::North as i32;

fn bosh(
    pits: [u32; 10],
    closed: [bool; 10],
    stores: [u32; 2],
    reserves: [u32; 2],
    ply: u32,
    round: u32,
) -> pb::GameState {
    let open = |row: std::ops::Range<usize>| row.filter(|&h| !closed[h]).count() as u32;
    pb::GameState {
        kind: pb::GameKind::Bosh as i32,
        rules_version: 1,
        pits: pits.to_vec(),
        stores: stores.to_vec(),
        reserves: reserves.to_vec(),
        // South started this round, so he is to move at even plies.
        to_move: if ply % 2 == 0 { SOUTH } else { NORTH },
        status: pb::Status::InProgress as i32,
        winner: 0,
        ply,
        game_number: round,
        match_score: vec![open(0..5), open(5..10)],
        variant: Some(pb::game_state::Variant::Bosh(pb::BoshState {
            closed: closed.to_vec(),
            round_starter: SOUTH,
        })),
    }
}

fn sow(pit: u32) -> pb::Move {
    pb::Move {
        action: Some(Action::Sow(pb::Sow {
            pit,
            ..Default::default()
        })),
    }
}

fn next_round(pits: &[u32]) -> pb::Move {
    pb::Move {
        action: Some(Action::NextGame(pb::NextGame {
            pits: pits.to_vec(),
        })),
    }
}

async fn apply(
    server: &TestServer,
    state: &pb::GameState,
    mv: pb::Move,
) -> Result<pb::ApplyMoveResponse, tonic::Status> {
    within(server.rules().apply_move(pb::ApplyMoveRequest {
        state: Some(state.clone()),
        r#move: Some(mv),
        skip_events: false,
    }))
    .await
    .map(|r| r.into_inner())
}

fn closed_of(state: &pb::GameState) -> Vec<bool> {
    match &state.variant {
        Some(pb::game_state::Variant::Bosh(b)) => b.closed.clone(),
        other => panic!("not a Bosh state: {other:?}"),
    }
}

#[tokio::test]
async fn b_1_marins_opening_through_the_api() {
    let server = TestServer::start().await;
    let state = server.new_game(pb::GameKind::Bosh).await;
    assert_eq!(state.pits, vec![4; 10]);
    assert_eq!(state.game_number, 1);
    let answer = apply(&server, &state, sow(4)).await.unwrap();
    let after = answer.state.unwrap();
    assert_eq!(after.pits, vec![5, 5, 5, 5, 0, 0, 5, 5, 5, 0]);
    assert_eq!(after.stores, vec![5, 0]);
    assert_eq!(after.to_move, NORTH);
    let kinds: Vec<&Kind> = answer
        .events
        .iter()
        .filter_map(|e| e.kind.as_ref())
        .collect();
    match kinds.as_slice() {
        [Kind::Lap(first), Kind::Lap(relay), Kind::Capture(capture)] => {
            assert_eq!((first.origin, &first.drops), (4, &vec![5, 6, 7, 8]));
            assert_eq!(
                (relay.origin, &relay.drops),
                (9, &vec![0, 1, 2, 3]),
                "the relay lifts N5, the hole after the last stone"
            );
            assert_eq!(
                (capture.pit, capture.seeds, capture.beneficiary),
                (5, 5, SOUTH),
                "N1, beyond the empty S5"
            );
        }
        other => panic!("unexpected events {other:?}"),
    }
}

#[tokio::test]
async fn b_4_sowing_round_closed_holes_through_the_api() {
    let server = TestServer::start().await;
    let mut closed = [false; 10];
    closed[0] = true;
    closed[1] = true;
    let state = bosh([0, 0, 4, 4, 4, 4, 4, 4, 4, 4], closed, [0, 0], [0, 8], 0, 2);
    let answer = apply(&server, &state, sow(4)).await.unwrap();
    let after = answer.state.unwrap();
    assert_eq!(after.pits, vec![0, 0, 6, 6, 0, 7, 0, 0, 6, 1]);
    assert_eq!(after.stores, vec![6, 0]);
    let origins: Vec<u32> = answer
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            Some(Kind::Lap(l)) => Some(l.origin),
            _ => None,
        })
        .collect();
    assert_eq!(origins, vec![4, 9, 6, 4]);

    // A closed hole cannot be sown from.
    let status = apply(&server, &state, sow(0)).await.unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(
        status.get_error_details().error_info().unwrap().reason,
        "HOLE_CLOSED"
    );
}

#[tokio::test]
async fn b_5_end_of_round_and_refill_through_the_api() {
    let server = TestServer::start().await;
    // South's S3 sows into S4; S5 is empty, so the N1 beyond it (4) is captured: S=[0,3,0,1,0], N empty.
    let state = bosh(
        [0, 3, 1, 0, 0, 4, 0, 0, 0, 0],
        [false; 10],
        [20, 12],
        [0, 0],
        10,
        1,
    );
    let answer = apply(&server, &state, sow(2)).await.unwrap();
    let over = answer.state.unwrap();
    assert_eq!(
        over.status,
        pb::Status::RoundOver as i32,
        "North cannot move: the round ends"
    );
    assert_eq!(over.to_move, 0);
    assert_eq!(over.pits, vec![0; 10]);
    assert_eq!(
        over.stores,
        vec![28, 12],
        "South gets the 4 stones left on the board"
    );
    let round_end = answer
        .events
        .iter()
        .find_map(|e| match &e.kind {
            Some(Kind::RoundEnd(r)) => Some(r.clone()),
            _ => None,
        })
        .expect("a round_end event");
    assert_eq!((round_end.collector, round_end.collected), (SOUTH, 4));

    let listed = within(server.rules().list_legal_moves(pb::ListLegalMovesRequest {
        state: Some(over.clone()),
        skip_previews: false,
    }))
    .await
    .unwrap()
    .into_inner()
    .moves;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].r#move.as_ref().unwrap(), &next_round(&[]));

    // Default refill: South opens all 5 (reserve 8); North opens N3, N4, N5 and closes N1, N2.
    let refill = apply(&server, &over, next_round(&[])).await.unwrap();
    let round2 = refill.state.unwrap();
    assert_eq!(round2.pits, vec![4, 4, 4, 4, 4, 0, 0, 4, 4, 4]);
    assert_eq!(
        closed_of(&round2),
        vec![false, false, false, false, false, true, true, false, false, false]
    );
    assert_eq!(round2.reserves, vec![8, 0]);
    assert_eq!(round2.stores, vec![0, 0]);
    assert_eq!(round2.to_move, NORTH, "North starts round 2");
    assert_eq!(round2.game_number, 2);
    assert_eq!(round2.match_score, vec![5, 3]);
    let refills: Vec<pb::Refill> = refill
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            Some(Kind::Refill(r)) => Some(r.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(refills.len(), 2);
    let north = refills.iter().find(|r| r.player == NORTH).unwrap();
    assert_eq!(
        (north.opened.clone(), north.closed.clone(), north.reserve),
        (vec![7, 8, 9], vec![5, 6], 0)
    );

    // North may choose which three holes to open instead.
    let chosen = apply(&server, &over, next_round(&[5, 6, 9]))
        .await
        .unwrap()
        .state
        .unwrap();
    assert_eq!(
        closed_of(&chosen),
        vec![false, false, false, false, false, false, false, true, true, false]
    );

    // A choice of the wrong number of holes is refused.
    let status = apply(&server, &over, next_round(&[5, 6]))
        .await
        .unwrap_err();
    assert_eq!(
        status.get_error_details().error_info().unwrap().reason,
        "INVALID_CHOICE"
    );
}
