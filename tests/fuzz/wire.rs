//! Target `wire`: bytes off the wire → `prost::Message::decode` of every request of the Rules, Matches and
//! Diagnostics services → the service's answer. Inputs are random bytes and mutations of valid requests (bit
//! flips, truncation, splices of other requests, repeated fields, huge varints). Whatever decodes is answered:
//! never a panic, never INTERNAL; every error is a client's error code with a short message.

use crate::state::{enum_value, perturb, perturbation};
use crate::{any_reachable, budgeted, config, corpus, sample_states};
use mancala::api::{convert, error, pb, wire};
use mancala::config::Settings;
use mancala::engine::{GameKind, Move, Sow};
use mancala::lobby::Lobby;
use mancala::matches::Matches;
use mancala::metrics::Metrics;
use mancala::pool::EnginePool;
use mancala::service::auth::{Authenticate, Needs, AUTHORIZATION};
use mancala::service::diagnostics::DiagnosticsService;
use mancala::service::matches::MatchesService;
use mancala::service::rules::RulesService;
use mancala::store::MemoryStore;
use pb::matches_server::Matches as _;
use proptest::prelude::*;
use prost::Message;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio_stream::StreamExt;
use tonic::service::Interceptor;
use tonic::{Code, Request, Status};
use wire::server::rules_server::Rules as _;

/// Every request message the server decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    NewGame,
    ListLegalMoves,
    ValidateMove,
    ApplyMove,
    DescribeGame,
    CreateMatch,
    GetMatch,
    ListMatches,
    SubmitMove,
    Resign,
    WatchMatch,
    GetHistory,
    Echo,
}

impl Kind {
    const ALL: [Kind; 13] = [
        Kind::NewGame,
        Kind::ListLegalMoves,
        Kind::ValidateMove,
        Kind::ApplyMove,
        Kind::DescribeGame,
        Kind::CreateMatch,
        Kind::GetMatch,
        Kind::ListMatches,
        Kind::SubmitMove,
        Kind::Resign,
        Kind::WatchMatch,
        Kind::GetHistory,
        Kind::Echo,
    ];

    /// The corpus file prefix.
    fn name(self) -> &'static str {
        match self {
            Kind::NewGame => "new_game",
            Kind::ListLegalMoves => "list_legal_moves",
            Kind::ValidateMove => "validate_move",
            Kind::ApplyMove => "apply_move",
            Kind::DescribeGame => "describe_game",
            Kind::CreateMatch => "create_match",
            Kind::GetMatch => "get_match",
            Kind::ListMatches => "list_matches",
            Kind::SubmitMove => "submit_move",
            Kind::Resign => "resign",
            Kind::WatchMatch => "watch_match",
            Kind::GetHistory => "get_history",
            Kind::Echo => "echo",
        }
    }

    fn from_file_name(name: &str) -> Kind {
        let prefix = name.split('-').next().unwrap_or_default();
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == prefix)
            .unwrap_or_else(|| panic!("corpus file {name}: no request type {prefix:?}"))
    }
}

/// A match id that no server holds.
const UNKNOWN_ID: &str = "00112233445566778899aabbccddeeff";

