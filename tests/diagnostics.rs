//! `mancala.v1.Diagnostics` over a real channel: Echo returns the payload unchanged, and health knows it.

mod common;

use common::{within, TestServer};
use mancala::api::pb;

#[tokio::test]
async fn echo_returns_the_payload_unchanged() {
    let server = TestServer::start().await;
    let mut client = pb::diagnostics_client::DiagnosticsClient::new(server.channel.clone());
    for payload in [Vec::new(), b"seeds".to_vec(), vec![0xff; 64 * 1024]] {
        let answer = within(client.echo(pb::EchoRequest {
            payload: payload.clone(),
        }))
        .await
        .expect("echo answers")
        .into_inner();
        assert_eq!(answer.payload, payload);
    }
}

#[tokio::test]
async fn health_reports_the_diagnostics_service() {
    let server = TestServer::start().await;
    let mut health = tonic_health::pb::health_client::HealthClient::new(server.channel.clone());
    let answer = within(health.check(tonic_health::pb::HealthCheckRequest {
        service: "mancala.v1.Diagnostics".into(),
    }))
    .await
    .expect("health answers")
    .into_inner();
    assert_eq!(
        answer.status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );
}
