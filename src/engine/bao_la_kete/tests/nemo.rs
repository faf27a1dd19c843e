//! §2.5: the nemo stage's moves, captures (N-1) and takatas (N-2).

use super::*;

/// §2.5 N-1: the kuu may be the capture hole; a central capture offers both kichwas; the kuu keeps its seeds.
#[test]
fn nemo_the_kuu_may_be_the_capture_hole_and_keeps_its_seeds() {
    let before = game(
        side([0, 0, 0, 0, 6, 2, 2, 0], EMPTY_ROW, 20, true),
        side([0, 0, 0, 2, 6, 0, 0, 0], EMPTY_ROW, 20, true),
        S,
    );
    let left = capture(f(S, 5), Some(Kichwa::Left), None);
    let right = capture(f(S, 5), Some(Kichwa::Right), None);
    assert_eq!(legal(&before), vec![left, right]);
    assert_move_list_is_exact(&before);

    let mut game = before.clone();
    let events = play(&mut game, left);
    assert_eq!(captures(&events), vec![(f(N, 4), 2)]);
    assert_eq!(front(&game, S), [1, 1, 0, 0, 7, 2, 2, 0]);
    assert_eq!(game.kuu_alive, [true, true]);

    // Right kichwa: f8, f7 (occupied, facing the empty N f2): relay 3 anticlockwise through the kuu to f4.
    let mut game = before;
    play(&mut game, right);
    assert_eq!(front(&game, S), [0, 0, 0, 1, 8, 3, 0, 1]);
    assert_eq!(game.kuu_alive, [true, true]);
}

/// §2.5 N-1, §2.7 B3: a capture at a kimbi hole is sown from the kichwa of its side, so the move names no kichwa
/// and no direction.
#[test]
fn nemo_a_kimbi_capture_takes_no_kichwa_or_direction() {
    let before = game(
        side([0, 1, 0, 0, 6, 0, 0, 0], EMPTY_ROW, 10, true),
        side([0, 0, 0, 0, 6, 0, 3, 0], EMPTY_ROW, 10, true),
        S,
    );
    assert_eq!(legal(&before), vec![capture(f(S, 2), None, None)]);
    assert_eq!(
        refuse(&before, capture(f(S, 2), Some(Kichwa::Left), None)).reason,
        Reason::ChoiceNotOffered
    );
    assert_eq!(
        refuse(&before, sow(f(S, 2), CW)).reason,
        Reason::ChoiceNotOffered
    );
    let mut game = before;
    let events = play(&mut game, capture(f(S, 2), None, None));
    assert!(events.contains(&Event::Capture {
        pit: f(N, 7),
        seeds: 3,
        beneficiary: S,
        kichwa: Some(Kichwa::Left),
        direction: Some(CW),
    }));
    assert_eq!(front(&game, S), [1, 3, 1, 0, 6, 0, 0, 0]);
}

/// §2.7 order A→F: a lap of a nemo capture move that ends in the kuu facing an occupied hole captures (B) instead
/// of reaching the stop-or-safari decision (D).
#[test]
fn nemo_a_capture_in_the_kuu_comes_before_the_kuu_decision() {
    let before = game(
        side([1, 0, 0, 0, 6, 0, 0, 0], EMPTY_ROW, 5, true),
        side([0, 1, 0, 2, 0, 0, 0, 5], EMPTY_ROW, 5, false),
        S,
    );
    let from_f1 = capture(f(S, 1), None, None);
    assert_eq!(
        legal(&before),
        vec![
            from_f1,
            capture(f(S, 5), Some(Kichwa::Left), None),
            capture(f(S, 5), Some(Kichwa::Right), None)
        ]
    );
    let mut game = before;
    let events = play(&mut game, from_f1);
    // f1 gets the seed (2) and takes N f8 = 5: f1..f5 from the left kichwa; the lap ends in the kuu (7), which
    // faces N f4 = 2: capture 2, sown from f1 again (column 5 keeps clockwise); relays from f2 and f4 end in f6.
    assert_eq!(captures(&events), vec![(f(N, 8), 5), (f(N, 4), 2)]);
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::KuuStop { .. } | Event::Safari { .. })));
    assert_eq!(front(&game, S), [4, 0, 2, 0, 8, 1, 0, 0]);
    assert_eq!(front(&game, N), [0, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(game.kuu_alive, [true, false]);
}

// ---- §2.5 N-2: nemo takata moves ----

/// §2.5 N-2: with the kuu dead, a takata starts from a front hole holding 2 or more; singletons only when every
/// occupied front hole is one.
#[test]
fn nemo_with_the_kuu_dead_singletons_wait_for_a_row_of_singletons() {
    let north = side([0, 0, 3, 0, 0, 0, 0, 0], EMPTY_ROW, 5, false);
    let before = game(
        side([1, 0, 3, 0, 0, 0, 1, 0], EMPTY_ROW, 5, false),
        north,
        S,
    );
    assert_eq!(legal(&before), vec![sow(f(S, 3), CW), sow(f(S, 3), ACW)]);
    assert_eq!(
        refuse(&before, sow(f(S, 1), CW)).reason,
        Reason::SingletonNotAllowed
    );
    assert_eq!(
        refuse(&before, sow(f(S, 7), ACW)).reason,
        Reason::SingletonNotAllowed
    );
    assert_eq!(
        refuse(&before, sow(b(S, 1), ACW)).reason,
        Reason::HoleNotAllowed
    );
    assert_eq!(refuse(&before, sow(f(S, 2), ACW)).reason, Reason::PitEmpty);

    let singles = game(
        side([1, 0, 1, 0, 0, 0, 0, 0], EMPTY_ROW, 5, false),
        north,
        S,
    );
    assert_eq!(
        legal(&singles),
        vec![
            sow(f(S, 1), CW),
            sow(f(S, 1), ACW),
            sow(f(S, 3), CW),
            sow(f(S, 3), ACW)
        ]
    );
}

/// §2.5 N-2 lone-kichwa rule, in both stages: a kichwa that is the only occupied front hole goes toward the
/// centre.
#[test]
fn a_lone_kichwa_is_sown_toward_the_centre() {
    let north = |reserve| side([0, 2, 0, 0, 0, 0, 0, 0], EMPTY_ROW, reserve, false);
    for reserve in [5, 0] {
        let right = game(
            side([0, 0, 0, 0, 0, 0, 0, 3], EMPTY_ROW, reserve, false),
            north(reserve),
            S,
        );
        assert_eq!(legal(&right), vec![sow(f(S, 8), ACW)], "reserve {reserve}");
        assert_eq!(
            refuse(&right, sow(f(S, 8), CW)).reason,
            Reason::MustSowTowardCentre
        );
        let left = game(
            side([3, 0, 0, 0, 0, 0, 0, 0], EMPTY_ROW, reserve, false),
            north(reserve),
            S,
        );
        assert_eq!(legal(&left), vec![sow(f(S, 1), CW)], "reserve {reserve}");
        assert_eq!(
            refuse(&left, sow(f(S, 1), ACW)).reason,
            Reason::MustSowTowardCentre
        );
    }
}
