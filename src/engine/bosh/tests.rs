//! Bosh rule tests: the worked examples B-1..B-5 of docs/bosh.md §3.6 and one test per rule clause.

use super::*;
use crate::engine::PerSeat;

const S: Player = Player::South;
const N: Player = Player::North;

/// Holes S1 and S2 closed: South's three right holes open (B-4).
const S1_S2_CLOSED: u16 = 0b11;

/// A round in progress with `pits`, `closed` holes and `to_move` to move (he started the round; ply 0).
fn position(pits: [u8; HOLES], closed: u16, to_move: Player) -> Bosh {
    Bosh::round_of(pits, closed, to_move)
}

fn sow(game: &mut Bosh, hole: u8) -> Vec<Event> {
    let mut events = Vec::new();
    game.play(&Move::Sow(Sow::from(hole)), &mut events)
        .expect("legal move");
    events
}

fn refuse(game: &Bosh, mv: Move) -> IllegalMove {
    let mut played = game.clone();
    let mut events = Vec::new();
    let err = played.play(&mv, &mut events).expect_err("illegal move");
    assert_eq!(&played, game, "an illegal move leaves the state untouched");
    assert!(events.is_empty(), "an illegal move leaves no events");
    err
}

fn refuse_sow(game: &Bosh, hole: u8) -> Reason {
    refuse(game, Move::Sow(Sow::from(hole))).reason
}

/// `(origin, stones)` of every lap.
fn laps(events: &[Event]) -> Vec<(u8, u8)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Lap { origin, seeds, .. } => Some((origin, seeds)),
            _ => None,
        })
        .collect()
}

/// The holes that received a stone, lap by lap.
fn drops(events: &[Event]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for e in events {
        match *e {
            Event::Lap { .. } => out.push(Vec::new()),
            Event::Drop { pit } => out.last_mut().expect("a drop follows a lap").push(pit),
            _ => {}
        }
    }
    out
}

/// `(hole, stones, beneficiary)` of every capture.
fn captures(events: &[Event]) -> Vec<(u8, u8, Player)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Capture {
                pit,
                seeds,
                beneficiary,
                ..
            } => Some((pit, seeds, beneficiary)),
            _ => None,
        })
        .collect()
}

fn legal(game: &Bosh) -> MoveList {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
}

fn sows(holes: &[u8]) -> Vec<Move> {
    holes.iter().map(|&h| Move::Sow(Sow::from(h))).collect()
}

/// A finished round with empty board and these stores, reserves and closed holes; `starter` started it.
fn round_over(stores: [u8; 2], reserves: [u8; 2], closed: u16, starter: Player) -> Bosh {
    let mut game = position([0; HOLES], closed, starter);
    game.stores = stores;
    game.reserves = reserves;
    game.to_move = None;
    let (status, winner) = outcome_of_round(stores, reserves);
    game.status = status;
    game.winner = winner;
    game
}

fn next_round(game: &mut Bosh, choice: PitSet) -> Vec<Event> {
    let mut events = Vec::new();
    game.play(&Move::NextGame(choice), &mut events)
        .expect("next round");
    events
}

// ---- Worked examples, docs/bosh.md §3.6 ----

/// B-1: Marin's opening: S5 relays N5 and captures N1 across the empty S5.
#[test]
fn b_1_marins_opening_s5_relays_n5_and_captures_n1() {
    let mut game = Bosh::new_match(&Options::default());
    let events = sow(&mut game, 4);
    // 1. N1..N4 to 5 each. 2. N5 (4) lifted, S1..S4 to 5 each.
    assert_eq!(laps(&events), vec![(4, 4), (9, 4)]);
    assert_eq!(drops(&events), vec![vec![5, 6, 7, 8], vec![0, 1, 2, 3]]);
    // 3. The next hole S5 is empty: N1 (5) is taken.
    assert_eq!(captures(&events), vec![(5, 5, S)]);
    assert_eq!(game.pits, [5, 5, 5, 5, 0, 0, 5, 5, 5, 0]);
    assert_eq!(game.stores, [5, 0]);
    assert_eq!(game.to_move, Some(N));
    assert_eq!(game.ply, 1);
}

