//! What a rules call costs the server beside the transport (issue 6): each request of a load-test corpus decoded
//! from its bytes, handled by the service, and its response encoded — in process, on one core, no HTTP/2. The
//! baseline is `Diagnostics/Echo` with a request and an answer of the same mean sizes, through the same steps.
//!
//! `authentication` times what the interceptor in front of every service adds to a call (`service::auth`): the
//! credential read, checked and charged to its tenant, for each kind of caller.
//!
//!     cargo bench --bench rules_calls

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mancala::api::pb::diagnostics_server::Diagnostics;
use mancala::api::wire::server::rules_server::Rules;
use mancala::engine::GameKind;
use mancala::loadtest::corpus::{apply_request, echo_case, validate_request, Corpus};
use mancala::pool::EnginePool;
use mancala::service::{diagnostics::DiagnosticsService, rules::RulesService};
use prost::Message;
use tonic::Request;

// The server's allocator (src/main.rs), so the in-process figures are those of the server's own heap.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Runs a handler to completion: they never wait on anything, so one poll finishes them.
fn finish<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("rules handlers do not wait"),
    }
}

/// Decodes `body` as `Req`, runs `handle`, encodes the answer (or the status) as the server would.
fn call<
    Req: Message + Default,
    Resp: Message,
    F: Future<Output = Result<tonic::Response<Resp>, tonic::Status>>,
>(
    body: &Bytes,
    handle: impl FnOnce(Request<Req>) -> F,
) -> usize {
    let request = Req::decode(body.clone()).expect("a corpus request decodes");
    match finish(handle(Request::new(request))) {
        Ok(response) => response.into_inner().encode_to_vec().len(),
        Err(status) => status.message().len(),
    }
}

// Each group's requests answered once, each group in its own function that is never inlined, so that callgrind on
// the bench's set-up (`--bench no_such_bench`: nothing is timed) counts a call's instructions: the function's
// inclusive count divided by its calls. Steadier than timings on a shared machine.

#[inline(never)]
fn validate_move_once(rules: &RulesService, bodies: &[Bytes]) -> usize {
    black_box(1u8); // keeps the functions distinct (identical ones are merged into one symbol)
    bodies
        .iter()
        .map(|body| call(body, |r| rules.validate_move(r)))
        .sum()
}

#[inline(never)]
fn apply_move_once(rules: &RulesService, bodies: &[Bytes]) -> usize {
    black_box(2u8); // keeps the functions distinct (identical ones are merged into one symbol)
    bodies
        .iter()
        .map(|body| call(body, |r| rules.apply_move(r)))
        .sum()
}

#[inline(never)]
fn apply_move_skip_events_once(rules: &RulesService, bodies: &[Bytes]) -> usize {
    black_box(3u8); // keeps the functions distinct (identical ones are merged into one symbol)
    bodies
        .iter()
        .map(|body| call(body, |r| rules.apply_move(r)))
        .sum()
}

#[inline(never)]
fn echo_once(diagnostics: &DiagnosticsService, echo: &Bytes, calls: usize) -> usize {
    (0..calls)
        .map(|_| call(echo, |r| diagnostics.echo(r)))
        .sum()
}

#[inline(never)]
fn echo_as_large_as_validate_move_once(
    diagnostics: &DiagnosticsService,
    echo: &Bytes,
    calls: usize,
) -> usize {
    black_box(4u8); // keeps the functions distinct (identical ones are merged into one symbol)
    echo_once(diagnostics, echo, calls)
}

#[inline(never)]
fn echo_as_large_as_apply_move_once(
    diagnostics: &DiagnosticsService,
    echo: &Bytes,
    calls: usize,
) -> usize {
    black_box(5u8); // keeps the functions distinct (identical ones are merged into one symbol)
    echo_once(diagnostics, echo, calls)
}

#[inline(never)]
fn echo_as_large_as_apply_move_skip_events_once(
    diagnostics: &DiagnosticsService,
    echo: &Bytes,
    calls: usize,
) -> usize {
    black_box(6u8); // keeps the functions distinct (identical ones are merged into one symbol)
    echo_once(diagnostics, echo, calls)
}

