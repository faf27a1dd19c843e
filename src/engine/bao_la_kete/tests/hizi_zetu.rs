//! §2.8: hizi zetu, the mark on a lone threatened hole: when it is set, what it blocks, when it ends.

use super::*;

/// The position after a takata by South with both reserves empty: South's f2 (2 seeds, clockwise) lands on f4,
/// which faces North's f5.
fn after_south_takata(north_front: [u8; 8], north_kuu: bool) -> BaoLaKete {
    game(
        side([0, 2, 0, 1, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        side(north_front, EMPTY_ROW, 0, north_kuu),
        N,
    )
}

fn marks_after_south_takata(north_front: [u8; 8], north_kuu: bool) -> Option<HiziZetuMark> {
    let mut game = after_south_takata(north_front, north_kuu);
    game.set_hizi_zetu(S, &mut NoTrace);
    game.mark
}

/// §2.8: exactly one threatened hole, no threat back: the hole is marked.
#[test]
fn hizi_zetu_marks_a_lone_threatened_hole() {
    let mark = Some(HiziZetuMark {
        blockee: N,
        pit: f(N, 5),
        setter: S,
    });
    assert_eq!(
        marks_after_south_takata([2, 0, 0, 0, 3, 0, 0, 0], false),
        mark
    );
    assert_eq!(
        marks_after_south_takata([2, 0, 0, 0, 6, 0, 0, 0], false),
        mark
    );
}

/// §2.8 exceptions: a living kuu, the only occupied front hole, the only front hole with more than one seed.
#[test]
fn hizi_zetu_exceptions() {
    assert_eq!(
        marks_after_south_takata([2, 0, 0, 0, 6, 0, 0, 0], true),
        None,
        "living kuu"
    );
    assert_eq!(
        marks_after_south_takata([0, 0, 0, 0, 3, 0, 0, 0], false),
        None,
        "only occupied hole"
    );
    assert_eq!(
        marks_after_south_takata([1, 0, 0, 0, 3, 0, 0, 0], false),
        None,
        "only hole with > 1"
    );
}

/// §2.8: two threatened holes, or a threat back against the setter, set no mark.
#[test]
fn hizi_zetu_needs_one_threat_and_none_back() {
    // South's f6 (2) clockwise lands on f8, facing N f1: two holes threatened.
    let mut two = game(
        side([0, 2, 0, 1, 0, 2, 0, 1], EMPTY_ROW, 0, false),
        side([2, 0, 0, 0, 3, 0, 0, 0], EMPTY_ROW, 0, false),
        N,
    );
    assert_eq!(two.threatened_holes(S).len(), 2);
    two.set_hizi_zetu(S, &mut NoTrace);
    assert_eq!(two.mark, None);
    // North's f5 (3) clockwise lands on his f8, facing South's f1: North threatens too.
    let mut back = game(
        side([1, 2, 0, 1, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        side([2, 0, 0, 0, 3, 0, 0, 1], EMPTY_ROW, 0, false),
        N,
    );
    assert_eq!(back.threatened_holes(S).len(), 1);
    assert!(!back.threatened_holes(N).is_empty());
    back.set_hizi_zetu(S, &mut NoTrace);
    assert_eq!(back.mark, None);
}

/// North's last nemo takata leaves both reserves empty, so hizi zetu is evaluated after it; the marked
/// hole is then excluded from South's starts.
#[test]
fn hizi_zetu_is_evaluated_after_the_last_nemo_takata() {
    let mut game = game(
        side([1, 0, 2, 0, 0, 0, 2, 0], EMPTY_ROW, 0, false),
        side([0, 0, 1, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 0], 1, false),
        N,
    );
    assert_eq!(legal(&game), vec![sow(f(N, 3), CW), sow(f(N, 3), ACW)]);
    let events = play(&mut game, sow(f(N, 3), ACW));
    assert_eq!(game.reserves, [0, 0]);
    assert!(events.contains(&Event::MarkSet {
        blockee: S,
        pit: f(S, 7),
        setter: N
    }));
    assert_eq!(legal(&game), vec![sow(f(S, 3), CW), sow(f(S, 3), ACW)]);
    assert_eq!(
        refuse(&game, sow(f(S, 7), ACW)).reason,
        Reason::HoleMarkedHiziZetu
    );
}

/// North's f4 (3) is marked by South, whose b8 (4, anticlockwise) lands on f5 facing it.
pub(super) fn north_blocked_at_f4(mark: bool) -> BaoLaKete {
    let mut game = game(
        side([0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 4], 0, false),
        side([1, 0, 0, 3, 0, 1, 0, 2], EMPTY_ROW, 0, false),
        N,
    );
    if mark {
        game.mark = Some(HiziZetuMark {
            blockee: N,
            pit: f(N, 4),
            setter: S,
        });
    }
    game
}

/// §2.8 effect on the blockee: a lap ending in the marked hole stops the move there instead of relaying.
#[test]
fn hizi_zetu_stops_the_blockees_lap_in_the_marked_hole() {
    let blocked = north_blocked_at_f4(true);
    assert!(BaoLaKete::from_setup(&blocked.to_setup()).is_ok());
    assert_eq!(legal(&blocked), vec![sow(f(N, 8), CW), sow(f(N, 8), ACW)]);
    let mut game = blocked;
    let events = play(&mut game, sow(f(N, 8), ACW));
    // f7, f6 (2): relay f5, f4 — the marked hole (4): stop.
    assert_eq!(
        laps(&events).iter().map(|l| l.0).collect::<Vec<_>>(),
        vec![f(N, 8), f(N, 6)]
    );
    assert_eq!(front(&game, N), [1, 0, 0, 4, 1, 0, 1, 0]);
    assert!(
        game.mark.is_some(),
        "the mark stands until the end of South's next move"
    );

    // Without the mark the lap ending in f4 relays its 4 seeds to b1.
    let mut free = north_blocked_at_f4(false);
    play(&mut free, sow(f(N, 8), ACW));
    assert_eq!(front(&free, N), [2, 1, 1, 0, 1, 0, 1, 0]);
    assert_eq!(back(&free, N), [1, 0, 0, 0, 0, 0, 0, 0]);
}

/// §2.8 (S-2): the first lap of a move started from the blockee's kuu relays from the marked hole, which empties
/// and clears the mark.
#[test]
fn hizi_zetu_the_first_lap_from_the_kuu_relays_from_the_marked_hole() {
    let mut game = game(
        side([0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 4], 0, false),
        side([0, 0, 0, 1, 17, 0, 0, 0], EMPTY_ROW, 0, true),
        N,
    );
    game.mark = Some(HiziZetuMark {
        blockee: N,
        pit: f(N, 4),
        setter: S,
    });
    assert!(BaoLaKete::from_setup(&game.to_setup()).is_ok());
    let moves = legal(&game);
    assert!(
        moves
            .iter()
            .all(|m| matches!(m, Move::Sow(s) if s.pit == f(N, 5))),
        "{moves:?}"
    );
    assert!(moves.contains(&sow(f(N, 5), ACW)), "{moves:?}");
    let events = play(&mut game, sow(f(N, 5), ACW));
    // 17 seeds anticlockwise from the kuu: round the circuit, the 16th back into the kuu, the 17th into f4.
    let laps = laps(&events);
    assert_eq!(laps[0], (f(N, 5), 17, LapSource::Pit));
    assert_eq!(
        laps[1],
        (f(N, 4), 3, LapSource::Pit),
        "the first lap ended in the marked hole and relayed"
    );
    assert!(events.contains(&Event::MarkCleared {
        blockee: N,
        pit: f(N, 4),
        setter: S
    }));
    assert_eq!(game.mark, None);
}

/// §2.8, R-2.9 effect on the setter: his next move must capture the marked hole first, although another hole is
/// now threatened too (North's takata filled N f2, facing South's f7).
#[test]
fn hizi_zetu_the_setter_must_capture_the_marked_hole_first() {
    let mut game = game(
        side([0, 0, 2, 0, 0, 2, 1, 0], [0, 0, 0, 0, 0, 0, 0, 2], 0, false),
        side([2, 0, 0, 3, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        S,
    );
    play(&mut game, sow(f(S, 6), ACW));
    assert_eq!(
        game.mark,
        Some(HiziZetuMark {
            blockee: N,
            pit: f(N, 4),
            setter: S
        })
    );
    play(&mut game, sow(f(N, 1), CW));
    assert_eq!(game.mtaji_first_capture(b(S, 8), ACW), Some(f(N, 2)));
    assert_eq!(legal(&game), vec![sow(f(S, 3), CW)]);
    let err = refuse(&game, sow(b(S, 8), ACW));
    assert_eq!(err.reason, Reason::MustCaptureMarkedHole);
    assert_eq!(
        err.detail,
        "your last takata reserved the opponent's f4 by hizi zetu, so this move must capture it first (§2.8, R-2.9)"
    );
    assert_eq!(
        refuse(&game, sow(f(S, 7), ACW)).reason,
        Reason::MustCaptureMarkedHole
    );
}

/// §2.8 clearing: the mark goes at the end of the setter's next move even if it was not captured.
#[test]
fn hizi_zetu_the_mark_ends_with_the_setters_next_move() {
    let mut game = north_blocked_at_f4(true);
    game.to_move = Some(S);
    let mut events = Vec::new();
    game.finish_move(S, true, MoveEnd::Normal, &mut events, None);
    assert_eq!(
        events[0],
        Event::MarkCleared {
            blockee: N,
            pit: f(N, 4),
            setter: S
        }
    );
    assert_eq!(game.mark, None);
    // The blockee's move leaves it standing.
    let mut game = north_blocked_at_f4(true);
    game.finish_move(N, false, MoveEnd::Normal, &mut NoTrace, None);
    assert!(game.mark.is_some());
}
