//! Bao la Kete through the crate's public API only: the worked examples BK-1..BK-9 of RULES.md §2.11 replayed
//! from wire-shaped states, and 200 whole random matches that must end, conserve the 64 seeds after every move,
//! survive a `to_setup`/`from_setup` round trip and agree between `legal_moves` and `check`.

use mancala::engine::{
    AnyGame, Direction, EndReason, Event, GameKind, Kichwa, KuuDecision, Move, Options, PitSet,
    Player, Reason, Setup, Sow, Status, VariantSetup, RULES_VERSION,
};

const S: Player = Player::South;
const N: Player = Player::North;
const CW: Direction = Direction::Clockwise;
const ACW: Direction = Direction::Anticlockwise;
const EMPTY: [u32; 8] = [0; 8];

/// One player's rows (player-relative, as RULES.md writes them), reserve and kuu.
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

/// A game-1 state in progress, begun by South, in the wire shape.
fn setup(south: Side, north: Side, to_move: Player) -> Setup {
    let pits = [south.f, south.b, north.f, north.b].concat();
    let mover_reserve = if to_move == S {
        south.reserve
    } else {
        north.reserve
    };
    Setup {
        kind: GameKind::BaoLaKete,
        rules_version: RULES_VERSION,
        pits,
        stores: vec![0, 0],
        reserves: vec![south.reserve, north.reserve],
        to_move: Some(to_move),
        status: Some(Status::InProgress),
        winner: None,
        ply: 0,
        game_number: 1,
        match_score: vec![0, 0],
        variant: VariantSetup::BaoLaKete {
            mtaji: Some(mover_reserve == 0),
            kuu_alive: vec![south.kuu, north.kuu],
            mark: None,
            game_starter: Some(S),
        },
    }
}

fn load(south: Side, north: Side, to_move: Player) -> AnyGame {
    AnyGame::from_setup(&setup(south, north, to_move)).expect("a valid state")
}

/// The pit of `player`'s f_i and b_i.
fn f(player: Player, i: u8) -> u8 {
    player.index() as u8 * 16 + i - 1
}

fn b(player: Player, i: u8) -> u8 {
    player.index() as u8 * 16 + 8 + i - 1
}

fn row(game: &AnyGame, player: Player, back: bool) -> Vec<u32> {
    let start = player.index() * 16 + if back { 8 } else { 0 };
    game.to_setup().pits[start..start + 8].to_vec()
}

fn front(game: &AnyGame, player: Player) -> Vec<u32> {
    row(game, player, false)
}

fn back(game: &AnyGame, player: Player) -> Vec<u32> {
    row(game, player, true)
}

fn kuu_alive(game: &AnyGame) -> Vec<bool> {
    match game.to_setup().variant {
        VariantSetup::BaoLaKete { kuu_alive, .. } => kuu_alive,
        _ => unreachable!("a Bao la Kete state"),
    }
}

