//! An independent review of Ba-awa (docs/common.md §1 and docs/ba-awa.md §4), written from the specification alone, through the
//! public API only.
//!
//! Every expected value in the hand-computed tests below was worked out by hand from the algorithm of §4.2 /
//! §4.3 / §4.4; the comment above each test shows the working. At the end a reference model written from
//! the spec text alone is played against the engine over random matches and random sparse positions.

use mancala::engine::{
    AnyGame, EndReason, Event, GameKind, Move, NoTrace, Options, PitSet, Player, Reason, Setup,
    Sow, Status, VariantSetup,
};
use std::collections::HashSet;

const S: Player = Player::South;
const N: Player = Player::North;
const SOUTH_ROW: [usize; 6] = [0, 1, 2, 3, 4, 5];
const NORTH_ROW: [usize; 6] = [6, 7, 8, 9, 10, 11];

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

/// Owners from the list of pits North owns.
fn owners(north: &[usize]) -> Vec<Option<Player>> {
    (0..12)
        .map(|p| Some(if north.contains(&p) { N } else { S }))
        .collect()
}

/// A game in progress; `match_score` = pits owned (the documented wire convention).
#[allow(clippy::too_many_arguments)]
fn in_progress(
    pits: [u32; 12],
    stores: [u32; 2],
    to_move: Player,
    starter: Player,
    north: &[usize],
    target: u32,
    game_number: u32,
) -> Setup {
    let n = north.len() as u32;
    Setup {
        kind: GameKind::BaAwa,
        rules_version: 1,
        pits: pits.to_vec().into(),
        stores: stores.to_vec().into(),
        reserves: vec![0, 0].into(),
        to_move: Some(to_move),
        status: Some(Status::InProgress),
        winner: None,
        ply: 10,
        game_number,
        match_score: vec![12 - n, n].into(),
        variant: VariantSetup::BaAwa {
            owners: owners(north).into(),
            starter: Some(starter),
            target,
            players: 0,
            eliminated_in: Vec::new().into(),
        },
    }
}

/// A finished game (board empty); match_score = stores / 4.
fn finished(
    stores: [u32; 2],
    status: Status,
    winner: Option<Player>,
    starter: Player,
    target: u32,
) -> Setup {
    Setup {
        kind: GameKind::BaAwa,
        rules_version: 1,
        pits: vec![0; 12].into(),
        stores: stores.to_vec().into(),
        reserves: vec![0, 0].into(),
        to_move: None,
        status: Some(status),
        winner,
        ply: 40,
        game_number: 3,
        match_score: vec![stores[0] / 4, stores[1] / 4].into(),
        variant: VariantSetup::BaAwa {
            owners: owners(&NORTH_ROW).into(),
            starter: Some(starter),
            target,
            players: 0,
            eliminated_in: Vec::new().into(),
        },
    }
}

fn load(setup: &Setup) -> AnyGame {
    AnyGame::from_setup(setup).unwrap_or_else(|e| panic!("valid state refused: {e}"))
}

fn sow(game: &mut AnyGame, pit: u8) -> Vec<Event> {
    let mut events = Vec::new();
    game.play(&Move::Sow(Sow::from(pit)), &mut events)
        .unwrap_or_else(|e| panic!("move {pit} refused: {e}"));
    events
}

fn pits(game: &AnyGame) -> Vec<u32> {
    game.to_setup().pits.into_vec()
}

fn stores(game: &AnyGame) -> Vec<u32> {
    game.to_setup().stores.into_vec()
}

fn north_owned(game: &AnyGame) -> Vec<usize> {
    match game.to_setup().variant {
        VariantSetup::BaAwa { owners, .. } => (0..12).filter(|&p| owners[p] == Some(N)).collect(),
        other => panic!("not Ba-awa: {other:?}"),
    }
}

fn starter(game: &AnyGame) -> Player {
    match game.to_setup().variant {
        VariantSetup::BaAwa { starter, .. } => starter.unwrap(),
        other => panic!("not Ba-awa: {other:?}"),
    }
}

fn captures(events: &[Event]) -> Vec<(u8, Player)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Capture {
                pit, beneficiary, ..
            } => Some((pit, beneficiary)),
            _ => None,
        })
        .collect()
}

fn laps(events: &[Event]) -> Vec<(u8, u8)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Lap { origin, seeds, .. } => Some((origin, seeds)),
            _ => None,
        })
        .collect()
}

fn sow_moves(game: &AnyGame) -> Vec<u8> {
    game.legal_moves()
        .iter()
        .filter_map(|m| match m {
            Move::Sow(s) => Some(s.pit),
            _ => None,
        })
        .collect()
}

