//! Bao la Kete rule tests: the worked examples BK-1..BK-9 of docs/bao-la-kete.md §2.11 and one test per rule clause.
//! Positions are written player-relative, as docs/bao-la-kete.md writes them: `f = [f1..f8]`, `b = [b1..b8]`.
//! One file per section of the rules (`examples.rs`, `nemo.rs`, `mtaji.rs`, `execution.rs`, `hizi_zetu.rs`,
//! `match_play.rs`, `validation.rs`, `agreement.rs`); the helpers they share are here.

use super::*;
use crate::engine::{Direction, KuuDecision, LapSource, NoTrace, Repeated, Sow};

mod agreement;
mod endless;
mod examples;
mod execution;
mod hizi_zetu;
mod match_play;
mod mtaji;
mod nemo;
mod validation;

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