fn mark(game: &AnyGame) -> Option<(Option<Player>, u32, Option<Player>)> {
    match game.to_setup().variant {
        VariantSetup::BaoLaKete { mark, .. } => mark,
        _ => unreachable!("a Bao la Kete state"),
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

fn capture(pit: u8, kichwa: Option<Kichwa>, decision: Option<KuuDecision>) -> Move {
    Move::Sow(Sow {
        pit,
        direction: None,
        kichwa,
        kuu_decision: decision,
    })
}

fn play(game: &mut AnyGame, mv: Move) -> Vec<Event> {
    let mut events = Vec::new();
    if let Err(err) = game.play(&mv, &mut events) {
        panic!("{mv:?} should be legal: {err}");
    }
    events
}

fn legal(game: &AnyGame) -> Vec<Move> {
    game.legal_moves().to_vec()
}

fn seeds(game: &AnyGame) -> u32 {
    let state = game.to_setup();
    state
        .pits
        .iter()
        .chain(&state.reserves)
        .chain(&state.stores)
        .sum()
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

#[test]
fn bk_1_opening() {
    let opening = AnyGame::new_match(GameKind::BaoLaKete, &Options::default()).unwrap();
    assert_eq!(front(&opening, S), [0, 0, 0, 0, 6, 2, 2, 0]);
    assert_eq!(front(&opening, N), [0, 0, 0, 0, 6, 2, 2, 0]);
    assert_eq!(opening.to_setup().reserves, [22, 22]);
    let cases = [
        (
            sow(f(S, 6), CW),
            [0, 0, 0, 0, 6, 0, 3, 1],
            [0, 0, 0, 0, 0, 0, 0, 1],
            b(S, 8),
        ),
        (sow(f(S, 6), ACW), [0, 0, 1, 1, 7, 0, 2, 0], EMPTY, f(S, 3)),
        (
            sow(f(S, 7), CW),
            [0, 0, 0, 0, 6, 2, 0, 1],
            [0, 0, 0, 0, 0, 0, 1, 1],
            b(S, 7),
        ),
        (sow(f(S, 7), ACW), [0, 0, 0, 1, 7, 3, 0, 0], EMPTY, f(S, 4)),
    ];
    assert_eq!(
        legal(&opening),
        cases.iter().map(|c| c.0).collect::<Vec<_>>()
    );
    for (mv, f_after, b_after, lap_end) in cases {
        let mut game = opening.clone();
        let events = play(&mut game, mv);
        assert_eq!(front(&game, S), f_after);
        assert_eq!(back(&game, S), b_after);
        assert_eq!(game.to_setup().reserves, [21, 22]);
        assert_eq!(last_drop(&events), lap_end);
    }
}

#[test]
fn bk_2_kichwa_and_kuu_decision() {
    let before = load(
        side([0, 0, 3, 0, 6, 0, 1, 0], [0, 0, 0, 0, 0, 3, 0, 3], 15, true),
        side([0, 0, 0, 0, 6, 4, 2, 0], [0, 0, 3, 0, 0, 3, 0, 0], 15, true),
        S,
    );
    let a = capture(f(S, 3), Some(Kichwa::Left), None);
    let b1 = capture(f(S, 3), Some(Kichwa::Right), Some(KuuDecision::Stop));
    let b2 = capture(f(S, 3), Some(Kichwa::Right), Some(KuuDecision::Safari));
    assert_eq!(legal(&before), vec![a, b1, b2]);
    for (mv, f_after, b_after, kuu) in [
        (a, [1, 1, 5, 1, 6, 0, 1, 0], [0, 0, 0, 0, 0, 3, 0, 3], true),
        (b1, [0, 0, 4, 0, 7, 1, 2, 1], [0, 0, 0, 0, 0, 3, 0, 3], true),
        (
            b2,
            [1, 1, 5, 1, 0, 1, 2, 1],
            [1, 1, 1, 0, 0, 3, 0, 3],
            false,
        ),
    ] {
        let mut game = before.clone();
        let events = play(&mut game, mv);
        assert_eq!(captures(&events), vec![(f(N, 6), 4)]);
        assert_eq!(front(&game, S), f_after);
        assert_eq!(back(&game, S), b_after);
        assert_eq!(kuu_alive(&game), [kuu, true]);
        assert_eq!(front(&game, N), [0, 0, 0, 0, 6, 0, 2, 0]);
        assert_eq!(back(&game, N), [0, 0, 3, 0, 0, 3, 0, 0]);
        assert_eq!(game.to_setup().reserves, [14, 15]);
        assert_eq!(seeds(&game), 64);
    }
    assert_eq!(
        before
            .check(&capture(f(S, 3), None, None))
            .unwrap_err()
            .reason,
        Reason::ChoiceRequired
    );
    assert_eq!(
        before.check(&sow(f(S, 7), CW)).unwrap_err().reason,
        Reason::CaptureIsMandatory
    );
}

#[test]
fn bk_3_takata_stops_in_the_kuu() {
    let before = load(
        side([0, 0, 0, 0, 8, 0, 1, 0], [2, 2, 2, 2, 2, 2, 2, 0], 10, true),
        side([0, 0, 3, 0, 6, 2, 0, 0], [0, 0, 2, 2, 2, 2, 2, 0], 10, true),
        S,
    );
    assert_eq!(legal(&before), vec![sow(f(S, 7), CW), sow(f(S, 7), ACW)]);
    let mut game = before.clone();
    let events = play(&mut game, sow(f(S, 7), ACW));
    assert_eq!(front(&game, S), [0, 0, 0, 0, 9, 1, 0, 0]);
    assert!(events.contains(&Event::KuuStop { pit: f(S, 5) }));
    let mut game = before;
    play(&mut game, sow(f(S, 7), CW));
    assert_eq!(front(&game, S), [0, 0, 0, 0, 8, 0, 0, 1]);
    assert_eq!(back(&game, S), [2, 2, 2, 2, 2, 2, 2, 1]);
}

#[test]
fn bk_4_six_seed_rule() {
    let before = load(
        side([0, 0, 0, 0, 6, 0, 0, 0], [2, 2, 2, 2, 0, 0, 0, 0], 5, true),
        side([2, 0, 0, 0, 7, 0, 0, 3], [4, 4, 4, 4, 3, 3, 3, 3], 5, true),
        S,
    );
    let mut game = before.clone();
    let events = play(&mut game, sow(f(S, 5), CW));
    assert!(events.contains(&Event::Taxation {
        pit: f(S, 5),
        seeds: 7,
        six_seed_rule: true
    }));
    assert_eq!(front(&game, S), [0, 0, 0, 0, 0, 1, 1, 1]);
    assert_eq!(back(&game, S), [2, 2, 2, 2, 1, 1, 1, 1]);
    assert_eq!(kuu_alive(&game), [false, true]);
    let mut game = before;
    play(&mut game, sow(f(S, 5), ACW));
    assert_eq!(front(&game, S), [1, 1, 1, 1, 0, 0, 0, 0]);
    assert_eq!(back(&game, S), [3, 3, 0, 3, 1, 1, 0, 0]);
}

#[test]
fn bk_5_taxation() {
    let before = load(
        side([0, 0, 0, 0, 9, 0, 0, 0], EMPTY, 3, true),
        side([2, 0, 0, 0, 8, 3, 0, 0], [5, 5, 5, 5, 4, 4, 4, 4], 3, true),
        S,
    );
    let mut game = before.clone();
    let events = play(&mut game, sow(f(S, 5), CW));
    assert!(events.contains(&Event::Taxation {
        pit: f(S, 5),
        seeds: 2,
        six_seed_rule: false
    }));
    assert_eq!(front(&game, S), [0, 0, 0, 0, 8, 1, 1, 0]);
    assert_eq!(kuu_alive(&game), [true, true]);
    let mut game = before;
    play(&mut game, sow(f(S, 5), ACW));
    assert_eq!(front(&game, S), [0, 0, 1, 1, 8, 0, 0, 0]);
}

#[test]
fn bk_6_mtaji_takata_from_the_kuu() {
    let before = load(
        side([0, 2, 0, 0, 7, 0, 0, 0], [0, 0, 0, 0, 0, 0, 3, 0], 0, true),
        side([0, 0, 0, 0, 6, 2, 2, 0], EMPTY, 0, true),
        S,
    );
    assert_eq!(legal(&before), vec![sow(f(S, 5), CW), sow(f(S, 5), ACW)]);
    assert_eq!(
        before.check(&sow(f(S, 2), CW)).unwrap_err().reason,
        Reason::KuuMustStartTakata
    );
    let mut game = before.clone();
    play(&mut game, sow(f(S, 5), CW));
    assert_eq!(front(&game, S), [0, 2, 0, 0, 0, 1, 1, 1]);
    assert_eq!(back(&game, S), [0, 0, 0, 0, 1, 1, 4, 1]);
    assert_eq!(kuu_alive(&game), [false, true]);
    let mut game = before;
    play(&mut game, sow(f(S, 5), ACW));
    assert_eq!(front(&game, S), [1, 3, 1, 1, 0, 0, 0, 0]);
    assert_eq!(back(&game, S), [1, 1, 1, 0, 0, 0, 3, 0]);
}

#[test]
fn bk_7_capture_chain_with_kimbi_reversal() {
    let mut game = load(
        side([0, 0, 0, 0, 2, 0, 1, 0], [2; 8], 0, false),
        side([0, 3, 2, 0, 4, 0, 0, 0], [5, 5, 5, 5, 4, 4, 4, 4], 0, false),
        S,
    );
    assert_eq!(seeds(&game), 64);
    let events = play(&mut game, sow(f(S, 5), CW));
    assert_eq!(captures(&events), vec![(f(N, 2), 3), (f(N, 3), 2)]);
    assert_eq!(front(&game, S), [0, 0, 1, 1, 1, 3, 0, 2]);
    assert_eq!(back(&game, S), [2; 8]);
    assert_eq!(front(&game, N), [0, 0, 0, 0, 4, 0, 0, 0]);
    assert_eq!(seeds(&game), 64);
}

#[test]
fn bk_8_sixteen_seed_rule() {
    let mut game = load(
        side([0, 0, 0, 17, 0, 0, 0, 0], EMPTY, 0, false),
        side([0, 2, 0, 3, 0, 0, 0, 0], EMPTY, 0, false),
        S,
    );
    let events = play(&mut game, sow(f(S, 4), CW));
    assert!(captures(&events).is_empty());
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::Lap { .. }))
            .count(),
        9
    );
    assert_eq!(front(&game, S), [0, 2, 0, 2, 1, 2, 0, 2]);
    assert_eq!(back(&game, S), [2, 0, 2, 0, 2, 0, 2, 0]);
}

