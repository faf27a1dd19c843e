//! One test per rule clause of docs/bosh.md: sowing and relays, captures, closed holes, rounds and refills, the
//! match, never-ending moves, legal and illegal moves.

use super::*;

/// §3.2, §1: the relay lifts the hole AFTER the one where the lap ended, not that hole itself.
#[test]
fn relay_lifts_the_next_hole_not_the_last_one() {
    // S1 (2) → S2 (1→2), S3 (last, 1→2). The hole after it, S4 (3), is lifted, not S3.
    let mut game = position([2, 1, 1, 3, 0, 0, 0, 0, 0, 1], 0, S);
    let events = sow(&mut game, 0);
    assert_eq!(laps(&events)[..2], [(0, 2), (3, 3)]);
    assert_eq!(
        game.pits[2], 2,
        "the hole of the last stone keeps its stones"
    );
}

/// §3.2: when the hole after the last stone is empty, the hole beyond it is captured and the move ends.
#[test]
fn capture_beyond_the_empty_hole_ends_the_move() {
    // S4 (1) → S5; N1 is empty; N2 (3) is taken.
    let mut game = position([0, 0, 0, 1, 0, 0, 3, 2, 0, 0], 0, S);
    let events = sow(&mut game, 3);
    assert_eq!(laps(&events), vec![(3, 1)]);
    assert_eq!(captures(&events), vec![(6, 3, S)]);
    assert_eq!(game.pits, [0, 0, 0, 0, 1, 0, 0, 2, 0, 0]);
    assert_eq!(game.stores, [3, 0]);
}

/// §3.2 "double empty void": the last stone followed by two empty holes takes nothing.
#[test]
fn two_empty_holes_after_the_last_stone_take_nothing() {
    let mut game = position([0, 0, 0, 1, 0, 0, 0, 2, 0, 0], 0, S);
    let events = sow(&mut game, 3);
    assert!(captures(&events).is_empty());
    assert_eq!(
        events.last(),
        Some(&Event::NoCapture {
            empty_pit: 5,
            beyond_pit: 6
        })
    );
    assert_eq!(game.stores, [0, 0]);
    assert_eq!(game.pits, [0, 0, 0, 0, 1, 0, 0, 2, 0, 0]);
}

