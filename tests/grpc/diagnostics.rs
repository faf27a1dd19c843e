//! `mancala.v1.Diagnostics` over a real channel: Echo returns the payload unchanged or resized as asked,
//! refuses an answer over the message limit, and health knows it.

use crate::support::server::{within, TestServer};
use mancala::api::pb;

#[tokio::test]
async fn echo_returns_the_payload_unchanged() {
    let server = TestServer::start().await;
    let mut client = pb::diagnostics_client::DiagnosticsClient::new(server.channel.clone());
    for payload in [Vec::new(), b"seeds".to_vec(), vec![0xff; 64 * 1024]] {
        let answer = within(client.echo(pb::EchoRequest {
            payload: payload.clone(),
            response_payload_bytes: None,
        }))
        .await
        .expect("echo answers")
        .into_inner();
        assert_eq!(answer.payload, payload);
    }
}

#[tokio::test]
async fn echo_switched_off_is_unimplemented_and_says_which_setting() {
    let server = TestServer::start_with(|settings| settings.server.echo = false).await;
    let mut client = pb::diagnostics_client::DiagnosticsClient::new(server.channel.clone());
    let refused = within(client.echo(pb::EchoRequest {
        payload: b"seeds".to_vec(),
        response_payload_bytes: None,
    }))
    .await
    .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unimplemented);
    assert!(refused.message().contains("server.echo"), "{refused:?}");
}

#[tokio::test]
async fn echo_answers_with_as_many_bytes_as_asked() {
    let server = TestServer::start().await;
    let mut client = pb::diagnostics_client::DiagnosticsClient::new(server.channel.clone());
    // Larger than the request (filled after the request's bytes), smaller (cut), and empty.
    for (payload, size, expected) in [
        (b"seeds".to_vec(), 8, b"seedsZZZ".to_vec()),
        (b"seeds".to_vec(), 2, b"se".to_vec()),
        (b"seeds".to_vec(), 0, Vec::new()),
        (Vec::new(), 3, b"ZZZ".to_vec()),
    ] {
        let answer = within(client.echo(pb::EchoRequest {
            payload,
            response_payload_bytes: Some(size),
        }))
        .await
        .expect("echo answers")
        .into_inner();
        assert_eq!(answer.payload, expected);
    }
}

#[tokio::test]
async fn echo_refuses_an_answer_over_the_message_limit() {
    let server = TestServer::start().await;
    let mut client = pb::diagnostics_client::DiagnosticsClient::new(server.channel.clone());
    let status = within(client.echo(pb::EchoRequest {
        payload: Vec::new(),
        response_payload_bytes: Some(u32::MAX),
    }))
    .await
    .expect_err("too large an answer");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(
        status
            .message()
            .starts_with("response_payload_bytes: an answer of 4294967295 bytes would encode to"),
        "{}",
        status.message()
    );
    // The bound is on the encoded answer: 65,532 bytes of payload encode to 65,536 (a tag, 3 bytes of length).
    for (size, accepted) in [(65_532, true), (65_533, false)] {
        let answer = within(client.echo(pb::EchoRequest {
            payload: Vec::new(),
            response_payload_bytes: Some(size),
        }))
        .await;
        assert_eq!(answer.is_ok(), accepted, "{size}");
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
