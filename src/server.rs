//! The gRPC server: the Rules service, `grpc.health.v1` and server reflection on one listener,
//! with the limits of [`ServerSettings`](crate::config::ServerSettings), and a bounded drain. The same
//! listener serves browsers: grpc-web for every service and the board page at `/` (`web`).
//!
//! Shutdown, once the `shutdown` future given to [`run`] completes:
//! 1. health turns NOT_SERVING for `""` and every service, so balancers stop sending new calls;
//! 2. the listener closes and every connection gets an HTTP/2 GOAWAY: calls in flight go on,
//!    new ones go elsewhere;
//! 3. every response stream that is waiting for its next message ends with UNAVAILABLE
//!    ("server is shutting down"); a stream never ends by itself, so waiting would only burn the
//!    grace. Clients resume from their last `seq` on another server;
//! 4. [`run`] returns when every connection has closed, or after `shutdown_grace`, whichever
//!    comes first. Connections still open then are left to the runtime, which `main` drops.

mod drain;

use std::{fmt, future::Future, sync::Arc};

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{server::TcpIncoming, Server};
use tonic_health::ServingStatus;

mod undecodable;

use crate::api::matches::Wire;
use crate::clock::{SystemTime, Time};
use crate::identity::Identity;
use crate::lobby::Lobby;
use crate::matches::Matches;
use crate::metrics::Metrics;
use crate::pool::EnginePool;
use crate::service::admin::AdminService;
use crate::service::auth::{Authenticate, Needs};
use crate::service::diagnostics::DiagnosticsService;
use crate::service::lobby::LobbyService;
use crate::service::matches::MatchesService;
use crate::service::players::PlayersService;
use crate::service::tournaments::TournamentsService;
use crate::store::{StoreError, Stores};
use crate::sync::TaskGuard;
use crate::tournaments::Tournaments;
use crate::{api::pb, config::Settings, service::rules::RulesService, telemetry::GrpcTrace};
use drain::Drain;

mod connections;
mod guessing;
mod web;

/// The encoded `FileDescriptorSet`s of every service on the listener: our protocol, the google.rpc error
/// details it sends, health and both reflection versions. Reflection serves them (so a client of either
/// version lists every service, and can decode every error's details) and the metrics label calls by their
/// methods.
pub const DESCRIPTOR_SETS: [&[u8]; 5] = [
    crate::api::FILE_DESCRIPTOR_SET,
    crate::api::GOOGLE_RPC_DESCRIPTOR_SET,
    tonic_health::pb::FILE_DESCRIPTOR_SET,
    tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
    tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
];

/// The services whose health is reported, besides the whole server (`""`).
pub const SERVICE_NAMES: &[&str] = &[
    pb::rules_server::SERVICE_NAME,
    pb::diagnostics_server::SERVICE_NAME,
    pb::matches_server::SERVICE_NAME,
    pb::players_server::SERVICE_NAME,
    pb::admin_server::SERVICE_NAME,
    pb::lobby_server::SERVICE_NAME,
    pb::tournaments_server::SERVICE_NAME,
];

/// Why the server could not run.
#[derive(Debug)]
pub enum ServeError {
    /// The reflection service could not read a descriptor set.
    Reflection(tonic_reflection::server::Error),
    /// The transport failed (accepting a connection, for instance).
    Transport(tonic::transport::Error),
    /// The match store could not be opened (`[matches]` settings).
    Store(StoreError),
    /// The metrics endpoint could not listen (`[metrics] listen`).
    Metrics(std::io::Error),
    /// The `[tls]` files cannot be used (one line naming the setting).
    Tls(String),
    /// The plaintext health listener could not listen (`[server] health_listen`).
    Health(std::io::Error),
    /// Development mode (`[server] dev`) cannot start: a listener beyond loopback, or its tenant not made.
    Development(String),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Reflection(e) => write!(f, "cannot build the reflection service: {e}"),
            ServeError::Transport(e) => write!(f, "server failed: {e}"),
            ServeError::Store(e) => write!(f, "cannot open the match store: {e}"),
            ServeError::Metrics(e) => write!(f, "cannot serve metrics: {e}"),
            ServeError::Tls(e) => write!(f, "cannot serve TLS: {e}"),
            ServeError::Health(e) => write!(f, "cannot serve health (server.health_listen): {e}"),
            ServeError::Development(e) => write!(f, "cannot serve in development mode: {e}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Reflection(e) => Some(e),
            ServeError::Transport(e) => Some(e),
            ServeError::Store(e) => Some(e),
            ServeError::Metrics(e) => Some(e),
            ServeError::Tls(_) | ServeError::Development(_) => None,
            ServeError::Health(e) => Some(e),
        }
    }
}

