//! `[tls]`: TLS on the gRPC listener and client certificates, and the check that its files come in pairs.

use std::path::PathBuf;

use serde::Deserialize;

use super::{de::optional_path, ConfigError};

/// `[tls]`: TLS on the gRPC listener (plaintext unless a certificate and its key are given). The files are
/// read and checked when the configuration loads, so a bad one stops the server before it binds.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlsSettings {
    /// The server's certificate chain, PEM, leaf first; `None` (`""`): plaintext.
    #[serde(deserialize_with = "optional_path")]
    pub cert_file: Option<PathBuf>,
    /// The private key of `cert_file`, PEM (PKCS#8, PKCS#1 or SEC1); set exactly when `cert_file` is.
    #[serde(deserialize_with = "optional_path")]
    pub key_file: Option<PathBuf>,
    /// CA certificates, PEM: when set, every client must present a certificate signed by one of them
    /// (mutual TLS); a client without one is refused in the handshake.
    #[serde(deserialize_with = "optional_path")]
    pub client_ca_file: Option<PathBuf>,
}

impl TlsSettings {
    /// The files of a TLS listener, or `None` for plaintext. A key without a certificate (or the other way
    /// round), or client CAs without either, is an error naming the missing key.
    pub fn files(&self) -> Result<Option<crate::tls::Files<'_>>, ConfigError> {
        match (&self.cert_file, &self.key_file) {
            (Some(cert), Some(key)) => Ok(Some(crate::tls::Files {
                cert,
                key,
                client_ca: self.client_ca_file.as_deref(),
            })),
            (Some(_), None) => Err(ConfigError::new(
                "tls.key_file must be set with tls.cert_file (the certificate's private key)",
            )),
            (None, Some(_)) => Err(ConfigError::new(
                "tls.cert_file must be set with tls.key_file (the certificate of that key)",
            )),
            (None, None) if self.client_ca_file.is_some() => Err(ConfigError::new(
                "tls.client_ca_file needs tls.cert_file and tls.key_file (client certificates are part of TLS)",
            )),
            (None, None) => Ok(None),
        }
    }
}
