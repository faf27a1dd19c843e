//! Limits per caller inside a tenant: what one player, or one client address of the anonymous tenant, may use,
//! so that no single caller can spend the whole of a tenant's limits (docs/guide/caller-limits.md).
//!
//! A [`Party`] is whom a sub-limit counts: a player (a player token's player id, inside its tenant) or an
//! [`Address`] (the anonymous tenant has no player ids to tell its callers apart). API-key callers, a game
//! company's backend acting for all its players, are held to the tenant's limits alone.
//!
//! Four tables, each held in this replica's memory and each bounded, so that cycling through player ids or
//! addresses cannot grow the server's memory without bound:
//! - [`Buckets`]: calls per second (a GCRA token bucket per key). An entry whose bucket is full again is idle and
//!   is dropped when room is needed; when every entry is busy, new keys share one overflow bucket.
//! - [`Counts`] (from [`crate::sync`]): things held open (streams, connections), an entry living exactly as long as
//!   something it counts.
//! - [`Created`]: unfinished matches per party, by id, released when the match ends on this replica and checked
//!   against the store when a party reaches its limit (a match may have ended on another replica, or expired).
//! - [`Guessing`]: UNAUTHENTICATED answers per address, and the backoff they lead to.

use crate::store::MatchId;
use crate::sync::lock;
use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash};
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One client as the limits count it: an IPv4 address, or the /64 prefix of an IPv6 address (one host is commonly
/// given a whole /64, so counting single IPv6 addresses would give it billions of shares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Address(IpAddr);

impl Address {
    /// The address `ip` counts as.
    pub fn of(ip: IpAddr) -> Address {
        match ip {
            IpAddr::V4(v4) => Address(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Address(IpAddr::V4(v4)),
                None => {
                    let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                    Address(IpAddr::V6(Ipv6Addr::from(prefix)))
                }
            },
        }
    }
}

impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// Whom a sub-limit counts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Party {
    /// One player of a tenant (a player token).
    Player {
        /// The tenant.
        tenant: String,
        /// The player id.
        player: String,
    },
    /// One client address of the anonymous tenant.
    Address(Address),
}

impl Party {
    /// `"player"` or `"address"`, for messages and the metrics' `limit` label (never the id itself).
    pub fn kind(&self) -> &'static str {
        match self {
            Party::Player { .. } => "player",
            Party::Address(_) => "address",
        }
    }
}

/// A bucket's rate: `per_second` calls sustained, `burst` at once after a quiet spell. `per_second == 0`: no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Calls per second.
    pub per_second: u32,
    /// The bucket's size (at least 1 is used).
    pub burst: u32,
}

impl Rate {
    /// The time one call costs, and how far ahead of now the bucket may run (its burst less one).
    fn gcra(self) -> Option<(Duration, Duration)> {
        if self.per_second == 0 {
            return None;
        }
        let interval = Duration::from_secs(1) / self.per_second;
        Some((interval, interval * (self.burst.max(1) - 1)))
    }
}

/// How often a full table may be searched for idle entries: without it, a table full of busy entries would be
/// scanned whole on every call of a new key.
const RESCAN_EVERY: Duration = Duration::from_secs(1);

/// Token buckets by key (GCRA: each key holds the theoretical arrival time of its next call), at most
/// `max_tracked` keys.
#[derive(Debug)]
pub struct Buckets<K> {
    max_tracked: usize,
    table: Mutex<BucketTable<K>>,
}

#[derive(Debug)]
struct BucketTable<K> {
    next: HashMap<K, Instant>,
    /// The one bucket of every key that found the table full of busy keys.
    overflow: Option<Instant>,
    scanned: Option<Instant>,
}

impl<K: Hash + Eq + Clone> Buckets<K> {
    /// Empty, holding at most `max_tracked` keys.
    pub fn new(max_tracked: usize) -> Buckets<K> {
        Buckets {
            max_tracked: max_tracked.max(1),
            table: Mutex::new(BucketTable {
                next: HashMap::new(),
                overflow: None,
                scanned: None,
            }),
        }
    }

