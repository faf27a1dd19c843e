//! `mancala arena`: the command line of the arena.

use super::{play_match, quantile, Contender, MatchEnd, Played, Tally};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Play whole matches between two built-in opponents, seats alternating, and say which is stronger.
#[derive(Debug, clap::Args)]
pub struct ArenaArgs {
    /// The game: ba-awa, bosh or bao-la-kete (or with `_` for `-`).
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// The first contender: a level (1 to the top level), or random, greedy, mcts:PLAYOUTS or
    /// alphabeta:NODES[:DEPTH].
    #[arg(long = "a", value_name = "LEVEL")]
    pub a: String,
    /// The second contender, written like `--a`.
    #[arg(long = "b", value_name = "LEVEL")]
    pub b: String,
    /// Matches to play (seats alternate: the first contender is South in even-numbered matches).
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub matches: u64,
    /// Seed of the bots' random choices: the same seed plays the same matches.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seed: u64,
    /// Threads that play matches [default: one per core].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Runs `mancala arena`; an error is one line for stderr.
pub fn run(args: ArenaArgs) -> Result<(), String> {
    let kind = *crate::loadtest::parse_games(&args.game)?
        .first()
        .ok_or_else(|| "--game names no game".to_string())?;
    if args.game.contains(',') {
        return Err("--game takes one game".into());
    }
    let a = Contender::parse(kind, &args.a)?;
    let b = Contender::parse(kind, &args.b)?;
    if args.matches == 0 {
        return Err("--matches must be at least 1".into());
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(args.matches),
            indicatif::ProgressDrawTarget::stderr_with_hz(4),
        );
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}",
            )
            .expect("a valid template"),
        );
        bar.set_prefix(format!("{} vs {}", a.name, b.name));
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };

    let started = Instant::now();
    let next = AtomicU64::new(0);
    let (sender, receiver) = mpsc::channel::<Played>();
    let mut tally = Tally::default();
    let mut think: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut plies = 0u64;
    let mut ends = Ends::default();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, a, b) = (&next, &a, &b);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= args.matches {
                    break;
                }
                if sender
                    .send(play_match(kind, a, b, args.seed, index))
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(sender);
        for played in receiver {
            tally.add(played.result);
            ends.add(&played);
            plies += played.plies as u64;
            for (all, mine) in think.iter_mut().zip(played.think) {
                all.extend(mine);
            }
            bar.inc(1);
            bar.set_message(format!(
                "+{} ={} -{}  score {:.1} %",
                tally.wins,
                tally.draws,
                tally.losses,
                100.0 * tally.score()
            ));
        }
    });
    bar.finish_and_clear();
    let report = Report::new(
        kind,
        &a,
        &b,
        (tally, ends),
        &mut think,
        plies,
        started.elapsed(),
    );
    if args.json {
        println!("{}", report.json());
    } else {
        print!("{}", report.text());
    }
    Ok(())
}

/// How the matches ended: a count per kind, each match's kind by index, and the games ended by repetition.
#[derive(Default)]
struct Ends {
    counts: [u64; MatchEnd::ALL.len()],
    by_match: Vec<(u64, MatchEnd)>,
    repetitions: u64,
}

impl Ends {
    fn add(&mut self, played: &Played) {
        let at = MatchEnd::ALL.iter().position(|&e| e == played.end);
        self.counts[at.unwrap_or(0)] += 1;
        self.by_match.push((played.index, played.end));
        self.repetitions += u64::from(played.repetitions);
    }
}

/// What the arena found.
struct Report {
    game: &'static str,
    names: [String; 2],
    tally: Tally,
    ends: Ends,
    /// p50 and p99 of each contender's thinking time per decision.
    times: [(Duration, Duration); 2],
    decisions: [usize; 2],
    plies: u64,
    elapsed: Duration,
}

