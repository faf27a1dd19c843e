//! Instruction counts of the hot paths (issue 43): deterministic figures that CI compares with a committed
//! baseline, so that a change making the engine or a rules call slower fails the run instead of hiding in the
//! noise of timed benchmarks on a shared machine.
//!
//! Each workload below is a function named `measure_*`, never inlined, that does a fixed, seeded amount of work.
//! Run alone, this program only sets the work up and does it once; `.ci/instructions` runs it under callgrind,
//! counting instructions only inside the `measure_*` functions and dumping a count when each one returns:
//!
//!     bash .ci/instructions            # compare with benches/instructions.baseline
//!     bash .ci/instructions --update   # write the baseline anew (say why in the commit's body)
//!
//! The work of each is chosen to take about a second under callgrind: large enough that a 3 % change is far above
//! the run-to-run jitter (allocator and hash seeds), small enough for CI.

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use mancala::api::pb;
use mancala::api::wire::server::rules_server::Rules;
use mancala::api::wire::ValidateMoveCall;
use mancala::engine::perft::perft;
use mancala::engine::{AnyGame, GameKind, Options, Rng, Until};
use mancala::loadtest::corpus::{apply_request, validate_request, Corpus};
use mancala::pool::EnginePool;
use mancala::service::rules::RulesService;
use prost::Message;
use tonic::Request;

// The server's allocator (src/main.rs): the rules calls' counts include their heap work as the server does it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `games` seeded random playouts of `kind` from the start of a match, each to `until`.
fn playouts(kind: GameKind, options: &Options, until: Until, games: u32) -> u64 {
    let start = AnyGame::new_match(kind, options);
    let mut rng = Rng::new(7);
    (0..games)
        .map(|_| u64::from(start.clone().random_playout(&mut rng, until, 1_000_000)))
        .sum()
}

#[inline(never)]
fn measure_bao_la_kete_random_games() -> u64 {
    playouts(
        GameKind::BaoLaKete,
        &Options::default(),
        Until::GameEnd,
        1_500,
    )
}

#[inline(never)]
fn measure_bosh_random_matches() -> u64 {
    playouts(GameKind::Bosh, &Options::default(), Until::MatchEnd, 400)
}

#[inline(never)]
fn measure_ba_awa_random_games() -> u64 {
    playouts(GameKind::BaAwa, &Options::default(), Until::GameEnd, 3_000)
}

#[inline(never)]
fn measure_ba_awa_random_matches() -> u64 {
    playouts(GameKind::BaAwa, &Options::default(), Until::MatchEnd, 40)
}

/// Perft from the start of a match, to a depth of some 10^5 to 10^6 nodes.
fn perft_from_start(kind: GameKind, depth: usize) -> u64 {
    let game = AnyGame::new_match(kind, &Options::default());
    perft(&game, depth).iter().sum()
}

#[inline(never)]
fn measure_bao_la_kete_perft_9() -> u64 {
    perft_from_start(GameKind::BaoLaKete, 9)
}

#[inline(never)]
fn measure_bosh_perft_10() -> u64 {
    perft_from_start(GameKind::Bosh, 10)
}

#[inline(never)]
fn measure_ba_awa_perft_8() -> u64 {
    perft_from_start(GameKind::BaAwa, 8)
}

/// Runs a handler to completion: rules handlers never wait on anything at these sizes, so one poll finishes them.
fn finish<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("rules handlers do not wait on a corpus position"),
    }
}

/// Decodes each body as the server's codec does, answers it, and encodes the answer (or the status).
fn answer_all<Req: Message + Default, Resp: Message, F>(
    bodies: &[Bytes],
    handle: impl Fn(Request<Req>) -> F,
) -> u64
where
    F: Future<Output = Result<tonic::Response<Resp>, tonic::Status>>,
{
    let answered = bodies.iter().map(|body| {
        let request = Req::decode(body.clone()).expect("a corpus request decodes");
        match finish(handle(Request::new(request))) {
            Ok(response) => response.into_inner().encode_to_vec().len(),
            Err(status) => status.message().len(),
        }
    });
    answered.map(|n| n as u64).sum()
}

