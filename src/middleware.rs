//! The one shape of the server's hand-written tower middlewares (drain, undecodable requests, guessing, the
//! calls in flight, the call's span): a middleware states only what it does to a call ([`Middleware::call`])
//! and, when it does something to the response, what it does then ([`OnResponse`], run by [`Then`]). The layer
//! ([`Layer`]), the service in front of the inner one ([`Layered`]) and readiness (the inner service's) are
//! written here once.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// What a middleware does to a call, with the service `S` behind it. `Self` is the middleware's state (its
/// settings and handles), cloned into every service its layer makes.
pub trait Middleware<S: tower_service::Service<Req>, Req>: Clone {
    /// The response it hands back.
    type Response;
    /// The future of that response.
    type Future: Future<Output = Result<Self::Response, S::Error>>;

    /// Handles `request`, calling `inner` (ready: the service's readiness is the inner one's) or answering it
    /// itself.
    fn call(&self, inner: &mut S, request: Req) -> Self::Future;
}

/// The tower layer of the middleware `M`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Layer<M>(pub M);

impl<M: Clone, S> tower_layer::Layer<S> for Layer<M> {
    type Service = Layered<M, S>;

    fn layer(&self, inner: S) -> Layered<M, S> {
        Layered {
            middleware: self.0.clone(),
            inner,
        }
    }
}

/// The middleware `M` in front of the service `S`.
#[derive(Debug, Clone)]
pub struct Layered<M, S> {
    middleware: M,
    inner: S,
}

impl<M, S, Req> tower_service::Service<Req> for Layered<M, S>
where
    S: tower_service::Service<Req>,
    M: Middleware<S, Req>,
{
    type Response = M::Response;
    type Error = S::Error;
    type Future = M::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Req) -> M::Future {
        self.middleware.call(&mut self.inner, request)
    }
}

/// What a middleware does to its call's response `R` once the inner service gives it; `Self` is what it kept of
/// the call for that.
pub trait OnResponse<R> {
    /// The response it hands back.
    type Output;

    /// Makes the response handed back of the inner service's.
    fn on_response(self, response: R) -> Self::Output;
}

pin_project_lite::pin_project! {
    /// The future of a middleware's response: the inner service's, then [`OnResponse::on_response`] with what
    /// the middleware kept of the call (an error passes as it is).
    pub struct Then<F, K> {
        #[pin]
        inner: F,
        kept: Option<K>,
    }
}

impl<F, K> Then<F, K> {
    /// `inner`'s response, then `kept`'s work on it.
    pub fn new(inner: F, kept: K) -> Then<F, K> {
        Then {
            inner,
            kept: Some(kept),
        }
    }
}

impl<F, K, R, E> Future for Then<F, K>
where
    F: Future<Output = Result<R, E>>,
    K: OnResponse<R>,
{
    type Output = Result<K::Output, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = ready!(this.inner.poll(cx))?;
        let kept = this
            .kept
            .take()
            .expect("a middleware's future is polled after it completed");
        Poll::Ready(Ok(kept.on_response(response)))
    }
}
