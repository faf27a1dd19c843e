//! Bosh through the crate's public API only: the never-ending move of §3.2, and whole random matches (every
//! match ends, the 40 stones are conserved, and the legal-move list agrees with the legality check). (The worked
//! examples B-1..B-5 are data: `tests/examples/bosh.toml`, run by `examples.rs`.)

use mancala::engine::{
    AnyGame, GameKind, Move, Options, PitSet, Player, Setup, Sow, Status, VariantSetup,
    RULES_VERSION,
};

const S: Player = Player::South;
const N: Player = Player::North;
const STONES: u32 = 40;

/// A Bosh state in its wire shape. `closed` lists the closed holes; `match_score` follows from it.
struct State {
    pits: [u32; 10],
    closed: &'static [usize],
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
    /// A round in progress: `to_move` started it and no move has been made.
    fn playing(pits: [u32; 10], closed: &'static [usize], to_move: Player) -> State {
        State {
            pits,
            closed,
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
        AnyGame::from_setup(&self.setup()).expect("a valid Bosh state")
    }
}

/// The §3.2 example of a never-ending move, through the public API.
#[test]
fn the_never_ending_move_is_refused() {
    let game = State::playing([0, 0, 5, 2, 0, 2, 1, 0, 1, 1], &[0, 1], N).game();
    let err = game
        .check(&Move::Sow(Sow::from(9)))
        .expect_err("never ends");
    assert_eq!(err.reason, mancala::engine::Reason::NeverEndingMove);
    assert!(!game.legal_moves().contains(&Move::Sow(Sow::from(9))));
}

/// A seeded xorshift64 generator: reproducible and dependency-free.
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

fn stones_in(setup: &Setup) -> u32 {
    setup
        .pits
        .iter()
        .chain(&setup.stores)
        .chain(&setup.reserves)
        .sum()
}

/// A random `NextGame` choice: per player the default (no hole listed) or `k` random holes of his row, where
/// `k = min(5, total / 4)` (§3.4); now and then random holes, which are mostly refused.
fn random_refill(rng: &mut XorShift, setup: &Setup) -> PitSet {
    if rng.below(8) == 0 {
        return PitSet((rng.next() & 0x3FF) as u32);
    }
    let mut choice = PitSet::EMPTY;
    for (player, first_hole) in [(0, 0), (1, 5)] {
        if rng.below(2) == 0 {
            continue;
        }
        let k = ((setup.stores[player] + setup.reserves[player]) / 4).min(5) as usize;
        let mut holes: Vec<usize> = (first_hole..first_hole + 5).collect();
        for _ in 0..k {
            choice = choice.with(holes.swap_remove(rng.below(holes.len())));
        }
    }
    choice
}

/// Whole random matches end, conserve the 40 stones after every move and agree with the legality check.
#[test]
fn random_matches_end_and_conserve_stones() {
    const MATCHES: usize = 300;
    /// Far more than any random match needs (the longest of these 300 takes about 1,300 moves).
    const MOVE_CAP: usize = 100_000;
    let mut rng = XorShift(0x5EED_B05B_2024_0001);
    let (mut total_moves, mut total_rounds, mut longest, mut chosen) =
        (0usize, 0u32, 0usize, 0usize);
    for m in 0..MATCHES {
        let first_player = if rng.below(2) == 0 { S } else { N };
        let mut game = AnyGame::new_match(
            GameKind::Bosh,
            &Options {
                first_player,
                ..Options::default()
            },
        );
        let mut moves = 0;
        loop {
            let legal = game.legal_moves();
            for pit in 0..12u8 {
                let mv = Move::Sow(Sow::from(pit));
                assert_eq!(
                    legal.contains(&mv),
                    game.check(&mv).is_ok(),
                    "match {m}, pit {pit}: {game:?}"
                );
            }
            let next_game = Move::NextGame(PitSet::EMPTY);
            assert_eq!(
                legal.contains(&next_game),
                game.check(&next_game).is_ok(),
                "match {m}: {game:?}"
            );
            if legal.is_empty() {
                assert_eq!(
                    game.status(),
                    Status::MatchOver,
                    "match {m}: only a finished match has no move"
                );
                break;
            }
            assert_ne!(game.status(), Status::MatchOver);
            let mut mv = legal[rng.below(legal.len())];
            if mv == next_game {
                let choice = Move::NextGame(random_refill(&mut rng, &game.to_setup()));
                if game.check(&choice).is_ok() {
                    chosen += usize::from(choice != next_game);
                    mv = choice;
                }
            }
            let before = game.clone();
            let mut events = Vec::new();
            game.play(&mv, &mut events).expect("a listed move is legal");
            assert_ne!(game, before);
            let setup = game.to_setup();
            assert_eq!(
                stones_in(&setup),
                STONES,
                "match {m}: stones conserved after {mv:?}"
            );
            assert_eq!(
                AnyGame::from_setup(&setup).as_ref(),
                Ok(&game),
                "match {m}: the wire shape round-trips"
            );
            moves += 1;
            assert!(
                moves < MOVE_CAP,
                "match {m} did not end within {MOVE_CAP} moves"
            );
        }
        total_moves += moves;
        total_rounds += game.to_setup().game_number;
        longest = longest.max(moves);
    }
    eprintln!(
        "{MATCHES} random matches: {total_moves} moves, {total_rounds} rounds ({chosen} refilled by choice), \
         longest {longest} moves"
    );
    assert!(chosen > 0, "the refill choices were exercised");
}
