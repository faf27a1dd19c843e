//! The protocol: generated code, conversions between protocol and engine, and the error → status mapping.

pub mod convert;
pub mod error;
pub mod lobby;
pub mod matches;
pub mod search;

/// The generated messages and services of `proto/mancala/v1`.
#[allow(missing_docs, clippy::all, clippy::pedantic)]
pub mod pb {
    tonic::include_proto!("mancala.v1");
}

/// The compiled descriptor set of every `.proto` file, served by reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/mancala_descriptor.bin"));