/// Serves on `listener` until `shutdown` completes, then drains as the module doc describes.
///
/// The caller binds the listener (so it can log or hand out the bound address, and so tests can
/// use port 0 without waiting for readiness); `settings.server.listen` is not read here.
pub async fn run(
    listener: TcpListener,
    settings: Settings,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    run_with_time(listener, settings, shutdown, Arc::new(SystemTime)).await
}

/// [`run`], the matches' clocks reading the time from `time` (tests move a [`crate::clock::ManualTime`] by hand
/// instead of waiting for a flag to fall).
pub async fn run_with_time(
    listener: TcpListener,
    settings: Settings,
    shutdown: impl Future<Output = ()>,
    time: Arc<dyn Time>,
) -> Result<(), ServeError> {
    // Development mode's settings (its operator key) even when they did not come through `Settings::load`.
    let mut settings = settings;
    settings
        .develop()
        .map_err(|e| ServeError::Development(e.to_string()))?;
    let server = &settings.server;
    let limit = server.max_message_bytes;

    // Checked again here: the settings may not have come through `Settings::load` (tests change them).
    let tls = match settings
        .tls
        .files()
        .map_err(|e| ServeError::Tls(e.to_string()))?
    {
        Some(files) => {
            let config =
                crate::tls::server_config(&files).map_err(|e| ServeError::Tls(e.to_string()))?;
            match files.client_ca {
                None => tracing::info!(cert_file = %files.cert.display(), "serving TLS"),
                Some(ca) => tracing::info!(
                    cert_file = %files.cert.display(),
                    client_ca_file = %ca.display(),
                    "serving TLS with client certificates required (mTLS)"
                ),
            }
            Some(config)
        }
        None => {
            tracing::info!("serving plaintext (no tls.cert_file)");
            None
        }
    };

    let (health, health_service) = tonic_health::server::health_reporter();
    for name in SERVICE_NAMES {
        health
            .set_service_status(name, ServingStatus::Serving)
            .await;
    }
    let metrics = Metrics::serving(&DESCRIPTOR_SETS);
    let pool = EnginePool::with_lanes(
        &settings.engine,
        settings.bots.max_thinking,
        metrics.clone(),
    );
    // Whatever way `run` ends, long engine work stops with it (the runtime would wait for its threads).
    let _stop_pool = StopOnDrop(pool.clone());
    // Opening may recover a crashed database file (off the runtime threads, inside `open`) or connect to Redis
    // (on this runtime, whose tasks then drive the connection). The tenants are read once here, then kept in memory.
    let stores = Stores::open(&settings.matches, &metrics)
        .await
        .map_err(ServeError::Store)?;
    let identity = Identity::open_with(
        stores.tenants.clone(),
        &settings.auth,
        settings.limits,
        settings.addresses,
    )
    .await
    .map_err(ServeError::Store)?;
    if settings.server.dev {
        start_development(&listener, &identity).await?;
    }
    warn_if_open(&listener, &identity);
    let _following_tenants = identity.follow_store();
    let _reloading_tenants = TaskGuard::new(identity.spawn_reloads(TENANT_RELOAD_EVERY));
    let gate = |needs| Authenticate::new(identity.clone(), metrics.clone(), needs);
    let rules = InterceptedService::new(
        RulesService::new(pool.clone())
            .with_search(settings.search.clone())
            .into_server()
            .max_decoding_message_size(limit),
        gate(Needs::Tenant),
    );
    let diagnostics = DiagnosticsService::new(limit);
    let diagnostics = if server.echo {
        diagnostics
    } else {
        diagnostics.without_echo()
    };
    let diagnostics = InterceptedService::new(
        diagnostics.into_server().max_decoding_message_size(limit),
        gate(Needs::Tenant),
    );
    let admin = InterceptedService::new(
        AdminService::new(identity.clone(), settings.limits)
            .into_server()
            .max_decoding_message_size(limit),
        gate(Needs::Operator),
    );
    let matches = Matches::with_store_and_metrics(
        stores.matches,
        settings.matches.clone(),
        metrics.clone(),
        Wire,
    )
    .with_clock(settings.clock, time)
    .with_engine(&pool)
    .with_bots(settings.bots.clone(), pool.clone())
    .with_identity(identity.clone());
    // The lobby hears of every match created, started and finished here, and arranges its own.
    let (lifecycles, lifecycles_rx) = tokio::sync::mpsc::unbounded_channel();
    let matches = matches.with_lifecycle(lifecycles);
    let lobby = Lobby::new(
        stores.lobby,
        matches.clone(),
        settings.lobby.clone(),
        metrics.clone(),
    )
    .with_presence(stores.presence);
    let _lobby_tasks = lobby.start(lifecycles_rx);
    let lobby_for_lists = lobby.clone();
    // Tournaments live in the lobby's logs; every replica advances the running ones (each step written once).
    let tournaments = Tournaments::new(lobby.clone(), matches.clone());
    let _tournaments_advancer = tournaments.spawn_advancer();
    let tournaments = InterceptedService::new(
        TournamentsService::new(tournaments)
            .into_server()
            .max_decoding_message_size(limit),
        gate(Needs::Tenant),
    );
    let players = InterceptedService::new(
        PlayersService::new(identity.clone(), lobby.clone())
            .into_server()
            .max_decoding_message_size(limit),
        gate(Needs::Tenant),
    );
    let lobby = InterceptedService::new(
        LobbyService::new(lobby, matches.clone())
            .into_server()
            .max_decoding_message_size(limit),
        gate(Needs::Tenant),
    );
    let _purger = matches.spawn_purger();
    // Flags fall and unstarted matches are aborted on time, whoever calls; overdue ones at once.
    let _clock_keeper = matches.spawn_clock_keeper();
    // Bot moves left unplayed by a server that stopped (this one, before a restart, or another replica).
    let _bot_sweeper = matches.spawn_bot_sweeper();
    // Over a shared store, other replicas' moves reach this one's watchers through its feed.
    let _following = matches.follow_store();
    let _metrics_endpoint = match settings.metrics.listen {
        Some(addr) => {
            let listener = TcpListener::bind(addr).await.map_err(ServeError::Metrics)?;
            let addr = listener.local_addr().map_err(ServeError::Metrics)?;
            tracing::info!(%addr, "metrics listening");
            Some(TaskGuard::spawn(crate::metrics::serve(
                listener,
                metrics.clone(),
            )))
        }
        None => None,
    };
    let matches = InterceptedService::new(
        MatchesService::new(matches)
            .with_lobby(lobby_for_lists)
            .with_previews(crate::rules::Rules::new(pool.clone()))
            .into_server()
            .max_decoding_message_size(limit),
        gate(Needs::AnyCredential),
    );
    let health_service = health_service.max_decoding_message_size(limit);
    let _health_endpoint = match server.health_listen {
        Some(addr) => {
            Some(serve_health(addr, server, health_service.clone(), metrics.clone()).await?)
        }
        None => None,
    };
    let reflection_v1 = reflection()
        .build_v1()
        .map_err(ServeError::Reflection)?
        .max_decoding_message_size(limit);
    let reflection_v1alpha = reflection()
        .build_v1alpha()
        .map_err(ServeError::Reflection)?
        .max_decoding_message_size(limit);

    let grace = server.shutdown_grace;
    let draining = CancellationToken::new();
    let (drain_started, mut drain_started_rx) = tokio::sync::oneshot::channel();
    let signal = {
        let draining = draining.clone();
        async move {
            shutdown.await;
            tracing::info!(
                grace_ms = grace.as_millis() as u64,
                "shutting down: NOT_SERVING, no new connections, draining calls in flight"
            );
            for name in std::iter::once(&"").chain(SERVICE_NAMES) {
                health
                    .set_service_status(name, ServingStatus::NotServing)
                    .await;
            }
            draining.cancel();
            let _ = drain_started.send(());
        }
    };

    // Logged once the store is open and every service is ready, just before the first connection is accepted
    // (scripts and probes wait for this line; a server that cannot open its store never says it).
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, version = env!("CARGO_PKG_VERSION"), "listening");
    }
    let connections = connections::Connections::new(server, tls, metrics.clone());
    let incoming = connections.incoming(
        TcpIncoming::from(listener)
            .with_nodelay(Some(server.tcp_nodelay))
            .with_keepalive(server.tcp_keepalive),
    );
    let mut builder = connections
        .configure(Server::builder())
        // Browsers speak grpc-web, and load the board page, over HTTP/1.1 as well as HTTP/2.
        .accept_http1(true)
        .max_concurrent_streams(server.max_concurrent_streams)
        .http2_keepalive_interval(server.http2_keepalive_interval)
        .http2_keepalive_timeout(Some(server.http2_keepalive_timeout));
    if let Some(limit) = server.concurrency_limit_per_connection {
        builder = builder.concurrency_limit_per_connection(limit);
    }
    if let Some(timeout) = server.request_timeout {
        builder = builder.timeout(timeout);
    }
    let serve = builder
        .layer(connections.layer())
        // Outside the trace: the page's files are not calls; grpc-web calls are traced as the gRPC they become.
        .layer(web::BrowsersLayer::new(&server.cors_allowed_origins))
        .layer(GrpcTrace::layer(Some(metrics.clone())))
        // Inside the trace, so that its refusals are logged and counted as calls.
        .layer(guessing::Guessing::layer(identity.clone(), metrics))
        .layer(Drain::layer(draining.clone()))
        // Innermost, so that the trace layer logs and counts the corrected status.
        .layer(undecodable::LAYER)
        .add_service(rules)
        .add_service(diagnostics)
        .add_service(matches)
        .add_service(players)
        .add_service(lobby)
        .add_service(tournaments)
        .add_service(admin)
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .serve_with_incoming_shutdown(incoming, signal);

    tokio::pin!(serve);
    let served = tokio::select! {
        result = &mut serve => result,
        Ok(()) = &mut drain_started_rx => match tokio::time::timeout(grace, &mut serve).await {
            Ok(result) => result,
            Err(_) => {
                pool.stop();
                tracing::warn!(
                    grace_ms = grace.as_millis() as u64,
                    "stopped: calls still in flight after the shutdown grace were abandoned"
                );
                return Ok(());
            }
        },
    };
    served.map_err(ServeError::Transport)?;
    tracing::info!("stopped: every connection closed");
    Ok(())
}

