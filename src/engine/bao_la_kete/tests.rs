//! Bao la Kete rule tests: the worked examples BK-1..BK-9 of docs/bao-la-kete.md §2.11 and one test per rule clause.
//! Positions are written player-relative, as docs/bao-la-kete.md writes them: `f = [f1..f8]`, `b = [b1..b8]`.

use super::*;
use crate::engine::{Direction, KuuDecision, LapSource, NoTrace, Repeated, Sow};

const S: Player = Player::South;
const N: Player = Player::North;
const CW: Direction = Direction::Clockwise;
const ACW: Direction = Direction::Anticlockwise;
const EMPTY_ROW: [u8; 8] = [0; 8];

/// One player's holes, reserve and kuu.
#[derive(Clone, Copy)]
struct Side {
    f: [u8; 8],
    b: [u8; 8],
    reserve: u8,
    kuu: bool,
}

fn side(f: [u8; 8], b: [u8; 8], reserve: u8, kuu: bool) -> Side {
    Side { f, b, reserve, kuu }
}

/// Game 1 of a match begun by South, in progress with `to_move` to move.
fn game(south: Side, north: Side, to_move: Player) -> BaoLaKete {
    let mut pits = [0u8; PITS];
    for (player, s) in [(S, south), (N, north)] {
        let b = base(player) as usize;
        pits[b..b + 8].copy_from_slice(&s.f);
        pits[b + 8..b + 16].copy_from_slice(&s.b);
    }
    BaoLaKete {
        pits,
        reserves: [south.reserve, north.reserve],
        stores: [0, 0],
        kuu_alive: [south.kuu, north.kuu],
        mark: None,
        to_move: Some(to_move),
        status: Status::InProgress,
        winner: None,
        game_starter: S,
        starter_rule: StarterRule::Alternate,
        ply: 0,
        game_number: 1,
        match_score: [0, 0],
    }
}

/// The pit of `player`'s f_i.
fn f(player: Player, i: u8) -> u8 {
    base(player) + i - 1
}

/// The pit of `player`'s b_i.
fn b(player: Player, i: u8) -> u8 {
    base(player) + 8 + i - 1
}

fn front(game: &BaoLaKete, player: Player) -> [u8; 8] {
    let b = base(player) as usize;
    game.pits[b..b + 8].try_into().unwrap()
}

fn back(game: &BaoLaKete, player: Player) -> [u8; 8] {
    let b = base(player) as usize + 8;
    game.pits[b..b + 8].try_into().unwrap()
}

/// A takata or a mtaji move.
fn sow(pit: u8, dir: Direction) -> Move {
    Move::Sow(Sow {
        pit,
        direction: Some(dir),
        kichwa: None,
        kuu_decision: None,
    })
}

/// A nemo capture move.
fn capture(pit: u8, kichwa: Option<Kichwa>, decision: Option<KuuDecision>) -> Move {
    Move::Sow(Sow {
        pit,
        direction: None,
        kichwa,
        kuu_decision: decision,
    })
}

fn play(game: &mut BaoLaKete, mv: Move) -> Vec<Event> {
    let mut events = Vec::new();
    if let Err(err) = game.play(&mv, &mut events) {
        panic!("{mv:?} should be legal: {err}");
    }
    events
}

/// The refusal of `mv`, checking that the state is left untouched.
fn refuse(game: &BaoLaKete, mv: Move) -> IllegalMove {
    let mut copy = game.clone();
    let mut events = Vec::new();
    let err = copy
        .play(&mv, &mut events)
        .expect_err("the move should be illegal");
    assert_eq!(&copy, game, "a refused move leaves the state untouched");
    assert!(events.is_empty(), "a refused move records no event");
    err
}

fn legal(game: &BaoLaKete) -> Vec<Move> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves.to_vec()
}

