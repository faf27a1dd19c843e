//! The worked examples BK-1..BK-9 of docs/bao-la-kete.md §2.11.

use super::*;

/// BK-1: the opening has no capture, the kuu is excluded, and f6/f7 each go both ways: exactly 4 moves.
#[test]
fn bk_1_the_opening_offers_exactly_four_takatas() {
    let opening = BaoLaKete::new_match(&Options::default());
    assert_eq!(front(&opening, S), [0, 0, 0, 0, 6, 2, 2, 0]);
    assert_eq!(front(&opening, N), [0, 0, 0, 0, 6, 2, 2, 0]);
    assert_eq!(opening.reserves, [22, 22]);
    let expected = [
        (
            sow(f(S, 6), CW),
            [0, 0, 0, 0, 6, 0, 3, 1],
            [0, 0, 0, 0, 0, 0, 0, 1],
            b(S, 8),
        ),
        (
            sow(f(S, 6), ACW),
            [0, 0, 1, 1, 7, 0, 2, 0],
            EMPTY_ROW,
            f(S, 3),
        ),
        (
            sow(f(S, 7), CW),
            [0, 0, 0, 0, 6, 2, 0, 1],
            [0, 0, 0, 0, 0, 0, 1, 1],
            b(S, 7),
        ),
        (
            sow(f(S, 7), ACW),
            [0, 0, 0, 1, 7, 3, 0, 0],
            EMPTY_ROW,
            f(S, 4),
        ),
    ];
    assert_eq!(
        legal(&opening),
        expected.iter().map(|e| e.0).collect::<Vec<_>>()
    );
    for (mv, f_after, b_after, lap_end) in expected {
        let mut game = opening.clone();
        let events = play(&mut game, mv);
        assert_eq!(
            (front(&game, S), back(&game, S)),
            (f_after, b_after),
            "{mv:?}"
        );
        assert_eq!(game.reserves, [21, 22]);
        assert_eq!(game.kuu_alive, [true, true]);
        assert_eq!(last_drop(&events), lap_end, "{mv:?}");
        assert!(captures(&events).is_empty());
        assert_eq!(game.to_move, Some(N));
    }
    assert_move_list_is_exact(&opening);
}

pub(super) fn bk_2() -> BaoLaKete {
    game(
        side([0, 0, 3, 0, 6, 0, 1, 0], [0, 0, 0, 0, 0, 3, 0, 3], 15, true),
        side([0, 0, 0, 0, 6, 4, 2, 0], [0, 0, 3, 0, 0, 3, 0, 0], 15, true),
        S,
    )
}

/// BK-2: the only capture is the seed into f3 (facing N f6 = 4). Central, so the kichwa is chosen; the right
/// kichwa's lap ends in the living kuu, where South chooses stop or safari.
#[test]
fn bk_2_nemo_capture_with_kichwa_and_kuu_decision() {
    let before = bk_2();
    assert_eq!(before.seeds_in_play(), 64);
    let a = capture(f(S, 3), Some(Kichwa::Left), None);
    let b1 = capture(f(S, 3), Some(Kichwa::Right), Some(KuuDecision::Stop));
    let b2 = capture(f(S, 3), Some(Kichwa::Right), Some(KuuDecision::Safari));
    assert_eq!(legal(&before), vec![a, b1, b2]);
    assert_move_list_is_exact(&before);
    let north_after = |game: &BaoLaKete| {
        assert_eq!(front(game, N), [0, 0, 0, 0, 6, 0, 2, 0]);
        assert_eq!(back(game, N), [0, 0, 3, 0, 0, 3, 0, 0]);
        assert_eq!(game.reserves, [14, 15]);
    };

    // (a) Left kichwa, clockwise: f1, f2, f3, f4; f4 was empty.
    let mut game = before.clone();
    let events = play(&mut game, a);
    assert_eq!(front(&game, S), [1, 1, 5, 1, 6, 0, 1, 0]);
    assert_eq!(back(&game, S), [0, 0, 0, 0, 0, 3, 0, 3]);
    north_after(&game);
    assert!(events.contains(&Event::Capture {
        pit: f(N, 6),
        seeds: 4,
        beneficiary: S,
        kichwa: Some(Kichwa::Left),
        direction: Some(CW),
    }));
    assert_eq!(
        laps(&events),
        vec![
            (f(S, 3), 1, LapSource::Reserve),
            (f(N, 6), 4, LapSource::Capture)
        ]
    );

    // (b1) Right kichwa, anticlockwise, the lap ends in the kuu: stop.
    let mut game = before.clone();
    let events = play(&mut game, b1);
    assert_eq!(front(&game, S), [0, 0, 4, 0, 7, 1, 2, 1]);
    assert_eq!(game.kuu_alive, [true, true]);
    assert!(events.contains(&Event::KuuStop { pit: f(S, 5) }));
    north_after(&game);

    // (b2) Safari: the kuu's 7 seeds go on anticlockwise to b3.
    let mut game = before.clone();
    let events = play(&mut game, b2);
    assert_eq!(front(&game, S), [1, 1, 5, 1, 0, 1, 2, 1]);
    assert_eq!(back(&game, S), [1, 1, 1, 0, 0, 3, 0, 3]);
    assert_eq!(game.kuu_alive, [false, true]);
    assert!(events.contains(&Event::Safari {
        pit: f(S, 5),
        seeds: 7
    }));
    assert!(events.contains(&Event::KuuDestroyed {
        owner: S,
        pit: f(S, 5)
    }));
    assert_eq!(last_drop(&events), b(S, 3));
    north_after(&game);
    assert_eq!(game.seeds_in_play(), 64);
}

