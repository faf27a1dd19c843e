//! Browsers on the gRPC port: the board page and grpc-web, beside native gRPC.
//!
//! [`BrowsersLayer`] sorts each request before the services see it:
//! - a `GET` or `HEAD` is for the board page (`src/web/`, built into `src/web/dist/` and embedded here): its
//!   files are answered from memory, any other path is 404. gRPC never uses `GET`, so nothing is taken from it.
//! - a grpc-web call (`content-type: application/grpc-web…`), a CORS preflight (`OPTIONS`) or any request with
//!   an `Origin` header goes through tower-http's CORS (the origins of `server.cors_allowed_origins`) and
//!   tonic-web, which turns grpc-web into gRPC for the services and the answer back, trailers included.
//! - everything else, every call of a native gRPC client, goes straight to the services: the browsers' layers
//!   cost it nothing (tonic-web would box each response body, CORS would add `vary` to each answer).
//!
//! The same origin as the page needs no CORS at all: a browser sends no preflight for it, and the `Origin` header
//! it may send on a `POST` names an origin the layer lets through (`server.cors_allowed_origins` only adds others).

use std::{
    convert::Infallible,
    future::Future,
    pin::Pin,
    task::{ready, Context, Poll},
    time::Duration,
};

use bytes::Bytes;
use http::{header, HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::{Either, Full};
use tonic_web::{GrpcWebLayer, GrpcWebService};
use tower_http::cors::{AllowOrigin, Cors, CorsLayer};
use tower_layer::Layer;
use tower_service::Service;

use crate::config::CorsOrigins;

/// One file of the board page.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

/// The built page (`npm run build` in `src/web/`; `.ci/web` checks it is what the sources make).
const ASSETS: [Asset; 3] = [
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("../web/dist/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../web/dist/app.js"),
    },
    Asset {
        path: "/app.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../web/dist/app.css"),
    },
];

/// What the page may load and call: its own files and its own origin, nothing inline, never framed.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The request headers a grpc-web client sends (Connect's and grpc-web's own clients), which a preflight asks for.
const GRPC_WEB_REQUEST_HEADERS: [&str; 6] = [
    "content-type",
    "authorization",
    "x-grpc-web",
    "x-user-agent",
    "grpc-timeout",
    "connect-timeout-ms",
];

/// The response headers a cross-origin page may read: the status lives in them for a trailers-only answer.
const GRPC_WEB_RESPONSE_HEADERS: [&str; 3] =
    ["grpc-status", "grpc-message", "grpc-status-details-bin"];

/// How long a browser may reuse a preflight's answer.
const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(600);

/// The layer of the module doc.
#[derive(Debug, Clone)]
pub(super) struct BrowsersLayer {
    cors: CorsLayer,
}

impl BrowsersLayer {
    /// Browsers served from `origins` besides the page's own may call.
    pub(super) fn new(origins: &CorsOrigins) -> BrowsersLayer {
        let allow_origin = match origins {
            CorsOrigins::Any => AllowOrigin::any(),
            CorsOrigins::List(list) => AllowOrigin::list(
                list.iter()
                    .filter_map(|origin| HeaderValue::from_str(origin).ok()),
            ),
        };
        let cors = CorsLayer::new()
            .allow_origin(allow_origin)
            .allow_methods([Method::POST])
            .allow_headers(GRPC_WEB_REQUEST_HEADERS.map(header::HeaderName::from_static))
            .expose_headers(GRPC_WEB_RESPONSE_HEADERS.map(header::HeaderName::from_static))
            .max_age(PREFLIGHT_MAX_AGE);
        BrowsersLayer { cors }
    }
}

impl<S: Clone> Layer<S> for BrowsersLayer {
    type Service = Browsers<S>;

    fn layer(&self, inner: S) -> Browsers<S> {
        Browsers {
            web: self.cors.layer(GrpcWebLayer::new().layer(inner.clone())),
            native: inner,
        }
    }
}

/// See the module doc.
#[derive(Debug, Clone)]
pub(super) struct Browsers<S> {
    web: Cors<GrpcWebService<S>>,
    native: S,
}

/// The answer's body: an embedded file, a grpc-web answer, or a native one.
type BrowsersBody<B> = Either<Either<Full<Bytes>, tonic::body::Body>, B>;

/// The grpc-web path of [`Browsers`].
type Web<S> = Cors<GrpcWebService<S>>;

