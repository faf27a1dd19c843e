//! Independent review of the Bosh engine against docs/common.md §1 and docs/bosh.md §3, through the public API only.
//!
//! 1. Hand-computed edge cases (every expected value below was derived by hand from the spec's §3.2
//!    algorithm, not from the engine).
//! 2. A small reference model of §3 written from the spec alone, played against the engine over random
//!    matches and random (closed-hole) positions: a differential test.
//!
//! Hole indices: S1..S5 = 0..4, N1..N5 = 5..9; `×` marks a closed hole in comments.

// The reference model mirrors the spec's pseudo-code, indexes included, and returns its results as tuples.
#![allow(clippy::type_complexity, clippy::needless_range_loop)]

use mancala::engine::{
    AnyGame, Event, GameKind, Move, Options, PitSet, Player, Reason, Setup, Sow, Status,
    VariantSetup, RULES_VERSION,
};

const S: Player = Player::South;
const N: Player = Player::North;

// ---------------------------------------------------------------------------------------------------------
// Wire-shaped states
// ---------------------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct State {
    pits: [u32; 10],
    closed: Vec<usize>,
    stores: [u32; 2],
    reserves: [u32; 2],
    to_move: Option<Player>,
    status: Status,
    winner: Option<Player>,
    round_starter: Player,
    ply: u32,
    round: u32,
}

impl State {
    /// A round in progress, `to_move` started it, no move made yet.
    fn playing(pits: [u32; 10], closed: &[usize], to_move: Player) -> State {
        State {
            pits,
            closed: closed.to_vec(),
            stores: [0, 0],
            reserves: [0, 0],
            to_move: Some(to_move),
            status: Status::InProgress,
            winner: None,
            round_starter: to_move,
            ply: 0,
            round: 1,
        }
    }

    /// A finished round (empty board). The engine also stores a "round winner" (more stones won this round;
    /// the spec defines none), which `from_setup` insists on, so it is computed the engine's way here.
    fn round_over(
        stores: [u32; 2],
        reserves: [u32; 2],
        closed: &[usize],
        starter: Player,
    ) -> State {
        let winner = match stores[0].cmp(&stores[1]) {
            std::cmp::Ordering::Greater => Some(S),
            std::cmp::Ordering::Less => Some(N),
            std::cmp::Ordering::Equal => None,
        };
        State {
            pits: [0; 10],
            closed: closed.to_vec(),
            stores,
            reserves,
            to_move: None,
            status: Status::RoundOver,
            winner,
            round_starter: starter,
            ply: 7,
            round: 2,
        }
    }

    fn setup(&self) -> Setup {
        let open =
            |row: std::ops::Range<usize>| row.filter(|h| !self.closed.contains(h)).count() as u32;
        Setup {
            kind: GameKind::Bosh,
            rules_version: RULES_VERSION,
            pits: self.pits.to_vec().into(),
            stores: self.stores.to_vec().into(),
            reserves: self.reserves.to_vec().into(),
            to_move: self.to_move,
            status: Some(self.status),
            winner: self.winner,
            ply: self.ply,
            game_number: self.round,
            match_score: vec![open(0..5), open(5..10)].into(),
            variant: VariantSetup::Bosh {
                closed: (0..10).map(|h| self.closed.contains(&h)).collect(),
                round_starter: Some(self.round_starter),
            },
        }
    }

    fn game(&self) -> AnyGame {
        match AnyGame::from_setup(&self.setup()) {
            Ok(g) => g,
            Err(e) => panic!("state refused: {e}\n{self:?}"),
        }
    }
}

fn sow(game: &mut AnyGame, hole: u8) -> Vec<Event> {
    let mut events = Vec::new();
    if let Err(e) = game.play(&Move::Sow(Sow::from(hole)), &mut events) {
        panic!("sowing {hole} refused: {e:?}");
    }
    events
}

fn laps(events: &[Event]) -> Vec<(u8, u8)> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Lap { origin, seeds, .. } => Some((origin, seeds)),
            _ => None,
        })
        .collect()
}

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

fn round_end(events: &[Event]) -> Option<(Player, u8, [u8; 2])> {
    events.iter().find_map(|e| match *e {
        Event::RoundEnd {
            collector,
            collected,
            totals,
            ..
        } => collector.map(|c| (c, collected, totals)),
        _ => None,
    })
}

fn sows(holes: &[u8]) -> Vec<Move> {
    holes.iter().map(|&h| Move::Sow(Sow::from(h))).collect()
}

fn pits_of(game: &AnyGame) -> Vec<u32> {
    game.to_setup().pits.into_vec()
}

fn closed_of(game: &AnyGame) -> Vec<usize> {
    match game.to_setup().variant {
        VariantSetup::Bosh { closed, .. } => (0..10).filter(|&h| closed[h]).collect(),
        v => panic!("not Bosh: {v:?}"),
    }
}

fn next_round(game: &mut AnyGame, choice: PitSet) -> Vec<Event> {
    let mut events = Vec::new();
    if let Err(e) = game.play(&Move::NextGame(choice), &mut events) {
        panic!("NextGame({choice:?}) refused: {e:?}");
    }
    events
}

fn set(holes: &[usize]) -> PitSet {
    holes.iter().fold(PitSet::EMPTY, |s, &h| s.with(h))
}

// ---------------------------------------------------------------------------------------------------------
// 1. Hand-computed edge cases
// ---------------------------------------------------------------------------------------------------------