fn next_game(game: &mut AnyGame, choice: PitSet) {
    game.play(&Move::NextGame(choice), &mut NoTrace)
        .unwrap_or_else(|e| panic!("NextGame refused: {e}"));
}

// ---------------------------------------------------------------------------------------------------------
// §4.2 captures: owner en passant, mover for the final seed
// ---------------------------------------------------------------------------------------------------------

/// South owns N1 (pit 6). North sows 8 from N6 (pit 11): pits 0–5 0→1, pit 6 3→4 with 1 seed still in hand
/// → en passant, its OWNER South takes 4; pit 7 0→1 with the last seed → empty → the move ends.
/// Board [1,1,1,1,1,1 | 0,1,0,5,0,0] = 12 > 8; stores [16,16] → [20,16]; South to move.
#[test]
fn en_passant_four_in_a_north_row_pit_owned_by_south_goes_to_south_when_north_sows() {
    let mut game = load(&in_progress(
        [0, 0, 0, 0, 0, 0, 3, 0, 0, 5, 0, 8],
        [16, 16],
        N,
        S,
        &[7, 8, 9, 10, 11],
        10,
        2,
    ));
    let events = sow(&mut game, 11);
    assert_eq!(captures(&events), vec![(6, S)]);
    assert_eq!(pits(&game), vec![1, 1, 1, 1, 1, 1, 0, 1, 0, 5, 0, 0]);
    assert_eq!(stores(&game), vec![20, 16]);
    assert_eq!(game.to_move(), Some(S));
}

/// North owns S1 (pit 0) and its row. South sows 8 from S6 (pit 5): pits 6–11 0→1, pit 0 3→4 with 1 seed in
/// hand → en passant for its OWNER North; pit 1 0→1 (last) → ends.
/// Board [0,1,0,5,0,0 | 1,1,1,1,1,1] = 12; stores [16,16] → [16,20]; North to move.
#[test]
fn en_passant_four_in_a_south_row_pit_owned_by_north_goes_to_north_when_south_sows() {
    let mut game = load(&in_progress(
        [3, 0, 0, 5, 0, 8, 0, 0, 0, 0, 0, 0],
        [16, 16],
        S,
        N,
        &[0, 6, 7, 8, 9, 10, 11],
        10,
        2,
    ));
    let events = sow(&mut game, 5);
    assert_eq!(captures(&events), vec![(0, N)]);
    assert_eq!(pits(&game), vec![0, 1, 0, 5, 0, 0, 1, 1, 1, 1, 1, 1]);
    assert_eq!(stores(&game), vec![16, 20]);
    assert_eq!(game.to_move(), Some(N));
}

