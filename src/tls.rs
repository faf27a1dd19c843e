//! Server TLS: the rustls configuration built from the `[tls]` PEM files, and the client certificate a
//! handler can read when mutual TLS is on.
//!
//! The configuration is built twice from the same files: once when the settings load, only to report a
//! missing or bad file before anything binds, and once by the server. The handshake itself runs in
//! `server::connections`, inside each connection, so that the connection cap and the handshake and idle
//! timeouts hold for TLS connections as for plaintext ones.
//!
//! ring is the one crypto provider, named here rather than taken from the process default, so that no
//! other provider a dependency might bring changes what the server negotiates.

use std::{fmt, path::Path, sync::Arc};

use rustls::pki_types::{pem::PemObject, CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{RootCertStore, ServerConfig};

/// The PEM files of a TLS listener, as named by the `[tls]` settings.
#[derive(Debug, Clone, Copy)]
pub struct Files<'a> {
    /// `tls.cert_file`: the server's certificate chain, leaf first.
    pub cert: &'a Path,
    /// `tls.key_file`: the certificate's private key.
    pub key: &'a Path,
    /// `tls.client_ca_file`: the CAs that sign client certificates; `None`: clients need none.
    pub client_ca: Option<&'a Path>,
}

/// A TLS file that cannot be used. Its `Display` is one line naming the setting and the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsError(String);

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TlsError {}

/// The certificate chain a client presented in the TLS handshake, leaf first.
///
/// With `tls.client_ca_file` set, the server puts it in the extensions of every request on that
/// connection (`request.extensions().get::<PeerCertificates>()`), so a handler can tell which client is
/// calling. The chain has been verified against the client CAs; nothing here parses it further.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerCertificates(Arc<[CertificateDer<'static>]>);

impl PeerCertificates {
    /// The chain as the client sent it; `None` for an empty one (no client certificate).
    pub fn new(chain: &[CertificateDer<'_>]) -> Option<PeerCertificates> {
        if chain.is_empty() {
            return None;
        }
        Some(PeerCertificates(
            chain.iter().map(|c| c.clone().into_owned()).collect(),
        ))
    }

    /// The client's own certificate (DER).
    pub fn end_entity(&self) -> &CertificateDer<'static> {
        &self.0[0]
    }

    /// The whole chain, the client's own certificate first.
    pub fn chain(&self) -> &[CertificateDer<'static>] {
        &self.0
    }
}

/// The protocol every TLS client must agree on: gRPC is HTTP/2 only, and clients such as grpc-go and
/// grpcio refuse a server that does not confirm it in ALPN.
const ALPN_H2: &[u8] = b"h2";

/// The server's TLS configuration from `files`: its certificate and key, ALPN `h2`, and client
/// certificates required and verified against the client CAs if they are given.
pub fn server_config(files: &Files<'_>) -> Result<Arc<ServerConfig>, TlsError> {
    let chain = certificates(files.cert, "tls.cert_file")?;
    let key = private_key(files.key)?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError(format!("cannot configure TLS: {e}")))?;
    let builder = match files.client_ca {
        None => builder.with_no_client_auth(),
        Some(path) => {
            let mut roots = RootCertStore::empty();
            for ca in certificates(path, "tls.client_ca_file")? {
                roots.add(ca).map_err(|e| {
                    TlsError(format!(
                        "tls.client_ca_file {}: not a usable CA certificate: {e}",
                        path.display()
                    ))
                })?;
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|e| {
                    TlsError(format!(
                        "tls.client_ca_file {}: cannot verify clients with it: {e}",
                        path.display()
                    ))
                })?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut config = builder.with_single_cert(chain, key).map_err(|e| {
        TlsError(format!(
            "tls.key_file {} does not go with tls.cert_file {}: {e}",
            files.key.display(),
            files.cert.display()
        ))
    })?;
    // HTTP/1.1 too, for browsers' grpc-web and the board page (a browser offers both and picks h2 when it can).
    config.alpn_protocols = vec![ALPN_H2.to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// The PEM certificates of `path`, at least one; `key` names the setting in errors.
fn certificates(path: &Path, key: &str) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let pem = read(path, key)?;
    let chain = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError(format!("{key} {}: bad PEM: {e}", path.display())))?;
    if chain.is_empty() {
        return Err(TlsError(format!(
            "{key} {}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it",
            path.display()
        )));
    }
    Ok(chain)
}

/// The first PEM private key of `path`.
fn private_key(path: &Path) -> Result<PrivateKeyDer<'static>, TlsError> {
    let pem = read(path, "tls.key_file")?;
    PrivateKeyDer::from_pem_slice(&pem).map_err(|e| match e {
        rustls::pki_types::pem::Error::NoItemsFound => TlsError(format!(
            "tls.key_file {}: no PEM private key (PKCS#8, PKCS#1 or SEC1) in it",
            path.display()
        )),
        e => TlsError(format!("tls.key_file {}: bad PEM: {e}", path.display())),
    })
}

fn read(path: &Path, key: &str) -> Result<Vec<u8>, TlsError> {
    std::fs::read(path).map_err(|e| TlsError(format!("{key} {}: cannot read: {e}", path.display())))
}
