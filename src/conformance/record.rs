//! The recorder: whole matches of every game and option, played by seeded random choices and by the built-in
//! bots, written step by step as the suite the runner replays (`conformance/rules-vN/`, N the rules version).
//!
//! Each line is one step: `match`, `step`, the `state`, `moves` (every legal move as `ListLegalMoves` answers it:
//! the move, its resulting state and events, its label), and `played`, the move played next (absent at the end
//! of a match, or where the recording stopped). A long match is not recorded whole: its opening, a few steps
//! around its first and last ends of a game or round, and its end (each line is a position of its own, so the
//! runner needs no step before it). A match's first line also carries `newGame`, the request whose
//! answer is its state. The answers are this build's own Rules answers, made in process as the server makes them.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::json::Json;
use crate::api::{convert, pb};
use crate::engine::{
    search, AnyGame, GameKind, Move, NoTrace, Options, Player, Rng, StarterRule, Status,
    RULES_VERSION,
};

/// The longest match played: a match of bots that never ends is cut here (its last line has no `played`).
const MAX_PLIES: usize = 3000;
/// Every step of a match's opening is recorded.
const OPENING: usize = 24;
/// Around an end of a game or round, the steps recorded before the move that ends it, and after.
const BEFORE_END: usize = 3;
const AFTER_END: usize = 2;
/// The ends recorded in a match: its first few and its last few, so that a long match stays a few dozen lines.
const ENDS_KEPT: usize = 2;

/// One file of the suite: a game's matches, each with its own options and chooser.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The file's name (without `.jsonl`).
    pub name: &'static str,
    /// The game.
    pub kind: GameKind,
    /// Its matches.
    pub matches: Vec<(Options, Chooser)>,
}

/// Who chooses the moves of a recorded match.
#[derive(Clone, Copy, Debug)]
pub enum Chooser {
    /// Uniformly random legal moves from this seed: positions no sensible player would reach.
    Random(u64),
    /// The built-in opponent of this level for both sides, its random choices from the seed: the positions real
    /// matches reach.
    Bot {
        /// Its level (1 to `search::TOP_LEVEL`).
        level: u32,
        /// Its seed.
        seed: u64,
    },
}

/// Every game, with every option that changes play among its matches: who starts, Ba-awa's target and its
/// three-player game, Bao la Kete's starter of games 2 and 3.
pub fn recordings() -> Vec<Recording> {
    let default = Options::default();
    let north = Options {
        first_player: Player::North,
        ..default
    };
    let target = |target, options: Options| Options {
        ba_awa_target: target,
        ..options
    };
    let three = |options: Options| Options {
        ba_awa_players: 3,
        ..options
    };
    let starter = |rule, options: Options| Options {
        bao_la_kete_starter: rule,
        ..options
    };
    let bot = Chooser::Bot { level: 3, seed: 1 };
    vec![
        Recording {
            name: "bosh",
            kind: GameKind::Bosh,
            matches: vec![
                (default, Chooser::Random(1)),
                (north, Chooser::Random(2)),
                (default, bot),
            ],
        },
        Recording {
            name: "ba_awa",
            kind: GameKind::BaAwa,
            matches: vec![
                (default, Chooser::Random(1)),
                (target(11, north), Chooser::Random(2)),
                (target(12, default), Chooser::Random(3)),
                (default, bot),
            ],
        },
        Recording {
            name: "ba_awa-three-players",
            kind: GameKind::BaAwa,
            matches: vec![
                (three(default), Chooser::Random(1)),
                (three(north), Chooser::Random(2)),
                (three(target(11, default)), Chooser::Random(3)),
                (three(default), bot),
            ],
        },
        Recording {
            name: "bao_la_kete",
            kind: GameKind::BaoLaKete,
            matches: vec![
                (default, Chooser::Random(1)),
                (starter(StarterRule::LoserStarts, north), Chooser::Random(2)),
                (
                    starter(StarterRule::WinnerStarts, default),
                    Chooser::Random(3),
                ),
                (default, bot),
            ],
        },
    ]
}

/// The directory of this rules version's suite under `root`.
pub fn suite_dir(root: &Path) -> PathBuf {
    root.join(format!("rules-v{RULES_VERSION}"))
}