/// North owns S1 (pit 0). South sows 7 from pit 5: pits 6–11 0→1, pit 0 3→4 with the LAST seed → the MOVER
/// South takes it although North owns the pit; the move ends. Board [0,0,6,0,0,0 | 1×6] = 12; [20,16].
#[test]
fn final_four_in_a_pit_owned_by_the_opponent_goes_to_the_mover() {
    let mut game = load(&in_progress(
        [3, 0, 6, 0, 0, 7, 0, 0, 0, 0, 0, 0],
        [16, 16],
        S,
        N,
        &[0, 6, 7, 8, 9, 10, 11],
        10,
        2,
    ));
    let events = sow(&mut game, 5);
    assert_eq!(captures(&events), vec![(0, S)]);
    assert_eq!(laps(&events).len(), 1);
    assert_eq!(pits(&game), vec![0, 0, 6, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    assert_eq!(stores(&game), vec![20, 16]);
}

/// Final seed makes 4 in the mover's own pit: S3 (1) → pit 3 3→4 (last) → South +4, end.
#[test]
fn final_four_in_the_movers_own_pit() {
    let mut game = load(&in_progress(
        [0, 0, 1, 3, 0, 0, 2, 2, 2, 2, 2, 2],
        [16, 16],
        S,
        S,
        &NORTH_ROW,
        10,
        1,
    ));
    let events = sow(&mut game, 2);
    assert_eq!(captures(&events), vec![(3, S)]);
    assert_eq!(pits(&game), vec![0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2]);
    assert_eq!(stores(&game), vec![20, 16]);
    assert_eq!(game.to_move(), Some(N));
}

// ---------------------------------------------------------------------------------------------------------
// §1 / R-4.5: the origin is not skipped
// ---------------------------------------------------------------------------------------------------------

/// S4 holds exactly 12. Pits 4..11, 0..2 each +1 (2→3, pit 11 0→1; no pit reaches 4); the 12th seed falls in
/// the emptied origin: 0→1 → the move ends. (An origin-skipping engine would put it in pit 4, 3→4, capture.)
#[test]
fn twelve_seed_lap_ends_in_its_own_emptied_origin() {
    let mut game = load(&in_progress(
        [2, 2, 2, 12, 2, 2, 2, 2, 2, 2, 2, 0],
        [8, 8],
        S,
        S,
        &NORTH_ROW,
        10,
        1,
    ));
    let events = sow(&mut game, 3);
    assert!(captures(&events).is_empty());
    assert_eq!(laps(&events), vec![(3, 12)]);
    assert_eq!(pits(&game), vec![3, 3, 3, 1, 3, 3, 3, 3, 3, 3, 3, 1]);
    assert_eq!(stores(&game), vec![8, 8]);
}

/// 24 seeds in S1, the rest empty. Lap 1: every pit gets 2, the 24th seed in the origin (2) → relay 2 from
/// pit 0 (pits 1,2 → 3) → relay 3 from 2 (3,4,5 → 3) → relay 3 from 5 (6,7,8 → 3) → relay 3 from 8
/// (9,10,11 → 3) → relay 3 from 11: pit 0 0→1, pit 1 3→4 with 1 in hand → owner South +4, pit 2 0→1 → end.
/// Board [1,0,1,3,3,0 | 3,3,0,3,3,0] = 20; stores [12,12] → [16,12].
#[test]
fn twenty_four_seed_lap_ends_in_its_origin_and_relays_from_it() {
    let mut game = load(&in_progress(
        [24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [12, 12],
        S,
        S,
        &NORTH_ROW,
        10,
        1,
    ));
    let events = sow(&mut game, 0);
    assert_eq!(
        laps(&events),
        vec![(0, 24), (0, 2), (2, 3), (5, 3), (8, 3), (11, 3)]
    );
    assert_eq!(captures(&events), vec![(1, S)]);
    assert_eq!(pits(&game), vec![1, 0, 1, 3, 3, 0, 3, 3, 0, 3, 3, 0]);
    assert_eq!(stores(&game), vec![16, 12]);
    assert_eq!(game.to_move(), Some(N));
}

/// All 48 seeds in S1. Drops 1–11: pits 1–11 → 1; drop 12: origin → 1; … drop 36: origin → 3;
/// drops 37–47: pits 1–11 3→4 with seeds in hand → en passant to each OWNER (S: 1–5, N: 6–11);
/// drop 48 (last): origin 3→4 → the MOVER South. Stores [24,24], board 0 ≤ 8, starter collects 0: game over.
#[test]
fn forty_eight_seed_lap_makes_four_in_its_origin_with_the_last_seed() {
    let mut game = load(&in_progress(
        [48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0],
        S,
        S,
        &NORTH_ROW,
        10,
        1,
    ));
    let events = sow(&mut game, 0);
    let mut expected: Vec<(u8, Player)> =
        (1..=11).map(|p| (p, if p < 6 { S } else { N })).collect();
    expected.push((0, S));
    assert_eq!(captures(&events), expected);
    assert_eq!(stores(&game), vec![24, 24]);
    assert_eq!(pits(&game), vec![0; 12]);
    assert_eq!(game.status(), Status::GameOver);
    assert_eq!(game.to_move(), None);
}

// ---------------------------------------------------------------------------------------------------------
// §4.3 / R-4.2: end of the game at the end of a move; the starter takes what is left
// ---------------------------------------------------------------------------------------------------------

/// North began the game; South plays S5 (2): pit 5 3→4 with 1 in hand → South (owner) +4 — now only 8 are on
/// the board plus the one in hand, but the check is at the end of the move — pit 6 2→3 (last) → relay 3:
/// pit 7 0→1, pit 8 1→2, pit 9 0→1 → ends. Board [0×6 | 0,1,2,1,4,0] = 8 ≤ 8 → North (starter) +8.
/// Stores [20,16] → [24,16] → [24,24]. (Pit 10 sat at 4 all along and is never captured.)
#[test]
fn a_capture_that_leaves_eight_mid_move_does_not_stop_the_move() {
    let mut game = load(&in_progress(
        [0, 0, 0, 0, 2, 3, 2, 0, 1, 0, 4, 0],
        [20, 16],
        S,
        N,
        &NORTH_ROW,
        10,
        3,
    ));
    let events = sow(&mut game, 4);
    assert_eq!(laps(&events), vec![(4, 2), (6, 3)]);
    assert_eq!(captures(&events), vec![(5, S)]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::GameEnd {
            reason: EndReason::FewSeedsLeft,
            collector: Some(N),
            collected: 8,
            stores,
            ..
        } if stores.as_slice() == [24, 24]
    )));
    assert_eq!(stores(&game), vec![24, 24]);
    assert_eq!(game.status(), Status::GameOver);
    assert_eq!(game.to_setup().match_score, vec![6, 6]);
}

/// North moves N5 (2): pit 11 2→3, pit 0 3→4 (last) → North +4. Board: pit 9 = 5, pit 11 = 3 → 8 ≤ 8 →
/// South (starter, who did NOT move) +8. Stores [32,4] → [32,8] → [40,8]: South has 10 pits = target 10 →
/// South wins the match (§4.4 step 2).
#[test]
fn the_starter_reaches_the_target_with_the_last_seeds_after_the_opponents_move() {
    let mut game = load(&in_progress(
        [3, 0, 0, 0, 0, 0, 0, 0, 0, 5, 2, 2],
        [32, 4],
        N,
        S,
        &NORTH_ROW,
        10,
        5,
    ));
    let events = sow(&mut game, 10);
    assert_eq!(captures(&events), vec![(0, N)]);
    assert_eq!(stores(&game), vec![40, 8]);
    assert_eq!(game.status(), Status::MatchOver);
    assert_eq!(game.to_setup().winner, Some(S));
    assert_eq!(game.to_setup().match_score, vec![10, 2]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::MatchEnd {
            winner: Some(S),
            ..
        }
    )));
    assert!(game.legal_moves().is_empty());
}

