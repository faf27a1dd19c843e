//! Who is calling: tenants (the operator's customers) and their API keys, the players a tenant vouches for
//! (player tokens), the operator, and what each tenant may use (its limits).
//!
//! Every tenant is held in memory, with a map from key hash to tenant, so that checking a call's key is one
//! SHA-256 and one lookup, with no I/O. The store is the truth: every change is written there first (its
//! revision checked), then the whole set is read again. Over a shared store the other replicas hear of each
//! change on the store's channel and read again too (milliseconds); a key the map does not know is looked up
//! again in the store, at most [`REFRESH_EVERY`] apart, in case it was made on another replica a moment ago.
//!
//! A credential arrives as `authorization: Bearer <credential>` and is told apart by its shape: a tenant key
//! (`mk_…`, [`keys`]), a player token (a JWT, [`tokens`]) or a match's seat token (64 hex digits, checked by
//! the match itself).

pub mod callers;
pub mod keys;
pub mod tokens;

use crate::config::{AddressLimits, AuthSettings, TenantLimits};
use crate::store::{Following, KeyRecord, LimitOverrides, StoreError, TenantRecord, TenantStore};
pub use callers::{Address, Party};
use callers::{BackoffPolicy, Buckets, Counts, Created, Guessing, Held, Rate};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
pub use tokens::{PlayerClaims, TokenError, TokenSigner};

/// The shortest time between two reads of every tenant prompted by an unknown key.
pub const REFRESH_EVERY: Duration = Duration::from_millis(200);

/// The id of the tenant that calls without a credential when auth is not required.
pub const ANONYMOUS: &str = "";

/// One tenant as the server holds it: its record, its limits resolved, its bucket and its open streams.
#[derive(Debug)]
pub struct Tenant {
    /// The stored record.
    pub record: TenantRecord,
    /// Its limits: its own where set, else the server's.
    pub limits: TenantLimits,
    bucket: Arc<Bucket>,
    /// `WatchMatch` streams of its matches open on this replica.
    pub watchers: Arc<AtomicUsize>,
}

impl Tenant {
    /// The tenant id (`""` for the anonymous one).
    pub fn id(&self) -> &str {
        &self.record.id
    }
}

