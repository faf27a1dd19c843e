//! Why a match request failed, in the rules' and the match's terms. The codes are the domain's own
//! ([`MatchError::code`]); `crate::api::error` maps each variant to its gRPC status in one table.

use crate::engine::across_turns::AgreementRefusal;
use crate::engine::{IllegalMove, NotYourChoice, Reason, Unfinished, Violation};
use crate::identity::{OverLimit, Throttled};
use crate::store::{MatchId, StoreError};

/// Why a match request failed.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A malformed request: every violation, with its field.
    #[error("invalid request")]
    Invalid(Vec<Violation>),
    /// No such match.
    #[error("match {0} does not exist")]
    NotFound(String),
    /// No token, or a token that is not one of the match's seats.
    #[error("{0}")]
    Unauthenticated(&'static str),
    /// A seat acting out of turn.
    #[error("{0}")]
    PermissionDenied(String),
    /// `expected_version` is stale.
    #[error("the match is at version {current}, not {expected}")]
    VersionMismatch {
        /// What the client expected.
        expected: u64,
        /// What the match is at.
        current: u64,
    },
    /// The rules refuse the move (or the match is over: reason `MatchOver`).
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
    /// A `NextGame` that chooses for another seat (the Ba-awa surplus player's pits, a Bosh player's holes).
    #[error("{0}")]
    NotYourChoice(NotYourChoice),
    /// The clocks (or the seats' presence) refuse the request: a sowing after its seat's flag fell
    /// (`OUT_OF_TIME`), an abort once each seat has sown (`ABORT_TOO_LATE`), a claim the server cannot grant
    /// (`NOT_ABANDONED`).
    #[error("{message}")]
    Timing {
        /// The machine-readable reason.
        reason: &'static str,
        /// What happened, in a sentence.
        message: String,
        /// Moments the client can act on (`flag_at_ms`, `claimable_at_ms`), ms since the epoch.
        metadata: Vec<(&'static str, u64)>,
    },
    /// An offer, acceptance, refusal or withdrawal of an end by agreement that the match does not take now (§1).
    #[error("{0}")]
    Agreement(AgreementRefusal),
    /// `from_seq` is past the end of the log.
    #[error("from_seq {from_seq} is beyond the match's version {version}")]
    OutOfRange {
        /// What the client asked for.
        from_seq: u64,
        /// The match's version.
        version: u64,
    },
    /// A watcher limit was reached, or the tenant's limit of unfinished matches.
    #[error("{0}")]
    ResourceExhausted(String),
    /// The match's tenant is over its calls per second (a bare seat token's call), or the caller's address over its
    /// bucket (a seat token that opens no match).
    #[error("over a rate of calls; retry in {} ms", .0.retry_after.as_millis())]
    Throttled(Throttled),
    /// The caller is over its share of the tenant's matches or streams (its player's, or its address's).
    #[error(transparent)]
    OverLimit(OverLimit),
    /// The move's engine work stopped before it was decided (its budget spent, or the server stopping).
    #[error(transparent)]
    Unfinished(#[from] Unfinished),
    /// The store or the server failed; logged where it happened, with the details.
    #[error("{0}")]
    Internal(String),
    /// The store took a write but could not make it as durable as it is configured to before acknowledging it
    /// (Redis's replicas not reached in time): retrying with the same `request_id` is safe.
    #[error("{0}")]
    Unavailable(String),
}

impl MatchError {
    /// The machine-readable code: the rules' reason of an illegal move (`PIT_EMPTY`),
    /// `VERSION_MISMATCH` for a stale version, `NOT_YOUR_TURN` for a seat out of turn, otherwise
    /// the name of the kind of failure (`NOT_FOUND`, `UNAUTHENTICATED` …). The `reason` of
    /// `mancala_move_rejections_total`, and the `ErrorInfo` reason where the status carries one.
    pub fn code(&self) -> &'static str {
        match self {
            MatchError::Invalid(_) => "INVALID_ARGUMENT",
            MatchError::NotFound(_) => "NOT_FOUND",
            MatchError::Unauthenticated(_) => "UNAUTHENTICATED",
            MatchError::PermissionDenied(_) => "NOT_YOUR_TURN",
            MatchError::VersionMismatch { .. } => "VERSION_MISMATCH",
            MatchError::Illegal(illegal) => illegal.reason.code(),
            MatchError::NotYourChoice(_) => "NOT_YOUR_CHOICE",
            MatchError::Timing { reason, .. } => reason,
            MatchError::Agreement(refusal) => refusal.code(),
            MatchError::OutOfRange { .. } => "OUT_OF_RANGE",
            MatchError::ResourceExhausted(_) => "RESOURCE_EXHAUSTED",
            MatchError::Throttled(_) => "RATE_LIMITED",
            MatchError::OverLimit(_) => "CALLER_LIMIT",
            MatchError::Unfinished(Unfinished::Exhausted { .. }) => "WORK_BUDGET_EXHAUSTED",
            MatchError::Unfinished(Unfinished::Cancelled) => "CANCELLED",
            MatchError::Internal(_) => "INTERNAL",
            MatchError::Unavailable(_) => "UNAVAILABLE",
        }
    }

    pub(super) fn invalid(field: &str, description: impl Into<String>) -> MatchError {
        MatchError::Invalid(vec![Violation {
            field: field.to_string(),
            description: description.into(),
        }])
    }

    pub(super) fn match_over() -> MatchError {
        MatchError::Illegal(IllegalMove::new(
            Reason::MatchOver,
            "the match is over; nothing more can be played",
        ))
    }
}

/// Logs a failure of the store (or the OS) with its details, and gives the client a short one.
pub(super) fn store_failed(
    what: &str,
    id: Option<MatchId>,
    error: impl std::fmt::Display + std::any::Any,
) -> MatchError {
    tracing::error!(match_id = id.map(|id| id.to_string()), error = %error, "{what} failed");
    if let Some(StoreError::Unavailable(why)) = (&error as &dyn std::any::Any).downcast_ref() {
        return MatchError::Unavailable(format!("{what}: {why}"));
    }
    MatchError::Internal(format!("{what} failed; see the server log"))
}