/// Same position with target 11: the game is over but not the match; the next game gives South N1–N4
/// (pits 6–9) by default, North keeps N5, N6; North (the other player) starts; all pits 4, stores 0.
#[test]
fn the_same_ending_with_target_eleven_continues_the_match() {
    let mut game = load(&in_progress(
        [3, 0, 0, 0, 0, 0, 0, 0, 0, 5, 2, 2],
        [32, 4],
        N,
        S,
        &NORTH_ROW,
        11,
        5,
    ));
    sow(&mut game, 10);
    assert_eq!(game.status(), Status::GameOver);
    assert_eq!(
        game.legal_moves().to_vec(),
        vec![Move::NextGame(PitSet::EMPTY)]
    );
    next_game(&mut game, PitSet::EMPTY);
    assert_eq!(north_owned(&game), vec![10, 11]);
    assert_eq!(starter(&game), N);
    assert_eq!(game.to_move(), Some(N));
    assert_eq!(pits(&game), vec![4; 12]);
    assert_eq!(stores(&game), vec![0, 0]);
    assert_eq!(game.to_setup().game_number, 6);
    assert_eq!(game.to_setup().match_score, vec![10, 2]);
}

// ---------------------------------------------------------------------------------------------------------
// pass, §1 never-ending moves make a player pass
// ---------------------------------------------------------------------------------------------------------

/// South owns 11 pits (target 12), North owns only N5 (pit 10). South plays S1 (2): pit 1 1→2, pit 2 0→1 →
/// ends. Board [0,2,1,0,1,0 | 1,0,2,1,3,1] = 12 > 8. North's only seeds are the 3 in pit 10, and that sowing
/// never ends (relay laps of 2–3 seeds with no capture; the lap-end configuration after the first relay,
/// ([1,3,1,0,1,0,1,0,2,1,0,2], pit 1), comes back after 60 relays). So North has no legal move and passes;
/// South moves again.
#[test]
fn a_player_whose_only_sowing_never_ends_passes() {
    let mut game = load(&in_progress(
        [2, 1, 0, 0, 1, 0, 1, 0, 2, 1, 3, 1],
        [20, 16],
        S,
        N,
        &[10],
        12,
        2,
    ));
    let events = sow(&mut game, 0);
    assert_eq!(pits(&game), vec![0, 2, 1, 0, 1, 0, 1, 0, 2, 1, 3, 1]);
    assert!(events.contains(&Event::Pass { player: N }));
    assert_eq!(game.to_move(), Some(S));
    assert_eq!(game.status(), Status::InProgress);
    assert!(sow_moves(&game).contains(&1));
    // The same board with North to move is not a valid state: North would have passed.
    let err = AnyGame::from_setup(&in_progress(
        [0, 2, 1, 0, 1, 0, 1, 0, 2, 1, 3, 1],
        [20, 16],
        N,
        N,
        &[10],
        12,
        2,
    ));
    assert!(err.is_err());
}

/// North owns his row, which is empty. South plays S1 (1 seed): pit 1 0→1 → ends; 12 seeds remain, North has
/// no seed in his pits → he passes and South moves again.
#[test]
fn a_player_with_no_seeds_passes_and_the_mover_moves_again() {
    let mut game = load(&in_progress(
        [1, 0, 3, 3, 3, 2, 0, 0, 0, 0, 0, 0],
        [20, 16],
        S,
        S,
        &NORTH_ROW,
        10,
        2,
    ));
    let events = sow(&mut game, 0);
    assert_eq!(pits(&game), vec![0, 1, 3, 3, 3, 2, 0, 0, 0, 0, 0, 0]);
    assert!(events.contains(&Event::Pass { player: N }));
    assert_eq!(game.to_move(), Some(S));
}

