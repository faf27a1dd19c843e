//! What each tenant may use, and each caller's share of it: the tenants' token buckets, the players' and
//! addresses' buckets, streams and unfinished matches, and the refusals (RESOURCE_EXHAUSTED) when one is spent.
//! Apart from `auth.rs` because a call is charged only once it is known whose it is.

use super::callers::{Created, Guessing, Rate};
use super::{Address, Caller, Identity, Party, Tenant, ANONYMOUS};
use crate::config::TenantLimits;
use crate::sync::Held;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

/// A tenant's token bucket, with the limits it was made for.
pub(super) struct Bucket {
    rate: u32,
    burst: u32,
    limiter: Option<DefaultDirectRateLimiter>,
}

impl std::fmt::Debug for Bucket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bucket")
            .field("rate", &self.rate)
            .field("burst", &self.burst)
            .finish()
    }
}

impl Bucket {
    pub(super) fn new(limits: &TenantLimits) -> Bucket {
        let limiter = NonZeroU32::new(limits.calls_per_second).map(|rate| {
            let burst = NonZeroU32::new(limits.burst.max(1)).expect("at least 1");
            RateLimiter::direct(Quota::per_second(rate).allow_burst(burst))
        });
        Bucket {
            rate: limits.calls_per_second,
            burst: limits.burst,
            limiter,
        }
    }
}

/// A call over its tenant's rate, or its player's or address's share of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Throttled {
    /// The tenant.
    pub tenant: String,
    /// Whose bucket it was, for the quota details: `tenant:<id>`, `player:<id>` or `address:<address>`.
    pub subject: String,
    /// The settings of that bucket, as an operator writes them (`limits.calls_per_second, limits.burst`).
    pub settings: &'static str,
    /// `tenant`, `player` or `address`: the `limit` label of the refusals' metric.
    pub kind: &'static str,
    /// When a call would be accepted again.
    pub retry_after: Duration,
    /// The tenant's calls per second.
    pub calls_per_second: u32,
    /// The tenant's burst.
    pub burst: u32,
}

/// A caller over its share of a tenant's matches or streams ([`callers`](super::callers)): RESOURCE_EXHAUSTED.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct OverLimit {
    /// The limit, the `limit` label of the refusals' metric (`max_active_matches_per_player` …).
    pub limit: &'static str,
    /// Its setting, as an operator writes it (`limits.max_active_matches_per_player`).
    pub setting: &'static str,
    /// Whose share it is: `player:<id>` or `address:<address>`.
    pub subject: String,
    /// What a person reads.
    pub message: String,
}

impl Identity {
    /// Takes one call from `tenant`'s bucket.
    pub fn charge(&self, tenant: &Tenant) -> Result<(), Throttled> {
        let Some(limiter) = &tenant.bucket.limiter else {
            return Ok(());
        };
        limiter.check().map_err(|not_until| Throttled {
            tenant: tenant.record.id.clone(),
            subject: format!(
                "tenant:{}",
                if tenant.id().is_empty() {
                    "anonymous"
                } else {
                    tenant.id()
                }
            ),
            settings: "limits.calls_per_second, limits.burst",
            kind: "tenant",
            retry_after: not_until.wait_time_from(DefaultClock::default().now()),
            calls_per_second: tenant.bucket.rate,
            burst: tenant.bucket.burst,
        })
    }

    /// Whose share of `caller`'s tenant a call from `address` spends: its player, or for the anonymous tenant its
    /// address. `None` for API keys (the tenant's backend, held to the tenant's limits alone) and seat tokens (whose
    /// match says whose they are).
    pub fn party(&self, caller: &Caller, address: Option<Address>) -> Option<Party> {
        match caller {
            Caller::Player { tenant, player } => Some(Party::Player {
                tenant: tenant.id().to_string(),
                player: player.clone(),
            }),
            Caller::Anonymous(_) => address.map(Party::Address),
            Caller::Tenant { .. } | Caller::Seat(_) => None,
        }
    }

    /// The rate of `party`'s bucket in `tenant`, and its settings.
    fn party_rate(&self, party: &Party, tenant: &Tenant) -> (Rate, &'static str) {
        match party {
            Party::Player { .. } => (
                Rate {
                    per_second: tenant.limits.calls_per_second_per_player,
                    burst: tenant.limits.burst_per_player,
                },
                "limits.calls_per_second_per_player, limits.burst_per_player",
            ),
            Party::Address(_) => self.address_rate(),
        }
    }

    fn address_rate(&self) -> (Rate, &'static str) {
        let limits = &self.inner.addresses;
        (
            Rate {
                per_second: limits.calls_per_second,
                burst: limits.burst,
            },
            "addresses.calls_per_second, addresses.burst",
        )
    }

