//! TLS on the gRPC listener, with certificates made in the test (`support::tls`): a client trusting the
//! test CA connects and plays; plaintext clients, clients trusting another CA and, with mutual TLS,
//! clients without a certificate are refused; a connection that never starts its TLS handshake is closed
//! at the handshake timeout.

use std::time::Duration;

use crate::support::replica::Replica;
use crate::support::server::{within, TestServer};
use crate::support::tls::TestPki;
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use pb::rules_client::RulesClient;
use tokio::{io::AsyncReadExt, net::TcpStream};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

/// A client TLS configuration trusting `ca_pem`, for the server's IP address.
fn trusting(ca_pem: &str) -> ClientTlsConfig {
    ClientTlsConfig::new().ca_certificate(Certificate::from_pem(ca_pem))
}

/// A channel to `server` with `tls`, connecting at its first call.
fn lazy_channel(server: &TestServer, tls: Option<ClientTlsConfig>) -> Channel {
    let endpoint = match tls {
        None => Endpoint::from_shared(format!("http://{}", server.addr)).expect("uri"),
        Some(tls) => Endpoint::from_shared(format!("https://{}", server.addr))
            .expect("uri")
            .tls_config(tls)
            .expect("client TLS"),
    };
    endpoint.connect_lazy()
}

/// Whether one stateless call over `channel` succeeds.
async fn new_game(channel: Channel) -> Result<(), tonic::Status> {
    within(RulesClient::new(channel).new_game(pb::NewGameRequest {
        kind: pb::GameKind::Bosh as i32,
        options: None,
    }))
    .await
    .map(|_| ())
}

fn authed<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("ascii"),
    );
    request
}

/// Creates a Ba-awa match over `channel` and plays `moves` legal moves in it, each seat in turn.
async fn play_a_match(channel: Channel, moves: usize) {
    let mut client = MatchesClient::new(channel);
    let created = within(client.create_match(pb::CreateMatchRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: None,
        players: vec![],
        bots: vec![],
        time_control: None,
        start: None,
    }))
    .await
    .expect("created")
    .into_inner();
    let id = created.r#match.expect("the match").match_id;
    for n in 0..moves {
        let m = within(client.get_match(pb::GetMatchRequest {
            match_id: id.clone(),
        }))
        .await
        .expect("get")
        .into_inner()
        .r#match
        .expect("the match");
        let seat = match m.state.as_ref().map(|s| s.to_move) {
            Some(p) if p == pb::Player::North as i32 => 1,
            _ => 0,
        };
        let request = pb::SubmitMoveRequest {
            match_id: id.clone(),
            r#move: Some(m.legal_moves[n % m.legal_moves.len()].clone()),
            expected_version: Some(m.version),
            request_id: String::new(),
        };
        within(client.submit_move(authed(request, &created.tokens[seat].token)))
            .await
            .expect("a legal move is accepted");
    }
}

#[tokio::test]
async fn a_client_trusting_the_ca_creates_a_match_and_plays_over_tls() {
    let pki = TestPki::new();
    let server =
        TestServer::start_as(|s| pki.configure(s, false), Some(trusting(&pki.ca_pem))).await;
    within(server.new_game(pb::GameKind::BaoLaKete)).await;
    play_a_match(server.channel.clone(), 6).await;

    // By name as well as by address: the certificate covers both.
    let by_name = Endpoint::from_shared(format!("https://localhost:{}", server.addr.port()))
        .expect("uri")
        .tls_config(trusting(&pki.ca_pem))
        .expect("client TLS")
        .connect_lazy();
    new_game(by_name).await.expect("served over TLS by name");
}

#[tokio::test]
async fn plaintext_clients_and_clients_trusting_another_ca_are_refused() {
    let pki = TestPki::new();
    // A long handshake timeout: a refusal below comes from the handshake failing, not from the timer.
    let server = TestServer::start_as(
        |s| {
            pki.configure(s, false);
            s.server.handshake_timeout = Duration::from_secs(600);
        },
        Some(trusting(&pki.ca_pem)),
    )
    .await;
    new_game(lazy_channel(&server, None))
        .await
        .expect_err("a plaintext client is refused on the TLS port");
    new_game(lazy_channel(&server, Some(trusting(&pki.other_ca_pem))))
        .await
        .expect_err("a client that does not trust the server's CA fails");
    new_game(server.channel.clone())
        .await
        .expect("the server still serves a TLS client");
}

#[tokio::test]
async fn with_mtls_a_client_needs_a_certificate_signed_by_the_client_ca() {
    let pki = TestPki::new();
    let with_identity = trusting(&pki.ca_pem).identity(Identity::from_pem(
        &pki.client_cert_pem,
        &pki.client_key_pem,
    ));
    let server = TestServer::start_as(|s| pki.configure(s, true), Some(with_identity)).await;
    play_a_match(server.channel.clone(), 2).await;

    new_game(lazy_channel(&server, Some(trusting(&pki.ca_pem))))
        .await
        .expect_err("a TLS client without a certificate is refused");
    new_game(lazy_channel(&server, None))
        .await
        .expect_err("a plaintext client is refused");
}

#[tokio::test]
async fn a_connection_that_never_starts_tls_is_closed_at_the_handshake_timeout() {
    let pki = TestPki::new();
    let server = TestServer::start_as(
        |s| {
            pki.configure(s, false);
            s.server.handshake_timeout = Duration::from_millis(200);
        },
        Some(trusting(&pki.ca_pem)),
    )
    .await;
    let mut silent = TcpStream::connect(server.addr).await.expect("connect");
    let mut buf = [0u8; 64];
    let read = within(silent.read(&mut buf)).await;
    assert!(
        matches!(read, Ok(0) | Err(_)),
        "the server closes a connection that never sends a ClientHello, sending nothing: {read:?}"
    );
    new_game(server.channel.clone())
        .await
        .expect("the server still serves");
}

