//! The gRPC server: the Rules service, `grpc.health.v1` and server reflection on one listener,
//! with the limits of [`ServerSettings`](crate::config::ServerSettings), and a bounded drain.
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

use std::{
    fmt,
    future::Future,
    pin::Pin,
    task::{Context, Poll},
};

use http_body::{Body, Frame, SizeHint};
use tokio::net::TcpListener;
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};
use tonic::transport::{server::TcpIncoming, Server};
use tonic_health::ServingStatus;

use crate::matches::Matches;
use crate::metrics::Metrics;
use crate::service::diagnostics::DiagnosticsService;
use crate::service::matches::MatchesService;
use crate::store::StoreError;
use crate::{api::pb, config::Settings, service::rules::RulesService, telemetry::GrpcTraceLayer};

mod connections;

/// The encoded `FileDescriptorSet` of `proto/mancala/v1/*.proto`, served by reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/mancala_descriptor.bin"));

/// The services whose health is reported, besides the whole server (`""`).
pub const SERVICE_NAMES: &[&str] = &[
    pb::rules_server::SERVICE_NAME,
    pb::diagnostics_server::SERVICE_NAME,
    pb::matches_server::SERVICE_NAME,
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
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Reflection(e) => write!(f, "cannot build the reflection service: {e}"),
            ServeError::Transport(e) => write!(f, "server failed: {e}"),
            ServeError::Store(e) => write!(f, "cannot open the match store: {e}"),
            ServeError::Metrics(e) => write!(f, "cannot serve metrics: {e}"),
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
    let server = &settings.server;
    let limit = server.max_message_bytes;

    let (health, health_service) = tonic_health::server::health_reporter();
    for name in SERVICE_NAMES {
        health
            .set_service_status(name, ServingStatus::Serving)
            .await;
    }
    // `default()` rather than the unit literal: the service will gain state (engine caches).
    #[allow(clippy::default_constructed_unit_structs)]
    let rules = RulesService::default()
        .into_server()
        .max_decoding_message_size(limit);
    let diagnostics = DiagnosticsService::new(limit)
        .into_server()
        .max_decoding_message_size(limit);
    let metrics = Metrics::new();
    // Opening may recover a crashed database file or connect to Redis: blocking work, off the
    // runtime threads.
    let match_settings = settings.matches.clone();
    let match_metrics = metrics.clone();
    let matches = tokio::task::spawn_blocking(move || {
        Matches::open_with_metrics(&match_settings, match_metrics)
    })
    .await
    .map_err(|e| ServeError::Store(StoreError::Failed(e.to_string())))?
    .map_err(ServeError::Store)?;
    let _purger = matches.spawn_purger();
    // Over a shared store, other replicas' moves reach this one's watchers through its feed.
    let _following = matches.follow_store();
    let _metrics_endpoint = match settings.metrics.listen {
        Some(addr) => {
            let listener = TcpListener::bind(addr).await.map_err(ServeError::Metrics)?;
            let addr = listener.local_addr().map_err(ServeError::Metrics)?;
            tracing::info!(%addr, "metrics listening");
            Some(AbortOnDrop(tokio::spawn(crate::metrics::serve(
                listener,
                metrics.clone(),
            ))))
        }
        None => None,
    };
    let matches = MatchesService::new(matches)
        .into_server()
        .max_decoding_message_size(limit);
    let health_service = health_service.max_decoding_message_size(limit);
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

    let connections = connections::Connections::new(server, metrics.clone());
    let incoming = connections.incoming(
        TcpIncoming::from(listener)
            .with_nodelay(Some(server.tcp_nodelay))
            .with_keepalive(server.tcp_keepalive),
    );
    let mut builder = connections
        .configure(Server::builder())
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
        .layer(GrpcTraceLayer::new(Some(metrics)))
        .layer(DrainLayer {
            draining: draining.clone(),
        })
        .add_service(rules)
        .add_service(diagnostics)
        .add_service(matches)
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

/// A background task that ends with the server.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The reflection builder: our protocol, health and both reflection versions, so that a client
/// of either version lists every service of the server.
fn reflection() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET)
        .include_reflection_service(false)
}

/// Ends idle response streams with UNAVAILABLE once the server drains (step 3 of the module doc).
///
/// A call whose response is ended that way also has its request stream ended (with an
/// UNAVAILABLE error, never a clean end a handler could mistake for the client's), so that a
/// handler still reading it lets go: HTTP/2 closes a stream, and so the connection, only once
/// both halves are released.
#[derive(Debug, Clone)]
struct DrainLayer {
    draining: CancellationToken,
}

