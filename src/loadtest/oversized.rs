//! `mancala oversized`: what a refusal costs the server when a request is as large as it may be (issue 34).
//!
//! For every method of every service in the descriptor set it builds the worst requests known: a valid request
//! (a game's start position wherever a `GameState` goes, a legal move wherever a `Move` goes) with one repeated
//! field, or one string, filled until the message is as large as the server accepts. Each is sent `calls` times,
//! one at a time, and the server's CPU is read from `/proc/<pid>/task/*/schedstat` (nanoseconds, every thread)
//! before and after, so that the figure is the server's whole cost of the call: HTTP/2, decoding, checking,
//! answering. The figure is a measurement for BENCHMARKS.md, never a pass or fail.

use std::{fs, path::Path, time::Duration, time::Instant};

use bytes::Bytes;
use prost_reflect::{
    Cardinality, DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MessageDescriptor,
    MethodDescriptor, Value,
};
use serde::Serialize;
use tonic::{client::Grpc, codegen::http::uri::PathAndQuery, transport::Endpoint, Code};

use super::{driver::RawCodec, Error};
use crate::api::{self, convert, pb};
use crate::engine::{AnyGame, GameKind, Options};

/// How deep into a request's messages a field is looked for.
const DEPTH: usize = 4;

/// `mancala oversized`: the refusal cost of the largest requests, per method and field.
#[derive(Debug, clap::Args)]
pub struct OversizedArgs {
    /// The server (`http://HOST:PORT`).
    #[arg(long, default_value = "http://127.0.0.1:50051", value_name = "URI")]
    pub target: String,
    /// The server's process id, whose CPU is read from /proc.
    #[arg(long, value_name = "PID")]
    pub server_pid: u32,
    /// The largest message the server accepts (its `server.max_message_bytes`); requests are filled to it.
    #[arg(long, default_value_t = 1_048_576, value_name = "BYTES")]
    pub max_message_bytes: usize,
    /// Calls of each request (one at a time).
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub calls: u32,
    /// Only methods whose full name contains this (e.g. `Rules/`).
    #[arg(long, value_name = "TEXT")]
    pub only: Option<String>,
    /// A tenant's API key or player token, sent with every call.
    #[arg(long, env = "MANCALA_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,
    /// The operator key, sent to the Admin service instead (without it Admin refuses before decoding).
    #[arg(long, env = "MANCALA_OPERATOR_KEY", hide_env_values = true)]
    pub operator_key: Option<String>,
    /// Print the measurements as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One oversized request and what it cost.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    /// `mancala.v1.Rules/ValidateMove`.
    pub method: String,
    /// The field filled, as a path (`state.stores`), with the value it was filled with.
    pub field: String,
    /// The request's size.
    pub bytes: usize,
    /// The status the server answered (`OK` when it accepted the request).
    pub code: String,
    /// Server CPU per call, in milliseconds (every thread of the process).
    pub server_cpu_ms: f64,
    /// The client's wait per call, in milliseconds.
    pub latency_ms: f64,
}

/// Runs the command.
pub fn run(args: OversizedArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let measured = runtime
        .block_on(measure(&args))
        .map_err(|e| e.to_string())?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&measured).expect("measurements serialise")
        );
        return Ok(());
    }
    println!(
        "{:<44} {:<40} {:>8} {:<18} {:>10} {:>10}",
        "method", "field", "bytes", "answer", "cpu ms", "wait ms"
    );
    for m in &measured {
        println!(
            "{:<44} {:<40} {:>8} {:<18} {:>10.3} {:>10.3}",
            m.method, m.field, m.bytes, m.code, m.server_cpu_ms, m.latency_ms
        );
    }
    println!("\nworst per method:");
    let mut methods: Vec<&str> = measured.iter().map(|m| m.method.as_str()).collect();
    methods.dedup();
    for method in methods {
        let worst = measured
            .iter()
            .filter(|m| m.method == method)
            .max_by(|a, b| a.server_cpu_ms.total_cmp(&b.server_cpu_ms))
            .expect("a method listed has a measurement");
        println!(
            "{:<44} {:>10.3} ms  ({}, {} bytes, {})",
            method, worst.server_cpu_ms, worst.field, worst.bytes, worst.code
        );
    }
    Ok(())
}