/// BK-2: the choices must be exactly those the move reaches.
#[test]
fn bk_2_missing_or_unreached_choices_are_refused() {
    let before = bk_2();
    let reason = |mv| refuse(&before, mv).reason;
    assert_eq!(reason(capture(f(S, 3), None, None)), Reason::ChoiceRequired);
    assert_eq!(
        reason(capture(f(S, 3), Some(Kichwa::Right), None)),
        Reason::ChoiceRequired
    );
    assert_eq!(
        reason(capture(
            f(S, 3),
            Some(Kichwa::Left),
            Some(KuuDecision::Stop)
        )),
        Reason::ChoiceNotOffered
    );
    let mut with_direction = Sow {
        pit: f(S, 3),
        direction: Some(CW),
        kichwa: Some(Kichwa::Left),
        kuu_decision: None,
    };
    assert_eq!(reason(Move::Sow(with_direction)), Reason::ChoiceNotOffered);
    with_direction.kichwa = None;
    assert_eq!(reason(Move::Sow(with_direction)), Reason::ChoiceNotOffered);
    let err = refuse(&before, sow(f(S, 7), CW));
    assert_eq!(err.reason, Reason::CaptureIsMandatory);
    assert_eq!(
        err.detail,
        "a capture is available at f3, so a takata is not allowed: captures are mandatory (§2.4)"
    );
}

pub(super) fn bk_3() -> BaoLaKete {
    game(
        side([0, 0, 0, 0, 8, 0, 1, 0], [2, 2, 2, 2, 2, 2, 2, 0], 10, true),
        side([0, 0, 3, 0, 6, 2, 0, 0], [0, 0, 2, 2, 2, 2, 2, 0], 10, true),
        S,
    )
}

/// BK-3: with the kuu not alone the seed must go into the singleton f7; anticlockwise the lap ends in the kuu
/// and the move stops there.
#[test]
fn bk_3_nemo_takata_ending_in_the_kuu_stops() {
    let before = bk_3();
    assert_eq!(legal(&before), vec![sow(f(S, 7), CW), sow(f(S, 7), ACW)]);
    assert_move_list_is_exact(&before);
    assert_eq!(
        refuse(&before, sow(f(S, 5), CW)).reason,
        Reason::KuuNotAllowedWhileOtherHolesOccupied
    );

    let mut game = before.clone();
    let events = play(&mut game, sow(f(S, 7), ACW));
    assert_eq!(front(&game, S), [0, 0, 0, 0, 9, 1, 0, 0]);
    assert_eq!(back(&game, S), [2, 2, 2, 2, 2, 2, 2, 0]);
    assert_eq!(game.reserves[0], 9);
    assert!(events.contains(&Event::KuuStop { pit: f(S, 5) }));
    assert_eq!(game.kuu_alive, [true, true]);

    let mut game = before;
    play(&mut game, sow(f(S, 7), CW));
    assert_eq!(front(&game, S), [0, 0, 0, 0, 8, 0, 0, 1]);
    assert_eq!(back(&game, S), [2, 2, 2, 2, 2, 2, 2, 1]);
}

