//! Every key and channel name of the Redis store, in one place, and the rule they follow so that the store runs on
//! Redis Cluster as on one Redis: **every script and every transaction touches the keys of one hash slot only.**
//!
//! Redis Cluster places a key by the CRC16 of its hash tag (the part between the first `{` and the next `}`, or the
//! whole key without one) modulo 16384; a script whose keys hash to two slots is refused (CROSSSLOT). So a match's
//! keys all carry its id as their tag, and its channel too (a sharded channel is placed like a key). What concerns
//! many matches (the listing, the retention purge) or a tenant is kept in keys of its own, written by separate
//! commands beside the match's script, never inside it.
//!
//! Keys, each under `matches.redis_key_prefix` (`P`, default `mancala:`):
//!
//! | key | type | slot | holds |
//! |---|---|---|---|
//! | `P m:{id}` | hash | the match's | `v`: the version, `h`: the header, `f`: when it finished (absent while active) |
//! | `P log:{id}` | list | the match's | the events; event `seq` is at index `seq - 1` |
//! | `P req:{id}:<request_id>` | string | the match's | the `seq` a `request_id` produced (expires) |
//! | `P seen:{id}` | hash | the match's | when each seat last had a stream open |
//! | `P events:{id}` | sharded channel | the match's | each appended event (`SPUBLISH`) |
//! | `P ids:<hh>` | sorted set | its own | the ids beginning with the hex digits `hh` (256 buckets, score 0) |
//! | `P finished:<hh>` | sorted set | its own | the finished ids beginning with `hh`, scored by when they finished |
//! | `P active:<tenant>` | set | its own | the tenant's unfinished matches |
//! | `P lobby:<tenant>` | list | its own | the tenant's lobby log |
//! | `P lobby-tenants` | set | its own | every tenant with a lobby log |
//! | `P presence:<tenant>`, `P seen:<tenant>` | sorted set, hash | each its own | who is online, when last seen |
//! | `P tenants`, `P player-token-secret` | hash, string | each its own | the tenants, the players' token secret |
//!
//! Channels that every replica needs whole (the lobby's and the tenants' announcements) stay classic `PUBLISH`
//! channels, which a cluster forwards to every node: `P lobby-appended`, `P tenants-changed`.
//!
//! A key a script combines with another must share its tag: a match's with `{id}`; a tenant's new keys, should a
//! script ever combine two, with `{t:<tenant>}`. The buckets of `ids:` and `finished:` follow the order of ids (an
//! id's bucket is its first byte), so that listing in id order walks the buckets in turn.

use super::super::MatchId;

/// The buckets of the id indexes: one per value of an id's first byte.
pub(super) const BUCKETS: usize = 256;

/// The names of the store's keys under one prefix.
#[derive(Clone, Debug)]
pub(in crate::store) struct Keys {
    prefix: String,
}

impl Keys {
    pub(super) fn new(prefix: &str) -> Keys {
        Keys {
            prefix: prefix.to_string(),
        }
    }

    /// The prefix every key and channel starts with.
    pub(in crate::store) fn prefix(&self) -> &str {
        &self.prefix
    }

    /// A match's header.
    pub(super) fn header(&self, id: &MatchId) -> String {
        format!("{}m:{{{id}}}", self.prefix)
    }

    /// A match's event log.
    pub(super) fn log(&self, id: &MatchId) -> String {
        format!("{}log:{{{id}}}", self.prefix)
    }

    /// The idempotency key of one `request_id` of a match.
    pub(super) fn request(&self, id: &MatchId, request_id: &str) -> Vec<u8> {
        let mut key = format!("{}req:{{{id}}}:", self.prefix).into_bytes();
        key.extend_from_slice(request_id.as_bytes());
        key
    }

    /// When each seat of a match last had a stream open on some replica.
    pub(super) fn seats_seen(&self, id: &MatchId) -> String {
        format!("{}seen:{{{id}}}", self.prefix)
    }

    /// The sharded channel a match's appends are published on.
    pub(super) fn events(&self, id: &MatchId) -> String {
        format!("{}events:{{{id}}}", self.prefix)
    }

    /// The match a sharded channel's name stands for, if it is one of [`Keys::events`].
    pub(super) fn events_match(&self, channel: &[u8]) -> Option<MatchId> {
        let rest = channel.strip_prefix(self.prefix.as_bytes())?;
        let id = rest.strip_prefix(b"events:{")?.strip_suffix(b"}")?;
        MatchId::parse(std::str::from_utf8(id).ok()?)
    }

    /// The bucket of the id indexes `id` belongs to.
    pub(super) fn bucket(id: &MatchId) -> usize {
        usize::from(id.0[0])
    }

