//! Browsers on the gRPC port, as a browser speaks to it: HTTP/1.1, grpc-web frames, CORS preflights, and the
//! board page at `/`. A hyper HTTP/1.1 client plays the browser; the server is the real one on 127.0.0.1:0.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use http::{header, HeaderMap, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use mancala::api::pb;
use mancala::config::CorsOrigins;
use prost::Message;
use tokio::net::TcpStream;

use crate::support::server::{within, TestServer};

const ALLOWED: &str = "http://play.example.com";

async fn server() -> TestServer {
    TestServer::start_with(|s| {
        s.server.cors_allowed_origins = CorsOrigins::List(vec![ALLOWED.to_string()]);
    })
    .await
}

/// An HTTP/1.1 connection to the server.
async fn http1(server: &TestServer) -> hyper::client::conn::http1::SendRequest<Full<Bytes>> {
    let tcp = within(TcpStream::connect(server.addr))
        .await
        .expect("connect");
    let (sender, connection) = within(hyper::client::conn::http1::handshake(TokioIo::new(tcp)))
        .await
        .expect("HTTP/1.1 handshake");
    tokio::spawn(connection);
    sender
}

async fn send(server: &TestServer, request: Request<Full<Bytes>>) -> Response<Incoming> {
    let mut sender = http1(server).await;
    within(sender.send_request(request))
        .await
        .expect("an HTTP/1.1 answer")
}

/// A grpc-web request (binary, `application/grpc-web+proto`) of `message` to `path`.
fn grpc_web(path: &str, message: &impl Message, origin: Option<&str>) -> Request<Full<Bytes>> {
    let encoded = message.encode_to_vec();
    let mut body = BytesMut::new();
    body.put_u8(0);
    body.put_u32(encoded.len() as u32);
    body.put_slice(&encoded);
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::HOST, "127.0.0.1")
        .header(header::CONTENT_TYPE, "application/grpc-web+proto")
        .header("x-grpc-web", "1");
    if let Some(origin) = origin {
        request = request.header(header::ORIGIN, origin);
    }
    request.body(Full::new(body.freeze())).expect("request")
}

/// What a grpc-web answer body carries: its messages, then the trailers frame.
#[derive(Debug, Default)]
struct Frames {
    messages: Vec<Bytes>,
    trailers: HeaderMap,
}

/// Reads grpc-web frames from `body` until it ends, or until `stop_after` messages have arrived.
async fn frames(body: &mut Incoming, stop_after: Option<usize>) -> Frames {
    let mut buffer = BytesMut::new();
    let mut frames = Frames::default();
    loop {
        while buffer.len() >= 5 {
            let length = u32::from_be_bytes(buffer[1..5].try_into().unwrap()) as usize;
            if buffer.len() < 5 + length {
                break;
            }
            let flag = buffer[0];
            buffer.advance(5);
            let payload = buffer.split_to(length).freeze();
            if flag & 0x80 != 0 {
                for line in std::str::from_utf8(&payload)
                    .expect("text trailers")
                    .split("\r\n")
                {
                    if let Some((name, value)) = line.split_once(':') {
                        frames.trailers.insert(
                            header::HeaderName::from_bytes(name.trim().as_bytes()).unwrap(),
                            value.trim().parse().unwrap(),
                        );
                    }
                }
            } else {
                frames.messages.push(payload);
                if Some(frames.messages.len()) == stop_after {
                    return frames;
                }
            }
        }
        match within(body.frame()).await {
            Some(frame) => {
                if let Ok(data) = frame.expect("body frame").into_data() {
                    buffer.extend_from_slice(&data);
                }
            }
            None => return frames,
        }
    }
}

#[tokio::test]
async fn a_grpc_web_call_over_http1_answers_with_the_message_and_trailers_in_the_body() {
    let server = server().await;
    let request = pb::NewGameRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: None,
    };
    let mut response = send(
        &server,
        grpc_web("/mancala.v1.Rules/NewGame", &request, Some(ALLOWED)),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.version(), http::Version::HTTP_11);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "application/grpc-web+proto"
    );
    assert_eq!(
        response.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        ALLOWED
    );
    let exposed = response.headers()[header::ACCESS_CONTROL_EXPOSE_HEADERS]
        .to_str()
        .unwrap()
        .to_string();
    for name in ["grpc-status", "grpc-message", "grpc-status-details-bin"] {
        assert!(exposed.contains(name), "{name} not in {exposed}");
    }
    let frames = frames(response.body_mut(), None).await;
    assert_eq!(frames.trailers["grpc-status"], "0");
    assert_eq!(frames.messages.len(), 1);
    let answer =
        pb::NewGameResponse::decode(frames.messages[0].clone()).expect("a NewGameResponse");
    let state = answer.state.expect("a state");
    assert_eq!(state.pits, vec![4; 12]);
}

