//! Engine benchmarks (issue 6): per game, `legal_moves` and `play` on a fixed set of mid-game positions, and
//! uniformly random playouts of whole games and whole matches from the standard start. Single-threaded.
//!
//!     cargo bench --bench engine

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mancala::engine::{AnyGame, GameKind, NoTrace, Options, Rng, Status, Until};

/// 64 mid-game positions per game: seeded random playouts from the start, stopped after 4 to 40 moves.
fn mid_game_positions(kind: GameKind) -> Vec<AnyGame> {
    let mut rng = Rng::new(2026);
    let mut positions = Vec::new();
    while positions.len() < 64 {
        let mut game = AnyGame::new_match(kind, &Options::default());
        let plies = 4 + rng.below(37) as u32;
        game.random_playout(&mut rng, Until::GameEnd, plies);
        if game.status() == Status::InProgress {
            positions.push(game);
        }
    }
    positions
}

fn implemented() -> impl Iterator<Item = GameKind> {
    GameKind::ALL.into_iter()
}

fn label(kind: GameKind) -> &'static str {
    match kind {
        GameKind::BaoLaKete => "bao_la_kete",
        GameKind::Bosh => "bosh",
        GameKind::BaAwa => "ba_awa",
    }
}

fn move_generation_and_play(c: &mut Criterion) {
    for kind in implemented() {
        let positions = mid_game_positions(kind);
        let moves: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
        let mut group = c.benchmark_group(label(kind));
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function("legal_moves/64_positions", |b| {
            b.iter(|| {
                for p in &positions {
                    black_box(p.legal_moves());
                }
            })
        });
        let total_moves: usize = moves.iter().map(|m| m.len()).sum();
        group.throughput(Throughput::Elements(total_moves as u64));
        group.bench_function(
            BenchmarkId::new("play", format!("{total_moves}_moves")),
            |b| {
                b.iter(|| {
                    for (p, legal) in positions.iter().zip(&moves) {
                        for mv in legal {
                            let mut next = p.clone();
                            black_box(next.play(mv, &mut NoTrace)).expect("legal");
                        }
                    }
                })
            },
        );
        group.finish();
    }
}

/// Playouts per measured batch: every batch plays the same seeded games, at least 20,000 of them, so that the rare
/// costly positions of random play (a never-ending takata with a cycle of millions of laps turns up about once
/// in 5,000 Bao la Kete games) weigh in every sample as they do on average.
fn batch(kind: GameKind, until: Until) -> u64 {
    match (kind, until) {
        (_, Until::GameEnd) => 20_000,
        (GameKind::BaAwa, Until::MatchEnd) => 400,
        (GameKind::Bosh, Until::MatchEnd) => 2_000,
        (GameKind::BaoLaKete, Until::MatchEnd) => 8_000,
    }
}

fn random_playouts(c: &mut Criterion) {
    for kind in implemented() {
        playouts_of(c, label(kind), kind, &Options::default());
    }
    // Three-player Ba-awa (docs/ba-awa.md §4.7) beside the two-player game.
    let three = Options {
        ba_awa_players: 3,
        ..Options::default()
    };
    playouts_of(c, "ba_awa_three_players", GameKind::BaAwa, &three);
}

/// Random whole games and matches of `kind` with `options`, as criterion group `group_label`.
fn playouts_of(c: &mut Criterion, group_label: &str, kind: GameKind, options: &Options) {
    let mut group = c.benchmark_group(group_label);
    group.sample_size(10);
    for until in [Until::GameEnd, Until::MatchEnd] {
        let name = match until {
            Until::GameEnd => "random_games",
            Until::MatchEnd => "random_matches",
        };
        let playouts = batch(kind, until);
        group.throughput(Throughput::Elements(playouts));
        let start = AnyGame::new_match(kind, options);
        let play_batch = || {
            let mut rng = Rng::new(7);
            let mut moves = 0u64;
            for _ in 0..playouts {
                let mut game = start.clone();
                moves += u64::from(game.random_playout(&mut rng, until, 1_000_000));
            }
            moves
        };
        // Moves per second follow from the same batch: print its size once.
        println!("{group_label}/{name}: {} moves in {playouts}", play_batch());
        group.bench_function(BenchmarkId::new(name, playouts), |b| {
            b.iter(|| black_box(play_batch()))
        });
    }
    group.finish();
}

criterion_group!(benches, move_generation_and_play, random_playouts);
criterion_main!(benches);
