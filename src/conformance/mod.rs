//! The conformance suite (docs/conformance.md): `mancala perft`, the move-path counts of the move generator on
//! every core (`perft`); the recorded matches of `conformance/` and their recorder (`record`); and the runner,
//! `mancala conformance --target URL`, that replays them against any server speaking `mancala.v1.Rules`
//! (`replay`) and names every answer that differs (`diff`). Messages are read and written as proto3 JSON
//! (`json`), so that an implementation in any language can read the suite.

mod diff;
pub mod json;
pub mod perft;
pub mod record;
pub mod replay;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tonic::transport::{Certificate, ClientTlsConfig, Endpoint};

/// Replay the conformance suite against a server speaking `mancala.v1.Rules`, or record it.
#[derive(Debug, clap::Args)]
pub struct ConformanceArgs {
    /// The server to test: http://HOST:PORT (plaintext HTTP/2) or https://HOST:PORT (TLS).
    #[arg(long, value_name = "URL", required_unless_present = "record")]
    pub target: Option<String>,
    /// The suite to replay: every `*.jsonl` under DIR [default: conformance/rules-vN, N this build's rules
    /// version].
    #[arg(long, value_name = "DIR")]
    pub suite: Option<PathBuf>,
    /// Record the suite of this build's rules under DIR (in DIR/rules-vN) instead of replaying one.
    #[arg(long, value_name = "DIR", conflicts_with = "target")]
    pub record: Option<PathBuf>,
    /// An API key, sent as `authorization: Bearer KEY`, for a server that wants one.
    #[arg(
        long,
        env = "MANCALA_API_KEY",
        hide_env_values = true,
        value_name = "KEY"
    )]
    pub api_key: Option<String>,
    /// The CA certificate (PEM) an https:// target's certificate is checked against.
    #[arg(long, value_name = "FILE")]
    pub ca: Option<PathBuf>,
    /// Files replayed at once.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub concurrency: usize,
}

/// Runs `mancala conformance`; an error, or any disagreement, is a failure.
pub fn run(args: ConformanceArgs) -> Result<(), String> {
    if let Some(root) = &args.record {
        let written = record::record(root)?;
        for path in &written {
            println!("{}", path.display());
        }
        return Ok(());
    }
    let target = args.target.as_deref().ok_or("--target is required")?;
    let suite_dir = args
        .suite
        .clone()
        .unwrap_or_else(|| record::suite_dir(std::path::Path::new("conformance")));
    let suite = replay::Suite::load(&suite_dir)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let began = Instant::now();
    let report = runtime.block_on(async {
        let target = connect(target, &args).await?;
        replay::replay(&suite, &target, args.concurrency).await
    })?;
    for disagreement in &report.disagreements {
        println!("{disagreement}");
    }
    println!(
        "{} steps of {} files replayed against {target} in {:.1} s ({} calls): {} disagreements",
        report.steps,
        suite.files.len(),
        began.elapsed().as_secs_f64(),
        report.calls,
        report.disagreements.len()
    );
    if report.disagreements.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} answers disagree with the suite {}",
            report.disagreements.len(),
            suite_dir.display()
        ))
    }
}

/// The channel to `target`, with the CA and API key of `args`.
async fn connect(target: &str, args: &ConformanceArgs) -> Result<replay::Target, String> {
    let uri = crate::loadtest::driver::parse_target(target).map_err(|e| e.to_string())?;
    let https = uri.scheme_str() == Some("https");
    let mut endpoint = Endpoint::from(uri).connect_timeout(Duration::from_secs(5));
    if https {
        let mut tls = ClientTlsConfig::new();
        if let Some(path) = &args.ca {
            let pem = std::fs::read(path)
                .map_err(|e| format!("cannot read --ca {}: {e}", path.display()))?;
            tls = tls.ca_certificate(Certificate::from_pem(pem));
        }
        endpoint = endpoint
            .tls_config(tls)
            .map_err(|e| format!("cannot use TLS for {target}: {e}"))?;
    }
    let channel = endpoint
        .connect()
        .await
        .map_err(|e| format!("cannot connect to {target}: {e}"))?;
    let bearer = match &args.api_key {
        Some(key) => Some(
            format!("Bearer {key}")
                .parse()
                .map_err(|_| "--api-key must be printable ASCII".to_string())?,
        ),
        None => None,
    };
    Ok(replay::Target { channel, bearer })
}
