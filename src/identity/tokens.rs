//! Player tokens: short-lived credentials a tenant's backend obtains for one of its end users
//! (`Players/IssuePlayerToken`), so that the user's app talks to the service directly without the tenant's
//! key. A token is a JWT signed HS256 with the server's secret (shared by every replica through the store,
//! or `auth.player_token_secret`), carrying the tenant, the player id and the expiry. It is checked without
//! any I/O; the tenant named in it must still exist and be enabled.

use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

/// The issuer every token names, and the only one accepted.
const ISSUER: &str = "mancala";

/// The longest player id, in bytes.
pub const MAX_PLAYER_ID_BYTES: usize = 64;

/// The claims of a player token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Claims {
    iss: String,
    /// The player id.
    sub: String,
    /// The tenant.
    tnt: String,
    /// The id of the API key that asked for it: revoking the key revokes the token.
    kid: String,
    /// Issued at, seconds since the Unix epoch.
    iat: u64,
    /// Expires at, seconds since the Unix epoch.
    exp: u64,
}

/// Who a valid token speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerClaims {
    /// The tenant.
    pub tenant: String,
    /// The player id, the tenant's own name for its user.
    pub player: String,
    /// The id of the API key the token was issued to.
    pub key_id: String,
    /// When the token stops being valid, in seconds since the Unix epoch.
    pub expires_at: u64,
}

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Past its expiry.
    #[error("the player token has expired")]
    Expired,
    /// Not a token of this service: malformed, signed with another secret, or another algorithm.
    #[error("the player token is not valid")]
    Invalid,
}

/// Signs and checks player tokens.
#[derive(Clone)]
pub struct TokenSigner {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl std::fmt::Debug for TokenSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenSigner { .. }")
    }
}

impl TokenSigner {
    /// A signer over `secret`.
    pub fn new(secret: &[u8]) -> TokenSigner {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        // A token is refused from the second it expires: clients ask for a new one before.
        validation.leeway = 0;
        TokenSigner {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
        }
    }

    /// A token for `player` of `tenant`, asked for with key `key_id`, valid from `now` (seconds since the
    /// epoch) for `ttl_secs`.
    pub fn issue(
        &self,
        tenant: &str,
        key_id: &str,
        player: &str,
        now: u64,
        ttl_secs: u64,
    ) -> String {
        let claims = Claims {
            iss: ISSUER.into(),
            sub: player.into(),
            tnt: tenant.into(),
            kid: key_id.into(),
            iat: now,
            exp: now + ttl_secs,
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .expect("HS256 over serialisable claims cannot fail")
    }

    /// The claims of `token` if this server signed it and it has not expired.
    pub fn check(&self, token: &str) -> Result<PlayerClaims, TokenError> {
        let data =
            decode::<Claims>(token, &self.decoding, &self.validation).map_err(|e| {
                match e.kind() {
                    jsonwebtoken::errors::ErrorKind::ExpiredSignature => TokenError::Expired,
                    _ => TokenError::Invalid,
                }
            })?;
        let claims = data.claims;
        Ok(PlayerClaims {
            tenant: claims.tnt,
            player: claims.sub,
            key_id: claims.kid,
            expires_at: claims.exp,
        })
    }
}

/// Whether `credential` has the shape of a JWT (three base64url parts).
pub fn looks_like_token(credential: &str) -> bool {
    credential.split('.').count() == 3
}

/// A player id's problem, if it has one: 1 to 64 bytes of printable ASCII without spaces.
pub fn player_id_problem(player: &str) -> Option<String> {
    if player.is_empty() {
        return Some("a player id must not be empty".into());
    }
    if player.len() > MAX_PLAYER_ID_BYTES {
        return Some(format!(
            "a player id is at most {MAX_PLAYER_ID_BYTES} bytes"
        ));
    }
    if !player.bytes().all(|b| b.is_ascii_graphic()) {
        return Some("a player id is printable ASCII without spaces".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    }

    #[test]
    fn a_token_names_its_tenant_and_player_until_it_expires() {
        let signer = TokenSigner::new(&[7; 32]);
        let token = signer.issue("acme", "k1", "ann", now(), 60);
        assert!(looks_like_token(&token));
        let claims = signer.check(&token).unwrap();
        assert_eq!(
            (claims.tenant.as_str(), claims.player.as_str()),
            ("acme", "ann")
        );
        let old = signer.issue("acme", "k1", "ann", now() - 120, 60);
        assert_eq!(signer.check(&old), Err(TokenError::Expired));
    }

    #[test]
    fn a_token_of_another_secret_or_altered_is_refused() {
        let signer = TokenSigner::new(&[7; 32]);
        let forged = TokenSigner::new(&[8; 32]).issue("acme", "k1", "ann", now(), 60);
        assert_eq!(signer.check(&forged), Err(TokenError::Invalid));
        let token = signer.issue("acme", "k1", "ann", now(), 60);
        let (head, rest) = token.split_once('.').unwrap();
        let (_, signature) = rest.split_once('.').unwrap();
        // The claims of another player under the first one's signature.
        let other = signer.issue("acme", "k1", "bob", now(), 60);
        let other_claims = other.split('.').nth(1).unwrap();
        let spliced = format!("{head}.{other_claims}.{signature}");
        assert_eq!(signer.check(&spliced), Err(TokenError::Invalid));
        assert_eq!(signer.check("a.b.c"), Err(TokenError::Invalid));
        // No signature at all ("alg": "none").
        let unsigned = format!("eyJhbGciOiJub25lIn0.{other_claims}.");
        assert_eq!(signer.check(&unsigned), Err(TokenError::Invalid));
    }

    #[test]
    fn player_ids_are_short_printable_words() {
        assert_eq!(player_id_problem("ann-42"), None);
        assert!(player_id_problem("").is_some());
        assert!(player_id_problem("a b").is_some());
        assert!(player_id_problem(&"x".repeat(65)).is_some());
    }
}