    /// The ids of bucket `bucket` (score 0, so ordered by id).
    pub(super) fn ids(&self, bucket: usize) -> String {
        format!("{}ids:{bucket:02x}", self.prefix)
    }

    /// The finished ids of bucket `bucket`, scored by when they finished.
    pub(super) fn finished(&self, bucket: usize) -> String {
        format!("{}finished:{bucket:02x}", self.prefix)
    }

    /// Before the buckets: every id in one sorted set (read once, to move them into the buckets).
    pub(super) fn legacy_ids(&self) -> String {
        format!("{}ids", self.prefix)
    }

    /// Before the buckets: every finished id in one sorted set.
    pub(super) fn legacy_finished(&self) -> String {
        format!("{}finished", self.prefix)
    }

    /// The set of a tenant's unfinished matches (its size is what `limits.max_active_matches` bounds).
    pub(super) fn active(&self, tenant: &str) -> String {
        format!("{}active:{tenant}", self.prefix)
    }

    /// A tenant's lobby log.
    pub(in crate::store) fn lobby(&self, tenant: &str) -> String {
        format!("{}lobby:{tenant}", self.prefix)
    }

    /// The set of tenants with a lobby log.
    pub(in crate::store) fn lobby_tenants(&self) -> String {
        format!("{}lobby-tenants", self.prefix)
    }

    /// The channel on which every lobby append is announced, as "<tenant> <seq>".
    pub(in crate::store) fn lobby_channel(&self) -> String {
        format!("{}lobby-appended", self.prefix)
    }

    /// The tenants (one hash: `rev:<id>` and `t:<id>` fields).
    pub(in crate::store) fn tenants(&self) -> String {
        format!("{}tenants", self.prefix)
    }

    /// The channel on which every tenant write is announced.
    pub(in crate::store) fn tenants_channel(&self) -> String {
        format!("{}tenants-changed", self.prefix)
    }

    /// The secret that signs player tokens.
    pub(in crate::store) fn token_secret(&self) -> String {
        format!("{}player-token-secret", self.prefix)
    }

    /// A tenant's holds (who is online) and its players' last-seen times.
    pub(in crate::store) fn presence(&self, tenant: &str) -> (String, String) {
        (
            format!("{}presence:{tenant}", self.prefix),
            format!("{}seen:{tenant}", self.prefix),
        )
    }
}

/// The hash slot Redis Cluster places `key` in: CRC16 (XMODEM) of its hash tag, modulo 16384.
pub(super) fn slot(key: &[u8]) -> u16 {
    let tagged = key
        .iter()
        .position(|&b| b == b'{')
        .and_then(|open| {
            let rest = &key[open + 1..];
            let close = rest.iter().position(|&b| b == b'}')?;
            (close > 0).then(|| &rest[..close])
        })
        .unwrap_or(key);
    crc16(tagged) % 16384
}

/// CRC16-CCITT (XMODEM), the checksum Redis Cluster's key placement uses.
fn crc16(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0;
    for &byte in bytes {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_redis_clusters() {
        // The values `CLUSTER KEYSLOT` answers.
        assert_eq!(slot(b"foo"), 12182);
        assert_eq!(slot(b"bar"), 5061);
        // CRC16-XMODEM of "123456789" is 0x31C3, under 16384.
        assert_eq!(slot(b"123456789"), 0x31c3);
        assert_eq!(slot(b"{user1000}.following"), slot(b"user1000"));
        assert_ne!(slot(b"foo{}{bar}"), slot(b"bar"), "an empty tag is no tag");
    }

    #[test]
    fn a_matchs_keys_and_channel_share_its_slot() {
        let keys = Keys::new("mancala:");
        for first in [0u8, 7, 255] {
            let id = MatchId([first; 16]);
            let slot_of = slot(keys.header(&id).as_bytes());
            assert_eq!(slot(keys.log(&id).as_bytes()), slot_of);
            assert_eq!(slot(&keys.request(&id, "r-1")), slot_of);
            assert_eq!(slot(keys.seats_seen(&id).as_bytes()), slot_of);
            assert_eq!(slot(keys.events(&id).as_bytes()), slot_of);
            assert_eq!(keys.events_match(keys.events(&id).as_bytes()), Some(id));
            assert_eq!(Keys::bucket(&id), usize::from(first));
        }
        assert_eq!(keys.events_match(b"mancala:events:{nothex}"), None);
        assert_eq!(keys.events_match(b"other:events:{00}"), None);
        assert_eq!(keys.ids(10), "mancala:ids:0a");
    }
}
