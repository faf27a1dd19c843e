//! Measurements, not tests: every test here is `#[ignore]`d and is run on purpose with
//! `cargo test --release --test benches <name> -- --ignored --nocapture` (BENCHMARKS.md).

#[path = "../support/mod.rs"]
mod support;

mod cluster_bench;
mod fanout_bench;
mod scale_bench;
mod store_bench;