/// B-2: a single stone relays, then two empty holes: nothing is taken.
#[test]
fn b_2_single_stone_relay_then_two_empties_takes_nothing() {
    let mut game = position([0, 2, 0, 0, 1, 3, 0, 0, 2, 0], 0, S);
    let events = sow(&mut game, 1);
    assert_eq!(laps(&events), vec![(1, 2), (4, 1)]);
    assert_eq!(drops(&events), vec![vec![2, 3], vec![5]]);
    assert!(captures(&events).is_empty());
    assert_eq!(
        events.last(),
        Some(&Event::NoCapture {
            empty_pit: 6,
            beyond_pit: 7
        })
    );
    assert_eq!(game.pits, [0, 0, 1, 1, 0, 4, 0, 0, 2, 0]);
    assert_eq!(game.stores, [0, 0]);
    assert_eq!(game.to_move, Some(N));
}

/// B-3: an 11-stone lap re-sows its own origin, five relays follow, and S4 in the mover's own row is taken.
#[test]
fn b_3_eleven_stone_lap_resows_origin_five_relays_and_own_row_capture() {
    let mut game = position([11, 1, 0, 2, 0, 1, 0, 3, 0, 2], 0, S);
    let events = sow(&mut game, 0);
    let drops = drops(&events);
    // 1. S2 … N5, then S1 (the origin) and S2 again.
    assert_eq!(drops[0], vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1]);
    // 2. Relays from S3, S5, N2, N4, S1, one stone each.
    assert_eq!(
        laps(&events),
        vec![(0, 11), (2, 1), (4, 1), (6, 1), (8, 1), (0, 1)]
    );
    assert_eq!(drops[1..], [vec![3], vec![5], vec![7], vec![9], vec![1]]);
    // 3. S3 is empty: S4 (4) is taken.
    assert_eq!(captures(&events), vec![(3, 4, S)]);
    assert_eq!(game.pits, [0, 4, 0, 0, 0, 3, 0, 5, 0, 4]);
    assert_eq!(game.stores, [4, 0]);
    assert_eq!(game.stones_on_board() + game.stores[0], 20);
}

/// B-4: round 2 with S1 and S2 closed; every lap skips them.
#[test]
fn b_4_sowing_round_closed_holes() {
    let mut game = position([0, 0, 4, 4, 4, 4, 4, 4, 4, 4], S1_S2_CLOSED, S);
    game.round = 2;
    let events = sow(&mut game, 4);
    assert_eq!(laps(&events), vec![(4, 4), (9, 4), (6, 5), (4, 1)]);
    assert_eq!(
        drops(&events),
        vec![
            vec![5, 6, 7, 8],
            vec![2, 3, 4, 5],
            vec![7, 8, 9, 2, 3],
            vec![5]
        ],
        "S1 and S2 never receive a stone"
    );
    assert_eq!(captures(&events), vec![(7, 6, S)]);
    assert_eq!(game.pits, [0, 0, 6, 6, 0, 7, 0, 0, 6, 1]);
    assert_eq!(game.stores, [6, 0]);
}