/// the relay lifts the next OPEN hole; a closed hole right after the last stone is not an empty
/// "next hole" (S-14 would have captured N4 here).
/// N3 closed. S=[0,0,0,0,2] | N=[0,0,×,4,3]. South S5: N1 1, N2 1 (last). next open = N4 (4): relay →
/// N5 4, S1 1, S2 1, S3 1 (last). next S4 empty; beyond S5 (origin, emptied) empty: no capture.
#[test]
fn relay_jumps_a_closed_hole_after_the_last_stone() {
    let mut game = State::playing([0, 0, 0, 0, 2, 0, 0, 0, 4, 3], &[7], S).game();
    let events = sow(&mut game, 4);
    assert_eq!(laps(&events), vec![(4, 2), (8, 4)]);
    assert!(captures(&events).is_empty());
    assert_eq!(
        events.last(),
        Some(&Event::NoCapture {
            empty_pit: 3,
            beyond_pit: 4
        })
    );
    assert_eq!(pits_of(&game), vec![1, 1, 1, 0, 0, 1, 1, 0, 0, 4]);
    assert_eq!(game.to_move(), Some(N));
}

/// R-3.2 + §3.3 + §3.4: the capture hole is the neighbour of a closed hole (N2 closed, N1 empty, N3 taken),
/// which leaves North without stones; the round ends at North's turn and South takes the last stone.
/// S=[0,0,0,1,0] | N=[0,×,3,0,0], stores 16–20. South S4 → S5 (last); N1 empty; beyond (skipping N2) N3 (3)
/// taken. North has nothing: South collects S5 (1). Stores 20–20 → next round all ten holes (N2 reopens).
#[test]
fn capture_across_a_closed_hole_then_round_end_and_reopening() {
    let start = State {
        stores: [16, 20],
        round: 2,
        ..State::playing([0, 0, 0, 1, 0, 0, 0, 3, 0, 0], &[6], S)
    };
    let mut game = start.game();
    let events = sow(&mut game, 3);
    assert_eq!(captures(&events), vec![(7, 3, S)]);
    assert_eq!(round_end(&events), Some((S, 1, [20, 20])));
    let setup = game.to_setup();
    assert_eq!(setup.status, Some(Status::RoundOver));
    assert_eq!(setup.stores, vec![20, 20]);
    assert_eq!(setup.pits, vec![0; 10]);
    next_round(&mut game, PitSet::EMPTY);
    assert_eq!(pits_of(&game), vec![4; 10], "N2 reopens (§3.4 step 2)");
    assert!(closed_of(&game).is_empty());
    let setup = game.to_setup();
    assert_eq!(setup.reserves, vec![0, 0]);
    assert_eq!(setup.stores, vec![0, 0]);
    assert_eq!(
        game.to_move(),
        Some(N),
        "South started round 2, North starts round 3 (R-3.4)"
    );
    assert_eq!(setup.game_number, 3);
}

/// §1/R-3.7 with closed holes: a 10-stone lap on a 7-hole ring passes its origin and goes on.
/// S1, S2, N1 closed. S=[×,×,10,0,0] | N=[×,0,0,0,1]. South S3 (hand computation in the review notes):
/// laps (S3,10) (N3,1) (N5,2) (S5,2) (N4,2) (S4,3); N4 empty; N5 (1) taken.
#[test]
fn ten_stone_lap_on_a_ring_with_closed_holes() {
    let mut game = State::playing([0, 0, 10, 0, 0, 0, 0, 0, 0, 1], &[0, 1, 5], S).game();
    let events = sow(&mut game, 2);
    assert_eq!(
        laps(&events),
        vec![(2, 10), (7, 1), (9, 2), (4, 2), (8, 2), (3, 3)]
    );
    let first_lap: Vec<u8> = events
        .iter()
        .skip(1)
        .take(10)
        .map(|e| match *e {
            Event::Drop { pit } => pit,
            ref e => panic!("{e:?}"),
        })
        .collect();
    assert_eq!(
        first_lap,
        vec![3, 4, 6, 7, 8, 9, 2, 3, 4, 6],
        "origin S3 is re-sown"
    );
    assert_eq!(captures(&events), vec![(9, 1, S)]);
    assert_eq!(pits_of(&game), vec![0, 0, 3, 0, 1, 0, 4, 2, 0, 0]);
    assert_eq!(game.to_setup().stores, vec![1, 0]);
}

