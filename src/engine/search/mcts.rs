//! Monte Carlo tree search (UCT): grow a tree of moves from the position, each step choosing children by the
//! upper confidence bound, finishing with a random playout through the engine's own move listing, and backing
//! up the playout's value. The tree keeps only moves and statistics (about 24 bytes a node); a position is
//! replayed from the root on the way down, which costs about as much as the playout and keeps large trees small.
//!
//! The tree survives between moves ([`Tree::search`] re-roots it at the position it is given when that position
//! is a few plies below its root), so a bot that plays a whole match keeps what it learnt.

use super::judge::Judge;
use super::{Limits, Stop, Work};
use crate::engine::{random_playout, Move, MoveList, NoTrace, Player, Rng, Status, Until};

/// How strongly the bound favours moves tried less often (√2 is the textbook value for rewards in 0..1; a
/// lower value searches the promising moves deeper, which these games reward).
const EXPLORATION: f64 = 1.0;
/// Playouts stop after this many moves and are valued by the estimate (games between random players end far
/// sooner; the cap keeps a crafted position from making one playout long).
const PLAYOUT_PLIES: u32 = 300;
/// The largest tree: past it leaves are no longer expanded (about 100 MB).
const MAX_NODES: usize = 4_000_000;
/// How deep re-rooting looks for the new position below the old root.
const REROOT_DEPTH: u32 = 4;

const NO_CHILDREN: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The move that leads here from the parent (unused at the root).
    mv: Move,
    /// First of the children, which are contiguous; `NO_CHILDREN` until expanded.
    first_child: u32,
    children: u16,
    /// Whose choice this node's moves are: the mover, or the chooser between games; `None` once play stopped.
    chooser: Option<Player>,
    visits: u32,
    /// Sum of the values for South backed up through this node.
    south_total: f32,
}

impl Node {
    fn leaf(mv: Move) -> Node {
        Node {
            mv,
            first_child: NO_CHILDREN,
            children: 0,
            chooser: None,
            visits: 0,
            south_total: 0.0,
        }
    }

    /// The mean value for `player` of the playouts through this node.
    fn mean_for(&self, player: Player) -> f64 {
        if self.visits == 0 {
            return 0.5;
        }
        let south = self.south_total as f64 / self.visits as f64;
        match player {
            Player::South => south,
            // Monte Carlo search keeps South's value, which is the other side's with two players; three-player
            // games are searched by alpha-beta only (the search service refuses Monte Carlo for them).
            Player::North | Player::East => 1.0 - south,
        }
    }

    fn child_range(&self) -> std::ops::Range<usize> {
        if self.first_child == NO_CHILDREN {
            0..0
        } else {
            self.first_child as usize..self.first_child as usize + self.children as usize
        }
    }
}

/// A search tree and the position at its root.
#[derive(Clone, Debug)]
pub struct Tree<G> {
    root_state: Option<G>,
    /// For whom the root's choice was made (it matters between games, where nobody is to move).
    root_side: Option<Player>,
    nodes: Vec<Node>,
}

/// One root move's statistics.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    pub value: f64,
    pub visits: u32,
    /// The value is exact: the searches that made it saw only finished games (alpha-beta; Monte Carlo proves
    /// nothing but a move that ends the game, which [`super::think`] marks).
    pub proven: bool,
    /// The line the search expects after the move, starting with it.
    pub line: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub(super) struct Found {
    /// The root's moves, most visited first.
    pub moves: Vec<RootMove>,
    /// The most visited line from the root.
    pub pv: Vec<Move>,
}

impl<G: Judge> Default for Tree<G> {
    fn default() -> Self {
        Tree {
            root_state: None,
            root_side: None,
            nodes: Vec::new(),
        }
    }
}

impl<G: Judge + PartialEq> Tree<G> {
    /// Searches `state` for `side` (the player to move, or the chooser between games) within `limits`; the
    /// tree is reused when `state` was reached from the last root.
    pub(super) fn search(
        &mut self,
        state: &G,
        side: Player,
        limits: &Limits,
        rng: &mut Rng,
        stop: &mut Stop,
        work: &mut Work,
    ) -> Found {
        self.reroot(state, side);
        let mut path: Vec<u32> = Vec::with_capacity(64);
        let mut moves = MoveList::new();
        while work.iterations < limits.iterations && !stop.now(work) {
            path.clear();
            path.push(0);
            let mut position = state.clone();
            // Selection: down the tree by the bound, replaying the moves.
            loop {
                let at = *path.last().expect("the path starts at the root") as usize;
                let node = self.nodes[at];
                if node.first_child == NO_CHILDREN {
                    break;
                }
                let chooser = node.chooser.expect("only a node in play has children");
                let next = self.select(&node, chooser);
                if position.play(&self.nodes[next].mv, &mut NoTrace).is_err() {
                    // Only listed moves are in the tree, so this is reached only when the work budget ran out
                    // in the middle of a move; the search is then given up.
                    return self.found();
                }
                path.push(next as u32);
                work.plies += 1;
            }
            // Expansion: list the leaf's moves (unless play has stopped there) and step into the first one.
            let leaf = *path.last().expect("non-empty") as usize;
            let chooser = self.chooser_at(&position, leaf == 0, side);
            self.nodes[leaf].chooser = chooser;
            if let Some(chooser) = chooser {
                if self.nodes.len() < MAX_NODES && (self.nodes[leaf].visits > 0 || leaf == 0) {
                    if leaf == 0 && position.status() != Status::InProgress {
                        position.choices(chooser, &mut moves);
                    } else {
                        moves.clear();
                        position.legal_moves(&mut moves);
                    }
                    if !moves.is_empty() {
                        let first = self.nodes.len() as u32;
                        self.nodes.extend(moves.iter().map(|&mv| Node::leaf(mv)));
                        self.nodes[leaf].first_child = first;
                        self.nodes[leaf].children = moves.len() as u16;
                        if position.play(&moves[0], &mut NoTrace).is_err() {
                            return self.found();
                        }
                        path.push(first);
                        work.plies += 1;
                    }
                }
            }
            // Simulation: a random playout to the end of the game, or the value of where play stopped.
            let south = self.playout(&mut position, leaf == 0 && path.len() == 1, rng, work);
            for &at in &path {
                let node = &mut self.nodes[at as usize];
                node.visits += 1;
                node.south_total += south as f32;
            }
            work.iterations += 1;
        }
        work.nodes = work.nodes.max(self.nodes.len() as u64);
        self.found()
    }