#[tokio::test]
async fn a_grpc_web_error_carries_its_status_message_and_details() {
    let server = server().await;
    let request = pb::NewGameRequest {
        kind: pb::GameKind::Unspecified as i32,
        options: None,
    };
    let mut response = send(
        &server,
        grpc_web("/mancala.v1.Rules/NewGame", &request, None),
    )
    .await;
    let (status, message, headers, trailers) = error_of(&mut response).await;
    assert_eq!(status, "3", "INVALID_ARGUMENT");
    assert!(!message.is_empty());
    assert!(
        headers.contains_key("grpc-status-details-bin")
            || trailers.contains_key("grpc-status-details-bin"),
        "the google.rpc details (BadRequest) travel too"
    );
}

/// The `grpc-status` and `grpc-message` of a grpc-web answer, and its headers and trailers. A trailers-only answer
/// has them in the headers, where the CORS exposure lets a page read them; others in the trailers frame.
async fn error_of(response: &mut Response<Incoming>) -> (String, String, HeaderMap, HeaderMap) {
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    let trailers = frames(response.body_mut(), None).await.trailers;
    let field = |name: &str| {
        headers
            .get(name)
            .or(trailers.get(name))
            .unwrap_or_else(|| panic!("a {name}"))
            .to_str()
            .expect("ASCII")
            .to_string()
    };
    (
        field("grpc-status"),
        field("grpc-message"),
        headers.clone(),
        trailers.clone(),
    )
}

/// Issue 34: a grpc-web-text body that is not base64 is the browser's error, INVALID_ARGUMENT, like any other
/// body that does not decode (it was INTERNAL, and logged at WARN).
#[tokio::test]
async fn grpc_web_text_that_is_not_base64_is_invalid_argument() {
    let server = server().await;
    let request = Request::builder()
        .method(Method::POST)
        .uri("/mancala.v1.Rules/DescribeGame")
        .header(header::HOST, "127.0.0.1")
        .header(header::CONTENT_TYPE, "application/grpc-web-text")
        .header("x-grpc-web", "1")
        .body(Full::new(Bytes::from_static(b"!!!not base64!!!")))
        .expect("request");
    let mut response = send(&server, request).await;
    let (status, message, ..) = error_of(&mut response).await;
    assert_eq!(status, "3", "INVALID_ARGUMENT, not INTERNAL: {message}");
    assert!(
        message.starts_with("the%20request%20could%20not%20be%20decoded"),
        "{message:?}"
    );
}

#[tokio::test]
async fn a_preflight_from_an_allowed_origin_is_answered_and_another_origin_is_not_allowed() {
    let server = server().await;
    let preflight = |origin: &str| {
        Request::builder()
            .method(Method::OPTIONS)
            .uri("/mancala.v1.Matches/WatchMatch")
            .header(header::HOST, "127.0.0.1")
            .header(header::ORIGIN, origin)
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .header(
                header::ACCESS_CONTROL_REQUEST_HEADERS,
                "content-type,x-grpc-web,authorization",
            )
            .body(Full::new(Bytes::new()))
            .unwrap()
    };
    let allowed = send(&server, preflight(ALLOWED)).await;
    assert!(allowed.status().is_success());
    assert_eq!(
        allowed.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        ALLOWED
    );
    let headers = allowed.headers()[header::ACCESS_CONTROL_ALLOW_HEADERS]
        .to_str()
        .unwrap()
        .to_string();
    for name in ["content-type", "x-grpc-web", "authorization"] {
        assert!(headers.contains(name), "{name} not in {headers}");
    }
    let other = send(&server, preflight("http://elsewhere.example")).await;
    assert!(!other
        .headers()
        .contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));
}

#[tokio::test]
async fn watch_match_streams_over_grpc_web_as_the_match_is_played() {
    let server = server().await;
    let mut matches = pb::matches_client::MatchesClient::new(server.channel.clone());
    let created = within(matches.create_match(pb::CreateMatchRequest {
        kind: pb::GameKind::Bosh as i32,
        ..Default::default()
    }))
    .await
    .expect("CreateMatch")
    .into_inner();
    let id = created.r#match.expect("a match").match_id;
    let south = created.tokens[0].token.clone();

    let watch = pb::WatchMatchRequest {
        match_id: id.clone(),
        ..Default::default()
    };
    let mut response = send(
        &server,
        grpc_web("/mancala.v1.Matches/WatchMatch", &watch, Some(ALLOWED)),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let first = frames(response.body_mut(), Some(1)).await;
    let snapshot = pb::WatchMatchResponse::decode(first.messages[0].clone()).expect("decodes");
    assert!(matches!(
        snapshot.kind,
        Some(pb::watch_match_response::Kind::Snapshot(_))
    ));

    // South opens with S5 (pit 4); the stream, still open, brings the event.
    let mut submit = tonic::Request::new(pb::SubmitMoveRequest {
        match_id: id,
        r#move: Some(pb::Move {
            action: Some(pb::r#move::Action::Sow(pb::Sow {
                pit: 4,
                ..Default::default()
            })),
        }),
        ..Default::default()
    });
    submit
        .metadata_mut()
        .insert("authorization", format!("Bearer {south}").parse().unwrap());
    within(matches.submit_move(submit))
        .await
        .expect("SubmitMove");
    loop {
        let next = frames(response.body_mut(), Some(1)).await;
        let message = pb::WatchMatchResponse::decode(next.messages[0].clone()).expect("decodes");
        match message.kind {
            Some(pb::watch_match_response::Kind::Event(event)) => {
                assert_eq!(event.seq, 1);
                assert!(!event.events.is_empty(), "the sowing trace comes along");
                break;
            }
            // A seat's presence or a heartbeat may come first.
            _ => continue,
        }
    }
}

