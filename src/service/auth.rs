//! Who is calling, in front of every service: the `authorization` metadata read, the credential checked
//! ([`crate::identity`]), the caller's share (its player's or address's bucket) and then the tenant charged one
//! call, and the [`Caller`] left in the request's extensions for the handler, with the client's [`Address`] and the
//! caller's [`Party`] when it has them. Health and reflection are not behind it (probes and tools need no
//! credential).
//!
//! A bare seat token is charged nothing here: its match, once read, says whose it is. A known one is charged to
//! its match's tenant, a made-up one to the caller's address (`crate::matches`); an address that has spent its
//! bucket is refused here, before any store read.
//!
//! A tonic interceptor, not a tower layer: it runs inside the call's span (so it can name the tenant there)
//! and after the server's own layers, and it has the request's metadata as tonic parses it.

use crate::api::error;
use crate::identity::{Address, AuthError, Caller, Identity, Party};
use crate::metrics::Metrics;
use crate::pool::Owner;
use tonic::metadata::MetadataMap;
use tonic::service::Interceptor;
use tonic::{Request, Status};

/// The metadata key of every credential, as `Bearer <credential>`.
pub const AUTHORIZATION: &str = "authorization";

/// What a service asks of its callers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// A tenant: an API key or a player token (or nothing, where auth is not required: the anonymous tenant).
    /// A bare seat token is refused where auth is required, and is the anonymous tenant's elsewhere.
    Tenant,
    /// Any credential, seat tokens included (the Matches service: a seat token opens its match).
    AnyCredential,
    /// The operator's key (the Admin service).
    Operator,
}

/// The interceptor. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Authenticate {
    identity: Identity,
    metrics: Metrics,
    needs: Needs,
}

impl Authenticate {
    /// An interceptor asking `needs` of every call.
    pub fn new(identity: Identity, metrics: Metrics, needs: Needs) -> Authenticate {
        Authenticate {
            identity,
            metrics,
            needs,
        }
    }

    fn admit(
        &self,
        metadata: &MetadataMap,
        address: Option<Address>,
    ) -> Result<Option<(Caller, Option<Party>)>, Status> {
        let credential = bearer(metadata)?;
        if self.needs == Needs::Operator {
            return if self.identity.is_operator(credential) {
                self.record("operator", "admitted");
                Ok(None)
            } else {
                self.record("unknown", "unauthenticated");
                Err(Status::unauthenticated(if self.identity.has_operator() {
                    "the Admin service needs the operator key: `authorization: Bearer <operator key>`"
                } else {
                    "the Admin service is off: no operator key is configured (auth.operator_key_sha256)"
                }))
            };
        }
        let caller = match self.identity.authenticate(credential) {
            // Perhaps made (or enabled) on another replica a moment ago: read the tenants again (at most every
            // 200 ms).
            Err(AuthError::Unknown | AuthError::Disabled(_))
                if self.identity.refresh_due() && self.refreshed() =>
            {
                self.identity.authenticate(credential)
            }
            other => other,
        };
        let caller = match caller {
            Ok(Caller::Seat(_)) if self.needs == Needs::Tenant => {
                if self.identity.required() {
                    Err(AuthError::Refused(
                        "this service needs an API key or a player token, not a seat token",
                    ))
                } else {
                    self.identity.authenticate(None)
                }
            }
            other => other,
        };
        let caller = caller.map_err(|e| {
            self.record("unknown", "unauthenticated");
            error::unauthenticated(&e)
        })?;
        let Some(tenant) = caller.tenant() else {
            // A bare seat token: whose it is, the match says. An address that has spent its bucket on made-up
            // tokens is refused before the store is read for another.
            if let Some(address) = address {
                if let Err(throttled) = self.identity.seat_tokens_refused(address) {
                    self.record("seat-tokens", "rate_limited");
                    self.metrics
                        .caller_refused("unknown_seat_tokens_per_address");
                    return Err(error::rate_limited(&throttled));
                }
            }
            self.record("seat-tokens", "admitted");
            return Ok(Some((caller, None)));
        };
        let label = if tenant.id().is_empty() {
            "anonymous"
        } else {
            tenant.id()
        };
        tracing::Span::current().record("tenant", label);
        let party = self.identity.party(&caller, address);
        // The share first: a caller over it never reaches (nor drains) the tenant's bucket.
        if let Some(party) = &party {
            if let Err(throttled) = self.identity.charge_party(party, tenant) {
                self.record(label, "rate_limited");
                self.metrics.caller_refused(match party {
                    Party::Player { .. } => "calls_per_second_per_player",
                    Party::Address(_) => "calls_per_second_per_address",
                });
                return Err(error::rate_limited(&throttled));
            }
        }
        if let Err(throttled) = self.identity.charge(tenant) {
            self.record(label, "rate_limited");
            return Err(error::rate_limited(&throttled));
        }
        self.record(label, "admitted");
        Ok(Some((caller, party)))
    }

