//! The server over real TCP: health, reflection, the message size limit and the drain on
//! shutdown, in-process through `server::run`, and the `mancala` binary as a subprocess.
//! Every await has a timeout; readiness needs no waiting because the listener is bound first.

use std::{
    future::Future,
    net::SocketAddr,
    process::{Child, Command, Stdio},
    time::Duration,
};

use crate::support::replica::lines_of;
use mancala::{
    api::pb,
    config::Settings,
    server::{self, ServeError},
};
use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};
use tonic::{transport::Channel, Code};
use tonic_health::pb::{
    health_check_response::ServingStatus, health_client::HealthClient, HealthCheckRequest,
};

const STEP: Duration = Duration::from_secs(10);

/// Awaits `future`, failing the test if it takes longer than [`STEP`].
async fn within<F: Future>(what: &str, future: F) -> F::Output {
    tokio::time::timeout(STEP, future)
        .await
        .unwrap_or_else(|_| panic!("timed out: {what}"))
}

/// A server running in this process.
struct TestServer {
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), ServeError>>,
}

impl TestServer {
    async fn start(settings: Settings) -> Self {
        let listener = within("bind", TcpListener::bind("127.0.0.1:0"))
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("bound address");
        let (shutdown, signal) = oneshot::channel::<()>();
        let task = tokio::spawn(server::run(listener, settings, async {
            let _ = signal.await;
        }));
        TestServer {
            addr,
            shutdown: Some(shutdown),
            task,
        }
    }

    async fn channel(&self) -> Channel {
        let endpoint = Channel::from_shared(format!("http://{}", self.addr)).expect("a valid URI");
        within("connect", endpoint.connect())
            .await
            .expect("connect to the server")
    }

    /// Starts the shutdown and waits until `run` returns.
    async fn stop(mut self) {
        self.shutdown
            .take()
            .expect("stopped once")
            .send(())
            .expect("the server is still waiting for its shutdown signal");
        within("server::run returns after shutdown", &mut self.task)
            .await
            .expect("the server task did not panic")
            .expect("the server stopped cleanly");
    }
}

/// Settings for tests: a small message limit, and a shutdown grace far longer than a test step,
/// so a server that stops in time has drained, not given up.
fn test_settings() -> Settings {
    let mut settings = Settings::default();
    // Tests share the working directory: no database file in it.
    settings.matches.store = mancala::config::StoreKind::Memory;
    settings.server.max_message_bytes = 4096;
    settings.server.shutdown_grace = Duration::from_secs(600);
    settings
}

async fn check(client: &mut HealthClient<Channel>, service: &str) -> Result<i32, tonic::Status> {
    let request = HealthCheckRequest {
        service: service.to_owned(),
    };
    within("health check", client.check(request))
        .await
        .map(|response| response.into_inner().status)
}

#[tokio::test]
async fn health_reports_serving_for_the_server_and_the_rules_service() {
    let server = TestServer::start(test_settings()).await;
    let mut health = HealthClient::new(server.channel().await);

    assert_eq!(
        check(&mut health, "").await.unwrap(),
        ServingStatus::Serving as i32
    );
    assert_eq!(
        check(&mut health, "mancala.v1.Rules").await.unwrap(),
        ServingStatus::Serving as i32
    );
    let unknown = check(&mut health, "mancala.v1.Nothing").await.unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);

    server.stop().await;
}

#[tokio::test]
async fn reflection_lists_every_service_in_both_versions() {
    use tonic_reflection::pb::{v1, v1alpha};
    let server = TestServer::start(test_settings()).await;
    let expected = [
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
        "mancala.v1.Admin",
        "mancala.v1.Diagnostics",
        "mancala.v1.Lobby",
        "mancala.v1.Matches",
        "mancala.v1.Players",
        "mancala.v1.Rules",
        "mancala.v1.Tournaments",
    ];

    let mut client =
        v1::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let request = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(
            String::new(),
        )),
    };
    let mut responses = within(
        "reflection v1",
        client.server_reflection_info(tokio_stream::iter([request])),
    )
    .await
    .expect("reflection v1 answers")
    .into_inner();
    let response = within("reflection v1 response", responses.message())
        .await
        .expect("a response")
        .expect("not the end of the stream");
    let Some(v1::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        response.message_response
    else {
        panic!("not a list of services: {response:?}");
    };
    let mut names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    names.sort();
    assert_eq!(names, expected);

    // The protocol itself is described, so tools like grpcurl can call it without the .proto.
    let request = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(
            v1::server_reflection_request::MessageRequest::FileContainingSymbol(
                "mancala.v1.Rules".to_owned(),
            ),
        ),
    };
    let mut responses = within(
        "reflection v1 symbol",
        client.server_reflection_info(tokio_stream::iter([request])),
    )
    .await
    .expect("reflection v1 answers")
    .into_inner();
    let response = within("reflection v1 symbol response", responses.message())
        .await
        .expect("a response")
        .expect("not the end of the stream");
    assert!(
        matches!(
            response.message_response,
            Some(v1::server_reflection_response::MessageResponse::FileDescriptorResponse(ref files))
                if !files.file_descriptor_proto.is_empty()
        ),
        "no descriptor for mancala.v1.Rules: {response:?}"
    );

    let mut client =
        v1alpha::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(
            v1alpha::server_reflection_request::MessageRequest::ListServices(String::new()),
        ),
    };
    let mut responses = within(
        "reflection v1alpha",
        client.server_reflection_info(tokio_stream::iter([request])),
    )
    .await
    .expect("reflection v1alpha answers")
    .into_inner();
    let response = within("reflection v1alpha response", responses.message())
        .await
        .expect("a response")
        .expect("not the end of the stream");
    let Some(v1alpha::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        response.message_response
    else {
        panic!("not a list of services: {response:?}");
    };
    let mut names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    names.sort();
    assert_eq!(names, expected);

    server.stop().await;
}

