//! The cost of deciding the worst positions the search of `tests/worst_cycles.rs` found (issue 11): for each
//! entry of `benches/data/worst_relays.json`, `AnyGame::check` of its move and `legal_moves` of its position,
//! each under `Budget::unlimited().run` as the server runs them (one call, one meter, decisions remembered for
//! the call), and `legal_moves` outside it too (every move decided afresh). Single-threaded.
//!
//!     cargo bench --no-default-features --bench worst_relays -- --measurement-time 3

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mancala::engine::{
    AnyGame, Budget, Direction, GameKind, Move, Player, Setup, Sow, Status, VariantSetup,
    RULES_VERSION,
};
use serde_json::Value;
use std::time::Duration;

fn numbers(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|n| n.as_u64().expect("a number") as u32)
        .collect()
}

fn flags(v: &Value) -> Vec<bool> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|b| b.as_bool().expect("a flag"))
        .collect()
}

fn player(v: &Value) -> Option<Player> {
    match v.as_str()? {
        "South" => Some(Player::South),
        "North" => Some(Player::North),
        other => panic!("no player {other}"),
    }
}

/// An entry of the data file: its name, the position and the move.
fn position(e: &Value) -> (String, AnyGame, Move) {
    let variant = &e["variant"];
    let (kind, variant) = match e["game"].as_str().expect("game") {
        "bao_la_kete" => (
            GameKind::BaoLaKete,
            VariantSetup::BaoLaKete {
                mtaji: variant["mtaji"].as_bool(),
                kuu_alive: flags(&variant["kuu_alive"]).into(),
                mark: None,
                game_starter: player(&variant["game_starter"]),
                starter_rule: mancala::engine::StarterRule::Alternate,
            },
        ),
        "bosh" => (
            GameKind::Bosh,
            VariantSetup::Bosh {
                closed: flags(&variant["closed"]).into(),
                round_starter: player(&variant["round_starter"]),
            },
        ),
        "ba_awa" => (
            GameKind::BaAwa,
            VariantSetup::BaAwa {
                owners: flags(&variant["north_owned"])
                    .into_iter()
                    .map(|n| Some(if n { Player::North } else { Player::South }))
                    .collect(),
                starter: player(&variant["starter"]),
                target: variant["target"].as_u64().expect("target") as u32,
                players: 0,
                eliminated_in: Vec::new().into(),
            },
        ),
        other => panic!("no game {other}"),
    };
    let setup = Setup {
        kind,
        rules_version: RULES_VERSION,
        pits: numbers(&e["pits"]).into(),
        stores: numbers(&e["stores"]).into(),
        reserves: numbers(&e["reserves"]).into(),
        to_move: player(&e["to_move"]),
        status: Some(Status::InProgress),
        winner: None,
        ply: e["ply"].as_u64().expect("ply") as u32,
        game_number: e["game_number"].as_u64().expect("game_number") as u32,
        match_score: numbers(&e["match_score"]).into(),
        variant,
    };
    let game = AnyGame::from_setup(&setup).expect("a valid position");
    let mv = Move::Sow(Sow {
        direction: match e["move"]["direction"].as_str() {
            Some("Clockwise") => Some(Direction::Clockwise),
            Some("Anticlockwise") => Some(Direction::Anticlockwise),
            _ => None,
        },
        ..Sow::from(e["move"]["pit"].as_u64().expect("pit") as u8)
    });
    let what = if e["ends"].as_bool() == Some(true) {
        "ending"
    } else {
        "never_ending"
    };
    // An entry may carry its own name (the worst found of a kind the engine decides differently).
    let name = match e["name"].as_str() {
        Some(name) => name.to_owned(),
        None => format!("{}_{what}", e["game"].as_str().expect("game")),
    };
    (name, game, mv)
}

fn worst_relays(c: &mut Criterion) {
    let data = include_str!("data/worst_relays.json");
    let entries: Vec<Value> = serde_json::from_str(data).expect("worst_relays.json");
    let mut group = c.benchmark_group("worst_relays");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    for e in &entries {
        let (name, game, mv) = position(e);
        let (decided, laps) = Budget::unlimited()
            .run(|| game.check(&mv))
            .expect("unlimited");
        let (listed, listing_laps) = Budget::unlimited()
            .run(|| game.legal_moves())
            .expect("unlimited");
        println!(
            "{name}: check {} in {laps} laps; legal_moves: {} moves in {listing_laps} laps",
            if decided.is_ok() { "legal" } else { "illegal" },
            listed.len()
        );
        group.bench_function(format!("{name}/check"), |b| {
            b.iter(|| Budget::unlimited().run(|| black_box(game.check(black_box(&mv)))))
        });
        group.bench_function(format!("{name}/legal_moves"), |b| {
            b.iter(|| Budget::unlimited().run(|| black_box(game.legal_moves())))
        });
        // Outside `Budget::run` nothing is remembered from one check to the next: each move decided afresh, as
        // before the memo.
        group.bench_function(format!("{name}/legal_moves_without_memo"), |b| {
            b.iter(|| black_box(game.legal_moves()))
        });
    }
    group.finish();
}

criterion_group!(benches, worst_relays);
criterion_main!(benches);
