//! Step 3 of the shutdown ([`super`]'s module doc): a tower layer that ends every response stream
//! still waiting for its next message with UNAVAILABLE once the server drains, and the request
//! stream of the same call with it.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
};

use crate::middleware::{Layer, Middleware, OnResponse, Then};

use http_body::{Body, Frame, SizeHint};
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};

/// Ends idle response streams with UNAVAILABLE once the server drains (step 3 of the module doc).
///
/// A call whose response is ended that way also has its request stream ended (with an
/// UNAVAILABLE error, never a clean end a handler could mistake for the client's), so that a
/// handler still reading it lets go: HTTP/2 closes a stream, and so the connection, only once
/// both halves are released.
#[derive(Debug, Clone)]
pub(super) struct Drain {
    draining: CancellationToken,
}

impl Drain {
    /// The layer whose streams end once `draining` is cancelled.
    pub(super) fn layer(draining: CancellationToken) -> Layer<Drain> {
        Layer(Drain { draining })
    }
}

impl<S, ResBody> Middleware<S, http::Request<tonic::body::Body>> for Drain
where
    S: tower_service::Service<http::Request<tonic::body::Body>, Response = http::Response<ResBody>>,
{
    type Response = http::Response<DrainBody<ResBody>>;
    type Future = Then<S::Future, Cut>;

    fn call(&self, inner: &mut S, request: http::Request<tonic::body::Body>) -> Self::Future {
        let cut = CancellationToken::new();
        let request = request.map(|inner| {
            tonic::body::Body::new(DrainRequestBody {
                inner,
                cut: cut.clone(),
                waiting: None,
                ended: false,
            })
        });
        let kept = Cut {
            draining: self.draining.clone(),
            cut,
        };
        Then::new(inner.call(request), kept)
    }
}

/// A call's two tokens: the server's drain, and the one its response's end cancels to end its request too.
pub(super) struct Cut {
    draining: CancellationToken,
    cut: CancellationToken,
}

impl<B> OnResponse<http::Response<B>> for Cut {
    type Output = http::Response<DrainBody<B>>;

    fn on_response(self, response: http::Response<B>) -> Self::Output {
        response.map(|inner| DrainBody {
            inner,
            draining: self.draining,
            waiting: None,
            cut: self.cut,
        })
    }
}

pin_project_lite::pin_project! {
    pub(super) struct DrainBody<B> {
        #[pin]
        inner: B,
        draining: CancellationToken,
        // Made on the first wait only: unary answers are always ready and never pay for it.
        waiting: Option<Pin<Box<WaitForCancellationFutureOwned>>>,
        // Cancelled when this body has been cut; tells the request body to end too.
        cut: CancellationToken,
    }
}

impl<B: Body> Body for DrainBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        if this.cut.is_cancelled() {
            return Poll::Ready(None);
        }
        // What the stream already has goes out first (a health watcher sees NOT_SERVING).
        if let Poll::Ready(frame) = this.inner.poll_frame(cx) {
            return Poll::Ready(frame);
        }
        if wait(this.waiting, this.draining, cx).is_pending() {
            return Poll::Pending;
        }
        this.cut.cancel();
        let mut trailers = http::HeaderMap::new();
        trailers.insert(
            "grpc-status",
            http::HeaderValue::from(tonic::Code::Unavailable as i32),
        );
        trailers.insert(
            "grpc-message",
            http::HeaderValue::from_static(SHUTTING_DOWN),
        );
        Poll::Ready(Some(Ok(Frame::trailers(trailers))))
    }

    fn is_end_stream(&self) -> bool {
        self.cut.is_cancelled() || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        if self.cut.is_cancelled() {
            SizeHint::with_exact(0)
        } else {
            self.inner.size_hint()
        }
    }
}

pin_project_lite::pin_project! {
    pub(super) struct DrainRequestBody<B> {
        #[pin]
        inner: B,
        cut: CancellationToken,
        waiting: Option<Pin<Box<WaitForCancellationFutureOwned>>>,
        ended: bool,
    }
}

impl<B> Body for DrainRequestBody<B>
where
    B: Body<Error = tonic::Status>,
{
    type Data = B::Data;
    type Error = tonic::Status;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        if *this.ended {
            return Poll::Ready(None);
        }
        if let Poll::Ready(frame) = this.inner.poll_frame(cx) {
            return Poll::Ready(frame);
        }
        if wait(this.waiting, this.cut, cx).is_pending() {
            return Poll::Pending;
        }
        *this.ended = true;
        Poll::Ready(Some(Err(tonic::Status::unavailable(SHUTTING_DOWN))))
    }

    fn is_end_stream(&self) -> bool {
        self.ended || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The message of the UNAVAILABLE status that ends streams on shutdown.
const SHUTTING_DOWN: &str = "server is shutting down";

/// Polls `token`'s cancellation, making the waiting future on first use.
fn wait(
    waiting: &mut Option<Pin<Box<WaitForCancellationFutureOwned>>>,
    token: &CancellationToken,
    cx: &mut Context<'_>,
) -> Poll<()> {
    waiting
        .get_or_insert_with(|| Box::pin(token.clone().cancelled_owned()))
        .as_mut()
        .poll(cx)
}