fn is_size_refusal(status: &tonic::Status) -> bool {
    matches!(status.code(), Code::OutOfRange | Code::ResourceExhausted)
}

#[tokio::test]
async fn messages_over_the_size_limit_are_refused() {
    let server = TestServer::start(test_settings()).await; // limit: 4096 bytes
    let mut rules = pb::rules_client::RulesClient::new(server.channel().await);

    let request = |pits: usize| pb::ApplyMoveRequest {
        state: Some(pb::GameState {
            pits: vec![100; pits],
            ..Default::default()
        }),
        ..Default::default()
    };
    // 5000 pits of one byte each: over the limit, refused before any handler runs.
    let refused = within("oversized ApplyMove", rules.apply_move(request(5000)))
        .await
        .expect_err("an oversized message is refused");
    assert!(is_size_refusal(&refused), "{refused:?}");

    // Under the limit, the message reaches the handler (whatever it then answers).
    let answer = within("small ApplyMove", rules.apply_move(request(12))).await;
    if let Err(status) = answer {
        assert!(
            !is_size_refusal(&status),
            "a small message was refused: {status:?}"
        );
    }

    // The limit holds for every service, not only Rules.
    let mut health = HealthClient::new(server.channel().await);
    let refused = check(&mut health, &"x".repeat(5000))
        .await
        .expect_err("an oversized health check is refused");
    assert!(is_size_refusal(&refused), "{refused:?}");

    server.stop().await;
}

#[tokio::test]
async fn shutdown_turns_health_not_serving_ends_open_streams_and_completes() {
    use tonic_reflection::pb::v1;
    let server = TestServer::start(test_settings()).await;
    let channel = server.channel().await;
    let mut health = HealthClient::new(channel.clone());

    // An open health watch: it hears SERVING now and NOT_SERVING as soon as shutdown starts.
    let request = HealthCheckRequest {
        service: "mancala.v1.Rules".to_owned(),
    };
    let mut watch = within("health watch", health.watch(request))
        .await
        .expect("watch starts")
        .into_inner();
    let first = within("first watch message", watch.message())
        .await
        .expect("a watch message")
        .expect("the watch is open");
    assert_eq!(first.status, ServingStatus::Serving as i32);

    // An open bidirectional stream whose client never finishes sending.
    let (_keep_open, requests) = tokio::sync::mpsc::channel::<v1::ServerReflectionRequest>(1);
    let mut reflection = v1::server_reflection_client::ServerReflectionClient::new(channel);
    let mut idle = within(
        "idle reflection stream",
        reflection.server_reflection_info(tokio_stream::wrappers::ReceiverStream::new(requests)),
    )
    .await
    .expect("the stream opens")
    .into_inner();

    // Neither stream would ever end by itself; `stop` returning within a test step (the grace is
    // ten minutes) shows the server ended them.
    let stopped = tokio::spawn(server.stop());

    let second = within("watch message after shutdown", watch.message())
        .await
        .expect("NOT_SERVING arrives before the stream ends")
        .expect("the watch is still open");
    assert_eq!(second.status, ServingStatus::NotServing as i32);
    let end = within("end of the watch", watch.message())
        .await
        .expect_err("the watch ends with a status");
    assert_eq!(end.code(), Code::Unavailable, "{end:?}");

    let end = within("end of the idle stream", idle.message())
        .await
        .expect_err("the idle stream ends with a status");
    assert_eq!(end.code(), Code::Unavailable, "{end:?}");

    within("server stops", stopped)
        .await
        .expect("the server stopped cleanly");
}

#[tokio::test]
async fn shutdown_without_connections_completes() {
    let server = TestServer::start(test_settings()).await;
    let addr = server.addr;
    server.stop().await;
    let refused = within(
        "connect after shutdown",
        tokio::net::TcpStream::connect(addr),
    )
    .await;
    assert!(refused.is_err(), "the listener is closed after shutdown");
}

