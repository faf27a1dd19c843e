//! Independent review of Bao la Kete against docs/common.md §1 and docs/bao-la-kete.md §2 (public API only). Expected results are computed
//! by hand from the specification; see the comment on each test.

use mancala::engine::{
    AnyGame, Direction, Event, GameKind, Kichwa, KuuDecision, Move, Options, Player, Reason, Setup,
    Sow, Status, VariantSetup, RULES_VERSION,
};

const S: Player = Player::South;
const N: Player = Player::North;
const CW: Direction = Direction::Clockwise;
const ACW: Direction = Direction::Anticlockwise;
const E8: [u32; 8] = [0; 8];

#[derive(Clone, Copy)]
struct Side {
    f: [u32; 8],
    b: [u32; 8],
    reserve: u32,
    kuu: bool,
}

fn side(f: [u32; 8], b: [u32; 8], reserve: u32, kuu: bool) -> Side {
    Side { f, b, reserve, kuu }
}

fn setup_with(
    south: Side,
    north: Side,
    to_move: Player,
    mark: Option<(Option<Player>, u32, Option<Player>)>,
) -> Setup {
    let mover_reserve = if to_move == S {
        south.reserve
    } else {
        north.reserve
    };
    Setup {
        kind: GameKind::BaoLaKete,
        rules_version: RULES_VERSION,
        pits: [south.f, south.b, north.f, north.b].concat().into(),
        stores: vec![0, 0].into(),
        reserves: vec![south.reserve, north.reserve].into(),
        to_move: Some(to_move),
        status: Some(Status::InProgress),
        winner: None,
        ply: 0,
        game_number: 1,
        match_score: vec![0, 0].into(),
        variant: VariantSetup::BaoLaKete {
            mtaji: Some(mover_reserve == 0),
            kuu_alive: vec![south.kuu, north.kuu].into(),
            mark,
            game_starter: Some(S),
            starter_rule: mancala::engine::StarterRule::Alternate,
        },
    }
}

fn load(south: Side, north: Side, to_move: Player) -> AnyGame {
    AnyGame::from_setup(&setup_with(south, north, to_move, None)).expect("a valid state")
}

fn load_marked(south: Side, north: Side, to_move: Player, mark: (Player, u8, Player)) -> AnyGame {
    let m = Some((Some(mark.0), mark.1 as u32, Some(mark.2)));
    AnyGame::from_setup(&setup_with(south, north, to_move, m)).expect("a valid marked state")
}

fn f(p: Player, i: u8) -> u8 {
    p.index() as u8 * 16 + i - 1
}
fn b(p: Player, i: u8) -> u8 {
    p.index() as u8 * 16 + 8 + i - 1
}
fn row(g: &AnyGame, p: Player, back: bool) -> Vec<u32> {
    let s = p.index() * 16 + if back { 8 } else { 0 };
    g.to_setup().pits[s..s + 8].to_vec()
}
fn front(g: &AnyGame, p: Player) -> Vec<u32> {
    row(g, p, false)
}
fn back(g: &AnyGame, p: Player) -> Vec<u32> {
    row(g, p, true)
}
fn kuu_alive(g: &AnyGame) -> Vec<bool> {
    match g.to_setup().variant {
        VariantSetup::BaoLaKete { kuu_alive, .. } => kuu_alive.into_vec(),
        _ => unreachable!(),
    }
}
fn mark(g: &AnyGame) -> Option<(Option<Player>, u32, Option<Player>)> {
    match g.to_setup().variant {
        VariantSetup::BaoLaKete { mark, .. } => mark,
        _ => unreachable!(),
    }
}
fn sow(pit: u8, dir: Direction) -> Move {
    Move::Sow(Sow {
        pit,
        direction: Some(dir),
        kichwa: None,
        kuu_decision: None,
    })
}
fn cap(pit: u8, kichwa: Option<Kichwa>, decision: Option<KuuDecision>) -> Move {
    Move::Sow(Sow {
        pit,
        direction: None,
        kichwa,
        kuu_decision: decision,
    })
}
fn play(g: &mut AnyGame, mv: Move) -> Vec<Event> {
    let mut ev = Vec::new();
    if let Err(e) = g.play(&mv, &mut ev) {
        panic!("{mv:?} should be legal: {e}");
    }
    ev
}
fn legal(g: &AnyGame) -> Vec<Move> {
    g.legal_moves().to_vec()
}
fn captures(ev: &[Event]) -> Vec<(u8, u8)> {
    ev.iter()
        .filter_map(|e| match *e {
            Event::Capture { pit, seeds, .. } => Some((pit, seeds)),
            _ => None,
        })
        .collect()
}
fn lap_origins(ev: &[Event]) -> Vec<u8> {
    ev.iter()
        .filter_map(|e| match *e {
            Event::Lap { origin, .. } => Some(origin),
            _ => None,
        })
        .collect()
}
fn total(g: &AnyGame) -> u32 {
    let s = g.to_setup();
    s.pits.iter().chain(&s.reserves).chain(&s.stores).sum()
}

