//! Who is calling, in front of every service: the `authorization` metadata read, the credential checked
//! ([`crate::identity`]), the tenant charged one call, and the [`Caller`] left in the request's extensions for
//! the handler. Health and reflection are not behind it (probes and tools need no credential).
//!
//! A tonic interceptor, not a tower layer: it runs inside the call's span (so it can name the tenant there)
//! and after the server's own layers, and it has the request's metadata as tonic parses it.

use crate::api::error;
use crate::identity::{AuthError, Caller, Identity};
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

    fn admit(&self, metadata: &MetadataMap) -> Result<Option<Caller>, Status> {
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
            // Perhaps made on another replica a moment ago: read the tenants again (at most every 200 ms).
            Err(AuthError::Unknown) if self.identity.refresh_due() && self.refreshed() => {
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
        // A bare seat token names no tenant until its match is read: its calls share one bucket, charged
        // before any store read, so that made-up tokens cost the store nothing past it.
        let tenant = caller.tenant().map_or(self.identity.seat_tokens(), |t| t);
        let label = if tenant.id().is_empty() {
            "anonymous"
        } else {
            tenant.id()
        };
        tracing::Span::current().record("tenant", label);
        if let Err(throttled) = self.identity.charge(tenant) {
            self.record(label, "rate_limited");
            return Err(error::rate_limited(&throttled));
        }
        self.record(label, "admitted");
        Ok(Some(caller))
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
        if let Some(caller) = self.admit(request.metadata())? {
            request.extensions_mut().insert(caller);
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
    let address = || match request.remote_addr() {
        Some(addr) => format!("address {}", addr.ip()),
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
