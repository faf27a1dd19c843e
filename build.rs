//! Compiles `proto/mancala/v1/*.proto` with protox (a pure-Rust protobuf compiler, so no `protoc`
//! is needed on the machine) and generates the prost messages and tonic services from the result.
//! The descriptor set is also written to `OUT_DIR` so the server can offer reflection, and so is one of the
//! google.rpc error details (`proto/third_party/google/rpc/`), which reflection serves beside ours.

use std::{env, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    if env::var_os("CARGO_FEATURE_SERVER").is_none() {
        // The pure engine (`--no-default-features`) needs no generated code.
        return Ok(());
    }
    let files = [
        "proto/mancala/v1/game.proto",
        "proto/mancala/v1/rules.proto",
        "proto/mancala/v1/diagnostics.proto",
        "proto/mancala/v1/matches.proto",
        "proto/mancala/v1/admin.proto",
        "proto/mancala/v1/players.proto",
        "proto/mancala/v1/lobby.proto",
        "proto/mancala/v1/tournaments.proto",
    ];
    let descriptors = protox::compile(files, ["proto"])?;
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    std::fs::write(
        out_dir.join("mancala_descriptor.bin"),
        prost::Message::encode_to_vec(&descriptors),
    )?;
    // The google.rpc error details, for reflection alone (tonic-types encodes them): their own descriptor set,
    // with the well-known types they import.
    let details = protox::compile(
        ["google/rpc/error_details.proto", "google/rpc/status.proto"],
        ["proto/third_party"],
    )?;
    std::fs::write(
        out_dir.join("google_rpc_descriptor.bin"),
        prost::Message::encode_to_vec(&details),
    )?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(descriptors)?;
    // The Rules server once more, for the server alone (src/api/wire.rs): its hot answers are sent as bytes the
    // service writes straight from the engine's state (`wire::Encoded`), their requests are decoded straight into
    // the engine's values (`wire::decode::Call`), every other message is `api::pb`'s. Same service, methods and
    // descriptors; only the Rust types of three requests and three responses differ.
    let wire_dir = out_dir.join("wire");
    std::fs::create_dir_all(&wire_dir)?;
    tonic_prost_build::configure()
        .build_client(false)
        .build_server(true)
        .out_dir(&wire_dir)
        .extern_path(".mancala.v1", "crate::api::pb")
        .extern_path(
            ".mancala.v1.ApplyMoveResponse",
            "crate::api::wire::ApplyMoveAnswer",
        )
        .extern_path(
            ".mancala.v1.ValidateMoveResponse",
            "crate::api::wire::ValidateMoveAnswer",
        )
        .extern_path(
            ".mancala.v1.ListLegalMovesResponse",
            "crate::api::wire::ListLegalMovesAnswer",
        )
        // Their requests decoded straight into the engine's values when canonical (src/api/wire/decode.rs).
        .extern_path(
            ".mancala.v1.ApplyMoveRequest",
            "crate::api::wire::ApplyMoveCall",
        )
        .extern_path(
            ".mancala.v1.ValidateMoveRequest",
            "crate::api::wire::ValidateMoveCall",
        )
        .extern_path(
            ".mancala.v1.ListLegalMovesRequest",
            "crate::api::wire::ListLegalMovesCall",
        )
        .compile_fds(protox::compile(
            ["proto/mancala/v1/rules.proto"],
            ["proto"],
        )?)?;
    Ok(())
}
