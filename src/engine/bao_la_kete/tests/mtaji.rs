//! §2.6: the mtaji stage's moves, captures (M-1) and takatas (M-2).

use super::*;

/// §2.6 M-1, §2.4: a capture starts from 2 to 15 seeds, in either row; 16 seeds make a takata.
#[test]
fn mtaji_captures_start_from_two_to_fifteen_seeds_in_either_row() {
    let north = side([2, 0, 1, 0, 0, 0, 0, 0], EMPTY_ROW, 0, false);
    // b8 holds 15: clockwise round the back row and the front row, the last seed lands on f8 facing N f1.
    let fifteen = game(
        side(
            [0, 0, 0, 0, 0, 0, 0, 1],
            [0, 0, 0, 0, 0, 0, 0, 15],
            0,
            false,
        ),
        north,
        S,
    );
    assert_eq!(fifteen.mtaji_first_capture(b(S, 8), CW), Some(f(N, 1)));
    assert_eq!(legal(&fifteen), vec![sow(b(S, 8), CW)]);
    let mut game_15 = fifteen.clone();
    let events = play(&mut game_15, sow(b(S, 8), CW));
    assert_eq!(captures(&events)[0], (f(N, 1), 2));

    // 16 seeds: no capture move exists; the front row holds only a single seed, so b8 may start a takata.
    let sixteen = game(
        side(
            [0, 0, 0, 0, 0, 0, 0, 1],
            [0, 0, 0, 0, 0, 0, 0, 16],
            0,
            false,
        ),
        north,
        S,
    );
    assert_eq!(sixteen.mtaji_first_capture(b(S, 8), CW), None);
    assert_eq!(legal(&sixteen), vec![sow(b(S, 8), CW), sow(b(S, 8), ACW)]);
    let mut game_16 = sixteen;
    let events = play(&mut game_16, sow(b(S, 8), CW));
    assert!(captures(&events).is_empty());
    assert_eq!(front(&game_16, S), [1, 1, 1, 1, 1, 1, 1, 2]);
}

/// §2.6 M-1: the living kuu may start a capture move, which destroys it (§2.3).
#[test]
fn mtaji_the_kuu_may_start_a_capture_and_dies() {
    let mut game = game(
        side([1, 0, 0, 0, 12, 0, 0, 0], EMPTY_ROW, 0, true),
        side([0, 0, 1, 0, 0, 0, 0, 2], EMPTY_ROW, 0, false),
        S,
    );
    assert_eq!(legal(&game), vec![sow(f(S, 5), CW)]);
    let events = play(&mut game, sow(f(S, 5), CW));
    assert_eq!(
        events[0],
        Event::KuuDestroyed {
            owner: S,
            pit: f(S, 5)
        }
    );
    assert_eq!(captures(&events), vec![(f(N, 8), 2)]);
    assert_eq!(front(&game, S), [3, 1, 0, 0, 0, 1, 1, 1]);
    assert_eq!(back(&game, S), [1; 8]);
    assert_eq!(game.kuu_alive, [false, false]);
}

/// §2.6 M-1: when a capture exists, a takata is refused naming the capture; a hole of 16 or more seeds is
/// refused by the 16-seed rule.
#[test]
fn mtaji_captures_are_mandatory() {
    let capturing = game(
        side(
            [0, 0, 0, 0, 0, 1, 1, 16],
            [0, 0, 0, 0, 0, 0, 0, 2],
            0,
            false,
        ),
        side([0, 2, 0, 0, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        S,
    );
    // b8 (2) anticlockwise: f8, f7 (occupied) facing N f2 = 2.
    assert_eq!(legal(&capturing), vec![sow(b(S, 8), ACW)]);
    let err = refuse(&capturing, sow(f(S, 8), ACW));
    assert_eq!(err.reason, Reason::TooManySeedsToCapture);
    let err = refuse(&capturing, sow(b(S, 8), CW));
    assert_eq!(err.reason, Reason::CaptureIsMandatory);
    assert_eq!(
        err.detail,
        "a capture is available at b8, so a takata is not allowed: captures are mandatory (§2.4)"
    );
}

// ---- §2.6 M-2: mtaji takata moves ----

/// §2.6 M-2: the back row may start a takata only when the front row holds nothing but singletons; singletons
/// are never sown.
#[test]
fn mtaji_the_back_row_starts_only_behind_a_row_of_singletons() {
    let north = side([0, 0, 0, 2, 0, 0, 0, 0], EMPTY_ROW, 0, false);
    let singles = game(
        side([1, 0, 1, 0, 0, 0, 0, 0], [0, 0, 3, 0, 0, 0, 0, 0], 0, false),
        north,
        S,
    );
    assert_eq!(legal(&singles), vec![sow(b(S, 3), CW), sow(b(S, 3), ACW)]);
    assert_eq!(
        refuse(&singles, sow(f(S, 1), CW)).reason,
        Reason::SingletonNotAllowed
    );
    assert_move_list_is_exact(&singles);

    let pair = game(
        side([1, 0, 2, 0, 0, 0, 0, 0], [0, 0, 3, 0, 0, 0, 0, 0], 0, false),
        north,
        S,
    );
    assert_eq!(legal(&pair), vec![sow(f(S, 3), CW), sow(f(S, 3), ACW)]);
    assert_eq!(
        refuse(&pair, sow(b(S, 3), CW)).reason,
        Reason::HoleNotAllowed
    );
}
