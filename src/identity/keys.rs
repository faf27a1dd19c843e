//! API keys and the operator's key: how they look, how they are made and how they are kept (hashes only).
//!
//! A tenant's key is `mk_<id>_<secret>`: `id` is 8 hex digits, public (listings name a key by it), and
//! `secret` 48 hex digits (192 random bits). Only SHA-256 of the whole key is stored: a key is a random
//! secret, not a password, so a fast hash is the right one (nothing to guess from the hash), and checking a
//! call costs one hash of 60 bytes.

use sha2::{Digest, Sha256};

/// The prefix of every tenant key, which tells it apart from seat tokens (64 hex digits) and player tokens
/// (JWTs, three dot-separated parts).
pub const KEY_PREFIX: &str = "mk_";

/// A key just made: the key itself, to show once, and what is kept of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewKey {
    /// The whole key.
    pub key: String,
    /// Its public id.
    pub id: String,
    /// Its hash.
    pub hash: [u8; 32],
}

/// SHA-256 of a credential.
pub fn hash(credential: &str) -> [u8; 32] {
    Sha256::digest(credential.as_bytes()).into()
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `n` random bytes from the operating system.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], getrandom::Error> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)?;
    Ok(bytes)
}

/// A new tenant key.
pub fn new_key() -> Result<NewKey, getrandom::Error> {
    let id = hex(&random_bytes::<4>()?);
    let key = format!("{KEY_PREFIX}{id}_{}", hex(&random_bytes::<24>()?));
    Ok(NewKey {
        hash: hash(&key),
        id,
        key,
    })
}

/// A new operator key (`mo_` and 64 hex digits) and the hash to configure.
pub fn new_operator_key() -> Result<(String, String), getrandom::Error> {
    let key = format!("mo_{}", hex(&random_bytes::<32>()?));
    let hash = hex(&hash(&key));
    Ok((key, hash))
}

/// Whether `credential` has the shape of a tenant key (the hash decides whether it is one).
pub fn looks_like_key(credential: &str) -> bool {
    credential.starts_with(KEY_PREFIX)
}

/// Whether `credential` has the shape of a seat token: 64 hex digits.
pub fn looks_like_seat_token(credential: &str) -> bool {
    credential.len() == 64 && credential.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Compares two hashes in time that does not depend on where they differ.
pub fn same_hash(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_their_shape_and_differ() {
        let a = new_key().unwrap();
        let b = new_key().unwrap();
        assert_ne!(a.key, b.key);
        assert!(looks_like_key(&a.key));
        assert!(!looks_like_seat_token(&a.key));
        assert_eq!(a.key.len(), 3 + 8 + 1 + 48);
        assert!(a.key.starts_with(&format!("mk_{}_", a.id)));
        assert_eq!(a.hash, hash(&a.key));
        assert!(same_hash(&a.hash, &hash(&a.key)));
        assert!(!same_hash(&a.hash, &b.hash));
    }

    #[test]
    fn operator_keys_come_with_the_hash_to_configure() {
        let (key, hash_hex) = new_operator_key().unwrap();
        assert!(key.starts_with("mo_"));
        assert_eq!(hash_hex, hex(&hash(&key)));
        assert_eq!(hash_hex.len(), 64);
    }

    #[test]
    fn seat_tokens_are_64_hex_digits() {
        assert!(looks_like_seat_token(&"a1".repeat(32)));
        assert!(!looks_like_seat_token(&"a1".repeat(31)));
        assert!(!looks_like_seat_token(&"zz".repeat(32)));
    }
}
