//! `--dump-corpus DIR`: the corpus as files for other load tools, so their payloads are real positions too.
//!
//! - `ghz-validate-move.json`, `ghz-apply-move.json`, `ghz-list-legal-moves.json`, `ghz-echo.json`: ghz
//!   configurations whose `data` is an array of requests in proto3 JSON (ghz sends them round-robin), taken
//!   from the first positions of each game with one legal move each; paths relative to the repository root.
//! - `validate-move.grpc`, `apply-move.grpc`, `list-legal-moves.grpc`, `echo.grpc`: one request each, as a
//!   gRPC message frame (flag byte, big-endian length, message), the body h2load posts.

use std::{
    fs,
    path::{Path, PathBuf},
};

use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage};
use serde_json::{json, Value};

use super::{
    corpus::{self, Corpus, Position, Workload},
    driver, Config, Error, Rpc,
};
use crate::{api, engine::Rng};

/// Requests per ghz configuration, per game.
const ENTRIES_PER_GAME: usize = 24;

/// Writes the files into `dir` (created if missing) and returns their paths.
pub fn dump(dir: &Path, corpus: &Corpus, config: &Config) -> Result<Vec<PathBuf>, Error> {
    fs::create_dir_all(dir)?;
    let pool = DescriptorPool::decode(api::FILE_DESCRIPTOR_SET)
        .map_err(|e| Error::Config(format!("cannot read the descriptor set: {e}")))?;
    let mut rng = Rng::new(config.seed);
    let positions: Vec<&Position> = corpus
        .games
        .iter()
        .flat_map(|(_, p)| p.iter().take(ENTRIES_PER_GAME))
        .collect();
    let moves: Vec<_> = positions
        .iter()
        .map(|p| p.legal[rng.below(p.legal.len())].clone())
        .collect();

    let validate: Vec<Vec<u8>> = positions
        .iter()
        .zip(&moves)
        .map(|(p, mv)| corpus::validate_request(p, mv).encode_to_vec())
        .collect();
    let apply: Vec<Vec<u8>> = positions
        .iter()
        .zip(&moves)
        .map(|(p, mv)| corpus::apply_request(p, mv, config.events).encode_to_vec())
        .collect();
    let list: Vec<Vec<u8>> = positions
        .iter()
        .map(|p| corpus::list_request(p, config.previews).encode_to_vec())
        .collect();
    let rules = Workload::rules(corpus, config)?;
    let echo = corpus::echo_case(
        rules.mean_request_bytes().round() as usize,
        rules.mean_response_bytes().round() as usize,
    )
    .body
    .to_vec();

    // The one request h2load repeats: a position from the middle of the game, not the opening.
    let typical = positions
        .iter()
        .position(|p| p.state.ply >= 10)
        .unwrap_or(0);

    let host = config
        .targets
        .first()
        .map(|t| driver::parse_target(t))
        .transpose()?
        .and_then(|uri| uri.authority().map(|a| a.to_string()))
        .unwrap_or_else(|| "127.0.0.1:50051".to_string());

    let mut written = Vec::new();
    for (rpc, name, messages, message_type, proto) in [
        (
            Rpc::ValidateMove,
            "validate-move",
            &validate,
            "mancala.v1.ValidateMoveRequest",
            "proto/mancala/v1/rules.proto",
        ),
        (
            Rpc::ApplyMove,
            "apply-move",
            &apply,
            "mancala.v1.ApplyMoveRequest",
            "proto/mancala/v1/rules.proto",
        ),
        (
            Rpc::ListLegalMoves,
            "list-legal-moves",
            &list,
            "mancala.v1.ListLegalMovesRequest",
            "proto/mancala/v1/rules.proto",
        ),
        (
            Rpc::Echo,
            "echo",
            &vec![echo],
            "mancala.v1.EchoRequest",
            "proto/mancala/v1/diagnostics.proto",
        ),
    ] {
        let descriptor = pool
            .get_message_by_name(message_type)
            .ok_or_else(|| Error::Config(format!("{message_type} is not in the descriptor set")))?;
        let data = messages
            .iter()
            .map(|bytes| {
                let message = DynamicMessage::decode(descriptor.clone(), bytes.as_slice())
                    .map_err(|e| Error::Config(format!("cannot decode {message_type}: {e}")))?;
                serde_json::to_value(&message)
                    .map_err(|e| Error::Config(format!("cannot write {message_type}: {e}")))
            })
            .collect::<Result<Vec<Value>, Error>>()?;
        let call = rpc.path().trim_start_matches('/').replace('/', ".");
        let mut ghz = json!({
            "proto": proto,
            "import-paths": ["proto"],
            "call": call,
            "host": host,
            "insecure": true,
            "connections": config.connections,
            "concurrency": config.connections * config.concurrency,
            "duration": "20s",
            "timeout": "10s",
            "data": data,
        });
        // ghz speaks TLS trusting the same CA as the generator would.
        if let Some(ca) = &config.ca_file {
            ghz["insecure"] = json!(false);
            ghz["cacert"] = json!(ca.display().to_string());
        }
        let path = dir.join(format!("ghz-{name}.json"));
        let mut text = serde_json::to_string_pretty(&ghz)
            .map_err(|e| Error::Config(format!("cannot write {}: {e}", path.display())))?;
        text.push('\n');
        fs::write(&path, text)?;
        written.push(path);

        let one = &messages[typical.min(messages.len() - 1)];
        let mut frame = Vec::with_capacity(5 + one.len());
        frame.push(0);
        frame.extend_from_slice(&(one.len() as u32).to_be_bytes());
        frame.extend_from_slice(one);
        let path = dir.join(format!("{name}.grpc"));
        fs::write(&path, frame)?;
        written.push(path);
    }
    Ok(written)
}
