//! The one place where errors become gRPC statuses (GUIDE §4): malformed input or an impossible state →
//! INVALID_ARGUMENT with `google.rpc.BadRequest`; an illegal move → FAILED_PRECONDITION with
//! `google.rpc.ErrorInfo`; a game without rules here yet → UNIMPLEMENTED; and every error of a
//! server-held match ([`match_error`]).

use super::search::SearchRefusal;
use crate::engine::{IllegalMove, Reason, Unfinished, Violation};
use crate::identity::{AdminError, AuthError, OverLimit, Throttled};
use crate::matches::MatchError;
use crate::pool::WorkError;
use crate::rules::Refusal;
use std::collections::HashMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// The `google.rpc.ErrorInfo` domain of every error this service raises.
pub const ERROR_DOMAIN: &str = "mancala.v1";

/// The most field violations an INVALID_ARGUMENT lists; its message counts the rest. A request of many bad
/// entries must not get an answer larger than itself (every violation went into the trailers, which most
/// clients refuse past a few KiB).
pub const MAX_LISTED_VIOLATIONS: usize = 25;

/// The longest violation description listed, in bytes.
const MAX_DESCRIPTION_BYTES: usize = 160;

/// INVALID_ARGUMENT listing the violations (the first [`MAX_LISTED_VIOLATIONS`] of them).
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
    let summary = if violations.len() > MAX_LISTED_VIOLATIONS {
        format!("{summary}; the first {MAX_LISTED_VIOLATIONS} are listed")
    } else {
        summary
    };
    let mut details = ErrorDetails::new();
    for v in violations.into_iter().take(MAX_LISTED_VIOLATIONS) {
        details.add_bad_request_violation(v.field, shortened(v.description));
    }
    Status::with_error_details(Code::InvalidArgument, summary, details)
}