/// §2.2 wire order and opposite holes: the opening, and S f5 faces N f4 (the kuus are diagonal).
#[test]
fn review_wire_order_and_opening() {
    let g = AnyGame::new_match(GameKind::BaoLaKete, &Options::default());
    let s = g.to_setup();
    assert_eq!(
        s.pits,
        [[0, 0, 0, 0, 6, 2, 2, 0], E8, [0, 0, 0, 0, 6, 2, 2, 0], E8].concat()
    );
    assert_eq!(s.reserves, [22, 22]);
    assert_eq!(g.to_move(), Some(S));
    assert_eq!(kuu_alive(&g), [true, true]);
    assert_eq!(total(&g), 64);
}

/// §2.7 B then D (mtaji): a capture landing in the living kuu captures and the kuu keeps its seeds and lives.
/// S f3(2) CW: f4 0→1, f5 6→7 facing N f4 = 3 → capture 3, central + CW → from f1: f1, f2, f3 (empty) → end.
#[test]
fn review_mtaji_capture_in_the_living_kuu_keeps_it_alive() {
    let mut g = load(
        side([0, 0, 2, 0, 6, 0, 0, 0], E8, 0, true),
        side([2, 0, 0, 3, 0, 0, 0, 0], E8, 0, false),
        S,
    );
    assert_eq!(legal(&g), vec![sow(f(S, 3), CW)]);
    let ev = play(&mut g, sow(f(S, 3), CW));
    assert_eq!(captures(&ev), vec![(f(N, 4), 3)]);
    assert_eq!(front(&g, S), [1, 1, 1, 1, 7, 0, 0, 0]);
    assert_eq!(kuu_alive(&g), [true, false]);
    assert_eq!(front(&g, N), [2, 0, 0, 0, 0, 0, 0, 0]);
}

/// §2.7 D (mtaji, R-2.5): a capture-sowing lap ending in the living kuu without capture → compulsory safari.
/// S b1(2) CW: f1 0→1, f2 1→2 facing N f7 = 5 → capture 5, left kimbi → CW from f1: f1 2, f2 3, f3 1, f4 1,
/// f5 6→7 (N f4 empty) → safari 7: f6 f7 f8 b8 b7 b6 b5 → b5 was empty → end.
#[test]
fn review_mtaji_safari_is_compulsory_after_a_capture_lap() {
    let mut g = load(
        side([0, 1, 0, 0, 6, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 0], 0, true),
        side([2, 0, 0, 0, 0, 0, 5, 0], E8, 0, false),
        S,
    );
    assert_eq!(legal(&g), vec![sow(b(S, 1), CW)]);
    let ev = play(&mut g, sow(b(S, 1), CW));
    assert_eq!(captures(&ev), vec![(f(N, 7), 5)]);
    assert_eq!(front(&g, S), [2, 3, 1, 1, 0, 1, 1, 1]);
    assert_eq!(back(&g, S), [0, 0, 0, 0, 1, 1, 1, 1]);
    assert_eq!(kuu_alive(&g), [false, false]);
}

