//! OpenTelemetry traces of the real binary: a collector in the test (the OTLP TraceService on 127.0.0.1:0)
//! receives the span of a call made with a W3C `traceparent`, in the caller's trace, as a child of the caller's
//! span, named after the method and carrying its gRPC status.

use crate::support::replica::{within, Replica};
use mancala::api::pb;
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::trace::v1::Span;
use pb::rules_client::RulesClient;
use tokio::sync::mpsc;
use tonic::{Request, Response, Status};

/// The caller's trace and span, as a `traceparent` carries them (sampled).
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_SPAN_ID: &str = "00f067aa0ba902b7";

/// Hands every span it receives to the test.
struct Collector(mpsc::UnboundedSender<Span>);

#[tonic::async_trait]
impl TraceService for Collector {
    async fn export(
        &self,
        request: Request<ExportTraceServiceRequest>,
    ) -> Result<Response<ExportTraceServiceResponse>, Status> {
        for resource in request.into_inner().resource_spans {
            for scope in resource.scope_spans {
                for span in scope.spans {
                    let _ = self.0.send(span);
                }
            }
        }
        Ok(Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test]
async fn a_call_with_a_traceparent_is_exported_as_a_span_of_the_callers_trace() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let collector_addr = listener.local_addr().unwrap();
    let (spans, mut received) = mpsc::unbounded_channel();
    let collector = tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(TraceServiceServer::new(Collector(spans)))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let endpoint = format!("http://{collector_addr}");
    let server = Replica::start(&[
        ("MANCALA__MATCHES__STORE", "memory"),
        ("MANCALA__TELEMETRY__OTLP_ENDPOINT", &endpoint),
        ("MANCALA__TELEMETRY__SERVICE_NAME", "mancala-under-test"),
        // The batch goes out soon after the call rather than after the SDK's default 5 s.
        ("OTEL_BSP_SCHEDULE_DELAY", "50"),
    ])
    .await;
    let channel = within(
        "connect",
        tonic::transport::Channel::from_shared(format!("http://{}", server.addr))
            .unwrap()
            .connect(),
    )
    .await
    .expect("connect");
    let mut request = Request::new(pb::NewGameRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: None,
    });
    request.metadata_mut().insert(
        "traceparent",
        format!("00-{TRACE_ID}-{PARENT_SPAN_ID}-01")
            .parse()
            .unwrap(),
    );
    within("new game", RulesClient::new(channel).new_game(request))
        .await
        .expect("a new game");

    let span = loop {
        let span = within("the call's span at the collector", received.recv())
            .await
            .expect("the collector runs");
        if span.name == "mancala.v1.Rules/NewGame" {
            break span;
        }
    };
    assert_eq!(hex(&span.trace_id), TRACE_ID, "the caller's trace");
    assert_eq!(
        hex(&span.parent_span_id),
        PARENT_SPAN_ID,
        "the caller's span"
    );
    // SPAN_KIND_SERVER
    assert_eq!(span.kind, 2, "{span:?}");
    let status = span
        .attributes
        .iter()
        .find(|a| a.key == "rpc.grpc.status_code")
        .and_then(|a| a.value.as_ref())
        .and_then(|v| v.value.as_ref());
    assert_eq!(
        status,
        Some(&opentelemetry_proto::tonic::common::v1::any_value::Value::IntValue(0)),
        "{span:?}"
    );
    collector.abort();
}