/// B-5: North cannot move, so South receives the 4 stones left; the refill opens 5 + 3 holes and North starts.
#[test]
fn b_5_end_of_round_and_refill() {
    let mut game = position([0, 3, 0, 1, 0, 0, 0, 0, 0, 0], 0, S);
    game.stores = [24, 12];
    let mut events = Vec::new();
    game.begin_turn(N, &mut events, None);
    assert_eq!(
        events,
        vec![Event::RoundEnd {
            reason: EndReason::PlayerEmpty,
            collector: S,
            collected: 4,
            totals: [28, 12]
        }]
    );
    assert_eq!(game.stores, [28, 12]);
    assert_eq!(game.pits, [0; HOLES]);
    assert_eq!(
        (game.status, game.to_move, game.winner),
        (Status::RoundOver, None, Some(S))
    );
    assert_eq!(legal(&game).as_slice(), [Move::NextGame(PitSet::EMPTY)]);

    let events = next_round(&mut game, PitSet::EMPTY);
    assert_eq!(
        events,
        vec![
            Event::Refill {
                player: S,
                opened: SOUTH_ROW,
                closed: 0,
                reserve: 8
            },
            Event::Refill {
                player: N,
                opened: 0b11100 << 5,
                closed: 0b00011 << 5,
                reserve: 0
            },
        ]
    );
    assert_eq!(
        game.pits,
        [4, 4, 4, 4, 4, 0, 0, 4, 4, 4],
        "N5, N4, N3 open; N1, N2 closed"
    );
    assert!(game.is_closed(5) && game.is_closed(6));
    assert_eq!((game.stores, game.reserves), ([0, 0], [8, 0]));
    assert_eq!(game.match_score(), [5, 3]);
    assert_eq!(
        (game.round_starter, game.to_move),
        (N, Some(N)),
        "South started round 1, so North starts round 2"
    );
    assert_eq!(
        (game.round, game.ply, game.status),
        (2, 0, Status::InProgress)
    );
}

/// B-5, last line: had North's total been below 4, South would have won the match.
#[test]
fn b_5_a_total_below_four_loses_the_match() {
    let mut game = position([0, 3, 0, 1, 0, 0, 0, 0, 0, 0], 0, S);
    game.stores = [33, 3];
    let mut events = Vec::new();
    game.begin_turn(N, &mut events, None);
    assert_eq!(
        events,
        vec![
            Event::RoundEnd {
                reason: EndReason::PlayerEmpty,
                collector: S,
                collected: 4,
                totals: [37, 3]
            },
            Event::MatchEnd {
                winner: Some(S),
                score: PerSeat::two([5, 5]),
                placing: PerSeat::NONE,
            },
        ]
    );
    assert_eq!(
        (game.status, game.winner, game.to_move),
        (Status::MatchOver, Some(S), None)
    );
    assert!(legal(&game).is_empty());
    assert_eq!(
        refuse(&game, Move::NextGame(PitSet::EMPTY)).reason,
        Reason::MatchOver
    );
    assert_eq!(refuse_sow(&game, 1), Reason::MatchOver);
}

// ---- One test per clause ----

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
            collector: N,
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
            collector: S,
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
            collector: S,
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
const ALL_NEVER_ENDING: ([u8; HOLES], u16) = ([1, 0, 1, 2, 3, 0, 0, 0, 1, 2], 0b111 << 5);

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

// ---- Setup validation ----

fn setup_of(game: &Bosh) -> Setup {
    game.to_setup()
}

/// A state with one open hole on the whole board (North's row all closed) is refused, not a panic: the check of
/// whether South can move meets a relay on a ring of one hole, which never ends (found by
/// `tests/worst_cycles.rs`).
#[test]
fn one_open_hole_on_the_board_is_refused_without_a_panic() {
    let mut setup = setup_of(&position([0, 0, 4, 4, 4, 4, 4, 4, 4, 4], 0, S));
    setup.pits = vec![0, 0, 0, 0, 9, 0, 0, 0, 0, 0].into();
    setup.stores = vec![0, 31].into();
    setup.match_score = vec![1, 0].into();
    setup.variant = VariantSetup::Bosh {
        closed: (0..HOLES).map(|h| h != 4).collect(),
        round_starter: Some(S),
    };
    let refused = Bosh::from_setup(&setup).expect_err("North has no open hole");
    assert!(
        refused.0.iter().any(|v| v.field == "bosh.closed"),
        "{refused:?}"
    );
}

