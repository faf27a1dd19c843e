//! Bao la Kete through the Rules service over a real channel: complete games from the opening to their end,
//! one of them won by Bao hamna. (BK-1..BK-9 run over gRPC from `tests/examples/bao_la_kete.toml`: `examples.rs`.)

use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::event::Kind;

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

/// BK-1's four openings, as a person reads them: f6 and f7, each clockwise and anticlockwise.
#[tokio::test]
async fn the_openings_are_labelled_with_their_pits_names_and_directions() {
    let server = TestServer::start().await;
    let state = within(server.rules().new_game(pb::NewGameRequest {
        kind: pb::GameKind::BaoLaKete as i32,
        options: None,
    }))
    .await
    .unwrap()
    .into_inner()
    .state
    .unwrap();
    let mut labels: Vec<String> = legal_moves(&server, &state)
        .await
        .into_iter()
        .map(|m| m.label)
        .collect();
    labels.sort();
    assert_eq!(labels, ["f6 acw", "f6 cw", "f7 acw", "f7 cw"]);
}
