//! Engine-level rule tests, all games, through the public engine API (no server): the worked examples of
//! docs/ run from `tests/examples/*.toml` (`examples.rs`), per-game rule tests, random whole matches, and the independent reviews (hand-computed cases and reference
//! models written from the rules in docs/ alone).

#[path = "../support/mod.rs"]
mod support;

mod ba_awa_review;
mod ba_awa_three_review;
mod bao_la_kete;
mod bao_la_kete_review;
mod bosh;
mod bosh_review;
mod endless_review;
mod examples;
mod opponents;
mod worst_cycles;