/// Only two open holes on the board (S5 and N1): the capture takes the very hole holding the last stone.
/// S5 (3): N1 1, S5 1, N1 2 (last); next S5 (1) → relay: N1 3 (last); next S5 empty; beyond = N1 (3) taken.
/// Board empty: the round ends at North's turn with nothing to transfer (§3.3). Totals 19–21 → refill
/// S: k=4 (S2..S5), reserve 3; N: k=5, reserve 1; North starts.
#[test]
fn two_open_holes_capture_the_hole_of_the_last_stone() {
    let start = State {
        stores: [14, 18],
        reserves: [2, 3],
        round: 3,
        ..State::playing([0, 0, 0, 0, 3, 0, 0, 0, 0, 0], &[0, 1, 2, 3, 6, 7, 8, 9], S)
    };
    let mut game = start.game();
    let events = sow(&mut game, 4);
    assert_eq!(laps(&events), vec![(4, 3), (4, 1)]);
    assert_eq!(captures(&events), vec![(5, 3, S)]);
    assert_eq!(round_end(&events), Some((S, 0, [19, 21])));
    assert_eq!(game.status(), Status::RoundOver);
    next_round(&mut game, PitSet::EMPTY);
    assert_eq!(pits_of(&game), vec![0, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
    assert_eq!(closed_of(&game), vec![0]);
    assert_eq!(game.to_setup().reserves, vec![3, 1]);
    assert_eq!(game.to_move(), Some(N));
}

/// South empties his own row; the round does not end, North moves. (a) North's N5 feeds him:
/// the round goes on; (b) North's N1 does not: the round ends at South's turn and North takes his own 4.
#[test]
fn mover_empties_his_own_row_and_the_opponent_may_feed_him() {
    let start = State {
        stores: [16, 20],
        ..State::playing([0, 0, 0, 0, 1, 0, 0, 0, 0, 3], &[], S)
    };
    let mut game = start.game();
    // S5 → N1 (last); N2 empty; N3 empty: nothing.
    let events = sow(&mut game, 4);
    assert_eq!(
        events.last(),
        Some(&Event::NoCapture {
            empty_pit: 6,
            beyond_pit: 7
        })
    );
    assert_eq!(round_end(&events), None);
    assert_eq!(
        (game.status(), game.to_move()),
        (Status::InProgress, Some(N))
    );
    assert_eq!(game.legal_moves().to_vec(), sows(&[5, 9]));

    // (a) N5 (3) → S1, S2, S3 (last); S4, S5 empty: nothing. South can move.
    let mut fed = game.clone();
    let events = sow(&mut fed, 9);
    assert_eq!(round_end(&events), None);
    assert_eq!(pits_of(&fed), vec![1, 1, 1, 0, 0, 1, 0, 0, 0, 0]);
    assert_eq!(fed.to_move(), Some(S));
    assert_eq!(fed.legal_moves().to_vec(), sows(&[0, 1, 2]));

    // (b) N1 (1) → N2 (last); N3, N4 empty: nothing. South has no stone: North collects N2 + N5 = 4.
    let events = sow(&mut game, 5);
    assert_eq!(round_end(&events), Some((N, 4, [16, 24])));
    assert_eq!(game.status(), Status::RoundOver);
    assert_eq!(game.to_setup().stores, vec![16, 24]);
}

/// The opponent's only reply captures from his own row and cannot feed the mover.
/// S=[0,0,0,0,1] | N=[0,0,0,1,0], stores 18–20. S5 → N1; N2, N3 empty. North N1 → N2; N3 empty; N4 (1), his
/// own, taken. South has nothing: North collects N2 (1). Stores 18–22.
#[test]
fn opponent_cannot_feed_and_collects() {
    let start = State {
        stores: [18, 20],
        ..State::playing([0, 0, 0, 0, 1, 0, 0, 0, 1, 0], &[], S)
    };
    let mut game = start.game();
    sow(&mut game, 4);
    assert_eq!(game.legal_moves().to_vec(), sows(&[5, 8]));
    let events = sow(&mut game, 5);
    assert_eq!(captures(&events), vec![(8, 1, N)]);
    assert_eq!(round_end(&events), Some((N, 1, [18, 22])));
    assert_eq!(game.to_setup().stores, vec![18, 22]);
}

/// §3.3 + §3.4 step 5: the round ends with stones only in the winner's row, and the loser's total is 3.
/// South has only S5 open, reserve 3. S=[×,×,×,×,1] | N=[0,0,0,0,2], stores 0–34.
/// S5 → N1 (last); N2, N3 empty. North N1 → N2; N3, N4 empty. South has nothing: North takes N2+N5 = 3.
/// South: 0 + 3 = 3 < 4: South loses the match.
#[test]
fn round_ends_with_stones_in_the_opponents_row_and_the_match_is_lost() {
    let start = State {
        stores: [0, 34],
        reserves: [3, 0],
        round: 4,
        ..State::playing([0, 0, 0, 0, 1, 0, 0, 0, 0, 2], &[0, 1, 2, 3], S)
    };
    let mut game = start.game();
    sow(&mut game, 4);
    let events = sow(&mut game, 5);
    assert_eq!(round_end(&events), Some((N, 3, [3, 37])));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::MatchEnd {
            winner: Some(N),
            ..
        }
    )));
    assert_eq!(game.status(), Status::MatchOver);
    assert_eq!(game.to_setup().winner, Some(N));
    assert!(game.legal_moves().is_empty());
    let err = game.check(&Move::NextGame(PitSet::EMPTY)).unwrap_err();
    assert_eq!(err.reason, Reason::MatchOver);
    let err = game.check(&Move::Sow(Sow::from(4))).unwrap_err();
    assert_eq!(err.reason, Reason::MatchOver);
}

