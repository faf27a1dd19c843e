//! OpenTelemetry traces (`[telemetry]`): the `tracing` layer that turns the server's spans into OpenTelemetry
//! spans, exported in batches over OTLP/gRPC (on the tonic the server already uses), and the reading of the
//! caller's W3C trace context (`traceparent`, `tracestate`) from each call's metadata.
//!
//! Off by default: with no `telemetry.otlp_endpoint` nothing is installed and [`continue_trace`] returns at
//! once, so a server that exports nothing pays one atomic load per call.

use std::sync::atomic::{AtomicBool, Ordering};

use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{Sampler, SdkTracerProvider};
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::filter::{Filtered, Targets};
use tracing_subscriber::Layer as _;

use super::TelemetryError;
use crate::config::TelemetrySettings;

/// Whether spans are exported: set once the layer is installed.
static EXPORTING: AtomicBool = AtomicBool::new(false);

/// The exporter's pipeline; dropping it sends the spans still batched and stops the exporter.
#[must_use = "dropping it stops the export of spans"]
pub struct Exporter {
    provider: SdkTracerProvider,
}

impl std::fmt::Debug for Exporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exporter").finish_non_exhaustive()
    }
}

impl Drop for Exporter {
    fn drop(&mut self) {
        EXPORTING.store(false, Ordering::Release);
        // The last batch is sent now, while the runtime the exporter's channel lives on still runs.
        if let Err(error) = self.provider.shutdown() {
            tracing::warn!(error = %error, "the last spans could not be sent to the OTLP collector");
        }
    }
}

/// The layer that turns the server's own spans (see [`layer`]) into exported OpenTelemetry spans.
pub(super) type SpanLayer<S> = Filtered<
    tracing_opentelemetry::OpenTelemetryLayer<S, opentelemetry_sdk::trace::Tracer>,
    Targets,
    S,
>;

/// The `tracing` layer that exports spans as `settings` say, and its pipeline; `None` when no endpoint is
/// configured. Must be called inside the tokio runtime: the exporter's gRPC channel lives on it.
pub(super) fn layer<S>(
    settings: &TelemetrySettings,
) -> Result<Option<(SpanLayer<S>, Exporter)>, TelemetryError>
where
    S: tracing::Subscriber + for<'span> tracing_subscriber::registry::LookupSpan<'span>,
{
    let Some(endpoint) = &settings.otlp_endpoint else {
        return Ok(None);
    };
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_tonic()
        .with_endpoint(endpoint)
        .build()
        .map_err(|e| {
            TelemetryError(format!(
                "telemetry.otlp_endpoint {endpoint}: cannot build the OTLP exporter: {e}"
            ))
        })?;
    // A caller's sampling decision (the `traceparent` flags) is followed; only new traces are drawn.
    let sampler = Sampler::ParentBased(Box::new(Sampler::TraceIdRatioBased(settings.sample_ratio)));
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_sampler(sampler)
        .with_resource(
            opentelemetry_sdk::Resource::builder()
                .with_service_name(settings.service_name.clone())
                .build(),
        )
        .build();
    let tracer = provider.tracer(env!("CARGO_PKG_NAME"));
    EXPORTING.store(true, Ordering::Release);
    // The server's own spans only: the exporter's gRPC client (tonic, h2, hyper) must not trace its own exports.
    let ours = Targets::new().with_target(env!("CARGO_CRATE_NAME"), tracing::Level::TRACE);
    Ok(Some((
        tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_filter(ours),
        Exporter { provider },
    )))
}

/// Makes `span`, a call's span, an OpenTelemetry server span named `path` (`mancala.v1.Matches/SubmitMove`)
/// that continues the trace of the caller's `traceparent`, when spans are exported.
pub fn continue_trace(span: &Span, path: &str, headers: &http::HeaderMap) {
    if !EXPORTING.load(Ordering::Acquire) {
        return;
    }
    span.record("otel.name", path.trim_start_matches('/'));
    span.record("otel.kind", "server");
    let parent = TraceContextPropagator::new().extract(&Metadata(headers));
    // Fails only when the span is already closed or unknown to the layer: then there is nothing to continue.
    let _ = span.set_parent(parent);
}

/// Records the call's gRPC status on its span, when spans are exported (an error status for the codes that
/// mean the server failed, as the log's WARN level does).
pub fn record_status(span: &Span, code: i32, server_error: bool) {
    if !EXPORTING.load(Ordering::Acquire) {
        return;
    }
    span.record("rpc.grpc.status_code", code);
    if server_error {
        span.record("otel.status_code", "error");
    }
}

/// A call's metadata, read as W3C trace context.
struct Metadata<'a>(&'a http::HeaderMap);

impl Extractor for Metadata<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|value| value.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(http::HeaderName::as_str).collect()
    }
}