/// A tenant's token bucket, with the limits it was made for.
struct Bucket {
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
    fn new(limits: &TenantLimits) -> Bucket {
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
    /// Not a credential this server knows (or a revoked key).
    #[error("{0}")]
    Refused(&'static str),
    /// A player token past its expiry.
    #[error("the player token has expired: ask the app's backend for a new one")]
    Expired,
    /// A key this replica does not know yet: read the store again ([`Identity::refresh`]), then ask again.
    #[error("unknown API key")]
    Unknown,
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

/// A caller over its share of a tenant's matches or streams ([`callers`]): RESOURCE_EXHAUSTED.
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

/// Why an operator's change could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// A field of the request is wrong.
    #[error("{field}: {description}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// What is wrong.
        description: String,
    },
    /// No such tenant (or key).
    #[error("{0}")]
    NotFound(String),
    /// A tenant of that id exists.
    #[error("tenant {0:?} exists already")]
    Exists(String),
    /// The store failed, or another change won the race too often.
    #[error("{0}")]
    Store(#[from] StoreError),
}

/// Who may call, and what each tenant may use. Cheap to clone.
#[derive(Clone)]
pub struct Identity {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Identity")
            .field("required", &self.inner.required)
            .finish_non_exhaustive()
    }
}

struct Inner {
    store: Arc<dyn TenantStore>,
    required: bool,
    operator: Option<[u8; 32]>,
    defaults: TenantLimits,
    signer: TokenSigner,
    max_ttl: Duration,
    registry: RwLock<Registry>,
    /// Held across a reload's read and swap (an await), so that an older read never replaces a newer one.
    reloading: tokio::sync::Mutex<()>,
    anonymous: Arc<Tenant>,
    last_refresh: Mutex<Option<Instant>>,
    /// Each address's share of the anonymous tenant, and its bucket for seat tokens no match knows.
    addresses: AddressLimits,
    /// Calls per second of each player and address.
    buckets: Buckets<Party>,
    /// Spectator and feed streams of each player and address.
    streams: Counts<Party>,
    /// Unfinished matches of each player and address.
    created: Created,
    /// UNAUTHENTICATED answers by address, and their backoffs.
    guessing: Guessing,
}

#[derive(Default)]
struct Registry {
    tenants: HashMap<String, Arc<Tenant>>,
    /// Key hash → the tenant and the key's id.
    keys: HashMap<[u8; 32], (Arc<Tenant>, String)>,
}

/// Tenant ids that stand for something else in logs, metrics and quota details.
const RESERVED_IDS: [&str; 4] = ["anonymous", "operator", "unknown", "seat-tokens"];

/// A stand-in tenant (the anonymous one, the seat tokens' bucket) with `limits`.
fn pseudo_tenant(id: &str, name: &str, limits: TenantLimits) -> Arc<Tenant> {
    Arc::new(Tenant {
        record: TenantRecord {
            id: id.into(),
            name: name.into(),
            created_ms: 0,
            disabled: false,
            keys: Vec::new(),
            limits: LimitOverrides::default(),
            revision: 0,
        },
        limits,
        bucket: Arc::new(Bucket::new(&limits)),
        watchers: Arc::default(),
    })
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// `overrides` over `defaults`.
pub fn resolve(defaults: &TenantLimits, overrides: &LimitOverrides) -> TenantLimits {
    TenantLimits {
        calls_per_second: overrides
            .calls_per_second
            .unwrap_or(defaults.calls_per_second),
        burst: overrides.burst.unwrap_or(defaults.burst),
        max_active_matches: overrides
            .max_active_matches
            .unwrap_or(defaults.max_active_matches),
        max_watchers: overrides.max_watchers.unwrap_or(defaults.max_watchers),
        calls_per_second_per_player: overrides
            .calls_per_second_per_player
            .unwrap_or(defaults.calls_per_second_per_player),
        burst_per_player: overrides
            .burst_per_player
            .unwrap_or(defaults.burst_per_player),
        max_active_matches_per_player: overrides
            .max_active_matches_per_player
            .unwrap_or(defaults.max_active_matches_per_player),
        max_watchers_per_player: overrides
            .max_watchers_per_player
            .unwrap_or(defaults.max_watchers_per_player),
    }
}

/// A tenant id's problem, if it has one.
pub fn tenant_id_problem(id: &str) -> Option<&'static str> {
    let ok = (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !id.starts_with('-')
        && !RESERVED_IDS.contains(&id);
    (!ok).then_some("1 to 32 of a-z, 0-9 and '-', not starting with '-' (and not anonymous, operator, unknown or seat-tokens)")
}

impl Identity {
    /// The tenants of `store`, read now, with `auth`'s settings and `defaults` for limits.
    pub async fn open(
        store: Arc<dyn TenantStore>,
        auth: &AuthSettings,
        defaults: TenantLimits,
    ) -> Result<Identity, StoreError> {
        let addresses = crate::config::Settings::default().addresses;
        Identity::open_with(store, auth, defaults, addresses).await
    }

    /// [`Identity::open`], with `addresses` for each client address's share (`[addresses]`).
    pub async fn open_with(
        store: Arc<dyn TenantStore>,
        auth: &AuthSettings,
        defaults: TenantLimits,
        addresses: AddressLimits,
    ) -> Result<Identity, StoreError> {
        let secret = if auth.player_token_secret.is_empty() {
            let fresh = keys::random_bytes::<32>()
                .map_err(|e| StoreError::Failed(format!("the OS random generator: {e}")))?;
            store.token_secret(fresh).await?.to_vec()
        } else {
            auth.player_token_secret.as_bytes().to_vec()
        };
        // A server without required auth is one party's own (a laptop, a load test): the anonymous tenant as a
        // whole is not held to a call rate. Its matches and streams are limited as any tenant's, and each client
        // address is held to its share (`[addresses]`), so that one caller cannot take them all.
        let unrated = TenantLimits {
            calls_per_second: 0,
            ..defaults
        };
        let anonymous = pseudo_tenant(ANONYMOUS, "anonymous", unrated);
        let identity = Identity {
            inner: Arc::new(Inner {
                store,
                required: auth.required,
                operator: auth.operator_key_hash(),
                defaults,
                signer: TokenSigner::new(&secret),
                max_ttl: auth.player_token_max_ttl,
                registry: RwLock::default(),
                reloading: tokio::sync::Mutex::new(()),
                anonymous,
                last_refresh: Mutex::new(None),
                addresses,
                buckets: Buckets::new(addresses.max_tracked),
                streams: Counts::default(),
                created: Created::default(),
                guessing: Guessing::new(
                    BackoffPolicy {
                        failures: auth.failures_before_backoff,
                        window: auth.failure_window,
                        initial: auth.backoff_initial,
                        max: auth.backoff_max,
                    },
                    addresses.max_tracked,
                ),
            }),
        };
        identity.reload().await?;
        Ok(identity)
    }

    /// Whether every call needs a credential.
    pub fn required(&self) -> bool {
        self.inner.required
    }

    fn registry(&self) -> std::sync::RwLockReadGuard<'_, Registry> {
        self.inner
            .registry
            .read()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads every tenant from the store again. Buckets and stream counts of tenants whose limits did not change
    /// carry over.
    pub async fn reload(&self) -> Result<(), StoreError> {
        let _one_at_a_time = self.inner.reloading.lock().await;
        let records = self.inner.store.tenants().await?;
        let mut next = Registry::default();
        {
            let current = self.registry();
            for record in records {
                let limits = resolve(&self.inner.defaults, &record.limits);
                let (bucket, watchers) = match current.tenants.get(&record.id) {
                    Some(old) if old.limits == limits => (old.bucket.clone(), old.watchers.clone()),
                    Some(old) => (Arc::new(Bucket::new(&limits)), old.watchers.clone()),
                    None => (Arc::new(Bucket::new(&limits)), Arc::default()),
                };
                let tenant = Arc::new(Tenant {
                    record,
                    limits,
                    bucket,
                    watchers,
                });
                if !tenant.record.disabled {
                    for key in tenant.record.keys.iter().filter(|k| k.revoked_ms.is_none()) {
                        next.keys.insert(key.hash, (tenant.clone(), key.id.clone()));
                    }
                }
                next.tenants.insert(tenant.record.id.clone(), tenant);
            }
        }
        *self
            .inner
            .registry
            .write()
            .unwrap_or_else(PoisonError::into_inner) = next;
        Ok(())
    }

    /// Whether [`Identity::refresh`] would read the store now (a cheap check, before leaving the worker).
    pub fn refresh_due(&self) -> bool {
        self.inner
            .last_refresh
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_none_or(|at| at.elapsed() >= REFRESH_EVERY)
    }

    /// Reads the tenants again every `period`, until the returned task is aborted: what a lost message of
    /// the store's channel (or a failed reload) leaves stale is stale for one period at most.
    pub fn spawn_reloads(&self, period: Duration) -> tokio::task::JoinHandle<()> {
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(period);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { break };
                let identity = Identity { inner };
                if let Err(error) = identity.reload().await {
                    tracing::warn!(error = %error, "cannot read the tenants again");
                }
            }
        })
    }

    /// After [`AuthError::Unknown`]: reads the store again unless that was done less than
    /// [`REFRESH_EVERY`] ago (so that a flood of made-up keys costs the store little).
    pub async fn refresh(&self) -> Result<bool, StoreError> {
        {
            let mut last = self
                .inner
                .last_refresh
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if last.is_some_and(|at| at.elapsed() < REFRESH_EVERY) {
                return Ok(false);
            }
            *last = Some(Instant::now());
        }
        self.reload().await?;
        Ok(true)
    }

    /// Over a shared store: reads the tenants again whenever any replica changes one, until the guard is
    /// dropped. `None` for a store of this server alone.
    pub fn follow_store(&self) -> Option<Following> {
        let stop = Arc::new(AtomicBool::new(false));
        let weak = Arc::downgrade(&self.inner);
        // The feed's thread waits for each reload (a read of the store, on this runtime).
        let runtime = tokio::runtime::Handle::current();
        let thread = self.inner.store.follow_tenants(
            Box::new(move || {
                if let Some(inner) = weak.upgrade() {
                    if let Err(error) = runtime.block_on((Identity { inner }).reload()) {
                        tracing::warn!(error = %error, "cannot read the tenants again");
                    }
                }
            }),
            stop.clone(),
        )?;
        Some(Following::new(stop, thread))
    }

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
            return match self.registry().keys.get(&hash) {
                Some((tenant, key_id)) => Ok(Caller::Tenant {
                    tenant: tenant.clone(),
                    key_id: key_id.clone(),
                }),
                None => Err(AuthError::Unknown),
            };
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
                .filter(|t| !t.record.disabled)
                .cloned()
                .ok_or(AuthError::Refused(
                    "the player token's tenant is disabled or unknown",
                ))?;
            // Revoking (or rotating) a key revokes the tokens issued to it.
            let key_valid = tenant
                .record
                .keys
                .iter()
                .any(|k| k.id == claims.key_id && k.revoked_ms.is_none());
            if !key_valid {
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

    /// The tenant `id` as held (the anonymous one for `""`); a tenant this replica does not know (yet)
    /// gets the server's limits.
    pub fn tenant(&self, id: &str) -> Arc<Tenant> {
        if id == ANONYMOUS {
            return self.inner.anonymous.clone();
        }
        if let Some(tenant) = self.registry().tenants.get(id) {
            return tenant.clone();
        }
        pseudo_tenant(id, "", self.inner.defaults)
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

    /// Every tenant, by id.
    pub fn tenants(&self) -> Vec<Arc<Tenant>> {
        let mut all: Vec<_> = self.registry().tenants.values().cloned().collect();
        all.sort_by(|a, b| a.record.id.cmp(&b.record.id));
        all
    }

    /// Creates tenant `id` with its first key. The key is in the answer only.
    pub async fn create_tenant(
        &self,
        id: &str,
        name: &str,
        limits: LimitOverrides,
    ) -> Result<(TenantRecord, keys::NewKey), AdminError> {
        if let Some(problem) = tenant_id_problem(id) {
            return Err(AdminError::Invalid {
                field: "tenant_id",
                description: problem.into(),
            });
        }
        let key = new_key()?;
        let record = TenantRecord {
            id: id.into(),
            name: name.into(),
            created_ms: now_ms(),
            disabled: false,
            keys: vec![key_record(&key)],
            limits,
            revision: 1,
        };
        match self.inner.store.put_tenant(&record).await {
            Ok(()) => {}
            Err(StoreError::Conflict { .. }) => return Err(AdminError::Exists(id.into())),
            Err(e) => return Err(e.into()),
        }
        self.reload().await?;
        tracing::info!(tenant = id, key_id = %key.id, "tenant created");
        Ok((record, key))
    }

    /// Changes tenant `id` with `change`, again if another replica changed it meanwhile.
    pub async fn update_tenant(
        &self,
        id: &str,
        mut change: impl FnMut(&mut TenantRecord) -> Result<(), AdminError>,
    ) -> Result<TenantRecord, AdminError> {
        for _ in 0..8 {
            let stored = self
                .inner
                .store
                .tenants()
                .await?
                .into_iter()
                .find(|t| t.id == id)
                .ok_or_else(|| AdminError::NotFound(format!("no tenant {id:?}")))?;
            let mut record = stored.clone();
            change(&mut record)?;
            record.revision = stored.revision + 1;
            match self.inner.store.put_tenant(&record).await {
                Ok(()) => {
                    self.reload().await?;
                    return Ok(record);
                }
                Err(StoreError::Conflict { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(AdminError::Store(StoreError::Failed(format!(
            "tenant {id:?} kept changing under this change; try again"
        ))))
    }

    /// A new key for tenant `id`; with `revoke_others`, every other key is revoked at once (a rotation).
    pub async fn create_key(
        &self,
        id: &str,
        revoke_others: bool,
    ) -> Result<(TenantRecord, keys::NewKey), AdminError> {
        let key = new_key()?;
        let at = now_ms();
        let record = self
            .update_tenant(id, |record| {
                if revoke_others {
                    for old in record.keys.iter_mut().filter(|k| k.revoked_ms.is_none()) {
                        old.revoked_ms = Some(at);
                    }
                }
                record.keys.push(key_record(&key));
                Ok(())
            })
            .await?;
        tracing::info!(tenant = id, key_id = %key.id, revoke_others, "API key created");
        Ok((record, key))
    }

    /// Revokes key `key_id` of tenant `id`: refused from now on by this replica, by the others as soon as
    /// they hear of it.
    pub async fn revoke_key(&self, id: &str, key_id: &str) -> Result<TenantRecord, AdminError> {
        let at = now_ms();
        let record = self
            .update_tenant(id, |record| {
                let key = record
                    .keys
                    .iter_mut()
                    .find(|k| k.id == key_id)
                    .ok_or_else(|| {
                        AdminError::NotFound(format!("tenant {id:?} has no key {key_id:?}"))
                    })?;
                key.revoked_ms.get_or_insert(at);
                Ok(())
            })
            .await?;
        tracing::info!(tenant = id, key_id, "API key revoked");
        Ok(record)
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

fn new_key() -> Result<keys::NewKey, AdminError> {
    keys::new_key()
        .map_err(|e| AdminError::Store(StoreError::Failed(format!("the OS random generator: {e}"))))
}

fn key_record(key: &keys::NewKey) -> KeyRecord {
    KeyRecord {
        id: key.id.clone(),
        hash: key.hash,
        created_ms: now_ms(),
        revoked_ms: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    async fn identity(required: bool) -> Identity {
        let mut auth = crate::config::Settings::default().auth;
        auth.required = required;
        let limits = TenantLimits {
            calls_per_second: 2,
            burst: 2,
            max_active_matches: 5,
            max_watchers: 5,
            ..crate::config::Settings::default().limits
        };
        Identity::open(Arc::new(MemoryStore::new()), &auth, limits)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_key_names_its_tenant_until_revoked() {
        let identity = identity(true).await;
        let (_, key) = identity
            .create_tenant("acme", "Acme", LimitOverrides::default())
            .await
            .unwrap();
        let caller = identity.authenticate(Some(&key.key)).unwrap();
        assert_eq!(caller.tenant().unwrap().id(), "acme");
        identity.revoke_key("acme", &key.id).await.unwrap();
        assert_eq!(
            identity.authenticate(Some(&key.key)).unwrap_err(),
            AuthError::Unknown
        );
        assert_eq!(identity.authenticate(None).unwrap_err(), AuthError::Missing);
    }

    #[tokio::test]
    async fn a_rotation_revokes_the_other_keys() {
        let identity = identity(true).await;
        let (_, first) = identity
            .create_tenant("acme", "Acme", LimitOverrides::default())
            .await
            .unwrap();
        let (record, second) = identity.create_key("acme", true).await.unwrap();
        assert_eq!(record.keys.len(), 2);
        assert!(identity.authenticate(Some(&first.key)).is_err());
        assert!(identity.authenticate(Some(&second.key)).is_ok());
        assert!(matches!(
            identity
                .create_tenant("acme", "Again", LimitOverrides::default())
                .await,
            Err(AdminError::Exists(_))
        ));
        assert!(matches!(
            identity
                .create_tenant("Acme!", "Bad", LimitOverrides::default())
                .await,
            Err(AdminError::Invalid {
                field: "tenant_id",
                ..
            })
        ));
    }

    #[tokio::test]
    async fn without_required_auth_no_credential_is_the_anonymous_tenant() {
        let identity = identity(false).await;
        let caller = identity.authenticate(None).unwrap();
        assert_eq!(caller.tenant().unwrap().id(), ANONYMOUS);
        assert!(matches!(
            identity.authenticate(Some("nonsense")),
            Err(AuthError::Refused(_))
        ));
    }

    #[tokio::test]
    async fn player_tokens_name_a_player_of_an_enabled_tenant() {
        let identity = identity(true).await;
        identity
            .create_tenant("acme", "Acme", LimitOverrides::default())
            .await
            .unwrap();
        let (_, key) = identity.create_key("acme", false).await.unwrap();
        let acme = identity.tenant("acme");
        let (token, _) = identity.issue_token(&acme, &key.id, "ann", None).unwrap();
        match identity.authenticate(Some(&token)).unwrap() {
            Caller::Player { tenant, player } => {
                assert_eq!((tenant.id(), player.as_str()), ("acme", "ann"))
            }
            other => panic!("{other:?}"),
        }
        identity.revoke_key("acme", &key.id).await.unwrap();
        assert!(
            matches!(
                identity.authenticate(Some(&token)),
                Err(AuthError::Refused(_))
            ),
            "a token dies with its key"
        );
        let (_, other) = identity.create_key("acme", false).await.unwrap();
        let (token, _) = identity.issue_token(&acme, &other.id, "ann", None).unwrap();
        identity
            .update_tenant("acme", |t| {
                t.disabled = true;
                Ok(())
            })
            .await
            .unwrap();
        assert!(matches!(
            identity.authenticate(Some(&token)),
            Err(AuthError::Refused(_))
        ));
    }

    #[tokio::test]
    async fn the_bucket_refuses_past_the_burst_and_says_when_to_retry() {
        let identity = identity(true).await;
        identity
            .create_tenant("acme", "Acme", LimitOverrides::default())
            .await
            .unwrap();
        let tenant = identity.tenant("acme");
        assert!(identity.charge(&tenant).is_ok());
        assert!(identity.charge(&tenant).is_ok());
        let throttled = identity.charge(&tenant).unwrap_err();
        assert!(throttled.retry_after > Duration::ZERO);
        assert!(throttled.retry_after <= Duration::from_millis(500));
        assert_eq!((throttled.calls_per_second, throttled.burst), (2, 2));
        // The anonymous tenant of a server without required auth is not held to a rate.
        let open = self::identity(false).await;
        let anonymous = open.tenant(ANONYMOUS);
        assert!((0..10).all(|_| open.charge(&anonymous).is_ok()));
    }
}
