//! The load generator behind `mancala loadtest`: drives a running server with a mix of `ValidateMove`,
//! `ApplyMove` and `ListLegalMoves` over a corpus of realistic positions, and reports throughput, latency
//! percentiles and outcomes per RPC and overall.
//!
//! - [`corpus`]: seeded random playouts of every chosen game, stopped at random plies; each position with its
//!   legal moves and some illegal ones, pre-encoded as requests so the generator spends its CPU on sending.
//! - [`driver`]: the tokio client: `connections` HTTP/2 connections × `concurrency` calls in flight on each,
//!   closed loop (each call sent when the previous one answered) or on a fixed timetable (`rate`), where the
//!   latency counts from the scheduled send time so a slow server cannot hide its queue (coordinated omission).
//! - [`report`]: hdrhistogram percentiles, outcomes by status code, the text and JSON reports, and the
//!   comparison with the baseline.
//! - [`dump`]: the corpus as ghz configurations and h2load bodies, for operators who use those tools.
//!
//! The baseline is `mancala.v1.Diagnostics/Echo` on the same server, one Echo for every rules request with a
//! request and an answer as large as that call's (the answer's size asked of the rules service in process):
//! what the transport costs alone for the same bytes, so the report says what the rules add to it.
//!
//! The library entry point is [`run`]; the command line lives in [`cli`].

pub mod attack;
pub mod cli;
pub mod corpus;
pub mod driver;
pub mod dump;
pub mod oversized;
pub mod report;

use std::{fmt, str::FromStr, sync::Arc, time::Duration};

use crate::engine::GameKind;

pub use report::{Comparison, Report, Summary};

/// One RPC the generator can send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Rpc {
    /// `mancala.v1.Rules/ValidateMove`.
    ValidateMove,
    /// `mancala.v1.Rules/ApplyMove`.
    ApplyMove,
    /// `mancala.v1.Rules/ListLegalMoves`.
    ListLegalMoves,
    /// `mancala.v1.Diagnostics/Echo`, the baseline.
    Echo,
}

impl Rpc {
    /// The method name, as in the proto.
    pub fn name(self) -> &'static str {
        match self {
            Rpc::ValidateMove => "ValidateMove",
            Rpc::ApplyMove => "ApplyMove",
            Rpc::ListLegalMoves => "ListLegalMoves",
            Rpc::Echo => "Echo",
        }
    }

    /// The name of the baseline's Echo that stands for this call in a comparison.
    pub fn echo_label(self) -> &'static str {
        match self {
            Rpc::ValidateMove => "Echo~ValidateMove",
            Rpc::ApplyMove => "Echo~ApplyMove",
            Rpc::ListLegalMoves => "Echo~ListLegalMoves",
            Rpc::Echo => "Echo",
        }
    }

    /// The HTTP/2 path of the call.
    pub fn path(self) -> &'static str {
        match self {
            Rpc::ValidateMove => "/mancala.v1.Rules/ValidateMove",
            Rpc::ApplyMove => "/mancala.v1.Rules/ApplyMove",
            Rpc::ListLegalMoves => "/mancala.v1.Rules/ListLegalMoves",
            Rpc::Echo => "/mancala.v1.Diagnostics/Echo",
        }
    }
}

/// Relative weights of the rules RPCs in the load (`validate=60,apply=30,list=10`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mix {
    /// Weight of `ValidateMove`.
    pub validate: u32,
    /// Weight of `ApplyMove`.
    pub apply: u32,
    /// Weight of `ListLegalMoves`.
    pub list: u32,
}

impl Default for Mix {
    fn default() -> Self {
        Mix {
            validate: 60,
            apply: 30,
            list: 10,
        }
    }
}

impl Mix {
    /// The RPCs with a weight above zero, with their weights, in a fixed order.
    pub fn weights(&self) -> Vec<(Rpc, u32)> {
        [
            (Rpc::ValidateMove, self.validate),
            (Rpc::ApplyMove, self.apply),
            (Rpc::ListLegalMoves, self.list),
        ]
        .into_iter()
        .filter(|&(_, w)| w > 0)
        .collect()
    }
}

impl FromStr for Mix {
    type Err = String;