/// §3.4: k = min(5, floor(total/4)), reserve = total − 4k, stores reset, default right fill.
#[test]
fn refill_totals() {
    // (stores, reserves) → (pits, reserves after)
    let cases: [([u32; 2], [u32; 2], [u32; 10], [u32; 2]); 5] = [
        // 4 and 36: S keeps S5 only; N 5 holes, reserve 16.
        ([4, 30], [0, 6], [0, 0, 0, 0, 4, 4, 4, 4, 4, 4], [0, 16]),
        // 19 and 21: S 4 holes (S2..S5) reserve 3; N 5 holes reserve 1.
        ([19, 18], [0, 3], [0, 4, 4, 4, 4, 4, 4, 4, 4, 4], [3, 1]),
        // 20 and 20.
        ([20, 20], [0, 0], [4; 10], [0, 0]),
        // 21 and 19 (mirror): N 4 holes N2..N5, reserve 3.
        ([5, 19], [16, 0], [4, 4, 4, 4, 4, 0, 4, 4, 4, 4], [1, 3]),
        // 8 and 32: S 2 holes S4, S5.
        ([8, 32], [0, 0], [0, 0, 0, 4, 4, 4, 4, 4, 4, 4], [0, 12]),
    ];
    for (stores, reserves, pits, after) in cases {
        let mut game = State::round_over(stores, reserves, &[], S).game();
        next_round(&mut game, PitSet::EMPTY);
        let setup = game.to_setup();
        assert_eq!(setup.pits, pits.to_vec(), "{stores:?} {reserves:?}");
        assert_eq!(setup.reserves, after.to_vec(), "{stores:?} {reserves:?}");
        assert_eq!(setup.stores, vec![0, 0]);
        assert_eq!(setup.status, Some(Status::InProgress));
        assert_eq!(game.to_move(), Some(N));
    }
}

/// §3.4 step 5: totals 3 and 40 end the match at the end of the round; a RoundOver state with such totals
/// is refused, and MatchOver with a winner is accepted and final.
#[test]
fn refill_totals_that_end_the_match() {
    for (stores, reserves, winner) in [
        ([37, 0], [0, 3], S),
        ([40, 0], [0, 0], S),
        ([0, 3], [37, 0], S),
        ([2, 30], [1, 7], N),
    ] {
        let mut over = State::round_over(stores, reserves, &[], S);
        assert!(
            AnyGame::from_setup(&over.setup()).is_err(),
            "{stores:?} {reserves:?}: a total below 4 is not a RoundOver"
        );
        over.status = Status::MatchOver;
        over.winner = Some(winner);
        let game = over.game();
        assert!(game.legal_moves().is_empty());
        assert_eq!(
            game.check(&Move::NextGame(PitSet::EMPTY))
                .unwrap_err()
                .reason,
            Reason::MatchOver
        );
    }
}

