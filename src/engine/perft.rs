//! Perft: how many move sequences of each length lead from a position, the move generator's own test. Two
//! implementations that agree on these counts list the same moves in every position they reach (a difference
//! anywhere in the tree changes a count), which is why docs/conformance.md publishes them.
//!
//! The conventions (docs/conformance.md "Perft"):
//! - the moves counted are the legal moves of the player to move while a game (Bosh: a round) is being played;
//! - a finished game, round or match is a leaf: the `NextGame` that starts the next one is not counted, so
//!   a count never crosses into the next game;
//! - Ba-awa's passes (R-4.6, §4.7) are part of the move before them, never moves of their own;
//! - a never-ending sowing (§1) is not a move, as [`Game::legal_moves`] never lists one.
//!
//! Pure and single-threaded, like the rest of the engine: [`Frontier`] cuts a count into branches that callers
//! may count on as many threads as they like and add up.

use super::{AnyGame, Game, Move, MoveList, NoTrace, Status};

/// Move sequences counted per length: `nodes[d - 1]` sequences of `d` moves.
pub type Nodes = Vec<u64>;

/// The moves perft follows from `game`: its legal moves while a game or round is played, none once it is over.
fn moves_of<G: Game>(game: &G, out: &mut MoveList) {
    out.clear();
    if game.status() == Status::InProgress {
        game.legal_moves(out);
    }
}

/// Adds to `nodes[ply..]` the sequences that continue from `game`, whose moves are `moves`, reached after `ply`
/// moves. The last ply is counted from the list alone (a listed move is legal), so only the positions before it
/// are played.
fn walk<G: Game>(game: &G, moves: &MoveList, ply: usize, nodes: &mut [u64]) {
    nodes[ply] += moves.len() as u64;
    if ply + 1 == nodes.len() {
        return;
    }
    let mut next = MoveList::new();
    for mv in moves {
        let mut child = game.clone();
        child
            .play_and_list(mv, &mut NoTrace, &mut next)
            .expect("a listed move is legal");
        if child.status() == Status::InProgress {
            walk(&child, &next, ply + 1, nodes);
        }
    }
}

fn perft_of<G: Game>(game: &G, depth: usize) -> Nodes {
    let mut nodes = vec![0; depth];
    if depth > 0 {
        let mut moves = MoveList::new();
        moves_of(game, &mut moves);
        walk(game, &moves, 0, &mut nodes);
    }
    nodes
}

/// The move sequences of each length 1..=`depth` from `game` (see the module's conventions).
///
/// ```
/// use mancala::engine::{perft, AnyGame, GameKind, Options};
///
/// let start = AnyGame::new_match(GameKind::Bosh, &Options::default());
/// // South has one sowing from each of his five pits.
/// assert_eq!(perft::perft(&start, 1), vec![5]);
/// ```
pub fn perft(game: &AnyGame, depth: usize) -> Nodes {
    match game {
        AnyGame::BaoLaKete(g) => perft_of(g, depth),
        AnyGame::BaAwa(g) => perft_of(g, depth),
        AnyGame::Bosh(g) => perft_of(g, depth),
    }
}

/// A position a few moves into a count, still to be counted deeper.
#[derive(Clone, Debug)]
pub struct Branch {
    /// Which of the root's moves (an index into [`Frontier::moves`]) the branch begins with.
    pub first: usize,
    /// The position.
    pub game: AnyGame,
}

/// A count cut into branches: the sequences of up to `plies` moves counted, and every position in play reached
/// by exactly `plies` moves, each to be counted to the remaining depth ([`Frontier::depth_left`]) with
/// [`perft`] and added in ([`Frontier::add`]).
#[derive(Clone, Debug)]
pub struct Frontier {
    /// The root's moves, in [`Game::legal_moves`]' order.
    pub moves: MoveList,
    /// The whole count's depth.
    pub depth: usize,
    /// Moves already played into every branch.
    pub plies: usize,
    /// Per root move, the sequences counted so far, `depth` long.
    pub by_first: Vec<Nodes>,
    /// The positions still to count.
    pub branches: Vec<Branch>,
}