    fn record(&self, tenant: &str, outcome: &str) {
        self.metrics.tenant_call(tenant, outcome);
    }

    /// Reads the tenants again and waits for it (the interceptor cannot await: the worker hands its other tasks
    /// on while it waits); whether it did. On a runtime of one thread nothing can wait there: the read is started
    /// for the calls that follow, and this one is answered with what is known.
    fn refreshed(&self) -> bool {
        let identity = self.identity.clone();
        let refresh = async move {
            identity.refresh().await.unwrap_or_else(|e| {
                tracing::warn!(error = %e, "cannot read the tenants again");
                false
            })
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime)
                if runtime.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread =>
            {
                tokio::task::block_in_place(|| runtime.block_on(refresh))
            }
            Ok(runtime) => {
                runtime.spawn(refresh);
                false
            }
            Err(_) => false,
        }
    }
}

impl Interceptor for Authenticate {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        let address = client_address(&request);
        if let Some((caller, party)) = self.admit(request.metadata(), address)? {
            request.extensions_mut().insert(caller);
            if let Some(party) = party {
                request.extensions_mut().insert(party);
            }
        }
        if let Some(address) = address {
            request.extensions_mut().insert(address);
        }
        Ok(request)
    }
}

/// The credential of a request: `None` without one; UNAUTHENTICATED when the header is not
/// `Bearer <credential>`. It is never logged.
pub fn bearer(metadata: &MetadataMap) -> Result<Option<&str>, Status> {
    let Some(value) = metadata.get(AUTHORIZATION) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(Some)
        .ok_or_else(|| {
            Status::unauthenticated("the authorization metadata must be `Bearer <credential>`")
        })
}

/// The client's address as the limits count it, from the connection (`None` where the server's connection layer
/// did not run, as in a test calling a service directly).
pub fn client_address<T>(request: &Request<T>) -> Option<Address> {
    request.remote_addr().map(|addr| Address::of(addr.ip()))
}

/// The address the interceptor found, if any.
pub fn address<T>(request: &Request<T>) -> Option<Address> {
    request.extensions().get::<Address>().copied()
}

/// The share of its tenant the caller spends (its player, or for the anonymous tenant its address), if any.
pub fn party<T>(request: &Request<T>) -> Option<Party> {
    request.extensions().get::<Party>().cloned()
}

/// The caller the interceptor admitted.
pub fn caller<T>(request: &Request<T>) -> Result<Caller, Status> {
    request
        .extensions()
        .get::<Caller>()
        .cloned()
        .ok_or_else(|| Status::internal("the call was not authenticated (a server wiring error)"))
}

/// Who a call's long engine work is for, to share the engine pool fairly (`crate::pool`): its tenant, and inside
/// it the player (player token), the API key (tenant key), or else the client's address (the anonymous tenant,
/// seat tokens, and in-process calls that went through no interceptor). The address without its port: one
/// client's many connections are one caller.
pub fn work_owner<T>(request: &Request<T>) -> Owner {
    // As the limits count addresses (an IPv6 client by its /64), so that one client is one caller for both.
    let address = || match client_address(request) {
        Some(address) => format!("address {address}"),
        None => "address unknown".to_string(),
    };
    match request.extensions().get::<Caller>() {
        Some(Caller::Player { tenant, player }) => {
            Owner::new(tenant.id(), &format!("player {player}"))
        }
        Some(Caller::Tenant { tenant, key_id }) => {
            Owner::new(tenant.id(), &format!("key {key_id}"))
        }
        Some(Caller::Anonymous(tenant)) => Owner::new(tenant.id(), &address()),
        Some(Caller::Seat(_)) | None => Owner::new("", &address()),
    }
}
