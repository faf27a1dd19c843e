//! `mancala perft`: the move-path counts of docs/conformance.md, on every core.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::json::Json;
use crate::engine::{
    notation,
    perft::{self, Frontier, Nodes},
    AnyGame, GameKind, Options,
};
use crate::loadtest::parse_games;

/// Count the move sequences of each length from the start of a game (or from a given state).
#[derive(Debug, clap::Args)]
pub struct PerftArgs {
    /// The game: bosh, ba_awa or bao_la_kete (not needed with --position, whose state names it).
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// The longest sequences counted: every depth from 1 to N is printed.
    #[arg(long, value_name = "N")]
    pub depth: usize,
    /// Ba-awa: 2 players, or 3 (§4.7).
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub players: u8,
    /// Start from this state instead of the start of the first game: a `GameState` in proto3 JSON (as
    /// `ListLegalMoves` returns them), given inline (starting with `{`), as a file, or `-` for stdin.
    #[arg(long, value_name = "JSON|FILE")]
    pub position: Option<String>,
    /// Also give the count at the deepest depth per first move, labelled as `ListLegalMoves` labels it.
    #[arg(long)]
    pub divide: bool,
    /// Print JSON on stdout instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Threads that count [default: one per core].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// `--json`'s report.
#[derive(serde::Serialize)]
struct Report {
    game: &'static str,
    players: usize,
    depths: Vec<Depth>,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<FirstMove>>,
}

/// The count at one depth.
#[derive(serde::Serialize)]
struct Depth {
    depth: usize,
    nodes: u64,
}

/// `--divide`: the count at the deepest depth of the sequences beginning with one move.
#[derive(serde::Serialize)]
struct FirstMove {
    r#move: String,
    nodes: u64,
}

/// The deepest count allowed: a mistyped depth must not run for days. Past the deepest published depths.
const MAX_DEPTH: usize = 40;

/// Branches per thread the count is cut into, so that threads finish close together.
const BRANCHES_PER_THREAD: usize = 64;

/// Runs `mancala perft`; an error is one line for stderr.
pub fn run(args: PerftArgs) -> Result<(), String> {
    let start = start_position(&args)?;
    if args.depth == 0 || args.depth > MAX_DEPTH {
        return Err(format!("--depth must be from 1 to {MAX_DEPTH}"));
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    let began = Instant::now();
    let frontier = count(&start, args.depth, threads);
    let seconds = began.elapsed().as_secs_f64();
    let nodes = frontier.total();
    let kind = start.kind();
    let divide: Vec<(String, u64)> = frontier
        .moves
        .iter()
        .zip(&frontier.by_first)
        .map(|(mv, n)| (notation::move_label(kind, mv), n[args.depth - 1]))
        .collect();
    if args.json {
        let report = Report {
            game: kind.slug(),
            players: start.seats(),
            depths: nodes
                .iter()
                .enumerate()
                .map(|(i, &nodes)| Depth {
                    depth: i + 1,
                    nodes,
                })
                .collect(),
            divide: args.divide.then(|| {
                divide
                    .iter()
                    .map(|(label, nodes)| FirstMove {
                        r#move: label.clone(),
                        nodes: *nodes,
                    })
                    .collect()
            }),
        };
        let text = serde_json::to_string(&report).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        println!(
            "{} ({} players), {} thread(s), {seconds:.2} s",
            kind.name(),
            start.seats(),
            threads
        );
        println!("{:>5}  {:>16}", "depth", "nodes");
        for (i, n) in nodes.iter().enumerate() {
            println!("{:>5}  {:>16}", i + 1, n);
        }
        if args.divide {
            println!("\ndepth {} per first move:", args.depth);
            for (label, n) in &divide {
                println!("  {label:<20} {n}");
            }
        }
        let total: u64 = nodes.iter().sum();
        eprintln!(
            "{total} nodes in {seconds:.2} s: {:.1} M nodes/s",
            total as f64 / seconds.max(1e-9) / 1e6
        );
    }
    Ok(())
}

/// The count of `start` to `depth` on `threads` threads: its frontier, every branch added.
pub fn count(start: &AnyGame, depth: usize, threads: usize) -> Frontier {
    let frontier = Frontier::new(start, depth, threads * BRANCHES_PER_THREAD);
    let next = AtomicUsize::new(0);
    let counted: Mutex<Vec<(usize, Nodes)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(branch) = frontier.branches.get(i) else {
                        break;
                    };
                    mine.push((
                        branch.first,
                        perft::perft(&branch.game, frontier.depth_left()),
                    ));
                }
                crate::sync::lock(&counted).extend(mine);
            });
        }
    });
    let mut frontier = frontier;
    for (first, nodes) in counted.into_inner().unwrap_or_else(|e| e.into_inner()) {
        frontier.add(first, &nodes);
    }
    frontier
}

/// The position to count from: `--position`, or the start of the first game of `--game`.
fn start_position(args: &PerftArgs) -> Result<AnyGame, String> {
    if let Some(position) = &args.position {
        let text = read_position(position)?;
        let game = Json::new()?.game_state(&text)?;
        if let Some(name) = &args.game {
            if parse_game(name)? != game.kind() {
                return Err(format!(
                    "--game {name} disagrees with the state of --position, a game of {}",
                    game.kind().name()
                ));
            }
        }
        return Ok(game);
    }
    let name = args.game.as_deref().ok_or(
        "--game is required (bosh, ba_awa or bao_la_kete) unless --position gives a state",
    )?;
    let kind = parse_game(name)?;
    let mut options = Options::default();
    match (kind, args.players) {
        (_, 2) => {}
        (GameKind::BaAwa, 3) => options.ba_awa_players = 3,
        (GameKind::BaAwa, n) => return Err(format!("--players {n}: Ba-awa is played by 2 or 3")),
        (_, n) => {
            return Err(format!(
                "--players {n}: only Ba-awa has a three-player game"
            ))
        }
    }
    Ok(AnyGame::new_match(kind, &options))
}

/// `--game`'s one game.
fn parse_game(name: &str) -> Result<GameKind, String> {
    match parse_games(name)?.as_slice() {
        [kind] if !name.contains(',') => Ok(*kind),
        _ => Err(format!(
            "--game {name}: name one game (bosh, ba_awa or bao_la_kete)"
        )),
    }
}

/// `--position`'s text: inline JSON, a file, or stdin.
fn read_position(position: &str) -> Result<String, String> {
    if position.trim_start().starts_with('{') {
        return Ok(position.to_string());
    }
    if position == "-" {
        return std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read --position from stdin: {e}"));
    }
    std::fs::read_to_string(position).map_err(|e| format!("cannot read --position {position}: {e}"))
}