#[tokio::test]
async fn handshakes_that_never_finish_do_not_hold_up_other_clients() {
    let pki = TestPki::new();
    let server = TestServer::start_as(
        |s| {
            pki.configure(s, false);
            // Nothing closes the silent connections during the test: if a handshake ran in the accept
            // loop, the client below would wait behind them.
            s.server.handshake_timeout = Duration::from_secs(600);
        },
        Some(trusting(&pki.ca_pem)),
    )
    .await;
    let _silent = TcpStream::connect(server.addr).await.expect("connect");
    let _also_silent = TcpStream::connect(server.addr).await.expect("connect");
    new_game(lazy_channel(&server, Some(trusting(&pki.ca_pem))))
        .await
        .expect("a new TLS client is served while two connections say nothing");
}

#[tokio::test]
async fn the_binary_logs_tls_and_answers_probes_in_plaintext_on_its_health_port() {
    use tonic_health::pb::{health_check_response::ServingStatus, health_client::HealthClient};
    let pki = TestPki::new();
    let (cert, key, ca) = (
        pki.server_cert_file.to_str().expect("UTF-8 path"),
        pki.server_key_file.to_str().expect("UTF-8 path"),
        pki.ca_file.to_str().expect("UTF-8 path"),
    );
    let replica = Replica::start(&[
        ("MANCALA__MATCHES__STORE", "memory"),
        ("MANCALA__TLS__CERT_FILE", cert),
        ("MANCALA__TLS__KEY_FILE", key),
        ("MANCALA__TLS__CLIENT_CA_FILE", ca),
        ("MANCALA__SERVER__HEALTH_LISTEN", "127.0.0.1:0"),
    ])
    .await;
    assert!(
        replica
            .startup_messages
            .iter()
            .any(|m| m == "serving TLS with client certificates required (mTLS)"),
        "{:?}",
        replica.startup_messages
    );

    // The kubelet's way: plaintext, no certificate, on the health port.
    let health_port = replica.health.expect("the health listener");
    let plain = Endpoint::from_shared(format!("http://{health_port}"))
        .expect("uri")
        .connect_lazy();
    for service in ["", "mancala.v1.Rules"] {
        let answer = within(HealthClient::new(plain.clone()).check(
            tonic_health::pb::HealthCheckRequest {
                service: service.into(),
            },
        ))
        .await
        .expect("a plaintext health check answers")
        .into_inner();
        assert_eq!(answer.status, ServingStatus::Serving as i32, "{service:?}");
    }
    // Health is all it serves.
    let status = new_game(plain)
        .await
        .expect_err("no Rules on the health port");
    assert_eq!(status.code(), tonic::Code::Unimplemented, "{status:?}");

    // The main port wants TLS and a client certificate.
    let main_port = format!("https://{}", replica.addr);
    let tls = trusting(&pki.ca_pem).identity(Identity::from_pem(
        &pki.client_cert_pem,
        &pki.client_key_pem,
    ));
    let channel = Endpoint::from_shared(main_port)
        .expect("uri")
        .tls_config(tls)
        .expect("client TLS")
        .connect_lazy();
    new_game(channel).await.expect("served over mTLS");
    let plain_main = Endpoint::from_shared(format!("http://{}", replica.addr))
        .expect("uri")
        .connect_lazy();
    new_game(plain_main)
        .await
        .expect_err("plaintext is refused on the main port");
}

#[tokio::test]
async fn idle_tls_connections_and_failed_handshakes_are_closed_and_counted() {
    let pki = TestPki::new();
    let (cert, key) = (
        pki.server_cert_file.to_str().expect("UTF-8 path"),
        pki.server_key_file.to_str().expect("UTF-8 path"),
    );
    let replica = Replica::start(&[
        ("MANCALA__MATCHES__STORE", "memory"),
        ("MANCALA__TLS__CERT_FILE", cert),
        ("MANCALA__TLS__KEY_FILE", key),
        ("MANCALA__SERVER__IDLE_TIMEOUT_MS", "200"),
        ("MANCALA__METRICS__LISTEN", "127.0.0.1:0"),
    ])
    .await;
    let tls = Endpoint::from_shared(format!("https://{}", replica.addr))
        .expect("uri")
        .tls_config(trusting(&pki.ca_pem))
        .expect("client TLS")
        .connect_lazy();
    // Kept open: the server, not the client, must close it.
    new_game(tls.clone()).await.expect("served over TLS");
    let plain = Endpoint::from_shared(format!("http://{}", replica.addr))
        .expect("uri")
        .connect_lazy();
    new_game(plain).await.expect_err("plaintext is refused");

    // The TLS connection, idle after its call, is closed by the idle timer, which reads the decrypted
    // stream as it reads a plaintext one; the refused one is counted apart.
    let counted = |body: &str, reason: &str| {
        body.lines().any(|l| {
            l.starts_with(&format!(
                "mancala_connections_closed_total{{reason=\"{reason}\"}} "
            )) && !l.ends_with(" 0")
        })
    };
    within(async {
        loop {
            let (_, body) = replica.scrape("/metrics");
            if counted(&body, "idle_timeout") && counted(&body, "tls_handshake_failed") {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
    drop(tls);
}
