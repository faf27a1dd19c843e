//! Property fuzzing of everything that reads outside input (issue 11), on stable Rust with proptest: wire
//! requests of every RPC, game states near valid ones, the match notation, the store's record codec, the
//! configuration, and engine play on arbitrary valid states. One module per target.
//!
//! Each target first replays its committed corpus (`tests/fuzz/corpus/<target>/`: seeds of every input
//! shape, and every input that once found a bug), then runs `MANCALA_FUZZ_CASES` generated cases (a small
//! default, so that CI runs the whole binary in well under a minute in debug). The long run:
//!
//! ```text
//! MANCALA_FUZZ_CASES=1000000 cargo test --release --test fuzz
//! ```
//!
//! Engine work runs under a small [`Budget`], so a crafted position with a relay cycle of hundreds of
//! millions of laps is refused quickly rather than stalling the run; a refusal is an accepted outcome,
//! a panic or a wrong answer never is.

mod codec;
mod config;
mod notation;
mod play;
mod state;
mod wire;

use mancala::api::pb;
use mancala::engine::{AnyGame, Budget, GameKind, Move, Options, Player, Rng, Unfinished, Until};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use std::path::PathBuf;

/// The laps one fuzzed call may spend: enough for every ordinary move, far too few for a crafted cycle.
pub const FUZZ_LAPS: u64 = 100_000;

/// Runs `work` under [`FUZZ_LAPS`].
pub fn budgeted<R>(work: impl FnOnce() -> R) -> Result<R, Unfinished> {
    Budget::laps(FUZZ_LAPS).run(work).map(|(answer, _)| answer)
}

/// Generated cases per target: `MANCALA_FUZZ_CASES`, or the target's default, scaled for a debug build.
pub fn cases(default: u32) -> u32 {
    match std::env::var("MANCALA_FUZZ_CASES") {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("MANCALA_FUZZ_CASES={text:?} is not a number of cases")),
        Err(_) => default,
    }
}

/// The proptest configuration of a target: `cases(default)` cases, and no regression files: a failure
/// prints its minimal input, which goes into the corpus with a named test (see docs/guide/development.md, "Fuzzing").
pub fn config(default: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default),
        failure_persistence: None,
        // Shrinking a slow engine input can take long; a few thousand steps find the small case.
        max_shrink_iters: 4096,
        ..ProptestConfig::default()
    }
}

/// The directory of a target's corpus.
pub fn corpus_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz/corpus")
        .join(target)
}

/// Every file of a target's corpus, by name, in name order.
pub fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the corpus {} is missing: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a readable corpus directory").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("corpus file names are UTF-8")
                .to_string();
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            (name, bytes)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "the corpus {} is empty", dir.display());
    files
}

/// Writes a target's seed inputs into its corpus (see `write_seed_corpus`).
pub fn write_corpus(target: &str, files: Vec<(String, Vec<u8>)>) {
    let dir = corpus_dir(target);
    std::fs::create_dir_all(&dir).expect("the corpus directory can be created");
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).expect("the corpus is writable");
    }
}

/// The game of `kind` after up to `plies` random moves from the start (the start itself when the playout
/// meets a relay too long for the budget: such positions are reachable, but rare and slow to reach).
pub fn reachable(
    kind: GameKind,
    first_player: Player,
    target: u8,
    seed: u64,
    plies: u32,
) -> AnyGame {
    let options = Options {
        first_player,
        ba_awa_target: target,
        ..Options::default()
    };
    let start = AnyGame::new_match(kind, &options);
    budgeted(|| {
        let mut game = start.clone();
        game.random_playout(&mut Rng::new(seed), Until::MatchEnd, plies);
        game
    })
    .unwrap_or(start)
}

/// A reachable game: any kind, either first player, any Ba-awa target, up to 300 random moves in.
pub fn any_reachable() -> impl Strategy<Value = AnyGame> {
    (
        0..GameKind::ALL.len(),
        any::<bool>(),
        10u8..=12,
        any::<u64>(),
        prop_oneof![0u32..8, 0u32..300],
    )
        .prop_map(|(kind, north, target, seed, plies)| {
            let first = if north { Player::North } else { Player::South };
            reachable(GameKind::ALL[kind], first, target, seed, plies)
        })
}

/// Seeds on the board, in the stores and in the reserves.
pub fn seeds_of(state: &pb::GameState) -> u64 {
    state
        .pits
        .iter()
        .chain(&state.stores)
        .chain(&state.reserves)
        .map(|&s| s as u64)
        .sum()
}

/// The seeds a game holds after `mv`, if it held `before`: the same, except that a Bao la Kete game always
/// starts from the opening position with all the game's seeds, even after a custom position with fewer (§2.9).
pub fn seeds_after(game: &AnyGame, mv: &Move, before: u64) -> u64 {
    match (game, mv) {
        (AnyGame::BaoLaKete(_), Move::NextGame(_)) => {
            mancala::engine::describe(GameKind::BaoLaKete).seed_total as u64
        }
        _ => before,
    }
}

/// A few reachable states of every game, for the seed corpora: the start, a few moves in, deep in.
pub fn sample_states() -> Vec<(String, AnyGame)> {
    let mut out = Vec::new();
    for kind in GameKind::ALL {
        let name = kind.slug();
        for (i, plies) in [0u32, 3, 40, 400].into_iter().enumerate() {
            let first = if i % 2 == 0 {
                Player::South
            } else {
                Player::North
            };
            out.push((
                format!("{name}-{plies}"),
                reachable(kind, first, 10 + (i as u8 % 3), 7 + i as u64, plies),
            ));
        }
    }
    out
}

/// Regenerates the seed part of every corpus (inputs that found bugs are kept: they have other names).
/// `cargo test --test fuzz -- --ignored write_seed_corpus`
#[test]
#[ignore = "writes tests/fuzz/corpus; run by hand when an input shape changes"]
fn write_seed_corpus() {
    write_corpus("wire", wire::seeds());
    write_corpus("state", state::seeds());
    write_corpus("notation", notation::seeds());
    write_corpus("codec", codec::seeds());
    write_corpus("config", config::seeds());
    write_corpus("play", play::seeds());
}