    /// Takes one call from `party`'s bucket in `tenant`: its share of the tenant's rate, charged before the
    /// tenant's so that a caller over his share cannot drain the tenant's bucket for the others.
    pub fn charge_party(&self, party: &Party, tenant: &Tenant) -> Result<(), Throttled> {
        let (rate, settings) = self.party_rate(party, tenant);
        self.inner
            .buckets
            .charge(party, rate, Instant::now())
            .map_err(|retry_after| throttled(party, tenant.id(), rate, settings, retry_after))
    }

    /// A call from `address` with a seat token that opened no match: charged to the address, whose bucket alone
    /// made-up tokens empty.
    pub fn charge_unknown_seat_token(&self, address: Address) -> Result<(), Throttled> {
        let (rate, settings) = self.address_rate();
        let party = Party::Address(address);
        self.inner
            .buckets
            .charge(&party, rate, Instant::now())
            .map_err(|retry_after| throttled(&party, ANONYMOUS, rate, settings, retry_after))
    }

    /// Whether `address` has spent its bucket (on made-up seat tokens or anonymous calls): its seat-token calls are
    /// then refused before any store read. Takes nothing: a known seat token is charged to its match's tenant.
    pub fn seat_tokens_refused(&self, address: Address) -> Result<(), Throttled> {
        let (rate, settings) = self.address_rate();
        let party = Party::Address(address);
        match self.inner.buckets.empty_for(&party, rate, Instant::now()) {
            None => Ok(()),
            Some(retry_after) => Err(throttled(&party, ANONYMOUS, rate, settings, retry_after)),
        }
    }

    /// One more spectator (or feed) stream for `party` in `tenant`, given back when the guard drops.
    pub fn open_stream(&self, party: &Party, tenant: &Tenant) -> Result<Held<Party>, OverLimit> {
        let (max, limit, setting) = match party {
            Party::Player { .. } => (
                tenant.limits.max_watchers_per_player as usize,
                "max_watchers_per_player",
                "limits.max_watchers_per_player",
            ),
            Party::Address(_) => (
                self.inner.addresses.max_watchers as usize,
                "max_watchers_per_address",
                "addresses.max_watchers",
            ),
        };
        self.inner.streams.take(party, max).map_err(|open| OverLimit {
            limit,
            setting,
            subject: subject(party),
            message: format!(
                "{} already has {open} streams open on this server, its share ({setting}); close one first",
                whom(party)
            ),
        })
    }

    /// The most unfinished matches `party` may have created in `tenant` (`None`: no limit).
    pub fn max_created(&self, party: &Party, tenant: &Tenant) -> Option<u64> {
        let max = match party {
            Party::Player { .. } => tenant.limits.max_active_matches_per_player,
            Party::Address(_) => self.inner.addresses.max_active_matches,
        };
        (max > 0).then_some(max)
    }

    /// The refusal of one more match for `party`, which has `active` unfinished.
    pub fn too_many_created(&self, party: &Party, active: usize) -> OverLimit {
        let (limit, setting) = match party {
            Party::Player { .. } => (
                "max_active_matches_per_player",
                "limits.max_active_matches_per_player",
            ),
            Party::Address(_) => (
                "max_active_matches_per_address",
                "addresses.max_active_matches",
            ),
        };
        OverLimit {
            limit,
            setting,
            subject: subject(party),
            message: format!(
                "{} has {active} unfinished matches, its share of the tenant's ({setting}); finish or resign some first",
                whom(party)
            ),
        }
    }

    /// The unfinished matches each party created on this replica.
    pub fn created(&self) -> &Created {
        &self.inner.created
    }

    /// UNAUTHENTICATED answers by address, and their backoffs.
    pub fn guessing(&self) -> &Guessing {
        &self.inner.guessing
    }
}

/// `party` in quota details: `player:<id>` or `address:<address>`.
fn subject(party: &Party) -> String {
    match party {
        Party::Player { player, .. } => format!("player:{player}"),
        Party::Address(address) => format!("address:{address}"),
    }
}

/// `party` in a message.
fn whom(party: &Party) -> String {
    match party {
        Party::Player { player, .. } => format!("player {player:?}"),
        Party::Address(address) => format!("address {address}"),
    }
}

fn throttled(
    party: &Party,
    tenant: &str,
    rate: Rate,
    settings: &'static str,
    retry_after: Duration,
) -> Throttled {
    Throttled {
        tenant: tenant.to_string(),
        subject: subject(party),
        settings,
        kind: party.kind(),
        retry_after,
        calls_per_second: rate.per_second,
        burst: rate.burst,
    }
}