    /// Whose choice a node's moves are: nobody's once play has stopped (except at a root between games).
    fn chooser_at(&self, position: &G, is_root: bool, side: Player) -> Option<Player> {
        match position.to_move() {
            Some(mover) if position.status() == Status::InProgress => Some(mover),
            _ if is_root && position.status() != Status::MatchOver => Some(side),
            _ => None,
        }
    }

    /// The child of `node` with the highest upper confidence bound for `chooser`; an untried child first.
    fn select(&self, node: &Node, chooser: Player) -> usize {
        let log_n = (node.visits.max(1) as f64).ln();
        let mut best = node.first_child as usize;
        let mut best_bound = f64::NEG_INFINITY;
        for i in node.child_range() {
            let child = &self.nodes[i];
            if child.visits == 0 {
                return i;
            }
            let bound =
                child.mean_for(chooser) + EXPLORATION * (log_n / child.visits as f64).sqrt();
            if bound > best_bound {
                best_bound = bound;
                best = i;
            }
        }
        best
    }

    /// South's value of a playout from `position`.
    fn playout(&self, position: &mut G, at_root: bool, rng: &mut Rng, work: &mut Work) -> f64 {
        if position.status() == Status::InProgress {
            work.plies += random_playout(position, rng, Until::GameEnd, PLAYOUT_PLIES) as u64;
        }
        if position.status() == Status::InProgress
            || (at_root && position.status() != Status::MatchOver)
        {
            position.estimate(Player::South)
        } else {
            position.outcome(Player::South)
        }
    }

    /// Moves the root to `state` if it lies a few plies below the current root, dropping the rest of the tree;
    /// otherwise starts afresh.
    fn reroot(&mut self, state: &G, side: Player) {
        let same_side = self.root_side == Some(side) || state.status() == Status::InProgress;
        let found = match &self.root_state {
            Some(root) if same_side && !self.nodes.is_empty() => self.find(root, state),
            _ => None,
        };
        match found {
            Some(0) => {}
            Some(at) => {
                let mut kept = Vec::with_capacity(self.nodes.len() / 4);
                kept.push(self.nodes[at]);
                // Copy the subtree breadth first, renumbering children (they stay contiguous).
                let mut queue = vec![(at, 0usize)];
                while let Some((old, new)) = queue.pop() {
                    let range = self.nodes[old].child_range();
                    if range.is_empty() {
                        kept[new].first_child = NO_CHILDREN;
                        continue;
                    }
                    let first = kept.len();
                    kept[new].first_child = first as u32;
                    for (k, i) in range.enumerate() {
                        kept.push(self.nodes[i]);
                        queue.push((i, first + k));
                    }
                }
                self.nodes = kept;
            }
            None => {
                self.nodes.clear();
                self.nodes
                    .push(Node::leaf(Move::NextGame(Default::default())));
            }
        }
        self.root_state = Some(state.clone());
        self.root_side = Some(side);
    }

    /// The node below the root whose position is `state`, looking a few plies deep.
    fn find(&self, root: &G, state: &G) -> Option<usize> {
        if root == state {
            return Some(0);
        }
        let mut frontier = vec![(0usize, root.clone())];
        for _ in 0..REROOT_DEPTH {
            let mut next = Vec::new();
            for (at, position) in frontier {
                for i in self.nodes[at].child_range() {
                    let mut child = position.clone();
                    if child.play(&self.nodes[i].mv, &mut NoTrace).is_err() {
                        continue;
                    }
                    if child == *state {
                        return Some(i);
                    }
                    next.push((i, child));
                }
            }
            frontier = next;
        }
        None
    }

    fn found(&self) -> Found {
        let root = &self.nodes[0];
        let chooser = root.chooser.unwrap_or(Player::South);
        let mut moves: Vec<RootMove> = root
            .child_range()
            .map(|i| RootMove {
                mv: self.nodes[i].mv,
                value: self.nodes[i].mean_for(chooser),
                visits: self.nodes[i].visits,
                proven: false,
                line: self.line_from(i),
            })
            .collect();
        // Most visited first; equal visits by value; a stable sort keeps the listing order otherwise.
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.value.total_cmp(&a.value)));
        // The line: the best root move, then the most visited child at each step.
        let pv = moves
            .first()
            .map(|best| best.line.clone())
            .unwrap_or_default();
        Found { moves, pv }
    }

    /// The line from node `i`: its move, then the most visited child at each step (at most 32 moves).
    fn line_from(&self, i: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut next = Some(i);
        while let Some(i) = next {
            if line.len() >= 32 {
                break;
            }
            line.push(self.nodes[i].mv);
            next = self.nodes[i]
                .child_range()
                .filter(|&c| self.nodes[c].visits > 0)
                .max_by_key(|&c| self.nodes[c].visits);
        }
        line
    }
}