// ---------------------------------------------------------------------------------------------------------
// §4.4 between games: allocation, match end, reset, alternating starter
// ---------------------------------------------------------------------------------------------------------

#[test]
fn allocation_six_six_each_keeps_his_row() {
    let mut game = load(&finished([24, 24], Status::GameOver, None, S, 10));
    next_game(&mut game, PitSet::EMPTY);
    assert_eq!(north_owned(&game), NORTH_ROW.to_vec());
    assert_eq!(starter(&game), N);
    assert_eq!(game.to_move(), Some(N));
    assert_eq!(game.to_setup().match_score, vec![6, 6]);
}

#[test]
fn allocation_seven_south_takes_n1() {
    let mut game = load(&finished([28, 20], Status::GameOver, Some(S), N, 10));
    next_game(&mut game, PitSet::EMPTY);
    assert_eq!(north_owned(&game), vec![7, 8, 9, 10, 11]);
    assert_eq!(starter(&game), S);
}

#[test]
fn allocation_seven_north_takes_s1() {
    let mut game = load(&finished([20, 28], Status::GameOver, Some(N), S, 10));
    next_game(&mut game, PitSet::EMPTY);
    assert_eq!(north_owned(&game), vec![0, 6, 7, 8, 9, 10, 11]);
}

/// 11 pits with target 12: South takes N1–N5, North keeps N6 only.
#[test]
fn allocation_eleven_with_target_twelve() {
    let mut game = load(&finished([44, 4], Status::GameOver, Some(S), S, 12));
    next_game(&mut game, PitSet::EMPTY);
    assert_eq!(north_owned(&game), vec![11]);
    assert_eq!(game.to_setup().match_score, vec![11, 1]);
    let mut game = load(&finished([4, 44], Status::GameOver, Some(N), S, 12));
    next_game(&mut game, PitSet::EMPTY);
    let mut expect: Vec<usize> = vec![0, 1, 2, 3, 4];
    expect.extend(NORTH_ROW);
    assert_eq!(north_owned(&game), expect, "South keeps S6 only");
}

/// 11 pits with target 10 or 11 ends the match; 12 pits (opponent 0) ends it for every target.
#[test]
fn match_end_at_eleven_and_twelve() {
    for target in [10, 11] {
        let game = load(&finished([44, 4], Status::MatchOver, Some(S), S, target));
        assert!(game.legal_moves().is_empty());
        assert!(
            AnyGame::from_setup(&finished([44, 4], Status::GameOver, Some(S), S, target)).is_err()
        );
    }
    for target in [10, 11, 12] {
        let mut game = load(&finished([0, 48], Status::MatchOver, Some(N), S, target));
        let err = game
            .play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
            .unwrap_err();
        assert_eq!(err.reason, Reason::MatchOver);
    }
    // 10 pits with target 11 is not the end.
    assert!(AnyGame::from_setup(&finished([40, 8], Status::GameOver, Some(S), S, 11)).is_ok());
    assert!(AnyGame::from_setup(&finished([40, 8], Status::MatchOver, Some(S), S, 11)).is_err());
}

/// optional choice: South with 8 pits may take N5, N6 instead of N1, N2.
#[test]
fn allocation_by_choice() {
    let mut game = load(&finished([32, 16], Status::GameOver, Some(S), S, 10));
    next_game(&mut game, PitSet::EMPTY.with(10).with(11));
    assert_eq!(north_owned(&game), vec![6, 7, 8, 9]);
    for bad in [
        PitSet::EMPTY.with(10),                  // too few
        PitSet::EMPTY.with(9).with(10).with(11), // too many
        PitSet::EMPTY.with(0).with(11),          // one of his own pits
    ] {
        let game = load(&finished([32, 16], Status::GameOver, Some(S), S, 10));
        assert_eq!(
            game.check(&Move::NextGame(bad)).unwrap_err().reason,
            Reason::InvalidChoice
        );
    }
}

/// A whole new match: game 1 by the first player, each his own row (§4.1); after a game, starters alternate.
#[test]
fn new_match_first_player_north() {
    let game = AnyGame::new_match(
        GameKind::BaAwa,
        &Options {
            first_player: N,
            ba_awa_target: 10,
            ..Options::default()
        },
    );
    assert_eq!(game.to_move(), Some(N));
    assert_eq!(starter(&game), N);
    assert_eq!(north_owned(&game), NORTH_ROW.to_vec());
    assert_eq!(pits(&game), vec![4; 12]);
    assert_eq!(sow_moves(&game), vec![6, 7, 8, 9, 10, 11]);
}