/// The `mancala` binary, killed if a test fails before it exits.
struct Subprocess(Child);

impl Drop for Subprocess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for the next stdout line of the subprocess, parsed as JSON; `None` at its end.
async fn next_line(
    lines: &mut tokio::sync::mpsc::UnboundedReceiver<String>,
) -> Option<serde_json::Value> {
    let line = within("a log line from the subprocess", lines.recv()).await?;
    Some(
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON log line ({e}): {line}")),
    )
}

#[tokio::test]
async fn binary_serves_on_port_zero_logs_calls_and_stops_on_sigterm() {
    let child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .arg("serve")
        .env("MANCALA__SERVER__LISTEN", "127.0.0.1:0")
        .env("MANCALA__MATCHES__STORE", "memory")
        .env("MANCALA__LOG__FORMAT", "json")
        .env("MANCALA__LOG__FILTER", "info,mancala::request=debug")
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the mancala binary");
    let mut child = Subprocess(child);
    let stdout = child.0.stdout.take().expect("piped stdout");
    let mut lines = lines_of(stdout);

    let addr: SocketAddr = loop {
        let line = next_line(&mut lines)
            .await
            .expect("the server logs before exiting");
        if line["message"] == "listening" {
            let addr = line["addr"].as_str().expect("an addr field");
            break addr.parse().expect("a socket address");
        }
    };
    assert_ne!(addr.port(), 0);

    let channel = within(
        "connect to the subprocess",
        Channel::from_shared(format!("http://{addr}"))
            .expect("a valid URI")
            .connect(),
    )
    .await
    .expect("connect");
    let mut health = HealthClient::new(channel);
    assert_eq!(
        check(&mut health, "").await.unwrap(),
        ServingStatus::Serving as i32
    );

    // The call is logged at its end with its method, outcome and latency as fields.
    let logged = loop {
        let line = next_line(&mut lines).await.expect("the call is logged");
        if line["target"] == "mancala::request" {
            break line;
        }
    };
    assert_eq!(logged["grpc_status"], "OK", "{logged}");
    assert_eq!(logged["grpc_code"], 0, "{logged}");
    assert!(logged["latency_ms"].as_f64().is_some(), "{logged}");
    assert_eq!(
        logged["span"]["rpc.service"], "grpc.health.v1.Health",
        "{logged}"
    );
    assert_eq!(logged["span"]["rpc.method"], "Check", "{logged}");

    let pid = child.0.id().to_string();
    // The shell's own `kill`: no extra package, and no `unsafe` libc call in the tests.
    let killed = Command::new("sh")
        .args(["-c", &format!("kill -TERM {pid}")])
        .status()
        .expect("run sh -c kill");
    assert!(killed.success());
    let mut messages = Vec::new();
    while let Some(line) = next_line(&mut lines).await {
        messages.push(line["message"].as_str().unwrap_or_default().to_owned());
    }
    assert!(
        messages.iter().any(|m| m == "shutdown requested"),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.starts_with("stopped")),
        "{messages:?}"
    );
    // stdout is closed: the process has exited or is about to.
    let status = within(
        "the subprocess exits",
        tokio::task::spawn_blocking(move || child.0.wait()),
    )
    .await
    .expect("the waiting task did not panic")
    .expect("wait for the subprocess");
    assert!(status.success(), "exit status {status}");
}

#[tokio::test]
async fn a_second_server_on_a_data_directory_in_use_fails_clearly_and_never_says_listening() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data = dir.path().to_str().expect("a UTF-8 path").to_string();
    let start = move || {
        Command::new(env!("CARGO_BIN_EXE_mancala"))
            .arg("serve")
            .env("MANCALA__SERVER__LISTEN", "127.0.0.1:0")
            .env("MANCALA__MATCHES__DATA_DIR", &data)
            .env("MANCALA__LOG__FORMAT", "json")
            .env("MANCALA__LOG__FILTER", "info")
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the mancala binary")
    };
    let mut first = Subprocess(start());
    let stdout = first.0.stdout.take().expect("piped stdout");
    let mut lines = lines_of(stdout);
    while next_line(&mut lines).await.expect("the first server logs")["message"] != "listening" {}
    // The second one holds no lock on the store file: it exits at once, says why, and never claims to listen.
    let second = start();
    let second = within(
        "the second server exits",
        tokio::task::spawn_blocking(move || second.wait_with_output()),
    )
    .await
    .expect("joined")
    .expect("its output");
    assert!(!second.status.success());
    let stdout = String::from_utf8_lossy(&second.stdout);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(!stdout.contains("\"listening\""), "{stdout}");
    assert!(
        stderr.contains("cannot open the match store") && stderr.contains("mancala.redb"),
        "{stderr}"
    );
}