    fn from_str(s: &str) -> Result<Mix, String> {
        let mut mix = Mix {
            validate: 0,
            apply: 0,
            list: 0,
        };
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, weight) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` is not NAME=WEIGHT"))?;
            let weight: u32 = weight
                .trim()
                .parse()
                .map_err(|_| format!("`{weight}` is not a whole number"))?;
            let slot = match name.trim().to_ascii_lowercase().as_str() {
                "validate" | "validatemove" | "validate_move" => &mut mix.validate,
                "apply" | "applymove" | "apply_move" => &mut mix.apply,
                "list" | "listlegalmoves" | "list_legal_moves" => &mut mix.list,
                other => return Err(format!("unknown RPC `{other}` (validate, apply or list)")),
            };
            *slot = weight;
        }
        if mix.validate as u64 + mix.apply as u64 + mix.list as u64 == 0 {
            return Err("the mix needs at least one weight above 0".into());
        }
        Ok(mix)
    }
}

impl fmt::Display for Mix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "validate={},apply={},list={}",
            self.validate, self.apply, self.list
        )
    }
}

/// Parses a comma-separated list of games; an empty list means every implemented game.
pub fn parse_games(s: &str) -> Result<Vec<GameKind>, String> {
    let mut games = Vec::new();
    for name in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let kind = GameKind::from_slug(name)
            .ok_or_else(|| format!("unknown game `{name}` (ba-awa, bosh, bao-la-kete)"))?;
        if !games.contains(&kind) {
            games.push(kind);
        }
    }
    if games.is_empty() {
        games = implemented_games();
    }
    Ok(games)
}

/// Every game this build plays, in protocol order.
pub fn implemented_games() -> Vec<GameKind> {
    GameKind::ALL.to_vec()
}

/// When a run stops measuring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// After this long (after the warmup).
    Duration(Duration),
    /// After this many recorded requests (after the warmup).
    Requests(u64),
}

/// What is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// The rules mix.
    Rules,
    /// `Diagnostics/Echo`, sized like the rules mix's requests and answers, call for call.
    Baseline,
    /// The rules mix, then the baseline with the same settings, and the ratios.
    Compare,
}

/// Everything a run needs. [`Config::default`] is the command line's defaults, but with no target.
#[derive(Clone, Debug)]
pub struct Config {
    /// Servers to load (`http://127.0.0.1:50051`); connections are spread over them in turn.
    pub targets: Vec<String>,
    /// With [`Load::Compare`]: a second set of servers, like `targets`, that takes the baseline load at the
    /// same time as `targets` takes the rules load, the two sets swapping loads each round (side by side; see
    /// `run`). Empty: the two loads take turns on `targets`.
    pub baseline_targets: Vec<String>,
    /// The CA certificate (PEM) trusted for `https://` targets, which need one.
    pub ca_file: Option<std::path::PathBuf>,
    /// A tenant's API key sent with every call (a server with `auth.required`).
    pub api_key: Option<String>,
    /// HTTP/2 connections opened.
    pub connections: usize,
    /// Calls in flight on each connection (the workers per connection).
    pub concurrency: usize,
    /// When measuring stops.
    pub stop: Stop,
    /// Load sent before measuring starts, not recorded.
    pub warmup: Duration,
    /// Requests per second on a fixed timetable (open loop); `None` for a closed loop.
    pub rate: Option<f64>,
    /// The rules RPCs and their weights.
    pub mix: Mix,
    /// Games of the corpus.
    pub games: Vec<GameKind>,
    /// Seed of the corpus and of every choice made while sending.
    pub seed: u64,
    /// Positions per game in the corpus.
    pub positions: usize,
    /// Fraction of `ValidateMove` and `ApplyMove` calls sent with an illegal move.
    pub illegal: f64,
    /// Whether `ListLegalMoves` asks for previews (what a client drawing the board does).
    pub previews: bool,
    /// Whether `ApplyMove` asks for the move's events (what a client animating the move does).
    pub events: bool,
    /// Deadline of each call; a call past it counts as a transport error.
    pub timeout: Duration,
    /// Rules, baseline or both.
    pub load: Load,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// With [`Load::Compare`]: rules and baseline alternate in this many rounds (or, with `baseline_targets`,
    /// swap servers), each measuring its share of the duration or the requests.
    pub rounds: usize,
    /// Connections sending the crafted long relay ([`attack`]) while the load is measured; 0: none.
    pub attackers: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            targets: Vec::new(),
            baseline_targets: Vec::new(),
            ca_file: None,
            api_key: None,
            connections: 4,
            concurrency: 16,
            stop: Stop::Duration(Duration::from_secs(30)),
            warmup: Duration::from_secs(5),
            rate: None,
            mix: Mix::default(),
            games: implemented_games(),
            seed: 2026,
            positions: 256,
            illegal: 0.05,
            previews: true,
            events: true,
            timeout: Duration::from_secs(10),
            load: Load::Rules,
            progress: false,
            rounds: 4,
            attackers: 0,
        }
    }
}

