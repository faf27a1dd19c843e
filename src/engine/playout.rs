//! Random playouts: the engine benchmarks, the load generator's corpus of realistic positions and the simplest
//! built-in opponent all play uniformly random legal moves. Seeded and heap-free, so runs are repeatable.

use super::{Game, MoveList, NoTrace, Status};

/// A small, fast, seeded generator (xorshift64*): good enough to pick moves, and the same everywhere.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` ≥ 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// How far a playout goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// Until the current game (or Bosh round) is over.
    GameEnd,
    /// Until the match is over.
    MatchEnd,
}

/// Plays uniformly random legal moves until `until` or `max_plies` moves, whichever comes first; returns the
/// number of moves played (the `NextGame` steps of a match count as moves).
pub fn random_playout<G: Game>(game: &mut G, rng: &mut Rng, until: Until, max_plies: u32) -> u32 {
    let mut plies = 0;
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    while plies < max_plies {
        let done = match until {
            Until::GameEnd => game.status() != Status::InProgress,
            Until::MatchEnd => game.status() == Status::MatchOver,
        };
        if done || moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        // Each move lists the next one's choices as it plays (the check that the next player can move).
        if game.play_and_list(&mv, &mut NoTrace, &mut moves).is_err() {
            break;
        }
        plies += 1;
    }
    plies
}
