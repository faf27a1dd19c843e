//! The arena behind `mancala arena`: whole matches between two built-in opponents, seats alternating, on every
//! core, and the statistics that say which is stronger (score, Elo difference with a 95 % interval) and how
//! long each takes to think.
//!
//! Everything here is deterministic for a seed except the move times: match `i` is played by bots seeded from
//! the arena's seed and `i`, and the tally does not depend on which thread played which match.

pub mod cli;

use crate::engine::across_turns::{AcrossTurns, Ending};
use crate::engine::search::{self, Bot, Thinker};
use crate::engine::{AnyGame, EndReason, Event, GameKind, Move, Options, PitSet, Player, Status};
use std::time::{Duration, Instant};

/// A match longer than this many moves (the `NextGame` steps included) is stopped and adjudicated by the match
/// standing ([`adjudicate`]). The rules of endless play (§1: repetition, the match length) end every match long
/// before it; the cap stays as a guard, and the arena counts the matches it stopped ([`MatchEnd::Cap`]).
pub const MAX_MATCH_PLIES: u32 = 20_000;

/// Every match opens with this many random moves, the same for both matches of a pair (matches 2k and 2k + 1,
/// seats swapped): the searching levels play the same move in the same position, so without it every match
/// with the same seats would be the same match.
pub const OPENING_PLIES: u32 = 4;

/// One side of the arena: a named level, or an algorithm with a budget.
#[derive(Clone, Debug, PartialEq)]
pub struct Contender {
    /// How it is written on the command line (`4`, `mcts:5000`).
    pub name: String,
    /// How it thinks.
    pub thinker: Thinker,
}

impl Contender {
    /// `LEVEL` (1 to the top level) or `ALGORITHM[:ITERATIONS[:DEPTH]]` (`random`, `greedy`, `mcts:5000`,
    /// `alphabeta:20000:6`).
    pub fn parse(kind: GameKind, text: &str) -> std::result::Result<Contender, String> {
        if let Ok(level) = text.parse::<u32>() {
            let thinker = search::level(kind, level).ok_or_else(|| {
                format!(
                    "level {level} does not exist: levels go from 1 to {}",
                    search::TOP_LEVEL
                )
            })?;
            return Ok(Contender {
                name: format!("level {level}"),
                thinker,
            });
        }
        let mut parts = text.split(':');
        let name = parts.next().unwrap_or_default();
        let algorithm = search::Algorithm::parse(name).ok_or_else(|| {
            format!(
                "`{text}` is neither a level (1 to {}) nor random, greedy, alphabeta:N or mcts:N",
                search::TOP_LEVEL
            )
        })?;
        let mut limits = search::Limits::iterations(0);
        if let Some(iterations) = parts.next() {
            limits.iterations = iterations
                .parse()
                .map_err(|_| format!("`{iterations}` in `{text}` is not a number of iterations"))?;
        } else if matches!(
            algorithm,
            search::Algorithm::Mcts | search::Algorithm::AlphaBeta
        ) {
            return Err(format!("`{text}` needs a budget: {name}:ITERATIONS"));
        }
        if let Some(depth) = parts.next() {
            limits.max_depth = depth
                .parse()
                .map_err(|_| format!("`{depth}` in `{text}` is not a depth"))?;
        }
        Ok(Contender {
            name: text.to_string(),
            thinker: Thinker { algorithm, limits },
        })
    }
}

/// How one match ended, from the first contender's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first contender won.
    Win,
    /// Neither won (no winner, or level at the move cap).
    Draw,
    /// The second contender won.
    Loss,
}

/// What ended a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchEnd {
    /// The game's own rules (a target reached, a player out of stones, two games won).
    Rules,
    /// A game ended by repetition (§1) decided the match.
    Repetition,
    /// The match reached its most games (Bosh: rounds) and its leader won, or it was level (§1 "Match length").
    MatchLength,
    /// Stopped at [`MAX_MATCH_PLIES`] and adjudicated: a sign that the rules of endless play did not end it.
    Cap,
}

impl MatchEnd {
    /// Every kind, in report order.
    pub const ALL: [MatchEnd; 4] = [
        MatchEnd::Rules,
        MatchEnd::Repetition,
        MatchEnd::MatchLength,
        MatchEnd::Cap,
    ];

    /// The name in reports (`rules`, `repetition`, `match_length`, `cap`).
    pub fn name(self) -> &'static str {
        match self {
            MatchEnd::Rules => "rules",
            MatchEnd::Repetition => "repetition",
            MatchEnd::MatchLength => "match_length",
            MatchEnd::Cap => "cap",
        }
    }
}

/// One match played.
#[derive(Clone, Debug)]
pub struct Played {
    /// Its index, which decides seats and seeds.
    pub index: u64,
    /// The result for the first contender.
    pub result: Outcome,
    /// What ended it.
    pub end: MatchEnd,
    /// Games (Bosh: rounds) of it that ended by repetition.
    pub repetitions: u32,
    /// Moves played.
    pub plies: u32,
    /// Each contender's thinking time per decision, `[first, second]`.
    pub think: [Vec<Duration>; 2],
}

