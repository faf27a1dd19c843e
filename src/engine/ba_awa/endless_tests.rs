//! §1 "How such a game ends", Ba-awa: a game ended by repetition or agreement ends as §4.3 ends one, the starter
//! taking every seed left (so stores stay multiples of four); §1 "Match length": the leader has more pits.

use super::*;
use crate::engine::Game;

const S: Player = Player::South;
const N: Player = Player::North;

/// A sparse game in progress: 12 seeds on the board, South 20 and North 16 in store, North to move.
fn sparse(starter: Player) -> BaAwa {
    BaAwa {
        pits: [1, 0, 2, 0, 0, 1, 0, 3, 0, 1, 4, 0],
        north_owned: 0b1111_1100_0000,
        east_owned: 0,
        stores: [20, 16, 0],
        seats: 2,
        eliminated_in: [0; 3],
        to_move: Some(N),
        status: Status::InProgress,
        winner: None,
        starter,
        target: DEFAULT_TARGET,
        ply: 40,
        game_number: 3,
    }
}

#[test]
fn repetition_gives_the_seeds_left_to_the_starter() {
    let mut game = sparse(N);
    let mut events = Vec::new();
    game.end_across_turns(EndReason::Repetition, &mut events);
    assert_eq!(
        events.first(),
        Some(&Event::GameEnd {
            reason: EndReason::Repetition,
            winner: Some(N),
            collector: Some(N),
            collected: 12,
            stores: PerSeat::two([20, 28]),
        })
    );
    assert_eq!((game.status, game.pits), (Status::GameOver, [0; PITS]));
    // 5 pits to 7: North leads, so a match ended here by its length is his.
    assert_eq!(game.match_leader(), Some(N));
}

#[test]
fn agreement_ends_the_game_the_same_way() {
    let mut game = sparse(S);
    let mut events = Vec::new();
    game.end_across_turns(EndReason::Agreement, &mut events);
    assert!(matches!(
        events.first(),
        Some(Event::GameEnd {
            reason: EndReason::Agreement,
            collector: Some(S),
            collected: 12,
            ..
        })
    ));
    assert_eq!(game.stores, [32, 16, 0]);
    assert_eq!(game.match_leader(), Some(S));
}

#[test]
fn level_pits_lead_nobody() {
    let mut game = sparse(S);
    game.stores = [24, 24, 0];
    game.pits = [0; PITS];
    game.status = Status::GameOver;
    assert_eq!(game.match_leader(), None);
}
