//! Bao la Kete through the Rules service over a real channel (RULES.md §2.11): the opening's four moves (BK-1)
//! and the kichwa and stop/safari choices (BK-2) as `ListLegalMoves` offers them, the refusals that teach the
//! rule, and complete games from the opening to their end, one of them won by Bao hamna.


use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::event::Kind;
use pb::r#move::Action;
use tonic::Code;
use tonic_types::StatusExt;

const SOUTH: i32 = pb::Player::South as i32;
const CW: i32 = pb::Direction::Clockwise as i32;
const ACW: i32 = pb::Direction::Anticlockwise as i32;

/// A game-1 position, South to move, from player-relative rows (`f1..f8`, `b1..b8`) as RULES.md writes them.
fn position(
    south: ([u32; 8], [u32; 8], u32),
    north: ([u32; 8], [u32; 8], u32),
    ply: u32,
) -> pb::GameState {
    pb::GameState {
        kind: pb::GameKind::BaoLaKete as i32,
        rules_version: 1,
        pits: [south.0, south.1, north.0, north.1].concat(),
        stores: vec![0, 0],
        reserves: vec![south.2, north.2],
        to_move: SOUTH,
        status: pb::Status::InProgress as i32,
        winner: 0,
        ply,
        game_number: 1,
        match_score: vec![0, 0],
        variant: Some(pb::game_state::Variant::BaoLaKete(pb::BaoLaKeteState {
            stage: if south.2 > 0 {
                pb::bao_la_kete_state::Stage::Nemo
            } else {
                pb::bao_la_kete_state::Stage::Mtaji
            } as i32,
            kuu_alive: vec![true, true],
            mark: None,
            game_starter: SOUTH,
        })),
    }
}

async fn legal_moves(server: &TestServer, state: &pb::GameState) -> Vec<pb::LegalMove> {
    within(server.rules().list_legal_moves(pb::ListLegalMovesRequest {
        state: Some(state.clone()),
        skip_previews: false,
    }))
    .await
    .expect("legal moves")
    .into_inner()
    .moves
}

fn sow_of(legal: &pb::LegalMove) -> pb::Sow {
    match &legal.r#move.as_ref().expect("a move").action {
        Some(Action::Sow(sow)) => *sow,
        other => panic!("not a sowing: {other:?}"),
    }
}

/// South's front and back rows in a state.
fn south_rows(state: &pb::GameState) -> (Vec<u32>, Vec<u32>) {
    (state.pits[0..8].to_vec(), state.pits[8..16].to_vec())
}

#[tokio::test]
async fn bk_1_the_opening_offers_exactly_four_takatas() {
    let server = TestServer::start().await;
    let state = server.new_game(pb::GameKind::BaoLaKete).await;
    assert_eq!(state.reserves, vec![22, 22]);
    let moves = legal_moves(&server, &state).await;
    let offered: Vec<(u32, i32)> = moves
        .iter()
        .map(|m| (sow_of(m).pit, sow_of(m).direction))
        .collect();
    assert_eq!(
        offered,
        vec![(5, CW), (5, ACW), (6, CW), (6, ACW)],
        "f6 and f7, both ways"
    );
    let results: Vec<(Vec<u32>, Vec<u32>)> = moves
        .iter()
        .map(|m| south_rows(m.result.as_ref().unwrap()))
        .collect();
    assert_eq!(
        results[0],
        (vec![0, 0, 0, 0, 6, 0, 3, 1], vec![0, 0, 0, 0, 0, 0, 0, 1])
    );
    assert_eq!(results[1], (vec![0, 0, 1, 1, 7, 0, 2, 0], vec![0; 8]));
    assert_eq!(
        results[2],
        (vec![0, 0, 0, 0, 6, 2, 0, 1], vec![0, 0, 0, 0, 0, 0, 1, 1])
    );
    assert_eq!(results[3], (vec![0, 0, 0, 1, 7, 3, 0, 0], vec![0; 8]));
    for m in &moves {
        let after = m.result.as_ref().unwrap();
        assert_eq!(after.reserves, vec![21, 22]);
        // The first event places the reserve seed into the start hole.
        match m.events.first().and_then(|e| e.kind.as_ref()) {
            Some(Kind::Lap(lap)) => assert_eq!(lap.source, pb::LapSource::Reserve as i32),
            other => panic!("{other:?}"),
        }
    }

    // The kuu is not alone, so it may not start a takata; the refusal names the rule.
    let answer = within(server.rules().validate_move(pb::ValidateMoveRequest {
        state: Some(state.clone()),
        r#move: Some(pb::Move {
            action: Some(Action::Sow(pb::Sow {
                pit: 4,
                direction: CW,
                ..Default::default()
            })),
        }),
    }))
    .await
    .unwrap()
    .into_inner();
    assert!(!answer.legal);
    assert_eq!(
        answer.reason,
        pb::IllegalMoveReason::KuuNotAllowedWhileOtherHolesOccupied as i32,
        "{}",
        answer.message
    );
}