/// The seed of one bot in one match.
fn bot_seed(seed: u64, index: u64, contender: u64) -> u64 {
    let mut x = seed
        ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ contender.wrapping_mul(0xD1B5_4A32_D192_ED03);
    x ^= x >> 31;
    x.wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// Plays match `index` of `kind` between `a` and `b`: `a` sits South in even matches, North in odd ones, after
/// the pair's random opening ([`OPENING_PLIES`]).
pub fn play_match(kind: GameKind, a: &Contender, b: &Contender, seed: u64, index: u64) -> Played {
    let a_seat = if index % 2 == 0 {
        Player::South
    } else {
        Player::North
    };
    let mut bots = [
        Bot::new(a.thinker, bot_seed(seed, index, 0)),
        Bot::new(b.thinker, bot_seed(seed, index, 1)),
    ];
    let contender_of = |seat: Player| usize::from(seat != a_seat);
    let options = Options::default();
    let mut game = AnyGame::new_match(kind, &options);
    // §1's rules of endless play, as a server-held match applies them.
    let mut across = AcrossTurns::start(kind, &options, &game);
    let mut trace = Vec::new();
    let mut ending = None;
    let mut repetitions = 0;
    let mut opening = crate::engine::Rng::new(bot_seed(seed, index / 2, 2));
    for _ in 0..OPENING_PLIES {
        let moves = game.legal_moves();
        let Some(mover) = game.to_move().filter(|_| !moves.is_empty()) else {
            break;
        };
        let mv = moves[opening.below(moves.len())];
        trace.clear();
        if game.play(&mv, &mut trace).is_err() {
            break;
        }
        across.after_move(&mut game, mover, &mut trace);
    }
    let mut think = [Vec::new(), Vec::new()];
    let mut plies = 0;
    while game.status() != Status::MatchOver
        && ending != Some(Ending::MatchLength)
        && plies < MAX_MATCH_PLIES
    {
        let mover = game.to_move().unwrap_or(Player::South);
        let mv = if game.status() == Status::InProgress {
            let Some(mover) = game.to_move() else { break };
            let c = contender_of(mover);
            let started = Instant::now();
            let Some(mut suggestion) = bots[c].choose(&game, None) else {
                break;
            };
            search::steer(&mut suggestion, &game, &across);
            think[c].push(started.elapsed());
            suggestion.best
        } else {
            // Between games each player makes his own part of the choice (Bosh: his holes; Ba-awa: the pits a
            // surplus player takes); the parts are disjoint, so the move is their union.
            let mut chosen = PitSet::EMPTY;
            for seat in Player::BOTH {
                let c = contender_of(seat);
                let started = Instant::now();
                if let Some(suggestion) = bots[c].choose(&game, Some(seat)) {
                    think[c].push(started.elapsed());
                    if let Move::NextGame(part) = suggestion.best {
                        chosen = PitSet(chosen.0 | part.0);
                    }
                }
            }
            Move::NextGame(chosen)
        };
        trace.clear();
        if game.play(&mv, &mut trace).is_err() {
            // A bot's move is always legal (the tests hold it to that); stopping keeps a bug visible as a
            // draw rather than a panic across threads.
            break;
        }
        ending = across.after_move(&mut game, mover, &mut trace);
        if ended_by_repetition(&trace) {
            repetitions += 1;
        }
        plies += 1;
    }
    let (winner, end) = match (game.status(), ending) {
        (_, Some(Ending::MatchLength)) => (game.match_leader(), MatchEnd::MatchLength),
        (Status::MatchOver, Some(Ending::Game(_))) => (game.winner(), MatchEnd::Repetition),
        (Status::MatchOver, _) => (game.winner(), MatchEnd::Rules),
        _ => (adjudicate(&game), MatchEnd::Cap),
    };
    let result = match winner {
        Some(w) if w == a_seat => Outcome::Win,
        Some(_) => Outcome::Loss,
        None => Outcome::Draw,
    };
    Played {
        index,
        result,
        end,
        repetitions,
        plies,
        think,
    }
}

/// Whether a move's events end a game or round by repetition (the move that also reached the match length, whose
/// ending reports only the length).
fn ended_by_repetition(trace: &[Event]) -> bool {
    trace.iter().any(|event| {
        matches!(
            event,
            Event::GameEnd {
                reason: EndReason::Repetition,
                ..
            } | Event::RoundEnd {
                reason: EndReason::Repetition,
                ..
            }
        )
    })
}

/// The winner of a match stopped at the move cap: the player ahead in the match standing (games won in Bao la
/// Kete, stones held in Bosh, pits owned in Ba-awa), nobody when it is level.
pub fn adjudicate(game: &AnyGame) -> Option<Player> {
    let standing = game.to_setup().match_score;
    match standing.first().cmp(&standing.get(1)) {
        std::cmp::Ordering::Greater => Some(Player::South),
        std::cmp::Ordering::Less => Some(Player::North),
        std::cmp::Ordering::Equal => None,
    }
}

/// Wins, draws and losses of the first contender, and what they say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Matches the first contender won.
    pub wins: u64,
    /// Matches without a winner.
    pub draws: u64,
    /// Matches the second contender won.
    pub losses: u64,
}

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_964;

impl Tally {
    /// Adds one result.
    pub fn add(&mut self, result: Outcome) {
        match result {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Matches counted.
    pub fn matches(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The first contender's score, 0 to 1 (a draw is half a win).
    pub fn score(&self) -> f64 {
        let n = self.matches();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The 95 % interval of the score: Wilson's interval, which stays inside 0 to 1 and is not empty when
    /// every match went one way (draws make it a little wider than it need be).
    pub fn score_interval(&self) -> (f64, f64) {
        let n = self.matches() as f64;
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let s = self.score();
        let z2 = Z95 * Z95;
        let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// The Elo difference a score means (infinite at 0 and 1).
    pub fn elo(score: f64) -> f64 {
        if score <= 0.0 {
            return f64::NEG_INFINITY;
        }
        if score >= 1.0 {
            return f64::INFINITY;
        }
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The `q`-th quantile (0 to 1) of some durations.
pub fn quantile(times: &mut [Duration], q: f64) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    times.sort_unstable();
    let at = ((times.len() - 1) as f64 * q).round() as usize;
    times[at]
}