/// Connections the plaintext health listener holds at once: a kubelet's probes and a balancer's checks,
/// with room to spare, and never a way around `max_connections`.
const HEALTH_MAX_CONNECTIONS: usize = 16;

/// Serves `health` alone, in plaintext, on `addr` until the returned task is dropped (when [`run`]
/// returns, so it answers NOT_SERVING through the whole drain). Kubernetes' `grpc` probes cannot speak
/// TLS; this is what they ask when the main listener does.
async fn serve_health<S>(
    addr: std::net::SocketAddr,
    settings: &crate::config::ServerSettings,
    health: S,
    metrics: Metrics,
) -> Result<TaskGuard, ServeError>
where
    S: tower_service::Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<tonic::body::Body>,
            Error = std::convert::Infallible,
        > + tonic::server::NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let listener = TcpListener::bind(addr).await.map_err(ServeError::Health)?;
    let addr = listener.local_addr().map_err(ServeError::Health)?;
    tracing::info!(%addr, "health listening (plaintext, grpc.health.v1 only)");
    let limits = crate::config::ServerSettings {
        max_connections: HEALTH_MAX_CONNECTIONS,
        // Every probe comes from the node's own address.
        max_connections_per_address: 0,
        ..settings.clone()
    };
    let connections = connections::Connections::new(&limits, None, metrics);
    let incoming = connections.incoming(TcpIncoming::from(listener).with_nodelay(Some(true)));
    let serve = connections
        .configure(Server::builder())
        .layer(connections.layer())
        .add_service(health)
        .serve_with_incoming(incoming);
    Ok(TaskGuard::spawn(async move {
        if let Err(error) = serve.await {
            tracing::warn!(%error, "the health listener failed");
        }
    }))
}

