//! `mancala`: the gRPC rules server. Thin on purpose: parse the command line, load the
//! configuration (failing with one line before anything is bound), start logging, bind, and hand
//! over to [`mancala::server::run`] until SIGTERM or SIGINT.

#![forbid(unsafe_code)]

use std::{net::SocketAddr, path::PathBuf, process::ExitCode};

use clap::{Args, Parser, Subcommand};
use mancala::{config::Settings, server, telemetry};

/// Every call allocates small buffers (HTTP/2 frames, protobuf messages): mimalloc serves them from per-thread
/// pages, about 15 % more calls per second than the system allocator (BENCHMARKS.md, "Service").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// gRPC rules server for Bao la Kete, Bosh and Ba-awa.
#[derive(Debug, Parser)]
#[command(
    name = "mancala",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// `serve`'s options, for `mancala` alone.
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the gRPC API (the default).
    Serve(ServeArgs),
    /// Manage a running server's tenants and their API keys (needs the operator key).
    Tenants(mancala::tenants_cli::TenantsArgs),
    /// Print a new operator key and the hash to configure as auth.operator_key_sha256.
    OperatorKey,
    /// Load a running server and report throughput and latency (see docs/guide/load-testing.md).
    #[cfg(feature = "loadtest")]
    Loadtest(Box<mancala::loadtest::cli::LoadtestArgs>),
    /// Play matches between two built-in opponents and report their strength (see
    /// docs/guide/matches.md, "Levels and the arena").
    #[cfg(feature = "loadtest")]
    Arena(mancala::arena::cli::ArenaArgs),
    /// Send every method the largest requests it may get and report what refusing them costs the server (see
    /// docs/guide/security-and-limits.md).
    #[cfg(feature = "loadtest")]
    Oversized(mancala::loadtest::oversized::OversizedArgs),
    /// Count the move sequences of each length from a position: the move generator's test (see
    /// docs/conformance.md).
    #[cfg(feature = "loadtest")]
    Perft(mancala::conformance::perft::PerftArgs),
    /// Replay the conformance suite against a server speaking mancala.v1.Rules and report every disagreement,
    /// or record the suite (see docs/conformance.md).
    #[cfg(feature = "loadtest")]
    Conformance(mancala::conformance::ConformanceArgs),
}

#[derive(Debug, Args)]
struct ServeArgs {
    /// A TOML configuration file (see deploy/mancala.example.toml). Environment variables
    /// MANCALA__SECTION__KEY override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Listen on this address instead of server.listen (port 0 picks a free port).
    #[arg(long, value_name = "ADDR")]
    listen: Option<SocketAddr>,
    /// Development mode (server.dev): the lobby out of the box, on loopback only, with the tenant "dev" and a
    /// well-known operator key, so that `mancala tenants token dev PLAYER` mints player tokens.
    #[arg(long)]
    dev: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Tenants(args)) => mancala::tenants_cli::run(args),
        Some(Command::OperatorKey) => mancala::tenants_cli::operator_key(),
        #[cfg(feature = "loadtest")]
        Some(Command::Loadtest(args)) => mancala::loadtest::cli::run(*args),
        #[cfg(feature = "loadtest")]
        Some(Command::Arena(args)) => mancala::arena::cli::run(args),
        #[cfg(feature = "loadtest")]
        Some(Command::Oversized(args)) => mancala::loadtest::oversized::run(args),
        #[cfg(feature = "loadtest")]
        Some(Command::Perft(args)) => mancala::conformance::perft::run(args),
        #[cfg(feature = "loadtest")]
        Some(Command::Conformance(args)) => mancala::conformance::run(args),
        None => serve(cli.serve),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mancala: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the server; an error is one line for stderr.
fn serve(args: ServeArgs) -> Result<(), String> {
    let mut settings = Settings::load(args.config.as_deref()).map_err(|e| e.to_string())?;
    if let Some(listen) = args.listen {
        settings.server.listen = listen;
    }
    settings.server.dev |= args.dev;
    // Again after the flags: `--listen` may have moved the listener, `--dev` turned the mode on.
    settings.develop().map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    // The OTLP exporter's channel lives on the runtime; dropped before it, the exporter sends its last spans.
    let _exporter = {
        let _entered = runtime.enter();
        telemetry::init(&settings.log, &settings.telemetry).map_err(|e| e.to_string())?
    };
    // Dropping the runtime on return abandons whatever outlived the shutdown grace.
    runtime.block_on(async {
        let shutdown = shutdown_signal().map_err(|e| format!("cannot listen for signals: {e}"))?;
        let addr = settings.server.listen;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        // `server::run` logs "listening" once it is ready to serve.
        server::run(listener, settings, shutdown)
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "server failed");
                e.to_string()
            })
    })
}

/// Completes on the first SIGTERM or SIGINT. The handlers are installed now, before binding,
/// so a signal that arrives early is not lost nor fatal.
#[cfg(unix)]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        let name = tokio::select! {
            _ = terminate.recv() => "SIGTERM",
            _ = interrupt.recv() => "SIGINT",
        };
        tracing::info!(signal = name, "shutdown requested");
    })
}

/// Completes on the first Ctrl-C.
#[cfg(not(unix))]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!(signal = "ctrl-c", "shutdown requested");
    })
}
