//! Random playouts: the engine benchmarks, the load generator's corpus of realistic positions and the simplest
//! built-in opponent all play uniformly random legal moves. Seeded and heap-free, so runs are repeatable.

use super::{Game, Move, MoveList, NoTrace, Reason, Sow, Status};

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
///
/// Where a position's moves are sowings from candidate pits whose listing costs a sowing each (Bosh, Ba-awa:
/// each candidate is played out to see that it ends), a random candidate is played at once, and only one that
/// turns out never to end is set aside for another draw: uniform over the legal moves all the same, and the
/// very moves of a listing when every candidate ends (the candidates are the listing, in the same order, and the
/// draw is the same). The end-of-move check then only asks whether the next player can move, which stops at his
/// first move. Other positions list their moves, each move listing the next position's as it is played.
///
/// A game that defers the end-of-move check ([`Game::DEFERS_TURN_CHECK`], Bosh) does not make it at all: the
/// check tries the next player's moves until one ends, and the candidate drawn next is such a try, so the move
/// drawn and played is the check passed; only when none of his candidates can be played is the check made
/// ([`Game::settle_turn`]), which ends his turn (the round) as it would have. The game is left as `play` leaves it.
pub fn random_playout<G: Game>(game: &mut G, rng: &mut Rng, until: Until, max_plies: u32) -> u32 {
    let mut plies = 0;
    let mut moves = MoveList::new();
    let mut listed = false;
    // The last move passed the turn on without the check that the next player can move (`play_unchecked`).
    let mut unchecked = false;
    while plies < max_plies {
        let done = match until {
            Until::GameEnd => game.status() != Status::InProgress,
            Until::MatchEnd => game.status() == Status::MatchOver,
        };
        if done {
            break;
        }
        let played = match game.sowing_candidates() {
            Some(candidates) => {
                listed = false;
                if play_a_candidate(game, rng, candidates) {
                    true
                } else if unchecked {
                    // The player to move cannot move after all: the check ends his turn as `play` would have.
                    game.settle_turn();
                    unchecked = false;
                    continue;
                } else {
                    false
                }
            }
            None => {
                if !listed {
                    moves.clear();
                    game.legal_moves(&mut moves);
                }
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                if G::DEFERS_TURN_CHECK {
                    game.play_unchecked(&mv).is_ok()
                } else {
                    // Each move lists the next one's choices as it plays (the check that the next player can
                    // move).
                    listed = true;
                    game.play_and_list(&mv, &mut NoTrace, &mut moves).is_ok()
                }
            }
        };
        if !played {
            break;
        }
        unchecked = G::DEFERS_TURN_CHECK;
        plies += 1;
    }
    if unchecked {
        game.settle_turn();
    }
    plies
}

/// Plays a uniformly random one of the sowings from the `candidates` pits that end; `false` when none does.
fn play_a_candidate<G: Game>(game: &mut G, rng: &mut Rng, mut candidates: u32) -> bool {
    while candidates != 0 {
        let mut left = candidates;
        for _ in 0..rng.below(candidates.count_ones() as usize) {
            left &= left - 1;
        }
        let pit = left.trailing_zeros() as u8;
        match game.play_unchecked(&Move::Sow(Sow::from(pit))) {
            Ok(()) => return true,
            // It never ends: the position is as it was; draw again among the others.
            Err(e) if e.reason == Reason::NeverEndingMove => candidates &= !(1 << pit),
            Err(_) => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{AnyGame, GameKind, Options};

    /// The candidates of the position, when it has them, and whether one of them never ends.
    fn never_ending_candidate(game: &AnyGame) -> bool {
        let candidates = match game {
            AnyGame::BaoLaKete(g) => g.sowing_candidates(),
            AnyGame::BaAwa(g) => g.sowing_candidates(),
            AnyGame::Bosh(g) => g.sowing_candidates(),
        };
        candidates.is_some_and(|c| c.count_ones() as usize > game.legal_moves().len())
    }

    /// Drawing a candidate and playing it plays the very moves that listing every move and drawing from the list
    /// did (random play before the candidates), seed for seed, in every game (three-player Ba-awa too), until a
    /// position where a candidate never ends: there the draws may differ (both uniform over the legal moves).
    #[test]
    fn candidates_play_the_moves_the_listing_played() {
        let three = Options {
            ba_awa_players: 3,
            ..Options::default()
        };
        let (mut moves, mut diverged) = (0, 0);
        for (kind, options) in [
            (GameKind::Bosh, Options::default()),
            (GameKind::BaAwa, Options::default()),
            (GameKind::BaAwa, three),
            (GameKind::BaoLaKete, Options::default()),
        ] {
            let matches = if kind == GameKind::BaoLaKete { 4 } else { 60 };
            for seed in 0..matches {
                let mut drawn = AnyGame::new_match(kind, &options);
                let mut listed = drawn.clone();
                let (mut drawing, mut listing) = (Rng::new(seed), Rng::new(seed));
                while listed.status() != Status::MatchOver && moves < 1_000_000 {
                    let before = listed.clone();
                    let legal = listed.legal_moves();
                    listed
                        .play(&legal[listing.below(legal.len())], &mut NoTrace)
                        .expect("a listed move is legal");
                    assert_eq!(drawn.random_playout(&mut drawing, Until::MatchEnd, 1), 1);
                    moves += 1;
                    // A draw set aside leaves the generators apart even when the move happens to be the same.
                    if drawn != listed || drawing.0 != listing.0 {
                        assert!(
                            never_ending_candidate(&before),
                            "{kind:?} seed {seed}: {before:?}"
                        );
                        diverged += 1;
                        break;
                    }
                }
            }
        }
        // 12 of the 184 matches (60 of each Bosh and Ba-awa variant, 4 of Bao la Kete) reach one.
        assert!(
            moves > 100_000 && diverged < 20,
            "{moves} moves, {diverged} diverged"
        );
    }

    /// A Bosh playout defers the check that the next player can move to its next draw (`DEFERS_TURN_CHECK`), yet
    /// leaves every game as `play` leaves it: a stretch of moves played in one call ends where the same moves
    /// played a call each end (every call settling its last move's check), rounds ended by a stuck player and
    /// whole matches included.
    #[test]
    fn a_deferred_check_leaves_the_game_as_play_leaves_it() {
        let mut rounds = 0;
        for seed in 0..40 {
            let mut at_once = AnyGame::new_match(GameKind::Bosh, &Options::default());
            let mut one_by_one = at_once.clone();
            let (mut rng_at_once, mut rng_one_by_one) = (Rng::new(seed), Rng::new(seed));
            while at_once.status() != Status::MatchOver {
                let stretch = 1 + (seed as u32 + at_once.game_number()) % 23;
                let played = at_once.random_playout(&mut rng_at_once, Until::MatchEnd, stretch);
                for _ in 0..played {
                    assert_eq!(
                        one_by_one.random_playout(&mut rng_one_by_one, Until::MatchEnd, 1),
                        1
                    );
                }
                assert_eq!(at_once, one_by_one, "seed {seed}");
                assert_eq!(rng_at_once.0, rng_one_by_one.0, "seed {seed}");
            }
            rounds += at_once.game_number();
        }
        assert!(rounds > 200, "{rounds} rounds");
    }
}
