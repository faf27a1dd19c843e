//! Ba-awa rule tests: the worked examples BA-1..BA-6 of docs/ba-awa.md §4.6 and one test per rule clause.

use super::*;
use crate::engine::NoTrace;

const S: Player = Player::South;
const N: Player = Player::North;

/// A game in progress with `pits`, North owning `north_owned`, `starter` having begun and `to_move` to move.
fn position(pits: [u8; PITS], north_owned: u16, starter: Player, to_move: Player) -> BaAwa {
    BaAwa {
        pits,
        north_owned,
        east_owned: 0,
        stores: [0; 3],
        seats: 2,
        eliminated_in: [0; 3],
        to_move: Some(to_move),
        status: Status::InProgress,
        winner: None,
        starter,
        target: DEFAULT_TARGET,
        ply: 0,
        game_number: 1,
    }
}

fn sow(game: &mut BaAwa, pit: u8) -> Vec<Event> {
    let mut events = Vec::new();
    game.play(&Move::Sow(Sow::from(pit)), &mut events)
        .expect("legal move");
    events
}

pub(super) fn captures(events: &[Event]) -> Vec<(u8, Player)> {
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

// ---- Worked examples, docs/ba-awa.md §4.6 ----

#[test]
fn ba_1_opening_s1_relays_four_times_without_a_capture() {
    let mut game = BaAwa::new_match(&Options::default());
    let events = sow(&mut game, 0);
    assert_eq!(game.pits, [2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6]);
    assert_eq!(game.stores, [0, 0, 0]);
    assert!(captures(&events).is_empty());
    assert_eq!(laps(&events), vec![(0, 4), (4, 5), (9, 5), (2, 6), (8, 6)]);
    assert_eq!(game.to_move, Some(N));
}

#[test]
fn ba_1_the_opening_is_rotation_symmetric() {
    let mut game = BaAwa::new_match(&Options::default());
    sow(&mut game, 1);
    assert_eq!(game.pits, [6, 2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6]);
}

#[test]
fn ba_2_en_passant_four_for_the_owner_then_final_four_for_the_mover() {
    let mut game = position([2, 1, 0, 5, 3, 0, 3, 3, 0, 2, 4, 1], NORTH_ROW, S, S);
    let events = sow(&mut game, 4);
    assert_eq!(game.pits, [2, 1, 0, 5, 0, 1, 0, 0, 0, 2, 4, 1]);
    assert_eq!(game.stores, [4, 4, 0]);
    assert_eq!(captures(&events), vec![(6, N), (7, S)]);
    assert_eq!(game.seeds_on_board(), 16);
}

#[test]
fn ba_3_three_en_passant_fours_in_one_lap() {
    let mut game = position([2, 1, 0, 5, 3, 0, 3, 3, 0, 2, 4, 1], NORTH_ROW, S, S);
    let events = sow(&mut game, 3);
    assert_eq!(game.pits, [2, 1, 0, 0, 0, 1, 0, 0, 1, 2, 4, 1]);
    assert_eq!(game.stores, [4, 8, 0]);
    assert_eq!(captures(&events), vec![(4, S), (6, N), (7, N)]);
}

#[test]
fn ba_4_thirteen_seed_lap_resows_its_origin_then_relays() {
    let mut game = position([13, 1, 0, 2, 0, 0, 1, 0, 2, 0, 1, 0], NORTH_ROW, S, S);
    let events = sow(&mut game, 0);
    assert_eq!(game.pits, [2, 1, 2, 0, 0, 2, 0, 2, 0, 0, 3, 0]);
    assert_eq!(game.stores, [4, 4, 0]);
    assert_eq!(
        laps(&events),
        vec![(0, 13), (1, 3), (4, 2), (6, 3), (9, 2), (11, 2)]
    );
    assert_eq!(
        game.status,
        Status::InProgress,
        "12 seeds remain, so play continues"
    );
}

#[test]
fn ba_5_end_of_game_ownership_and_the_next_game() {
    let mut game = position([0, 1, 0, 0, 0, 3, 0, 0, 3, 0, 2, 3], NORTH_ROW, S, N);
    game.stores = [20, 16, 0];
    let events = sow(&mut game, 10);
    assert_eq!(captures(&events), vec![(11, N)]);
    assert!(events.contains(&Event::GameEnd {
        reason: EndReason::FewSeedsLeft,
        winner: Some(S),
        collector: Some(S),
        collected: 8,
        stores: PerSeat::two([28, 20]),
    }));
    assert_eq!(game.stores, [28, 20, 0]);
    assert_eq!(game.status, Status::GameOver);
    assert_eq!(game.to_move, None);
    assert_eq!(game.match_score(), PerSeat::two([7, 5]));

    let mut events = Vec::new();
    game.play(&Move::NextGame(PitSet::EMPTY), &mut events)
        .unwrap();
    assert_eq!(
        game.north_owned,
        NORTH_ROW & !(1 << 6),
        "South owns 0-5 and 6 (N1)"
    );
    assert_eq!(game.pits, [4; PITS]);
    assert_eq!(game.stores, [0, 0, 0]);
    assert_eq!(game.to_move, Some(N), "North starts the next game");
    assert_eq!(game.starter, N);
    assert_eq!(game.game_number, 2);
    assert_eq!(game.match_score(), PerSeat::two([7, 5]));
}

#[test]
fn ba_6_moving_from_a_pit_owned_on_the_opponents_side() {
    let mut game = position([4; PITS], NORTH_ROW & !(1 << 6), N, S);
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(moves.contains(&Move::Sow(Sow::from(6))));
    let events = sow(&mut game, 6);
    assert_eq!(game.pits, [6, 6, 0, 1, 6, 6, 2, 7, 1, 6, 1, 6]);
    assert_eq!(
        laps(&events).iter().map(|l| l.0).collect::<Vec<_>>(),
        vec![6, 10, 3, 8, 2]
    );
}

// ---- One test per clause ----

/// §4.2: a non-final seed making 4 goes to the pit's owner, also for a pit owned on the other side.
#[test]
fn en_passant_four_goes_to_the_owner_of_a_pit_on_the_opponents_side() {
    // South owns pit 10 (N5). North sows 3 from pit 9: pit 10 makes 4 with seeds still in hand.
    let mut game = position(
        [5, 0, 0, 0, 0, 0, 0, 4, 0, 3, 3, 0],
        NORTH_ROW & !(1 << 10),
        S,
        N,
    );
    let events = sow(&mut game, 9);
    assert_eq!(captures(&events), vec![(10, S)]);
    assert_eq!(game.stores, [4, 0, 0]);
}

/// §4.2: the final seed making 4 goes to the mover even on the opponent's side, and ends the move.
#[test]
fn final_seed_four_goes_to_the_mover_and_ends_the_move() {
    let mut game = position([0, 0, 0, 0, 0, 1, 3, 2, 2, 2, 2, 2], NORTH_ROW, S, S);
    let events = sow(&mut game, 5);
    assert_eq!(captures(&events), vec![(6, S)]);
    assert_eq!(game.pits[6], 0);
    assert_eq!(game.stores, [4, 0, 0]);
    assert_eq!(laps(&events).len(), 1);
}

/// §4.2: a pit that already holds 4 and receives a seed becomes 5 and is not captured.
#[test]
fn a_pit_already_holding_four_is_not_captured_when_it_becomes_five() {
    let mut game = position([0, 0, 0, 0, 1, 0, 4, 4, 4, 4, 4, 4], NORTH_ROW, S, S);
    game.pits[4] = 2;
    let events = sow(&mut game, 4);
    // pit 5 0→1, pit 6 4→5 (last): relay 5 from pit 6.
    assert!(!captures(&events).contains(&(6, N)));
    assert_eq!(laps(&events)[1], (6, 5));
}

/// §4.2: a final seed in an empty pit ends the move.
#[test]
fn a_final_seed_in_an_empty_pit_ends_the_move() {
    let mut game = position([0, 2, 0, 0, 5, 0, 4, 4, 4, 4, 4, 4], NORTH_ROW, S, S);
    let events = sow(&mut game, 1);
    assert_eq!(game.pits[..4], [0, 0, 1, 1]);
    assert_eq!(laps(&events).len(), 1);
    assert_eq!(game.to_move, Some(N));
}

/// §4.2: a final seed in an occupied pit (not making 4) relays from that pit, starting with the next pit.
#[test]
fn a_final_seed_in_an_occupied_pit_relays_from_the_next_pit() {
    let mut game = position([0, 1, 1, 0, 5, 0, 4, 4, 4, 4, 4, 4], NORTH_ROW, S, S);
    let events = sow(&mut game, 1);
    // pit 2 1→2: relay 2 from pit 2 into 3 and 4.
    assert_eq!(laps(&events)[..2], [(1, 1), (2, 2)]);
}

/// §4.3, R-4.2: after a move that leaves ≤ 8 seeds, the starter takes them all, even when the other player moved.
#[test]
fn the_starter_takes_the_last_eight_or_fewer_seeds() {
    let mut game = position([0, 0, 0, 0, 0, 1, 3, 1, 1, 1, 1, 4], NORTH_ROW, N, S);
    game.stores = [20, 16, 0];
    let events = sow(&mut game, 5);
    assert_eq!(captures(&events), vec![(6, S)]);
    // 8 seeds are left; North began the game and takes them.
    assert_eq!(game.stores, [24, 24, 0]);
    assert_eq!(game.pits, [0; PITS]);
    assert_eq!(game.status, Status::GameOver);
    assert_eq!(game.winner, None, "24-24 is a drawn game");
}

/// §4.3: with more than 8 seeds left the game goes on.
#[test]
fn nine_seeds_left_is_not_the_end() {
    let mut game = position([0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 1, 0], NORTH_ROW, S, S);
    sow(&mut game, 5);
    assert_eq!(game.seeds_on_board(), 10);
    assert_eq!(game.status, Status::InProgress);
}

/// a player with no legal move passes, and the mover moves again.
#[test]
fn a_player_without_seeds_passes() {
    // North owns 6-11, all empty after South's move.
    let mut game = position([1, 0, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0], NORTH_ROW, S, S);
    let events = sow(&mut game, 0);
    assert!(events.contains(&Event::Pass { player: N }));
    assert_eq!(game.to_move, Some(S));
    assert_eq!(game.status, Status::InProgress);
}

/// §4.1: a player moves only from pits he owns; §4.2: never from an empty pit.
#[test]
fn moves_from_foreign_or_empty_pits_are_refused() {
    let game = BaAwa::new_match(&Options::default());
    let refuse = |pit: u8| {
        game.clone()
            .play(&Move::Sow(Sow::from(pit)), &mut NoTrace)
            .unwrap_err()
            .reason
    };
    assert_eq!(refuse(6), Reason::NotYourPit);
    assert_eq!(refuse(12), Reason::NoSuchPit);
    let mut game = position([0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], NORTH_ROW, S, S);
    let before = game.clone();
    assert_eq!(
        game.play(&Move::Sow(Sow::from(0)), &mut NoTrace)
            .unwrap_err()
            .reason,
        Reason::PitEmpty
    );
    assert_eq!(game, before);
}

/// Ba-awa has no direction, kichwa or kuu.
#[test]
fn choices_of_other_games_are_refused() {
    let mut game = BaAwa::new_match(&Options::default());
    let mut sow = Sow::from(0);
    sow.direction = Some(crate::engine::Direction::Clockwise);
    assert_eq!(
        game.play(&Move::Sow(sow), &mut NoTrace).unwrap_err().reason,
        Reason::ChoiceNotOffered
    );
}

/// §1, R-4.7: a sowing that never ends is illegal and leaves the state untouched.
#[test]
fn a_never_ending_move_is_illegal() {
    let game = never_ending_position();
    let (pit, mover) = (NEVER_ENDING_PIT, game.to_move.unwrap());
    assert!(game
        .clone()
        .sow_with_relays(pit, mover, &mut NoTrace)
        .is_err());
    let mut played = game.clone();
    let mut events = Vec::new();
    let err = played
        .play(&Move::Sow(Sow::from(pit)), &mut events)
        .unwrap_err();
    assert_eq!(err.reason, Reason::NeverEndingMove);
    assert_eq!(played, game);
    assert!(events.is_empty(), "no partial trace is left behind");
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(!moves.contains(&Move::Sow(Sow::from(pit))));
}

const NEVER_ENDING_PIT: u8 = 2;

/// A sparse position (found by random play from the start) whose sowing from pit 2 cycles for ever.
fn never_ending_position() -> BaAwa {
    position(NEVER_ENDING_PITS, NORTH_ROW, S, S)
}

const NEVER_ENDING_PITS: [u8; PITS] = [2, 1, 3, 1, 0, 1, 0, 1, 0, 2, 1, 0];

/// §4.4: the next game is not available while a game is played, nor after the match.
#[test]
fn next_game_only_after_a_game() {
    let mut game = BaAwa::new_match(&Options::default());
    let err = game
        .play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .unwrap_err();
    assert_eq!(err.reason, Reason::GameInProgress);
}

fn finished(stores: [u8; 2], starter: Player) -> BaAwa {
    finished_with_target(stores, starter, DEFAULT_TARGET)
}

fn finished_with_target(stores: [u8; 2], starter: Player, target: u8) -> BaAwa {
    let mut game = position([0; PITS], NORTH_ROW, starter, starter);
    game.stores = [stores[0], stores[1], 0];
    game.target = target;
    game.to_move = None;
    let outcome = game.outcome_of_game();
    game.status = outcome.status;
    game.winner = outcome.winner;
    game
}

/// Where a two-player match stands after a game with these final winnings (§4.4 step 2).
fn outcome_of_game(stores: [u8; 2], target: u8) -> (Status, Option<Player>) {
    let game = finished_with_target(stores, S, target);
    (game.status, game.winner)
}

/// §4.4 step 3: a North surplus takes South's pits from S1 on; the surplus player may choose instead.
#[test]
fn north_surplus_takes_souths_leftmost_pits_by_default_or_by_choice() {
    let mut game = finished([16, 32], S);
    game.play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .unwrap();
    assert_eq!(game.north_owned, NORTH_ROW | 0b11);
    assert_eq!(game.to_move, Some(N));

    let mut game = finished([16, 32], S);
    game.play(&Move::NextGame(PitSet(0b110000)), &mut NoTrace)
        .unwrap();
    assert_eq!(game.north_owned, NORTH_ROW | 0b110000);
}

/// §4.4: a choice must take exactly the surplus, from the opponent's row.
#[test]
fn invalid_allocation_choices_are_refused() {
    let game = finished([16, 32], S);
    for choice in [PitSet(0b1), PitSet(0b111), PitSet(1 << 6 | 1)] {
        let err = game
            .clone()
            .play(&Move::NextGame(choice), &mut NoTrace)
            .unwrap_err();
        assert_eq!(err.reason, Reason::InvalidChoice, "{choice:?}");
    }
    let err = finished([24, 24], S)
        .play(&Move::NextGame(PitSet(1)), &mut NoTrace)
        .unwrap_err();
    assert_eq!(err.reason, Reason::InvalidChoice);
}

/// §4.4 step 2: reaching the target ends the match; so does having no pits.
#[test]
fn the_match_ends_at_the_target() {
    assert_eq!(outcome_of_game([40, 8], 10), (Status::MatchOver, Some(S)));
    assert_eq!(outcome_of_game([36, 12], 10), (Status::GameOver, Some(S)));
    assert_eq!(outcome_of_game([8, 40], 11), (Status::GameOver, Some(N)));
    assert_eq!(outcome_of_game([4, 44], 11), (Status::MatchOver, Some(N)));
    assert_eq!(outcome_of_game([0, 48], 12), (Status::MatchOver, Some(N)));
    let mut game = finished([40, 8], S);
    assert_eq!(
        game.play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
            .unwrap_err()
            .reason,
        Reason::MatchOver
    );
}

/// the starter alternates from game to game.
#[test]
fn the_starter_alternates() {
    let mut game = finished([24, 24], N);
    game.play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .unwrap();
    assert_eq!((game.starter, game.to_move), (S, Some(S)));
    assert_eq!(game.north_owned, NORTH_ROW);
}

/// Found by the fuzz target `play` (tests/fuzz/corpus/play/found-ba-awa-ply-max.bin): a client's state may claim
/// the largest ply or game number; the next move or game must not overflow the count (a panic in a debug build).
#[test]
fn a_move_or_next_game_at_the_largest_count_does_not_overflow() {
    let mut game = BaAwa::new_match(&Options::default());
    game.ply = u32::MAX;
    sow(&mut game, 0);
    assert_eq!(game.ply, u32::MAX);

    let mut game = finished([24, 24], N);
    game.game_number = u32::MAX;
    game.play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .unwrap();
    assert_eq!(game.game_number, u32::MAX);
}

/// Found by the fuzz target `play`: in a custom position with fewer than 48 seeds, the game's end gives the
/// starter a store that is not a multiple of 4 (§4.3); that finished state must be accepted back, as every state
/// the engine answers with is.
#[test]
fn the_end_of_a_custom_game_with_fewer_seeds_is_a_valid_state() {
    let mut game = position([1, 3, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0], NORTH_ROW, N, S);
    game.stores = [4, 16, 0];
    game.ply = 13;
    assert_eq!(BaAwa::from_setup(&game.to_setup()), Ok(game.clone()));
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(!moves.is_empty());
    let mut ended = 0;
    for mv in moves {
        let mut next = game.clone();
        next.play(&mv, &mut NoTrace).expect("a listed move");
        ended += usize::from(next.status == Status::MatchOver);
        assert_eq!(
            BaAwa::from_setup(&next.to_setup()),
            Ok(next.clone()),
            "after {mv:?}"
        );
    }
    // S1 makes a four in S2 (South takes it) and leaves 5 seeds, which the starter takes: North has 16 + 5.
    assert!(ended > 0, "a move that ends the game");
    // Only the starter's store takes the seeds left; the other's is still fours.
    let mut setup = game.to_setup();
    setup.status = Some(Status::MatchOver);
    setup.to_move = None;
    setup.pits = vec![0; PITS].into();
    setup.stores = vec![13, 16].into();
    assert!(BaAwa::from_setup(&setup).is_err());
}