/// §3.2, R-3.5: the hole beyond the empty one may be in the mover's own row.
#[test]
fn capture_from_the_movers_own_row() {
    // South S1 (1) → S2; S3 is empty; S4 (3), his own, is taken.
    let mut game = position([1, 0, 0, 3, 0, 0, 0, 0, 2, 0], 0, S);
    let events = sow(&mut game, 0);
    assert_eq!(captures(&events), vec![(3, 3, S)]);
    assert_eq!(game.pits, [0, 1, 0, 0, 0, 0, 0, 0, 2, 0]);
    assert_eq!(game.stores, [3, 0]);
    // North N1 (1) → N2; N3 is empty; N4 (5), his own, is taken.
    let mut game = position([2, 0, 0, 0, 0, 1, 0, 0, 5, 0], 0, N);
    let events = sow(&mut game, 5);
    assert_eq!(captures(&events), vec![(8, 5, N)]);
    assert_eq!(game.pits, [2, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(game.stores, [0, 5]);
}

/// closed holes receive no stone when sowing.
#[test]
fn closed_holes_are_skipped_when_sowing() {
    // N1 and N2 closed. S5 (3) → N3, N4, N5.
    let mut game = position([0, 0, 0, 0, 3, 0, 0, 0, 0, 0], 0b11 << 5, S);
    let events = sow(&mut game, 4);
    assert_eq!(drops(&events)[0], vec![7, 8, 9]);
}

/// the hole lifted by a relay is the next OPEN hole after the last stone.
#[test]
fn closed_holes_are_skipped_when_relaying() {
    // S4 closed. S2 (1) → S3 (last); S4 does not exist, so S5 (2) is the next hole and is lifted: N1, N2.
    let mut game = position([0, 1, 0, 0, 2, 0, 0, 0, 0, 1], 1 << 3, S);
    let events = sow(&mut game, 1);
    assert_eq!(laps(&events), vec![(1, 1), (4, 2)]);
    assert_eq!(drops(&events), vec![vec![2], vec![5, 6]]);
    assert_eq!(game.pits, [0, 0, 1, 0, 0, 1, 1, 0, 0, 1]);
}

/// a closed hole is not an empty "next hole"; the capture check looks at open holes only.
#[test]
fn closed_holes_do_not_count_in_the_capture_check() {
    // N1 closed. S4 (1) → S5 (last). The next open hole is N2 (empty), so N3 (3) beyond it is taken. Had N1
    // counted as an empty next hole (S-14's code), N2 would have been "captured" instead.
    let mut game = position([0, 0, 0, 1, 0, 0, 0, 3, 1, 0], 1 << 5, S);
    let events = sow(&mut game, 3);
    assert_eq!(captures(&events), vec![(7, 3, S)]);
    // N1 closed, N2 empty: S4 (1) → S5; next open N2 is empty; N3 empty too: nothing, N2/N3 reported.
    let mut game = position([0, 0, 0, 1, 0, 0, 0, 0, 2, 0], 1 << 5, S);
    let events = sow(&mut game, 3);
    assert_eq!(
        events.last(),
        Some(&Event::NoCapture {
            empty_pit: 6,
            beyond_pit: 7
        })
    );
    // N2 and N3 closed: after S5 the next open hole is N1 (empty) and beyond it N4 (2), skipping N2 and N3.
    let mut game = position([0, 0, 0, 1, 0, 0, 0, 0, 2, 1], 0b11 << 6, S);
    let events = sow(&mut game, 3);
    assert_eq!(captures(&events), vec![(8, 2, S)]);
}

/// §1, R-3.7: a lap of 10 or more stones drops a stone into its own origin.
#[test]
fn the_origin_is_not_skipped_on_long_laps() {
    let mut game = position([0, 0, 10, 0, 0, 0, 0, 0, 0, 0], 0, S);
    game.pits[5] = 0;
    let events = sow(&mut game, 2);
    assert_eq!(drops(&events)[0], vec![3, 4, 5, 6, 7, 8, 9, 0, 1, 2]);
    // With closed holes the circuit is shorter: 6 open holes, 7 stones reach the origin and go one beyond.
    let mut game = position([0, 0, 7, 0, 0, 0, 0, 0, 0, 0], 0b11 | 0b11 << 5, S);
    let events = sow(&mut game, 2);
    assert_eq!(drops(&events)[0], vec![3, 4, 7, 8, 9, 2, 3]);
}

/// §3.3, R-3.1: the round ends only at the start of a turn. South empties his own row, but North still has
/// stones, so North moves; his move feeds South and the round goes on. (S-14 would have ended it at once.)
#[test]
fn round_ends_only_at_the_start_of_a_turn() {
    let mut game = position([0, 0, 0, 0, 1, 0, 0, 0, 0, 2], 0, S);
    let events = sow(&mut game, 4);
    assert!(
        !game.has_stones(S),
        "South's row is empty after his own move"
    );
    assert!(!events.iter().any(|e| matches!(e, Event::RoundEnd { .. })));
    assert_eq!((game.status, game.to_move), (Status::InProgress, Some(N)));
    assert_eq!(legal(&game).as_slice(), sows(&[5, 9]));
    sow(&mut game, 9);
    assert_eq!(game.pits[..2], [1, 1], "North's N5 fed South's S1 and S2");
    assert_eq!((game.status, game.to_move), (Status::InProgress, Some(S)));
}

/// §3.3: a player with no stone at the start of his turn forfeits the stones on the board to his opponent.
#[test]
fn a_player_without_stones_forfeits_the_board_to_his_opponent() {
    // North N4 (1) → N5 (last); S1 is empty; S2 (1), South's last stone, is taken. South cannot move.
    let mut game = position([0, 1, 0, 0, 0, 2, 0, 3, 1, 0], 0, N);
    game.reserves = [3, 1];
    game.stores = [10, 19];
    let events = sow(&mut game, 8);
    assert_eq!(captures(&events), vec![(1, 1, N)]);
    assert_eq!(
        events.last(),
        Some(&Event::RoundEnd {
            reason: EndReason::PlayerEmpty,
            collector: Some(N),
            collected: 6,
            totals: [13, 27]
        })
    );
    assert_eq!(game.stores, [10, 26]);
    assert_eq!(game.pits, [0; HOLES]);
    assert_eq!(
        (game.status, game.winner, game.to_move),
        (Status::RoundOver, Some(N), None)
    );
    assert_eq!(game.ply, 1);
}

/// §3.3: when the board is empty at the start of a turn, the round ends with nothing to transfer.
#[test]
fn a_round_can_end_with_an_empty_board() {
    // Only S5 and N1 are open. S5 (1) → N1 (last); the next open hole is S5 (just emptied), and the hole beyond
    // it is N1 again: its 3 stones are taken and the board is empty at North's turn.
    let mut game = position(
        [0, 0, 0, 0, 1, 2, 0, 0, 0, 0],
        ALL_HOLES & !(1 << 4 | 1 << 5),
        S,
    );
    game.stores = [17, 20];
    let events = sow(&mut game, 4);
    assert_eq!(captures(&events), vec![(5, 3, S)]);
    assert_eq!(
        events.last(),
        Some(&Event::RoundEnd {
            reason: EndReason::PlayerEmpty,
            collector: Some(S),
            collected: 0,
            totals: [20, 20]
        })
    );
    assert_eq!(game.pits, [0; HOLES]);
    assert_eq!(
        (game.status, game.winner),
        (Status::RoundOver, None),
        "20-20: the round has no winner"
    );
}

/// §3.4 step 4, R-3.3: by default each player fills from his right end leftward (S5, S4, … and N5, N4, …).
#[test]
fn refill_fills_from_the_right_by_default() {
    let mut game = round_over([9, 25], [0, 6], 0, S);
    let events = next_round(&mut game, PitSet::EMPTY);
    // South 9 → 2 holes (S5, S4), reserve 1. North 31 → 5 holes, reserve 11.
    assert_eq!(game.pits, [0, 0, 0, 4, 4, 4, 4, 4, 4, 4]);
    assert_eq!(game.closed, 0b00111);
    assert_eq!(game.reserves, [1, 11]);
    assert_eq!(
        events[0],
        Event::Refill {
            player: S,
            opened: 0b11000,
            closed: 0b00111,
            reserve: 1
        }
    );
    let mut game = round_over([30, 6], [0, 4], 0, S);
    next_round(&mut game, PitSet::EMPTY);
    // North 10 → 2 holes (N5, N4), reserve 2.
    assert_eq!(game.pits, [4, 4, 4, 4, 4, 0, 0, 0, 4, 4]);
    assert_eq!(game.reserves, [10, 2]);
}

/// §3.4 step 4, R-3.3: a player may choose which holes to open; the other keeps the default.
#[test]
fn refill_by_choice() {
    let mut game = round_over([9, 25], [0, 6], 0, S);
    // South opens S1 and S3; North lists nothing and gets the default.
    let events = next_round(&mut game, PitSet(0b00101));
    assert_eq!(game.pits, [4, 0, 4, 0, 0, 4, 4, 4, 4, 4]);
    assert_eq!(
        events[0],
        Event::Refill {
            player: S,
            opened: 0b00101,
            closed: 0b11010,
            reserve: 1
        }
    );
    // Both choose: North has 12 stones → 3 holes, N1, N2, N3.
    let mut game = round_over([16, 12], [12, 0], 0, N);
    next_round(&mut game, PitSet(0b11111 | 0b00111 << 5));
    assert_eq!(game.pits, [4, 4, 4, 4, 4, 4, 4, 4, 0, 0]);
    assert_eq!(game.closed, 0b11 << 8);
    assert_eq!(game.reserves, [8, 0]);
}

/// §3.4: a player who lists holes must list exactly as many of his own as he can fill, and only board holes.
#[test]
fn invalid_refill_choices_are_refused() {
    let game = round_over([9, 25], [0, 6], 0, S);
    for choice in [
        PitSet(0b00001),         // South can fill 2, lists 1
        PitSet(0b00111),         // … lists 3
        PitSet(0b11 | 0b1 << 5), // South right, but North (5 holes) lists 1
        PitSet(0b11 | 1 << 10),  // a hole 10 does not exist
        PitSet(1 << 31),         // nor does 31
    ] {
        let err = refuse(&game, Move::NextGame(choice));
        assert_eq!(err.reason, Reason::InvalidChoice, "{choice:?}");
    }
    let err = refuse(&game, Move::NextGame(PitSet(0b1)));
    assert!(
        err.detail.starts_with("South must choose exactly"),
        "{}",
        err.detail
    );
    let err = refuse(&game, Move::NextGame(PitSet(0b1 << 5)));
    assert!(
        err.detail.starts_with("North must choose exactly"),
        "{}",
        err.detail
    );
}

/// §3.4 step 2 (S-12 "can be re-opened in a later round"): holes closed in one round reopen when the total
/// allows it again.
#[test]
fn closed_holes_reopen_in_a_later_round() {
    // North played with N1 and N2 closed and won 20 stones this round: 20 + reserve 0 → all 5 holes.
    let mut game = round_over([20, 20], [0, 0], 0b11 << 5, S);
    next_round(&mut game, PitSet::EMPTY);
    assert_eq!(game.closed, 0);
    assert_eq!(game.pits, [4; HOLES]);
    assert_eq!(game.match_score(), [5, 5]);
    // A closed hole can also be chosen explicitly.
    let mut game = round_over([28, 12], [0, 0], 0b11 << 5, S);
    next_round(&mut game, PitSet(0b111 << 5));
    assert_eq!(game.closed, 0b11 << 8);
}

/// the starter alternates from round to round; the first round's starter is the option's first player.
#[test]
fn the_round_starter_alternates() {
    let game = Bosh::new_match(&Options {
        first_player: N,
        ..Options::default()
    });
    assert_eq!((game.round_starter, game.to_move), (N, Some(N)));
    let mut game = round_over([20, 20], [0, 0], 0, N);
    next_round(&mut game, PitSet::EMPTY);
    assert_eq!((game.round_starter, game.to_move), (S, Some(S)));
    let mut game = round_over([20, 20], [0, 0], 0, S);
    next_round(&mut game, PitSet::EMPTY);
    assert_eq!((game.round_starter, game.to_move), (N, Some(N)));
    assert_eq!(game.round, 2);
}

/// §3.4 step 5: a total below 4 loses the match at the end of the round; exactly 4 keeps one hole.
#[test]
fn the_match_is_lost_below_four_stones() {
    assert_eq!(
        outcome_of_round([37, 3], [0, 0]),
        (Status::MatchOver, Some(S))
    );
    assert_eq!(
        outcome_of_round([0, 37], [3, 0]),
        (Status::MatchOver, Some(N))
    );
    assert_eq!(
        outcome_of_round([2, 1], [0, 0]),
        (Status::MatchOver, None),
        "both below 4 (custom positions only)"
    );
    assert_eq!(
        outcome_of_round([36, 4], [0, 0]),
        (Status::RoundOver, Some(S))
    );
    assert_eq!(
        outcome_of_round([0, 33], [7, 0]),
        (Status::RoundOver, Some(N))
    );
    assert_eq!(
        outcome_of_round([20, 20], [0, 0]),
        (Status::RoundOver, None)
    );
    let mut game = round_over([36, 4], [0, 0], 0, S);
    next_round(&mut game, PitSet::EMPTY);
    assert_eq!(
        game.pits,
        [4, 4, 4, 4, 4, 0, 0, 0, 0, 4],
        "North keeps N5 only"
    );
    assert_eq!(game.reserves, [16, 0]);
}

/// §3.2 example, §1: open holes S3…N5, pits [0,0,5,2,0 | 2,1,0,1,1], North to move: N5 never ends, so it is
/// illegal, leaves the state untouched and is not listed.
#[test]
fn the_never_ending_move_of_section_3_2_is_illegal() {
    let game = position([0, 0, 5, 2, 0, 2, 1, 0, 1, 1], S1_S2_CLOSED, N);
    assert!(game.clone().sow_with_relays(9, N, &mut NoTrace).is_err());
    assert_eq!(refuse_sow(&game, 9), Reason::NeverEndingMove);
    assert!(!legal(&game).contains(&Move::Sow(Sow::from(9))));
    assert!(!legal(&game).is_empty(), "North's other moves end");
}

/// §1 → §3.3: a player whose every move never ends has no legal move, so the round ends at his turn.
#[test]
fn a_player_whose_every_move_never_ends_ends_the_round() {
    let (pits, closed) = ALL_NEVER_ENDING;
    let mut game = position(pits, closed, N);
    game.stores = [10, 20];
    assert!(game.has_stones(N));
    assert!(legal(&game).is_empty());
    assert_eq!(refuse_sow(&game, 8), Reason::NeverEndingMove);
    assert_eq!(refuse_sow(&game, 9), Reason::NeverEndingMove);
    let mut ended = game.clone();
    let mut events = Vec::new();
    ended.begin_turn(N, &mut events, None);
    let on_board = game.stones_on_board();
    assert_eq!(
        events,
        vec![Event::RoundEnd {
            reason: EndReason::PlayerEmpty,
            collector: Some(S),
            collected: on_board,
            totals: [10 + on_board, 20]
        }]
    );
    assert_eq!(
        (ended.status, ended.to_move, ended.pits),
        (Status::RoundOver, None, [0; HOLES])
    );
}

/// A position (found by a search over random positions) where both of North's moves, N4 and N5, never end:
/// N1-N3 closed, S=[1,0,1,2,3] | N=[×,×,×,1,2].
pub(super) const ALL_NEVER_ENDING: ([u8; HOLES], u16) =
    ([1, 0, 1, 2, 3, 0, 0, 0, 1, 2], 0b111 << 5);

/// §3.1-§3.2: moves are refused from another row, a closed hole, an empty hole, off the board, with a Bao
/// choice, or once the round is over; the state stays as it was.
#[test]
fn illegal_moves_are_refused_and_leave_the_state_untouched() {
    let game = position([0, 0, 4, 4, 0, 4, 4, 4, 4, 4], S1_S2_CLOSED, S);
    assert_eq!(refuse_sow(&game, 5), Reason::NotYourPit);
    assert_eq!(refuse_sow(&game, 0), Reason::HoleClosed);
    assert_eq!(refuse_sow(&game, 4), Reason::PitEmpty);
    assert_eq!(refuse_sow(&game, 10), Reason::NoSuchPit);
    assert_eq!(refuse_sow(&game, 255), Reason::NoSuchPit);
    let mut with_choice = Sow::from(2);
    with_choice.kichwa = Some(crate::engine::Kichwa::Left);
    assert_eq!(
        refuse(&game, Move::Sow(with_choice)).reason,
        Reason::ChoiceNotOffered
    );
    assert_eq!(
        refuse(&game, Move::NextGame(PitSet::EMPTY)).reason,
        Reason::GameInProgress
    );
    assert_eq!(legal(&game).as_slice(), sows(&[2, 3]));
    let over = round_over([20, 20], [0, 0], 0, S);
    assert_eq!(refuse_sow(&over, 0), Reason::GameOver);
    assert_eq!(refuse_sow(&over, 7), Reason::GameOver);
}

/// §3.2: singletons may be sown; legal moves are the mover's open holes with a stone, in hole order.
#[test]
fn legal_moves_are_the_movers_occupied_open_holes() {
    let game = position([1, 0, 4, 0, 2, 9, 9, 9, 9, 9], 1 << 3, S);
    assert_eq!(legal(&game).as_slice(), sows(&[0, 2, 4]));
    for mv in legal(&game) {
        assert!(game.is_legal(&mv));
    }
    let game = Bosh::new_match(&Options::default());
    assert_eq!(legal(&game).as_slice(), sows(&[0, 1, 2, 3, 4]));
}
