//! What a run measured: throughput, latency percentiles and outcomes by status code, per RPC and overall;
//! rendered as text for people or serialised as JSON (`--json`) for scripts.
//!
//! The counts always add up: `requests` = the sum of `outcomes` = OK + `expected_refusals` + `errors`.
//! `wrong_answers` (OK answers that contradict the rules) are among the OK ones; `transport_errors` (calls
//! that got no status from the server) among the errors.

use std::{collections::BTreeMap, fmt::Write as _, time::Duration};

use hdrhistogram::Histogram;
use serde::Serialize;
use tonic::Code;

use super::{
    corpus::{Corpus, Workload},
    driver::{RpcStats, Stats},
    Config,
};

/// The goal of issue 6: the rules RPCs keep at least this share of the baseline's throughput…
pub const GOAL_THROUGHPUT_PCT: f64 = 90.0;
/// …with a p99 at most this many times the baseline's.
pub const GOAL_P99_RATIO: f64 = 2.0;

/// Everything one invocation measured.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// What was sent.
    pub corpus: CorpusInfo,
    /// The rules load, if it ran.
    pub rules: Option<Report>,
    /// The baseline load, if it ran.
    pub baseline: Option<Report>,
    /// Rules against baseline, when both ran.
    pub comparison: Option<Comparison>,
    /// What the attackers' calls got, when `--attackers` ran beside the load.
    pub attack: Option<super::attack::AttackReport>,
}

/// The corpus behind a run.
#[derive(Clone, Debug, Serialize)]
pub struct CorpusInfo {
    /// Games of the corpus.
    pub games: Vec<&'static str>,
    /// Positions, all games together.
    pub positions: usize,
    /// Distinct pre-encoded rules requests.
    pub distinct_requests: usize,
    /// Mean encoded size of a rules request, weighted as the mix sends them, in bytes.
    pub mean_request_bytes: f64,
    /// Mean encoded size of a rules answer (a refusal counts 0: it is a status), in bytes.
    pub mean_response_bytes: f64,
    /// Mean encoded size of the baseline's `EchoRequest`, in bytes.
    pub baseline_request_bytes: f64,
    /// Mean encoded size of the baseline's `EchoResponse`, in bytes.
    pub baseline_response_bytes: f64,
}

impl CorpusInfo {
    /// Describes `corpus` and the two workloads made of it.
    pub fn new(corpus: &Corpus, rules: &Workload, baseline: &Workload) -> CorpusInfo {
        CorpusInfo {
            games: corpus.games.iter().map(|(k, _)| k.slug()).collect(),
            positions: corpus.positions().count(),
            distinct_requests: rules.distinct_requests(),
            mean_request_bytes: rules.mean_request_bytes(),
            mean_response_bytes: rules.mean_response_bytes(),
            baseline_request_bytes: baseline.mean_request_bytes(),
            baseline_response_bytes: baseline.mean_response_bytes(),
        }
    }
}

/// One load's measurements.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// `rules` or `baseline`.
    pub load: &'static str,
    /// `closed_loop` or `fixed_rate`.
    pub mode: &'static str,
    /// The servers loaded.
    pub targets: Vec<String>,
    /// HTTP/2 connections.
    pub connections: usize,
    /// Calls in flight per connection.
    pub concurrency: usize,
    /// Fixed rate asked for, requests/s.
    pub rate: Option<f64>,
    /// The rules mix (absent for the baseline).
    pub mix: Option<String>,
    /// Fraction of `ValidateMove`/`ApplyMove` calls with an illegal move (rules only).
    pub illegal_fraction: Option<f64>,
    /// Warmup, seconds (not recorded).
    pub warmup_s: f64,
    /// The measured window, seconds: from the end of the warmup to the last answer.
    pub elapsed_s: f64,
    /// Every RPC together.
    pub overall: RpcReport,
    /// Each RPC.
    pub rpcs: Vec<RpcReport>,
}