/// §2.5 N-1, §2.7 D: a nemo capture whose *relay* ends in the kuu; only then is stop/safari offered.
/// S f1 1→2 facing N f8 = 3: capture 3, kimbi → CW from f1: f1 3, f2 1, f3 1→2 (N f6 = 0) → relay 2: f4 1,
/// f5 6→7 (N f4 = 0) → decision. Stop: f=[3,1,0,1,7,0,0,0]. Safari: 7 from f5: f6 f7 f8 b8 b7 b6 b5 → end.
#[test]
fn review_nemo_capture_relay_reaches_the_kuu() {
    let before = load(
        side([1, 0, 1, 0, 6, 0, 0, 0], E8, 5, true),
        side([0, 0, 0, 0, 6, 0, 0, 3], E8, 5, true),
        S,
    );
    let stop = cap(f(S, 1), None, Some(KuuDecision::Stop));
    let safari = cap(f(S, 1), None, Some(KuuDecision::Safari));
    assert_eq!(legal(&before), vec![stop, safari]);
    assert_eq!(
        before.check(&cap(f(S, 1), None, None)).unwrap_err().reason,
        Reason::ChoiceRequired
    );
    assert_eq!(
        before
            .check(&cap(f(S, 1), Some(Kichwa::Left), Some(KuuDecision::Stop)))
            .unwrap_err()
            .reason,
        Reason::ChoiceNotOffered
    );
    let mut g = before.clone();
    play(&mut g, stop);
    assert_eq!(front(&g, S), [3, 1, 0, 1, 7, 0, 0, 0]);
    assert_eq!(kuu_alive(&g), [true, true]);
    assert_eq!(g.to_setup().reserves, [4, 5]);
    let mut g = before;
    play(&mut g, safari);
    assert_eq!(front(&g, S), [3, 1, 0, 1, 0, 1, 1, 1]);
    assert_eq!(back(&g, S), [0, 0, 0, 0, 1, 1, 1, 1]);
    assert_eq!(kuu_alive(&g), [false, true]);
}

/// §2.7 B3: a mtaji capture at a central hole keeps the direction of arrival (ACW → from f8), no choice.
/// S f8(2) ACW: f7 1, f6 1→2 facing N f3 = 2 → capture 2 from f8 ACW: f8 1, f7 2 (N f2 = 0) → relay 2:
/// f6 3, f5 1 → end.
#[test]
fn review_mtaji_central_capture_keeps_direction() {
    let mut g = load(
        side([0, 0, 0, 0, 0, 1, 0, 2], E8, 0, false),
        side([2, 0, 2, 0, 0, 0, 0, 0], E8, 0, false),
        S,
    );
    assert_eq!(legal(&g), vec![sow(f(S, 8), ACW)]);
    let ev = play(&mut g, sow(f(S, 8), ACW));
    assert_eq!(captures(&ev), vec![(f(N, 3), 2)]);
    assert_eq!(front(&g, S), [0, 0, 0, 0, 1, 3, 0, 1]);
    assert_eq!(front(&g, N), [2, 0, 0, 0, 0, 0, 0, 0]);
}

/// §2.4 16-seed rule, R-2.11: a 16-seed lap never captures and ends in its emptied origin.
#[test]
fn review_sixteen_seed_takata_ends_in_its_origin() {
    let before = load(
        side([0, 0, 0, 16, 0, 0, 0, 0], E8, 0, false),
        side([2, 2, 2, 2, 0, 0, 0, 0], E8, 0, false),
        S,
    );
    assert_eq!(legal(&before), vec![sow(f(S, 4), CW), sow(f(S, 4), ACW)]);
    for d in [CW, ACW] {
        let mut g = before.clone();
        let ev = play(&mut g, sow(f(S, 4), d));
        assert!(captures(&ev).is_empty());
        assert_eq!(front(&g, S), [1; 8]);
        assert_eq!(back(&g, S), [1; 8]);
    }
}