/// Why a run could not be made.
#[derive(Debug)]
pub enum Error {
    /// A setting is out of range.
    Config(String),
    /// A target could not be reached.
    Connect {
        /// The target.
        target: String,
        /// What the transport said.
        error: tonic::transport::Error,
    },
    /// Writing the dump failed.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Config(message) => f.write_str(message),
            Error::Connect { target, error } => {
                write!(f, "cannot connect to {target}: {error}")?;
                let mut source = std::error::Error::source(error);
                while let Some(cause) = source {
                    write!(f, ": {cause}")?;
                    source = cause.source();
                }
                Ok(())
            }
            Error::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl Config {
    /// The `authorization` metadata of every call, when an API key is given (checked by the CLI to be ASCII).
    pub fn bearer(&self) -> Option<tonic::metadata::AsciiMetadataValue> {
        self.api_key
            .as_ref()
            .and_then(|key| format!("Bearer {key}").parse().ok())
    }

    /// Round `round` of `rounds` of a comparison: its share of the duration or of the requests, the whole
    /// warmup first and at most a second of it afterwards (the server is warm; the connections are new).
    fn segment(&self, round: usize, rounds: usize) -> Config {
        let rounds_u64 = rounds as u64;
        Config {
            stop: match self.stop {
                Stop::Duration(d) => Stop::Duration(d / rounds as u32),
                Stop::Requests(n) => {
                    Stop::Requests(n / rounds_u64 + u64::from((round as u64) < n % rounds_u64))
                }
            },
            warmup: if round == 0 {
                self.warmup
            } else {
                self.warmup.min(Duration::from_secs(1))
            },
            seed: self.seed.wrapping_add(round as u64),
            ..self.clone()
        }
    }

    /// Checks the settings before anything is connected.
    pub fn validate(&self) -> Result<(), Error> {
        let fail = |m: &str| Err(Error::Config(m.to_string()));
        if self.targets.is_empty() {
            return fail("no target: give --target http://HOST:PORT");
        }
        if !self.baseline_targets.is_empty() && self.load != Load::Compare {
            return fail("--baseline-target is for --compare: it takes the baseline load beside the rules load");
        }
        let mut https = false;
        for target in self.targets.iter().chain(&self.baseline_targets) {
            https |= driver::parse_target(target)?.scheme_str() == Some("https");
        }
        match (https, &self.ca_file) {
            (true, None) => return fail(
                "an https:// target needs --ca FILE, the CA certificate that signed the server's",
            ),
            (false, Some(_)) => {
                return fail("--ca is for https:// targets, and every target is http://")
            }
            _ => {}
        }
        if self.connections == 0 || self.concurrency == 0 {
            return fail("--connections and --concurrency must be at least 1");
        }
        if self.connections > 1024 || self.concurrency > 4096 {
            return fail("at most 1024 connections and 4096 calls in flight per connection");
        }
        match self.stop {
            Stop::Duration(d) if d.is_zero() => return fail("--duration must be above 0"),
            Stop::Requests(0) => return fail("--requests must be at least 1"),
            _ => {}
        }
        if let Some(rate) = self.rate {
            if !(rate.is_finite() && rate > 0.0 && rate <= 10_000_000.0) {
                return fail("--rate must be above 0 and at most 10000000 requests/s");
            }
        }
        if !(0.0..=1.0).contains(&self.illegal) {
            return fail("--illegal must be between 0 and 1");
        }
        if self.games.is_empty() {
            return fail("no game to build positions from");
        }
        if self.positions == 0 {
            return fail("--positions must be at least 1");
        }
        if self.rounds == 0 || self.rounds > 100 {
            return fail("--rounds must be between 1 and 100");
        }
        if let (Load::Compare, Stop::Requests(n)) = (self.load, self.stop) {
            if n < self.rounds as u64 {
                return fail("--requests must be at least --rounds");
            }
        }
        if self.timeout.is_zero() {
            return fail("--timeout must be above 0");
        }
        Ok(())
    }
}

/// Runs the load the configuration asks for against its targets and returns the report(s).
///
/// Every loop inside is bounded: by the duration or the request count, and each call by `timeout`.
pub async fn run(config: &Config) -> Result<Summary, Error> {
    config.validate()?;
    let corpus = corpus::Corpus::build(&config.games, config.positions, config.seed);
    let rules = Arc::new(corpus::Workload::rules(&corpus, config)?);
    let baseline = Arc::new(corpus::Workload::baseline(&rules));
    let corpus_info = report::CorpusInfo::new(&corpus, &rules, &baseline);
    let attack = if config.attackers > 0 {
        let channels = driver::connect(&Config {
            connections: config.attackers,
            ..config.clone()
        })
        .await?;
        Some(attack::Attack::start(
            channels,
            config.timeout,
            config.bearer(),
        ))
    } else {
        None
    };

    let mut by_round = Vec::new();
    let (rules_report, baseline_report) = match config.load {
        Load::Rules => (Some(driver::drive(config, rules, "rules").await?), None),
        Load::Baseline => (
            None,
            Some(driver::drive(config, baseline, "baseline").await?),
        ),
        Load::Compare => {
            let rounds = config.rounds.max(1);
            let (mut r, mut b): (Option<driver::Measured>, Option<driver::Measured>) = (None, None);
            for round in 0..rounds {
                let segment = config.segment(round, rounds);
                let (rules_m, baseline_m) = if config.baseline_targets.is_empty() {
                    take_turns(&segment, round, &rules, &baseline).await?
                } else {
                    side_by_side(&segment, round, &rules, &baseline).await?
                };
                by_round.push(100.0 * rules_m.throughput() / baseline_m.throughput().max(1e-9));
                for (total, m) in [(&mut r, rules_m), (&mut b, baseline_m)] {
                    match total {
                        Some(t) => t.add(&m),
                        None => *total = Some(m),
                    }
                }
            }
            // Side by side, each load ran on both sets of servers in turn.
            let reported = Config {
                targets: config
                    .targets
                    .iter()
                    .chain(&config.baseline_targets)
                    .cloned()
                    .collect(),
                ..config.clone()
            };
            (
                r.map(|m| m.report("rules", &reported, &rules)),
                b.map(|m| m.report("baseline", &reported, &baseline)),
            )
        }
    };
    let comparison = match (&rules_report, &baseline_report) {
        (Some(r), Some(b)) => Some(Comparison::new(
            r,
            b,
            by_round,
            !config.baseline_targets.is_empty(),
        )),
        _ => None,
    };
    Ok(Summary {
        corpus: corpus_info,
        rules: rules_report,
        baseline: baseline_report,
        comparison,
        attack: attack.map(attack::Attack::stop),
    })
}

/// One round of a comparison on one set of servers: rules and baseline take turns, so that a change in what else
/// the machine runs hits both alike; the order flips each round (rules first, then baseline first), so that a
/// steady drift in the machine's speed does not favour whichever always goes first.
async fn take_turns(
    segment: &Config,
    round: usize,
    rules: &Arc<corpus::Workload>,
    baseline: &Arc<corpus::Workload>,
) -> Result<(driver::Measured, driver::Measured), Error> {
    if round % 2 == 0 {
        let r = driver::measure(segment, rules.clone(), "rules").await?;
        Ok((
            r,
            driver::measure(segment, baseline.clone(), "baseline").await?,
        ))
    } else {
        let b = driver::measure(segment, baseline.clone(), "baseline").await?;
        Ok((driver::measure(segment, rules.clone(), "rules").await?, b))
    }
}

/// One round of a side-by-side comparison: the rules load on one set of servers and the baseline on the other,
/// at the same time. When the two sets share the same CPUs (two servers pinned to one core), the scheduler gives
/// each busy server the same share, so their calls/s stand in the ratio of their costs per call however fast the
/// machine happens to run at that moment: a host that changes speed under the guest slows both alike. The sets
/// swap loads each round, so that a difference between the servers themselves cancels out.
async fn side_by_side(
    segment: &Config,
    round: usize,
    rules: &Arc<corpus::Workload>,
    baseline: &Arc<corpus::Workload>,
) -> Result<(driver::Measured, driver::Measured), Error> {
    let (first, second) = (&segment.targets, &segment.baseline_targets);
    let (rules_targets, baseline_targets) = if round % 2 == 0 {
        (first, second)
    } else {
        (second, first)
    };
    // Two progress bars at once would overwrite each other.
    let on = |targets: &Vec<String>| Config {
        targets: targets.clone(),
        baseline_targets: Vec::new(),
        progress: false,
        ..segment.clone()
    };
    let (rules_config, baseline_config) = (on(rules_targets), on(baseline_targets));
    let (r, b) = tokio::join!(
        driver::measure(&rules_config, rules.clone(), "rules"),
        driver::measure(&baseline_config, baseline.clone(), "baseline"),
    );
    Ok((r?, b?))
}
