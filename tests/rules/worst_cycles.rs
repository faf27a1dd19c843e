//! A seeded search for the positions whose moves cost the engine the most work to decide (issue 11, "Cheaper
//! exact decisions"): never-ending moves whose repeat is found late, and ending moves whose sowing runs long.
//! Candidates are custom positions of each game (random, then mutated seed by seed: hill climbing with
//! restarts), scored by the laps the engine meters while deciding one move
//! (`Budget::laps(CAP).run(|| game.check(&mv))`, see `engine::work`); positions the rules refuse are dropped.
//!
//! * Bao la Kete: mtaji, both kuu dead, South to move; South's 16-hole circuit holds most seeds (pure relay,
//!   `bao_la_kete/endless.rs`), North a few front seeds and the rest in his back row.
//! * Bosh: the ten holes with closed holes at random (rings of 4 to 10), South to move.
//! * Ba-awa: the twelve pits with the standard ownership, South to move, fours captured as they are made.
//!
//! Not a test of correctness (the review tests are): it is `#[ignore]`d and bounded in time. Run it with
//!
//!     cargo test --release --test rules worst_cycles -- --ignored --nocapture
//!
//! (`WORST_SECS=<seconds per game and objective>`, default 60; `WORST_SEED`; `WORST_GAME=bao_la_kete` (or `bosh`,
//! `ba_awa`) for one game). It prints the worst found and, with
//! `WORST_WRITE=1`, merges them into `benches/data/worst_relays.json` (an entry is replaced only by a worse one),
//! the input of `benches/worst_relays.rs`.

use mancala::engine::{
    AnyGame, Budget, Direction, GameKind, Move, Player, Reason, Rng, Setup, Sow, Status,
    Unfinished, VariantSetup, RULES_VERSION,
};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The most laps one decision may spend in the search (a few seconds); a move still undecided scores this.
const CAP: u64 = 400_000_000;

/// A candidate: the board (and Bosh's closed holes) of a position of `kind`, South to move.
#[derive(Clone, Debug)]
struct Candidate {
    kind: GameKind,
    pits: Vec<u32>,
    closed: u16,
}

/// What one move cost to decide.
#[derive(Clone, Copy, Debug)]
struct Cost {
    mv: Move,
    laps: u64,
    /// `None` when the search's cap was spent first.
    ends: Option<bool>,
}

fn setup(c: &Candidate) -> Setup {
    let on_board: u32 = c.pits.iter().sum();
    let (stores, variant, match_score) = match c.kind {
        GameKind::BaoLaKete => (
            vec![0, 0],
            VariantSetup::BaoLaKete {
                mtaji: Some(true),
                kuu_alive: vec![false, false].into(),
                mark: None,
                game_starter: Some(Player::South),
                starter_rule: mancala::engine::StarterRule::Alternate,
            },
            vec![0, 0],
        ),
        GameKind::Bosh => {
            let open =
                |row: std::ops::Range<u16>| row.filter(|h| c.closed >> h & 1 == 0).count() as u32;
            (
                vec![0, 40 - on_board],
                VariantSetup::Bosh {
                    closed: (0..10).map(|h| c.closed >> h & 1 == 1).collect(),
                    round_starter: Some(Player::South),
                },
                vec![open(0..5), open(5..10)],
            )
        }
        GameKind::BaAwa => {
            let off = 48 - on_board;
            let south = off / 8 * 4;
            (
                vec![south, off - south],
                VariantSetup::BaAwa {
                    owners: (0..12)
                        .map(|p| Some(if p < 6 { Player::South } else { Player::North }))
                        .collect(),
                    starter: Some(Player::South),
                    target: 10,
                    players: 0,
                    eliminated_in: Vec::new().into(),
                },
                vec![6, 6],
            )
        }
    };
    Setup {
        kind: c.kind,
        rules_version: RULES_VERSION,
        pits: c.pits.clone().into(),
        stores: stores.into(),
        reserves: vec![0, 0].into(),
        to_move: Some(Player::South),
        status: Some(Status::InProgress),
        winner: None,
        ply: 40,
        game_number: 1,
        match_score: match_score.into(),
        variant,
    }
}