fn bk_9() -> AnyGame {
    load(
        side([0, 0, 2, 0, 0, 2, 0, 0], EMPTY, 0, false),
        side([2, 0, 0, 3, 0, 0, 0, 0], EMPTY, 0, false),
        S,
    )
}

/// BK-9 (RULES.md prints South's f4 as 1 after the capture; f3's two seeds go into f4 and f5, so it is 2).
#[test]
fn bk_9_hizi_zetu_both_continuations() {
    let mut game = bk_9();
    let events = play(&mut game, sow(f(S, 6), ACW));
    assert_eq!(front(&game, S), [0, 0, 2, 1, 1, 0, 0, 0]);
    assert!(events.contains(&Event::MarkSet {
        blockee: N,
        pit: f(N, 4),
        setter: S
    }));
    assert_eq!(mark(&game), Some((Some(N), f(N, 4) as u32, Some(S))));
    assert_eq!(legal(&game), vec![sow(f(N, 1), CW), sow(f(N, 1), ACW)]);
    assert_eq!(
        game.check(&sow(f(N, 4), CW)).unwrap_err().reason,
        Reason::HoleMarkedHiziZetu
    );
    // The marked state survives the wire.
    assert_eq!(AnyGame::from_setup(&game.to_setup()).unwrap(), game);

    let mut cw = game.clone();
    play(&mut cw, sow(f(N, 1), CW));
    assert_eq!(front(&cw, N), [0, 1, 1, 3, 0, 0, 0, 0]);
    assert_eq!(legal(&cw), vec![sow(f(S, 3), CW)]);
    let events = play(&mut cw, sow(f(S, 3), CW));
    assert_eq!(captures(&events), vec![(f(N, 4), 3)]);
    assert_eq!(front(&cw, S), [1, 1, 1, 2, 2, 0, 0, 0]);
    assert_eq!(front(&cw, N), [0, 1, 1, 0, 0, 0, 0, 0]);
    assert_eq!(mark(&cw), None);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::GameEnd {
            reason: EndReason::NoLegalMove,
            winner: Some(S),
            ..
        }
    )));
    assert_eq!(cw.status(), Status::GameOver);

    let mut acw = game;
    play(&mut acw, sow(f(N, 1), ACW));
    assert_eq!(front(&acw, N), [0, 0, 0, 3, 0, 0, 0, 0]);
    assert_eq!(legal(&acw), vec![sow(f(S, 3), CW)]);
    let events = play(&mut acw, sow(f(S, 3), CW));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::GameEnd {
            reason: EndReason::BaoHamna,
            winner: Some(S),
            ..
        }
    )));
    assert_eq!(front(&acw, S), [0, 0, 0, 2, 2, 0, 0, 0]);
    assert_eq!(acw.to_setup().stores, [3, 0]);
    assert_eq!(acw.status(), Status::GameOver);
    assert_eq!(acw.to_setup().match_score, [1, 0]);
}

