//! §2.7 and §1: a move's execution (first-lap rule, safari, an emptied front row) and never-ending moves.

use super::*;

/// §2.4 first-lap rule: a takata never captures, even when a later lap ends in an occupied front hole facing an
/// occupied hole (f8, facing N f1).
#[test]
fn a_takata_never_captures_in_later_laps() {
    let mut game = game(
        side([0, 0, 0, 2, 0, 1, 0, 1], EMPTY_ROW, 0, false),
        side([1, 0, 0, 0, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        S,
    );
    assert_eq!(legal(&game), vec![sow(f(S, 4), CW), sow(f(S, 4), ACW)]);
    let events = play(&mut game, sow(f(S, 4), CW));
    assert!(captures(&events).is_empty());
    assert_eq!(
        laps(&events).iter().map(|l| l.0).collect::<Vec<_>>(),
        vec![f(S, 4), f(S, 6), f(S, 8)]
    );
    assert_eq!(front(&game, S), [0, 0, 0, 0, 1, 0, 1, 0]);
    assert_eq!(back(&game, S), [0, 0, 0, 0, 0, 0, 1, 1]);
}

/// §2.7 step D, R-2.5: in mtaji a lap that ends in the living kuu without capturing goes on safari.
#[test]
fn mtaji_safari_is_compulsory() {
    let mut game = game(
        side([0, 0, 1, 0, 6, 0, 0, 0], [3, 0, 0, 0, 0, 0, 0, 0], 0, true),
        side([1, 0, 0, 0, 0, 5, 0, 0], EMPTY_ROW, 0, false),
        S,
    );
    assert_eq!(legal(&game), vec![sow(b(S, 1), CW)]);
    let events = play(&mut game, sow(b(S, 1), CW));
    assert_eq!(captures(&events), vec![(f(N, 6), 5)]);
    assert!(events.contains(&Event::Safari {
        pit: f(S, 5),
        seeds: 7
    }));
    assert!(events.contains(&Event::KuuDestroyed {
        owner: S,
        pit: f(S, 5)
    }));
    assert!(!events.iter().any(|e| matches!(e, Event::KuuStop { .. })));
    assert_eq!(front(&game, S), [2, 2, 3, 1, 0, 1, 1, 1]);
    assert_eq!(back(&game, S), [0, 0, 0, 0, 1, 1, 1, 1]);
    assert_eq!(game.kuu_alive, [false, false]);
}

/// §2.7 step A, R-2.7: a lap that leaves the mover's front row empty loses at once. Legal play never gets there
/// (the lone-kichwa rule forbids the only first lap that could, and a relay always leaves a seed next to it),
/// so the step is exercised on the raw move.
#[test]
fn emptying_ones_own_front_row_loses() {
    let mut game = game(
        side([3, 0, 0, 0, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        side([0, 2, 0, 0, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        S,
    );
    assert_eq!(
        refuse(&game, sow(f(S, 1), ACW)).reason,
        Reason::MustSowTowardCentre
    );
    let start = moves::Start::Mtaji {
        pit: f(S, 1),
        dir: ACW,
        capturing: false,
    };
    let ran = game
        .run(S, start, moves::Choices::default(), &mut NoTrace)
        .unwrap();
    assert_eq!(ran.end, MoveEnd::OwnFrontRowEmptied);
    let mut events = Vec::new();
    game.finish_move(S, false, ran.end, &mut events, None);
    assert_eq!(
        game_end(&events),
        Some((EndReason::OwnFrontRowEmptied, Some(N)))
    );
    assert_eq!(game.status, Status::GameOver);
    assert_eq!(game.winner, Some(N));
}

/// §1: capture moves always end. While captures stop, the opponent's front row is not empty (else the move
/// ended with Bao hamna), so some front hole j faces an occupied hole. A relay lap may not end in j (it would
/// capture) and nothing ever lifts j, so a lap passing j would grow it for ever: a repeating relay cycle never
/// crosses j and runs one way along the other 15 holes, where every lap moves its seeds forward: it cannot
/// repeat. So the layers "marked captures" and "captures" never lapse; only takatas can be never-ending.
#[test]
fn capture_moves_always_end() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut rand = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n) as u8
    };
    let mut captures_seen = 0;
    for i in 0..3000 {
        let reserve = if i % 2 == 0 { 0 } else { 3 };
        let mut south = side([0; 8], [0; 8], reserve, false);
        let mut north = side([0; 8], EMPTY_ROW, reserve, false);
        for h in 0..8 {
            south.f[h] = rand(5);
            south.b[h] = rand(5);
            north.f[h] = rand(3);
        }
        north.f[0] = north.f[0].max(1);
        south.f[0] = south.f[0].max(1);
        let game = game(south, north, S);
        for layer in [moves::Layer::MarkedCaptures, moves::Layer::Captures] {
            let mut starts = moves::Starts::new();
            game.starts(S, layer, &mut starts);
            for start in starts {
                captures_seen += 1;
                assert!(game.has_ending_variant(S, start), "{start:?} in {game:?}");
            }
        }
    }
    assert!(captures_seen > 1000);
}

/// §1, R-2.14: a move whose sowing never ends is illegal (found in random play: South's mtaji takata f3
/// anticlockwise cycles for ever, while his other takatas end).
#[test]
fn a_never_ending_move_is_illegal() {
    let game = game(
        side(
            [1, 2, 6, 1, 10, 1, 0, 1],
            [0, 1, 0, 4, 5, 2, 3, 2],
            0,
            false,
        ),
        side([3, 4, 9, 1, 0, 1, 1, 0], [0, 0, 2, 0, 2, 1, 1, 0], 0, false),
        S,
    );
    assert_eq!(game.seeds_in_play(), 64);
    let err = refuse(&game, sow(f(S, 3), ACW));
    assert_eq!(err.reason, Reason::NeverEndingMove);
    assert_eq!(
        legal(&game),
        vec![
            sow(f(S, 2), CW),
            sow(f(S, 2), ACW),
            sow(f(S, 3), CW),
            sow(f(S, 5), CW),
            sow(f(S, 5), ACW)
        ]
    );
    assert_move_list_is_exact(&game);
}

/// §1, §2.9: when every move of the player never ends he has no legal move, and loses. South's only takatas,
/// from his living kuu (M-2), both cycle for ever.
#[test]
fn a_player_whose_every_move_never_ends_loses() {
    let south = side([0, 1, 0, 1, 11, 1, 0, 1], [3, 2, 3, 2, 1, 2, 1, 0], 0, true);
    let stuck = game(
        south,
        side([1, 0, 0, 0, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        S,
    );
    assert!(legal(&stuck).is_empty());
    assert_eq!(
        refuse(&stuck, sow(f(S, 5), CW)).reason,
        Reason::NeverEndingMove
    );
    assert_eq!(
        refuse(&stuck, sow(f(S, 5), ACW)).reason,
        Reason::NeverEndingMove
    );
    assert!(
        BaoLaKete::from_setup(&stuck.to_setup()).is_err(),
        "nobody is to move without a legal move"
    );

    // North's takata from b1 leaves South's side as it is: South cannot move and loses.
    let mut game = game(
        south,
        side([1, 0, 0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 0], 0, false),
        N,
    );
    let events = play(&mut game, sow(b(N, 1), CW));
    assert_eq!(game_end(&events), Some((EndReason::NoLegalMove, Some(N))));
    assert_eq!(game.status, Status::GameOver);
}