/// BK-4: the lone kuu holds exactly 6: the seed is added, all 7 are sown and the kuu is destroyed.
#[test]
fn bk_4_the_six_seed_rule_empties_and_destroys_the_kuu() {
    let before = game(
        side([0, 0, 0, 0, 6, 0, 0, 0], [2, 2, 2, 2, 0, 0, 0, 0], 5, true),
        side([2, 0, 0, 0, 7, 0, 0, 3], [4, 4, 4, 4, 3, 3, 3, 3], 5, true),
        S,
    );
    assert_eq!(legal(&before), vec![sow(f(S, 5), CW), sow(f(S, 5), ACW)]);

    let mut game = before.clone();
    let events = play(&mut game, sow(f(S, 5), CW));
    assert_eq!(front(&game, S), [0, 0, 0, 0, 0, 1, 1, 1]);
    assert_eq!(back(&game, S), [2, 2, 2, 2, 1, 1, 1, 1]);
    assert_eq!(game.kuu_alive, [false, true]);
    assert_eq!(game.reserves[0], 4);
    assert!(events.contains(&Event::Taxation {
        pit: f(S, 5),
        seeds: 7,
        six_seed_rule: true
    }));
    assert!(events.contains(&Event::KuuDestroyed {
        owner: S,
        pit: f(S, 5)
    }));

    let mut game = before;
    let events = play(&mut game, sow(f(S, 5), ACW));
    assert_eq!(front(&game, S), [1, 1, 1, 1, 0, 0, 0, 0]);
    assert_eq!(back(&game, S), [3, 3, 0, 3, 1, 1, 0, 0]);
    assert_eq!(
        laps(&events)[1..],
        [(f(S, 5), 7, LapSource::Pit), (b(S, 3), 3, LapSource::Pit)]
    );
}

/// BK-5: a lone kuu holding 9 receives the seed and is taxed 2; it stays alive with 8.
#[test]
fn bk_5_taxation_lifts_two_seeds_and_keeps_the_kuu() {
    let before = game(
        side([0, 0, 0, 0, 9, 0, 0, 0], EMPTY_ROW, 3, true),
        side([2, 0, 0, 0, 8, 3, 0, 0], [5, 5, 5, 5, 4, 4, 4, 4], 3, true),
        S,
    );
    let mut game = before.clone();
    let events = play(&mut game, sow(f(S, 5), CW));
    assert_eq!(front(&game, S), [0, 0, 0, 0, 8, 1, 1, 0]);
    assert_eq!(game.reserves[0], 2);
    assert_eq!(game.kuu_alive, [true, true]);
    assert!(events.contains(&Event::Taxation {
        pit: f(S, 5),
        seeds: 2,
        six_seed_rule: false
    }));

    let mut game = before;
    play(&mut game, sow(f(S, 5), ACW));
    assert_eq!(front(&game, S), [0, 0, 1, 1, 8, 0, 0, 0]);
    assert_eq!(game.kuu_alive, [true, true]);
}

/// BK-6: in mtaji, while the kuu lives, the takata must start from it (f2 is refused); it dies.
#[test]
fn bk_6_the_mtaji_takata_must_start_from_the_living_kuu() {
    let before = game(
        side([0, 2, 0, 0, 7, 0, 0, 0], [0, 0, 0, 0, 0, 0, 3, 0], 0, true),
        side([0, 0, 0, 0, 6, 2, 2, 0], EMPTY_ROW, 0, true),
        S,
    );
    assert_eq!(legal(&before), vec![sow(f(S, 5), CW), sow(f(S, 5), ACW)]);
    assert_move_list_is_exact(&before);
    assert_eq!(
        refuse(&before, sow(f(S, 2), CW)).reason,
        Reason::KuuMustStartTakata
    );
    assert_eq!(
        refuse(&before, sow(b(S, 7), ACW)).reason,
        Reason::KuuMustStartTakata
    );

    let mut game = before.clone();
    let events = play(&mut game, sow(f(S, 5), CW));
    assert_eq!(front(&game, S), [0, 2, 0, 0, 0, 1, 1, 1]);
    assert_eq!(back(&game, S), [0, 0, 0, 0, 1, 1, 4, 1]);
    assert_eq!(game.kuu_alive, [false, true]);
    assert!(events.contains(&Event::KuuDestroyed {
        owner: S,
        pit: f(S, 5)
    }));

    let mut game = before;
    play(&mut game, sow(f(S, 5), ACW));
    assert_eq!(front(&game, S), [1, 3, 1, 1, 0, 0, 0, 0]);
    assert_eq!(back(&game, S), [1, 1, 1, 0, 0, 0, 3, 0]);
    assert_eq!(game.kuu_alive, [false, true]);
}