/// Sends every oversized request and measures it.
pub async fn measure(args: &OversizedArgs) -> Result<Vec<Measured>, Error> {
    let pool = DescriptorPool::decode(api::FILE_DESCRIPTOR_SET)
        .map_err(|e| Error::Config(format!("cannot read the descriptor set: {e}")))?;
    let channel = Endpoint::from_shared(args.target.clone())
        .map_err(|e| Error::Config(format!("--target {}: {e}", args.target)))?
        .connect()
        .await
        .map_err(|error| Error::Connect {
            target: args.target.clone(),
            error,
        })?;
    let mut grpc = Grpc::new(channel)
        .max_decoding_message_size(usize::MAX)
        .max_encoding_message_size(usize::MAX);
    let bases = Bases::new(&pool)?;
    let mut out = Vec::new();
    for service in pool.services() {
        for method in service.methods() {
            let name = format!("{}/{}", service.full_name(), method.name());
            if args
                .only
                .as_deref()
                .is_some_and(|only| !name.contains(only))
            {
                continue;
            }
            for case in cases(&bases, &method, args.max_message_bytes) {
                let credential = if service.name() == "Admin" {
                    args.operator_key.as_deref()
                } else {
                    args.api_key.as_deref()
                };
                out.push(
                    send(
                        &mut grpc,
                        &method,
                        &name,
                        case,
                        credential,
                        args.calls,
                        args.server_pid,
                    )
                    .await?,
                );
            }
        }
    }
    Ok(out)
}

/// One request to send: the field filled and the bytes.
struct Case {
    field: String,
    body: Bytes,
}

/// Valid values of the messages a request may hold, from which the requests start.
struct Bases {
    states: Vec<DynamicMessage>,
    game_move: DynamicMessage,
}

impl Bases {
    fn new(pool: &DescriptorPool) -> Result<Bases, Error> {
        let state_type = message(pool, "mancala.v1.GameState")?;
        let move_type = message(pool, "mancala.v1.Move")?;
        let states = GameKind::ALL
            .iter()
            .map(|&kind| {
                let state = convert::state_to_pb(&AnyGame::new_match(kind, &Options::default()));
                dynamic(&state_type, &state)
            })
            .collect::<Result<_, _>>()?;
        let sow = pb::Move {
            action: Some(pb::r#move::Action::Sow(pb::Sow {
                pit: 0,
                ..Default::default()
            })),
        };
        Ok(Bases {
            states,
            game_move: dynamic(&move_type, &sow)?,
        })
    }
}

fn message(pool: &DescriptorPool, name: &str) -> Result<MessageDescriptor, Error> {
    pool.get_message_by_name(name)
        .ok_or_else(|| Error::Config(format!("{name} is not in the descriptor set")))
}

fn dynamic(
    descriptor: &MessageDescriptor,
    message: &impl prost::Message,
) -> Result<DynamicMessage, Error> {
    DynamicMessage::decode(descriptor.clone(), message.encode_to_vec().as_slice())
        .map_err(|e| Error::Config(format!("{}: {e}", descriptor.full_name())))
}

/// The requests of `method`: its request made valid once per game, then each fillable field of it filled.
fn cases(bases: &Bases, method: &MethodDescriptor, limit: usize) -> Vec<Case> {
    let input = method.input();
    let mut out = Vec::new();
    for (game, state) in bases.states.iter().enumerate() {
        let base = valid_request(&input, state, &bases.game_move, game, DEPTH);
        let mut paths = Vec::new();
        fillable(&input, &mut Vec::new(), &mut paths, DEPTH);
        let holds_state = !paths.is_empty() && mentions_state(&input, DEPTH);
        for path in paths {
            for filling in fillings(path.last().expect("a path names a field")) {
                let mut request = base.clone();
                fill(&mut request, &path, &filling, limit);
                let body = Bytes::from(prost::Message::encode_to_vec(&request));
                let names: Vec<&str> = path.iter().map(FieldDescriptor::name).collect();
                let kind = if holds_state {
                    format!(" [{}]", GameKind::ALL[game].slug())
                } else {
                    String::new()
                };
                out.push(Case {
                    field: format!("{}={}{kind}", names.join("."), filling.label()),
                    body,
                });
            }
        }
        if !holds_state {
            // The request holds no state: the games would make the same requests again.
            break;
        }
    }
    out
}

/// Whether a message of `descriptor` can hold a game state.
fn mentions_state(descriptor: &MessageDescriptor, depth: usize) -> bool {
    depth > 0
        && descriptor.fields().any(|f| match f.kind() {
            Kind::Message(m) => {
                m.full_name() == "mancala.v1.GameState" || mentions_state(&m, depth - 1)
            }
            _ => false,
        })
}