/// Valid requests of every type, encoded: the seeds the mutations start from.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut add = |kind: Kind, name: &str, bytes: Vec<u8>| {
        out.push((format!("{}-{name}.bin", kind.name()), bytes));
    };
    for game in GameKind::ALL {
        let k = convert::kind_to_pb(game) as i32;
        let options = Some(pb::GameOptions {
            first_player: pb::Player::North as i32,
            ba_awa_target: 11,
            ..Default::default()
        });
        let short = game.slug();
        add(
            Kind::NewGame,
            short,
            pb::NewGameRequest { kind: k, options }.encode_to_vec(),
        );
        add(
            Kind::DescribeGame,
            short,
            pb::DescribeGameRequest { kind: k }.encode_to_vec(),
        );
        add(
            Kind::CreateMatch,
            short,
            pb::CreateMatchRequest {
                kind: k,
                options,
                players: vec![],
                bots: vec![],
                time_control: None,
                start: None,
            }
            .encode_to_vec(),
        );
        add(
            Kind::ListMatches,
            short,
            pb::ListMatchesRequest {
                kind: k,
                status: 1,
                page_size: 3,
                page_token: UNKNOWN_ID.into(),
                player_id: String::new(),
            }
            .encode_to_vec(),
        );
    }
    for (name, game) in sample_states() {
        let state = Some(convert::state_to_pb(&game));
        let mv = game
            .legal_moves()
            .first()
            .copied()
            .unwrap_or(Move::Sow(Sow::from(0)));
        let mv = Some(convert::move_to_pb(&mv));
        add(
            Kind::ListLegalMoves,
            &name,
            pb::ListLegalMovesRequest {
                state: state.clone(),
                skip_previews: false,
            }
            .encode_to_vec(),
        );
        add(
            Kind::ValidateMove,
            &name,
            pb::ValidateMoveRequest {
                state: state.clone(),
                r#move: mv.clone(),
            }
            .encode_to_vec(),
        );
        add(
            Kind::ApplyMove,
            &name,
            pb::ApplyMoveRequest {
                state,
                r#move: mv.clone(),
                skip_events: false,
            }
            .encode_to_vec(),
        );
        add(
            Kind::SubmitMove,
            &name,
            pb::SubmitMoveRequest {
                match_id: UNKNOWN_ID.into(),
                r#move: mv,
                expected_version: Some(0),
                request_id: "r-1".into(),
            }
            .encode_to_vec(),
        );
    }
    let id = || UNKNOWN_ID.to_string();
    add(
        Kind::GetMatch,
        "id",
        pb::GetMatchRequest { match_id: id() }.encode_to_vec(),
    );
    add(
        Kind::GetHistory,
        "id",
        pb::GetHistoryRequest { match_id: id() }.encode_to_vec(),
    );
    add(
        Kind::WatchMatch,
        "from-3",
        pb::WatchMatchRequest {
            match_id: id(),
            from_seq: Some(3),
            previews: false,
        }
        .encode_to_vec(),
    );
    add(
        Kind::Resign,
        "id",
        pb::ResignRequest {
            match_id: id(),
            expected_version: Some(2),
            request_id: "r-2".into(),
        }
        .encode_to_vec(),
    );
    add(
        Kind::Echo,
        "payload",
        pb::EchoRequest {
            payload: b"hello".to_vec(),
            response_payload_bytes: Some(64),
        }
        .encode_to_vec(),
    );
    out
}

/// The services, over an in-memory match store, with a few live matches to aim requests at.
struct Harness {
    runtime: tokio::runtime::Runtime,
    rules: RulesService,
    matches: MatchesService,
    diagnostics: DiagnosticsService,
    /// Who calls, as the server's interceptor in front of the Matches service says.
    auth: Authenticate,
    /// One live match per game: its id, `[South, North]` tokens, and how often it was used.
    live: Mutex<Vec<(String, [String; 2], u32)>>,
}

/// A live match is replaced after this many requests, so that matches in play, not only finished ones, get
/// requests.
const USES_PER_LIVE_MATCH: u32 = 200;

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(|| {
        let settings = Settings::load_from(None, Vec::new()).expect("the defaults load");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime");
        let store = Arc::new(MemoryStore::new());
        let identity = runtime
            .block_on(mancala::identity::Identity::open(
                store.clone(),
                &settings.auth,
                settings.limits,
            ))
            .expect("tenants of a memory store");
        let manager = Matches::with_store(
            store.clone(),
            settings.matches.clone(),
            mancala::api::matches::Wire,
        )
        .with_identity(identity.clone());
        // As the server has it: `ListMatches` by player reads the lobby's record of the player's matches.
        let lobby = Lobby::new(
            store,
            manager.clone(),
            settings.lobby.clone(),
            Metrics::new(),
        );
        let mut engine = settings.engine.clone();
        engine.inline_laps = crate::FUZZ_LAPS;
        engine.rules_budget_laps = crate::FUZZ_LAPS;
        let pool = EnginePool::new(&engine, Metrics::new());
        let rules = RulesService::new(pool.clone());
        // As the server has it: `WatchMatch` with `previews` works out each update's legal moves with the
        // Rules calls' engine work.
        let matches = MatchesService::new(manager)
            .with_lobby(lobby)
            .with_previews(mancala::rules::Rules::new(pool));
        // No call-rate limit: the fuzzer sends thousands of calls a second.
        let auth = Authenticate::new(identity, Metrics::new(), Needs::AnyCredential);
        let harness = Harness {
            runtime,
            rules,
            matches,
            diagnostics: DiagnosticsService::new(settings.server.max_message_bytes),
            auth,
            live: Mutex::new(Vec::new()),
        };
        let live = GameKind::ALL
            .into_iter()
            .map(|kind| harness.create(kind))
            .collect();
        *harness.live.lock().expect("not poisoned") = live;
        harness
    })
}