/// Every sowing South could try: his holes, in both directions in Bao la Kete.
fn tries(c: &Candidate) -> Vec<Move> {
    let sow = |pit: u8, direction| {
        Move::Sow(Sow {
            direction,
            ..Sow::from(pit)
        })
    };
    match c.kind {
        GameKind::BaoLaKete => (0..16u8)
            .filter(|&p| c.pits[p as usize] >= 2)
            .flat_map(|p| [Direction::Clockwise, Direction::Anticlockwise].map(|d| sow(p, Some(d))))
            .collect(),
        GameKind::Bosh => (0..5u8)
            .filter(|&p| c.pits[p as usize] > 0)
            .map(|p| sow(p, None))
            .collect(),
        GameKind::BaAwa => (0..6u8)
            .filter(|&p| c.pits[p as usize] > 0)
            .map(|p| sow(p, None))
            .collect(),
    }
}

/// The position, if the rules accept it (within the cap), and what deciding each of South's tries costs.
fn costs(c: &Candidate) -> Option<Vec<Cost>> {
    let game = match Budget::laps(CAP).run(|| AnyGame::from_setup(&setup(c))) {
        Ok((Ok(game), _)) => game,
        _ => return None,
    };
    Some(
        tries(c)
            .into_iter()
            .filter_map(|mv| match Budget::laps(CAP).run(|| game.check(&mv)) {
                Ok((Ok(()), laps)) => Some(Cost {
                    mv,
                    laps,
                    ends: Some(true),
                }),
                Ok((Err(e), laps)) => (e.reason == Reason::NeverEndingMove).then_some(Cost {
                    mv,
                    laps,
                    ends: Some(false),
                }),
                Err(Unfinished::Exhausted { .. }) => Some(Cost {
                    mv,
                    laps: CAP,
                    ends: None,
                }),
                Err(Unfinished::Cancelled) => unreachable!("nothing cancels the search"),
            })
            .collect(),
    )
}

/// The candidate's score for the objective: its costliest move of that kind (ending or not).
fn best(costs: &[Cost], ending: bool) -> Option<Cost> {
    costs
        .iter()
        .filter(|c| c.ends.map_or(!ending, |e| e == ending))
        .max_by_key(|c| c.laps)
        .copied()
}

fn random(kind: GameKind, rng: &mut Rng) -> Candidate {
    let mut pits = vec![0u32; kind.pit_count()];
    let mut closed = 0u16;
    match kind {
        GameKind::BaoLaKete => {
            // South's circuit holds 20 to 60 seeds; North one to three front seeds facing empty holes where
            // possible (so that no capture is on), the rest in his back row.
            let south = 20 + rng.below(41) as u32;
            for _ in 0..south {
                pits[rng.below(16)] += 1;
            }
            let mut north = 64 - south;
            for _ in 0..1 + rng.below(3) {
                if north <= 1 {
                    break;
                }
                let empties: Vec<usize> = (0..8).filter(|&f| pits[f] == 0).collect();
                let facing = if empties.is_empty() {
                    rng.below(8)
                } else {
                    empties[rng.below(empties.len())]
                };
                pits[16 + 7 - facing] += 1;
                north -= 1;
            }
            for _ in 0..north {
                pits[24 + rng.below(8)] += 1;
            }
        }
        GameKind::Bosh => {
            for hole in 0..10 {
                if rng.below(10) < 3 {
                    closed |= 1 << hole;
                }
            }
            let open: Vec<usize> = (0..10).filter(|&h| closed >> h & 1 == 0).collect();
            for _ in 0..8 + rng.below(33) {
                pits[open[rng.below(open.len())]] += 1;
            }
        }
        GameKind::BaAwa => {
            for _ in 0..4 * (3 + rng.below(10)) {
                pits[rng.below(12)] += 1;
            }
        }
    }
    Candidate { kind, pits, closed }
}