/// The request with every game state, move and game kind in it set to valid values (the `game`th start state).
fn valid_request(
    descriptor: &MessageDescriptor,
    state: &DynamicMessage,
    game_move: &DynamicMessage,
    game: usize,
    depth: usize,
) -> DynamicMessage {
    let mut message = DynamicMessage::new(descriptor.clone());
    if depth == 0 {
        return message;
    }
    for field in descriptor.fields() {
        if field.is_list() || field.is_map() {
            continue;
        }
        match field.kind() {
            Kind::Message(m) if m.full_name() == "mancala.v1.GameState" => {
                message.set_field(&field, Value::Message(state.clone()))
            }
            Kind::Message(m) if m.full_name() == "mancala.v1.Move" => {
                message.set_field(&field, Value::Message(game_move.clone()))
            }
            Kind::Message(m) if mentions_state(&m, depth - 1) => message.set_field(
                &field,
                Value::Message(valid_request(&m, state, game_move, game, depth - 1)),
            ),
            Kind::Enum(e) if e.full_name() == "mancala.v1.GameKind" => {
                let kind = convert::kind_to_pb(GameKind::ALL[game]) as i32;
                message.set_field(&field, Value::EnumNumber(kind))
            }
            _ => {}
        }
    }
    message
}

/// Every path to a repeated field, a string or bytes inside `descriptor` (`prefix` is the path so far).
fn fillable(
    descriptor: &MessageDescriptor,
    prefix: &mut Vec<FieldDescriptor>,
    out: &mut Vec<Vec<FieldDescriptor>>,
    depth: usize,
) {
    if depth == 0 {
        return;
    }
    for field in descriptor.fields() {
        prefix.push(field.clone());
        let repeated = field.cardinality() == Cardinality::Repeated;
        if repeated || matches!(field.kind(), Kind::String | Kind::Bytes) {
            out.push(prefix.clone());
        }
        if let (false, Kind::Message(m)) = (repeated, field.kind()) {
            fillable(&m, prefix, out, depth - 1);
        }
        prefix.pop();
    }
}

/// What a field is filled with.
#[derive(Clone, Debug)]
enum Filling {
    /// Copies of one value (a repeated field).
    Values(Value),
    /// One long string or bytes value.
    Long,
}

impl Filling {
    fn label(&self) -> String {
        match self {
            Filling::Values(Value::EnumNumber(n)) => format!("[{n}; ..]"),
            Filling::Values(Value::U32(n)) => format!("[{n}; ..]"),
            Filling::Values(Value::Bool(b)) => format!("[{b}; ..]"),
            Filling::Values(Value::Message(_)) => "[{}; ..]".into(),
            Filling::Values(v) => format!("[{v:?}; ..]"),
            Filling::Long => "long".into(),
        }
    }
}

/// The fillings of a field: an enum list both with a value it knows and one it does not, every other list with
/// one small value, a string or bytes with one long value.
fn fillings(field: &FieldDescriptor) -> Vec<Filling> {
    if !field.is_list() {
        return vec![Filling::Long];
    }
    let one = match field.kind() {
        Kind::Enum(e) => {
            let known = e
                .values()
                .map(|v| v.number())
                .find(|&n| n != 0)
                .unwrap_or(1);
            return vec![
                Filling::Values(Value::EnumNumber(known)),
                Filling::Values(Value::EnumNumber(99)),
            ];
        }
        Kind::Message(m) => Value::Message(DynamicMessage::new(m)),
        Kind::String => Value::String("a".into()),
        Kind::Bytes => Value::Bytes(Bytes::from_static(b"a")),
        Kind::Bool => Value::Bool(true),
        Kind::Double => Value::F64(1.0),
        Kind::Float => Value::F32(1.0),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => Value::I32(7),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => Value::I64(7),
        Kind::Uint32 | Kind::Fixed32 => Value::U32(7),
        Kind::Uint64 | Kind::Fixed64 => Value::U64(7),
    };
    vec![Filling::Values(one)]
}

