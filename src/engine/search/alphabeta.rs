//! Alpha-beta search to a depth, deepened one ply at a time while the budget lasts, over the game's estimate
//! ([`Judge::estimate`]). Moves are tried best first: the one the transposition table remembers, then the rest by
//! the estimate one ply down. A move does not always hand the turn over, so every node asks who is to move and
//! maximises or minimises the searched side's value accordingly (no negamax sign flips).

use super::judge::Judge;
use super::mcts::{Found, RootMove};
use super::{Limits, Stop, Work};
use crate::engine::{Move, MoveList, NoTrace, Player, Status};
use arrayvec::ArrayVec;
use std::collections::HashMap;

/// The table is emptied when it grows past this many positions (about 40 MB).
const MAX_ENTRIES: usize = 1 << 21;
/// No search goes deeper than this (the budget stops it long before in any real position).
const MAX_DEPTH: u32 = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The value is at least this.
    Lower,
    /// The value is at most this.
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    depth: u8,
    bound: Bound,
    value: f32,
    /// Index of the best move in the position's listing.
    best: u8,
    /// The value was reached with no estimate in it: every line searched ended the game.
    decided: bool,
}

struct Search<'a> {
    side: Player,
    table: HashMap<u64, Entry>,
    node_limit: u64,
    stop: &'a mut Stop,
    work: &'a mut Work,
    aborted: bool,
    /// How many times a value rested on an estimate (a horizon, an undecided remembered value, an abort): a
    /// search that leaves it unchanged proved its value (see [`RootMove::proven`]).
    estimates: u64,
}

/// Searches `state` (a position in play) for `side`. The moves that cannot be best are only bounded; with
/// `every_move` (analysis) each is then searched again, to the depth the best one was, for its own value and
/// line, so that the best move, its value and its line are exactly those of the search without it.
pub(super) fn search<G: Judge>(
    state: &G,
    side: Player,
    limits: &Limits,
    every_move: bool,
    stop: &mut Stop,
    work: &mut Work,
) -> Found {
    let mut listed = MoveList::new();
    state.legal_moves(&mut listed);
    let mut root: Vec<(Move, G)> = listed
        .iter()
        .filter_map(|mv| {
            let mut child = state.clone();
            child.play(mv, &mut NoTrace).ok().map(|()| (*mv, child))
        })
        .collect();
    let mut results: Vec<RootMove> = root
        .iter()
        .map(|(mv, child)| RootMove {
            mv: *mv,
            value: value_now(child, side),
            visits: 0,
            proven: child.status() != Status::InProgress,
            line: vec![*mv],
        })
        .collect();
    sort_results(&mut results);
    let max_depth = limits.max_depth.clamp(1, MAX_DEPTH);
    let mut search = Search {
        side,
        table: HashMap::new(),
        node_limit: limits.iterations,
        stop,
        work,
        aborted: false,
        estimates: 0,
    };
    let mut pace = Pace::default();
    for depth in 1..=max_depth {
        // The last iteration's order: its best move first.
        root.sort_by_key(|(mv, _)| results.iter().position(|r| r.mv == *mv));
        let mut this: Vec<RootMove> = Vec::with_capacity(root.len());
        let mut alpha = 0.0f64;
        let (nodes_before, estimates_before) = (search.work.nodes, search.estimates);
        for (mv, child) in &root {
            let before = search.estimates;
            let value = search.value(child, depth - 1, alpha, 1.0);
            if search.aborted {
                break;
            }
            alpha = alpha.max(value);
            search.work.iterations += 1;
            this.push(RootMove {
                mv: *mv,
                value,
                visits: depth,
                proven: search.estimates == before,
                line: vec![*mv],
            });
        }
        if search.aborted {
            refute(&mut results, &this);
            break;
        }
        sort_results(&mut this);
        pace.completed(&results, &this, search.work.nodes - nodes_before);
        results = this;
        search.work.depth = depth;
        // Settled: no value of this iteration rested on an estimate (every line ended the game), so a deeper one
        // would find exactly the same; or every move ends the game.
        let decided = search.estimates == estimates_before
            || root
                .iter()
                .all(|(_, child)| child.status() != Status::InProgress);
        let left = search.node_limit.saturating_sub(search.work.nodes);
        if decided || pace.settled_beyond(left) {
            break;
        }
    }
    // The depth the choice was searched to: one more than the last completed iteration's when a cut-short one
    // refuted its best move (see [`refute`]); analysis values the other moves to the same depth.
    let depth = results
        .first()
        .map_or(search.work.depth, |r| r.visits.max(search.work.depth));
    if every_move && depth >= 1 {
        value_the_others(&mut search, &root, &mut results, depth);
    }
    let pv = principal_variation(state, results.first().map(|r| r.mv), &search.table, depth);
    if every_move {
        for r in &mut results {
            r.line = principal_variation(state, Some(r.mv), &search.table, depth);
        }
    }
    Found { moves: results, pv }
}

