//! Logging: the `tracing` subscriber (plain or JSON lines on stdout, and OpenTelemetry spans over OTLP when
//! `[telemetry]` names a collector: [`otlp`]) and one span per gRPC call.
//!
//! [`GrpcTraceLayer`] wraps every service of the server. For each call it opens a span `grpc` with
//! the fields `rpc.service`, `rpc.method`, and an empty `match_id` and `tenant` that a handler (or the
//! authentication in front of it) fills in with `tracing::Span::current().record("match_id", id)`. Neither a
//! key nor a token is ever a field. When the call ends it logs one event with
//! target `mancala::request` carrying `grpc_status` (`"OK"`, `"NOT_FOUND"`, ...), `grpc_code` and
//! `latency_ms`. The end is the `grpc-status` of the response, which for a stream is in the
//! trailers after its last message, so a stream is logged when it closes.
//!
//! With [`Metrics`] it also counts each call and its latency by method and status code (see
//! [`crate::metrics`]): the same place, so that the log and the counters never disagree.
//!
//! Levels: `OK` is DEBUG (a load test should not drown the log), and so is an error the client
//! caused, its deadline passing included (a flood of bad requests must not drown it either: the
//! metrics count them by code); an error on the server's side is WARN, a call dropped before it
//! ended (client went away, server stopped) is INFO. `filter = "info,mancala::request=debug"` logs
//! every call.

use std::{
    fmt,
    future::Future,
    pin::Pin,
    task::{ready, Context, Poll},
    time::Instant,
};

use http_body::{Body, Frame, SizeHint};
use tonic::Code;
use tracing::{field::Empty, Span};
use tracing_subscriber::EnvFilter;

use crate::config::{LogFormat, LogSettings, TelemetrySettings};
use crate::metrics::Metrics;
use crate::middleware::{Layer, Middleware};

pub mod otlp;

/// The target of the one event logged per call.
pub const REQUEST_TARGET: &str = "mancala::request";

/// Why logging could not start. Its `Display` is one line.
#[derive(Debug)]
pub struct TelemetryError(String);

impl fmt::Display for TelemetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TelemetryError {}

/// Installs the global `tracing` subscriber: `settings.format` lines on stdout, filtered by
/// `RUST_LOG` when it is set and non-empty, by `settings.filter` otherwise; and, when `telemetry` names an
/// OTLP collector, the export of spans to it (the same filter decides which spans). Fails on a bad
/// `RUST_LOG` or when a subscriber is already installed. Must be called inside the tokio runtime when spans
/// are exported; the [`otlp::Exporter`] returned then must be kept until the server has stopped.
pub fn init(
    settings: &LogSettings,
    telemetry: &TelemetrySettings,
) -> Result<Option<otlp::Exporter>, TelemetryError> {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;

    let filter = match std::env::var(EnvFilter::DEFAULT_ENV) {
        Ok(directives) if !directives.trim().is_empty() => {
            EnvFilter::builder().parse(&directives).map_err(|e| {
                TelemetryError(format!(
                    "RUST_LOG {directives:?} is not a valid filter: {e}"
                ))
            })?
        }
        _ => EnvFilter::builder()
            .parse(&settings.filter)
            .map_err(|e| TelemetryError(format!("log.filter is not a valid filter: {e}")))?,
    };
    let lines = tracing_subscriber::fmt::layer().with_writer(std::io::stdout);
    let lines = match settings.format {
        LogFormat::Plain => {
            use std::io::IsTerminal;
            lines.with_ansi(std::io::stdout().is_terminal()).boxed()
        }
        LogFormat::Json => lines
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .boxed(),
    };
    let (spans, exporter) = match otlp::layer(telemetry)? {
        Some((layer, exporter)) => (Some(layer), Some(exporter)),
        None => (None, None),
    };
    tracing_subscriber::registry()
        .with(filter)
        .with(lines)
        .with(spans)
        .try_init()
        .map_err(|e| TelemetryError(format!("cannot install the log subscriber: {e}")))?;
    if let Some(endpoint) = &telemetry.otlp_endpoint {
        tracing::info!(%endpoint, service_name = %telemetry.service_name, sample_ratio = telemetry.sample_ratio, "exporting traces over OTLP");
    }
    Ok(exporter)
}