// ---------------------------------------------------------------------------------------------------------
// Validation of impossible states
// ---------------------------------------------------------------------------------------------------------

fn base() -> Setup {
    in_progress([4; 12], [0, 0], S, S, &NORTH_ROW, 10, 1)
}

#[test]
fn validation_rejects_what_it_should() {
    assert!(AnyGame::from_setup(&base()).is_ok());
    let mut s = base();
    s.stores = vec![2, 2].into();
    s.pits[0] = 0;
    assert!(
        AnyGame::from_setup(&s).is_err(),
        "stores not multiples of 4"
    );
    let mut s = base();
    s.stores = vec![4, 0].into();
    assert!(AnyGame::from_setup(&s).is_err(), "52 seeds");
    let s = in_progress(
        [0, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0, 0],
        [20, 20],
        S,
        S,
        &NORTH_ROW,
        10,
        2,
    );
    assert!(
        AnyGame::from_setup(&s).is_err(),
        "8 on the board in progress"
    );
    let s = in_progress([4; 12], [0, 0], S, S, &[0, 7, 8, 9, 10, 11], 10, 2);
    assert!(
        AnyGame::from_setup(&s).is_err(),
        "each owns a pit of the other's row"
    );
    let mut s = base();
    s.variant = VariantSetup::BaAwa {
        owners: owners(&NORTH_ROW).into(),
        starter: Some(S),
        target: 9,
        players: 0,
        eliminated_in: Vec::new().into(),
    };
    assert!(AnyGame::from_setup(&s).is_err(), "target 9");
    let mut s = base();
    s.winner = Some(S);
    assert!(AnyGame::from_setup(&s).is_err(), "winner in progress");
    let mut s = finished([28, 20], Status::GameOver, Some(S), S, 10);
    s.pits[0] = 4;
    s.stores = vec![24, 20].into();
    assert!(
        AnyGame::from_setup(&s).is_err(),
        "seeds left after the game"
    );
}

/// §4.4 step 2: "A player who gets 0 pits has lost" — the match is over, so a game in progress in which
/// North owns no pit at all cannot exist (and South owning 12 ≥ any target).
#[test]
fn validation_rejects_a_game_in_progress_where_a_player_owns_no_pit() {
    let s = in_progress([4; 12], [0, 0], S, S, &[], 12, 2);
    assert!(
        AnyGame::from_setup(&s).is_err(),
        "North owns 0 pits: the match would have ended (§4.4 step 2)"
    );
}

/// §4.4 step 2: with target 10 a player who won 10 pits has won the match, so no later game is played with
/// him owning 10 pits.
#[test]
fn validation_rejects_a_game_in_progress_where_a_player_owns_the_target() {
    let s = in_progress([4; 12], [0, 0], S, N, &[10, 11], 10, 2);
    assert!(
        AnyGame::from_setup(&s).is_err(),
        "South owns 10 pits with target 10: the match would already be over"
    );
}

/// §4.1: "In game 1 each player owns his own row."
#[test]
fn validation_rejects_game_one_with_pits_changed_hands() {
    let s = in_progress([4; 12], [0, 0], S, S, &[7, 8, 9, 10, 11], 10, 1);
    assert!(
        AnyGame::from_setup(&s).is_err(),
        "game 1 with South owning N1"
    );
}

/// Outside input must not panic (engine module contract): a store of 252 passes the "multiple of 4" check,
/// and the legality probe then adds a four to it in u8.
#[test]
fn validation_does_not_panic_on_a_huge_store() {
    let s = in_progress(
        [0, 0, 0, 0, 0, 1, 3, 2, 2, 2, 2, 2],
        [252, 0],
        S,
        S,
        &NORTH_ROW,
        10,
        1,
    );
    let r = std::panic::catch_unwind(|| AnyGame::from_setup(&s).is_err());
    assert!(
        matches!(r, Ok(true)),
        "expected a plain rejection, got {r:?}"
    );
}

/// Outside input must not panic: 12 pits of 48 each pass the per-pit bound but overflow a u8 sum.
#[test]
fn validation_does_not_panic_on_an_overfull_board() {
    let s = in_progress([48; 12], [0, 0], S, S, &NORTH_ROW, 10, 1);
    let r = std::panic::catch_unwind(|| AnyGame::from_setup(&s).is_err());
    assert!(
        matches!(r, Ok(true)),
        "expected a plain rejection, got {r:?}"
    );
}