impl Harness {
    fn create(&self, kind: GameKind) -> (String, [String; 2], u32) {
        let created =
            self.runtime
                .block_on(self.matches.create_match(self.admit(Request::new(
                    pb::CreateMatchRequest {
                        kind: convert::kind_to_pb(kind) as i32,
                        options: None,
                        players: vec![],
                        bots: vec![],
                        time_control: None,
                        start: None,
                    },
                ))))
                .expect("a match is created")
                .into_inner();
        let id = created.r#match.expect("the match").match_id;
        let tokens = [
            created.tokens[0].token.clone(),
            created.tokens[1].token.clone(),
        ];
        (id, tokens, 0)
    }

    /// `request` as the server's interceptor leaves it: its caller in its extensions.
    fn admit<T>(&self, request: Request<T>) -> Request<T> {
        let (metadata, extensions, message) = request.into_parts();
        let head = self
            .auth
            .clone()
            .call(Request::from_parts(metadata, extensions, ()))
            .expect("the harness's credentials are valid");
        let (metadata, extensions, ()) = head.into_parts();
        Request::from_parts(metadata, extensions, message)
    }

    /// The id of live match `slot` and the token of `seat` (0: none, 1 South, 2 North, 3 a wrong one).
    fn aim(&self, slot: usize, seat: u8) -> (String, Option<String>) {
        let mut live = self.live.lock().expect("not poisoned");
        let slot = slot % live.len();
        if live[slot].2 >= USES_PER_LIVE_MATCH {
            live[slot] = self.create(GameKind::ALL[slot % GameKind::ALL.len()]);
        }
        live[slot].2 += 1;
        let (id, tokens, _) = &live[slot];
        let token = match seat % 4 {
            0 => None,
            1 => Some(tokens[0].clone()),
            2 => Some(tokens[1].clone()),
            // Shaped like a seat token (as a client that mixed up its matches would send), of no seat.
            _ => Some("0".repeat(64)),
        };
        (id.clone(), token)
    }
}

/// Where a request is aimed: at a live match with a seat's token, or as it decoded.
#[derive(Clone, Debug)]
pub struct Aim {
    live: Option<(usize, u8)>,
}

fn aim() -> impl Strategy<Value = Aim> {
    prop_oneof![
        Just(Aim { live: None }),
        (0usize..3, 0u8..4).prop_map(|l| Aim { live: Some(l) }),
    ]
}

/// The codes a client's request may be answered with; anything else (INTERNAL, UNKNOWN…) is a finding.
const CLIENT_CODES: [Code; 8] = [
    Code::InvalidArgument,
    Code::FailedPrecondition,
    Code::NotFound,
    Code::Unauthenticated,
    Code::PermissionDenied,
    Code::Aborted,
    Code::OutOfRange,
    Code::ResourceExhausted,
];

/// The largest error message and details accepted (issue 11: answers of a few KiB at most).
const MAX_ERROR_BYTES: usize = 8 * 1024;

fn check_status(what: &str, status: &Status, allowed: &[Code]) -> Result<(), TestCaseError> {
    prop_assert!(
        allowed.contains(&status.code()),
        "{what}: {:?} is not a client's error: {}",
        status.code(),
        status.message()
    );
    prop_assert!(
        status.message().len() + status.details().len() <= MAX_ERROR_BYTES,
        "{what}: an error of {} + {} bytes",
        status.message().len(),
        status.details().len()
    );
    Ok(())
}

