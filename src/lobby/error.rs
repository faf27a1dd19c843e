//! Why the lobby refused.

use crate::engine::Violation;
use crate::matches::MatchError;

/// A refusal of the lobby; `crate::api::error::lobby_error` makes it a gRPC status.
#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    /// A malformed request.
    #[error("invalid request")]
    Invalid(Vec<Violation>),
    /// No such challenge, seek or match in the tenant (`what` names it).
    #[error("{0}")]
    NotFound(String),
    /// The caller may not do this.
    #[error("{0}")]
    PermissionDenied(String),
    /// The challenge or seek is no longer pending or open.
    #[error("{message}")]
    Closed {
        /// "CHALLENGE_CLOSED" or "SEEK_CLOSED".
        reason: &'static str,
        /// Its status, as the proto spells it.
        status: &'static str,
        /// The sentence.
        message: String,
    },
    /// No rematch of that match.
    #[error("{0}")]
    NoRematch(String),
    /// `after_event_id` beyond the log.
    #[error("{0}")]
    OutOfRange(String),
    /// A limit of the player or the tenant.
    #[error("{0}")]
    ResourceExhausted(String),
    /// Creating or reading a match failed.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// The store failed.
    #[error("{0}")]
    Internal(String),
}

impl LobbyError {
    /// INVALID_ARGUMENT for one field.
    pub fn invalid(field: &str, description: impl Into<String>) -> LobbyError {
        LobbyError::Invalid(vec![Violation {
            field: field.to_string(),
            description: description.into(),
        }])
    }
}

/// The store failed while the lobby was `doing` something: logged here with the cause, answered INTERNAL.
pub(super) fn store_failed(doing: &str, error: impl std::fmt::Display) -> LobbyError {
    tracing::error!(error = %error, "lobby store failed {doing}");
    LobbyError::Internal(format!("the lobby's store failed {doing}"))
}