/// BK-7: a capture at f7 (right kimbi) reverses the direction to anticlockwise from f8; the second capture at
/// central f6 keeps it; then a non-capturing relay ends the move.
#[test]
fn bk_7_mtaji_capture_chain_with_a_kimbi_reversal() {
    let mut game = game(
        side([0, 0, 0, 0, 2, 0, 1, 0], [2; 8], 0, false),
        side([0, 3, 2, 0, 4, 0, 0, 0], [5, 5, 5, 5, 4, 4, 4, 4], 0, false),
        S,
    );
    assert_eq!(game.seeds_in_play(), 64);
    let events = play(&mut game, sow(f(S, 5), CW));
    assert_eq!(captures(&events), vec![(f(N, 2), 3), (f(N, 3), 2)]);
    for (pit, seeds) in [(f(N, 2), 3), (f(N, 3), 2)] {
        assert!(events.contains(&Event::Capture {
            pit,
            seeds,
            beneficiary: S,
            kichwa: Some(Kichwa::Right),
            direction: Some(ACW),
        }));
    }
    assert_eq!(
        laps(&events),
        vec![
            (f(S, 5), 2, LapSource::Pit),
            (f(N, 2), 3, LapSource::Capture),
            (f(N, 3), 2, LapSource::Capture),
            (f(S, 7), 4, LapSource::Pit),
        ]
    );
    assert_eq!(front(&game, S), [0, 0, 1, 1, 1, 3, 0, 2]);
    assert_eq!(back(&game, S), [2; 8]);
    assert_eq!(front(&game, N), [0, 0, 0, 0, 4, 0, 0, 0]);
    assert_eq!(back(&game, N), [5, 5, 5, 5, 4, 4, 4, 4]);
    assert_eq!(game.seeds_in_play(), 64);
}