/// Runs a Rules answer under the fuzz budget: `Some(answer)` when it succeeded.
fn rules<R>(
    what: &str,
    answer: impl Fn() -> Result<R, Status>,
) -> Result<Option<R>, TestCaseError> {
    match budgeted(answer) {
        Err(_refused) => Ok(None),
        Ok(Ok(answer)) => Ok(Some(answer)),
        Ok(Err(status)) => {
            check_status(
                what,
                &status,
                &[Code::InvalidArgument, Code::FailedPrecondition],
            )?;
            Ok(None)
        }
    }
}

/// A state the service answered with is a state it accepts back.
fn accepted_back(what: &str, state: Option<pb::GameState>) -> Result<(), TestCaseError> {
    prop_assert!(state.is_some(), "{what}: an answer without its state");
    if let Ok(decoded) = budgeted(|| convert::game_state("state", state.clone())) {
        prop_assert!(
            decoded.is_ok(),
            "{what}: the service answered with a state it refuses: {:?}\n{:?}",
            decoded.err(),
            state
        );
    }
    Ok(())
}

/// `message` with the seat token, if any, admitted as the server would.
fn with_token<T>(message: T, token: Option<&str>) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(token) = token {
        let value = format!("Bearer {token}").parse().expect("an ASCII token");
        request.metadata_mut().insert(AUTHORIZATION, value);
    }
    harness().admit(request)
}