/// One RPC's (or every RPC's) measurements.
#[derive(Clone, Debug, Serialize)]
pub struct RpcReport {
    /// The method name, or `all`.
    pub rpc: &'static str,
    /// Calls recorded.
    pub requests: u64,
    /// Calls per second over the measured window.
    pub throughput: f64,
    /// Microseconds; from the send (closed loop) or from the time the call was due (fixed rate).
    pub latency_us: Latency,
    /// Fixed rate only: microseconds from the actual send, without the generator's own lateness.
    pub service_time_us: Option<Latency>,
    /// Answers by gRPC status code name (`OK`, `FAILED_PRECONDITION`, …).
    pub outcomes: BTreeMap<&'static str, u64>,
    /// FAILED_PRECONDITION answers to an `ApplyMove` of an illegal move: the rules working, not errors.
    pub expected_refusals: u64,
    /// Answers other than OK and expected refusals.
    pub errors: u64,
    /// Errors with no status from the server (connection failed or lost, deadline passed).
    pub transport_errors: u64,
    /// OK answers that contradict the rules.
    pub wrong_answers: u64,
}

/// Latency percentiles.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Latency {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// 99.9th percentile.
    pub p999: u64,
    /// Largest.
    pub max: u64,
}

impl Latency {
    fn of(h: &Histogram<u64>) -> Latency {
        if h.is_empty() {
            return Latency {
                mean: 0.0,
                p50: 0,
                p90: 0,
                p99: 0,
                p999: 0,
                max: 0,
            };
        }
        Latency {
            mean: h.mean(),
            p50: h.value_at_quantile(0.5),
            p90: h.value_at_quantile(0.9),
            p99: h.value_at_quantile(0.99),
            p999: h.value_at_quantile(0.999),
            max: h.max(),
        }
    }
}

impl RpcReport {
    fn new(rpc: &'static str, s: &RpcStats, elapsed: Duration) -> RpcReport {
        let requests = s.requests();
        RpcReport {
            rpc,
            requests,
            throughput: requests as f64 / elapsed.as_secs_f64().max(1e-9),
            latency_us: Latency::of(&s.latency),
            service_time_us: s.service.as_ref().map(Latency::of),
            outcomes: s
                .codes
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(code, &n)| (code_name(Code::from(code as i32)), n))
                .collect(),
            expected_refusals: s.expected_refusals,
            errors: s.errors(),
            transport_errors: s.transport_errors,
            wrong_answers: s.wrong_answers,
        }
    }
}

impl Report {
    /// The report of `stats`, gathered over `elapsed` with `workload` and `config`.
    pub fn new(
        load: &'static str,
        config: &Config,
        workload: &Workload,
        stats: &Stats,
        elapsed: Duration,
    ) -> Report {
        let rules = workload.rpcs.iter().any(|r| r.rpc != super::Rpc::Echo);
        let mut all = stats.rpcs[0].clone();
        for s in &stats.rpcs[1..] {
            all.latency.add(&s.latency).expect("same bounds");
            if let (Some(a), Some(b)) = (&mut all.service, &s.service) {
                a.add(b).expect("same bounds");
            }
            for (a, b) in all.codes.iter_mut().zip(s.codes) {
                *a += b;
            }
            all.expected_refusals += s.expected_refusals;
            all.wrong_answers += s.wrong_answers;
            all.transport_errors += s.transport_errors;
        }
        Report {
            load,
            mode: if config.rate.is_some() {
                "fixed_rate"
            } else {
                "closed_loop"
            },
            targets: config.targets.clone(),
            connections: config.connections,
            concurrency: config.concurrency,
            rate: config.rate,
            mix: rules.then(|| config.mix.to_string()),
            illegal_fraction: rules.then_some(config.illegal),
            warmup_s: config.warmup.as_secs_f64(),
            elapsed_s: elapsed.as_secs_f64(),
            overall: RpcReport::new("all", &all, elapsed),
            rpcs: workload
                .rpcs
                .iter()
                .zip(&stats.rpcs)
                .map(|(r, s)| RpcReport::new(r.label, s, elapsed))
                .collect(),
        }
    }