#[tokio::test]
async fn bk_2_a_central_capture_offers_each_kichwa_and_the_kuu_decision_only_where_it_arises() {
    let server = TestServer::start().await;
    let state = position(
        ([0, 0, 3, 0, 6, 0, 1, 0], [0, 0, 0, 0, 0, 3, 0, 3], 15),
        ([0, 0, 0, 0, 6, 4, 2, 0], [0, 0, 3, 0, 0, 3, 0, 0], 15),
        14,
    );
    let moves = legal_moves(&server, &state).await;
    let offered: Vec<(u32, i32, i32, i32)> = moves
        .iter()
        .map(sow_of)
        .map(|s| (s.pit, s.direction, s.kichwa, s.kuu_decision))
        .collect();
    let left = pb::Kichwa::Left as i32;
    let right = pb::Kichwa::Right as i32;
    let stop = pb::KuuDecision::Stop as i32;
    let safari = pb::KuuDecision::Safari as i32;
    assert_eq!(
        offered,
        vec![(2, 0, left, 0), (2, 0, right, stop), (2, 0, right, safari)]
    );
    let rows: Vec<(Vec<u32>, Vec<u32>)> = moves
        .iter()
        .map(|m| south_rows(m.result.as_ref().unwrap()))
        .collect();
    assert_eq!(rows[0].0, vec![1, 1, 5, 1, 6, 0, 1, 0], "(a) left kichwa");
    assert_eq!(
        rows[1].0,
        vec![0, 0, 4, 0, 7, 1, 2, 1],
        "(b1) right kichwa, stop in the kuu"
    );
    assert_eq!(
        rows[2],
        (vec![1, 1, 5, 1, 0, 1, 2, 1], vec![1, 1, 1, 0, 0, 3, 0, 3]),
        "(b2) safari"
    );
    for m in &moves {
        assert_eq!(
            m.result.as_ref().unwrap().pits[16..24],
            [0, 0, 0, 0, 6, 0, 2, 0],
            "North's f6 was captured"
        );
        let capture = m
            .events
            .iter()
            .find_map(|e| match &e.kind {
                Some(Kind::Capture(c)) => Some(*c),
                _ => None,
            })
            .expect("a capture event");
        assert_eq!(
            (capture.pit, capture.seeds, capture.beneficiary),
            (21, 4, SOUTH)
        );
    }

    // A takata while a capture exists is refused with the rule; a missing kichwa is asked for.
    let takata = pb::Move {
        action: Some(Action::Sow(pb::Sow {
            pit: 6,
            direction: CW,
            ..Default::default()
        })),
    };
    let status = within(server.rules().apply_move(pb::ApplyMoveRequest {
        state: Some(state.clone()),
        r#move: Some(takata),
        skip_events: false,
    }))
    .await
    .unwrap_err();
    assert_eq!(status.code(), Code::FailedPrecondition);
    assert_eq!(
        status.get_error_details().error_info().unwrap().reason,
        "CAPTURE_IS_MANDATORY"
    );
    let no_kichwa = pb::Move {
        action: Some(Action::Sow(pb::Sow {
            pit: 2,
            ..Default::default()
        })),
    };
    let status = within(server.rules().apply_move(pb::ApplyMoveRequest {
        state: Some(state),
        r#move: Some(no_kichwa),
        skip_events: false,
    }))
    .await
    .unwrap_err();
    assert_eq!(
        status.get_error_details().error_info().unwrap().reason,
        "CHOICE_REQUIRED"
    );
}

/// Plays whole games from the opening through `ListLegalMoves` and `ApplyMove` with seeded random choices,
/// until one ends by Bao hamna; every applied state equals its preview and the 64 seeds stay accounted for.
#[tokio::test]
async fn complete_games_can_be_played_from_the_opening_to_bao_hamna() {
    let server = TestServer::start().await;
    let mut client = server.rules();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut ends = Vec::new();
    for _game in 0..40 {
        let mut state = within(client.new_game(pb::NewGameRequest {
            kind: pb::GameKind::BaoLaKete as i32,
            options: None,
        }))
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
        let mut end = None;
        for _ply in 0..2_000 {
            let moves = legal_moves(&server, &state).await;
            assert!(!moves.is_empty(), "a game in progress always has a move");
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let chosen = &moves[(rng % moves.len() as u64) as usize];
            let answer = within(client.apply_move(pb::ApplyMoveRequest {
                state: Some(state.clone()),
                r#move: chosen.r#move.clone(),
                skip_events: false,
            }))
            .await
            .unwrap()
            .into_inner();
            let next = answer.state.unwrap();
            assert_eq!(
                Some(&next),
                chosen.result.as_ref(),
                "the preview is the result"
            );
            let seeds: u32 = next
                .pits
                .iter()
                .chain(&next.stores)
                .chain(&next.reserves)
                .sum();
            assert_eq!(seeds, 64);
            end = answer.events.iter().find_map(|e| match &e.kind {
                Some(Kind::GameEnd(g)) => Some(g.reason),
                _ => None,
            });
            state = next;
            if end.is_some() {
                break;
            }
        }
        let end = end.expect("the game ended");
        assert_ne!(state.status, pb::Status::InProgress as i32);
        ends.push(end);
        if end == pb::EndReason::BaoHamna as i32 {
            return;
        }
    }
    panic!("no game of 40 ended by Bao hamna: {ends:?}");
}