fn handlers(c: &mut Criterion) {
    let corpus = Corpus::build(&GameKind::ALL, 200, 2026);
    let mut apply = Vec::new();
    let mut apply_bare = Vec::new();
    let mut validate = Vec::new();
    for p in corpus.positions() {
        for mv in &p.legal {
            apply.push(Bytes::from(apply_request(p, mv, true).encode_to_vec()));
            apply_bare.push(Bytes::from(apply_request(p, mv, false).encode_to_vec()));
            validate.push(Bytes::from(validate_request(p, mv).encode_to_vec()));
        }
    }
    let mean = |bodies: &[Bytes]| bodies.iter().map(Bytes::len).sum::<usize>() / bodies.len();
    let settings = mancala::config::Settings::load_from(None, Vec::new()).expect("defaults load");
    let rules = RulesService::new(EnginePool::new(&settings.engine, Default::default()));
    let diagnostics = DiagnosticsService::new(usize::MAX);
    let mut group = c.benchmark_group("rules_calls");
    for (name, bodies) in [
        ("apply_move", &apply),
        ("apply_move_skip_events", &apply_bare),
        ("validate_move", &validate),
    ] {
        let answers = match name {
            "validate_move" => validate_move_once(&rules, bodies),
            "apply_move" => apply_move_once(&rules, bodies),
            _ => apply_move_skip_events_once(&rules, bodies),
        };
        println!(
            "{name}: {} requests of {} bytes on average, answers of {} bytes",
            bodies.len(),
            mean(bodies),
            answers / bodies.len()
        );
        group.throughput(Throughput::Elements(bodies.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for body in bodies.iter() {
                    black_box(match name {
                        "validate_move" => call(body, |r| rules.validate_move(r)),
                        _ => call(body, |r| rules.apply_move(r)),
                    });
                }
            })
        });
        let echo = echo_case(mean(bodies), answers / bodies.len()).body;
        black_box(match name {
            "validate_move" => {
                echo_as_large_as_validate_move_once(&diagnostics, &echo, bodies.len())
            }
            "apply_move" => echo_as_large_as_apply_move_once(&diagnostics, &echo, bodies.len()),
            _ => echo_as_large_as_apply_move_skip_events_once(&diagnostics, &echo, bodies.len()),
        });
        group.bench_function(format!("echo_as_large_as_{name}"), |b| {
            b.iter(|| {
                for _ in 0..bodies.len() {
                    black_box(call(&echo, |r| diagnostics.echo(r)));
                }
            })
        });
    }
    group.finish();
}

/// A call's metadata with `credential` as its bearer (none for `None`).
fn head(credential: Option<&str>) -> Request<()> {
    let mut request = Request::new(());
    if let Some(credential) = credential {
        request.metadata_mut().insert(
            "authorization",
            format!("Bearer {credential}").parse().expect("ASCII"),
        );
    }
    request
}

fn authentication(c: &mut Criterion) {
    use mancala::identity::Identity;
    use mancala::service::auth::{Authenticate, Needs};
    use mancala::store::{LimitOverrides, MemoryStore};
    use tonic::service::Interceptor;

    let mut settings =
        mancala::config::Settings::load_from(None, Vec::new()).expect("defaults load");
    // The set-up's store calls are awaited here; the calls measured never reach the store.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let mut open = |required: bool| {
        settings.auth.required = required;
        let identity = runtime
            .block_on(Identity::open(
                Arc::new(MemoryStore::new()),
                &settings.auth,
                settings.limits,
            ))
            .expect("a memory store");
        let gate = Authenticate::new(identity.clone(), Default::default(), Needs::AnyCredential);
        (identity, gate)
    };
    let (_, mut anonymous) = open(false);
    let (identity, mut gate) = open(true);
    let unrated = LimitOverrides {
        calls_per_second: Some(0),
        ..LimitOverrides::default()
    };
    let rated = LimitOverrides {
        calls_per_second: Some(u32::MAX),
        burst: Some(u32::MAX),
        ..LimitOverrides::default()
    };
    let (_, unrated_key) = runtime
        .block_on(identity.create_tenant("unrated", "", unrated))
        .expect("created");
    let (_, rated_key) = runtime
        .block_on(identity.create_tenant("rated", "", rated))
        .expect("created");
    let (token, _) = identity
        .issue_token(&identity.tenant("unrated"), &unrated_key.id, "ann", None)
        .expect("a token");
    let seat = "ab".repeat(32);
    let mut group = c.benchmark_group("authentication");
    group.bench_function("anonymous", |b| {
        b.iter(|| black_box(anonymous.call(head(None)).is_ok()))
    });
    for (name, credential) in [
        ("api_key", unrated_key.key.as_str()),
        ("api_key_rate_limited", rated_key.key.as_str()),
        ("player_token", token.as_str()),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| black_box(gate.call(head(Some(credential))).is_ok()))
        });
    }
    // Where auth is required, seat tokens share a bucket of 10,000 calls/s, which this loop would empty in a
    // moment and then time refusals: timed where they are not held to a rate.
    group.bench_function("seat_token", |b| {
        b.iter(|| black_box(anonymous.call(head(Some(&seat))).is_ok()))
    });
    group.finish();
}

criterion_group!(benches, handlers, authentication);
criterion_main!(benches);