/// How often the tenants are read again whatever the store's channel said (a lost message, a failed reload).
const TENANT_RELOAD_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Says so at start-up when anyone who can reach the port can call without a credential.
fn warn_if_open(listener: &TcpListener, identity: &Identity) {
    let open = listener
        .local_addr()
        .is_ok_and(|addr| !addr.ip().is_loopback());
    if open && !identity.required() {
        tracing::warn!(
            "listening beyond loopback without required auth: anyone who reaches this port can create and \
             read the anonymous tenant's matches; set auth.required = true (docs/guide/tenants.md)"
        );
    }
    if identity.required() {
        tracing::info!(
            operator = identity.has_operator(),
            "auth required: API keys, player tokens or seat tokens"
        );
    }
}

/// Development mode (`server.dev`): refuses a listener beyond loopback (the operator key is a well-known one), makes
/// the tenant whose players' tokens `mancala tenants token` mints, and says loudly what kind of server this is.
async fn start_development(listener: &TcpListener, identity: &Identity) -> Result<(), ServeError> {
    use crate::config::{DEV_OPERATOR_KEY, DEV_TENANT};
    let addr = listener
        .local_addr()
        .map_err(|e| ServeError::Development(format!("the listener has no address: {e}")))?;
    if !addr.ip().is_loopback() {
        return Err(ServeError::Development(format!(
            "{addr} is beyond loopback, and a development server's operator key is well known: listen on 127.0.0.1"
        )));
    }
    let made = identity
        .ensure_tenant(DEV_TENANT, "development")
        .await
        .map_err(|e| ServeError::Development(format!("making the tenant {DEV_TENANT:?}: {e}")))?;
    tracing::warn!(
        %addr,
        tenant = DEV_TENANT,
        made,
        operator_key = DEV_OPERATOR_KEY,
        "DEVELOPMENT MODE (server.dev): loopback only, a well-known operator key; mint player tokens with \
         `mancala tenants token dev PLAYER`; never use this configuration on a server others can reach"
    );
    Ok(())
}

/// Stops the engine pool's long work when the server returns.
struct StopOnDrop(EnginePool);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The reflection builder over [`DESCRIPTOR_SETS`].
fn reflection() -> tonic_reflection::server::Builder<'static> {
    DESCRIPTOR_SETS
        .into_iter()
        .fold(
            tonic_reflection::server::Builder::configure(),
            |builder, set| builder.register_encoded_file_descriptor_set(set),
        )
        .include_reflection_service(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn served_methods_keep_their_labels_and_others_are_unknown() {
        let metrics = Metrics::serving(&DESCRIPTOR_SETS);
        assert_eq!(
            metrics.rpc_labels("mancala.v1.Matches", "SubmitMove"),
            ("mancala.v1.Matches".into(), "SubmitMove".into())
        );
        assert_eq!(
            metrics.rpc_labels("grpc.health.v1.Health", "Check"),
            ("grpc.health.v1.Health".into(), "Check".into())
        );
        assert_eq!(
            metrics.rpc_labels("mancala.v1.Matches", "DropTables"),
            ("unknown".into(), "unknown".into())
        );
    }
}
