//! Sends the load: `connections` HTTP/2 connections, `concurrency` workers on each, every worker sending one
//! call at a time.
//!
//! - **Closed loop** (no rate): a worker sends its next call as soon as the previous one is answered. The
//!   latency is measured from the send. This finds the throughput the server sustains at that concurrency.
//! - **Fixed rate** (`rate`): call `k` is due at `start + k / rate`, and the workers share the timetable
//!   (worker `w` of `W` sends calls `w`, `w + W`, …). The latency of a call is measured from the time it was
//!   *due*, so a server that falls behind shows it in the percentiles instead of slowing the generator down
//!   and hiding its queue (coordinated omission). The time from the actual send is kept too, as the service
//!   time.
//!
//! Requests are pre-encoded [`Bytes`] sent through a pass-through codec, so the generator spends its CPU on
//! the transport, not on protobuf. Only `ValidateMove` answers are decoded (a few bytes), to check `legal`.

use std::{
    io::IsTerminal,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use bytes::{Buf, BufMut, Bytes};
use hdrhistogram::Histogram;
use http::uri::{PathAndQuery, Uri};
use prost::Message;
use tonic::{
    client::Grpc,
    codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder},
    transport::{Certificate, Channel, ClientTlsConfig, Endpoint},
    Code, Status,
};

use super::{
    corpus::{Case, Expect, Workload},
    report::Report,
    Config, Error, Stop,
};
use crate::{api::pb, engine::Rng};

/// Latencies are recorded in microseconds, up to a minute (longer ones count as a minute).
const MAX_LATENCY_US: u64 = 60_000_000;

/// Parses a target URI: `http://HOST:PORT` (plaintext HTTP/2) or `https://HOST:PORT` (TLS).
pub fn parse_target(target: &str) -> Result<Uri, Error> {
    let uri: Uri = target
        .parse()
        .map_err(|e| Error::Config(format!("target `{target}` is not a URI: {e}")))?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) || uri.host().is_none() {
        return Err(Error::Config(format!(
            "target `{target}` must look like http://127.0.0.1:50051 (plaintext HTTP/2) or https://HOST:PORT (TLS)"
        )));
    }
    Ok(uri)
}

/// Whether the target's host is a loopback address (`localhost`, 127.0.0.0/8, ::1).
pub fn is_loopback(uri: &Uri) -> bool {
    let host = uri.host().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Runs `workload` with the settings of `config` and reports what was measured.
pub async fn drive(
    config: &Config,
    workload: Arc<Workload>,
    label: &'static str,
) -> Result<Report, Error> {
    let measured = measure(config, workload.clone(), label).await?;
    Ok(measured.report(label, config, &workload))
}

/// What one run of a workload measured, before it becomes a [`Report`]; runs of the same workload add up.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Per RPC of the workload.
    pub stats: Stats,
    /// The measured window.
    pub elapsed: Duration,
}

impl Measured {
    /// Adds the calls and the window of `other` (a run of the same workload).
    pub fn add(&mut self, other: &Measured) {
        self.stats.merge(&other.stats);
        self.elapsed += other.elapsed;
    }

