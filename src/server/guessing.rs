//! Guessing is slowed: repeated UNAUTHENTICATED answers to one client address back that address off
//! (`[auth]`'s `failures_before_backoff`, `failure_window_ms`, `backoff_initial_ms`, `backoff_max_ms`).
//!
//! One layer around every service sees every answer, whichever check refused the credential: the operator key
//! (Admin), an API key or a player token (the interceptor), a seat token (the match, once read). Each
//! UNAUTHENTICATED answer to a call that carried a credential counts against its address
//! ([`crate::identity::callers::Guessing`]); past the threshold the address is backed off, logged once per episode
//! (WARN, with the address and the count) and counted (`mancala_auth_backoffs_total`). While it is, a call from it
//! with a credential is answered RESOURCE_EXHAUSTED (`AUTH_BACKOFF`, with `RetryInfo`) without the credential being
//! looked at, so that a guess costs the guesser a wait and tells him nothing. Each further failure doubles the next
//! backoff, up to `backoff_max_ms`; a window without failures ends the episode.
//!
//! Nobody else is slowed: other addresses are not counted together with it, calls without a credential (the
//! anonymous tenant, health, reflection) pass, and a credential this address has been answered for while suspected
//! passes too, so that a person behind the same address as a guesser (a NAT, an office) keeps the token that works.

use crate::api::error;
use crate::identity::{Address, Identity};
use crate::metrics::Metrics;
use crate::middleware::{Layer, Middleware};
use http_body::{Body, Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Instant;
use tonic::transport::server::TcpConnectInfo;

/// The middleware (see the module doc).
#[derive(Debug, Clone)]
pub(super) struct Guessing {
    identity: Identity,
    metrics: Metrics,
}

impl Guessing {
    /// The layer counting failures in `identity`'s table, backoffs in `metrics`.
    pub(super) fn layer(identity: Identity, metrics: Metrics) -> Layer<Guessing> {
        Layer(Guessing { identity, metrics })
    }
}

/// A credentialed call's address and credential, to count its answer.
#[derive(Debug)]
struct Attempt {
    identity: Identity,
    metrics: Metrics,
    address: Address,
    fingerprint: u64,
}

impl<S, Req, ResBody> Middleware<S, http::Request<Req>> for Guessing
where
    S: tower_service::Service<http::Request<Req>, Response = http::Response<ResBody>>,
{
    type Response = http::Response<GuardedBody<ResBody>>;
    type Future = GuardedFuture<S::Future>;

    fn call(&self, inner: &mut S, request: http::Request<Req>) -> Self::Future {
        let address = request
            .extensions()
            .get::<TcpConnectInfo>()
            .and_then(TcpConnectInfo::remote_addr)
            .map(|addr| Address::of(addr.ip()));
        let credential = request
            .headers()
            .get(crate::service::auth::AUTHORIZATION)
            .map(|value| value.as_bytes());
        let (Some(address), Some(credential)) = (address, credential) else {
            return GuardedFuture::Called {
                inner: inner.call(request),
                attempt: None,
            };
        };
        let guessing = self.identity.guessing();
        // The whole header value: a credential's fingerprint need not parse it.
        let fingerprint = guessing.fingerprint(&String::from_utf8_lossy(credential));
        if let Some(retry_after) = guessing.refused(address, fingerprint, Instant::now()) {
            self.metrics.caller_refused("auth_backoff");
            tracing::debug!(%address, "credential not checked: the address is backed off");
            return GuardedFuture::Refused {
                status: Some(error::backed_off(retry_after)),
            };
        }
        GuardedFuture::Called {
            inner: inner.call(request),
            attempt: Some(Attempt {
                identity: self.identity.clone(),
                metrics: self.metrics.clone(),
                address,
                fingerprint,
            }),
        }
    }
}

impl Attempt {
    /// Counts the answer of `headers` (a trailers-only answer carries its status there; a call answered with
    /// messages was admitted, whatever its trailers say).
    fn answered(self, headers: &http::HeaderMap) {
        let guessing = self.identity.guessing();
        // 16: UNAUTHENTICATED.
        if headers.get("grpc-status").map(|s| s.as_bytes()) == Some(b"16") {
            if let Some(episode) = guessing.failed(self.address, Instant::now()) {
                self.metrics.auth_backoff();
                tracing::warn!(
                    address = %self.address,
                    failures = episode.failures,
                    backoff_ms = episode.backoff.as_millis() as u64,
                    "repeated refused credentials: backing the address off (auth.failures_before_backoff)"
                );
            }
        } else {
            guessing.succeeded(self.address, self.fingerprint);
        }
    }
}

pin_project_lite::pin_project! {
    #[project = GuardedProjection]
    pub(super) enum GuardedFuture<F> {
        Refused { status: Option<tonic::Status> },
        Called {
            #[pin]
            inner: F,
            attempt: Option<Attempt>,
        },
    }
}

impl<F, B, E> Future for GuardedFuture<F>
where
    F: Future<Output = Result<http::Response<B>, E>>,
{
    type Output = Result<http::Response<GuardedBody<B>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            GuardedProjection::Refused { status } => Poll::Ready(Ok(status
                .take()
                .expect("a refused future is polled to completion once")
                .into_http())),
            GuardedProjection::Called { inner, attempt } => {
                let response = ready!(inner.poll(cx))?;
                if let Some(attempt) = attempt.take() {
                    attempt.answered(response.headers());
                }
                Poll::Ready(Ok(response.map(|inner| GuardedBody { inner: Some(inner) })))
            }
        }
    }
}

pin_project_lite::pin_project! {
    /// The service's answer, or nothing for a refusal (its status is in the headers).
    pub(super) struct GuardedBody<B> {
        #[pin]
        inner: Option<B>,
    }
}

impl<B> Default for GuardedBody<B> {
    fn default() -> Self {
        GuardedBody { inner: None }
    }
}

impl<B: Body> Body for GuardedBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        match self.project().inner.as_pin_mut() {
            Some(inner) => inner.poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.as_ref().is_none_or(Body::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        self.inner
            .as_ref()
            .map_or_else(|| SizeHint::with_exact(0), Body::size_hint)
    }
}