/// Checks that legal_moves and is_legal agree on every move shape from every hole.
fn assert_move_list_is_exact(game: &BaoLaKete) {
    let moves = legal(game);
    let dirs = [None, Some(CW), Some(ACW)];
    let kichwas = [None, Some(Kichwa::Left), Some(Kichwa::Right)];
    let decisions = [None, Some(KuuDecision::Stop), Some(KuuDecision::Safari)];
    for pit in 0..=PITS as u8 {
        for direction in dirs {
            for kichwa in kichwas {
                for kuu_decision in decisions {
                    let mv = Move::Sow(Sow {
                        pit,
                        direction,
                        kichwa,
                        kuu_decision,
                    });
                    assert_eq!(moves.contains(&mv), game.is_legal(&mv), "{mv:?}");
                }
            }
        }
    }
}

fn last_drop(events: &[Event]) -> u8 {
    events
        .iter()
        .rev()
        .find_map(|e| match *e {
            Event::Drop { pit } => Some(pit),
            _ => None,
        })
        .expect("a drop")
}

fn captures(events: &[Event]) -> Vec<(u8, u8)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Capture { pit, seeds, .. } => Some((pit, seeds)),
            _ => None,
        })
        .collect()
}

/// `(origin, seeds, source)` of every lap.
fn laps(events: &[Event]) -> Vec<(u8, u8, LapSource)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Lap {
                origin,
                seeds,
                source,
                ..
            } => Some((origin, seeds, source)),
            _ => None,
        })
        .collect()
}

fn game_end(events: &[Event]) -> Option<(EndReason, Option<Player>)> {
    events.iter().find_map(|e| match *e {
        Event::GameEnd { reason, winner, .. } => Some((reason, winner)),
        _ => None,
    })
}

// ---- Worked examples, docs/bao-la-kete.md §2.11 ----

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