/// the target is 10, 11 or 12. A match created with another target produces states the engine
/// itself refuses.
#[test]
fn new_match_with_a_target_outside_ten_to_twelve_still_round_trips() {
    let game = AnyGame::new_match(
        GameKind::BaAwa,
        &Options {
            first_player: S,
            ba_awa_target: 9,
            ..Options::default()
        },
    );
    assert!(
        AnyGame::from_setup(&game.to_setup()).is_ok(),
        "new_match accepted target 9 but from_setup refuses the state it produced"
    );
}

// ---------------------------------------------------------------------------------------------------------
// Differential test against a reference model written from §4 alone
// ---------------------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
struct Model {
    pits: [u32; 12],
    owner: [Player; 12],
    stores: [u32; 2],
    to_move: Option<Player>,
    status: Status,
    starter: Player,
    target: u32,
}

struct Outcome {
    pits: [u32; 12],
    gains: [u32; 2],
    captures: Vec<(u8, Player)>,
}

fn idx(p: Player) -> usize {
    match p {
        Player::South => 0,
        Player::North => 1,
        Player::East => unreachable!("a two-player model"),
    }
}

/// §4.2 algorithm verbatim; `None` when the sowing never ends (exact repeat of (board, pit) at a lap end).
fn model_sow(pits: &[u32; 12], owner: &[Player; 12], mover: Player, i: usize) -> Option<Outcome> {
    let mut p = *pits;
    let mut gains = [0u32; 2];
    let mut caps = Vec::new();
    let mut hand = p[i];
    p[i] = 0;
    let mut pos = i;
    let mut seen = HashSet::new();
    loop {
        while hand > 0 {
            pos = (pos + 1) % 12;
            p[pos] += 1;
            hand -= 1;
            if hand > 0 && p[pos] == 4 {
                gains[idx(owner[pos])] += 4;
                caps.push((pos as u8, owner[pos]));
                p[pos] = 0;
            }
        }
        if p[pos] == 4 {
            gains[idx(mover)] += 4;
            caps.push((pos as u8, mover));
            p[pos] = 0;
            break;
        }
        if p[pos] == 1 {
            break;
        }
        if !seen.insert((p, pos)) {
            return None;
        }
        hand = p[pos];
        p[pos] = 0;
    }
    Some(Outcome {
        pits: p,
        gains,
        captures: caps,
    })
}

impl Model {
    fn from_game(g: &AnyGame) -> Model {
        let s = g.to_setup();
        let VariantSetup::BaAwa {
            owners,
            starter,
            target,
            ..
        } = s.variant
        else {
            panic!()
        };
        Model {
            pits: s.pits[..].try_into().unwrap(),
            owner: owners
                .iter()
                .map(|o| o.unwrap())
                .collect::<Vec<_>>()
                .try_into()
                .unwrap(),
            stores: [s.stores[0], s.stores[1]],
            to_move: s.to_move,
            status: s.status.unwrap(),
            starter: starter.unwrap(),
            target,
        }
    }

    fn legal(&self, p: Player) -> Vec<u8> {
        (0..12)
            .filter(|&i| {
                self.owner[i] == p
                    && self.pits[i] > 0
                    && model_sow(&self.pits, &self.owner, p, i).is_some()
            })
            .map(|i| i as u8)
            .collect()
    }

    /// Plays a sowing; returns (captures, passed player).
    fn play(&mut self, i: usize) -> (Vec<(u8, Player)>, Option<Player>) {
        let mover = self.to_move.unwrap();
        let out = model_sow(&self.pits, &self.owner, mover, i).expect("legal");
        self.pits = out.pits;
        self.stores[0] += out.gains[0];
        self.stores[1] += out.gains[1];
        let on_board: u32 = self.pits.iter().sum();
        if on_board <= 8 {
            self.end();
            return (out.captures, None);
        }
        let opp = mover.opponent();
        if !self.legal(opp).is_empty() {
            self.to_move = Some(opp);
            return (out.captures, None);
        }
        if !self.legal(mover).is_empty() {
            self.to_move = Some(mover);
        } else {
            self.end();
        }
        (out.captures, Some(opp))
    }

    fn end(&mut self) {
        let on_board: u32 = self.pits.iter().sum();
        self.stores[idx(self.starter)] += on_board;
        self.pits = [0; 12];
        self.to_move = None;
        let won = [self.stores[0] / 4, self.stores[1] / 4];
        self.status = if won.iter().any(|&w| w >= self.target || w == 0) {
            Status::MatchOver
        } else {
            Status::GameOver
        };
    }

