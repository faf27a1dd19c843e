//! The bytes under a connection: plain TCP, or TLS over TCP, whose handshake the connection drives itself.

use std::{
    io,
    pin::Pin,
    task::{Context, Poll},
};

use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::TcpStream,
};
use tokio_rustls::{server::TlsStream, Accept};

/// The bytes under a [`Connection`]: TCP, or TLS over TCP once its handshake is done.
pub(super) enum Transport {
    Plain(TcpStream),
    /// The TLS handshake, under way (boxed: rustls' connection state is large).
    Accepting(Box<Accept<TcpStream>>),
    Tls(Box<TlsStream<TcpStream>>),
    /// The TLS handshake failed; the stream is gone.
    Failed,
}

impl AsyncRead for Transport {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_read(cx, buf),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_read(cx, buf),
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Err(not_established())),
        }
    }
}

impl AsyncWrite for Transport {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_write(cx, buf),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_write(cx, buf),
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Err(not_established())),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_write_vectored(cx, bufs),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_write_vectored(cx, bufs),
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Err(not_established())),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Transport::Plain(tcp) => tcp.is_write_vectored(),
            Transport::Tls(tls) => tls.is_write_vectored(),
            Transport::Accepting(_) | Transport::Failed => false,
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_flush(cx),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_flush(cx),
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Err(not_established())),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Transport::Plain(tcp) => Pin::new(tcp).poll_shutdown(cx),
            Transport::Tls(tls) => Pin::new(tls.as_mut()).poll_shutdown(cx),
            // Nothing to close politely: dropping the connection closes the socket.
            Transport::Accepting(_) | Transport::Failed => Poll::Ready(Ok(())),
        }
    }
}

/// [`Connection`] establishes the transport before any read or write reaches it.
fn not_established() -> io::Error {
    io::Error::new(
        io::ErrorKind::NotConnected,
        "the TLS handshake has not completed",
    )
}
