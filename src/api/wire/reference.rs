//! The whole hot calls, read and answered by [`wire`](super), give what prost and `convert` give: the same bytes,
//! or the same status (code, message, details), over random playouts of every game and option set and their
//! mutations. prost's path is kept here only as this reference: a request decoded by prost and `convert`, the
//! answer built as prost's messages and encoded by prost. Both do the same engine work ([`crate::rules`]);
//! `wire::tests` proves the encoder itself, `decode::tests` the decoder.

use super::decode::tests::{mutated, playout_requests, Request as Which};
use super::decode::{Call, Canonical};
use super::tests::same_answer;
use super::{ApplyMoveAnswer, Encoded, ListLegalMovesAnswer, ValidateMoveAnswer};
use crate::api::{convert, error, pb};
use crate::rules;
use prost::Message;
use std::fmt::Debug;
use tonic::Status;

/// `ValidateMove` by prost.
fn validate_move(request: pb::ValidateMoveRequest) -> Result<pb::ValidateMoveResponse, Status> {
    let request = convert::state_and_move(request.state, request.r#move.as_ref());
    let verdict = request.verdict().map_err(error::refusal)?;
    Ok(match verdict {
        Ok(()) => pb::ValidateMoveResponse {
            legal: true,
            reason: 0,
            message: String::new(),
        },
        Err(illegal) => pb::ValidateMoveResponse {
            legal: false,
            reason: convert::reason_to_pb(illegal.reason) as i32,
            message: illegal.to_string(),
        },
    })
}

/// `ApplyMove` by prost.
fn apply_move(request: pb::ApplyMoveRequest) -> Result<pb::ApplyMoveResponse, Status> {
    convert::state_and_move(request.state, request.r#move.as_ref())
        .played(request.skip_events, |game, events| pb::ApplyMoveResponse {
            state: Some(convert::state_to_pb(game)),
            events: convert::events_to_pb(events),
        })
        .map_err(error::refusal)
}

/// `ListLegalMoves` by prost.
fn list_legal_moves(
    request: pb::ListLegalMovesRequest,
) -> Result<pb::ListLegalMovesResponse, Status> {
    let game =
        rules::listed(&convert::state_setup("state", request.state)).map_err(error::refusal)?;
    Ok(pb::ListLegalMovesResponse {
        moves: convert::legal_moves_to_pb(&game, !request.skip_previews),
    })
}

/// `ValidateMove` as the server reads and answers it.
fn validate_move_wire(call: Call<pb::ValidateMoveRequest>) -> Result<ValidateMoveAnswer, Status> {
    let verdict = call.into_engine().verdict().map_err(error::refusal)?;
    Ok(super::verdict(verdict))
}

/// `ApplyMove` as the server reads and answers it.
fn apply_move_wire(call: Call<pb::ApplyMoveRequest>) -> Result<ApplyMoveAnswer, Status> {
    let (request, skip_events) = call.into_engine();
    request
        .played(skip_events, super::apply_move)
        .map_err(error::refusal)
}

/// `ListLegalMoves` as the server reads and answers it.
fn list_legal_moves_wire(
    call: Call<pb::ListLegalMovesRequest>,
) -> Result<ListLegalMovesAnswer, Status> {
    let (state, with_previews) = call.into_engine();
    let game = rules::listed(&state).map_err(error::refusal)?;
    Ok(super::list_legal_moves(&game, with_previews))
}

#[test]
fn whole_calls_answer_prosts_bytes_or_prosts_status() {
    let mut answers = 0usize;
    playout_requests(0x18_2026_1203, 12, |_, which, bytes| {
        assert!(both_ways(which, &bytes), "prost's own bytes decode");
        answers += 1;
    });
    assert!(answers > 100_000, "{answers} answers");
}

#[test]
fn whole_calls_on_mutated_requests_answer_as_prost() {
    let (mut decoded, mut undecodable) = (0usize, 0usize);
    playout_requests(0x18_2026_1206, 2, |rng, which, bytes| {
        for _ in 0..3 {
            if both_ways(which, &mutated(rng, &bytes)) {
                decoded += 1;
            } else {
                undecodable += 1;
            }
        }
    });
    println!("{decoded} mutated requests answered, {undecodable} undecodable");
    assert!(
        decoded > 50_000 && undecodable > 5_000,
        "{decoded} {undecodable}"
    );
}

/// One call on `bytes` both ways: prost's decoding and answer, and the server's (the request decoded as a
/// [`Call`], the answer encoded). The same answer or status, or the same decoding error (which tonic's codec
/// turns into the same INTERNAL status). Returns whether the request decoded.
fn same_call<P: Canonical + Debug, R: Message + Debug, E>(
    name: &str,
    bytes: &[u8],
    prost: impl FnOnce(P) -> Result<R, Status>,
    wire: impl FnOnce(Call<P>) -> Result<Encoded<E>, Status>,
) -> bool {
    match (P::decode(bytes), Call::<P>::decode(bytes)) {
        (Ok(request), Ok(call)) => {
            same_answer(name, prost(request), wire(call));
            true
        }
        (Err(p), Err(w)) => {
            assert_eq!(p.to_string(), w.to_string(), "{name} {bytes:02x?}");
            false
        }
        (p, w) => panic!("{name}: prost decoded {p:?}, the server {w:?}: {bytes:02x?}"),
    }
}

/// [`same_call`] for the request `which` of `bytes`.
fn both_ways(which: Which, bytes: &[u8]) -> bool {
    match which {
        Which::Validate => same_call("ValidateMove", bytes, validate_move, validate_move_wire),
        Which::Apply => same_call("ApplyMove", bytes, apply_move, apply_move_wire),
        Which::List => same_call(
            "ListLegalMoves",
            bytes,
            list_legal_moves,
            list_legal_moves_wire,
        ),
    }
}