fn bk_2() -> BaoLaKete {
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

fn bk_3() -> BaoLaKete {
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

fn bk_9() -> BaoLaKete {
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

// ---- §2.5 N-1: nemo capture moves ----

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

// ---- §2.6 M-1: mtaji capture moves ----

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

// ---- §2.7 move execution ----

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

// ---- §2.8 hizi zetu ----

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
fn north_blocked_at_f4(mark: bool) -> BaoLaKete {
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

// ---- §2.9 match play ----

fn won_game(winner: Player) -> BaoLaKete {
    let mut game = BaoLaKete::new_match(&Options::default());
    game.end_game(winner, EndReason::NoLegalMove, &mut NoTrace);
    game
}

/// §2.9, R-2.12: a game won leaves the match on GAME_OVER; NextGame (with no pits) starts the next game from
/// the opening, begun by the other player.
#[test]
fn the_next_game_starts_from_the_opening_with_the_other_starter() {
    let mut game = won_game(S);
    assert_eq!(
        (game.status, game.winner, game.match_score),
        (Status::GameOver, Some(S), [1, 0])
    );
    assert_eq!(legal(&game), vec![Move::NextGame(PitSet::EMPTY)]);
    assert_eq!(
        refuse(&game, Move::NextGame(PitSet(1))).reason,
        Reason::InvalidChoice
    );
    assert_eq!(refuse(&game, sow(f(S, 6), CW)).reason, Reason::GameOver);
    play(&mut game, Move::NextGame(PitSet::EMPTY));
    assert_eq!(game.status, Status::InProgress);
    assert_eq!(
        (game.game_number, game.game_starter, game.to_move),
        (2, N, Some(N))
    );
    assert_eq!(game.match_score, [1, 0]);
    assert_eq!(game.reserves, [22, 22]);
    assert_eq!(front(&game, N), [0, 0, 0, 0, 6, 2, 2, 0]);
    assert_eq!(
        refuse(&game, Move::NextGame(PitSet::EMPTY)).reason,
        Reason::GameInProgress
    );
}

/// §2.9: the match ends as soon as a player has won two games.
#[test]
fn the_match_ends_at_two_games_won() {
    let mut game = won_game(N);
    play(&mut game, Move::NextGame(PitSet::EMPTY));
    let mut events = Vec::new();
    game.end_game(N, EndReason::BaoHamna, &mut events);
    assert_eq!(game.status, Status::MatchOver);
    assert_eq!(game.winner, Some(N));
    assert_eq!(
        events.last(),
        Some(&Event::MatchEnd {
            winner: Some(N),
            score: PerSeat::two([0, 2]),
            placing: PerSeat::NONE,
        })
    );
    assert!(legal(&game).is_empty());
    assert_eq!(
        refuse(&game, Move::NextGame(PitSet::EMPTY)).reason,
        Reason::MatchOver
    );
    assert_eq!(refuse(&game, sow(f(S, 6), CW)).reason, Reason::MatchOver);
    assert!(BaoLaKete::from_setup(&game.to_setup()).is_ok());
}

/// who begins games 2 and 3 is a match option: alternately (the default), the loser, or the winner. The
/// state carries it, so a stateless caller's `NextGame` follows it too.
#[test]
fn the_starter_of_later_games_follows_the_match_option() {
    let cases = [
        (StarterRule::Alternate, S, N),
        (StarterRule::Alternate, N, N),
        (StarterRule::LoserStarts, S, N),
        (StarterRule::LoserStarts, N, S),
        (StarterRule::WinnerStarts, S, S),
        (StarterRule::WinnerStarts, N, N),
    ];
    for (rule, winner, next) in cases {
        let mut game = BaoLaKete::new_match(&Options {
            bao_la_kete_starter: rule,
            ..Options::default()
        });
        game.end_game(winner, EndReason::NoLegalMove, &mut NoTrace);
        let game = BaoLaKete::from_setup(&game.to_setup()).expect("a finished game");
        let mut next_game = game.clone();
        play(&mut next_game, Move::NextGame(PitSet::EMPTY));
        assert_eq!(
            (next_game.game_starter, next_game.to_move),
            (next, Some(next)),
            "{rule:?}, {winner} won game 1 (begun by South)"
        );
        assert_eq!(next_game.starter_rule, rule, "kept for game 3");
    }
}

/// the options choose who begins game 1.
#[test]
fn the_first_player_is_configurable() {
    let game = BaoLaKete::new_match(&Options {
        first_player: N,
        ..Options::default()
    });
    assert_eq!((game.to_move, game.game_starter), (Some(N), N));
    assert_eq!(legal(&game).len(), 4);
}

// ---- Validation ----

fn fields(setup: &Setup) -> Vec<String> {
    match BaoLaKete::from_setup(setup) {
        Ok(_) => Vec::new(),
        Err(err) => err.0.into_iter().map(|v| v.field).collect(),
    }
}

#[test]
fn states_round_trip_through_the_wire_shape() {
    let opening = BaoLaKete::new_match(&Options::default());
    assert_eq!(BaoLaKete::from_setup(&opening.to_setup()), Ok(opening));
    let mut marked = bk_9();
    play(&mut marked, sow(f(S, 6), ACW));
    assert_eq!(
        BaoLaKete::from_setup(&marked.to_setup()),
        Ok(marked.clone())
    );
    let setup = marked.to_setup();
    assert_eq!(
        setup.variant,
        VariantSetup::BaoLaKete {
            mtaji: Some(true),
            kuu_alive: vec![false, false].into(),
            mark: Some((Some(N), f(N, 4) as u32, Some(S))),
            game_starter: Some(S),
            starter_rule: StarterRule::Alternate,
        }
    );
    for game in [bk_2(), bk_3(), won_game(S)] {
        assert_eq!(BaoLaKete::from_setup(&game.to_setup()), Ok(game));
    }
}

type MarkFields = Option<(Option<Player>, u32, Option<Player>)>;

fn variant(
    setup: &mut Setup,
) -> (
    &mut Option<bool>,
    &mut Repeated<bool, 2>,
    &mut MarkFields,
    &mut Option<Player>,
) {
    match &mut setup.variant {
        VariantSetup::BaoLaKete {
            mtaji,
            kuu_alive,
            mark,
            game_starter,
            ..
        } => (mtaji, kuu_alive, mark, game_starter),
        _ => unreachable!("a Bao la Kete state"),
    }
}

/// Every broken invariant is reported, all at once.
#[test]
fn invalid_states_report_every_violation() {
    let good = BaoLaKete::new_match(&Options::default()).to_setup();
    let broken = |change: &dyn Fn(&mut Setup)| {
        let mut setup = good.clone();
        change(&mut setup);
        fields(&setup)
    };
    assert_eq!(broken(&|s| s.reserves[0] = 23), ["pits", "reserves[0]"]);
    assert_eq!(broken(&|s| s.pits[4] = 5), ["bao_la_kete.kuu_alive[0]"]);
    assert_eq!(
        broken(&|s| *variant(s).0 = Some(true)),
        ["bao_la_kete.stage"]
    );
    assert_eq!(broken(&|s| *variant(s).0 = None), ["bao_la_kete.stage"]);
    assert_eq!(
        broken(&|s| *variant(s).2 = Some((Some(N), 4, Some(S)))),
        ["bao_la_kete.mark.pit"]
    );
    assert!(broken(&|s| *variant(s).2 = Some((Some(N), 20, Some(N))))
        .contains(&"bao_la_kete.mark.setter".into()));
    assert!(broken(&|s| *variant(s).2 = Some((Some(N), 19, Some(S))))
        .contains(&"bao_la_kete.mark".into()));
    assert_eq!(
        broken(&|s| *variant(s).3 = None),
        ["bao_la_kete.game_starter"]
    );
    assert_eq!(
        broken(&|s| variant(s).1.push(true)),
        ["bao_la_kete.kuu_alive"]
    );
    assert_eq!(
        broken(&|s| s.game_number = 4),
        ["game_number", "game_number"]
    );
    assert_eq!(
        broken(&|s| s.match_score = vec![2, 0].into()),
        ["match_score", "game_number"]
    );
    assert_eq!(
        broken(&|s| {
            s.stores = vec![1, 0].into();
            s.pits[5] = 1;
        }),
        ["stores"]
    );
    assert_eq!(broken(&|s| s.to_move = Some(N)), ["to_move"]);
    assert_eq!(
        broken(&|s| s.status = Some(Status::RoundOver)),
        ["to_move", "status", "winner"]
    );
    assert_eq!(
        broken(&|s| s.variant = VariantSetup::Missing),
        ["bao_la_kete"]
    );
    assert_eq!(
        broken(&|s| s.pits[16..24].fill(0)),
        ["bao_la_kete.kuu_alive[1]", "pits"]
    );
    // Several at once.
    let many = broken(&|s| {
        s.reserves[1] = 30;
        s.pits[20] = 5;
        s.game_number = 0;
    });
    assert!(many.len() >= 3, "{many:?}");
}

/// Reduced positions with fewer than 64 seeds are accepted (docs/common.md §1 "Custom and reduced positions").
#[test]
fn reduced_positions_are_accepted() {
    for game in [bk_9(), north_blocked_at_f4(true)] {
        assert!(BaoLaKete::from_setup(&game.to_setup()).is_ok());
    }
}

/// Untrusted states never make the engine panic: random wire states are validated, and every accepted one is
/// played with random move shapes (legal or not), checking that the move list and `play` agree.
#[test]
fn random_untrusted_states_never_panic() {
    let mut state = 0xC0FF_EE12_3456_789Bu64;
    let mut rand = move |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as u32
    };
    let mut accepted = 0;
    for _ in 0..20_000 {
        let mut pits: Vec<u32> = (0..PITS)
            .map(|_| if rand(3) == 0 { 0 } else { rand(4) })
            .collect();
        let kuu_alive = vec![rand(2) == 0, rand(2) == 0];
        for (i, &alive) in kuu_alive.iter().enumerate() {
            if alive {
                pits[i * 16 + 4] = 6 + rand(8);
            }
        }
        let reserve = if rand(2) == 0 { 0 } else { rand(4) };
        let to_move = if rand(2) == 0 { S } else { N };
        let reserves = match to_move {
            Player::South => vec![reserve, reserve],
            Player::North | Player::East => vec![reserve.saturating_sub(1), reserve],
        };
        let mark = (rand(4) == 0).then(|| {
            let blockee = if rand(2) == 0 { S } else { N };
            (
                Some(blockee),
                base(blockee) as u32 + rand(8),
                Some(blockee.opponent()),
            )
        });
        let setup = Setup {
            kind: GameKind::BaoLaKete,
            rules_version: crate::engine::RULES_VERSION,
            pits: pits.into(),
            stores: vec![0, 0].into(),
            reserves: reserves.clone().into(),
            to_move: Some(to_move),
            status: Some(Status::InProgress),
            winner: None,
            ply: if rand(2) == 0 { u32::MAX } else { 0 },
            game_number: 1,
            match_score: vec![0, 0].into(),
            variant: VariantSetup::BaoLaKete {
                mtaji: Some(reserves[to_move.index()] == 0),
                kuu_alive: kuu_alive.into(),
                mark,
                game_starter: Some(S),
                starter_rule: StarterRule::Alternate,
            },
        };
        let Ok(game) = BaoLaKete::from_setup(&setup) else {
            continue;
        };
        accepted += 1;
        let moves = legal(&game);
        assert!(!moves.is_empty());
        for _ in 0..8 {
            let direction = [None, Some(CW), Some(ACW)][rand(3) as usize];
            let kichwa = [None, Some(Kichwa::Left), Some(Kichwa::Right)][rand(3) as usize];
            let kuu_decision =
                [None, Some(KuuDecision::Stop), Some(KuuDecision::Safari)][rand(3) as usize];
            let mv = Move::Sow(Sow {
                pit: rand(33) as u8,
                direction,
                kichwa,
                kuu_decision,
            });
            assert_eq!(
                moves.contains(&mv),
                game.is_legal(&mv),
                "{mv:?} in {game:?}"
            );
        }
        let mut next = game.clone();
        play(&mut next, moves[rand(moves.len() as u32) as usize]);
        assert_eq!(
            BaoLaKete::from_setup(&next.to_setup()),
            Ok(next.clone()),
            "from {game:?}"
        );
    }
    assert!(accepted > 1000, "{accepted}");
}

/// The board-only trial (`trial_early`) answers what `run` answers on a copy of the game, for every start of
/// every layer and player and every choice of kichwa and kuu decision, in positions of random matches (nemo and
/// mtaji, living and dead kuus, hizi-zetu marks); it leaves to `run` only moves longer than its unwatched laps.
#[test]
fn the_board_only_trial_agrees_with_run() {
    use crate::engine::{Game, MoveList, Rng};
    let mut rng = Rng::new(0x7A7A);
    let (mut decided, mut long, mut marked) = (0u32, 0u32, 0u32);
    let kichwas = [None, Some(Kichwa::Left), Some(Kichwa::Right)];
    let decisions = [None, Some(KuuDecision::Stop), Some(KuuDecision::Safari)];
    for _ in 0..300 {
        let mut game = BaoLaKete::new_match(&crate::engine::Options::default());
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        while game.status == Status::InProgress && !moves.is_empty() {
            marked += u32::from(game.mark.is_some());
            for (mover, layer) in Player::BOTH.into_iter().flat_map(|p| {
                [
                    moves::Layer::MarkedCaptures,
                    moves::Layer::Captures,
                    moves::Layer::Takatas,
                ]
                .map(|l| (p, l))
            }) {
                let mut starts = moves::Starts::new();
                game.starts(mover, layer, &mut starts);
                for start in starts {
                    for (&kichwa, &decision) in kichwas
                        .iter()
                        .flat_map(|k| decisions.iter().map(move |d| (k, d)))
                    {
                        let choices = moves::Choices { kichwa, decision };
                        let run = game
                            .clone()
                            .run(mover, start, choices, &mut NoTrace)
                            .map(|_| ());
                        match game.trial_early(mover, start, choices) {
                            Some(early) => {
                                assert_eq!(
                                    early, run,
                                    "{start:?} {choices:?} of {mover} in {game:?}"
                                );
                                decided += 1;
                            }
                            None => long += 1,
                        }
                    }
                }
            }
            let mv = moves[rng.below(moves.len())];
            game.play_and_list(&mv, &mut NoTrace, &mut moves)
                .expect("listed moves are legal");
        }
    }
    assert!(
        decided > 100_000 && long > 0 && marked > 0,
        "{decided} {long} {marked}"
    );
}

/// A position with the 64 seeds spread at random: reserves of 0 to 22, any hole count, either kuu alive or dead
/// whatever it holds, and half the time a mark against either player (the start sets read the rows as words,
/// so odd rows are the point).
fn random_position(rng: &mut crate::engine::Rng) -> BaoLaKete {
    let mut game = BaoLaKete::new_match(&crate::engine::Options::default());
    game.pits = [0; PITS];
    let mut left = SEEDS;
    for r in 0..2 {
        let reserve = match rng.below(3) {
            0 => 0,
            _ => rng.below(RESERVE as usize + 1) as u8,
        };
        game.reserves[r] = reserve.min(left);
        left -= game.reserves[r];
    }
    // Most seeds in a few holes now and then, to reach the 16-seed rule.
    let holes = 1 + rng.below(PITS);
    for _ in 0..left {
        game.pits[rng.below(holes) * PITS / holes] += 1;
    }
    game.kuu_alive = [rng.below(2) == 0, rng.below(2) == 0];
    game.mark = (rng.below(2) == 0).then(|| {
        let blockee = if rng.below(2) == 0 { S } else { N };
        HiziZetuMark {
            blockee,
            pit: base(blockee) + rng.below(ROW as usize) as u8,
            setter: blockee.opponent(),
        }
    });
    game
}

/// The start sets (`capture_starts`, `takata_starts`, …) and what is built on them — the listing, whether a move
/// exists, the obligation `check_sow` asks — agree with the layers searched hole by hole (`starts`,
/// `collect_legal_moves_by_layers`, `first_live_start`, `check_obligation_by_search`), for both players, on the
/// positions of 200 random matches and on 20,000 random positions.
#[test]
fn the_start_sets_agree_with_the_layers_hole_by_hole() {
    use crate::engine::{Game, MoveList, Rng};
    let layers = [
        moves::Layer::MarkedCaptures,
        moves::Layer::Captures,
        moves::Layer::Takatas,
    ];
    let mut rng = Rng::new(0x5E75);
    let mut positions = 0u32;
    let (mut refused, mut takata_listings, mut marked_listings) = (0u32, 0u32, 0u32);
    let mut check = |game: &BaoLaKete| {
        positions += 1;
        for mover in Player::BOTH {
            let mut by_sets = MoveList::new();
            game.collect_legal_moves(mover, &mut by_sets);
            let mut by_layers = MoveList::new();
            game.collect_legal_moves_by_layers(mover, &mut by_layers);
            assert_eq!(by_sets, by_layers, "{mover} in {game:?}");
            let reference = [moves::Layer::Captures, moves::Layer::Takatas]
                .iter()
                .any(|&layer| game.first_live_start(mover, layer).is_some());
            assert_eq!(game.has_legal_move(mover), reference, "{mover} in {game:?}");
            let mut first = [None; 3];
            for (i, layer) in layers.into_iter().enumerate() {
                let mut starts = moves::Starts::new();
                game.starts(mover, layer, &mut starts);
                first[i] = starts.first().copied();
            }
            takata_listings += u32::from(first[1].is_none() && !by_sets.is_empty());
            marked_listings += u32::from(first[0].is_some());
            for pit in 0..PITS as u8 {
                for layer in layers {
                    let fast = game.check_obligation(mover, pit, layer);
                    assert_eq!(
                        fast,
                        game.check_obligation_by_search(mover, pit, layer),
                        "{mover} {pit} {layer:?} in {game:?}"
                    );
                    refused += u32::from(fast.is_err());
                }
            }
        }
    };
    for _ in 0..200 {
        let mut game = BaoLaKete::new_match(&crate::engine::Options::default());
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        while game.status == Status::InProgress && !moves.is_empty() {
            check(&game);
            let mv = moves[rng.below(moves.len())];
            game.play_and_list(&mv, &mut NoTrace, &mut moves)
                .expect("listed moves are legal");
        }
    }
    for _ in 0..20_000 {
        check(&random_position(&mut rng));
    }
    assert!(
        positions > 30_000 && refused > 0 && takata_listings > 0 && marked_listings > 0,
        "{positions} {refused} {takata_listings} {marked_listings}"
    );
}
