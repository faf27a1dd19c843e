//! The built-in opponents: pure, synchronous searches over the engine's own rules, deterministic for a seed.
//!
//! Four algorithms ([`Algorithm`]): uniformly random moves; a greedy one-ply player (the best estimate after
//! one move); alpha-beta to a growing depth over a per-game estimate ([`alphabeta`]); and Monte Carlo tree
//! search ([`mcts`]). [`level`] names fixed algorithm-and-budget pairs per game, measured by `mancala arena`
//! (BENCHMARKS.md "Built-in opponents"). A [`Bot`] plays a whole match, keeping its search tree between moves.
//!
//! A search looks as far as the end of the game (or Bosh round) in play; between games it chooses the next
//! game's opening (Bosh's holes, Ba-awa's pits) by searching the games each choice leads to. Values are the
//! expected score for the side searched for, 0 to 1, of that game as [`Judge`] values it.
//!
//! Budgets are counted in iterations (playouts, or alpha-beta nodes), so a level gives the same move on every
//! machine; an optional time limit stops a search early (and then the answer depends on the machine's speed).
//! A search honours the engine's work meter ([`Budget`](super::Budget)): a cancelled call stops it at once.

mod alphabeta;
mod judge;
mod mcts;
mod repetition;

pub use judge::Judge;
pub use repetition::steer;

use super::{AnyGame, BaAwa, BaoLaKete, Bosh, Move, MoveList, NoTrace, Player, Rng, Status};
use std::time::{Duration, Instant};

/// How a bot chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// A uniformly random legal move.
    Random,
    /// The move whose position scores best by the game's estimate, one ply deep.
    Greedy,
    /// Alpha-beta, deepened while its node budget lasts.
    AlphaBeta,
    /// Monte Carlo tree search (UCT) with random playouts.
    Mcts,
}

impl Algorithm {
    /// The name used on the command line and in the protocol's docs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Random => "random",
            Algorithm::Greedy => "greedy",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Mcts => "mcts",
        }
    }

    /// The algorithm of that name.
    pub fn parse(name: &str) -> Option<Algorithm> {
        [
            Algorithm::Random,
            Algorithm::Greedy,
            Algorithm::AlphaBeta,
            Algorithm::Mcts,
        ]
        .into_iter()
        .find(|a| a.name() == name)
    }
}

/// An algorithm and its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Thinker {
    /// How moves are chosen.
    pub algorithm: Algorithm,
    /// The budget: playouts for Monte Carlo search, nodes for alpha-beta (ignored by the others).
    pub limits: Limits,
}

impl Thinker {
    /// About how many moves this search plays (the laps it spends, see [`Stop`]), told from its budget alone:
    /// alpha-beta visits at most its nodes, and at most about eight moves a ply to its depth; a Monte Carlo
    /// iteration plays a playout of some dozens of moves; the one-ply players play a move or so each. Only an
    /// estimate, to choose where a search runs: its budget of laps still bounds what it really spends.
    pub fn expected_plies(&self) -> u64 {
        /// Moves a ply searched, about: Bosh and Ba-awa have at most six, Bao la Kete's pruned tree about as many.
        const BRANCHING: u64 = 8;
        /// Moves of a Monte Carlo playout, about.
        const PLAYOUT: u64 = 40;
        let limits = &self.limits;
        match self.algorithm {
            Algorithm::Random | Algorithm::Greedy => 0,
            Algorithm::AlphaBeta => limits
                .iterations
                .min(BRANCHING.saturating_pow(limits.max_depth)),
            Algorithm::Mcts => limits.iterations.saturating_mul(PLAYOUT),
        }
    }
}

/// A search's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Playouts (Monte Carlo) or nodes (alpha-beta).
    pub iterations: u64,
    /// Alpha-beta's deepest iteration.
    pub max_depth: u32,
    /// Stop early after this long (makes the answer depend on the machine).
    pub time: Option<Duration>,
}

impl Limits {
    /// `iterations` with no depth cap and no time limit.
    pub fn iterations(iterations: u64) -> Limits {
        Limits {
            iterations,
            max_depth: 64,
            time: None,
        }
    }
}

/// The strongest level.
pub const TOP_LEVEL: u32 = 6;