/// Decodes `bytes` as a `kind` request and, if it decodes, answers it.
pub fn exercise(kind: Kind, bytes: &[u8], aim: &Aim) -> Result<(), TestCaseError> {
    let h = harness();
    let aimed = aim.live.map(|(slot, seat)| h.aim(slot, seat));
    let token = aimed.as_ref().and_then(|(_, token)| token.as_deref());
    let aimed_id = |id: &mut String| {
        if let Some((live, _)) = &aimed {
            id.clone_from(live);
        }
    };
    let matches = |what: &str, result: Result<(), Status>| match result {
        Ok(()) => Ok(()),
        Err(status) => check_status(what, &status, &CLIENT_CODES),
    };
    match kind {
        // The hot calls as the server reads and answers them (`api::wire`), their answers read back by prost.
        Kind::ListLegalMoves => {
            let Ok(call) = wire::ListLegalMovesCall::decode(bytes) else {
                return Ok(());
            };
            let (state, previews) = call.into_engine();
            let answer = || {
                let game = mancala::rules::listed(&state).map_err(error::refusal)?;
                Ok(wire::list_legal_moves(&game, previews))
            };
            if let Some(listed) = rules("ListLegalMoves", answer)? {
                let listed = pb::ListLegalMovesResponse::decode(listed.as_bytes())
                    .expect("the server's answer decodes");
                for legal in listed.moves {
                    prop_assert!(legal.r#move.is_some());
                    if previews {
                        accepted_back("ListLegalMoves preview", legal.result)?;
                    }
                }
            }
        }
        Kind::ValidateMove => {
            let Ok(call) = wire::ValidateMoveCall::decode(bytes) else {
                return Ok(());
            };
            let request = call.into_engine();
            let answer = || request.verdict().map(wire::verdict).map_err(error::refusal);
            if let Some(answer) = rules("ValidateMove", answer)? {
                let answer = pb::ValidateMoveResponse::decode(answer.as_bytes())
                    .expect("the server's answer decodes");
                prop_assert_eq!(answer.legal, answer.reason == 0);
            }
        }
        Kind::ApplyMove => {
            let Ok(call) = wire::ApplyMoveCall::decode(bytes) else {
                return Ok(());
            };
            let (request, skip_events) = call.into_engine();
            let answer = || {
                request
                    .played(skip_events, wire::apply_move)
                    .map_err(error::refusal)
            };
            if let Some(answer) = rules("ApplyMove", answer)? {
                let answer = pb::ApplyMoveResponse::decode(answer.as_bytes())
                    .expect("the server's answer decodes");
                accepted_back("ApplyMove", answer.state)?;
            }
        }
        Kind::NewGame => {
            let Ok(request) = pb::NewGameRequest::decode(bytes) else {
                return Ok(());
            };
            match h.runtime.block_on(h.rules.new_game(Request::new(request))) {
                Ok(answer) => accepted_back("NewGame", answer.into_inner().state)?,
                Err(status) => check_status("NewGame", &status, &[Code::InvalidArgument])?,
            }
        }
        Kind::DescribeGame => {
            let Ok(request) = pb::DescribeGameRequest::decode(bytes) else {
                return Ok(());
            };
            if let Err(status) = h
                .runtime
                .block_on(h.rules.describe_game(Request::new(request)))
            {
                check_status("DescribeGame", &status, &[Code::InvalidArgument])?;
            }
        }
        Kind::CreateMatch => {
            let Ok(request) = pb::CreateMatchRequest::decode(bytes) else {
                return Ok(());
            };
            let result = h
                .runtime
                .block_on(h.matches.create_match(h.admit(Request::new(request))));
            matches("CreateMatch", result.map(drop))?;
        }
        Kind::GetMatch => {
            let Ok(mut request) = pb::GetMatchRequest::decode(bytes) else {
                return Ok(());
            };
            aimed_id(&mut request.match_id);
            let result = h
                .runtime
                .block_on(h.matches.get_match(with_token(request, token)));
            matches("GetMatch", result.map(drop))?;
        }
        Kind::ListMatches => {
            let Ok(request) = pb::ListMatchesRequest::decode(bytes) else {
                return Ok(());
            };
            let result = h
                .runtime
                .block_on(h.matches.list_matches(h.admit(Request::new(request))));
            matches("ListMatches", result.map(drop))?;
        }
        Kind::SubmitMove => {
            let Ok(mut request) = pb::SubmitMoveRequest::decode(bytes) else {
                return Ok(());
            };
            aimed_id(&mut request.match_id);
            let result = h
                .runtime
                .block_on(h.matches.submit_move(with_token(request, token)));
            matches("SubmitMove", result.map(drop))?;
        }
        Kind::Resign => {
            let Ok(mut request) = pb::ResignRequest::decode(bytes) else {
                return Ok(());
            };
            aimed_id(&mut request.match_id);
            let result = h
                .runtime
                .block_on(h.matches.resign(with_token(request, token)));
            matches("Resign", result.map(drop))?;
        }
        Kind::WatchMatch => {
            let Ok(mut request) = pb::WatchMatchRequest::decode(bytes) else {
                return Ok(());
            };
            aimed_id(&mut request.match_id);
            let first = h.runtime.block_on(async {
                let mut stream = h
                    .matches
                    .watch_match(with_token(request, token))
                    .await?
                    .into_inner();
                // The first message (a snapshot or the missed events) comes at once; it must not be an error.
                match tokio::time::timeout(Duration::from_secs(5), stream.next()).await {
                    Ok(Some(item)) => item.map(drop),
                    Ok(None) | Err(_) => Ok(()),
                }
            });
            matches("WatchMatch", first)?;
        }
        Kind::GetHistory => {
            let Ok(mut request) = pb::GetHistoryRequest::decode(bytes) else {
                return Ok(());
            };
            aimed_id(&mut request.match_id);
            let result = h
                .runtime
                .block_on(h.matches.get_history(with_token(request, token)));
            matches("GetHistory", result.map(drop))?;
        }
        Kind::Echo => {
            let Ok(request) = pb::EchoRequest::decode(bytes) else {
                return Ok(());
            };
            if let Err(status) = h.diagnostics.answer(request) {
                check_status("Echo", &status, &[Code::InvalidArgument])?;
            }
        }
    }
    Ok(())
}

/// A change to an encoded request. Positions are taken modulo the input's length.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// Flip one bit.
    Flip(usize, u8),
    /// Overwrite one byte.
    Set(usize, u8),
    /// Cut the input short.
    Truncate(usize),
    /// Insert bytes.
    Insert(usize, Vec<u8>),
    /// Repeat a stretch of the input right after itself (repeated and duplicated fields).
    Repeat(usize, usize),
    /// Insert a stretch of another seed (splices of messages and fields of other types).
    Splice(usize, usize, usize, usize),
    /// Insert a varint of 10 bytes, an overlong one, or a length prefix of 2⁶⁴−1.
    HugeVarint(usize, u8),
    /// Insert a field: number, wire type, value.
    Field(usize, u32, u8, u64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::Flip(at, bit)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Mutation::Set(at, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, b)| Mutation::Insert(at, b)),
        (any::<usize>(), 1usize..64).prop_map(|(at, len)| Mutation::Repeat(at, len)),
        (any::<usize>(), any::<usize>(), 1usize..256, any::<usize>())
            .prop_map(|(seed, from, len, at)| Mutation::Splice(seed, from, len, at)),
        (any::<usize>(), 0u8..3).prop_map(|(at, which)| Mutation::HugeVarint(at, which)),
        (
            any::<usize>(),
            prop_oneof![1u32..24, any::<u32>()],
            0u8..8,
            prop_oneof![0u64..300, any::<u64>()]
        )
            .prop_map(|(at, field, wire, value)| Mutation::Field(at, field, wire, value)),
    ]
}

