//! Development mode (`server.dev`, `mancala serve --dev`): the settings that make the lobby work out of the box on
//! one machine, and the refusal to serve them beyond loopback, where its well-known operator key would let anyone
//! mint tokens.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use super::{ConfigError, Settings};

/// The operator key a development server accepts unless `auth.operator_key_sha256` names another: well known on
/// purpose (`mancala tenants` sends it by default), which is why such a server listens on loopback only.
pub const DEV_OPERATOR_KEY: &str = "mo_dev-loopback-only";

/// The tenant a development server makes at start-up, for `mancala tenants token dev PLAYER`.
pub const DEV_TENANT: &str = "dev";

impl Settings {
    /// Applies development mode when `server.dev` is set (again after a flag changed `server.listen`): an
    /// unspecified listen address becomes loopback, any other one beyond loopback is refused, and the operator
    /// key is [`DEV_OPERATOR_KEY`]'s unless one is configured.
    pub fn develop(&mut self) -> Result<(), ConfigError> {
        if !self.server.dev {
            return Ok(());
        }
        self.server.listen = on_loopback("server.listen", self.server.listen)?;
        if let Some(health) = self.server.health_listen {
            self.server.health_listen = Some(on_loopback("server.health_listen", health)?);
        }
        if let Some(metrics) = self.metrics.listen {
            self.metrics.listen = Some(on_loopback("metrics.listen", metrics)?);
        }
        if self.auth.operator_key_sha256.is_empty() {
            self.auth.operator_key_sha256 = dev_operator_key_sha256();
        }
        Ok(())
    }
}

/// [`DEV_OPERATOR_KEY`]'s SHA-256 in hex, as `auth.operator_key_sha256` holds a key's.
fn dev_operator_key_sha256() -> String {
    use sha2::Digest;
    sha2::Sha256::digest(DEV_OPERATOR_KEY.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// `addr` on loopback: the unspecified address becomes 127.0.0.1, a loopback one stays, any other is refused.
fn on_loopback(key: &str, addr: SocketAddr) -> Result<SocketAddr, ConfigError> {
    match addr.ip() {
        ip if ip.is_loopback() => Ok(addr),
        ip if ip.is_unspecified() => Ok(SocketAddr::new(
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            addr.port(),
        )),
        _ => Err(ConfigError::new(format_args!(
            "server.dev (mancala serve --dev) serves on loopback only, with a well-known operator key: {key} \
             {addr} is beyond loopback; use 127.0.0.1 (or leave development mode for a server others reach)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev(listen: &str) -> Result<Settings, ConfigError> {
        let mut settings = Settings::default();
        settings.server.dev = true;
        settings.server.listen = listen.parse().unwrap();
        settings.develop().map(|()| settings)
    }

    #[test]
    fn development_mode_listens_on_loopback_only() {
        assert_eq!(
            dev("0.0.0.0:50051").unwrap().server.listen,
            "127.0.0.1:50051".parse().unwrap()
        );
        assert_eq!(
            dev("[::1]:7").unwrap().server.listen,
            "[::1]:7".parse().unwrap()
        );
        let refused = dev("192.0.2.1:50051").unwrap_err().to_string();
        assert!(
            refused.contains("server.listen 192.0.2.1:50051 is beyond loopback"),
            "{refused}"
        );
    }

    #[test]
    fn development_mode_knows_the_well_known_operator_key_unless_one_is_set() {
        let settings = dev("0.0.0.0:1").unwrap();
        assert_eq!(
            settings.auth.operator_key_sha256,
            // printf %s mo_dev-loopback-only | sha256sum
            "75c23b51d918d7b676fd8a07cba05a46eb996ed7005a711f91cdb5d594ce76f8"
        );
        assert!(settings.auth.operator_key_hash().is_some());
        let mut own = Settings::default();
        own.server.dev = true;
        own.auth.operator_key_sha256 = "ab".repeat(32);
        own.develop().unwrap();
        assert_eq!(own.auth.operator_key_sha256, "ab".repeat(32));
        // Without development mode nothing changes.
        let mut plain = Settings::default();
        plain.develop().unwrap();
        assert_eq!(plain, Settings::default());
    }
}
