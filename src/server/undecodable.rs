//! Requests that cannot be decoded are the client's error: INVALID_ARGUMENT, not INTERNAL.
//!
//! tonic (and prost through it) answers a request body it cannot decode — bytes that are not the method's
//! protobuf message, a bad compression flag, a stream cut inside a message, a unary call without its message —
//! with INTERNAL, the code of a server fault, which the gRPC status guide reserves for broken invariants. For a
//! service exposed to other companies' programs that is wrong twice: a client cannot tell its own bug from
//! ours, and every such call used to log a WARN. Decoding happens inside tonic's generated servers (ours and
//! the health and reflection services alike), before any handler runs, so this layer corrects the status on
//! its way out: in the headers of a trailers-only answer (unary and server-streaming calls) or in the trailers
//! of a stream (the reflection service's bidirectional one). Only tonic's own decoding messages are matched;
//! the INTERNAL of a real server fault passes unchanged.

use http::HeaderMap;
use http_body::{Body, Frame, SizeHint};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use crate::middleware::{Layer, Middleware, OnResponse, Then};

/// How tonic begins the message of each request-decoding failure it reports as INTERNAL (tonic 0.14,
/// tonic-prost 0.14: `codec/decode.rs`, `server/grpc.rs`, prost's `DecodeError`; tonic-web 0.14 `call.rs`,
/// whose every failure reading a browser's request body, such as grpc-web-text that is not base64, is
/// "tonic-web: …").
const DECODING_FAILURES: [&str; 6] = [
    "failed to decode Protobuf message",
    "protocol error: received message with",
    "Error decompressing",
    "Unexpected EOF decoding stream",
    "Missing request message",
    "tonic-web: ",
];

/// Rewrites a decoding failure's INTERNAL in `headers` (response headers or trailers) to INVALID_ARGUMENT.
fn correct(headers: &mut HeaderMap) {
    // Cheap test first: nearly every answer is OK, and parsing the status would decode its message.
    if headers.get("grpc-status").map(|s| s.as_bytes()) != Some(b"13") {
        return;
    }
    let Some(status) = tonic::Status::from_header_map(headers) else {
        return;
    };
    if DECODING_FAILURES
        .iter()
        .any(|prefix| status.message().starts_with(prefix))
    {
        let corrected = tonic::Status::invalid_argument(format!(
            "the request could not be decoded: {}",
            status.message()
        ));
        // Writing a status built from a message that was already a header value cannot fail.
        let _ = corrected.add_header(headers);
    }
}

/// The middleware (see the module doc).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Undecodable;

/// Its layer.
pub(super) const LAYER: Layer<Undecodable> = Layer(Undecodable);

impl<S, Req, ResBody> Middleware<S, http::Request<Req>> for Undecodable
where
    S: tower_service::Service<http::Request<Req>, Response = http::Response<ResBody>>,
{
    type Response = http::Response<CorrectedBody<ResBody>>;
    type Future = Then<S::Future, Undecodable>;

    fn call(&self, inner: &mut S, request: http::Request<Req>) -> Self::Future {
        Then::new(inner.call(request), Undecodable)
    }
}

impl<B> OnResponse<http::Response<B>> for Undecodable {
    type Output = http::Response<CorrectedBody<B>>;

    fn on_response(self, mut response: http::Response<B>) -> Self::Output {
        correct(response.headers_mut());
        response.map(|inner| CorrectedBody { inner })
    }
}

pin_project_lite::pin_project! {
    pub(super) struct CorrectedBody<B> {
        #[pin]
        inner: B,
    }
}

impl<B: Body> Body for CorrectedBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let frame = ready!(self.project().inner.poll_frame(cx));
        Poll::Ready(frame.map(|frame| {
            frame.map(|frame| match frame.into_trailers() {
                Ok(mut trailers) => {
                    correct(&mut trailers);
                    Frame::trailers(trailers)
                }
                Err(data) => data,
            })
        }))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(code: tonic::Code, message: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        tonic::Status::new(code, message)
            .add_header(&mut headers)
            .unwrap();
        headers
    }

    #[test]
    fn a_decoding_failure_becomes_invalid_argument() {
        let mut headers = status(
            tonic::Code::Internal,
            "failed to decode Protobuf message: invalid wire type value: 7",
        );
        correct(&mut headers);
        let corrected = tonic::Status::from_header_map(&headers).unwrap();
        assert_eq!(corrected.code(), tonic::Code::InvalidArgument);
        assert_eq!(
            corrected.message(),
            "the request could not be decoded: failed to decode Protobuf message: invalid wire type value: 7"
        );
    }

    #[test]
    fn a_server_fault_stays_internal() {
        let mut headers = status(
            tonic::Code::Internal,
            "appending a move failed; see the server log",
        );
        correct(&mut headers);
        assert_eq!(headers["grpc-status"], "13");
        let mut headers = status(tonic::Code::NotFound, "failed to decode Protobuf message");
        correct(&mut headers);
        assert_eq!(headers["grpc-status"], "5");
    }
}