// ---- Whole random matches ----

/// xorshift64: seeded, no dependencies.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random move shape: any pit (one past the board included) with any combination of choices.
fn random_candidate(rng: &mut XorShift) -> Move {
    if rng.below(20) == 0 {
        return Move::NextGame(if rng.below(2) == 0 {
            PitSet::EMPTY
        } else {
            PitSet(1 << rng.below(32))
        });
    }
    let direction = [None, Some(CW), Some(ACW)][rng.below(3)];
    let kichwa = [None, None, Some(Kichwa::Left), Some(Kichwa::Right)][rng.below(4)];
    let kuu_decision = [
        None,
        None,
        Some(KuuDecision::Stop),
        Some(KuuDecision::Safari),
    ][rng.below(4)];
    Move::Sow(Sow {
        pit: rng.below(33) as u8,
        direction,
        kichwa,
        kuu_decision,
    })
}

/// No game seen in random play lasts more than about 200 plies; a match has at most 3 games.
const MATCH_PLY_CAP: u32 = 3 * 2_000;

#[test]
fn two_hundred_random_matches_end_conserve_seeds_and_agree_on_legality() {
    let mut rng = XorShift(0x0005_EEDB_A01A_4E7E);
    let mut games_played = 0;
    let mut longest_game = 0;
    for round in 0..200 {
        let first_player = if round % 2 == 0 { S } else { N };
        let mut game = AnyGame::new_match(
            GameKind::BaoLaKete,
            &Options {
                first_player,
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(game.to_move(), Some(first_player));
        let mut plies = 0;
        let mut game_plies = 0;
        while game.status() != Status::MatchOver {
            assert!(
                plies < MATCH_PLY_CAP,
                "match {round} did not end within {MATCH_PLY_CAP} plies"
            );
            let moves = legal(&game);
            assert!(
                !moves.is_empty(),
                "a match that is not over always has a move"
            );
            for mv in &moves {
                assert!(game.check(mv).is_ok(), "listed move {mv:?} is refused");
            }
            for _ in 0..24 {
                let mv = random_candidate(&mut rng);
                assert_eq!(
                    moves.contains(&mv),
                    game.check(&mv).is_ok(),
                    "{mv:?} in {game:?}"
                );
            }
            let mv = moves[rng.below(moves.len())];
            let before = game.clone();
            let mut events = Vec::new();
            game.play(&mv, &mut events).unwrap();
            assert_ne!(game, before);
            assert_eq!(seeds(&game), 64, "seeds after {mv:?} from {before:?}");
            assert_eq!(
                AnyGame::from_setup(&game.to_setup()).as_ref(),
                Ok(&game),
                "round trip after {mv:?}"
            );
            if matches!(mv, Move::NextGame(_)) {
                games_played += 1;
                longest_game = longest_game.max(game_plies);
                game_plies = 0;
            } else {
                game_plies += 1;
            }
            plies += 1;
        }
        games_played += 1;
        longest_game = longest_game.max(game_plies);
        let score = game.to_setup().match_score;
        assert!(
            score.contains(&2) && score.iter().sum::<u32>() <= 3,
            "{score:?}"
        );
        assert!(legal(&game).is_empty());
    }
    assert!(games_played >= 400, "{games_played} games in 200 matches");
    assert!(longest_game > 0);
}