/// Every state the engine makes survives the wire shape unchanged.
#[test]
fn to_setup_and_from_setup_round_trip() {
    let mut game = Bosh::new_match(&Options::default());
    assert_eq!(Bosh::from_setup(&setup_of(&game)), Ok(game.clone()));
    sow(&mut game, 4);
    assert_eq!(Bosh::from_setup(&setup_of(&game)), Ok(game.clone()));
    for game in [
        round_over([28, 12], [0, 0], 0b11 << 5, S),
        round_over([37, 3], [0, 0], 0, N),
    ] {
        assert_eq!(Bosh::from_setup(&setup_of(&game)), Ok(game.clone()));
    }
    let setup = setup_of(&position([0, 0, 4, 4, 4, 4, 4, 4, 4, 4], S1_S2_CLOSED, S));
    assert_eq!(setup.match_score, vec![3, 5]);
    assert_eq!(
        setup.variant,
        VariantSetup::Bosh {
            closed: vec![true, true, false, false, false, false, false, false, false, false].into(),
            round_starter: Some(S)
        }
    );
}

fn fields(setup: &Setup) -> Vec<String> {
    match Bosh::from_setup(setup) {
        Ok(_) => Vec::new(),
        Err(InvalidState(violations)) => violations.into_iter().map(|v| v.field).collect(),
    }
}

/// from_setup reports every broken invariant at once.
#[test]
fn from_setup_reports_every_violation() {
    let mut setup = setup_of(&position([0, 0, 4, 4, 4, 4, 4, 4, 4, 4], S1_S2_CLOSED, S));
    setup.pits[0] = 1; // a closed hole holding a stone
    setup.reserves = vec![4, 0].into(); // 3 open holes with a reserve of 4
    setup.match_score = vec![5, 5].into(); // South has 3 open holes
    setup.ply = 1; // South started the round, so North is due after one move
    assert_eq!(
        fields(&setup),
        vec!["pits[0]", "reserves[0]", "match_score", "to_move"]
    );

    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.variant = VariantSetup::Bosh {
        closed: vec![false; 9].into(),
        round_starter: None,
    };
    assert_eq!(fields(&setup), vec!["bosh.closed", "bosh.round_starter"]);

    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.variant = VariantSetup::Bosh {
        closed: [
            true, true, true, true, true, false, false, false, false, false,
        ]
        .into(),
        round_starter: Some(S),
    };
    setup.pits = vec![0, 0, 0, 0, 0, 4, 4, 4, 4, 4].into();
    let f = fields(&setup);
    assert!(f.contains(&"bosh.closed".to_string()), "{f:?}");

    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.variant = VariantSetup::Missing;
    assert_eq!(fields(&setup), vec!["bosh"]);

    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.status = Some(Status::GameOver);
    setup.to_move = None;
    // A finished round also has an empty board.
    assert_eq!(fields(&setup), vec!["status", "pits"]);

    // 41 stones.
    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.reserves = vec![1, 0].into();
    assert_eq!(fields(&setup), vec!["pits"]);
}

/// from_setup: the player to move must be able to move, and must be the one the ply count says.
#[test]
fn from_setup_checks_the_player_to_move() {
    // South to move with an empty row: the round would have ended (§3.3).
    let setup = setup_of(&position([0, 0, 0, 0, 0, 4, 4, 4, 4, 4], 0, S));
    assert_eq!(fields(&setup), vec!["to_move"]);
    // North to move at ply 1 of a round North started: every move passes the turn, so South is due.
    let mut setup = setup_of(&position([4; HOLES], 0, N));
    setup.ply = 1;
    assert_eq!(fields(&setup), vec!["to_move"]);
    setup.variant = VariantSetup::Bosh {
        closed: vec![false; HOLES].into(),
        round_starter: Some(S),
    };
    assert_eq!(fields(&setup), Vec::<String>::new());
    // Every move never ends.
    let (pits, closed) = ALL_NEVER_ENDING;
    assert_eq!(
        fields(&setup_of(&position(pits, closed, N))),
        vec!["to_move"]
    );
    // A custom position with fewer than 40 stones is fine.
    assert_eq!(
        fields(&setup_of(&position([0, 2, 0, 0, 1, 3, 0, 0, 2, 0], 0, S))),
        Vec::<String>::new()
    );
}