impl Report {
    fn new(
        kind: crate::engine::GameKind,
        a: &Contender,
        b: &Contender,
        (tally, mut ends): (Tally, Ends),
        think: &mut [Vec<Duration>; 2],
        plies: u64,
        elapsed: Duration,
    ) -> Report {
        ends.by_match.sort_unstable_by_key(|&(index, _)| index);
        let times = [0, 1].map(|i| (quantile(&mut think[i], 0.5), quantile(&mut think[i], 0.99)));
        Report {
            game: kind.name(),
            names: [a.name.clone(), b.name.clone()],
            tally,
            ends,
            times,
            decisions: [think[0].len(), think[1].len()],
            plies,
            elapsed,
        }
    }

    fn text(&self) -> String {
        let t = &self.tally;
        let (low, high) = t.score_interval();
        let elo = |s: f64| format_elo(Tally::elo(s));
        let mut out = format!(
            "{}: {} against {}, {} matches in {:.1} s ({} moves)\n",
            self.game,
            self.names[0],
            self.names[1],
            t.matches(),
            self.elapsed.as_secs_f64(),
            self.plies
        );
        out += &format!(
            "  {} won {}, drew {}, lost {}: score {:.1} % (95 %: {:.1} to {:.1} %)\n",
            self.names[0],
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score(),
            100.0 * low,
            100.0 * high
        );
        out += &format!(
            "  Elo difference {} (95 %: {} to {})\n",
            elo(t.score()),
            elo(low),
            elo(high)
        );
        out += &format!(
            "  ended by {}; {} games ended by repetition\n",
            MatchEnd::ALL
                .iter()
                .zip(self.ends.counts)
                .map(|(end, n)| format!("{} {n}", end.name()))
                .collect::<Vec<_>>()
                .join(", "),
            self.ends.repetitions
        );
        for i in 0..2 {
            out += &format!(
                "  {}: {} decisions, move time p50 {}, p99 {}\n",
                self.names[i],
                self.decisions[i],
                format_time(self.times[i].0),
                format_time(self.times[i].1)
            );
        }
        out
    }

    fn json(&self) -> String {
        let t = &self.tally;
        let (low, high) = t.score_interval();
        let finite = |x: f64| {
            if x.is_finite() {
                serde_json::json!(x)
            } else {
                serde_json::Value::Null
            }
        };
        let side = |i: usize| {
            serde_json::json!({
                "name": self.names[i],
                "decisions": self.decisions[i],
                "move_time_p50_us": self.times[i].0.as_micros() as u64,
                "move_time_p99_us": self.times[i].1.as_micros() as u64,
            })
        };
        serde_json::json!({
            "game": self.game,
            "a": side(0),
            "b": side(1),
            "matches": t.matches(),
            "wins": t.wins,
            "draws": t.draws,
            "losses": t.losses,
            "score": t.score(),
            "score_95": [low, high],
            "elo": finite(Tally::elo(t.score())),
            "elo_95": [finite(Tally::elo(low)), finite(Tally::elo(high))],
            "moves": self.plies,
            "elapsed_s": self.elapsed.as_secs_f64(),
            "ended_by": MatchEnd::ALL
                .iter()
                .zip(self.ends.counts)
                .map(|(end, n)| (end.name().to_string(), serde_json::json!(n)))
                .collect::<serde_json::Map<_, _>>(),
            "match_ends": self.ends.by_match.iter().map(|(_, end)| end.name()).collect::<Vec<_>>(),
            "games_ended_by_repetition": self.ends.repetitions,
        })
        .to_string()
    }
}

fn format_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+∞".into()
    } else if elo == f64::NEG_INFINITY {
        "−∞".into()
    } else {
        format!("{elo:+.0}")
    }
}

fn format_time(d: Duration) -> String {
    if d < Duration::from_millis(1) {
        format!("{} µs", d.as_micros())
    } else {
        format!("{:.1} ms", d.as_secs_f64() * 1000.0)
    }
}
