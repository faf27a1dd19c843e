//! The layer that counts each connection's calls in flight (the idle timeout reads the count), and hands a
//! call its connection's TCP info and the client's verified certificates.

use std::{
    pin::Pin,
    sync::{atomic::Ordering, Arc},
    task::{Context, Poll},
    time::Instant,
};

use crate::middleware::{Layer, Middleware, OnResponse, Then};

use http_body::{Body, Frame, SizeHint};

use super::connection::{CallCount, ConnectionInfo};

/// Counts each connection's calls in flight; see [`Connections::layer`].
///
/// It also puts the connection's [`TcpConnectInfo`] in the request, where
/// `tonic::Request::remote_addr` looks for it, and the client's verified certificates
/// ([`PeerCertificates`]) when it presented some.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Calls;

/// The layer of [`Calls`].
pub(crate) type CallsLayer = Layer<Calls>;

impl<S, ReqBody, ResBody> Middleware<S, http::Request<ReqBody>> for Calls
where
    S: tower_service::Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
{
    type Response = http::Response<CallBody<ResBody>>;
    type Future = Then<S::Future, Call>;

    fn call(&self, inner: &mut S, mut request: http::Request<ReqBody>) -> Self::Future {
        let info = request.extensions().get::<ConnectionInfo>().cloned();
        let call = info.map(|info| {
            if let Some(peer) = info.peer.get() {
                request.extensions_mut().insert(peer.clone());
            }
            request.extensions_mut().insert(info.tcp);
            InFlight::new(info.calls)
        });
        Then::new(inner.call(request), Call(call))
    }
}

/// A call counted while it is in flight (none when the connection is not one of ours).
pub(crate) struct Call(Option<InFlight>);

impl<B> OnResponse<http::Response<B>> for Call {
    type Output = http::Response<CallBody<B>>;

    fn on_response(self, response: http::Response<B>) -> Self::Output {
        // The call lasts as long as its response body: a stream is in flight until it ends.
        response.map(|inner| CallBody {
            inner,
            _call: self.0,
        })
    }
}

/// One call in flight on a connection, until dropped.
#[derive(Debug)]
struct InFlight(Arc<CallCount>);

impl InFlight {
    fn new(calls: Arc<CallCount>) -> InFlight {
        calls.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(calls)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        // Idle time starts now; written before the count drops so the timer never sees zero
        // calls with an old idle time.
        self.0.mark_idle(Instant::now());
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

pin_project_lite::pin_project! {
    /// A response body that keeps its call counted until hyper drops it.
    pub(crate) struct CallBody<B> {
        #[pin]
        inner: B,
        _call: Option<InFlight>,
    }
}

impl<B: Body> Body for CallBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        self.project().inner.poll_frame(cx)
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
    use std::sync::{
        atomic::{AtomicU64, AtomicUsize},
        OnceLock,
    };
    use tokio_rustls::rustls::pki_types::CertificateDer;
    use tonic::transport::server::TcpConnectInfo;

    use crate::tls::PeerCertificates;

    /// Answers with what the request's extensions held: the client's certificates, the TCP info.
    struct Extensions;

    impl tower_service::Service<http::Request<()>> for Extensions {
        type Response = http::Response<(Option<PeerCertificates>, bool)>;
        type Error = std::convert::Infallible;
        type Future = std::future::Ready<Result<Self::Response, Self::Error>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, request: http::Request<()>) -> Self::Future {
            let peer = request.extensions().get::<PeerCertificates>().cloned();
            let tcp = request.extensions().get::<TcpConnectInfo>().is_some();
            std::future::ready(Ok(http::Response::new((peer, tcp))))
        }
    }

    #[tokio::test]
    async fn a_verified_client_certificate_reaches_the_request_and_plaintext_has_none() {
        use tower_layer::Layer;
        use tower_service::Service;
        let info = ConnectionInfo {
            tcp: TcpConnectInfo {
                local_addr: None,
                remote_addr: None,
            },
            calls: Arc::new(CallCount {
                accepted: Instant::now(),
                in_flight: AtomicUsize::new(0),
                idle_since_ms: AtomicU64::new(0),
            }),
            peer: Arc::new(OnceLock::new()),
        };
        let mut service = crate::middleware::Layer(Calls).layer(Extensions);
        let request = || {
            let mut request = http::Request::new(());
            request.extensions_mut().insert(info.clone());
            request
        };
        let (peer, tcp) = service
            .call(request())
            .await
            .expect("answered")
            .into_body()
            .inner;
        assert_eq!(
            peer, None,
            "no certificate before (or without) a TLS handshake"
        );
        assert!(tcp, "the TCP info is there for tonic's remote_addr");

        // The handshake fills the cell after tonic took the connection's info: later calls see it.
        let chain = [CertificateDer::from(vec![0x30, 0x03, 0x02, 0x01, 0x01])];
        let _ = info
            .peer
            .set(PeerCertificates::new(&chain).expect("a chain"));
        let (peer, _) = service
            .call(request())
            .await
            .expect("answered")
            .into_body()
            .inner;
        let peer = peer.expect("the client's certificates");
        assert_eq!(peer.end_entity(), &chain[0]);
        assert_eq!(peer.chain().len(), 1);
        assert_eq!(
            PeerCertificates::new(&[]),
            None,
            "no certificate is no chain"
        );
    }
}
