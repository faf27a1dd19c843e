//! Clients from other addresses on one machine: Linux routes the whole of 127.0.0.0/8 to the loopback
//! interface, so a socket bound to 127.0.0.2 before it connects reaches the test server on 127.0.0.1 and is seen
//! there as another client.

use crate::support::server::within;
use hyper_util::rt::TokioIo;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::net::{TcpSocket, TcpStream};
use tonic::transport::{Channel, Endpoint, Uri};

/// `127.0.0.<last>`.
pub fn loopback(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

/// A TCP connection to `server` from `local` (any free port of it).
pub async fn connect_from(local: IpAddr, server: SocketAddr) -> io::Result<TcpStream> {
    let socket = match local {
        IpAddr::V4(_) => TcpSocket::new_v4()?,
        IpAddr::V6(_) => TcpSocket::new_v6()?,
    };
    socket.bind(SocketAddr::new(local, 0))?;
    let stream = socket.connect(server).await?;
    // As tonic's own connector does: small gRPC frames go out at once, not after a delayed ACK (40 ms a call).
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// A channel to `server` whose connections come from `local`.
pub async fn channel_from(local: IpAddr, server: SocketAddr) -> Channel {
    within(
        Endpoint::from_shared(format!("http://{server}"))
            .expect("uri")
            .connect_with_connector(FromAddress { local, server }),
    )
    .await
    .expect("connect")
}

/// Connects to `server` from `local`.
#[derive(Clone, Copy)]
struct FromAddress {
    local: IpAddr,
    server: SocketAddr,
}

impl tower_service::Service<Uri> for FromAddress {
    type Response = TokioIo<TcpStream>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<TokioIo<TcpStream>>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: Uri) -> Self::Future {
        let FromAddress { local, server } = *self;
        Box::pin(async move { connect_from(local, server).await.map(TokioIo::new) })
    }
}