/// Moves one to three seeds from a hole to another (keeping the game's total), now and then changes the number
/// of seeds on the board (Bosh) or opens or closes a hole (Bosh).
fn mutate(c: &Candidate, rng: &mut Rng) -> Candidate {
    let mut c = c.clone();
    let n = c.pits.len();
    // Bao la Kete: mostly within South's circuit, sometimes to or from North.
    let hole = |rng: &mut Rng| match c.kind {
        GameKind::BaoLaKete if rng.below(8) != 0 => rng.below(16),
        _ => rng.below(n),
    };
    for _ in 0..1 + rng.below(3) {
        let (from, to) = (hole(rng), hole(rng));
        if c.pits[from] > 0 && c.closed >> to & 1 == 0 {
            c.pits[from] -= 1;
            c.pits[to] += 1;
        }
    }
    match c.kind {
        GameKind::Bosh if rng.below(10) == 0 => {
            let h = rng.below(10);
            if c.pits[h] == 0 {
                c.closed ^= 1 << h;
            }
        }
        GameKind::Bosh if rng.below(4) == 0 => {
            let total: u32 = c.pits.iter().sum();
            let h = rng.below(10);
            if c.closed >> h & 1 == 0 && total < 40 && rng.below(2) == 0 {
                c.pits[h] += 1;
            } else if c.pits[h] > 0 {
                c.pits[h] -= 1;
            }
        }
        GameKind::BaAwa if rng.below(6) == 0 => {
            // Four seeds on or off the board (the stores take fours only).
            let total: u32 = c.pits.iter().sum();
            if total <= 44 && rng.below(2) == 0 {
                for _ in 0..4 {
                    c.pits[rng.below(12)] += 1;
                }
            } else if total >= 16 {
                for _ in 0..4 {
                    let nonempty: Vec<usize> = (0..12).filter(|&p| c.pits[p] > 0).collect();
                    c.pits[nonempty[rng.below(nonempty.len())]] -= 1;
                }
            }
        }
        _ => {}
    }
    c
}

/// Hill climbing with restarts for `secs` seconds: the worst candidate found for the objective and its cost.
fn climb(
    kind: GameKind,
    ending: bool,
    seeds: &[Candidate],
    secs: u64,
    rng: &mut Rng,
) -> Option<(Candidate, Cost)> {
    let until = Instant::now() + Duration::from_secs(secs);
    let mut worst: Option<(Candidate, Cost)> = None;
    let mut tried = 0u64;
    let mut seeds = seeds.iter();
    while Instant::now() < until {
        // A restart: a given seed position first, then random ones.
        let mut current = match seeds.next() {
            Some(seed) => seed.clone(),
            None => random(kind, rng),
        };
        let Some(mut score) = costs(&current).and_then(|c| best(&c, ending)) else {
            continue;
        };
        let mut stale = 0;
        while stale < 300 && Instant::now() < until {
            let next = mutate(&current, rng);
            tried += 1;
            let Some(cost) = costs(&next).and_then(|c| best(&c, ending)) else {
                stale += 1;
                continue;
            };
            if cost.laps >= score.laps {
                stale = if cost.laps > score.laps { 0 } else { stale + 1 };
                current = next;
                score = cost;
            } else {
                stale += 1;
            }
        }
        if worst.as_ref().is_none_or(|(_, w)| score.laps > w.laps) {
            eprintln!(
                "{kind:?} ending={ending}: {} laps {:?} {:?}",
                score.laps, current.pits, score.mv
            );
            worst = Some((current, score));
        }
    }
    eprintln!("{kind:?} ending={ending}: {tried} candidates tried");
    worst
}

fn label(kind: GameKind) -> &'static str {
    match kind {
        GameKind::BaoLaKete => "bao_la_kete",
        GameKind::Bosh => "bosh",
        GameKind::BaAwa => "ba_awa",
    }
}

/// The entry of `benches/data/worst_relays.json` for a found position (the public `Setup` fields).
fn entry(c: &Candidate, cost: &Cost, seconds: f64) -> Value {
    let s = setup(c);
    let Move::Sow(sow) = cost.mv else {
        unreachable!("only sowings are tried")
    };
    let variant = match &s.variant {
        VariantSetup::BaoLaKete { kuu_alive, .. } => {
            json!({ "mtaji": true, "kuu_alive": &kuu_alive[..], "game_starter": "South" })
        }
        VariantSetup::Bosh { closed, .. } => {
            json!({ "closed": &closed[..], "round_starter": "South" })
        }
        VariantSetup::BaAwa { owners, target, .. } => json!({
            "north_owned": owners.iter().map(|o| *o == Some(Player::North)).collect::<Vec<_>>(),
            "starter": "South",
            "target": target,
        }),
        VariantSetup::Missing => unreachable!(),
    };
    json!({
        "game": label(c.kind),
        "ends": cost.ends,
        "laps": cost.laps,
        "seconds_to_decide_when_found": seconds,
        "pits": &s.pits[..],
        "stores": &s.stores[..],
        "reserves": &s.reserves[..],
        "to_move": "South",
        "ply": s.ply,
        "game_number": s.game_number,
        "match_score": &s.match_score[..],
        "variant": variant,
        "move": {
            "pit": sow.pit,
            "direction": sow.direction.map(|d| format!("{d:?}")),
        },
    })
}