/// `text` cut at a character boundary to at most [`MAX_DESCRIPTION_BYTES`], marked when cut.
fn shortened(mut text: String) -> String {
    if text.len() > MAX_DESCRIPTION_BYTES {
        let mut end = MAX_DESCRIPTION_BYTES - '…'.len_utf8();
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

/// A stateless call's refusal ([`Refusal`]): INVALID_ARGUMENT for a bad request, FAILED_PRECONDITION for an
/// illegal move ([`illegal_move`]), and the status of engine work that did not finish ([`engine_work`]).
pub fn refusal(refusal: Refusal) -> Status {
    match refusal {
        Refusal::Invalid(violations) => invalid_argument(violations),
        Refusal::Illegal(illegal) => illegal_move(&illegal),
        Refusal::Unfinished(unfinished) => engine_work(unfinished),
    }
}

/// A call's answer from the engine's run of its job: the job's own answer, or the status of work that did not
/// finish (budget spent, pool busy, shutting down).
pub fn engine_answer<R>(ran: Result<Result<R, Status>, WorkError>) -> Result<R, Status> {
    ran.unwrap_or_else(|unfinished| Err(engine_work(unfinished)))
}

/// FAILED_PRECONDITION with the machine-readable reason in `ErrorInfo` (metadata `pit` when the move names one).
/// The reason is the engine's [`Reason::code`](crate::engine::Reason::code), the one spelling of it
/// (a test checks it against the proto's `IllegalMoveReason` names).
///
/// A bot's illegal move is the one refusal answered often, so its details are written straight into their bytes
/// ([`wire::error_info_details`](super::wire::error_info_details)) rather than built as messages (a map, an `Any`, a `google.rpc.Status`) and encoded: the
/// same bytes as tonic-types writes (a test compares them for every reason, with and without a pit).
pub fn illegal_move(error: &IllegalMove) -> Status {
    let message = format!("illegal move: {error}");
    let mut digits = [0u8; 3];
    let pit = error.pit.map(|p| decimal(p, &mut digits));
    let details = super::wire::error_info_details(
        Code::FailedPrecondition,
        &message,
        error.reason.code(),
        pit.map(|p| ("pit", p)),
    );
    Status::with_details(Code::FailedPrecondition, message, details)
}

/// `n` in decimal, written into `buf`.
fn decimal(mut n: u8, buf: &mut [u8; 3]) -> &str {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + n % 10;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[at..]).expect("ASCII digits")
}

/// The status of a `SuggestMove` or `AnalyzePosition` that cannot be searched: INVALID_ARGUMENT listing the
/// violations, or, when the match is over, FAILED_PRECONDITION with `ErrorInfo` reason `MATCH_OVER` (the
/// `IllegalMoveReason` a move would get there).
pub fn search_refusal(refusal: SearchRefusal) -> Status {
    match refusal {
        SearchRefusal::Invalid(violations) => invalid_argument(violations),
        SearchRefusal::MatchOver => Status::with_error_details(
            Code::FailedPrecondition,
            "the match is over: there is no move to suggest or analyse",
            ErrorDetails::with_error_info(Reason::MatchOver.code(), ERROR_DOMAIN, HashMap::new()),
        ),
    }
}

/// The `ErrorInfo` reason of a call whose engine work ran past its budget (RESOURCE_EXHAUSTED); metadata
/// `budget_laps`.
pub const WORK_BUDGET_EXHAUSTED: &str = "WORK_BUDGET_EXHAUSTED";
/// The `ErrorInfo` reason of a long call refused because the engine pool's queue is full (RESOURCE_EXHAUSTED).
pub const ENGINE_BUSY: &str = "ENGINE_BUSY";
/// The `ErrorInfo` reason of a long call refused because its caller already has its share of long calls in
/// flight (RESOURCE_EXHAUSTED); metadata `limit`.
pub const TOO_MANY_LONG_CALLS: &str = "TOO_MANY_LONG_CALLS";

/// The status of engine work that did not produce an answer (see `crate::pool`).
pub fn engine_work(error: WorkError) -> Status {
    match error {
        WorkError::Unfinished(Unfinished::Exhausted { budget }) => {
            let metadata = HashMap::from([("budget_laps".to_string(), budget.to_string())]);
            Status::with_error_details(
                Code::ResourceExhausted,
                format!(
                    "the engine spent its budget of {budget} laps without deciding: the position's relays run \
                     too long to decide here (engine.rules_budget_laps); nothing was decided or changed"
                ),
                ErrorDetails::with_error_info(WORK_BUDGET_EXHAUSTED, ERROR_DOMAIN, metadata),
            )
        }
        // The caller went away (or its deadline passed): nobody reads this but the logs.
        WorkError::Unfinished(Unfinished::Cancelled) => {
            Status::cancelled("the call was cancelled before the engine decided")
        }
        e @ WorkError::Busy { .. } => Status::with_error_details(
            Code::ResourceExhausted,
            format!("{e}; retry later"),
            ErrorDetails::with_error_info(ENGINE_BUSY, ERROR_DOMAIN, HashMap::new()),
        ),
        e @ WorkError::TooManyLongCalls { limit } => Status::with_error_details(
            Code::ResourceExhausted,
            format!("{e}; wait for one to end, then retry"),
            ErrorDetails::with_error_info(
                TOO_MANY_LONG_CALLS,
                ERROR_DOMAIN,
                HashMap::from([("limit".to_string(), limit.to_string())]),
            ),
        ),
        // Only the server's own bots have deadlines in the queue; a caller never sees this.
        e @ WorkError::Late => Status::deadline_exceeded(e.to_string()),
        WorkError::ShuttingDown => Status::unavailable("the server is shutting down"),
    }
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
        MatchError::NotYourChoice(refusal) => refused(
            "NOT_YOUR_CHOICE",
            refusal.message,
            [
                ("seat".to_string(), seat_name(refusal.sender)),
                ("chooser".to_string(), seat_name(refusal.chooser)),
                ("rule".to_string(), refusal.rule.to_string()),
            ],
        ),
        MatchError::Timing {
            reason,
            message,
            metadata,
        } => refused(
            reason,
            message,
            metadata
                .into_iter()
                .map(|(key, value)| (key.to_string(), value.to_string())),
        ),
        MatchError::Agreement(refusal) => refused(refusal.code(), refusal.detail().to_string(), []),
        e @ MatchError::OutOfRange { .. } => Status::out_of_range(e.to_string()),
        MatchError::ResourceExhausted(message) => Status::resource_exhausted(message),
        MatchError::Throttled(throttled) => rate_limited(&throttled),
        MatchError::OverLimit(over) => over_limit(&over),
        MatchError::Unfinished(unfinished) => engine_work(WorkError::Unfinished(unfinished)),
        MatchError::Internal(message) => Status::internal(message),
        MatchError::Unavailable(message) => Status::unavailable(message),
    }
}