    /// The report as a table for people.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let mode = match self.rate {
            Some(rate) => format!("fixed rate {rate:.0}/s"),
            None => "closed loop".to_string(),
        };
        let _ = writeln!(
            out,
            "{} load: {mode}, {} connection{} × {} in flight, {:.1} s measured after {:.1} s warmup",
            self.load,
            self.connections,
            if self.connections == 1 { "" } else { "s" },
            self.concurrency,
            self.elapsed_s,
            self.warmup_s,
        );
        let _ = write!(
            out,
            "  target{} {}",
            plural(self.targets.len()),
            self.targets.join(", ")
        );
        if let (Some(mix), Some(illegal)) = (&self.mix, self.illegal_fraction) {
            let _ = write!(out, "; mix {mix}, {:.0} % illegal moves", illegal * 100.0);
        }
        out.push('\n');
        table(&mut out, "latency", self, |r| &r.latency_us);
        if self.rate.is_some() {
            let _ = writeln!(
                out,
                "  (fixed rate: latency counts from the time each call was due; service time from its actual send)"
            );
            table(&mut out, "service time", self, |r| {
                r.service_time_us
                    .as_ref()
                    .expect("fixed-rate reports have it")
            });
            if let Some(rate) = self.rate {
                if self.overall.throughput < rate * 0.95 {
                    let _ = writeln!(
                        out,
                        "  ! the timetable was not kept: {:.0}/s answered of {rate:.0}/s asked",
                        self.overall.throughput
                    );
                }
            }
        }
        let o = &self.overall;
        if o.errors > 0 || o.wrong_answers > 0 {
            let _ = writeln!(
                out,
                "  ! {} error{} ({} transport), {} wrong answer{}",
                o.errors,
                plural(o.errors as usize),
                o.transport_errors,
                o.wrong_answers,
                plural(o.wrong_answers as usize)
            );
        }
        let throttled = o
            .outcomes
            .get(code_name(Code::ResourceExhausted))
            .copied()
            .unwrap_or(0);
        if throttled > 0 {
            // The server held the generator to a caller's share: the figures measure the limit, not the server.
            let _ = writeln!(
                out,
                "  ! {throttled} call{} refused RESOURCE_EXHAUSTED: the generator is one client address (or one \
                 tenant) over its share of calls per second; start the server under test with \
                 MANCALA__ADDRESSES__CALLS_PER_SECOND=0, or send a tenant key whose calls_per_second is 0",
                plural(throttled as usize)
            );
        }
        out
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn table(out: &mut String, what: &str, report: &Report, pick: impl Fn(&RpcReport) -> &Latency) {
    let _ = writeln!(
        out,
        "  {:<15} {:>9} {:>10}  {:>8} {:>8} {:>8} {:>8} {:>8}   outcomes",
        what, "calls", "calls/s", "p50", "p90", "p99", "p99.9", "max"
    );
    let rows = report
        .rpcs
        .iter()
        .chain((report.rpcs.len() > 1).then_some(&report.overall));
    for r in rows {
        let l = pick(r);
        // In status-code order: OK first.
        let mut outcomes: Vec<_> = r.outcomes.iter().collect();
        outcomes.sort_by_key(|(code, _)| CODES.iter().position(|c| code_name(*c) == **code));
        let outcomes = outcomes
            .into_iter()
            .map(|(code, n)| {
                if *code == "FAILED_PRECONDITION" && r.expected_refusals == *n {
                    format!("{code} {n} (expected)")
                } else {
                    format!("{code} {n}")
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            out,
            "  {:<15} {:>9} {:>10.1}  {:>8} {:>8} {:>8} {:>8} {:>8}   {}",
            r.rpc,
            r.requests,
            r.throughput,
            micros(l.p50),
            micros(l.p90),
            micros(l.p99),
            micros(l.p999),
            micros(l.max),
            outcomes
        );
    }
}

/// A latency in microseconds, in the unit that reads best.
pub fn micros(us: u64) -> String {
    if us < 1_000 {
        format!("{us}µs")
    } else if us < 1_000_000 {
        format!("{:.2}ms", us as f64 / 1e3)
    } else {
        format!("{:.2}s", us as f64 / 1e6)
    }
}

/// Every status code, in number order.
const CODES: [Code; 17] = [
    Code::Ok,
    Code::Cancelled,
    Code::Unknown,
    Code::InvalidArgument,
    Code::DeadlineExceeded,
    Code::NotFound,
    Code::AlreadyExists,
    Code::PermissionDenied,
    Code::ResourceExhausted,
    Code::FailedPrecondition,
    Code::Aborted,
    Code::OutOfRange,
    Code::Unimplemented,
    Code::Internal,
    Code::Unavailable,
    Code::DataLoss,
    Code::Unauthenticated,
];

/// The canonical name of a status code (`FAILED_PRECONDITION`): the server logs and counts with the same names.
pub use crate::telemetry::code_name;

/// The rules load against the baseline.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// Rules throughput as a percentage of the baseline's.
    pub throughput_pct: f64,
    /// Rules p99 over the baseline's (all RPCs together).
    pub p99_ratio: f64,
    /// Rules p50 over the baseline's.
    pub p50_ratio: f64,
    /// Each rules RPC's p99 over that of the Echo standing for it.
    pub p99_ratio_by_rpc: BTreeMap<&'static str, f64>,
    /// Rounds in which rules and baseline took turns, or ran side by side.
    pub rounds: usize,
    /// Whether the two loads ran at the same time on two sets of servers that swapped loads each round
    /// (`--baseline-target`), rather than in turns on one.
    pub side_by_side: bool,
    /// Each round's rules throughput as a percentage of the same round's baseline: how far the figure above
    /// can be trusted on this machine (a wide spread says the machine's speed changed while it ran).
    pub throughput_pct_by_round: Vec<f64>,
    /// The median of [`Comparison::throughput_pct_by_round`]: unlike the whole-run figure, one round slowed by
    /// something else on the machine moves it little.
    pub throughput_pct_median: f64,
    /// Whether the overall figures meet the goal (≥ 90 % throughput, p99 ≤ 2×). In fixed-rate mode both
    /// loads run at the asked rate, so only the p99 says something.
    pub goal_met: bool,
}

impl Comparison {
    /// Compares `rules` with `baseline`, measured in rounds whose throughput ratios are `by_round`, in turns or
    /// `side_by_side`.
    pub fn new(
        rules: &Report,
        baseline: &Report,
        by_round: Vec<f64>,
        side_by_side: bool,
    ) -> Comparison {
        let ratio = |a: u64, b: u64| a as f64 / (b.max(1)) as f64;
        let b = &baseline.overall;
        let throughput_pct = 100.0 * rules.overall.throughput / b.throughput.max(1e-9);
        let p99_ratio = ratio(rules.overall.latency_us.p99, b.latency_us.p99);
        Comparison {
            throughput_pct,
            p99_ratio,
            p50_ratio: ratio(rules.overall.latency_us.p50, b.latency_us.p50),
            // Each rules RPC against the Echo that mirrors it (the baseline lists them in the same order).
            p99_ratio_by_rpc: rules
                .rpcs
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let echo = baseline
                        .rpcs
                        .get(i)
                        .map_or(&b.latency_us, |e| &e.latency_us);
                    (r.rpc, ratio(r.latency_us.p99, echo.p99))
                })
                .collect(),
            rounds: by_round.len(),
            side_by_side,
            throughput_pct_median: median(&by_round),
            throughput_pct_by_round: by_round,
            goal_met: throughput_pct >= GOAL_THROUGHPUT_PCT && p99_ratio <= GOAL_P99_RATIO,
        }
    }

    /// The comparison for people.
    pub fn to_text(&self, rules: &Report, baseline: &Report) -> String {
        let mut out = String::new();
        let how = if self.side_by_side {
            "side by side on two servers, swapping loads each round,"
        } else {
            "taking turns"
        };
        let _ = writeln!(
            out,
            "rules against the baseline (Diagnostics/Echo, same settings, {how} in {} round{}):",
            self.rounds,
            plural(self.rounds)
        );
        let _ = writeln!(
            out,
            "  throughput  {:>10.1}/s vs {:>10.1}/s = {:>6.1} %   (goal ≥ {GOAL_THROUGHPUT_PCT:.0} %)",
            rules.overall.throughput, baseline.overall.throughput, self.throughput_pct
        );
        let _ = writeln!(
            out,
            "  p50         {:>12} vs {:>12} = {:>6.2} ×",
            micros(rules.overall.latency_us.p50),
            micros(baseline.overall.latency_us.p50),
            self.p50_ratio
        );
        let _ = writeln!(
            out,
            "  p99         {:>12} vs {:>12} = {:>6.2} ×   (goal ≤ {GOAL_P99_RATIO:.0} ×)",
            micros(rules.overall.latency_us.p99),
            micros(baseline.overall.latency_us.p99),
            self.p99_ratio
        );
        if self.rounds > 1 {
            let (low, high) = self
                .throughput_pct_by_round
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &p| {
                    (lo.min(p), hi.max(p))
                });
            let _ = writeln!(
                out,
                "  by round    median {:.1} %, from {low:.1} to {high:.1} % (each round's rules against its baseline)",
                self.throughput_pct_median
            );
        }
        let by_rpc = self
            .p99_ratio_by_rpc
            .iter()
            .map(|(rpc, r)| format!("{rpc} {r:.2} ×"))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(out, "  p99 by RPC  {by_rpc}");
        // Whose goal: the project's own bar for what the rules may add to the transport (BENCHMARKS.md), not a
        // verdict on the operator's deployment.
        let _ = writeln!(
            out,
            "  the project's goal (≥ {GOAL_THROUGHPUT_PCT:.0} % of Echo's calls/s, p99 ≤ {GOAL_P99_RATIO:.0} × Echo's; \
             BENCHMARKS.md): {}{}",
            if self.goal_met { "met" } else { "missed" },
            if rules.rate.is_some() {
                " (fixed rate: both loads ran at the same rate, so the latency is what compares)"
            } else {
                ""
            }
        );
        out
    }
}