impl<S, ResBody> Service<Request<tonic::body::Body>> for Browsers<S>
where
    S: Service<Request<tonic::body::Body>, Response = Response<ResBody>, Error = Infallible>,
    Web<S>: Service<
        Request<tonic::body::Body>,
        Response = Response<tonic::body::Body>,
        Error = Infallible,
    >,
{
    type Response = Response<BrowsersBody<ResBody>>;
    type Error = Infallible;
    type Future =
        BrowsersFuture<S::Future, <Web<S> as Service<Request<tonic::body::Body>>>::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        ready!(self.native.poll_ready(cx))?;
        <Web<S> as Service<Request<tonic::body::Body>>>::poll_ready(&mut self.web, cx)
    }

    fn call(&mut self, request: Request<tonic::body::Body>) -> Self::Future {
        if matches!(*request.method(), Method::GET | Method::HEAD) {
            let head = request.method() == Method::HEAD;
            return BrowsersFuture::Page {
                response: Some(page(request.uri().path(), head)),
            };
        }
        if from_browser(&request) {
            BrowsersFuture::Web {
                future: self.web.call(request),
            }
        } else {
            BrowsersFuture::Native {
                future: self.native.call(request),
            }
        }
    }
}

/// Whether the request needs grpc-web or CORS.
fn from_browser<B>(request: &Request<B>) -> bool {
    request.method() == Method::OPTIONS
        || request.headers().contains_key(header::ORIGIN)
        || request
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|value| value.as_bytes().starts_with(b"application/grpc-web"))
}

/// The embedded file at `path`, or 404.
fn page(path: &str, head: bool) -> Response<Full<Bytes>> {
    let (status, content_type, body) = match ASSETS.iter().find(|asset| asset.path == path) {
        Some(asset) => (StatusCode::OK, asset.content_type, asset.body),
        None => (
            StatusCode::NOT_FOUND,
            "text/plain; charset=utf-8",
            &b"not found: the board page is at /\n"[..],
        ),
    };
    let length = body.len();
    let body = if head {
        Bytes::new()
    } else {
        Bytes::from_static(body)
    };
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    // The files change with the binary, under the same names: always ask again (they are small).
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

pin_project_lite::pin_project! {
    /// The answer of [`Browsers`], whichever way the request went.
    #[project = BrowsersProj]
    pub(super) enum BrowsersFuture<N, W> {
        Page { response: Option<Response<Full<Bytes>>> },
        Web { #[pin] future: W },
        Native { #[pin] future: N },
    }
}

impl<B, N, W> Future for BrowsersFuture<N, W>
where
    N: Future<Output = Result<Response<B>, Infallible>>,
    W: Future<Output = Result<Response<tonic::body::Body>, Infallible>>,
{
    type Output = Result<Response<BrowsersBody<B>>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let response = match self.project() {
            BrowsersProj::Page { response } => response
                .take()
                .expect("polled after completion")
                .map(|body| Either::Left(Either::Left(body))),
            BrowsersProj::Web { future } => {
                ready!(future.poll(cx))?.map(|body| Either::Left(Either::Right(body)))
            }
            BrowsersProj::Native { future } => ready!(future.poll(cx))?.map(Either::Right),
        };
        Poll::Ready(Ok(response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_files_are_served_and_other_paths_are_404() {
        let index = page("/", false);
        assert_eq!(index.status(), StatusCode::OK);
        assert!(index.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        for asset in ["/app.js", "/app.css"] {
            assert_eq!(page(asset, false).status(), StatusCode::OK, "{asset}");
        }
        assert_eq!(page("/index.php", false).status(), StatusCode::NOT_FOUND);
        let head = page("/app.js", true);
        assert_eq!(
            head.headers()[header::CONTENT_LENGTH],
            HeaderValue::from(ASSETS[1].body.len())
        );
    }

    #[test]
    fn only_browser_requests_take_the_grpc_web_path() {
        let request = |method: Method, headers: &[(&str, &str)]| {
            let mut builder = Request::builder()
                .method(method)
                .uri("/mancala.v1.Rules/NewGame");
            for (name, value) in headers {
                builder = builder.header(*name, *value);
            }
            builder.body(()).unwrap()
        };
        assert!(!from_browser(&request(
            Method::POST,
            &[("content-type", "application/grpc")]
        )));
        assert!(from_browser(&request(
            Method::POST,
            &[("content-type", "application/grpc-web+proto")]
        )));
        assert!(from_browser(&request(Method::OPTIONS, &[])));
        assert!(from_browser(&request(
            Method::POST,
            &[
                ("content-type", "application/grpc"),
                ("origin", "http://a.example")
            ]
        )));
    }
}