/// FAILED_PRECONDITION with `ErrorInfo` `reason` and its `metadata`: a request the state of a match or of the lobby
/// refuses, with what a program needs to act on it.
fn refused(
    reason: &str,
    message: String,
    metadata: impl IntoIterator<Item = (String, String)>,
) -> Status {
    Status::with_error_details(
        Code::FailedPrecondition,
        message,
        ErrorDetails::with_error_info(
            reason,
            ERROR_DOMAIN,
            metadata.into_iter().collect::<HashMap<_, _>>(),
        ),
    )
}

/// Every refusal of the lobby (`lobby.proto`'s error list).
pub fn lobby_error(error: crate::lobby::LobbyError) -> Status {
    use crate::lobby::LobbyError as L;
    match error {
        L::Invalid(violations) => invalid_argument(violations),
        L::NotFound(message) => Status::not_found(message),
        L::PermissionDenied(message) => Status::permission_denied(message),
        L::Closed {
            reason,
            status,
            message,
        } => refused(
            reason,
            message,
            [("status".to_string(), status.to_string())],
        ),
        L::NoRematch(message) => Status::with_error_details(
            Code::FailedPrecondition,
            message,
            ErrorDetails::with_error_info("NO_REMATCH", ERROR_DOMAIN, HashMap::new()),
        ),
        L::OutOfRange(message) => Status::out_of_range(message),
        L::ResourceExhausted(message) => Status::resource_exhausted(message),
        L::Match(error) => match_error(error),
        L::Internal(message) => Status::internal(message),
    }
}

/// A refusal of the tournaments as a status.
pub fn tournament_error(error: crate::tournaments::TournamentError) -> Status {
    use crate::tournaments::TournamentError as T;
    match error {
        T::Invalid(violations) => invalid_argument(violations),
        T::NotFound(message) => Status::not_found(message),
        T::PermissionDenied(message) => Status::permission_denied(message),
        T::Refused { reason, message } => refused(reason, message, []),
        T::ResourceExhausted(message) => Status::resource_exhausted(message),
        T::Lobby(error) => lobby_error(error),
    }
}

/// The `ErrorInfo` reason of a call over its tenant's rate.
pub const RATE_LIMITED: &str = "RATE_LIMITED";

/// A refused credential: UNAUTHENTICATED, saying why (never repeating the credential).
pub fn unauthenticated(error: &AuthError) -> Status {
    Status::unauthenticated(match error {
        AuthError::Unknown => "the API key is not valid: no tenant has it".to_string(),
        other => other.to_string(),
    })
}

/// The `ErrorInfo` reason of a caller over its share of a tenant's matches or streams, or of its connections.
pub const CALLER_LIMIT: &str = "CALLER_LIMIT";

/// The `ErrorInfo` reason of a credentialed call from an address backed off for its failed credentials.
pub const AUTH_BACKOFF: &str = "AUTH_BACKOFF";

/// RESOURCE_EXHAUSTED for a call over its tenant's rate, or its player's or address's share of it: `RetryInfo` says
/// when a call will be accepted again, `QuotaFailure` which bucket it met (`tenant:acme`, `player:ann`,
/// `address:203.0.113.7`) and its settings, `ErrorInfo` the reason `RATE_LIMITED`.
pub fn rate_limited(throttled: &Throttled) -> Status {
    let subject = throttled.subject.strip_prefix("tenant:").map_or_else(
        || throttled.subject.replacen(':', " ", 1),
        |tenant| format!("tenant {tenant}"),
    );
    let mut details = ErrorDetails::with_retry_info(Some(throttled.retry_after));
    details.add_quota_failure_violation(
        throttled.subject.clone(),
        format!(
            "{} calls per second with bursts of {} ({})",
            throttled.calls_per_second, throttled.burst, throttled.settings
        ),
    );
    details.set_error_info(
        RATE_LIMITED,
        ERROR_DOMAIN,
        HashMap::from([("limit".to_string(), throttled.kind.to_string())]),
    );
    Status::with_error_details(
        Code::ResourceExhausted,
        format!(
            "{subject} is over its {} calls per second ({}); retry in {} ms",
            throttled.calls_per_second,
            throttled.settings,
            throttled.retry_after.as_millis().max(1)
        ),
        details,
    )
}