/// from_setup: a finished round has an empty board and the status and winner its totals give.
#[test]
fn from_setup_checks_a_finished_round() {
    let mut setup = setup_of(&round_over([28, 12], [0, 0], 0, S));
    setup.pits[3] = 1;
    setup.stores = vec![27, 12].into();
    assert_eq!(fields(&setup), vec!["pits"]);
    let mut setup = setup_of(&round_over([28, 12], [0, 0], 0, S));
    setup.winner = Some(N);
    setup.status = Some(Status::MatchOver);
    assert_eq!(fields(&setup), vec!["status", "winner"]);
    let mut setup = setup_of(&round_over([37, 3], [0, 0], 0, S));
    setup.status = Some(Status::RoundOver);
    assert_eq!(fields(&setup), vec!["status"]);
}

/// from_setup never panics, whatever the numbers: a board of 400 stones is refused, not sown.
#[test]
fn from_setup_refuses_oversized_boards_without_panicking() {
    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.pits = vec![40; HOLES].into();
    assert_eq!(fields(&setup), vec!["pits"]);
    setup.pits = vec![u32::MAX; HOLES].into();
    setup.stores = vec![u32::MAX, 7].into();
    setup.ply = u32::MAX;
    assert!(fields(&setup).len() > HOLES);
    let mut setup = setup_of(&round_over([20, 20], [0, 0], 0, S));
    setup.pits = vec![40; HOLES].into();
    assert_eq!(fields(&setup), vec!["pits"]);
}

/// §1: `relay_ends` (the relay played on the open holes packed relative to each lap's origin) agrees with the
/// rules played literally on the board — relay until the hole after the last stone is empty, a repeat of the
/// board and origin meaning the move never ends — on random boards with random closed holes.
#[test]
fn sowing_ends_agrees_with_the_literal_relay() {
    use std::collections::HashSet;
    let mut rng = crate::engine::Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut rand = move |n: u64| rng.below(n as usize) as u64;
    let (mut endless, mut ending) = (0, 0);
    for _ in 0..20_000 {
        let closed = rand(1 << HOLES) as u16 & !(1 << rand(5)) & !(1 << (5 + rand(5)));
        let mut pits = [0u8; HOLES];
        for _ in 0..2 + rand(39) {
            let open: Vec<usize> = (0..HOLES).filter(|&h| closed >> h & 1 == 0).collect();
            pits[open[rand(open.len() as u64) as usize]] += 1;
        }
        let game = position(pits, closed, S);
        for hole in (0..HOLES as u8).filter(|&h| game.pits[h as usize] > 0) {
            let mut board = game.clone();
            let mut seen = HashSet::new();
            let mut origin = hole;
            let literal = loop {
                if !seen.insert((board.pits, origin)) {
                    break false;
                }
                let hand = std::mem::take(&mut board.pits[origin as usize]);
                let mut at = origin;
                for _ in 0..hand {
                    at = board.ring.next(at);
                    board.pits[at as usize] += 1;
                }
                origin = board.ring.next(at);
                if board.pits[origin as usize] == 0 {
                    break true;
                }
            };
            assert_eq!(
                game.relay_ends(&game.pits, hole),
                literal,
                "{pits:?} closed {closed:#x} hole {hole}"
            );
            if literal {
                ending += 1;
            } else {
                endless += 1;
            }
        }
    }
    assert!(
        endless > 100 && ending > 10_000,
        "{endless} endless, {ending} ending"
    );
}
