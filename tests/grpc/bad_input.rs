//! Bad input over a real channel (issue 11): bytes that are not a request are INVALID_ARGUMENT on every RPC
//! the server serves (never INTERNAL), and a request with thousands of bad entries gets a short answer.

use crate::support::server::{within, TestServer};
use bytes::{Buf, BufMut};
use mancala::api::pb;
use prost::Message;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::{Code, Status};
use tonic_types::StatusExt;

/// Sends and receives raw bytes: what a client with the wrong stubs, or an attacker, puts on the wire.
#[derive(Clone, Copy, Default)]
struct Raw;

impl Codec for Raw {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = Raw;
    type Decoder = Raw;

    fn encoder(&mut self) -> Raw {
        Raw
    }

    fn decoder(&mut self) -> Raw {
        Raw
    }
}

impl Encoder for Raw {
    type Item = Vec<u8>;
    type Error = Status;

    fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for Raw {
    type Item = Vec<u8>;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining()).to_vec()))
    }
}

/// Every method the server serves, from the descriptor sets it serves by reflection: its path and whether
/// it streams requests, responses.
fn served_methods() -> Vec<(String, bool, bool)> {
    let mut methods = Vec::new();
    for set in mancala::server::DESCRIPTOR_SETS {
        let set = prost_types::FileDescriptorSet::decode(set).expect("a descriptor set");
        for file in set.file {
            for service in &file.service {
                for method in &service.method {
                    methods.push((
                        format!("/{}.{}/{}", file.package(), service.name(), method.name()),
                        method.client_streaming(),
                        method.server_streaming(),
                    ));
                }
            }
        }
    }
    methods
}

#[tokio::test]
async fn garbage_bytes_are_invalid_argument_on_every_rpc() {
    // The Admin service checks the operator key before anything else: the key is sent, so its calls too get
    // as far as decoding.
    const OPERATOR_KEY: &str = "mo_bad-input";
    let server = TestServer::start_with(|settings| {
        settings.auth.operator_key_sha256 =
            mancala::identity::keys::hex(&mancala::identity::keys::hash(OPERATOR_KEY));
    })
    .await;
    // Field 15 with wire type 7, which does not exist: no message decodes it.
    let garbage = vec![0x7f, 0xff, 0xff, 0xff];
    let methods = served_methods();
    assert!(methods.len() >= 15, "{methods:?}");
    for (path, client_streaming, server_streaming) in methods {
        let mut grpc = tonic::client::Grpc::new(server.channel.clone());
        within(grpc.ready()).await.expect("ready");
        let path: http::uri::PathAndQuery = path.parse().expect("a path");
        let admin = path.path().starts_with("/mancala.v1.Admin/");
        let request = || {
            let mut request = tonic::Request::new(garbage.clone());
            if admin {
                request.metadata_mut().insert(
                    "authorization",
                    format!("Bearer {OPERATOR_KEY}").parse().unwrap(),
                );
            }
            request
        };
        let status = match (client_streaming, server_streaming) {
            (false, false) => within(grpc.unary(request(), path.clone(), Raw))
                .await
                .map(drop),
            (false, true) => {
                match within(grpc.server_streaming(request(), path.clone(), Raw)).await {
                    Ok(mut stream) => within(stream.get_mut().message()).await.map(drop),
                    Err(status) => Err(status),
                }
            }
            (true, _) => {
                let stream = tokio_stream::iter([garbage.clone()]);
                let answer =
                    match within(grpc.streaming(tonic::Request::new(stream), path.clone(), Raw))
                        .await
                    {
                        Ok(mut stream) => within(stream.get_mut().message()).await,
                        Err(status) => Err(status),
                    };
                // The one streaming-request method is reflection's: tonic-reflection drops a message it cannot
                // decode and ends the stream with OK, answering nothing. Not INTERNAL, and nothing to correct.
                assert!(
                    path.path().starts_with("/grpc.reflection."),
                    "{path}: a request stream of our own"
                );
                assert!(matches!(answer, Ok(None)), "{path}: {answer:?}");
                continue;
            }
        }
        .err()
        .unwrap_or_else(|| panic!("{path}: garbage was accepted"));
        assert_eq!(status.code(), Code::InvalidArgument, "{path}: {status:?}");
        assert!(
            status
                .message()
                .starts_with("the request could not be decoded"),
            "{path}: {status:?}"
        );
    }
}

#[tokio::test]
async fn thousands_of_bad_entries_get_a_short_answer() {
    let server = TestServer::start().await;
    let state = server.new_game(pb::GameKind::Bosh).await;
    let request = pb::ValidateMoveRequest {
        state: Some(state),
        r#move: Some(pb::Move {
            action: Some(pb::r#move::Action::NextGame(pb::NextGame {
                pits: vec![99; 50_000],
            })),
        }),
    };
    let refused = within(server.rules().validate_move(request))
        .await
        .expect_err("refused");
    assert_eq!(
        refused.code(),
        Code::InvalidArgument,
        "{}",
        refused.message()
    );
    let listed = refused
        .get_details_bad_request()
        .expect("BadRequest")
        .field_violations;
    assert_eq!(listed.len(), mancala::api::error::MAX_LISTED_VIOLATIONS);
    assert!(
        refused.message().contains("the first 25 are listed"),
        "{}",
        refused.message()
    );
    assert!(
        refused.details().len() + refused.message().len() < 8 * 1024,
        "{} bytes of details",
        refused.details().len()
    );
}