    /// Takes one call from `key`'s bucket; refused: how long until it would be accepted.
    pub fn charge(&self, key: &K, rate: Rate, now: Instant) -> Result<(), Duration> {
        let Some((interval, ahead)) = rate.gcra() else {
            return Ok(());
        };
        let mut table = lock(&self.table);
        let slot = table.slot(key, self.max_tracked, now);
        let next = slot.map_or(now, |next| next.max(now));
        if next > now + ahead {
            return Err(next - now - ahead);
        }
        table.set(key, next + interval, self.max_tracked, now);
        Ok(())
    }

    /// Whether `key`'s bucket is empty now, taking nothing: how long until a call would be accepted.
    pub fn empty_for(&self, key: &K, rate: Rate, now: Instant) -> Option<Duration> {
        let (_, ahead) = rate.gcra()?;
        let mut table = lock(&self.table);
        let next = table.slot(key, self.max_tracked, now)?;
        (next > now + ahead).then(|| next - now - ahead)
    }

    /// Keys held (the overflow bucket not counted).
    pub fn len(&self) -> usize {
        lock(&self.table).next.len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<K: Hash + Eq + Clone> BucketTable<K> {
    /// The next arrival time of `key`, or of the overflow bucket if `key` is not held and cannot be.
    fn slot(&mut self, key: &K, max: usize, now: Instant) -> Option<Instant> {
        if let Some(next) = self.next.get(key) {
            return Some(*next);
        }
        if self.room(max, now) {
            None
        } else {
            self.overflow
        }
    }

    fn set(&mut self, key: &K, next: Instant, max: usize, now: Instant) {
        if let Some(held) = self.next.get_mut(key) {
            *held = next;
        } else if self.room(max, now) {
            self.next.insert(key.clone(), next);
        } else {
            self.overflow = Some(next);
        }
    }

    /// Whether one more key fits, after dropping the idle ones (full buckets) if the table is full.
    fn room(&mut self, max: usize, now: Instant) -> bool {
        if self.next.len() < max {
            return true;
        }
        if self
            .scanned
            .is_some_and(|at| now.saturating_duration_since(at) < RESCAN_EVERY)
        {
            return false;
        }
        self.scanned = Some(now);
        self.next.retain(|_, next| *next > now);
        self.next.len() < max
    }
}

/// The unfinished matches each party created on this replica.
///
/// Per replica, in memory, rather than counted in the match store with the tenant's: the tenant-wide count stays
/// the store's (exact, across replicas); this one only keeps one caller from taking all of it. After a restart a
/// party starts from zero while its old matches run on, which the tenant's count still bounds.
#[derive(Debug, Default)]
pub struct Created {
    table: Mutex<CreatedTable>,
}

#[derive(Debug, Default)]
struct CreatedTable {
    by_party: HashMap<Party, HashSet<MatchId>>,
    by_match: HashMap<MatchId, Party>,
}

impl Created {
    /// The matches `party` created that this replica has not seen end.
    pub fn of(&self, party: &Party) -> Vec<MatchId> {
        lock(&self.table)
            .by_party
            .get(party)
            .map(|ids| ids.iter().copied().collect())
            .unwrap_or_default()
    }

    /// How many those are.
    pub fn count(&self, party: &Party) -> usize {
        lock(&self.table)
            .by_party
            .get(party)
            .map_or(0, HashSet::len)
    }

    /// Counts match `id` as `party`'s.
    pub fn add(&self, party: &Party, id: MatchId) {
        let mut table = lock(&self.table);
        table.by_party.entry(party.clone()).or_default().insert(id);
        table.by_match.insert(id, party.clone());
    }

    /// Match `id` ended (or is gone): whoever created it has one fewer.
    pub fn ended(&self, id: MatchId) {
        let mut table = lock(&self.table);
        let Some(party) = table.by_match.remove(&id) else {
            return;
        };
        if let Some(ids) = table.by_party.get_mut(&party) {
            ids.remove(&id);
            if ids.is_empty() {
                table.by_party.remove(&party);
            }
        }
    }

    /// Matches counted, over every party.
    pub fn len(&self) -> usize {
        lock(&self.table).by_match.len()
    }

    /// Whether none is counted.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// When guessing is backed off (`[auth]`'s `failures_before_backoff` and the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackoffPolicy {
    /// UNAUTHENTICATED answers within `window` that start a backoff; `0`: never.
    pub failures: u32,
    /// Where failures are counted.
    pub window: Duration,
    /// The first backoff.
    pub initial: Duration,
    /// The longest.
    pub max: Duration,
}

/// The credentials one address used successfully, remembered while it is suspected: a backoff refuses only the
/// others, so that a user behind the same address as a guesser keeps the credential that works.
const REMEMBERED_CREDENTIALS: usize = 4;

/// An address with recent UNAUTHENTICATED answers.
#[derive(Debug)]
struct Suspect {
    failures: u32,
    window_start: Instant,
    /// Until when its unknown credentials are refused unchecked.
    until: Option<Instant>,
    /// Backoffs in this episode (each doubles the next).
    backoffs: u32,
    good: Vec<u64>,
}

/// A backoff that started: what to log, once per episode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Episode {
    /// Failures counted in the window.
    pub failures: u32,
    /// How long the address is backed off.
    pub backoff: Duration,
}

/// UNAUTHENTICATED answers by address, and the backoffs they start (see [`BackoffPolicy`]).
#[derive(Debug)]
pub struct Guessing {
    policy: BackoffPolicy,
    max_tracked: usize,
    hasher: RandomState,
    table: Mutex<HashMap<Address, Suspect>>,
}

impl Guessing {
    /// No address suspected yet.
    pub fn new(policy: BackoffPolicy, max_tracked: usize) -> Guessing {
        Guessing {
            policy,
            max_tracked: max_tracked.max(1),
            hasher: RandomState::new(),
            table: Mutex::default(),
        }
    }