/// A tower layer giving every gRPC call a span and one log event at its end, and counting it in
/// [`Metrics`] when it has them; see the module doc.
///
/// Not tower-http's `TraceLayer` (weighed for issue 19): its gRPC classifier reads the status the same way,
/// but it has no hook for a call that never ends, a stream the client cancels or a deadline that passes,
/// which is what `Outcome`'s `Drop` logs and counts as `CANCELLED` (most `WatchMatch` streams end so). With
/// it, those calls would vanish from `grpc_server_handled_total` and the log; the span, the status and the
/// counters would still need this layer's code, in callbacks.
pub type GrpcTraceLayer = Layer<GrpcTrace>;

/// The middleware of [`GrpcTraceLayer`].
#[derive(Debug, Clone, Default)]
pub struct GrpcTrace {
    metrics: Option<Metrics>,
}

impl GrpcTrace {
    /// A layer that logs every call, and counts it in `metrics` if given.
    pub fn layer(metrics: Option<Metrics>) -> GrpcTraceLayer {
        Layer(GrpcTrace { metrics })
    }
}

impl<S, ReqBody, ResBody> Middleware<S, http::Request<ReqBody>> for GrpcTrace
where
    S: tower_service::Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
{
    type Response = http::Response<TracedBody<ResBody>>;
    type Future = TracedFuture<S::Future>;

    fn call(&self, inner: &mut S, request: http::Request<ReqBody>) -> Self::Future {
        let path = request.uri().path();
        let (service, method) = path
            .trim_start_matches('/')
            .split_once('/')
            .unwrap_or((path, ""));
        let span = tracing::info_span!(
            "grpc",
            rpc.service = service,
            rpc.method = method,
            match_id = Empty,
            tenant = Empty,
            // Filled in only when spans are exported (`otlp`): OpenTelemetry's name, kind and status.
            otel.name = Empty,
            otel.kind = Empty,
            otel.status_code = Empty,
            rpc.grpc.status_code = Empty,
        );
        otlp::continue_trace(&span, path, request.headers());
        let counted = self.metrics.as_ref().map(|metrics| {
            let (service, method) = metrics.rpc_labels(service, method);
            metrics.call_started(&service, &method);
            (metrics.clone(), service, method)
        });
        let inner = span.in_scope(|| inner.call(request));
        TracedFuture {
            inner,
            outcome: Some(Outcome::new(span, counted)),
        }
    }
}

pin_project_lite::pin_project! {
    /// The response future of [`GrpcTrace`]: runs the call inside its span.
    pub struct TracedFuture<F> {
        #[pin]
        inner: F,
        outcome: Option<Outcome>,
    }
}

impl<F, B, E> Future for TracedFuture<F>
where
    F: Future<Output = Result<http::Response<B>, E>>,
{
    type Output = Result<http::Response<TracedBody<B>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = {
            let _entered = this.outcome.as_ref().map(|outcome| outcome.span.enter());
            ready!(this.inner.poll(cx))
        };
        let mut outcome = this.outcome.take();
        Poll::Ready(match result {
            Ok(response) => {
                if let Some(code) = grpc_status(response.headers()) {
                    // A trailers-only response (an error, usually): the call is over.
                    if let Some(outcome) = outcome.as_mut() {
                        outcome.end = Some(End::Status(code));
                    }
                    outcome = None;
                }
                Ok(response.map(|inner| TracedBody { inner, outcome }))
            }
            Err(error) => {
                if let Some(outcome) = outcome.as_mut() {
                    outcome.end = Some(End::Failed);
                }
                Err(error)
            }
        })
    }
}

pin_project_lite::pin_project! {
    /// The response body of [`GrpcTrace`]: logs the call when its trailers go out.
    pub struct TracedBody<B> {
        #[pin]
        inner: B,
        outcome: Option<Outcome>,
    }
}