#[inline(never)]
fn measure_validate_move_calls(rules: &RulesService, bodies: &[Bytes]) -> u64 {
    answer_all(bodies, |r| rules.validate_move(r))
}

#[inline(never)]
fn measure_apply_move_calls(rules: &RulesService, bodies: &[Bytes]) -> u64 {
    answer_all(bodies, |r| rules.apply_move(r))
}

#[inline(never)]
fn measure_apply_move_skip_events_calls(rules: &RulesService, bodies: &[Bytes]) -> u64 {
    black_box(3u8); // keeps it distinct from the function above (identical bodies are merged into one symbol)
    answer_all(bodies, |r| rules.apply_move(r))
}

/// Decodes `body` `times` times as the server's codec decodes a ValidateMove request.
fn decode_times(body: &Bytes, times: u32) -> u64 {
    (0..times)
        .map(|_| {
            let call = ValidateMoveCall::decode(body.clone()).map(|call| call.into_engine());
            u64::from(black_box(call).is_ok())
        })
        .sum()
}

#[inline(never)]
fn measure_decode_typical_state(body: &Bytes) -> u64 {
    decode_times(body, 2_000)
}

#[inline(never)]
fn measure_decode_oversized_state(body: &Bytes) -> u64 {
    black_box(4u8); // keeps it distinct from the function above
    decode_times(body, 20)
}

/// A ValidateMove request whose state lists a million pits (a 2 MB message, under the 4 MB limit): what a
/// crafted request makes the decoder read before its answer says the board has the wrong number of pits.
fn oversized(typical: &Bytes) -> Bytes {
    let mut request = pb::ValidateMoveRequest::decode(typical.clone()).expect("decodes");
    let state = request
        .state
        .as_mut()
        .expect("a corpus request has a state");
    state.pits = (0..1_000_000).map(|i| i % 97).collect();
    Bytes::from(request.encode_to_vec())
}

fn main() {
    let corpus = Corpus::build(&GameKind::ALL, 60, 2026);
    let mut validate = Vec::new();
    let mut apply = Vec::new();
    let mut apply_bare = Vec::new();
    for p in corpus.positions() {
        for mv in &p.legal {
            validate.push(Bytes::from(validate_request(p, mv).encode_to_vec()));
            apply.push(Bytes::from(apply_request(p, mv, true).encode_to_vec()));
            apply_bare.push(Bytes::from(apply_request(p, mv, false).encode_to_vec()));
        }
    }
    let settings = mancala::config::Settings::load_from(None, Vec::new()).expect("defaults load");
    let rules = RulesService::new(EnginePool::new(&settings.engine, Default::default()));
    let typical = validate[validate.len() / 2].clone();
    let huge = oversized(&typical);

    // The rules calls once unmeasured first: a thread's first call sets up what every later one reuses (its
    // buffers, the allocator's pages, the pool's lazily made parts), which is not what a call costs.
    answer_all(&validate, |r| rules.validate_move(r));
    answer_all(&apply, |r| rules.apply_move(r));

    // Once each, in a fixed order; the printed figures are the work done, for a reader checking two runs agree.
    let figures = [
        (
            "bao_la_kete_random_games",
            measure_bao_la_kete_random_games(),
        ),
        ("bosh_random_matches", measure_bosh_random_matches()),
        ("ba_awa_random_games", measure_ba_awa_random_games()),
        ("ba_awa_random_matches", measure_ba_awa_random_matches()),
        ("bao_la_kete_perft_9", measure_bao_la_kete_perft_9()),
        ("bosh_perft_10", measure_bosh_perft_10()),
        ("ba_awa_perft_8", measure_ba_awa_perft_8()),
        (
            "validate_move_calls",
            measure_validate_move_calls(&rules, &validate),
        ),
        ("apply_move_calls", measure_apply_move_calls(&rules, &apply)),
        (
            "apply_move_skip_events_calls",
            measure_apply_move_skip_events_calls(&rules, &apply_bare),
        ),
        (
            "decode_typical_state",
            measure_decode_typical_state(&typical),
        ),
        (
            "decode_oversized_state",
            measure_decode_oversized_state(&huge),
        ),
    ];
    println!("requests: {} a rules call", validate.len());
    for (name, work) in figures {
        println!("{name}: {}", black_box(work));
    }
}
