//! Bosh rule tests: the worked examples B-1..B-5 of docs/bosh.md §3.6 and one test per rule clause.
//! One file per section (`examples.rs`, `clauses.rs`, `validation.rs`); the helpers they share are here.

use super::*;
use crate::engine::PerSeat;

mod clauses;
mod endless;
mod examples;
mod validation;

const S: Player = Player::South;
const N: Player = Player::North;

/// Holes S1 and S2 closed: South's three right holes open (B-4).
const S1_S2_CLOSED: u16 = 0b11;

/// A round in progress with `pits`, `closed` holes and `to_move` to move (he started the round; ply 0).
fn position(pits: [u8; HOLES], closed: u16, to_move: Player) -> Bosh {
    Bosh::round_of(pits, closed, to_move)
}

fn sow(game: &mut Bosh, hole: u8) -> Vec<Event> {
    let mut events = Vec::new();
    game.play(&Move::Sow(Sow::from(hole)), &mut events)
        .expect("legal move");
    events
}

fn refuse(game: &Bosh, mv: Move) -> IllegalMove {
    let mut played = game.clone();
    let mut events = Vec::new();
    let err = played.play(&mv, &mut events).expect_err("illegal move");
    assert_eq!(&played, game, "an illegal move leaves the state untouched");
    assert!(events.is_empty(), "an illegal move leaves no events");
    err
}

fn refuse_sow(game: &Bosh, hole: u8) -> Reason {
    refuse(game, Move::Sow(Sow::from(hole))).reason
}

/// `(origin, stones)` of every lap.
fn laps(events: &[Event]) -> Vec<(u8, u8)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Lap { origin, seeds, .. } => Some((origin, seeds)),
            _ => None,
        })
        .collect()
}

/// The holes that received a stone, lap by lap.
fn drops(events: &[Event]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for e in events {
        match *e {
            Event::Lap { .. } => out.push(Vec::new()),
            Event::Drop { pit } => out.last_mut().expect("a drop follows a lap").push(pit),
            _ => {}
        }
    }
    out
}

/// `(hole, stones, beneficiary)` of every capture.
fn captures(events: &[Event]) -> Vec<(u8, u8, Player)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Capture {
                pit,
                seeds,
                beneficiary,
                ..
            } => Some((pit, seeds, beneficiary)),
            _ => None,
        })
        .collect()
}

fn legal(game: &Bosh) -> MoveList {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
}

fn sows(holes: &[u8]) -> Vec<Move> {
    holes.iter().map(|&h| Move::Sow(Sow::from(h))).collect()
}

/// A finished round with empty board and these stores, reserves and closed holes; `starter` started it.
fn round_over(stores: [u8; 2], reserves: [u8; 2], closed: u16, starter: Player) -> Bosh {
    let mut game = position([0; HOLES], closed, starter);
    game.stores = stores;
    game.reserves = reserves;
    game.to_move = None;
    let (status, winner) = outcome_of_round(stores, reserves);
    game.status = status;
    game.winner = winner;
    game
}

fn next_round(game: &mut Bosh, choice: PitSet) -> Vec<Event> {
    let mut events = Vec::new();
    game.play(&Move::NextGame(choice), &mut events)
        .expect("next round");
    events
}