    /// §4.4 with the default allocation.
    fn next_game(&mut self) {
        let won = [self.stores[0] / 4, self.stores[1] / 4];
        let mut owner = [S, S, S, S, S, S, N, N, N, N, N, N];
        if won[0] > 6 {
            for k in 0..(won[0] - 6) as usize {
                owner[NORTH_ROW[k]] = S;
            }
        } else if won[1] > 6 {
            for k in 0..(won[1] - 6) as usize {
                owner[SOUTH_ROW[k]] = N;
            }
        }
        self.owner = owner;
        self.pits = [4; 12];
        self.stores = [0, 0];
        self.starter = self.starter.opponent();
        self.to_move = Some(self.starter);
        self.status = Status::InProgress;
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays random moves, comparing engine and model after every step. Returns the number of sowings.
fn differential(game: &mut AnyGame, rng: &mut Rng, max_plies: usize, whole_match: bool) -> usize {
    let mut model = Model::from_game(game);
    let mut plies = 0;
    while plies < max_plies {
        match model.status {
            Status::InProgress => {}
            Status::GameOver if whole_match => {
                next_game(game, PitSet::EMPTY);
                model.next_game();
                assert_eq!(Model::from_game(game), model, "after NextGame");
                continue;
            }
            _ => break,
        }
        let mover = model.to_move.unwrap();
        let legal = model.legal(mover);
        assert_eq!(sow_moves(game), legal, "legal moves differ in {model:?}");
        assert!(!legal.is_empty());
        let pit = legal[rng.below(legal.len())];
        let before = model.clone();
        let events = sow(game, pit);
        let (caps, passed) = model.play(pit as usize);
        assert_eq!(
            captures(&events),
            caps,
            "captures differ: {before:?} pit {pit}"
        );
        let engine_pass = events.iter().find_map(|e| match e {
            Event::Pass { player } => Some(*player),
            _ => None,
        });
        assert_eq!(engine_pass, passed, "pass differs: {before:?} pit {pit}");
        assert_eq!(
            Model::from_game(game),
            model,
            "state differs: {before:?} pit {pit}"
        );
        plies += 1;
    }
    plies
}

#[test]
fn differential_whole_matches_against_a_reference_model() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut total = 0;
    for m in 0..12 {
        let mut game = AnyGame::new_match(
            GameKind::BaAwa,
            &Options {
                first_player: if m % 2 == 0 { S } else { N },
                ba_awa_target: [10, 11, 12][m % 3],
                ..Options::default()
            },
        );
        total += differential(&mut game, &mut rng, 4000, true);
    }
    assert!(total > 1000);
}

#[test]
fn differential_random_sparse_positions_against_a_reference_model() {
    let mut rng = Rng(0x0dd_ba11_cafe_f00d);
    let mut tried = 0;
    let mut played = 0;
    while played < 3000 {
        tried += 1;
        // 12–28 seeds on the board, the rest in stores: total 48.
        let on_board = 4 * (3 + rng.below(5) as u32);
        let mut pits = [0u32; 12];
        for _ in 0..on_board {
            pits[rng.below(12)] += 1;
        }
        let rest = (48 - on_board) / 4;
        let s4 = rng.below(rest as usize + 1) as u32;
        let stores = [4 * s4, 4 * (rest - s4)];
        // Ownership: a surplus of 0–5 pits on either side, a random subset of the other row (target 12).
        let extra = rng.below(6);
        let mut north: Vec<usize> = NORTH_ROW.to_vec();
        let mut pool: Vec<usize> = if rng.below(2) == 0 {
            NORTH_ROW.to_vec()
        } else {
            SOUTH_ROW.to_vec()
        };
        let south_surplus = pool[0] == 6;
        for _ in 0..extra {
            let k = pool.remove(rng.below(pool.len()));
            if south_surplus {
                north.retain(|&p| p != k);
            } else {
                north.push(k);
            }
        }
        north.sort();
        let to_move = if rng.below(2) == 0 { S } else { N };
        let starter = if rng.below(2) == 0 { S } else { N };
        let setup = in_progress(pits, stores, to_move, starter, &north, 12, 2);
        let model = Model {
            pits,
            owner: owners(&north)
                .iter()
                .map(|o| o.unwrap())
                .collect::<Vec<_>>()
                .try_into()
                .unwrap(),
            stores,
            to_move: Some(to_move),
            status: Status::InProgress,
            starter,
            target: 12,
        };
        match AnyGame::from_setup(&setup) {
            Ok(mut game) => {
                assert!(
                    !model.legal(to_move).is_empty(),
                    "engine accepted a stuck mover: {model:?}"
                );
                played += differential(&mut game, &mut rng, 200, false);
            }
            Err(_) => {
                assert!(
                    model.legal(to_move).is_empty(),
                    "engine refused a valid state: {model:?}"
                );
            }
        }
        assert!(tried < 100_000);
    }
}