    /// A credential as remembered: a keyed hash, so that the table never holds one and nobody can aim for a
    /// collision.
    pub fn fingerprint(&self, credential: &str) -> u64 {
        self.hasher.hash_one(credential)
    }

    /// Whether a call from `address` with the credential of `fingerprint` is refused unchecked: how long the
    /// address is still backed off.
    pub fn refused(&self, address: Address, fingerprint: u64, now: Instant) -> Option<Duration> {
        let table = lock(&self.table);
        let suspect = table.get(&address)?;
        let until = suspect.until.filter(|until| *until > now)?;
        (!suspect.good.contains(&fingerprint)).then(|| until - now)
    }

    /// `address` was answered UNAUTHENTICATED; `Some` when that starts a backoff episode (to be logged).
    pub fn failed(&self, address: Address, now: Instant) -> Option<Episode> {
        let policy = self.policy;
        if policy.failures == 0 {
            return None;
        }
        let mut table = lock(&self.table);
        if !table.contains_key(&address) && table.len() >= self.max_tracked {
            table.retain(|_, suspect| suspect.active(policy, now));
            if table.len() >= self.max_tracked {
                // Every tracked address is backed off or failing now: this one goes untracked (never refused)
                // rather than evicting a guesser.
                return None;
            }
        }
        let suspect = table.entry(address).or_insert_with(|| Suspect {
            failures: 0,
            window_start: now,
            until: None,
            backoffs: 0,
            good: Vec::new(),
        });
        if now.saturating_duration_since(suspect.window_start) > policy.window {
            // A quiet window ends the episode: the next backoff starts from the first delay again.
            if suspect.until.is_none_or(|until| until <= now) {
                suspect.backoffs = 0;
            }
            suspect.failures = 0;
            suspect.window_start = now;
        }
        suspect.failures = suspect.failures.saturating_add(1);
        if suspect.failures < policy.failures {
            return None;
        }
        let backoff = policy
            .initial
            .saturating_mul(1u32.checked_shl(suspect.backoffs).unwrap_or(u32::MAX))
            .min(policy.max);
        suspect.until = Some(now + backoff);
        suspect.backoffs = suspect.backoffs.saturating_add(1);
        (suspect.backoffs == 1).then_some(Episode {
            failures: suspect.failures,
            backoff,
        })
    }