#[tokio::test]
async fn the_board_page_is_served_at_the_root_over_http1() {
    let server = server().await;
    let get = |path: &str| {
        Request::builder()
            .uri(path)
            .header(header::HOST, "127.0.0.1")
            .body(Full::new(Bytes::new()))
            .unwrap()
    };
    let mut page = send(&server, get("/")).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = page.body_mut().collect().await.expect("body").to_bytes();
    let html = String::from_utf8_lossy(&html);
    assert!(
        html.contains("<script") && html.contains("app.js"),
        "{html}"
    );
    let script = send(&server, get("/app.js")).await;
    assert_eq!(script.status(), StatusCode::OK);
    assert_eq!(
        send(&server, get("/no-such-file")).await.status(),
        StatusCode::NOT_FOUND
    );
    // Native gRPC still works beside it.
    within(server.rules().new_game(pb::NewGameRequest {
        kind: pb::GameKind::Bosh as i32,
        options: None,
    }))
    .await
    .expect("NewGame over gRPC");
}

#[test]
fn cors_allowed_origins_accepts_origins_and_star_and_names_a_bad_one() {
    let load = |value: &str| {
        mancala::config::Settings::load_from(
            None,
            [(
                "MANCALA__SERVER__CORS_ALLOWED_ORIGINS".to_string(),
                value.to_string(),
            )],
        )
    };
    assert_eq!(
        load("https://Play.example.com, http://localhost:5173")
            .unwrap()
            .server
            .cors_allowed_origins,
        CorsOrigins::List(vec![
            "https://play.example.com".into(),
            "http://localhost:5173".into()
        ])
    );
    assert_eq!(
        load("*").unwrap().server.cors_allowed_origins,
        CorsOrigins::Any
    );
    assert_eq!(
        load("").unwrap().server.cors_allowed_origins,
        CorsOrigins::List(vec![])
    );
    for bad in [
        "play.example.com",
        "https://play.example.com/",
        "ftp://a",
        "http://a:99999",
    ] {
        let error = load(bad).expect_err(bad).to_string();
        assert!(
            error.contains("cors_allowed_origins") && error.contains("not an origin"),
            "{bad}: {error}"
        );
    }
}

/// The status of a grpc-web answer: in its headers (trailers-only) or its trailers frame; and its message.
async fn web_status(mut response: Response<Incoming>) -> (String, String) {
    let headers = response.headers().clone();
    let trailers = frames(response.body_mut(), None).await.trailers;
    let get = |name: &str| {
        headers
            .get(name)
            .or(trailers.get(name))
            .map(|v| v.to_str().expect("text").to_string())
            .unwrap_or_default()
    };
    (get("grpc-status"), get("grpc-message"))
}

#[tokio::test]
async fn grpc_web_calls_are_counted_by_the_browsers_address() {
    use crate::support::addresses::{connect_from, loopback};
    let server = TestServer::start_with(|s| s.addresses.max_active_matches = 1).await;
    let create = pb::CreateMatchRequest {
        kind: pb::GameKind::Bosh as i32,
        ..Default::default()
    };
    let send_from = |last: u8| {
        let (addr, request) = (
            server.addr,
            grpc_web("/mancala.v1.Matches/CreateMatch", &create, None),
        );
        async move {
            let tcp = within(connect_from(loopback(last), addr))
                .await
                .expect("connect");
            let (mut sender, connection) =
                within(hyper::client::conn::http1::handshake(TokioIo::new(tcp)))
                    .await
                    .expect("HTTP/1.1 handshake");
            tokio::spawn(connection);
            within(sender.send_request(request))
                .await
                .expect("an HTTP/1.1 answer")
        }
    };
    assert_eq!(web_status(send_from(2).await).await.0, "0");
    let (code, message) = web_status(send_from(2).await).await;
    assert_eq!(code, "8", "RESOURCE_EXHAUSTED: {message}");
    assert!(message.contains("127.0.0.2"), "{message}");
    assert_eq!(
        web_status(send_from(3).await).await.0,
        "0",
        "another browser's address has its own share"
    );
}
