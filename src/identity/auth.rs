//! Who a call comes from: a credential told apart by its shape (a tenant's API key, a player token, a match's
//! seat token) and checked against the tenants held, with no I/O; the operator's key; and the player tokens
//! issued. Apart from `limits.rs` because a caller is named here before anything is charged to it.

use super::{keys, now_ms, tokens, AdminError, Identity, Tenant, TokenError};
use std::sync::Arc;
use std::time::Duration;

/// Who a call comes from. Its `Debug` never shows a seat token.
#[derive(Clone)]
pub enum Caller {
    /// No credential, on a server that does not require one: the anonymous tenant.
    Anonymous(Arc<Tenant>),
    /// A tenant's API key.
    Tenant {
        /// The tenant.
        tenant: Arc<Tenant>,
        /// The key's public id.
        key_id: String,
    },
    /// A player token: one of the tenant's players.
    Player {
        /// The tenant.
        tenant: Arc<Tenant>,
        /// The player id.
        player: String,
    },
    /// A match's seat token: whose match it opens is for the match to say.
    Seat(String),
}

impl Caller {
    /// The tenant, when the credential names one.
    pub fn tenant(&self) -> Option<&Arc<Tenant>> {
        match self {
            Caller::Anonymous(tenant) | Caller::Tenant { tenant, .. } => Some(tenant),
            Caller::Player { tenant, .. } => Some(tenant),
            Caller::Seat(_) => None,
        }
    }
}

impl std::fmt::Debug for Caller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Caller::Anonymous(_) => f.write_str("Anonymous"),
            Caller::Tenant { tenant, key_id } => write!(f, "Tenant({}, key {key_id})", tenant.id()),
            Caller::Player { tenant, player } => write!(f, "Player({}, {player:?})", tenant.id()),
            Caller::Seat(_) => f.write_str("Seat(..)"),
        }
    }
}

/// Why a credential was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// None sent where one is required.
    #[error(
        "this server requires a credential: send `authorization: Bearer <API key or player token>`"
    )]
    Missing,
    /// Not a credential this server accepts.
    #[error("{0}")]
    Refused(&'static str),
    /// A credential of a tenant the operator disabled.
    #[error("tenant {0:?} is disabled: its API keys and player tokens are refused until the operator enables it")]
    Disabled(String),
    /// An API key past its revocation (at once, or at the end of a rotation's overlap).
    #[error("the API key was revoked: ask the operator for the tenant's current key")]
    Revoked,
    /// A player token past its expiry.
    #[error("the player token has expired: ask the app's backend for a new one")]
    Expired,
    /// A key this replica does not know yet: read the store again ([`Identity::refresh`]), then ask again.
    #[error("unknown API key")]
    Unknown,
}

impl Identity {
    /// Who `credential` (the bearer of the `authorization` metadata, `None` without one) is. No I/O.
    pub fn authenticate(&self, credential: Option<&str>) -> Result<Caller, AuthError> {
        let Some(credential) = credential else {
            return if self.inner.required {
                Err(AuthError::Missing)
            } else {
                Ok(Caller::Anonymous(self.inner.anonymous.clone()))
            };
        };
        if keys::looks_like_key(credential) {
            let hash = keys::hash(credential);
            let registry = self.registry();
            let Some((tenant, key_id)) = registry.keys.get(&hash) else {
                return Err(AuthError::Unknown);
            };
            if tenant.record.disabled {
                return Err(AuthError::Disabled(tenant.id().to_string()));
            }
            if !key_in_force(tenant, key_id, now_ms()) {
                return Err(AuthError::Revoked);
            }
            return Ok(Caller::Tenant {
                tenant: tenant.clone(),
                key_id: key_id.clone(),
            });
        }
        if keys::looks_like_seat_token(credential) {
            return Ok(Caller::Seat(credential.to_string()));
        }
        if tokens::looks_like_token(credential) {
            let claims = self.inner.signer.check(credential).map_err(|e| match e {
                TokenError::Expired => AuthError::Expired,
                TokenError::Invalid => AuthError::Refused("the player token is not valid"),
            })?;
            let tenant = self
                .registry()
                .tenants
                .get(&claims.tenant)
                .cloned()
                .ok_or(AuthError::Refused("the player token's tenant is unknown"))?;
            if tenant.record.disabled {
                return Err(AuthError::Disabled(tenant.id().to_string()));
            }
            // Revoking a key revokes the tokens issued to it; a rotation's overlap keeps both in force until its end.
            if !key_in_force(&tenant, &claims.key_id, now_ms()) {
                return Err(AuthError::Refused(
                    "the API key that issued this player token was revoked",
                ));
            }
            return Ok(Caller::Player {
                tenant,
                player: claims.player,
            });
        }
        Err(AuthError::Refused(
            "the credential is neither an API key (mk_…), a player token nor a seat token",
        ))
    }

    /// Whether `credential` is the operator's key (never, when none is configured).
    pub fn is_operator(&self, credential: Option<&str>) -> bool {
        match (self.inner.operator, credential) {
            (Some(hash), Some(credential)) => keys::same_hash(&hash, &keys::hash(credential)),
            _ => false,
        }
    }

    /// Whether an operator key is configured.
    pub fn has_operator(&self) -> bool {
        self.inner.operator.is_some()
    }
    /// A player token for `player` of `tenant`, valid for `ttl` (capped by `auth.player_token_max_ttl_ms`;
    /// `None`: one hour, or the cap if shorter), and when it expires (seconds since the epoch).
    pub fn issue_token(
        &self,
        tenant: &Tenant,
        key_id: &str,
        player: &str,
        ttl: Option<Duration>,
    ) -> Result<(String, u64), AdminError> {
        if let Some(problem) = tokens::player_id_problem(player) {
            return Err(AdminError::Invalid {
                field: "player_id",
                description: problem,
            });
        }
        let ttl = ttl
            .unwrap_or(Duration::from_secs(3600))
            .min(self.inner.max_ttl)
            .as_secs()
            .max(1);
        let now = now_ms() / 1000;
        let token = self
            .inner
            .signer
            .issue(tenant.id(), key_id, player, now, ttl);
        Ok((token, now + ttl))
    }
}

/// Whether `tenant`'s key `key_id` is in force at `now_ms`: not revoked, or revoked from a later moment (a
/// rotation's overlap, `Identity::create_key`).
fn key_in_force(tenant: &Tenant, key_id: &str, now_ms: u64) -> bool {
    tenant
        .record
        .keys
        .iter()
        .any(|k| k.id == key_id && k.revoked_ms.is_none_or(|at| now_ms < at))
}