/// §3.4 step 4 / R-3.3: choice of holes. Totals 19 (S: 4 holes) and 21 (N: 5 holes).
#[test]
fn refill_choices() {
    let over = State::round_over([19, 18], [0, 3], &[], S).game();
    // South opens S1..S4 (S5 closed), North default.
    let mut game = over.clone();
    next_round(&mut game, set(&[0, 1, 2, 3]));
    assert_eq!(closed_of(&game), vec![4]);
    // Both list: North lists all five.
    let mut game = over.clone();
    next_round(&mut game, set(&[0, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert_eq!(closed_of(&game), vec![1]);
    // Too few, too many, North listing fewer than his 5, holes off the board.
    for bad in [
        set(&[0, 1, 2]),
        set(&[0, 1, 2, 3, 4]),
        set(&[0, 1, 2, 3, 5]),
        set(&[5, 6, 7, 8]),
        PitSet(1 << 10),
        PitSet(u32::MAX),
    ] {
        let err = over.check(&Move::NextGame(bad)).unwrap_err();
        assert_eq!(err.reason, Reason::InvalidChoice, "{bad:?}");
    }
    // A player with 1 hole (total 4) chooses S1.
    let mut game = State::round_over([4, 30], [0, 6], &[], N).game();
    next_round(&mut game, set(&[0]));
    assert_eq!(closed_of(&game), vec![1, 2, 3, 4]);
    assert_eq!(
        game.to_move(),
        Some(S),
        "North started, South starts the next round"
    );
    // Reopened holes: closed S1..S4 last round, total 20 now → all reopen; an explicit choice may reopen too.
    let mut game = State::round_over([20, 20], [0, 0], &[0, 1, 2, 3], S).game();
    next_round(&mut game, PitSet::EMPTY);
    assert!(closed_of(&game).is_empty());
    let mut game = State::round_over([8, 32], [0, 0], &[0, 1, 2, 3], S).game();
    next_round(&mut game, set(&[0, 1]));
    assert_eq!(closed_of(&game), vec![2, 3, 4]);
}

/// §3.3/§3.4 between rounds: refill is refused while a round is in progress; sowing is refused after it.
#[test]
fn phase_checks() {
    let game = AnyGame::new_match(GameKind::Bosh, &Options::default());
    assert_eq!(
        game.check(&Move::NextGame(PitSet::EMPTY))
            .unwrap_err()
            .reason,
        Reason::GameInProgress
    );
    let over = State::round_over([20, 20], [0, 0], &[], S).game();
    assert_eq!(
        over.legal_moves().to_vec(),
        vec![Move::NextGame(PitSet::EMPTY)]
    );
    assert!(over.check(&Move::Sow(Sow::from(0))).is_err());
}

/// §1: a player all of whose moves never end has no legal move. A position like that at the start of his
/// turn is refused by `from_setup` (the round would already be over). The §3.2 example: N5 never ends.
#[test]
fn never_ending_moves() {
    let game = State::playing([0, 0, 5, 2, 0, 2, 1, 0, 1, 1], &[0, 1], N).game();
    assert_eq!(
        game.check(&Move::Sow(Sow::from(9))).unwrap_err().reason,
        Reason::NeverEndingMove
    );
    let model = Model::from_state(&State::playing([0, 0, 5, 2, 0, 2, 1, 0, 1, 1], &[0, 1], N));
    assert!(model.never_ends(9));
    assert_eq!(legal_sows(&game), model.legal(N));
    // S=[1,0,1,2,3] | N=[×,×,×,1,2], North to move: the model says both N4 and N5 never end.
    let st = State::playing([1, 0, 1, 2, 3, 0, 0, 0, 1, 2], &[5, 6, 7], N);
    let model = Model::from_state(&st);
    assert!(model.never_ends(8) && model.never_ends(9));
    assert!(AnyGame::from_setup(&st.setup()).is_err());
}

/// Never-ending moves with very long cycles (found by a random search with a reference model), on ALL-OPEN
/// boards: N4 in S=[3,2,4,5,4] | N=[5,6,3,5,2] (cycle of 1,295,390 relays) and S3 in S=[4,5,5,2,6] |
/// N=[2,6,7,2,1] (cycle of 2,255,840 relays, ~6.45M relays before Brent's detection). They must be refused, and
/// found exactly, not by a lap cap. The timings are printed (the spec sets no bound; see the review report).
#[test]
fn never_ending_moves_with_very_long_cycles() {
    for (pits, stores, mover, hole, legal) in [
        (
            [3, 2, 4, 5, 4, 5, 6, 3, 5, 2],
            [1, 0],
            N,
            8u8,
            vec![5u8, 6, 7, 9],
        ),
        (
            [4, 5, 5, 2, 6, 2, 6, 7, 2, 1],
            [0, 0],
            S,
            2,
            vec![0, 1, 3, 4],
        ),
    ] {
        let st = State {
            stores,
            ..State::playing(pits, &[], mover)
        };
        let t = std::time::Instant::now();
        let game = st.game();
        let load = t.elapsed();
        let t = std::time::Instant::now();
        let err = game.check(&Move::Sow(Sow::from(hole))).unwrap_err();
        let check = t.elapsed();
        assert_eq!(err.reason, Reason::NeverEndingMove);
        let t = std::time::Instant::now();
        assert_eq!(legal_sows(&game), legal);
        let list = t.elapsed();
        eprintln!("long cycle {pits:?} hole {hole}: from_setup {load:?}, check {check:?}, legal_moves {list:?}");
    }
}

/// Validation of impossible states and hostile numbers: refused, never a panic.
#[test]
fn validation_of_impossible_states() {
    let ok = State::playing([4; 10], &[], S);
    let refused = |f: &dyn Fn(&mut State)| {
        let mut st = ok.clone();
        f(&mut st);
        AnyGame::from_setup(&st.setup()).is_err()
    };
    assert!(AnyGame::from_setup(&ok.setup()).is_ok());
    // A closed hole holding stones.
    assert!(refused(&|s| {
        s.closed = vec![0];
    }));
    // A player with every hole closed.
    assert!(refused(&|s| {
        s.closed = vec![5, 6, 7, 8, 9];
        s.pits = [4, 4, 4, 4, 4, 0, 0, 0, 0, 0];
    }));
    // The player to move has no stone (the round ended at the start of his turn).
    assert!(refused(&|s| {
        s.pits = [0, 0, 0, 0, 0, 4, 4, 4, 4, 4];
    }));
    // Reserve ≥ 4 with fewer than five open holes (§3.4 steps 2-3).
    assert!(refused(&|s| {
        s.closed = vec![0];
        s.pits = [0, 4, 4, 4, 4, 4, 4, 4, 4, 4];
        s.reserves = [4, 0];
    }));
    // 41 stones.
    assert!(refused(&|s| s.stores = [1, 0]));
    // Wrong player to move for the ply count.
    assert!(refused(&|s| s.ply = 1));
    // Finished round with stones on the board.
    let mut over = State::round_over([20, 16], [0, 0], &[], S);
    over.pits[0] = 4;
    assert!(AnyGame::from_setup(&over.setup()).is_err());
    // MatchOver when both can go on.
    let mut over = State::round_over([20, 20], [0, 0], &[], S);
    over.status = Status::MatchOver;
    assert!(AnyGame::from_setup(&over.setup()).is_err());
    // Hostile numbers.
    for f in [
        (|s: &mut State| s.pits = [u32::MAX; 10]) as fn(&mut State),
        |s| s.stores = [u32::MAX, u32::MAX],
        |s| s.reserves = [u32::MAX, 1],
        |s| s.round = 0,
        |s| {
            s.pits = [0; 10];
            s.pits[0] = 40;
            s.stores = [u32::MAX - 5, 10];
        },
    ] {
        assert!(refused(&f));
    }
}

/// Counters at their limits do not panic: ply wraps with the right parity, the round number saturates.
#[test]
fn counters_at_their_limits() {
    let st = State {
        ply: u32::MAX,
        round_starter: N,
        ..State::playing([4; 10], &[], S)
    };
    let mut game = st.game();
    sow(&mut game, 4);
    let setup = game.to_setup();
    assert_eq!(game.to_move(), Some(N));
    assert_eq!(AnyGame::from_setup(&setup).as_ref(), Ok(&game));
    let mut over = State::round_over([20, 20], [0, 0], &[], S);
    over.round = u32::MAX;
    let mut game = over.game();
    next_round(&mut game, PitSet::EMPTY);
    assert_eq!(AnyGame::from_setup(&game.to_setup()).as_ref(), Ok(&game));
    assert!(game.check(&Move::Sow(Sow::from(255))).is_err());
}

// ---------------------------------------------------------------------------------------------------------
// 2. Reference model of §3, written from the spec alone
// ---------------------------------------------------------------------------------------------------------

fn row(p: Player) -> std::ops::Range<usize> {
    match p {
        Player::South => 0..5,
        Player::North => 5..10,
        Player::East => unreachable!("Bosh has two players"),
    }
}

fn ix(p: Player) -> usize {
    match p {
        Player::South => 0,
        Player::North => 1,
        Player::East => unreachable!("Bosh has two players"),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Model {
    pits: [u8; 10],
    open: [bool; 10],
    stores: [u32; 2],
    reserves: [u32; 2],
    to_move: Option<Player>,
    status: Status,
    winner: Option<Player>,
    starter: Player,
    ply: u32,
    round: u32,
}

/// What one move did, for comparison with the engine's events.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    laps: Vec<(u8, u8)>,
    /// (empty hole, hole beyond, stones taken)
    end: (u8, u8, u8),
    round_end: Option<(Player, u8, [u8; 2])>,
}

impl Model {
    fn from_state(st: &State) -> Model {
        let mut open = [true; 10];
        for &h in &st.closed {
            open[h] = false;
        }
        Model {
            pits: st.pits.map(|p| p as u8),
            open,
            stores: st.stores,
            reserves: st.reserves,
            to_move: st.to_move,
            status: st.status,
            winner: st.winner,
            starter: st.round_starter,
            ply: st.ply,
            round: st.round,
        }
    }

    /// next(i): the next OPEN hole anticlockwise (§3.2).
    fn next(&self, i: usize) -> usize {
        let mut j = (i + 1) % 10;
        while !self.open[j] {
            j = (j + 1) % 10;
        }
        j
    }

    /// One lap from `from`: Ok(hole to relay from) or Err((n1, n2)) when the move is over.
    fn lap(&self, pits: &mut [u8; 10], from: usize) -> Result<usize, (usize, usize)> {
        let mut hand = pits[from];
        pits[from] = 0;
        let mut pos = from;
        while hand > 0 {
            pos = self.next(pos);
            pits[pos] += 1;
            hand -= 1;
        }
        let n1 = self.next(pos);
        if pits[n1] > 0 {
            Ok(n1)
        } else {
            Err((n1, self.next(n1)))
        }
    }

    /// Exact never-ending test by Floyd's tortoise and hare over (board, hole to lift).
    fn never_ends(&self, h: usize) -> bool {
        let step = |c: ([u8; 10], usize)| -> Option<([u8; 10], usize)> {
            let mut p = c.0;
            self.lap(&mut p, c.1).ok().map(|n| (p, n))
        };
        let mut tortoise = (self.pits, h);
        let mut hare = (self.pits, h);
        loop {
            hare = match step(hare).and_then(step) {
                Some(c) => c,
                None => return false,
            };
            tortoise = step(tortoise).expect("the tortoise follows the hare");
            if tortoise == hare {
                return true;
            }
        }
    }

    fn legal(&self, p: Player) -> Vec<u8> {
        row(p)
            .filter(|&h| self.open[h] && self.pits[h] > 0 && !self.never_ends(h))
            .map(|h| h as u8)
            .collect()
    }

    fn play(&mut self, h: usize) -> Outcome {
        let mover = self.to_move.expect("in progress");
        assert!(self.legal(mover).contains(&(h as u8)));
        let mut pits = self.pits;
        let mut laps = Vec::new();
        let mut from = h;
        let (n1, n2) = loop {
            laps.push((from as u8, pits[from]));
            match self.lap(&mut pits, from) {
                Ok(n) => from = n,
                Err(end) => break end,
            }
        };
        let taken = pits[n2];
        pits[n2] = 0;
        self.pits = pits;
        self.stores[ix(mover)] += taken as u32;
        self.ply = self.ply.wrapping_add(1);
        let round_end = self.begin_turn(mover.opponent());
        Outcome {
            laps,
            end: (n1 as u8, n2 as u8, taken),
            round_end,
        }
    }

    fn totals(&self) -> [u32; 2] {
        [
            self.stores[0] + self.reserves[0],
            self.stores[1] + self.reserves[1],
        ]
    }

    /// §3.3 (and §1: no legal move ⇔ every move never ends or no stone).
    fn begin_turn(&mut self, p: Player) -> Option<(Player, u8, [u8; 2])> {
        if !self.legal(p).is_empty() {
            self.to_move = Some(p);
            return None;
        }
        let collector = p.opponent();
        let collected: u32 = self.pits.iter().map(|&s| s as u32).sum();
        self.pits = [0; 10];
        self.stores[ix(collector)] += collected;
        self.to_move = None;
        let t = self.totals();
        match (t[0] < 4, t[1] < 4) {
            (false, false) => {
                self.status = Status::RoundOver;
                self.winner = None; // not compared: the spec names no round winner
            }
            (true, false) => {
                self.status = Status::MatchOver;
                self.winner = Some(N);
            }
            (false, true) => {
                self.status = Status::MatchOver;
                self.winner = Some(S);
            }
            (true, true) => {
                self.status = Status::MatchOver;
                self.winner = None;
            }
        }
        Some((collector, collected as u8, [t[0] as u8, t[1] as u8]))
    }

    /// §3.4. `choice[p]`: None for the default right-to-left fill, else the holes p opens.
    fn refill(&mut self, choice: &[Option<Vec<usize>>; 2]) -> Result<(), ()> {
        if self.status != Status::RoundOver {
            return Err(());
        }
        let t = self.totals();
        let mut open = [false; 10];
        let mut reserves = [0; 2];
        for p in [S, N] {
            let k = (t[ix(p)] / 4).min(5) as usize;
            assert!(k > 0, "a RoundOver has totals ≥ 4");
            match &choice[ix(p)] {
                None => {
                    let r = row(p);
                    for h in r.end - k..r.end {
                        open[h] = true;
                    }
                }
                Some(holes) => {
                    let mut seen = [false; 10];
                    for &h in holes {
                        if !row(p).contains(&h) || seen[h] {
                            return Err(());
                        }
                        seen[h] = true;
                    }
                    if holes.len() != k {
                        return Err(());
                    }
                    for &h in holes {
                        open[h] = true;
                    }
                }
            }
            reserves[ix(p)] = t[ix(p)] - 4 * k as u32;
        }
        self.open = open;
        self.pits = open.map(|o| if o { 4 } else { 0 });
        self.reserves = reserves;
        self.stores = [0, 0];
        self.starter = self.starter.opponent();
        self.ply = 0;
        self.round = self.round.saturating_add(1);
        self.status = Status::InProgress;
        self.winner = None;
        self.begin_turn(self.starter);
        Ok(())
    }

    fn assert_matches(&self, game: &AnyGame, ctx: &str) {
        let s = game.to_setup();
        assert_eq!(s.pits, self.pits.map(|p| p as u32).to_vec(), "pits, {ctx}");
        assert_eq!(s.stores, self.stores.to_vec(), "stores, {ctx}");
        assert_eq!(s.reserves, self.reserves.to_vec(), "reserves, {ctx}");
        assert_eq!(s.to_move, self.to_move, "to_move, {ctx}");
        assert_eq!(s.status, Some(self.status), "status, {ctx}");
        if self.status == Status::MatchOver {
            assert_eq!(s.winner, self.winner, "winner, {ctx}");
        }
        assert_eq!(s.ply, self.ply, "ply, {ctx}");
        assert_eq!(s.game_number, self.round, "round, {ctx}");
        let VariantSetup::Bosh {
            closed,
            round_starter,
        } = &s.variant
        else {
            panic!("{ctx}")
        };
        assert_eq!(closed, &self.open.map(|o| !o).to_vec(), "closed, {ctx}");
        assert_eq!(*round_starter, Some(self.starter), "round starter, {ctx}");
        match (self.status, self.to_move) {
            (Status::InProgress, Some(p)) => {
                assert_eq!(legal_sows(game), self.legal(p), "legal moves, {ctx}")
            }
            (Status::RoundOver, _) => assert_eq!(
                game.legal_moves().to_vec(),
                vec![Move::NextGame(PitSet::EMPTY)],
                "{ctx}"
            ),
            _ => assert!(game.legal_moves().is_empty(), "{ctx}"),
        }
    }
}

fn legal_sows(game: &AnyGame) -> Vec<u8> {
    game.legal_moves()
        .iter()
        .filter_map(|m| match m {
            Move::Sow(s) => Some(s.pit),
            _ => None,
        })
        .collect()
}

fn engine_outcome(
    events: &[Event],
) -> (Vec<(u8, u8)>, (u8, u8, u8), Option<(Player, u8, [u8; 2])>) {
    let end = events
        .iter()
        .find_map(|e| match *e {
            Event::NoCapture {
                empty_pit,
                beyond_pit,
            } => Some((empty_pit, beyond_pit, 0)),
            Event::Capture { pit, seeds, .. } => Some((u8::MAX, pit, seeds)),
            _ => None,
        })
        .expect("every move ends with a capture or a NoCapture");
    (laps(events), end, round_end(events))
}

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

fn iterations(default: usize) -> usize {
    std::env::var("BOSH_REVIEW_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A random refill choice; sometimes deliberately invalid (wrong count, other row's hole).
fn random_choice(rng: &mut XorShift, model: &Model) -> ([Option<Vec<usize>>; 2], PitSet) {
    let t = model.totals();
    let mut choice: [Option<Vec<usize>>; 2] = [None, None];
    let mut bits = PitSet::EMPTY;
    for p in [S, N] {
        if rng.below(2) == 0 {
            continue;
        }
        let k = (t[ix(p)] / 4).min(5) as usize;
        let k = match rng.below(6) {
            0 => (k + 1).min(5),
            1 => k.saturating_sub(1).max(1),
            _ => k,
        };
        let mut holes: Vec<usize> = row(p).collect();
        let mut chosen = Vec::new();
        for _ in 0..k {
            chosen.push(holes.swap_remove(rng.below(holes.len())));
        }
        for &h in &chosen {
            bits = bits.with(h);
        }
        choice[ix(p)] = Some(chosen);
    }
    (choice, bits)
}

/// Plays random moves on the engine and the model side by side until the match ends.
fn play_out(rng: &mut XorShift, mut game: AnyGame, mut model: Model, tag: &str) -> usize {
    model.assert_matches(&game, &format!("{tag} start"));
    let mut moves = 0;
    loop {
        let ctx = format!("{tag} move {moves}");
        match (model.status, model.to_move) {
            (Status::MatchOver, _) => return moves,
            (Status::RoundOver, _) => {
                let (choice, bits) = random_choice(rng, &model);
                let mut m2 = model.clone();
                let model_ok = m2.refill(&choice).is_ok();
                let mut g2 = game.clone();
                let engine_ok = g2.play(&Move::NextGame(bits), &mut Vec::new()).is_ok();
                assert_eq!(engine_ok, model_ok, "refill {choice:?} accepted? {ctx}");
                if model_ok {
                    model = m2;
                    game = g2;
                } else {
                    model.refill(&[None, None]).unwrap();
                    next_round(&mut game, PitSet::EMPTY);
                }
            }
            (Status::InProgress, Some(p)) => {
                let legal = model.legal(p);
                for h in 0..10u8 {
                    assert_eq!(
                        game.check(&Move::Sow(Sow::from(h))).is_ok(),
                        legal.contains(&h),
                        "check({h}) {ctx}"
                    );
                }
                let h = legal[rng.below(legal.len())];
                let before = format!("{:?} sows {h}", model);
                let out = model.play(h as usize);
                let events = sow(&mut game, h);
                let (elaps, eend, eround) = engine_outcome(&events);
                assert_eq!(elaps, out.laps, "laps, {ctx}: {before}");
                if out.end.2 == 0 {
                    assert_eq!(eend, out.end, "end, {ctx}: {before}");
                } else {
                    assert_eq!(
                        (eend.1, eend.2),
                        (out.end.1, out.end.2),
                        "capture, {ctx}: {before}"
                    );
                }
                assert_eq!(eround, out.round_end, "round end, {ctx}: {before}");
                model.assert_matches(&game, &format!("{ctx}: {before}"));
            }
            other => panic!("model state {other:?}"),
        }
        moves += 1;
        assert!(moves < 200_000, "{tag}: no end");
        let setup = game.to_setup();
        assert_eq!(
            AnyGame::from_setup(&setup).as_ref(),
            Ok(&game),
            "round trip {tag}"
        );
    }
}

/// Differential test 1: whole matches from the standard start.
#[test]
fn differential_random_matches() {
    let mut rng = XorShift(0xB05B_0EE1_2345_6789);
    let mut total = 0;
    for m in 0..iterations(150) {
        let first = if rng.below(2) == 0 { S } else { N };
        let game = AnyGame::new_match(
            GameKind::Bosh,
            &Options {
                first_player: first,
                ..Options::default()
            },
        );
        let model = Model::from_state(&State::playing([4; 10], &[], first));
        total += play_out(&mut rng, game, model, &format!("match {m}"));
    }
    eprintln!("differential matches: {total} moves");
}

/// A random legal-shaped position: random closed holes (at least one open per row), random stones in the
/// open holes, reserves consistent with §3.4 (below 4 unless all five holes are open), 40 stones in all.
fn random_position(rng: &mut XorShift) -> State {
    let mut closed = Vec::new();
    for r in [0..5usize, 5..10] {
        let open_count = 1 + rng.below(5);
        let mut holes: Vec<usize> = r.collect();
        for _ in 0..5 - open_count {
            closed.push(holes.swap_remove(rng.below(holes.len())));
        }
    }
    let open: Vec<usize> = (0..10).filter(|h| !closed.contains(h)).collect();
    let sparse = rng.below(3) == 0;
    let on_board = 1 + rng.below(if sparse { 12 } else { 40 });
    let mut pits = [0u32; 10];
    for _ in 0..on_board {
        pits[open[rng.below(open.len())]] += 1;
    }
    let mut left = 40 - on_board as u32;
    let mut reserves = [0u32; 2];
    for p in 0..2 {
        let opens = row(if p == 0 { S } else { N })
            .filter(|h| !closed.contains(h))
            .count();
        let cap = if opens == 5 { left } else { left.min(3) };
        reserves[p] = rng.below(cap as usize + 1) as u32;
        left -= reserves[p];
    }
    let s0 = rng.below(left as usize + 1) as u32;
    let stores = [s0, left - s0];
    let starter = if rng.below(2) == 0 { S } else { N };
    let ply = rng.below(4) as u32;
    let to_move = if ply % 2 == 0 {
        starter
    } else {
        starter.opponent()
    };
    State {
        pits,
        closed,
        stores,
        reserves,
        to_move: Some(to_move),
        status: Status::InProgress,
        winner: None,
        round_starter: starter,
        ply,
        round: 1 + rng.below(5) as u32,
    }
}

/// Differential test 2: random positions with closed holes; from_setup accepts exactly the states whose
/// mover has a legal move, and then whole matches agree.
#[test]
fn differential_random_positions() {
    let mut rng = XorShift(0x0DDB_A11C_AFE0_0001);
    let (mut accepted, mut refused, mut total) = (0, 0, 0);
    for i in 0..iterations(600) {
        let st = random_position(&mut rng);
        let model = Model::from_state(&st);
        let valid = !model.legal(st.to_move.unwrap()).is_empty();
        match AnyGame::from_setup(&st.setup()) {
            Ok(game) => {
                assert!(valid, "accepted a state whose mover cannot move: {st:?}");
                accepted += 1;
                total += play_out(&mut rng, game, model, &format!("position {i}"));
            }
            Err(e) => {
                assert!(!valid, "refused a valid state: {e}\n{st:?}");
                refused += 1;
            }
        }
    }
    eprintln!("differential positions: {accepted} accepted, {refused} refused, {total} moves");
}