/// The middle value (the mean of the two middle ones for an even count); 0 for none.
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

impl Summary {
    /// Every report and the comparison, for people.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let c = &self.corpus;
        let _ = writeln!(
            out,
            "corpus: {} ({} positions, {} distinct requests; on average a rules request {:.0} B and its answer {:.0} B, \
             the baseline's Echo {:.0} B and {:.0} B)",
            c.games.join(", "),
            c.positions,
            c.distinct_requests,
            c.mean_request_bytes,
            c.mean_response_bytes,
            c.baseline_request_bytes,
            c.baseline_response_bytes
        );
        for report in [&self.rules, &self.baseline].into_iter().flatten() {
            out.push('\n');
            out.push_str(&report.to_text());
        }
        if let (Some(cmp), Some(r), Some(b)) = (&self.comparison, &self.rules, &self.baseline) {
            out.push('\n');
            out.push_str(&cmp.to_text(r, b));
        }
        if let Some(a) = &self.attack {
            let _ = writeln!(
                out,
                "\nunder attack: {} connection{} sent the crafted long relay throughout: {} decided, {} refused \
                 WORK_BUDGET_EXHAUSTED, {} refused ENGINE_BUSY, {} other",
                a.attackers,
                plural(a.attackers),
                a.decided,
                a.budget_exhausted,
                a.engine_busy,
                a.other
            );
        }
        out
    }
}