/// §2.6 M-2 lone kichwa in mtaji: f8 is the only occupied front hole → ACW only (back row not allowed: f8 ≥ 2).
#[test]
fn review_mtaji_lone_kichwa() {
    let g = load(
        side([0, 0, 0, 0, 0, 0, 0, 3], [0, 0, 0, 2, 0, 0, 0, 0], 0, false),
        side([2, 0, 0, 0, 0, 0, 0, 0], E8, 0, false),
        S,
    );
    assert_eq!(legal(&g), vec![sow(f(S, 8), ACW)]);
    assert_eq!(
        g.check(&sow(f(S, 8), CW)).unwrap_err().reason,
        Reason::MustSowTowardCentre
    );
}

/// §2.8 effect on Y + clearing: a relay lap of the blockee ending in H stops; the setter then must capture H.
/// N f4(2) CW: f5 1, f6 1→2 (faces S f3 = 0) → relay 2 (f6 emptied): f7 1, f8 1→2 = H → stop (mark stands).
/// S must capture N f8: b2(2) CW: b1 1, f1 1→2 → capture 2, kimbi → f1 3, f2 1 → end; mark cleared.
#[test]
fn review_hizi_zetu_relay_stops_in_marked_hole() {
    let mut g = load_marked(
        side([1, 0, 0, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0, 0, 0], 0, false),
        side([0, 0, 0, 2, 0, 1, 0, 1], E8, 0, false),
        N,
        (N, f(N, 8), S),
    );
    assert_eq!(legal(&g), vec![sow(f(N, 4), CW), sow(f(N, 4), ACW)]);
    play(&mut g, sow(f(N, 4), CW));
    assert_eq!(front(&g, N), [0, 0, 0, 0, 1, 0, 1, 2]);
    assert_eq!(back(&g, N), E8);
    assert_eq!(mark(&g), Some((Some(N), f(N, 8) as u32, Some(S))));
    assert_eq!(legal(&g), vec![sow(b(S, 2), CW)]);
    let ev = play(&mut g, sow(b(S, 2), CW));
    assert_eq!(captures(&ev), vec![(f(N, 8), 2)]);
    assert_eq!(front(&g, S), [3, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(back(&g, S), [1, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(mark(&g), None);
}

/// §2.8 kuu exception: the first lap of a move from Y's living kuu that ends in H relays from it, which
/// empties H and clears the mark. The kuu has 19 seeds (no capture: 16-seed rule), CW lands in N f8 = H.
/// Since the mark is cleared when H is lifted, the move must give exactly the board of the unmarked position.
#[test]
fn review_hizi_zetu_first_lap_from_kuu_relays_from_marked_hole() {
    let s = side([1, 0, 0, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0, 0, 0], 0, false);
    let n = side([0, 0, 0, 0, 19, 0, 0, 1], E8, 0, true);
    let mut marked = load_marked(s, n, N, (N, f(N, 8), S));
    let mut plain = load(s, n, N);
    // The kuu must start the takata (M-2 Lamu rule), and 19 seeds cannot capture.
    assert!(legal(&marked).contains(&sow(f(N, 5), CW)));
    let ev = play(&mut marked, sow(f(N, 5), CW));
    let origins = lap_origins(&ev);
    assert_eq!(origins[0], f(N, 5));
    assert_eq!(
        origins[1],
        f(N, 8),
        "the first lap ends in H and relays from it"
    );
    assert!(ev.iter().any(|e| matches!(e, Event::MarkCleared { .. })));
    play(&mut plain, sow(f(N, 5), CW));
    assert_eq!(marked.to_setup().pits, plain.to_setup().pits);
    assert_eq!(kuu_alive(&marked), [false, false]);
}

/// §2.2/§2.3 validation: impossible states are refused, without panics on huge numbers.
#[test]
fn review_validation_of_impossible_and_huge_states() {
    let ok = setup_with(
        side([0, 0, 2, 0, 6, 0, 0, 0], E8, 0, true),
        side([2, 0, 0, 3, 0, 0, 0, 0], E8, 0, false),
        S,
        None,
    );
    assert!(AnyGame::from_setup(&ok).is_ok());
    // A living kuu with fewer than 6 seeds.
    let mut bad = ok.clone();
    bad.pits[4] = 5;
    assert!(AnyGame::from_setup(&bad).is_err());
    // Huge pit counts, reserves, stores, scores, game numbers, ply: refused (or saturating), never a panic.
    for mutate in [
        |s: &mut Setup| s.pits[0] = u32::MAX,
        |s: &mut Setup| s.pits[9] = 300,
        |s: &mut Setup| s.reserves = vec![u32::MAX, u32::MAX].into(),
        |s: &mut Setup| s.stores = vec![u32::MAX, 0].into(),
        |s: &mut Setup| s.match_score = vec![u32::MAX, 256].into(),
        |s: &mut Setup| s.game_number = u32::MAX,
        |s: &mut Setup| s.match_score = vec![256, 0].into(),
        |s: &mut Setup| s.pits = vec![2; 32].into(),
    ] {
        let mut s = ok.clone();
        mutate(&mut s);
        assert!(AnyGame::from_setup(&s).is_err());
    }
    // 256 must not wrap to 0 in a u8 (match_score).
    let mut s = ok.clone();
    s.match_score = vec![256, 256].into();
    assert!(AnyGame::from_setup(&s).is_err());
    // A huge ply is fine and must not overflow when a move is played.
    let mut s = ok.clone();
    s.ply = u32::MAX;
    let mut g = AnyGame::from_setup(&s).unwrap();
    play(&mut g, sow(f(S, 3), CW));
    // Reserves two apart (§2.3: players alternate placing seeds).
    let mut s = ok.clone();
    s.reserves = vec![20, 22].into();
    assert!(AnyGame::from_setup(&s).is_err());
    // A mark while reserves remain, or on a living kuu.
    let mut s = setup_with(
        side([0, 0, 2, 0, 6, 0, 0, 0], E8, 3, true),
        side([2, 0, 0, 3, 0, 0, 0, 0], E8, 3, false),
        S,
        Some((Some(N), f(N, 4) as u32, Some(S))),
    );
    assert!(AnyGame::from_setup(&s).is_err());
    s.reserves = vec![0, 0].into();
    s.variant = VariantSetup::BaoLaKete {
        mtaji: Some(true),
        kuu_alive: vec![true, true].into(),
        mark: Some((Some(N), f(N, 5) as u32, Some(S))),
        game_starter: Some(S),
        starter_rule: mancala::engine::StarterRule::Alternate,
    };
    s.pits[16 + 4] = 6;
    assert!(AnyGame::from_setup(&s).is_err());
}

/// §2.9: best of three; after a win the next game is begun by the other player from the opening.
#[test]
fn review_match_flow() {
    // BK-9-like quick win for South: S f3 CW captures N's last front seeds → Bao hamna.
    let mut g = load(
        side([0, 0, 2, 1, 1, 0, 0, 0], E8, 0, false),
        side([0, 0, 0, 3, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0], 0, false),
        S,
    );
    play(&mut g, sow(f(S, 3), CW));
    assert_eq!(g.status(), Status::GameOver);
    assert_eq!(g.to_setup().stores, [3, 0]);
    assert_eq!(
        legal(&g),
        vec![Move::NextGame(mancala::engine::PitSet::EMPTY)]
    );
    play(&mut g, Move::NextGame(mancala::engine::PitSet::EMPTY));
    assert_eq!(g.to_move(), Some(N));
    assert_eq!(g.to_setup().game_number, 2);
    assert_eq!(g.to_setup().match_score, [1, 0]);
    assert_eq!(total(&g), 64);
}