    /// Calls answered per second of the measured window, every RPC together.
    pub fn throughput(&self) -> f64 {
        let calls: u64 = self.stats.rpcs.iter().map(RpcStats::requests).sum();
        calls as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The report of these measurements.
    pub fn report(&self, label: &'static str, config: &Config, workload: &Workload) -> Report {
        Report::new(label, config, workload, &self.stats, self.elapsed)
    }
}

/// Runs `workload` with the settings of `config` and returns the raw measurements.
pub async fn measure(
    config: &Config,
    workload: Arc<Workload>,
    label: &'static str,
) -> Result<Measured, Error> {
    let channels = connect(config).await?;
    let workers_total = config.connections * config.concurrency;
    let start = Instant::now();
    let shared = Arc::new(Shared::new(config, workload.clone(), start, workers_total));
    let progress = config
        .progress
        .then(|| Progress::start(config, label, shared.clone()));

    let mut tasks = Vec::with_capacity(workers_total);
    for (c, channel) in channels.iter().enumerate() {
        for i in 0..config.concurrency {
            let worker = c * config.concurrency + i;
            let shared = shared.clone();
            let client = Grpc::new(channel.clone());
            let seed = config.seed ^ (worker as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
            tasks.push(tokio::spawn(async move {
                match shared.rate {
                    None => closed_loop(&shared, client, Rng::new(seed)).await,
                    Some(_) => fixed_rate(&shared, client, Rng::new(seed), worker).await,
                }
            }));
        }
    }
    let mut stats = Stats::new(workload.rpcs.len(), config.rate.is_some());
    for task in tasks {
        // A worker only ends by returning its statistics; a panic there is a bug worth surfacing.
        let worker_stats = task.await.expect("a load worker panicked");
        stats.merge(&worker_stats);
    }
    let elapsed = Instant::now().saturating_duration_since(shared.record_from);
    if let Some(progress) = progress {
        progress.finish().await;
    }
    Ok(Measured { stats, elapsed })
}

/// Opens the connections, spread over the targets in turn.
pub(super) async fn connect(config: &Config) -> Result<Vec<Channel>, Error> {
    // Only the given CA is trusted: a load test targets one deployment, whose CA the operator has.
    let tls = match &config.ca_file {
        Some(path) => {
            let pem = std::fs::read(path)
                .map_err(|e| Error::Config(format!("cannot read --ca {}: {e}", path.display())))?;
            Some(ClientTlsConfig::new().ca_certificate(Certificate::from_pem(pem)))
        }
        None => None,
    };
    let mut channels = Vec::with_capacity(config.connections);
    for i in 0..config.connections {
        let target = &config.targets[i % config.targets.len()];
        let uri = parse_target(target)?;
        let https = uri.scheme_str() == Some("https");
        let mut endpoint = Endpoint::from(uri)
            .tcp_nodelay(true)
            .connect_timeout(Duration::from_secs(5))
            .timeout(config.timeout);
        if let (true, Some(tls)) = (https, &tls) {
            endpoint = endpoint
                .tls_config(tls.clone())
                .map_err(|error| Error::Connect {
                    target: target.clone(),
                    error,
                })?;
        }
        let channel = endpoint.connect().await.map_err(|error| Error::Connect {
            target: target.clone(),
            error,
        })?;
        channels.push(channel);
    }
    Ok(channels)
}

/// What the workers share.
struct Shared {
    workload: Arc<Workload>,
    rate: Option<f64>,
    start: Instant,
    /// Closed loop: calls sent before this are warmup.
    record_from: Instant,
    /// Closed loop with a duration: no call is sent after this.
    stop_at: Option<Instant>,
    /// Closed loop with a request count: how many recorded calls may be sent.
    limit: Option<u64>,
    /// Fixed rate: the first recorded call, and the first call not sent.
    first_recorded: u64,
    end: u64,
    workers: u64,
    /// Closed loop with a request count: tickets handed out to recorded calls.
    tickets: AtomicU64,
    /// Recorded calls answered, for the progress bar.
    done: AtomicU64,
    /// `authorization` of every call (`--api-key`).
    bearer: Option<tonic::metadata::AsciiMetadataValue>,
}

impl Shared {
    fn new(config: &Config, workload: Arc<Workload>, start: Instant, workers: usize) -> Shared {
        let (first_recorded, end, record_from) = match config.rate {
            Some(rate) => {
                let first = (config.warmup.as_secs_f64() * rate).ceil() as u64;
                let end = match config.stop {
                    Stop::Duration(d) => ((config.warmup + d).as_secs_f64() * rate).ceil() as u64,
                    Stop::Requests(n) => first + n,
                };
                (
                    first,
                    end,
                    start + Duration::from_secs_f64(first as f64 / rate),
                )
            }
            None => (0, u64::MAX, start + config.warmup),
        };
        Shared {
            workload,
            rate: config.rate,
            start,
            record_from,
            stop_at: match (config.rate, config.stop) {
                (None, Stop::Duration(d)) => Some(record_from + d),
                _ => None,
            },
            limit: match config.stop {
                Stop::Requests(n) => Some(n),
                Stop::Duration(_) => None,
            },
            first_recorded,
            end,
            workers: workers as u64,
            tickets: AtomicU64::new(0),
            done: AtomicU64::new(0),
            bearer: config.bearer(),
        }
    }

    /// Sends `case` of the workload's RPC `rpc`, with the API key if one is given.
    async fn call(&self, client: &mut Grpc<Channel>, rpc: usize, case: &Case) -> Answer {
        let path = self.workload.rpcs[rpc].rpc.path();
        call(client, path, case, self.bearer.as_ref()).await
    }

    /// Fixed rate: when call `k` is due.
    fn due(&self, k: u64) -> Instant {
        let rate = self.rate.expect("fixed-rate mode");
        self.start + Duration::from_secs_f64(k as f64 / rate)
    }
}

/// Sends calls back to back until the duration is over or the recorded calls are all sent.
async fn closed_loop(shared: &Shared, mut client: Grpc<Channel>, mut rng: Rng) -> Stats {
    let mut stats = Stats::new(shared.workload.rpcs.len(), false);
    loop {
        let now = Instant::now();
        if shared.stop_at.is_some_and(|stop| now >= stop) {
            break;
        }
        let recording = now >= shared.record_from;
        if recording {
            if let Some(limit) = shared.limit {
                if shared.tickets.fetch_add(1, Ordering::Relaxed) >= limit {
                    break;
                }
            }
        }
        let (rpc, case) = shared.workload.pick(&mut rng);
        let sent = Instant::now();
        let answer = shared.call(&mut client, rpc, case).await;
        if recording {
            let latency = sent.elapsed();
            stats.record(rpc, case, &answer, latency, None);
            shared.done.fetch_add(1, Ordering::Relaxed);
        }
    }
    stats
}

/// Sends the calls of the shared timetable that fall to worker `worker`, each when it is due (or at once
/// when the worker is late), until the timetable ends.
async fn fixed_rate(
    shared: &Shared,
    mut client: Grpc<Channel>,
    mut rng: Rng,
    worker: usize,
) -> Stats {
    let mut stats = Stats::new(shared.workload.rpcs.len(), true);
    let mut k = worker as u64;
    while k < shared.end {
        let due = shared.due(k);
        let recording = k >= shared.first_recorded;
        tokio::time::sleep_until(due.into()).await;
        let (rpc, case) = shared.workload.pick(&mut rng);
        let sent = Instant::now();
        let answer = shared.call(&mut client, rpc, case).await;
        if recording {
            let answered = Instant::now();
            let latency = answered.saturating_duration_since(due);
            let service = answered.saturating_duration_since(sent);
            stats.record(rpc, case, &answer, latency, Some(service));
            shared.done.fetch_add(1, Ordering::Relaxed);
        }
        k += shared.workers;
    }
    stats
}

/// What one call came back with.
enum Answer {
    Ok(Bytes),
    Status { code: Code, transport: bool },
}

async fn call(
    client: &mut Grpc<Channel>,
    path: &'static str,
    case: &Case,
    bearer: Option<&tonic::metadata::AsciiMetadataValue>,
) -> Answer {
    let status = |s: Status| Answer::Status {
        code: s.code(),
        // A status made by the client's own transport (connection lost, deadline) carries the error
        // that caused it; one the server sent does not.
        transport: std::error::Error::source(&s).is_some(),
    };
    if client.ready().await.is_err() {
        return Answer::Status {
            code: Code::Unavailable,
            transport: true,
        };
    }
    let mut request = tonic::Request::new(case.body.clone());
    if let Some(bearer) = bearer {
        request
            .metadata_mut()
            .insert("authorization", bearer.clone());
    }
    match client
        .unary(request, PathAndQuery::from_static(path), RawCodec)
        .await
    {
        Ok(response) => Answer::Ok(response.into_inner()),
        Err(s) => status(s),
    }
}

/// Measurements of one RPC.
#[derive(Clone, Debug)]
pub struct RpcStats {
    /// Latency in microseconds: from the send (closed loop) or from the due time (fixed rate).
    pub latency: Histogram<u64>,
    /// Fixed rate: from the actual send, in microseconds.
    pub service: Option<Histogram<u64>>,
    /// Answers by gRPC status code (index = code).
    pub codes: [u64; 17],
    /// FAILED_PRECONDITION answers to an `ApplyMove` of an illegal move.
    pub expected_refusals: u64,
    /// OK answers that contradict the rules (a `legal` flag wrong, an illegal move applied).
    pub wrong_answers: u64,
    /// Calls that got no status from the server (connection lost, deadline passed).
    pub transport_errors: u64,
}

impl RpcStats {
    fn new(service: bool) -> RpcStats {
        let histogram =
            || Histogram::new_with_bounds(1, MAX_LATENCY_US, 3).expect("valid histogram bounds");
        RpcStats {
            latency: histogram(),
            service: service.then(histogram),
            codes: [0; 17],
            expected_refusals: 0,
            wrong_answers: 0,
            transport_errors: 0,
        }
    }

    /// Every call recorded.
    pub fn requests(&self) -> u64 {
        self.codes.iter().sum()
    }

    /// Calls that ended neither in OK nor in an expected refusal.
    pub fn errors(&self) -> u64 {
        self.requests() - self.codes[Code::Ok as usize] - self.expected_refusals
    }

    fn merge(&mut self, other: &RpcStats) {
        self.latency
            .add(&other.latency)
            .expect("histograms of the same bounds");
        if let (Some(a), Some(b)) = (&mut self.service, &other.service) {
            a.add(b).expect("histograms of the same bounds");
        }
        for (a, b) in self.codes.iter_mut().zip(other.codes) {
            *a += b;
        }
        self.expected_refusals += other.expected_refusals;
        self.wrong_answers += other.wrong_answers;
        self.transport_errors += other.transport_errors;
    }
}

/// Measurements of every RPC of a workload (same order as [`Workload::rpcs`]).
#[derive(Clone, Debug)]
pub struct Stats {
    /// One per RPC.
    pub rpcs: Vec<RpcStats>,
}

impl Stats {
    fn new(rpcs: usize, service: bool) -> Stats {
        Stats {
            rpcs: (0..rpcs).map(|_| RpcStats::new(service)).collect(),
        }
    }

    fn merge(&mut self, other: &Stats) {
        for (a, b) in self.rpcs.iter_mut().zip(&other.rpcs) {
            a.merge(b);
        }
    }

    fn record(
        &mut self,
        rpc: usize,
        case: &Case,
        answer: &Answer,
        latency: Duration,
        service: Option<Duration>,
    ) {
        let s = &mut self.rpcs[rpc];
        let micros = |d: Duration| (d.as_micros() as u64).clamp(1, MAX_LATENCY_US);
        s.latency.saturating_record(micros(latency));
        if let (Some(h), Some(d)) = (&mut s.service, service) {
            h.saturating_record(micros(d));
        }
        match answer {
            Answer::Ok(body) => {
                s.codes[Code::Ok as usize] += 1;
                let right = match case.expect {
                    Expect::Ok => true,
                    Expect::Refused => false,
                    Expect::Legal(legal) => pb::ValidateMoveResponse::decode(body.as_ref())
                        .is_ok_and(|r| r.legal == legal),
                };
                if !right {
                    s.wrong_answers += 1;
                }
            }
            Answer::Status { code, transport } => {
                s.codes[(*code as usize).min(16)] += 1;
                if *code == Code::FailedPrecondition && case.expect == Expect::Refused {
                    s.expected_refusals += 1;
                }
                if *transport {
                    s.transport_errors += 1;
                }
            }
        }
    }
}

/// A codec that sends and receives message bytes as they are: requests are encoded once, up front.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RawCodec;

impl Codec for RawCodec {
    type Encode = Bytes;
    type Decode = Bytes;
    type Encoder = RawCodec;
    type Decoder = RawCodec;

    fn encoder(&mut self) -> RawCodec {
        RawCodec
    }

    fn decoder(&mut self) -> RawCodec {
        RawCodec
    }
}

impl Encoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put(item);
        Ok(())
    }
}