/// How the iterations went, to decide whether the next one is worth starting: the nodes of the last two, and
/// how many in a row kept the same best move.
#[derive(Default)]
struct Pace {
    last: u64,
    before: u64,
    same_best: u32,
}

impl Pace {
    /// An iteration completed in `nodes` nodes, finding `now` after `was`.
    fn completed(&mut self, was: &[RootMove], now: &[RootMove], nodes: u64) {
        let same = matches!((was.first(), now.first()), (Some(a), Some(b)) if a.mv == b.mv);
        self.same_best = if same { self.same_best + 1 } else { 0 };
        (self.before, self.last) = (self.last, nodes.max(1));
    }

    /// Whether to stop with `left` nodes of the budget: the best move has been the same for the last three
    /// iterations (a quiet position) and the next one, growing as the last did, would not finish within them
    /// (an iteration cut short only refutes the best move, see [`refute`]: in a quiet position it would rarely
    /// find one, so those nodes are saved). A sharp position, whose best move still changes, spends the
    /// budget to its end.
    fn settled_beyond(&self, left: u64) -> bool {
        if self.same_best < 2 || self.before == 0 {
            return false;
        }
        let growth = (self.last as f64 / self.before as f64).max(1.0);
        (self.last as f64 * growth) > left as f64
    }
}

/// An iteration cut short by the budget still counts where it is sure: it searched the previous best move
/// first, to the new depth; a move it then completed with a higher value is better at that depth, and becomes
/// the choice (with the value it was searched to). Otherwise the last completed iteration's results stand.
fn refute(results: &mut [RootMove], partial: &[RootMove]) {
    let (Some(first), Some(best)) = (
        partial.first(),
        partial.iter().max_by(|a, b| a.value.total_cmp(&b.value)),
    ) else {
        return;
    };
    if best.value <= first.value || results.first().map(|r| r.mv) != Some(first.mv) {
        return;
    }
    let Some(at) = results.iter().position(|r| r.mv == best.mv) else {
        return;
    };
    results[at] = best.clone();
    results[..=at].rotate_right(1);
}

/// Analysis: each root move after the best, bounded by the search, searched again to `depth` with the full
/// window for its own value (and its table entries, for its line). The best move keeps its value; the search's
/// node budget no longer applies (the engine's work meter, a cancelled call or a time limit still stop it, and a
/// move it had no time for keeps its bound).
fn value_the_others<G: Judge>(
    search: &mut Search<'_>,
    root: &[(Move, G)],
    results: &mut [RootMove],
    depth: u32,
) {
    search.node_limit = u64::MAX;
    for r in results.iter_mut().skip(1) {
        let Some((_, child)) = root.iter().find(|(mv, _)| *mv == r.mv) else {
            continue;
        };
        let before = search.estimates;
        let value = search.value(child, depth - 1, 0.0, 1.0);
        if search.aborted {
            break;
        }
        r.value = value;
        r.proven = search.estimates == before;
    }
    // Best first still; among the others, by their own values.
    if let Some(others) = results.get_mut(1..) {
        sort_results(others);
    }
}

/// The value for `side` of `state` whoever is to move, searched by iterative deepening within `nodes` more
/// nodes: what a choice between games is worth, judged by the game it opens.
pub(super) fn evaluate<G: Judge>(
    state: &G,
    side: Player,
    nodes: u64,
    limits: &Limits,
    stop: &mut Stop,
    work: &mut Work,
) -> f64 {
    let max_depth = limits.max_depth.clamp(1, MAX_DEPTH);
    let node_limit = work.nodes.saturating_add(nodes);
    let mut search = Search {
        side,
        table: HashMap::new(),
        node_limit,
        stop,
        work,
        aborted: false,
        estimates: 0,
    };
    let mut value = value_now(state, side);
    for depth in 1..=max_depth {
        let v = search.value(state, depth, 0.0, 1.0);
        if search.aborted {
            break;
        }
        value = v;
        search.work.depth = search.work.depth.max(depth);
        if state.status() != Status::InProgress {
            break;
        }
    }
    value
}