/// Writes the suite under `root` (one file per [`Recording`]) and returns the files written.
pub fn record(root: &Path) -> Result<Vec<PathBuf>, String> {
    let dir = suite_dir(root);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let json = Json::new()?;
    let mut written = Vec::new();
    for recording in recordings() {
        let path = dir.join(format!("{}.jsonl", recording.name));
        let mut out = Vec::new();
        for line in recording_lines(&json, &recording)? {
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
        std::fs::write(&path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// The lines of one file: each match's recorded steps, in order.
pub fn recording_lines(json: &Json, recording: &Recording) -> Result<Vec<Value>, String> {
    let mut lines = Vec::new();
    for (number, &(options, chooser)) in recording.matches.iter().enumerate() {
        let name = match chooser {
            Chooser::Random(seed) => format!("{}: random, seed {seed}", number + 1),
            Chooser::Bot { level, seed } => format!("{}: level {level}, seed {seed}", number + 1),
        };
        let played = play_match(recording.kind, &options, chooser)?;
        for step in kept_steps(&played) {
            lines.push(step_line(
                json,
                recording.kind,
                &options,
                &name,
                step,
                &played,
            )?);
        }
    }
    Ok(lines)
}

/// A whole match: each position, and the move played from it (none after the last).
struct Played {
    positions: Vec<AnyGame>,
    moves: Vec<Move>,
}

fn play_match(kind: GameKind, options: &Options, chooser: Chooser) -> Result<Played, String> {
    let mut game = AnyGame::new_match(kind, options);
    let (mut rng, mut bot) = match chooser {
        Chooser::Random(seed) => (Rng::new(seed), None),
        Chooser::Bot { level, seed } => (
            Rng::new(seed),
            Some(search::Bot::new(
                search::level(kind, level).ok_or_else(|| format!("no level {level}"))?,
                seed,
            )),
        ),
    };
    let mut played = Played {
        positions: vec![game.clone()],
        moves: Vec::new(),
    };
    while played.moves.len() < MAX_PLIES {
        let moves = game.legal_moves();
        let chosen = match bot.as_mut() {
            _ if moves.is_empty() => None,
            Some(bot) => bot.choose(&game, None).map(|s| s.best),
            None => Some(moves[rng.below(moves.len())]),
        };
        let Some(mv) = chosen else { break };
        game.play(&mv, &mut NoTrace)
            .map_err(|e| format!("the chosen move is illegal: {e}"))?;
        played.moves.push(mv);
        played.positions.push(game.clone());
    }
    Ok(played)
}

/// The steps recorded: the opening, a few steps around the first and the last ends of a game or round, and the
/// last position.
fn kept_steps(played: &Played) -> Vec<usize> {
    let last = played.positions.len() - 1;
    // The steps whose move ends a game or round.
    let ends: Vec<usize> = (0..last)
        .filter(|&step| played.positions[step + 1].status() != Status::InProgress)
        .filter(|&step| played.positions[step].status() == Status::InProgress)
        .collect();
    let mut kept: Vec<usize> = (0..OPENING.min(last + 1)).collect();
    let chosen_ends = ends
        .iter()
        .enumerate()
        .filter(|&(i, _)| i < ENDS_KEPT || i + ENDS_KEPT >= ends.len())
        .map(|(_, &end)| end);
    for end in chosen_ends {
        kept.extend(end.saturating_sub(BEFORE_END)..=(end + AFTER_END).min(last));
    }
    kept.push(last);
    kept.sort_unstable();
    kept.dedup();
    kept
}

/// The line of `step`: the state, every legal move with its preview, the move played.
fn step_line(
    json: &Json,
    kind: GameKind,
    options: &Options,
    name: &str,
    step: usize,
    played: &Played,
) -> Result<Value, String> {
    let state = convert::state_to_pb(&played.positions[step]);
    // What `ListLegalMoves` answers, built by prost (`api/wire/reference.rs` proves the server's bytes the same).
    let game = crate::rules::listed(&convert::state_setup("state", Some(state.clone())))
        .map_err(|refusal| format!("{name} step {step}: {refusal:?}"))?;
    let answer = pb::ListLegalMovesResponse {
        moves: convert::legal_moves_to_pb(&game, true),
    };
    let mut line = json!({
        "match": name,
        "step": step,
        "state": json.to_value("mancala.v1.GameState", &state)?,
    });
    if step == 0 {
        line["newGame"] = json.to_value(
            "mancala.v1.NewGameRequest",
            &pb::NewGameRequest {
                kind: convert::kind_to_pb(kind) as i32,
                options: Some(convert::options_to_pb(options)),
            },
        )?;
    }
    line["moves"] = json
        .to_value("mancala.v1.ListLegalMovesResponse", &answer)?
        .get("moves")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    if let Some(mv) = played.moves.get(step) {
        line["played"] = json.to_value("mancala.v1.Move", &convert::move_to_pb(mv))?;
    }
    Ok(line)
}