impl Frontier {
    /// Cuts the count of `game` to `depth` into at least `wanted` branches when it can, going one ply deeper at a
    /// time (never to `depth` itself: the last ply is counted from a list).
    pub fn new(game: &AnyGame, depth: usize, wanted: usize) -> Frontier {
        let mut moves = MoveList::new();
        if game.status() == Status::InProgress {
            moves = game.legal_moves();
        }
        let mut by_first = vec![vec![0; depth]; moves.len()];
        if depth > 0 {
            for nodes in &mut by_first {
                nodes[0] = 1;
            }
        }
        let mut branches = Vec::new();
        let mut plies = 0;
        if depth > 1 {
            branches = moves
                .iter()
                .enumerate()
                .map(|(first, mv)| Branch {
                    first,
                    game: child(game, mv),
                })
                .filter(|b| b.game.status() == Status::InProgress)
                .collect();
            plies = 1;
            while branches.len() < wanted && plies + 1 < depth {
                let mut deeper = Vec::new();
                for branch in &branches {
                    let next = branch.game.legal_moves();
                    by_first[branch.first][plies] += next.len() as u64;
                    deeper.extend(
                        next.iter()
                            .map(|mv| Branch {
                                first: branch.first,
                                game: child(&branch.game, mv),
                            })
                            .filter(|b| b.game.status() == Status::InProgress),
                    );
                }
                branches = deeper;
                plies += 1;
            }
        }
        Frontier {
            moves,
            depth,
            plies,
            by_first,
            branches,
        }
    }

    /// The depth each branch is counted to.
    pub fn depth_left(&self) -> usize {
        self.depth - self.plies
    }

    /// Adds a branch's count ([`perft`] of its position to [`Frontier::depth_left`]).
    pub fn add(&mut self, first: usize, nodes: &[u64]) {
        for (total, n) in self.by_first[first][self.plies..].iter_mut().zip(nodes) {
            *total += n;
        }
    }

    /// The sequences of each length 1..=depth, once every branch is added.
    pub fn total(&self) -> Nodes {
        let mut total = vec![0; self.depth];
        for nodes in &self.by_first {
            for (t, n) in total.iter_mut().zip(nodes) {
                *t += n;
            }
        }
        total
    }
}

/// `game` after `mv`, a move it listed.
fn child(game: &AnyGame, mv: &Move) -> AnyGame {
    let mut next = game.clone();
    next.play(mv, &mut NoTrace).expect("a listed move is legal");
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GameKind, Options};

    /// The count the plain way: every listed move played with `play`, every position listed with
    /// `legal_moves`, no count taken from a list, no `play_and_list`.
    fn plain(game: &AnyGame, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if game.status() != Status::InProgress {
            return 0;
        }
        game.legal_moves()
            .iter()
            .map(|mv| plain(&child(game, mv), depth - 1))
            .sum()
    }

    fn starts() -> Vec<AnyGame> {
        let mut starts: Vec<AnyGame> = GameKind::ALL
            .iter()
            .map(|&kind| AnyGame::new_match(kind, &Options::default()))
            .collect();
        starts.push(AnyGame::new_match(
            GameKind::BaAwa,
            &Options {
                ba_awa_players: 3,
                ..Options::default()
            },
        ));
        starts
    }

    #[test]
    fn perft_counts_what_playing_every_listed_move_counts() {
        for start in starts() {
            let nodes = perft(&start, 4);
            for depth in 1..=4 {
                assert_eq!(
                    nodes[depth - 1],
                    plain(&start, depth),
                    "{:?} depth {depth}",
                    start.kind()
                );
            }
        }
    }

    #[test]
    fn a_count_cut_into_branches_adds_up_to_the_whole() {
        for start in starts() {
            let whole = perft(&start, 5);
            for wanted in [0, 1, 10, 100, 1000] {
                let mut frontier = Frontier::new(&start, 5, wanted);
                for branch in frontier.branches.clone() {
                    let nodes = perft(&branch.game, frontier.depth_left());
                    frontier.add(branch.first, &nodes);
                }
                assert_eq!(
                    frontier.total(),
                    whole,
                    "{:?} cut for {wanted}",
                    start.kind()
                );
                // Divide: each first move's count is its own subtree's.
                for (mv, nodes) in frontier.moves.iter().zip(&frontier.by_first) {
                    assert_eq!(nodes[4], plain(&child(&start, mv), 4));
                }
            }
        }
    }

    #[test]
    fn a_finished_round_is_a_leaf() {
        // Play a Bosh match at random until a round ends: NextGame is listed there, but perft counts nothing.
        let mut game = AnyGame::new_match(GameKind::Bosh, &Options::default());
        let mut rng = crate::engine::Rng::new(7);
        while game.status() == Status::InProgress {
            let moves = game.legal_moves();
            game.play(&moves[rng.below(moves.len())], &mut NoTrace)
                .expect("a listed move is legal");
        }
        assert!(
            !game.legal_moves().is_empty(),
            "the next round can be started"
        );
        assert_eq!(perft(&game, 3), vec![0, 0, 0]);
        assert!(Frontier::new(&game, 3, 8).moves.is_empty());
    }
}