impl<B: Body> Body for TracedBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        let frame = {
            // Handlers of streaming calls produce their messages here, so they too see the span.
            let _entered = this.outcome.as_ref().map(|outcome| outcome.span.enter());
            ready!(this.inner.poll_frame(cx))
        };
        let end = match &frame {
            Some(Ok(frame)) => frame
                .trailers_ref()
                .map(|trailers| grpc_status(trailers).map_or(End::NoStatus, End::Status)),
            Some(Err(_)) => Some(End::Failed),
            None => Some(End::NoStatus),
        };
        if let Some(end) = end {
            if let Some(mut outcome) = this.outcome.take() {
                outcome.end = Some(end);
            }
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// How a call ended, as seen by the layer.
#[derive(Debug, Clone, Copy)]
enum End {
    /// The response carried this `grpc-status`.
    Status(Code),
    /// The response ended without a `grpc-status` (not a gRPC answer).
    NoStatus,
    /// The service or the response body failed.
    Failed,
}

/// A call in progress; logs its end when dropped, so a call dropped half-way is logged too.
struct Outcome {
    span: Span,
    start: Instant,
    end: Option<End>,
    /// Where to count the call, with its service and method labels.
    counted: Option<(Metrics, String, String)>,
}

impl Outcome {
    fn new(span: Span, counted: Option<(Metrics, String, String)>) -> Self {
        Outcome {
            span,
            start: Instant::now(),
            end: None,
            counted,
        }
    }
}

impl Drop for Outcome {
    fn drop(&mut self) {
        let elapsed = self.start.elapsed();
        if let Some((metrics, service, method)) = &self.counted {
            let code = match self.end {
                Some(End::Status(code)) => code_name(code),
                Some(End::NoStatus | End::Failed) => code_name(Code::Unknown),
                // The client went away or its deadline passed before the answer.
                None => code_name(Code::Cancelled),
            };
            metrics.call_handled(service, method, code, elapsed);
        }
        let latency_ms = elapsed.as_secs_f64() * 1e3;
        let span = &self.span;
        match self.end {
            Some(End::Status(code)) => {
                let grpc_status = code_name(code);
                let grpc_code = code as i32;
                otlp::record_status(span, grpc_code, is_server_error(code));
                match code {
                    Code::Ok => {
                        tracing::debug!(target: REQUEST_TARGET, parent: span, grpc_status, grpc_code, latency_ms, "call finished")
                    }
                    code if is_server_error(code) => {
                        tracing::warn!(target: REQUEST_TARGET, parent: span, grpc_status, grpc_code, latency_ms, "call failed")
                    }
                    _ => {
                        tracing::debug!(target: REQUEST_TARGET, parent: span, grpc_status, grpc_code, latency_ms, "call refused")
                    }
                }
            }
            Some(End::NoStatus) => {
                tracing::warn!(target: REQUEST_TARGET, parent: span, latency_ms, "call ended without a grpc-status")
            }
            Some(End::Failed) => {
                tracing::warn!(target: REQUEST_TARGET, parent: span, latency_ms, "call failed in transport")
            }
            None => {
                tracing::info!(target: REQUEST_TARGET, parent: span, latency_ms, "call dropped before it ended (client gone, deadline passed or server stopped)")
            }
        }
    }
}

impl fmt::Debug for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Outcome").field("end", &self.end).finish()
    }
}

/// Whether `code` says the server failed (WARN in the log, an error status on the exported span), rather than
/// refused what the client asked. UNIMPLEMENTED is a refusal: every method the server lists is implemented, so
/// it answers only a call to a method it does not have (a client's typo, an old stub, a scanner), which must not
/// fill the log at WARN; the metrics count it by code.
fn is_server_error(code: Code) -> bool {
    matches!(
        code,
        Code::Unknown | Code::Internal | Code::Unavailable | Code::DataLoss
    )
}

/// The `grpc-status` header or trailer, if present and well formed.
fn grpc_status(headers: &http::HeaderMap) -> Option<Code> {
    let value = headers.get("grpc-status")?.to_str().ok()?;
    value.parse::<i32>().ok().map(Code::from_i32)
}

/// The canonical name of a status code, as the gRPC documentation spells it.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}
