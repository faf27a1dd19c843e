//! `[engine]` and `[search]`: how much rules work a call may do and where it runs, and what the built-in
//! opponent's searches may ask.

use std::time::Duration;

use serde::Deserialize;

use super::de::millis;

/// `[engine]`: bounded engine work. A call first runs inline on the async worker under `inline_laps`; the few
/// that need more (a long relay to decide, docs/guide/security-and-limits.md) run again on the engine pool under
/// their full budget, or are refused when the pool's queue is full.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSettings {
    /// Threads of the engine pool; `0`: half the machine's cores (at least one), so long calls never take
    /// every core from the cheap ones.
    pub pool_threads: usize,
    /// Long calls waiting for a pool thread; more are refused with RESOURCE_EXHAUSTED (`ENGINE_BUSY`).
    pub queue_limit: usize,
    /// Laps a call may spend inline before it moves to the pool (a lap: a relay lap past a move's sixteenth,
    /// or a step of the never-ending check); a budget below it is simply the whole budget, spent inline.
    pub inline_laps: u64,
    /// Laps a stateless Rules call may spend in all; past it the call is refused (`WORK_BUDGET_EXHAUSTED`).
    pub rules_budget_laps: u64,
    /// Laps a move of a server-held match may spend (its positions are reachable in play, so it gets more).
    pub match_budget_laps: u64,
    /// Threads of the engine pool's quick lane, where searches expected short (a hint at a low level) run apart
    /// from the long ones, so that they never wait behind a search of seconds (docs/guide/engine-work.md).
    /// At least 1.
    pub quick_threads: usize,
    /// The most laps a search may spend on the quick lane (a search spends a lap per move it plays, and a long
    /// relay's laps): a search whose budget is expected within it tries the quick lane first, and starts again
    /// on the long lane when it turns out longer. `0`: every search goes to the long lane.
    pub quick_search_laps: u64,
    /// Long calls (searches, Rules calls past `inline_laps`) one caller may have in flight, waiting or running;
    /// more are refused with RESOURCE_EXHAUSTED (`TOO_MANY_LONG_CALLS`). A caller is a player (player token), an
    /// API key, or a client address (anonymous calls). At least 1.
    pub max_long_calls_per_caller: usize,
}

/// `[search]`: the caps on the built-in opponent's searches asked through the Rules service (`SuggestMove`,
/// `AnalyzePosition`). A request above a cap is refused (INVALID_ARGUMENT naming the field and the cap), never
/// clamped: a clamped search would silently answer a different question than the one asked.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSettings {
    /// The level searched when a request names neither a level nor a budget, 1 to
    /// [`TOP_LEVEL`](crate::engine::search::TOP_LEVEL).
    pub default_level: u32,
    /// The most iterations (Monte Carlo playouts, alpha-beta nodes) a search may be asked for, by an explicit
    /// budget or through a level. Must be at least 1.
    pub max_iterations: u64,
    /// The longest time limit a request's budget may set (`0`: requests may set none).
    #[serde(rename = "max_time_ms", deserialize_with = "millis")]
    pub max_time: Duration,
}

impl EngineSettings {
    /// The pool's size, `pool_threads` resolved.
    pub fn pool_size(&self) -> usize {
        if self.pool_threads > 0 {
            return self.pool_threads;
        }
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        (cores / 2).max(1)
    }
}