fn varint(mut value: u64, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn splice_in(bytes: &mut Vec<u8>, at: usize, insert: &[u8]) {
    let at = at % (bytes.len() + 1);
    bytes.splice(at..at, insert.iter().copied());
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation], seeds: &[(Kind, Vec<u8>)]) -> Vec<u8> {
    for m in mutations {
        match m {
            Mutation::Flip(at, bit) if !bytes.is_empty() => {
                let at = at % bytes.len();
                bytes[at] ^= 1 << bit;
            }
            Mutation::Set(at, b) if !bytes.is_empty() => {
                let at = at % bytes.len();
                bytes[at] = *b;
            }
            Mutation::Flip(..) | Mutation::Set(..) => {}
            Mutation::Truncate(at) => bytes.truncate(at % (bytes.len() + 1)),
            Mutation::Insert(at, insert) => splice_in(&mut bytes, *at, insert),
            Mutation::Repeat(at, len) => {
                let from = at % (bytes.len() + 1);
                let to = (from + len).min(bytes.len());
                let stretch = bytes[from..to].to_vec();
                splice_in(&mut bytes, to, &stretch);
            }
            Mutation::Splice(seed, from, len, at) => {
                let other = &seeds[seed % seeds.len()].1;
                let from = from % (other.len() + 1);
                let to = (from + len).min(other.len());
                splice_in(&mut bytes, *at, &other[from..to]);
            }
            Mutation::HugeVarint(at, which) => {
                let insert: Vec<u8> = match which {
                    0 => [[0xff; 9].as_slice(), &[0x01]].concat(),
                    1 => [[0x80; 10].as_slice(), &[0x00]].concat(),
                    _ => {
                        // Field 1, length-delimited, of length 2⁶⁴−1.
                        let mut v = vec![0x0a];
                        varint(u64::MAX, &mut v);
                        v
                    }
                };
                splice_in(&mut bytes, *at, &insert);
            }
            Mutation::Field(at, field, wire, value) => {
                let mut insert = Vec::new();
                varint(((*field as u64) << 3) | *wire as u64, &mut insert);
                match wire {
                    0 => varint(*value, &mut insert),
                    1 => insert.extend_from_slice(&value.to_le_bytes()),
                    2 => {
                        let len = value % 40;
                        varint(len, &mut insert);
                        insert.extend((0..len).map(|i| (i as u8).wrapping_mul(17) | 1));
                    }
                    5 => insert.extend_from_slice(&(*value as u32).to_le_bytes()),
                    _ => {}
                }
                splice_in(&mut bytes, *at, &insert);
            }
        }
    }
    bytes
}

/// The seeds the mutations start from: the generated ones, then the committed corpus.
fn all_seeds() -> &'static [(Kind, Vec<u8>)] {
    static SEEDS: OnceLock<Vec<(Kind, Vec<u8>)>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        seeds()
            .into_iter()
            .chain(corpus("wire"))
            .map(|(name, bytes)| (Kind::from_file_name(&name), bytes))
            .collect()
    })
}