/// The thinker of a named level of `kind`, 1 (random) to [`TOP_LEVEL`]; each level beats the one below it
/// (BENCHMARKS.md "Built-in opponents" has the ladder and the move times).
///
/// Levels 3 to 6 are alpha-beta: measured at equal thinking time, it beat Monte Carlo search in all three games
/// (BENCHMARKS.md). Bao la Kete's levels grow by nodes. Bosh and Ba-awa are small enough that a few thousand
/// nodes already see most of what more would, so their levels 3 to 5 are held to a depth instead (Bosh 2, 4 and
/// 6 moves; Ba-awa 2, 6 and 8, where depths 3 and 4 were hardly stronger than 2), and level 6 searches as deep
/// as its nodes allow.
pub fn level(kind: super::GameKind, level: u32) -> Option<Thinker> {
    use super::GameKind::{BaAwa, BaoLaKete, Bosh};
    let alphabeta = |nodes: u64, depth: u32| Thinker {
        algorithm: Algorithm::AlphaBeta,
        limits: Limits {
            max_depth: depth,
            ..Limits::iterations(nodes)
        },
    };
    const FULL_DEPTH: u32 = 64;
    Some(match (kind, level) {
        (_, 1) => Thinker {
            algorithm: Algorithm::Random,
            limits: Limits::iterations(0),
        },
        (_, 2) => Thinker {
            algorithm: Algorithm::Greedy,
            limits: Limits::iterations(0),
        },
        (BaoLaKete, 3) => alphabeta(1_000, FULL_DEPTH),
        (BaoLaKete, 4) => alphabeta(5_000, FULL_DEPTH),
        (BaoLaKete, 5) => alphabeta(25_000, FULL_DEPTH),
        (Bosh | BaAwa, 3) => alphabeta(150_000, 2),
        (Bosh, 4) => alphabeta(150_000, 4),
        (Bosh, 5) => alphabeta(150_000, 6),
        (BaAwa, 4) => alphabeta(150_000, 6),
        (BaAwa, 5) => alphabeta(150_000, 8),
        (_, 6) => alphabeta(150_000, FULL_DEPTH),
        _ => return None,
    })
}

/// The work a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Playouts (Monte Carlo) or root moves searched to their depth, over every iteration (alpha-beta).
    pub iterations: u64,
    /// Nodes in the tree (Monte Carlo) or visited (alpha-beta).
    pub nodes: u64,
    /// Moves played, in the tree and in playouts.
    pub plies: u64,
    /// Alpha-beta's deepest completed iteration.
    pub depth: u32,
    /// Time spent.
    pub elapsed: Duration,
}

/// One legal move and what the search thinks of it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Expected score for the side searched for after it, 0 to 1.
    pub value: f64,
    /// Playouts through it (Monte Carlo) or the depth it was searched to (alpha-beta).
    pub visits: u64,
    /// `value` is exact, not an estimate: every line the search weighed after the move ended the game (a move
    /// that ends it; alpha-beta's search that reached only finished games).
    pub proven: bool,
    /// The line the search expects after the move, starting with it (analysis; a choice has only the best
    /// move's, in [`Suggestion::pv`]).
    pub line: Vec<Move>,
}

/// What a bot would play, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    /// For whom the search was made: the player to move, or between games the chooser.
    pub side: Player,
    /// The move to play.
    pub best: Move,
    /// Its expected score for `side`, 0 to 1.
    pub value: f64,
    /// The line the search expects, starting with `best`.
    pub pv: Vec<Move>,
    /// Every move considered, best first.
    pub moves: Vec<MoveValue>,
    /// The work done.
    pub work: Work,
}

/// Stops a search on its time limit, or when the engine's work meter is spent or says the call is cancelled.
///
/// A search spends one lap of the running [`Budget`](super::Budget) per move it plays (besides the laps of long
/// relays, which every move spends): its cost is then known while it runs, so that the engine pool can try a
/// search expected short on a lane of short work and move it to the long lane only when it turns out long.
pub(crate) struct Stop {
    started: Instant,
    time: Option<Duration>,
    calls: u32,
    /// The plies already spent from the meter.
    spent: u64,
    stopped: bool,
}

impl Stop {
    fn new(limits: &Limits) -> Stop {
        Stop {
            started: Instant::now(),
            time: limits.time,
            calls: 0,
            spent: 0,
            stopped: false,
        }
    }