/// RESOURCE_EXHAUSTED for a caller over its share of a tenant's matches or streams: `QuotaFailure` names whose share
/// (`player:ann`, `address:203.0.113.7`) and the setting, `ErrorInfo` the reason `CALLER_LIMIT` with the limit and
/// its setting. No `RetryInfo`: the share frees when the caller ends a match or closes a stream, not with time.
pub fn over_limit(over: &OverLimit) -> Status {
    let mut details = ErrorDetails::new();
    details.add_quota_failure_violation(over.subject.clone(), over.setting.to_string());
    details.set_error_info(
        CALLER_LIMIT,
        ERROR_DOMAIN,
        HashMap::from([
            ("limit".to_string(), over.limit.to_string()),
            ("setting".to_string(), over.setting.to_string()),
        ]),
    );
    Status::with_error_details(Code::ResourceExhausted, over.message.clone(), details)
}

/// RESOURCE_EXHAUSTED for a credentialed call from an address backed off after repeated UNAUTHENTICATED answers
/// (`auth.failures_before_backoff`): the credential was not looked at. `RetryInfo` says when the address may try
/// again, `ErrorInfo` the reason `AUTH_BACKOFF`.
pub fn backed_off(retry_after: std::time::Duration) -> Status {
    let mut details = ErrorDetails::with_retry_info(Some(retry_after));
    details.set_error_info(
        AUTH_BACKOFF,
        ERROR_DOMAIN,
        HashMap::from([(
            "setting".to_string(),
            "auth.failures_before_backoff".to_string(),
        )]),
    );
    Status::with_error_details(
        Code::ResourceExhausted,
        format!(
            "too many refused credentials from this address (auth.failures_before_backoff): credentials it has not \
             used successfully are not checked for {} ms",
            retry_after.as_millis().max(1)
        ),
        details,
    )
}

/// The status of a refused Admin or Players call.
pub fn admin_error(error: AdminError) -> Status {
    match error {
        AdminError::Invalid { field, description } => invalid_argument(vec![Violation {
            field: field.to_string(),
            description,
        }]),
        AdminError::NotFound(message) => Status::not_found(message),
        e @ AdminError::Exists(_) => Status::already_exists(e.to_string()),
        AdminError::Unusable(message) => Status::failed_precondition(message),
        AdminError::Store(e) => {
            tracing::error!(error = %e, "a tenant change failed");
            Status::internal("the tenant store failed; see the server log")
        }
    }
}

/// A seat as the protocol's `Player` enum names it (`PLAYER_SOUTH`), for an `ErrorInfo`'s metadata.
fn seat_name(seat: crate::engine::Player) -> String {
    format!("PLAYER_{}", seat.to_string().to_uppercase())
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

    /// The illegal-move status written by hand is the one tonic-types builds: code, message and the details'
    /// bytes, for every reason, without a pit and with pits of one, two and three digits.
    #[test]
    fn an_illegal_move_status_is_the_one_tonic_types_builds() {
        use std::collections::HashMap;
        use tonic::Code;
        use tonic_types::{ErrorDetails, StatusExt};
        let details = ["the pit is empty", "", &"a long explanation ".repeat(10)];
        for reason in REASONS {
            for pit in [None, Some(0), Some(7), Some(31), Some(127), Some(255)] {
                for detail in details {
                    let detail: &'static str = Box::leak(detail.to_string().into_boxed_str());
                    let error = crate::engine::IllegalMove {
                        reason,
                        pit,
                        detail,
                    };
                    let metadata: HashMap<String, String> = pit
                        .map(|p| ("pit".to_string(), p.to_string()))
                        .into_iter()
                        .collect();
                    let expected = tonic::Status::with_error_details(
                        Code::FailedPrecondition,
                        format!("illegal move: {error}"),
                        ErrorDetails::with_error_info(reason.code(), super::ERROR_DOMAIN, metadata),
                    );
                    let status = super::illegal_move(&error);
                    assert_eq!(status.code(), expected.code());
                    assert_eq!(status.message(), expected.message());
                    assert_eq!(status.details(), expected.details(), "{error:?}");
                    let info = status.get_error_details().error_info().cloned();
                    let info = info.expect("an ErrorInfo");
                    assert_eq!(info.reason, reason.code());
                    assert_eq!(
                        info.metadata.get("pit").cloned(),
                        pit.map(|p| p.to_string())
                    );
                }
            }
        }
    }
}
