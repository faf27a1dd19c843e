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
//!
//! This file holds the [`Identity`] and what it is built from; its work is in modules, one job each: `registry`
//! (the tenants held in memory, read again from the store), `auth` (who a credential names, and the player
//! tokens issued), `limits` (the buckets and shares a call is charged to), `admin` (the operator's changes to
//! tenants and keys); beside them [`callers`] (each player's and address's share), [`keys`] and [`tokens`].

mod admin;
mod auth;
pub mod callers;
pub mod keys;
mod limits;
mod registry;
#[cfg(test)]
mod tests;
pub mod tokens;

pub use admin::{tenant_id_problem, AdminError};
pub use auth::{AuthError, Caller};
pub use callers::{Address, Party};
pub use limits::{OverLimit, Throttled};
pub use registry::resolve;
pub use tokens::{PlayerClaims, TokenError, TokenSigner};

use crate::config::{AddressLimits, AuthSettings, TenantLimits};
use crate::store::{StoreError, TenantRecord, TenantStore};
use crate::sync::Counts;
use callers::{BackoffPolicy, Buckets, Created, Guessing};
use limits::Bucket;
use registry::{pseudo_tenant, Registry};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

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

use crate::clock::now_ms;

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
}