/// The Bao la Kete circuit of `tests/engine_work.rs` (a cycle of 21 million relative lap ends), as a seed.
fn known_bao() -> Candidate {
    const CYCLE: [u32; 16] = [2, 2, 1, 0, 5, 0, 1, 0, 6, 2, 16, 0, 14, 1, 0, 3];
    let mut pits = vec![0u32; 32];
    for (k, &seeds) in CYCLE.iter().enumerate() {
        pits[if k < 8 { k } else { 23 - k }] = seeds;
    }
    pits[20] = 1;
    for (i, hole) in (24..32).enumerate() {
        pits[hole] = if i < 2 { 2 } else { 1 };
    }
    Candidate {
        kind: GameKind::BaoLaKete,
        pits,
        closed: 0,
    }
}

#[test]
#[ignore = "a search of minutes; run it on purpose (see the file's doc)"]
fn search_the_worst_decisions() {
    let secs: u64 = std::env::var("WORST_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let seed: u64 = std::env::var("WORST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(11);
    let only = std::env::var("WORST_GAME").ok();
    let mut rng = Rng::new(seed);
    let mut found = Vec::new();
    for kind in GameKind::ALL {
        if only.as_deref().is_some_and(|game| game != label(kind)) {
            continue;
        }
        for ending in [false, true] {
            let seeds = if kind == GameKind::BaoLaKete && !ending {
                vec![known_bao()]
            } else {
                vec![]
            };
            if let Some((c, cost)) = climb(kind, ending, &seeds, secs, &mut rng) {
                let game = AnyGame::from_setup(&setup(&c)).expect("valid");
                let start = Instant::now();
                let _ = game.check(&cost.mv);
                let seconds = start.elapsed().as_secs_f64();
                let e = entry(&c, &cost, seconds);
                println!("{e}");
                found.push(e);
            }
        }
    }
    if std::env::var("WORST_WRITE").as_deref() == Ok("1") {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benches/data/worst_relays.json"
        );
        let mut kept: Vec<Value> = std::fs::read_to_string(path)
            .ok()
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or_default();
        for e in found {
            // Named entries were added by hand (see BENCHMARKS.md) and are left alone.
            let same = |k: &Value| {
                k["game"] == e["game"] && k["ends"] == e["ends"] && k.get("name").is_none()
            };
            match kept.iter_mut().find(|k| same(k)) {
                Some(k) if k["laps"].as_u64() < e["laps"].as_u64() => *k = e,
                Some(_) => {}
                None => kept.push(e),
            }
        }
        std::fs::create_dir_all(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data"))
            .expect("mkdir");
        std::fs::write(
            path,
            serde_json::to_string_pretty(&kept).expect("json") + "\n",
        )
        .expect("write");
    }
}

/// The candidate an entry of `benches/data/worst_relays.json` was written from (`entry`), and its move.
fn from_entry(e: &Value) -> (Candidate, Move) {
    let numbers = |v: &Value| -> Vec<u32> {
        let list = v.as_array().expect("a list");
        list.iter()
            .map(|n| n.as_u64().expect("a number") as u32)
            .collect()
    };
    let (kind, closed) = match e["game"].as_str().expect("game") {
        "bao_la_kete" => (GameKind::BaoLaKete, 0),
        "bosh" => {
            let closed = e["variant"]["closed"].as_array().expect("closed");
            let bits = closed.iter().enumerate();
            let closed = bits.fold(0u16, |acc, (h, c)| {
                acc | u16::from(c.as_bool() == Some(true)) << h
            });
            (GameKind::Bosh, closed)
        }
        "ba_awa" => (GameKind::BaAwa, 0),
        other => panic!("no game {other}"),
    };
    let direction = match e["move"]["direction"].as_str() {
        Some("Clockwise") => Some(Direction::Clockwise),
        Some("Anticlockwise") => Some(Direction::Anticlockwise),
        _ => None,
    };
    let pit = e["move"]["pit"].as_u64().expect("pit") as u8;
    let candidate = Candidate {
        kind,
        pits: numbers(&e["pits"]),
        closed,
    };
    (
        candidate,
        Move::Sow(Sow {
            direction,
            ..Sow::from(pit)
        }),
    )
}

/// The worst positions the search found (`benches/data/worst_relays.json`, each decided lap by lap when it was
/// found, by the engine of its day) are decided the same way now, and each within 200,000 laps: the
/// never-ending Bao la Kete cycle of 158 million laps with next to none (`bao_la_kete/endless.rs`, residues mod 17).
#[test]
fn the_worst_positions_found_are_decided_as_found_and_cheaply() {
    let data = include_str!("../../benches/data/worst_relays.json");
    let entries: Vec<Value> = serde_json::from_str(data).expect("worst_relays.json");
    assert!(entries.len() >= 6);
    for e in &entries {
        let (candidate, mv) = from_entry(e);
        let game = AnyGame::from_setup(&setup(&candidate)).expect("a valid position");
        let (decided, laps) = Budget::laps(200_000)
            .run(|| game.check(&mv))
            .expect("decided within 200,000 laps");
        let ends = e["ends"].as_bool().expect("ends");
        match decided {
            Ok(()) => assert!(ends, "{e}"),
            Err(refused) => {
                assert_eq!(refused.reason, Reason::NeverEndingMove, "{e}");
                assert!(!ends, "{e}");
            }
        }
        // The longest Bao la Kete cycle known is proved without laps; the entry named `…_by_repeat` is the worst
        // found among those that still need watching for a repeat.
        if candidate.kind == GameKind::BaoLaKete && !ends && e.get("name").is_none() {
            assert!(laps < 1_000, "{laps} laps: {e}");
        }
    }
}

/// The relay of the worst Bao la Kete cycle, played seed by seed on South's circuit from the move (f5
/// anticlockwise, a takata in mtaji with both kuu dead: pure relay from the first lap): it comes back to a lap end
/// it had reached, as seen from the hole of the lap end, and never ends. Minutes in a debug build; run it with
/// `cargo test --release --test rules worst_cycle_never_ends -- --ignored`.
#[test]
#[ignore = "158 million laps seed by seed: a second or two in release, minutes in debug"]
fn the_worst_cycle_never_ends_played_seed_by_seed() {
    let data = include_str!("../../benches/data/worst_relays.json");
    let entries: Vec<Value> = serde_json::from_str(data).expect("worst_relays.json");
    let e = entries
        .iter()
        .filter(|e| e["game"] == "bao_la_kete" && e["ends"] == false)
        .max_by_key(|e| e["laps"].as_u64())
        .expect("a never-ending Bao la Kete entry");
    let (candidate, Move::Sow(sow)) = from_entry(e) else {
        unreachable!("a sowing")
    };
    // South's circuit clockwise from f1: f1..f8 are pits 0..7, then b8..b1 are pits 15..8 (§2.2).
    let clockwise: Vec<u8> = (0..16)
        .map(|k| candidate.pits[if k < 8 { k } else { 23 - k }] as u8)
        .collect();
    let k = sow.pit as usize;
    let mut holes: [u8; 16] = std::array::from_fn(|j| match sow.direction {
        Some(Direction::Clockwise) => clockwise[(k + j) % 16],
        _ => clockwise[(k + 16 - j) % 16],
    });
    let lap = |holes: &mut [u8; 16]| -> bool {
        let hand = std::mem::take(&mut holes[0]);
        let mut at = 0;
        for _ in 0..hand {
            at = (at + 1) % 16;
            holes[at] += 1;
        }
        holes.rotate_left(at);
        holes[0] != 1
    };
    // A lap end after the first revolution, then laps until it comes back (relay sowing is reversible, so a
    // relay that never ends comes back to every lap end it passes).
    for _ in 0..16 {
        assert!(lap(&mut holes), "ended");
    }
    let start = holes;
    let mut laps = 0u64;
    loop {
        assert!(lap(&mut holes), "ended after {laps} laps");
        laps += 1;
        if holes == start {
            break;
        }
        assert!(laps < 1_000_000_000, "no repeat");
    }
    eprintln!("back after {laps} laps");
    assert!(laps > 100_000_000);
}