/// The value of a position as it stands: its outcome once play stopped, its estimate otherwise.
fn value_now<G: Judge>(state: &G, side: Player) -> f64 {
    if state.status() == Status::InProgress {
        state.estimate(side)
    } else {
        state.outcome(side)
    }
}

/// Best value first; a stable sort keeps the listing order among equals.
fn sort_results(results: &mut [RootMove]) {
    results.sort_by(|a, b| b.value.total_cmp(&a.value));
}

impl Search<'_> {
    /// The value of `state` for the searched side, searched `depth` plies deep within the window.
    fn value<G: Judge>(&mut self, state: &G, depth: u32, mut alpha: f64, mut beta: f64) -> f64 {
        self.work.nodes += 1;
        if self.work.nodes >= self.node_limit
            || (self.work.nodes % 256 == 0 && self.stop.now(self.work))
        {
            self.aborted = true;
        }
        if self.aborted {
            self.estimates += 1;
            return 0.5;
        }
        if state.status() != Status::InProgress {
            return value_now(state, self.side);
        }
        let Some(mover) = state.to_move().filter(|_| depth > 0) else {
            // The horizon: the estimate stands in for the rest of the game.
            self.estimates += 1;
            return value_now(state, self.side);
        };
        let before = self.estimates;
        let key = state.key();
        let remembered = self.table.get(&key).copied();
        if let Some(entry) = remembered {
            if entry.depth as u32 >= depth {
                if !entry.decided {
                    self.estimates += 1;
                }
                let v = entry.value as f64;
                match entry.bound {
                    Bound::Exact => return v,
                    Bound::Lower => alpha = alpha.max(v),
                    Bound::Upper => beta = beta.min(v),
                }
                if alpha >= beta {
                    return v;
                }
            }
        }
        let mut listed = MoveList::new();
        state.legal_moves(&mut listed);
        let mut children: ArrayVec<(u8, f64, G), 64> = ArrayVec::new();
        for (i, mv) in listed.iter().enumerate() {
            let mut child = state.clone();
            if child.play(mv, &mut NoTrace).is_ok() {
                self.work.plies += 1;
                let guess = if depth >= 2 {
                    value_now(&child, self.side)
                } else {
                    0.0
                };
                children.push((i as u8, guess, child));
            }
        }
        if children.is_empty() {
            self.estimates += 1;
            return value_now(state, self.side);
        }
        let maximising = mover == self.side;
        // Move ordering: the remembered best move, then the most promising for the mover by the estimate.
        if depth >= 2 {
            children.sort_by(|a, b| {
                if maximising {
                    b.1.total_cmp(&a.1)
                } else {
                    a.1.total_cmp(&b.1)
                }
            });
        }
        if let Some(entry) = remembered {
            if let Some(at) = children.iter().position(|c| c.0 == entry.best) {
                children[..=at].rotate_right(1);
            }
        }
        let (start_alpha, start_beta) = (alpha, beta);
        let mut best_index = children[0].0;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for (index, _, child) in &children {
            let v = self.value(child, depth - 1, alpha, beta);
            if self.aborted {
                self.estimates += 1;
                return 0.5;
            }
            if maximising {
                if v > best {
                    best = v;
                    best_index = *index;
                }
                alpha = alpha.max(v);
            } else {
                if v < best {
                    best = v;
                    best_index = *index;
                }
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= start_alpha {
            Bound::Upper
        } else if best >= start_beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() >= MAX_ENTRIES {
            self.table.clear();
        }
        self.table.insert(
            key,
            Entry {
                depth: depth.min(u8::MAX as u32) as u8,
                bound,
                value: best as f32,
                best: best_index,
                decided: self.estimates == before,
            },
        );
        best
    }
}

/// The best line as the table remembers it, from the root's best move.
fn principal_variation<G: Judge>(
    state: &G,
    first: Option<Move>,
    table: &HashMap<u64, Entry>,
    depth: u32,
) -> Vec<Move> {
    let mut pv = Vec::new();
    let Some(first) = first else { return pv };
    let mut position = state.clone();
    if position.play(&first, &mut NoTrace).is_err() {
        return pv;
    }
    pv.push(first);
    let mut listed = MoveList::new();
    while (pv.len() as u32) < depth && position.status() == Status::InProgress {
        let Some(entry) = table.get(&position.key()) else {
            break;
        };
        listed.clear();
        position.legal_moves(&mut listed);
        let Some(mv) = listed.get(entry.best as usize).copied() else {
            break;
        };
        if position.play(&mv, &mut NoTrace).is_err() {
            break;
        }
        pv.push(mv);
    }
    pv
}