/// Fills the field at `path` of `request` so that the request's encoding is as close to `limit` as it goes
/// (a few bytes under it).
fn fill(request: &mut DynamicMessage, path: &[FieldDescriptor], filling: &Filling, limit: usize) {
    let len_with = |request: &mut DynamicMessage, n: usize| {
        set_at(request, path, filling, n);
        prost::Message::encoded_len(request)
    };
    // The size grows by the same amount for each value (or byte), once past the length prefix's widths.
    let at_1k = len_with(request, 1_000);
    let at_2k = len_with(request, 2_000);
    let per = (at_2k - at_1k).div_ceil(1_000).max(1);
    // The gRPC frame has no overhead of its own inside the limit; leave room for a length prefix's growth.
    let mut n = 1_000 + (limit.saturating_sub(at_1k + 16)) / per;
    while n > 0 && len_with(request, n) > limit {
        n -= n / 100 + 1;
    }
}

/// Sets the field at `path` to `n` values (or a value of `n` bytes), creating the messages on the way.
fn set_at(message: &mut DynamicMessage, path: &[FieldDescriptor], filling: &Filling, n: usize) {
    let (field, rest) = path.split_first().expect("a path names a field");
    if rest.is_empty() {
        let value = match filling {
            Filling::Values(one) => Value::List(vec![one.clone(); n]),
            Filling::Long if field.kind() == Kind::Bytes => {
                Value::Bytes(Bytes::from(vec![b'a'; n]))
            }
            Filling::Long => Value::String("a".repeat(n)),
        };
        message.set_field(field, value);
        return;
    }
    let mut inner = match message.get_field(field).as_ref() {
        Value::Message(m) => m.clone(),
        _ => match field.kind() {
            Kind::Message(m) => DynamicMessage::new(m),
            _ => unreachable!("a path goes through messages only"),
        },
    };
    set_at(&mut inner, rest, filling, n);
    message.set_field(field, Value::Message(inner));
}

/// Sends `case` `calls` times and reads what the server spent on it.
async fn send(
    grpc: &mut Grpc<tonic::transport::Channel>,
    method: &MethodDescriptor,
    name: &str,
    case: Case,
    credential: Option<&str>,
    calls: u32,
    pid: u32,
) -> Result<Measured, Error> {
    let path = PathAndQuery::try_from(format!("/{name}"))
        .map_err(|e| Error::Config(format!("{name}: {e}")))?;
    let mut code = Code::Ok;
    let before = server_cpu_ns(pid)?;
    let started = Instant::now();
    for _ in 0..calls {
        grpc.ready()
            .await
            .map_err(|e| Error::Config(format!("the connection failed: {e}")))?;
        let mut request = tonic::Request::new(case.body.clone());
        request.set_timeout(Duration::from_secs(120));
        if let Some(credential) = credential {
            let bearer = format!("Bearer {credential}")
                .parse()
                .map_err(|_| Error::Config("the credential is not ASCII".into()))?;
            request.metadata_mut().insert("authorization", bearer);
        }
        code = if method.is_server_streaming() {
            match grpc.server_streaming(request, path.clone(), RawCodec).await {
                // An accepted stream: its first message (or its end) is the answer; it is then dropped.
                Ok(response) => {
                    let mut stream = response.into_inner();
                    match tokio::time::timeout(Duration::from_secs(1), stream.message()).await {
                        Ok(Err(status)) => status.code(),
                        _ => Code::Ok,
                    }
                }
                Err(status) => status.code(),
            }
        } else {
            match grpc.unary(request, path.clone(), RawCodec).await {
                Ok(_) => Code::Ok,
                Err(status) => status.code(),
            }
        };
    }
    let latency = started.elapsed();
    let after = server_cpu_ns(pid)?;
    let per_call = |total: f64| total / f64::from(calls.max(1));
    Ok(Measured {
        method: name.to_string(),
        field: case.field,
        bytes: case.body.len(),
        code: format!("{code:?}"),
        server_cpu_ms: per_call((after - before) as f64 / 1e6),
        latency_ms: per_call(latency.as_secs_f64() * 1e3),
    })
}

/// The CPU time every thread of process `pid` has run, in nanoseconds (the first field of each thread's
/// `schedstat`).
fn server_cpu_ns(pid: u32) -> Result<u64, Error> {
    let tasks = Path::new("/proc").join(pid.to_string()).join("task");
    let mut total = 0;
    for task in fs::read_dir(&tasks)? {
        // A thread may end between the listing and the read.
        let Ok(stat) = fs::read_to_string(task?.path().join("schedstat")) else {
            continue;
        };
        total += stat
            .split_whitespace()
            .next()
            .and_then(|ns| ns.parse::<u64>().ok())
            .unwrap_or(0);
    }
    Ok(total)
}