/// BK-8: 17 seeds in the first lap: the origin is sown into, and although the lap (and later laps) end in
/// occupied holes facing occupied holes, nothing is captured; 9 laps.
#[test]
fn bk_8_the_sixteen_seed_rule() {
    let mut game = game(
        side([0, 0, 0, 17, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        side([0, 2, 0, 3, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        S,
    );
    assert_eq!(legal(&game), vec![sow(f(S, 4), CW), sow(f(S, 4), ACW)]);
    let events = play(&mut game, sow(f(S, 4), CW));
    assert!(captures(&events).is_empty());
    let origins: Vec<u8> = laps(&events).iter().map(|l| l.0).collect();
    assert_eq!(
        origins,
        vec![
            f(S, 4),
            f(S, 5),
            f(S, 7),
            b(S, 8),
            b(S, 6),
            b(S, 4),
            b(S, 2),
            f(S, 1),
            f(S, 3)
        ]
    );
    assert_eq!(front(&game, S), [0, 2, 0, 2, 1, 2, 0, 2]);
    assert_eq!(back(&game, S), [2, 0, 2, 0, 2, 0, 2, 0]);
    assert_eq!(front(&game, N), [0, 2, 0, 3, 0, 0, 0, 0]);
}

pub(super) fn bk_9() -> BaoLaKete {
    game(
        side([0, 0, 2, 0, 0, 2, 0, 0], EMPTY_ROW, 0, false),
        side([2, 0, 0, 3, 0, 0, 0, 0], EMPTY_ROW, 0, false),
        S,
    )
}

/// BK-9, first part: South's takata f6 ACW leaves N f4 the only hole South threatens while North threatens
/// nothing, so N f4 is marked; North may then start only from f1.
#[test]
fn bk_9_hizi_zetu_is_set_and_blocks_the_marked_hole() {
    let mut game = bk_9();
    assert_eq!(
        legal(&game),
        vec![
            sow(f(S, 3), CW),
            sow(f(S, 3), ACW),
            sow(f(S, 6), CW),
            sow(f(S, 6), ACW)
        ]
    );
    let events = play(&mut game, sow(f(S, 6), ACW));
    assert_eq!(front(&game, S), [0, 0, 2, 1, 1, 0, 0, 0]);
    assert_eq!(
        game.threatened_holes(S),
        PitSet::EMPTY.with(f(N, 4) as usize)
    );
    assert!(game.threatened_holes(N).is_empty());
    let mark = HiziZetuMark {
        blockee: N,
        pit: f(N, 4),
        setter: S,
    };
    assert_eq!(game.mark, Some(mark));
    assert!(events.contains(&Event::MarkSet {
        blockee: N,
        pit: f(N, 4),
        setter: S
    }));
    assert_eq!(legal(&game), vec![sow(f(N, 1), CW), sow(f(N, 1), ACW)]);
    assert_move_list_is_exact(&game);
    assert_eq!(
        refuse(&game, sow(f(N, 4), ACW)).reason,
        Reason::HoleMarkedHiziZetu
    );
}

/// BK-9, after North's f1 CW: South must capture N f4 (3 seeds, from f3 CW landing on f5); column 5 keeps
/// clockwise, so the seeds go f1, f2, f3. North is left with single seeds and loses (§2.9).
///
/// An earlier text of BK-9 printed South's front row afterwards as [1,1,1,1,2,0,0,0]; sowing f3's 2 seeds into f4 and f5 makes
/// f4 = 2, and only [1,1,1,2,2,0,0,0] keeps the 7 seeds South has (4 + 3 captured). The rules text wins.
#[test]
fn bk_9_after_north_f1_cw_south_captures_the_marked_hole_and_north_cannot_move() {
    let mut game = bk_9();
    play(&mut game, sow(f(S, 6), ACW));
    play(&mut game, sow(f(N, 1), CW));
    assert_eq!(front(&game, N), [0, 1, 1, 3, 0, 0, 0, 0]);
    assert!(
        game.mark.is_some(),
        "the mark stands until the end of South's next move"
    );
    assert_eq!(legal(&game), vec![sow(f(S, 3), CW)]);
    let events = play(&mut game, sow(f(S, 3), CW));
    assert_eq!(captures(&events), vec![(f(N, 4), 3)]);
    assert!(events.contains(&Event::MarkCleared {
        blockee: N,
        pit: f(N, 4),
        setter: S
    }));
    assert_eq!(game.mark, None);
    assert_eq!(front(&game, S), [1, 1, 1, 2, 2, 0, 0, 0]);
    assert_eq!(front(&game, N), [0, 1, 1, 0, 0, 0, 0, 0]);
    assert_eq!(back(&game, N), EMPTY_ROW);
    assert_eq!(game_end(&events), Some((EndReason::NoLegalMove, Some(S))));
    assert_eq!(game.status, Status::GameOver);
    assert_eq!(game.winner, Some(S));
    assert_eq!(game.match_score, [1, 0]);
}

/// BK-9, after North's f1 ACW: North's front row holds only the marked f4, so South's forced capture of it is
/// Bao hamna at once (B2): the 3 seeds go to South's store, unsown.
///
/// The earlier text printed South's front row as [0,0,0,1,2,0,0,0]; as above, f4 = 2 (4 seeds on South's side).
#[test]
fn bk_9_after_north_f1_acw_the_forced_capture_is_bao_hamna() {
    let mut game = bk_9();
    play(&mut game, sow(f(S, 6), ACW));
    play(&mut game, sow(f(N, 1), ACW));
    assert_eq!(front(&game, N), [0, 0, 0, 3, 0, 0, 0, 0]);
    assert_eq!(back(&game, N), [1, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(legal(&game), vec![sow(f(S, 3), CW)]);
    let events = play(&mut game, sow(f(S, 3), CW));
    assert!(events.contains(&Event::Capture {
        pit: f(N, 4),
        seeds: 3,
        beneficiary: S,
        kichwa: None,
        direction: None
    }));
    assert_eq!(game_end(&events), Some((EndReason::BaoHamna, Some(S))));
    assert_eq!(front(&game, S), [0, 0, 0, 2, 2, 0, 0, 0]);
    assert_eq!(game.stores, [3, 0]);
    assert_eq!(game.mark, None);
    assert_eq!(game.status, Status::GameOver);
    assert_eq!(game.match_score, [1, 0]);
}