#[test]
fn wire_corpus_replays() {
    for (name, bytes) in corpus("wire") {
        let kind = Kind::from_file_name(&name);
        for aim in [Aim { live: None }, Aim { live: Some((0, 1)) }] {
            exercise(kind, &bytes, &aim).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}

/// A move as a client could write it: any pit, any enum values, any list of pits.
fn pb_move() -> impl Strategy<Value = pb::Move> {
    use pb::r#move::Action;
    let pit = || prop_oneof![4 => 0u32..32, 1 => any::<u32>()];
    prop_oneof![
        1 => Just(pb::Move { action: None }),
        6 => (pit(), enum_value(), enum_value(), enum_value()).prop_map(
            |(pit, direction, kichwa, kuu_decision)| pb::Move {
                action: Some(Action::Sow(pb::Sow {
                    pit,
                    direction,
                    kichwa,
                    kuu_decision,
                })),
            }
        ),
        2 => prop::collection::vec(pit(), 0..8).prop_map(|pits| pb::Move {
            action: Some(Action::NextGame(pb::NextGame { pits })),
        }),
    ]
}

/// A request of `target` about a state near a reachable one, with a listed move or any move, encoded.
#[allow(clippy::too_many_arguments)]
fn structured(
    target: Kind,
    game: &mancala::engine::AnyGame,
    perturbations: &[crate::state::Perturbation],
    listed: usize,
    any_move: Option<pb::Move>,
    flag: bool,
    version: Option<u64>,
) -> Vec<u8> {
    let mut state = convert::state_to_pb(game);
    for p in perturbations {
        perturb(&mut state, p);
    }
    let listed_moves = budgeted(|| game.legal_moves()).unwrap_or_default();
    let mv = any_move.or_else(|| {
        (!listed_moves.is_empty())
            .then(|| convert::move_to_pb(&listed_moves[listed % listed_moves.len()]))
    });
    let state = Some(state);
    match target {
        Kind::ListLegalMoves => pb::ListLegalMovesRequest {
            state,
            skip_previews: flag,
        }
        .encode_to_vec(),
        Kind::ValidateMove => pb::ValidateMoveRequest { state, r#move: mv }.encode_to_vec(),
        Kind::ApplyMove => pb::ApplyMoveRequest {
            state,
            r#move: mv,
            skip_events: flag,
        }
        .encode_to_vec(),
        _ => pb::SubmitMoveRequest {
            match_id: UNKNOWN_ID.into(),
            r#move: mv,
            expected_version: version,
            request_id: if flag {
                "r".repeat(listed % 300)
            } else {
                String::new()
            },
        }
        .encode_to_vec(),
    }
}

/// Every kind of request, and the bytes of any.
fn kind() -> impl Strategy<Value = Kind> {
    (0..Kind::ALL.len()).prop_map(|i| Kind::ALL[i])
}

proptest! {
    #![proptest_config(config(4000))]

    #[test]
    fn wire_mutated_requests(
        target in kind(),
        same_type in any::<bool>(),
        seed in any::<usize>(),
        mutations in prop::collection::vec(mutation(), 0..6),
        aim in aim(),
    ) {
        let seeds = all_seeds();
        // Mostly a request of the type it is decoded as, sometimes another type's bytes.
        let of_type: Vec<&Vec<u8>> = seeds.iter().filter(|(k, _)| *k == target).map(|(_, b)| b).collect();
        let base = if same_type && !of_type.is_empty() {
            of_type[seed % of_type.len()].clone()
        } else {
            seeds[seed % seeds.len()].1.clone()
        };
        let bytes = mutate(base, &mutations, seeds);
        exercise(target, &bytes, &aim)?;
    }

    #[test]
    fn wire_structured_requests(
        target in prop::sample::select(vec![
            Kind::ListLegalMoves, Kind::ValidateMove, Kind::ApplyMove, Kind::SubmitMove,
        ]),
        game in any_reachable(),
        perturbations in prop::collection::vec(perturbation(), 0..3),
        listed in any::<usize>(),
        any_move in prop::option::weighted(0.3, pb_move()),
        flag in any::<bool>(),
        version in prop::option::of(0u64..4),
        mutations in prop::collection::vec(mutation(), 0..2),
        aim in aim(),
    ) {
        let bytes = structured(target, &game, &perturbations, listed, any_move, flag, version);
        let bytes = mutate(bytes, &mutations, all_seeds());
        exercise(target, &bytes, &aim)?;
    }

    #[test]
    fn wire_random_bytes(
        target in kind(),
        bytes in prop::collection::vec(any::<u8>(), 0..256),
        aim in aim(),
    ) {
        exercise(target, &bytes, &aim)?;
    }
}
