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
async fn many_bad_entries_get_a_short_answer() {
    let server = TestServer::start().await;
    // Every one of Bao la Kete's 32 pits holds more seeds than the game has: a violation each, more than listed.
    let mut state = server.new_game(pb::GameKind::BaoLaKete).await;
    state.pits = vec![999; 32];
    let request = pb::ValidateMoveRequest {
        state: Some(state),
        r#move: Some(pb::Move {
            action: Some(pb::r#move::Action::Sow(pb::Sow {
                pit: 0,
                ..Default::default()
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

/// The one violation of a request refused for the length of a list: its field and description.
async fn only_violation<T: std::fmt::Debug>(
    answer: impl std::future::Future<Output = Result<T, Status>>,
) -> (String, String) {
    let refused = within(answer).await.expect_err("refused");
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    let violations = refused
        .get_details_bad_request()
        .expect("BadRequest")
        .field_violations;
    assert_eq!(violations.len(), 1, "{violations:?}");
    (
        violations[0].field.clone(),
        violations[0].description.clone(),
    )
}

/// Issue 34: a list far longer than any board is refused from its length alone, with one violation naming it,
/// not one per entry (which made a refusal cost seconds of CPU, quadratic in the list's length). What such a
/// refusal costs is measured by `mancala oversized` (BENCHMARKS.md); here, what it answers.
#[tokio::test]
async fn lists_longer_than_any_board_are_refused_from_their_length() {
    let server = TestServer::start().await;
    const LONG: usize = 200_000;
    let sow = || pb::Move {
        action: Some(pb::r#move::Action::Sow(pb::Sow {
            pit: 0,
            ..Default::default()
        })),
    };
    type Fill = fn(&mut pb::GameState);
    let lists: [(pb::GameKind, &str, Fill); 8] = [
        (pb::GameKind::BaAwa, "state.pits", |s| {
            s.pits = vec![7; LONG]
        }),
        (pb::GameKind::BaAwa, "state.stores", |s| {
            s.stores = vec![7; LONG]
        }),
        (pb::GameKind::BaoLaKete, "state.reserves", |s| {
            s.reserves = vec![7; LONG]
        }),
        (pb::GameKind::Bosh, "state.match_score", |s| {
            s.match_score = vec![7; LONG]
        }),
        (pb::GameKind::BaAwa, "state.ba_awa.owners", |s| {
            if let Some(pb::game_state::Variant::BaAwa(v)) = &mut s.variant {
                v.owners = vec![99; LONG];
            }
        }),
        (
            pb::GameKind::BaAwa,
            "state.ba_awa.eliminated_in_game",
            |s| {
                if let Some(pb::game_state::Variant::BaAwa(v)) = &mut s.variant {
                    v.eliminated_in_game = vec![7; LONG];
                }
            },
        ),
        (pb::GameKind::Bosh, "state.bosh.closed", |s| {
            if let Some(pb::game_state::Variant::Bosh(v)) = &mut s.variant {
                v.closed = vec![true; LONG];
            }
        }),
        (
            pb::GameKind::BaoLaKete,
            "state.bao_la_kete.kuu_alive",
            |s| {
                if let Some(pb::game_state::Variant::BaoLaKete(v)) = &mut s.variant {
                    v.kuu_alive = vec![true; LONG];
                }
            },
        ),
    ];
    let mut rules = server.rules();
    for (kind, field, fill) in lists {
        let mut state = server.new_game(kind).await;
        fill(&mut state);
        let validate = rules.validate_move(pb::ValidateMoveRequest {
            state: Some(state.clone()),
            r#move: Some(sow()),
        });
        let (named, description) = only_violation(validate).await;
        assert_eq!(named, field);
        assert!(
            description.starts_with(&format!("holds {LONG} values; a ")),
            "{field}: {description}"
        );
        // The other calls that take a state answer alike.
        let listed = rules.list_legal_moves(pb::ListLegalMovesRequest {
            state: Some(state.clone()),
            ..Default::default()
        });
        assert_eq!(only_violation(listed).await.0, field);
        let suggested = rules.suggest_move(pb::SuggestMoveRequest {
            state: Some(state),
            ..Default::default()
        });
        assert_eq!(only_violation(suggested).await.0, field);
    }

    let state = server.new_game(pb::GameKind::BaAwa).await;
    let next_game = pb::Move {
        action: Some(pb::r#move::Action::NextGame(pb::NextGame {
            pits: vec![3; LONG],
        })),
    };
    let apply = rules.apply_move(pb::ApplyMoveRequest {
        state: Some(state),
        r#move: Some(next_game),
        ..Default::default()
    });
    assert_eq!(
        only_violation(apply).await,
        (
            "move.next_game.pits".to_string(),
            format!("lists {LONG} pits; Ba-awa has 12")
        )
    );

    let mut matches = pb::matches_client::MatchesClient::new(server.channel.clone());
    let bots = vec![
        pb::SeatBot {
            player: pb::Player::South as i32,
            level: 1,
            ..Default::default()
        };
        LONG / 2
    ];
    let create = matches.create_match(pb::CreateMatchRequest {
        kind: pb::GameKind::Bosh as i32,
        bots,
        ..Default::default()
    });
    assert_eq!(
        only_violation(create).await,
        (
            "bots".to_string(),
            format!("lists {} seats; a match has at most 3", LONG / 2)
        )
    );
}
