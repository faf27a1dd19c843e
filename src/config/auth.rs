//! `[auth]`, `[limits]` and `[addresses]`: who may call, and what one tenant, player or client address may use.

use std::time::Duration;

use serde::Deserialize;

use super::de::millis;

/// `[auth]`: who is calling. See docs/guide/tenants.md.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthSettings {
    /// Every call but health and reflection must carry a tenant's API key, a player token or a seat
    /// token (`authorization: Bearer …`). `false` (the local default): a call without one is the
    /// anonymous tenant's, which sees only the matches created without a key.
    pub required: bool,
    /// SHA-256 (64 hex digits) of the operator's key, which the `Admin` service (tenants and their
    /// keys) requires; empty: the Admin service refuses every call. `mancala operator-key` makes one.
    pub operator_key_sha256: String,
    /// The secret that signs player tokens (at least 32 bytes); empty: one is generated once and kept
    /// in the match store, so every replica over the same store shares it.
    pub player_token_secret: String,
    /// The longest life a player token may be given.
    #[serde(rename = "player_token_max_ttl_ms", deserialize_with = "millis")]
    pub player_token_max_ttl: Duration,
    /// UNAUTHENTICATED answers one client address may get within `failure_window_ms` before it is backed off:
    /// its calls with a credential the server has not seen it use successfully are then refused unchecked
    /// (RESOURCE_EXHAUSTED with a retry delay), so that guessing keys, tokens or seat tokens is slowed. `0`: never.
    pub failures_before_backoff: u32,
    /// The window in which those failures are counted.
    #[serde(rename = "failure_window_ms", deserialize_with = "millis")]
    pub failure_window: Duration,
    /// The first backoff; each failure past the threshold in the same episode doubles it.
    #[serde(rename = "backoff_initial_ms", deserialize_with = "millis")]
    pub backoff_initial: Duration,
    /// The longest backoff.
    #[serde(rename = "backoff_max_ms", deserialize_with = "millis")]
    pub backoff_max: Duration,
}

impl AuthSettings {
    /// The operator key's hash, decoded (validated at load).
    pub fn operator_key_hash(&self) -> Option<[u8; 32]> {
        parse_sha256(&self.operator_key_sha256)
    }
}

/// 64 hex digits as 32 bytes.
fn parse_sha256(hex: &str) -> Option<[u8; 32]> {
    let hex = hex.trim().as_bytes();
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (byte, pair) in out.iter_mut().zip(hex.chunks(2)) {
        let digit = |b: u8| (b as char).to_digit(16);
        *byte = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
    }
    Some(out)
}

/// What one tenant may use (`[limits]` for every tenant; the operator may set a tenant's own). `0`
/// means no limit. Calls are counted per replica; active matches in the shared store, across replicas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TenantLimits {
    /// Calls per second, sustained (a token bucket refilled at this rate).
    pub calls_per_second: u32,
    /// Calls that may come at once after a quiet spell (the bucket's size; at least `calls_per_second`
    /// is sensible).
    pub burst: u32,
    /// Unfinished server-held matches at once.
    pub max_active_matches: u64,
    /// `WatchMatch` streams open at once on one replica.
    pub max_watchers: u32,
    /// Calls per second of one player (a player token's player id), sustained, inside the tenant's own rate:
    /// one player cannot spend the whole tenant's. API-key callers (the tenant's backend, acting for all its
    /// players) are held to the tenant's rate alone.
    pub calls_per_second_per_player: u32,
    /// The burst of one player's bucket.
    pub burst_per_player: u32,
    /// Unfinished matches one player may have created at once (`CreateMatch` with a player token), on one
    /// replica.
    pub max_active_matches_per_player: u64,
    /// Spectators' `WatchMatch` streams one player may hold open at once on one replica.
    pub max_watchers_per_player: u32,
}

/// `[addresses]`: the share of one client address (an IPv4 address, or an IPv6 /64) in the anonymous tenant,
/// which has no player ids to tell its callers apart, and the bucket that calls with a seat token no match
/// knows are charged to. `0` means no limit. Counted on each replica. Behind a proxy or load balancer the
/// address is the proxy's (docs/guide/caller-limits.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddressLimits {
    /// Calls per second of one address without a credential, sustained; also what one address may spend on
    /// seat tokens that open no match.
    pub calls_per_second: u32,
    /// The burst of one address's bucket.
    pub burst: u32,
    /// Unfinished matches one address may have created at once without a credential.
    pub max_active_matches: u64,
    /// Spectators' `WatchMatch` streams (and `WatchTenantFeed` streams) one address may hold open at once
    /// without a credential.
    pub max_watchers: u32,
    /// Addresses (and players) each table of buckets and counts holds at most, so that cycling through
    /// addresses or player ids cannot grow the server's memory without bound. Past it, idle entries are dropped
    /// first; the callers that find no room left share one overflow entry. At least 1.
    pub max_tracked: usize,
}