impl Decoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining())))
    }
}

/// The progress bar on stderr (only when stderr is a terminal).
struct Progress {
    bar: indicatif::ProgressBar,
    ticker: tokio::task::JoinHandle<()>,
}

impl Progress {
    fn start(config: &Config, label: &'static str, shared: Arc<Shared>) -> Progress {
        if !std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::hidden();
            return Progress {
                bar,
                ticker: tokio::spawn(async {}),
            };
        }
        let (length, by_time) = match (config.stop, config.rate) {
            (Stop::Requests(n), _) => (n, false),
            (Stop::Duration(d), _) => ((config.warmup + d).as_millis() as u64, true),
        };
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(length),
            indicatif::ProgressDrawTarget::stderr_with_hz(4),
        );
        let template = if by_time {
            "{prefix:>8} [{elapsed_precise}] {wide_bar} {msg}"
        } else {
            "{prefix:>8} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}"
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(template).expect("a valid progress template"),
        );
        bar.set_prefix(label);
        let ticker = {
            let bar = bar.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_millis(250));
                loop {
                    tick.tick().await;
                    let now = Instant::now();
                    let done = shared.done.load(Ordering::Relaxed);
                    let warming = now < shared.record_from;
                    let measured = now.saturating_duration_since(shared.record_from);
                    let rate = done as f64 / measured.as_secs_f64().max(1e-3);
                    if by_time {
                        bar.set_position(
                            now.saturating_duration_since(shared.start).as_millis() as u64
                        );
                    } else {
                        bar.set_position(done);
                    }
                    bar.set_message(if warming {
                        "warming up".to_string()
                    } else {
                        format!("{done} calls, {rate:.0}/s")
                    });
                }
            })
        };
        Progress { bar, ticker }
    }

    async fn finish(self) {
        self.ticker.abort();
        let _ = self.ticker.await;
        self.bar.finish_and_clear();
    }
}
