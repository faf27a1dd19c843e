//! The worked examples B-1..B-5 of docs/bosh.md §3.6.

use super::*;

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
            collector: Some(S),
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
                collector: Some(S),
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