    /// Whether to stop now (looks at the clock and the meter every 16th time it is asked, and spends the plies
    /// played since the last look).
    fn now(&mut self, work: &Work) -> bool {
        if self.stopped {
            return true;
        }
        self.calls = self.calls.wrapping_add(1);
        if self.calls % 16 == 0 {
            let late = self
                .time
                .is_some_and(|limit| self.started.elapsed() >= limit);
            let plies = work.plies.saturating_sub(self.spent);
            self.spent = work.plies;
            self.stopped = late || !super::work::spend(plies) || super::work::interrupted();
        }
        self.stopped
    }
}

/// A built-in opponent: a thinker and its seeded generator, keeping its Monte Carlo tree from move to move.
#[derive(Clone, Debug)]
pub struct Bot {
    thinker: Thinker,
    rng: Rng,
    tree: Trees,
}

/// The bot's tree, of whichever game it last searched.
#[derive(Clone, Debug)]
enum Trees {
    None,
    BaoLaKete(mcts::Tree<BaoLaKete>),
    BaAwa(mcts::Tree<BaAwa>),
    Bosh(mcts::Tree<Bosh>),
}

/// The tree of game `G` in a [`Trees`], replacing another game's.
macro_rules! tree_of {
    ($trees:expr, $variant:ident) => {{
        if !matches!($trees, Trees::$variant(_)) {
            *$trees = Trees::$variant(mcts::Tree::default());
        }
        match $trees {
            Trees::$variant(tree) => tree,
            _ => unreachable!("just set"),
        }
    }};
}

impl Bot {
    /// A bot thinking as `thinker`, its random choices drawn from `seed`.
    pub fn new(thinker: Thinker, seed: u64) -> Bot {
        Bot {
            thinker,
            rng: Rng::new(seed),
            tree: Trees::None,
        }
    }

    /// How this bot thinks.
    pub fn thinker(&self) -> Thinker {
        self.thinker
    }

    /// The move this bot plays in `game` for `side` (the player to move; between games, the player choosing the
    /// next game's opening, by default [`Judge::default_chooser`]). `None` when there is no move (the match is
    /// over).
    pub fn choose(&mut self, game: &AnyGame, side: Option<Player>) -> Option<Suggestion> {
        self.think(game, side, false)
    }

    /// Like [`Bot::choose`], and the same choice, value and line, but every move gets its own value and line (after
    /// alpha-beta's search, each move it only bounded is searched again to the same depth with a full window).
    pub fn analyze(&mut self, game: &AnyGame, side: Option<Player>) -> Option<Suggestion> {
        self.think(game, side, true)
    }

    fn think(
        &mut self,
        game: &AnyGame,
        side: Option<Player>,
        every_move: bool,
    ) -> Option<Suggestion> {
        let (thinker, rng, trees) = (self.thinker, &mut self.rng, &mut self.tree);
        match game {
            AnyGame::BaoLaKete(g) => think(
                thinker,
                rng,
                tree_of!(trees, BaoLaKete),
                g,
                side,
                every_move,
            ),
            AnyGame::BaAwa(g) => think(thinker, rng, tree_of!(trees, BaAwa), g, side, every_move),
            AnyGame::Bosh(g) => think(thinker, rng, tree_of!(trees, Bosh), g, side, every_move),
        }
    }
}