impl<S> tower_layer::Layer<S> for DrainLayer {
    type Service = Drain<S>;

    fn layer(&self, inner: S) -> Drain<S> {
        Drain {
            inner,
            draining: self.draining.clone(),
        }
    }
}

#[derive(Debug, Clone)]
struct Drain<S> {
    inner: S,
    draining: CancellationToken,
}

impl<S, ResBody> tower_service::Service<http::Request<tonic::body::Body>> for Drain<S>
where
    S: tower_service::Service<http::Request<tonic::body::Body>, Response = http::Response<ResBody>>,
{
    type Response = http::Response<DrainBody<ResBody>>;
    type Error = S::Error;
    type Future = DrainFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        let cut = CancellationToken::new();
        let request = request.map(|inner| {
            tonic::body::Body::new(DrainRequestBody {
                inner,
                cut: cut.clone(),
                waiting: None,
                ended: false,
            })
        });
        DrainFuture {
            inner: self.inner.call(request),
            tokens: Some((self.draining.clone(), cut)),
        }
    }
}

pin_project_lite::pin_project! {
    struct DrainFuture<F> {
        #[pin]
        inner: F,
        tokens: Option<(CancellationToken, CancellationToken)>,
    }
}

impl<F, B, E> Future for DrainFuture<F>
where
    F: Future<Output = Result<http::Response<B>, E>>,
{
    type Output = Result<http::Response<DrainBody<B>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = std::task::ready!(this.inner.poll(cx))?;
        let (draining, cut) = this
            .tokens
            .take()
            .expect("DrainFuture polled after it completed");
        Poll::Ready(Ok(response.map(|inner| DrainBody {
            inner,
            draining,
            waiting: None,
            cut,
        })))
    }
}

pin_project_lite::pin_project! {
    struct DrainBody<B> {
        #[pin]
        inner: B,
        draining: CancellationToken,
        // Made on the first wait only: unary answers are always ready and never pay for it.
        waiting: Option<Pin<Box<WaitForCancellationFutureOwned>>>,
        // Cancelled when this body has been cut; tells the request body to end too.
        cut: CancellationToken,
    }
}

impl<B: Body> Body for DrainBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        if this.cut.is_cancelled() {
            return Poll::Ready(None);
        }
        // What the stream already has goes out first (a health watcher sees NOT_SERVING).
        if let Poll::Ready(frame) = this.inner.poll_frame(cx) {
            return Poll::Ready(frame);
        }
        if wait(this.waiting, this.draining, cx).is_pending() {
            return Poll::Pending;
        }
        this.cut.cancel();
        let mut trailers = http::HeaderMap::new();
        trailers.insert(
            "grpc-status",
            http::HeaderValue::from(tonic::Code::Unavailable as i32),
        );
        trailers.insert(
            "grpc-message",
            http::HeaderValue::from_static(SHUTTING_DOWN),
        );
        Poll::Ready(Some(Ok(Frame::trailers(trailers))))
    }

    fn is_end_stream(&self) -> bool {
        self.cut.is_cancelled() || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        if self.cut.is_cancelled() {
            SizeHint::with_exact(0)
        } else {
            self.inner.size_hint()
        }
    }
}

pin_project_lite::pin_project! {
    struct DrainRequestBody<B> {
        #[pin]
        inner: B,
        cut: CancellationToken,
        waiting: Option<Pin<Box<WaitForCancellationFutureOwned>>>,
        ended: bool,
    }
}

impl<B> Body for DrainRequestBody<B>
where
    B: Body<Error = tonic::Status>,
{
    type Data = B::Data;
    type Error = tonic::Status;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        if *this.ended {
            return Poll::Ready(None);
        }
        if let Poll::Ready(frame) = this.inner.poll_frame(cx) {
            return Poll::Ready(frame);
        }
        if wait(this.waiting, this.cut, cx).is_pending() {
            return Poll::Pending;
        }
        *this.ended = true;
        Poll::Ready(Some(Err(tonic::Status::unavailable(SHUTTING_DOWN))))
    }

    fn is_end_stream(&self) -> bool {
        self.ended || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The message of the UNAVAILABLE status that ends streams on shutdown.
const SHUTTING_DOWN: &str = "server is shutting down";

/// Polls `token`'s cancellation, making the waiting future on first use.
fn wait(
    waiting: &mut Option<Pin<Box<WaitForCancellationFutureOwned>>>,
    token: &CancellationToken,
    cx: &mut Context<'_>,
) -> Poll<()> {
    waiting
        .get_or_insert_with(|| Box::pin(token.clone().cancelled_owned()))
        .as_mut()
        .poll(cx)
}
