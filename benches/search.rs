//! Search speed (issue 13): per game, how many alpha-beta nodes and Monte Carlo playouts the built-in opponents
//! get through a second on one core, from 16 fixed mid-game positions, beside the engine's raw speed
//! (`benches/engine.rs`). Single-threaded.
//!
//!     cargo bench --no-default-features --bench search

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mancala::engine::search::{self, Algorithm, Limits, Thinker};
use mancala::engine::{AnyGame, GameKind, Options, Rng, Status, Until};

/// 16 mid-game positions per game: seeded random playouts from the start, stopped after 4 to 30 moves.
fn positions(kind: GameKind) -> Vec<AnyGame> {
    let mut rng = Rng::new(13);
    let mut out = Vec::new();
    while out.len() < 16 {
        let mut game = AnyGame::new_match(kind, &Options::default());
        let plies = 4 + rng.below(27) as u32;
        game.random_playout(&mut rng, Until::GameEnd, plies);
        if game.status() == Status::InProgress && game.legal_moves().len() > 1 {
            out.push(game);
        }
    }
    out
}

fn label(kind: GameKind) -> &'static str {
    match kind {
        GameKind::BaoLaKete => "bao_la_kete",
        GameKind::Bosh => "bosh",
        GameKind::BaAwa => "ba_awa",
    }
}

fn searches(c: &mut Criterion) {
    for kind in GameKind::ALL {
        let positions = positions(kind);
        let mut group = c.benchmark_group(format!("search/{}", label(kind)));
        group.sample_size(10);
        for (name, algorithm, iterations) in [
            ("alphabeta_nodes", Algorithm::AlphaBeta, 20_000u64),
            ("mcts_playouts", Algorithm::Mcts, 500),
        ] {
            let thinker = Thinker {
                algorithm,
                limits: Limits::iterations(iterations),
            };
            // The throughput is the work actually done (alpha-beta may stop early in a decided position).
            let work: u64 = positions
                .iter()
                .map(|p| {
                    let s = search::suggest(p, thinker, None, 1).expect("a move");
                    match algorithm {
                        Algorithm::AlphaBeta => s.work.nodes,
                        _ => s.work.iterations,
                    }
                })
                .sum();
            group.throughput(Throughput::Elements(work));
            group.bench_function(format!("{name}/16_positions"), |b| {
                b.iter(|| {
                    for p in &positions {
                        black_box(search::suggest(p, thinker, None, 1));
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, searches);
criterion_main!(benches);
