//! The one place where errors become gRPC statuses (GUIDE §4): malformed input or an impossible state →
//! INVALID_ARGUMENT with `google.rpc.BadRequest`; an illegal move → FAILED_PRECONDITION with
//! `google.rpc.ErrorInfo`; a game without rules here yet → UNIMPLEMENTED; and every error of a
//! server-held match ([`match_error`]).

use super::convert::{reason_to_pb, DecodeError};
use crate::engine::{GameKind, IllegalMove, Violation};
use crate::matches::MatchError;
use std::collections::HashMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// The `google.rpc.ErrorInfo` domain of every error this service raises.
pub const ERROR_DOMAIN: &str = "mancala.v1";

/// INVALID_ARGUMENT listing every violation.
pub fn invalid_argument(violations: Vec<Violation>) -> Status {
    let summary = match violations.as_slice() {
        [only] => format!("{}: {}", only.field, only.description),
        [first, ..] => format!(
            "{}: {} (and {} more violation{})",
            first.field,
            first.description,
            violations.len() - 1,
            if violations.len() == 2 { "" } else { "s" }
        ),
        [] => "invalid request".to_string(),
    };
    let mut details = ErrorDetails::new();
    for v in violations {
        details.add_bad_request_violation(v.field, v.description);
    }
    Status::with_error_details(Code::InvalidArgument, summary, details)
}

/// UNIMPLEMENTED for a game whose rules are not here yet.
pub fn not_implemented(kind: GameKind) -> Status {
    Status::unimplemented(format!(
        "{} is not implemented by this server yet; DescribeGame lists what each game needs",
        kind.name()
    ))
}

/// The status for a request that could not be decoded.
pub fn decode_error(error: DecodeError) -> Status {
    match error {
        DecodeError::Invalid(violations) => invalid_argument(violations),
        DecodeError::NotImplemented(kind) => not_implemented(kind),
    }
}

/// FAILED_PRECONDITION with the machine-readable reason in `ErrorInfo` (metadata `pit` when the move names one).
pub fn illegal_move(error: &IllegalMove) -> Status {
    let mut metadata = HashMap::new();
    if let Some(pit) = error.pit {
        metadata.insert("pit".to_string(), pit.to_string());
    }
    let reason = reason_to_pb(error.reason);
    let code = reason
        .as_str_name()
        .trim_start_matches("ILLEGAL_MOVE_REASON_");
    let details = ErrorDetails::with_error_info(code, ERROR_DOMAIN, metadata);
    Status::with_error_details(
        Code::FailedPrecondition,
        format!("illegal move: {error}"),
        details,
    )
}

/// The `ErrorInfo` reason of an ABORTED stale `expected_version`; metadata `current_version`.
pub const VERSION_MISMATCH: &str = "VERSION_MISMATCH";

/// The status of a failed match request (`proto/mancala/v1/matches.proto` lists the codes).
pub fn match_error(error: MatchError) -> Status {
    match error {
        MatchError::Invalid(violations) => invalid_argument(violations),
        MatchError::NotFound(id) => Status::not_found(format!(
            "match {id} does not exist (or was deleted after its retention)"
        )),
        MatchError::Unauthenticated(message) => Status::unauthenticated(message),
        MatchError::PermissionDenied(message) => Status::permission_denied(message),
        MatchError::VersionMismatch { expected, current } => {
            let metadata = HashMap::from([
                ("current_version".to_string(), current.to_string()),
                ("expected_version".to_string(), expected.to_string()),
            ]);
            let details = ErrorDetails::with_error_info(VERSION_MISMATCH, ERROR_DOMAIN, metadata);
            Status::with_error_details(
                Code::Aborted,
                format!(
                    "the match is at version {current}, not {expected}: read it again and retry"
                ),
                details,
            )
        }
        MatchError::Illegal(illegal) => illegal_move(&illegal),
        MatchError::NotImplemented(kind) => not_implemented(kind),
        e @ MatchError::OutOfRange { .. } => Status::out_of_range(e.to_string()),
        MatchError::ResourceExhausted(message) => Status::resource_exhausted(message),
        MatchError::Internal(message) => Status::internal(message),
    }
}
