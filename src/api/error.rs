//! The one place where errors become gRPC statuses (GUIDE §4): malformed input or an impossible state →
//! INVALID_ARGUMENT with `google.rpc.BadRequest`; an illegal move → FAILED_PRECONDITION with
//! `google.rpc.ErrorInfo`; a game without rules here yet → UNIMPLEMENTED; and every error of a
//! server-held match ([`match_error`]).

use super::convert::DecodeError;
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
/// The reason is the engine's [`Reason::code`](crate::engine::Reason::code), the one spelling of it
/// (a test checks it against the proto's `IllegalMoveReason` names).
pub fn illegal_move(error: &IllegalMove) -> Status {
    let mut metadata = HashMap::new();
    if let Some(pit) = error.pit {
        metadata.insert("pit".to_string(), pit.to_string());
    }
    let details = ErrorDetails::with_error_info(error.reason.code(), ERROR_DOMAIN, metadata);
    Status::with_error_details(
        Code::FailedPrecondition,
        format!("illegal move: {error}"),
        details,
    )
}

/// The status of a failed match request (`proto/mancala/v1/matches.proto` lists the codes). A stale
/// version is ABORTED with `ErrorInfo` reason [`MatchError::code`] (`VERSION_MISMATCH`) and
/// metadata `current_version`.
pub fn match_error(error: MatchError) -> Status {
    let code = error.code();
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
            let details = ErrorDetails::with_error_info(code, ERROR_DOMAIN, metadata);
            Status::with_error_details(
                Code::Aborted,
                format!(
                    "the match is at version {current}, not {expected}: read it again and retry"
                ),
                details,
            )
        }
        MatchError::Illegal(illegal) => illegal_move(&illegal),
        e @ MatchError::OutOfRange { .. } => Status::out_of_range(e.to_string()),
        MatchError::ResourceExhausted(message) => Status::resource_exhausted(message),
        MatchError::Internal(message) => Status::internal(message),
    }
}

#[cfg(test)]
mod tests {
    use super::super::convert::reason_to_pb;
    use crate::engine::Reason;

    /// Every reason the engine gives, in the order of the proto enum (`UNSPECIFIED` is 0).
    fn every_reason() -> Vec<Reason> {
        (1..)
            .map_while(|n| crate::api::pb::IllegalMoveReason::try_from(n).ok())
            .map(|pb| {
                REASONS
                    .into_iter()
                    .find(|&r| reason_to_pb(r) == pb)
                    .unwrap_or_else(|| panic!("{pb:?} has no engine reason"))
            })
            .collect()
    }

    const REASONS: [Reason; 20] = [
        Reason::NoSuchPit,
        Reason::PitEmpty,
        Reason::NotYourPit,
        Reason::GameOver,
        Reason::NeverEndingMove,
        Reason::GameInProgress,
        Reason::MatchOver,
        Reason::InvalidChoice,
        Reason::HoleClosed,
        Reason::ChoiceRequired,
        Reason::ChoiceNotOffered,
        Reason::CaptureIsMandatory,
        Reason::KuuMustStartTakata,
        Reason::KuuNotAllowedWhileOtherHolesOccupied,
        Reason::SingletonNotAllowed,
        Reason::MustSowTowardCentre,
        Reason::HoleMarkedHiziZetu,
        Reason::MustCaptureMarkedHole,
        Reason::TooManySeedsToCapture,
        Reason::HoleNotAllowed,
    ];

    #[test]
    fn the_engine_spells_every_illegal_move_reason_as_the_proto_names_it() {
        let reasons = every_reason();
        assert_eq!(reasons.len(), REASONS.len(), "one proto value per reason");
        for reason in reasons {
            assert_eq!(
                format!("ILLEGAL_MOVE_REASON_{}", reason.code()),
                reason_to_pb(reason).as_str_name(),
            );
        }
    }
}
