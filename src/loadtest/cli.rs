//! `mancala loadtest`: the command line of the load generator.

use std::{io::IsTerminal, path::PathBuf, time::Duration};

use super::{corpus::Corpus, dump, parse_games, Config, Load, Mix, Stop};

/// Load a running server with the rules mix (or the Echo baseline) and report throughput and latency.
#[derive(Debug, clap::Args)]
pub struct LoadtestArgs {
    /// Server to load (`http://HOST:PORT`, or `https://HOST:PORT` with `--ca`); repeat it, or separate with commas, to spread the connections over several servers.
    /// Only what is given here is loaded.
    #[arg(
        long = "target",
        value_name = "URI",
        value_delimiter = ',',
        default_value = "http://127.0.0.1:50051"
    )]
    pub targets: Vec<String>,
    /// With --compare: run the baseline on this second server (or servers) at the same time as the rules load
    /// runs on --target, the two swapping loads each round. Start both servers alike on the same CPU cores: each
    /// busy server then gets the same share of the CPU, so the ratio of their calls/s is the ratio of their costs
    /// per call, steady even on a machine whose speed changes while it runs.
    #[arg(
        long = "baseline-target",
        value_name = "URI",
        value_delimiter = ',',
        requires = "compare"
    )]
    pub baseline_targets: Vec<String>,
    /// The CA certificate (PEM) that signed the servers' certificates: the generator trusts it, and nothing
    /// else, for `https://` targets, which need it.
    #[arg(long = "ca", value_name = "FILE")]
    pub ca_file: Option<PathBuf>,
    /// A tenant's API key, sent with every call (for a server with auth.required; give the tenant a high rate
    /// limit: `mancala tenants create loadtest --calls-per-second 0`).
    #[arg(
        long,
        env = "MANCALA_API_KEY",
        hide_env_values = true,
        value_name = "KEY"
    )]
    pub api_key: Option<String>,
    /// HTTP/2 connections to open (spread over the targets in turn).
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub connections: usize,
    /// Calls in flight on each connection.
    #[arg(long, default_value_t = 16, value_name = "N")]
    pub concurrency: usize,
    /// How long to measure, after the warmup ("30s", "2m") [default: 30s].
    #[arg(long, value_parser = humantime::parse_duration, conflicts_with = "requests", value_name = "TIME")]
    pub duration: Option<Duration>,
    /// Measure this many calls instead of a duration.
    #[arg(long, value_name = "N")]
    pub requests: Option<u64>,
    /// Load sent first and not recorded.
    #[arg(long, value_parser = humantime::parse_duration, default_value = "5s", value_name = "TIME")]
    pub warmup: Duration,
    /// Open loop: send this many calls per second on a fixed timetable; latency counts from each call's due
    /// time. Without it, each worker sends its next call when the last one is answered.
    #[arg(long, value_name = "PER_SECOND")]
    pub rate: Option<f64>,
    /// Weights of the rules RPCs.
    #[arg(
        long,
        default_value = "validate=60,apply=30,list=10",
        value_name = "MIX"
    )]
    pub mix: Mix,
    /// Games of the corpus (ba-awa, bosh, bao-la-kete; `_` for `-` too) [default: every implemented game].
    #[arg(long, value_delimiter = ',', value_name = "GAMES")]
    pub games: Vec<String>,
    /// Seed of the corpus and of every random choice.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Positions per game in the corpus.
    #[arg(long, default_value_t = 256, value_name = "N")]
    pub positions: usize,
    /// Fraction of ValidateMove and ApplyMove calls sent with an illegal move.
    #[arg(long, default_value_t = 0.05, value_name = "FRACTION")]
    pub illegal: f64,
    /// ListLegalMoves without previews (by default each legal move comes with its state and events).
    #[arg(long)]
    pub no_previews: bool,
    /// ApplyMove with skip_events: the new state alone (by default the answer carries the move's events too).
    #[arg(long)]
    pub skip_events: bool,
    /// Deadline of each call.
    #[arg(long, value_parser = humantime::parse_duration, default_value = "10s", value_name = "TIME")]
    pub timeout: Duration,
    /// Send Diagnostics/Echo instead, with a payload as large as the average rules request.
    #[arg(long, conflicts_with = "compare")]
    pub baseline: bool,
    /// Run the rules load, then the baseline with the same settings, and report both and their ratios.
    #[arg(long)]
    pub compare: bool,
    /// With --compare: rules and baseline take turns in this many rounds (with --baseline-target: swap servers),
    /// so that a change in what else the machine runs hits both alike.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub rounds: usize,
    /// Also keep N more connections sending a crafted position whose move enters the longest relay known that
    /// must be watched lap by lap (one call in flight each) while the load is measured: what long engine work
    /// costs everybody else.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub attackers: usize,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Also write the JSON report to FILE (the text report still goes to stdout).
    #[arg(long, value_name = "FILE")]
    pub json_file: Option<PathBuf>,
    /// No progress bar (there is none anyway when stderr is not a terminal).
    #[arg(long)]
    pub no_progress: bool,
    /// Async runtime threads of the generator [default: the number of CPUs].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Write the corpus as ghz configurations and h2load bodies into DIR, and stop (nothing is sent).
    #[arg(long, value_name = "DIR")]
    pub dump_corpus: Option<PathBuf>,
}

impl LoadtestArgs {
    /// The library configuration these arguments ask for.
    pub fn config(&self) -> Result<Config, String> {
        let games = parse_games(&self.games.join(","))?;
        Ok(Config {
            targets: self.targets.clone(),
            baseline_targets: self.baseline_targets.clone(),
            ca_file: self.ca_file.clone(),
            api_key: self.api_key.clone(),
            connections: self.connections,
            concurrency: self.concurrency,
            stop: match self.requests {
                Some(n) => Stop::Requests(n),
                None => Stop::Duration(self.duration.unwrap_or(Duration::from_secs(30))),
            },
            warmup: self.warmup,
            rate: self.rate,
            mix: self.mix,
            games,
            seed: self.seed,
            positions: self.positions,
            illegal: self.illegal,
            previews: !self.no_previews,
            events: !self.skip_events,
            timeout: self.timeout,
            load: if self.compare {
                Load::Compare
            } else if self.baseline {
                Load::Baseline
            } else {
                Load::Rules
            },
            progress: !self.no_progress && std::io::stderr().is_terminal(),
            rounds: self.rounds,
            attackers: self.attackers,
        })
    }
}

/// Runs `mancala loadtest`; an error is one line for stderr.
pub fn run(args: LoadtestArgs) -> Result<(), String> {
    let config = args.config()?;
    config.validate().map_err(|e| e.to_string())?;

    if let Some(dir) = &args.dump_corpus {
        let corpus = Corpus::build(&config.games, config.positions, config.seed);
        let written = dump::dump(dir, &corpus, &config).map_err(|e| e.to_string())?;
        for path in written {
            eprintln!("wrote {}", path.display());
        }
        return Ok(());
    }

    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = args.threads {
        runtime.worker_threads(threads.max(1));
    }
    let runtime = runtime
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let summary = runtime
        .block_on(super::run(&config))
        .map_err(|e| e.to_string())?;
    let json = || {
        serde_json::to_string_pretty(&summary).map_err(|e| format!("cannot write the report: {e}"))
    };
    if let Some(path) = &args.json_file {
        std::fs::write(path, json()? + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if args.json {
        println!("{}", json()?);
    } else {
        print!("{}", summary.to_text());
    }
    Ok(())
}