/// One decision of a bot, in one game's concrete type (the searches run monomorphised).
fn think<G: Judge + PartialEq>(
    thinker: Thinker,
    rng: &mut Rng,
    tree: &mut mcts::Tree<G>,
    game: &G,
    side: Option<Player>,
    every_move: bool,
) -> Option<Suggestion> {
    let between_games = game.status() != Status::InProgress;
    let side = match game.to_move() {
        Some(mover) if !between_games => mover,
        _ => side.unwrap_or_else(|| game.default_chooser()),
    };
    let mut moves = MoveList::new();
    if between_games {
        game.choices(side, &mut moves);
    } else {
        game.legal_moves(&mut moves);
    }
    if moves.is_empty() {
        return None;
    }
    let limits = thinker.limits;
    let mut work = Work::default();
    let mut stop = Stop::new(&limits);
    let values = |moves: &MoveList| -> Vec<MoveValue> {
        moves
            .iter()
            .map(|&mv| {
                let (value, proven) = value_after(game, &mv, side);
                MoveValue {
                    mv,
                    value,
                    visits: 0,
                    proven,
                    line: vec![mv],
                }
            })
            .collect()
    };
    let (ranked, pv) = match thinker.algorithm {
        Algorithm::Random => {
            let pick = if between_games {
                0
            } else {
                rng.below(moves.len())
            };
            let mut ranked = values(&moves);
            let chosen = ranked.remove(pick);
            let pv = vec![chosen.mv];
            ranked.insert(0, chosen);
            (ranked, pv)
        }
        Algorithm::Greedy => {
            let mut ranked = values(&moves);
            // Ties are broken at random, so greedy play is not one fixed line.
            let best = ranked
                .iter()
                .map(|m| m.value)
                .fold(f64::NEG_INFINITY, f64::max);
            let tied: Vec<usize> = (0..ranked.len())
                .filter(|&i| ranked[i].value == best)
                .collect();
            let pick = if between_games {
                tied[0]
            } else {
                tied[rng.below(tied.len())]
            };
            let chosen = ranked.remove(pick);
            let pv = vec![chosen.mv];
            ranked.sort_by(|a, b| b.value.total_cmp(&a.value));
            ranked.insert(0, chosen);
            (ranked, pv)
        }
        // A forced move is not searched, analysed or not (so that both answer alike): its value is the position's
        // after it.
        _ if moves.len() == 1 => (values(&moves), vec![moves[0]]),
        Algorithm::AlphaBeta if !between_games => {
            let found = alphabeta::search(game, side, &limits, every_move, &mut stop, &mut work);
            (found.moves.iter().map(from_root).collect(), found.pv)
        }
        // Between games alpha-beta values each choice by searching the game it opens, sharing its nodes.
        Algorithm::AlphaBeta => {
            let share = (limits.iterations / moves.len() as u64).max(1);
            let mut ranked: Vec<MoveValue> = moves
                .iter()
                .map(|&mv| {
                    let mut next = game.clone();
                    let value = match next.play(&mv, &mut NoTrace) {
                        Ok(()) => {
                            alphabeta::evaluate(&next, side, share, &limits, &mut stop, &mut work)
                        }
                        Err(_) => 0.0,
                    };
                    work.iterations += 1;
                    MoveValue {
                        mv,
                        value,
                        visits: work.depth as u64,
                        proven: false,
                        line: vec![mv],
                    }
                })
                .collect();
            // Best first; the stable sort keeps the default choice first among equals.
            ranked.sort_by(|a, b| b.value.total_cmp(&a.value));
            let pv = vec![ranked[0].mv];
            (ranked, pv)
        }
        Algorithm::Mcts => {
            let found = tree.search(game, side, &limits, rng, &mut stop, &mut work);
            (found.moves.iter().map(from_root).collect(), found.pv)
        }
    };
    work.elapsed = stop.started.elapsed();
    let mut ranked = ranked;
    if every_move {
        // A move that ends the game has the game's score, proven, whatever searched it (Monte Carlo may not have
        // tried it). The chosen move keeps the value the choice gives it: proven if that is the score.
        for (i, m) in ranked.iter_mut().enumerate() {
            if let (score, true) = value_after(game, &m.mv, side) {
                if i > 0 {
                    m.value = score;
                }
                m.proven = m.value == score;
            }
        }
    }
    let best = ranked.first()?;
    Some(Suggestion {
        side,
        best: best.mv,
        value: best.value,
        pv,
        moves: ranked,
        work,
    })
}

fn from_root(m: &mcts::RootMove) -> MoveValue {
    MoveValue {
        mv: m.mv,
        value: m.value,
        visits: m.visits as u64,
        proven: m.proven,
        line: m.line.clone(),
    }
}

/// The value for `side` of the position after `mv`: its outcome if play stops there (proven), else its estimate.
fn value_after<G: Judge>(game: &G, mv: &Move, side: Player) -> (f64, bool) {
    let mut next = game.clone();
    if next.play(mv, &mut NoTrace).is_err() {
        return (0.0, false);
    }
    if next.status() == Status::InProgress {
        (next.estimate(side), false)
    } else {
        (next.outcome(side), true)
    }
}

/// What `thinker` plays in `game` for `side` (see [`Bot::choose`]), with a fresh bot seeded by `seed`.
pub fn suggest(
    game: &AnyGame,
    thinker: Thinker,
    side: Option<Player>,
    seed: u64,
) -> Option<Suggestion> {
    Bot::new(thinker, seed).choose(game, side)
}

/// Every move of `game` valued by `thinker` (see [`Bot::analyze`]).
pub fn analyze(
    game: &AnyGame,
    thinker: Thinker,
    side: Option<Player>,
    seed: u64,
) -> Option<Suggestion> {
    Bot::new(thinker, seed).analyze(game, side)
}