    /// A call from `address` with the credential of `fingerprint` was answered (not UNAUTHENTICATED): remembered if
    /// the address is suspected, so that a backoff spares it.
    pub fn succeeded(&self, address: Address, fingerprint: u64) {
        let mut table = lock(&self.table);
        if let Some(suspect) = table.get_mut(&address) {
            if !suspect.good.contains(&fingerprint) {
                if suspect.good.len() == REMEMBERED_CREDENTIALS {
                    suspect.good.remove(0);
                }
                suspect.good.push(fingerprint);
            }
        }
    }

    /// Addresses tracked.
    pub fn len(&self) -> usize {
        lock(&self.table).len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Suspect {
    /// Backed off now, or failing within the window.
    fn active(&self, policy: BackoffPolicy, now: Instant) -> bool {
        self.until.is_some_and(|until| until > now)
            || now.saturating_duration_since(self.window_start) <= policy.window
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(last: u8) -> Address {
        Address::of(IpAddr::from([127, 0, 0, last]))
    }

    #[test]
    fn an_ipv6_host_counts_as_its_slash_64_and_a_mapped_ipv4_as_itself() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(Address::of(a), Address::of(b));
        assert_ne!(Address::of(a), Address::of(c));
        assert_eq!(Address::of(a).to_string(), "2001:db8:1:2::/64");
        let mapped: IpAddr = "::ffff:10.0.0.7".parse().unwrap();
        assert_eq!(Address::of(mapped).to_string(), "10.0.0.7");
    }

    #[test]
    fn a_bucket_refuses_past_its_burst_for_its_key_alone_and_refills() {
        let buckets = Buckets::new(10);
        let rate = Rate {
            per_second: 10,
            burst: 3,
        };
        let now = Instant::now();
        for _ in 0..3 {
            assert!(buckets.charge(&address(1), rate, now).is_ok());
        }
        let wait = buckets.charge(&address(1), rate, now).unwrap_err();
        assert_eq!(wait, Duration::from_millis(100));
        assert_eq!(buckets.empty_for(&address(1), rate, now), Some(wait));
        // Another key has its own bucket.
        assert!(buckets.charge(&address(2), rate, now).is_ok());
        assert_eq!(buckets.empty_for(&address(2), rate, now), None);
        // One interval later, one call more.
        let later = now + Duration::from_millis(100);
        assert!(buckets.charge(&address(1), rate, later).is_ok());
        assert!(buckets.charge(&address(1), rate, later).is_err());
        // No rate: no limit, nothing held.
        let free = Rate {
            per_second: 0,
            burst: 0,
        };
        let none = Buckets::new(10);
        assert!((0..100).all(|_| none.charge(&address(3), free, now).is_ok()));
        assert!(none.is_empty());
    }

    #[test]
    fn a_full_bucket_table_drops_idle_keys_then_shares_one_overflow_bucket() {
        let buckets = Buckets::new(2);
        let rate = Rate {
            per_second: 1,
            burst: 2,
        };
        let now = Instant::now();
        buckets.charge(&address(1), rate, now).unwrap();
        buckets.charge(&address(2), rate, now).unwrap();
        // Both busy: a third key lands in the overflow bucket, and the table stays at its bound.
        buckets.charge(&address(3), rate, now).unwrap();
        buckets.charge(&address(4), rate, now).unwrap();
        assert!(buckets.charge(&address(5), rate, now).is_err());
        assert_eq!(buckets.len(), 2);
        // Once the first two are idle (their buckets full again), a new key takes a place of its own.
        let later = now + Duration::from_secs(2);
        buckets.charge(&address(6), rate, later).unwrap();
        assert_eq!(buckets.len(), 1);
        // Cycling through many keys never holds more than the bound.
        for last in 0..=255 {
            let _ = buckets.charge(&address(last), rate, later);
        }
        assert!(buckets.len() <= 2);
    }

    #[test]
    fn created_matches_are_counted_by_party_until_they_end() {
        let created = Created::default();
        let party = Party::Address(address(1));
        let (one, two) = (MatchId([1; 16]), MatchId([2; 16]));
        created.add(&party, one);
        created.add(&party, two);
        assert_eq!(created.count(&party), 2);
        created.ended(one);
        created.ended(one);
        assert_eq!(created.of(&party), vec![two]);
        created.ended(two);
        assert_eq!(created.count(&party), 0);
        assert!(created.is_empty());
    }

    fn policy() -> BackoffPolicy {
        BackoffPolicy {
            failures: 3,
            window: Duration::from_secs(60),
            initial: Duration::from_secs(1),
            max: Duration::from_secs(4),
        }
    }

    #[test]
    fn failures_back_off_their_address_alone_once_per_episode_doubling_to_the_cap() {
        let guessing = Guessing::new(policy(), 100);
        let (guesser, other) = (address(1), address(2));
        let unknown = guessing.fingerprint("mk_guess");
        let now = Instant::now();
        assert_eq!(guessing.failed(guesser, now), None);
        assert_eq!(guessing.failed(guesser, now), None);
        assert_eq!(guessing.refused(guesser, unknown, now), None);
        let episode = guessing.failed(guesser, now).expect("the third starts it");
        assert_eq!(episode.backoff, Duration::from_secs(1));
        assert_eq!(
            guessing.refused(guesser, unknown, now),
            Some(Duration::from_secs(1))
        );
        assert_eq!(guessing.refused(other, unknown, now), None);
        // Failing again once it is over doubles the delay, without a second episode to log; up to the cap.
        let mut at = now + Duration::from_secs(1);
        let mut delays = Vec::new();
        for _ in 0..4 {
            assert_eq!(guessing.failed(guesser, at), None);
            let delay = guessing.refused(guesser, unknown, at).expect("backed off");
            delays.push(delay.as_secs());
            at += delay;
        }
        assert_eq!(delays, [2, 4, 4, 4]);
        // A quiet window ends the episode.
        let quiet = at + Duration::from_secs(61);
        assert_eq!(guessing.refused(guesser, unknown, quiet), None);
        assert_eq!(guessing.failed(guesser, quiet), None);
    }

    #[test]
    fn a_credential_that_worked_from_the_address_is_spared_by_its_backoff() {
        let guessing = Guessing::new(policy(), 100);
        let shared = address(9);
        let now = Instant::now();
        guessing.failed(shared, now);
        let good = guessing.fingerprint("a player's token");
        guessing.succeeded(shared, good);
        guessing.failed(shared, now);
        guessing.failed(shared, now).expect("backed off");
        assert_eq!(guessing.refused(shared, good, now), None);
        assert!(guessing
            .refused(shared, guessing.fingerprint("another"), now)
            .is_some());
    }

    #[test]
    fn a_full_table_of_suspects_tracks_no_more_and_drops_the_quiet_ones() {
        let guessing = Guessing::new(policy(), 2);
        let now = Instant::now();
        guessing.failed(address(1), now);
        guessing.failed(address(2), now);
        guessing.failed(address(3), now);
        assert_eq!(guessing.len(), 2);
        let later = now + Duration::from_secs(61);
        guessing.failed(address(3), later);
        assert_eq!(guessing.len(), 1);
    }
}
