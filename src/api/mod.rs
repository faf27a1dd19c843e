//! The protocol: generated code, conversions between protocol and engine, and the error → status mapping.

pub mod convert;
pub mod error;
pub mod lobby;
pub mod matches;
pub mod players;
pub mod search;
pub mod tournaments;
pub mod wire;

/// The generated messages and services of `proto/mancala/v1`.
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod pb {
    tonic::include_proto!("mancala.v1");
}

/// The google.rpc `Status` and error details (`proto/third_party/google/rpc/`), served by reflection so that a
/// reflection-based client can decode the details of any error (`ErrorInfo` …).
pub const GOOGLE_RPC_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/google_rpc_descriptor.bin"));

/// The compiled descriptor set of every `.proto` file, served by reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/mancala_descriptor.bin"));
