//! Certificates made for one test with rcgen, written as PEM files to a temporary directory that goes
//! with them: a CA, a server certificate for `localhost` and 127.0.0.1, and a client certificate, both
//! signed by the CA. No private key is ever committed to the repository.

use std::path::PathBuf;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

/// A test PKI: PEM texts, and the same written to files in a directory deleted on drop.
pub struct TestPki {
    pub ca_pem: String,
    pub client_cert_pem: String,
    pub client_key_pem: String,
    pub ca_file: PathBuf,
    pub server_cert_file: PathBuf,
    pub server_key_file: PathBuf,
    pub client_cert_file: PathBuf,
    pub client_key_file: PathBuf,
    /// A second CA that signed nothing here: a client trusting it does not trust the server.
    pub other_ca_pem: String,
    pub dir: tempfile::TempDir,
}

fn ca(name: &str) -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    CertifiedIssuer::self_signed(params, KeyPair::generate().expect("CA key")).expect("CA cert")
}

/// A certificate for `names` (DNS names or IP addresses) signed by `ca`: its PEM and its key's PEM.
fn leaf(
    ca: &CertifiedIssuer<'static, KeyPair>,
    names: &[&str],
    common_name: &str,
    usage: ExtendedKeyUsagePurpose,
) -> (String, String) {
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let mut params = CertificateParams::new(names).expect("leaf params");
    params
        .distinguished_name
        .push(DnType::CommonName, common_name);
    params.extended_key_usages = vec![usage];
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    let key = KeyPair::generate().expect("leaf key");
    let cert = params.signed_by(&key, ca).expect("sign the leaf");
    (cert.pem(), key.serialize_pem())
}

impl TestPki {
    /// A fresh CA with a server and a client certificate, written to a new temporary directory.
    pub fn new() -> TestPki {
        let ca = ca("mancala test CA");
        let (server_cert, server_key) = leaf(
            &ca,
            &["localhost", "127.0.0.1"],
            "mancala test server",
            ExtendedKeyUsagePurpose::ServerAuth,
        );
        let (client_cert, client_key) = leaf(
            &ca,
            &["player.example"],
            "mancala test client",
            ExtendedKeyUsagePurpose::ClientAuth,
        );
        let dir = tempfile::tempdir().expect("a temporary directory");
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).expect("write a PEM file");
            path
        };
        TestPki {
            ca_file: write("ca.pem", &ca.pem()),
            server_cert_file: write("server.pem", &server_cert),
            server_key_file: write("server.key", &server_key),
            client_cert_file: write("client.pem", &client_cert),
            client_key_file: write("client.key", &client_key),
            ca_pem: ca.pem(),
            client_cert_pem: client_cert,
            client_key_pem: client_key,
            other_ca_pem: self::ca("another CA").pem(),
            dir,
        }
    }

    /// Settings serving TLS with the server certificate; with `mtls`, also requiring client certificates.
    pub fn configure(&self, settings: &mut mancala::config::Settings, mtls: bool) {
        settings.tls.cert_file = Some(self.server_cert_file.clone());
        settings.tls.key_file = Some(self.server_key_file.clone());
        settings.tls.client_ca_file = mtls.then(|| self.ca_file.clone());
    }
}
