//! The fair queue of one lane of the engine pool: who gets the next free thread.
//!
//! A first-come-first-served queue lets whoever sends the most long calls take every thread: four searches at
//! the caps once held another client's three-millisecond hint for eleven seconds. Here the waiters are grouped by
//! tenant, and inside a tenant by caller, and a free thread goes to the tenant running the fewest jobs of this
//! lane, then inside it to the caller running the fewest (ties: the one served least recently, then the one that
//! came first). So a caller with nothing running goes before one that already holds a thread, a tenant's many
//! callers share that tenant's turn rather than multiply it, and inside one caller its calls run in order.
//!
//! Plain data, no clock and no async: the lane ([`super::lane`]) keeps it under a `std::sync::Mutex` that is never
//! held across an `.await`, and wakes the waiters it picks. Every operation is deterministic, so the tests below
//! pin the order exactly.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// Who a job is for: the tenant charged, and the caller inside it (a player, an API key, a client address; for
/// the server's own work, a name of its own). Cheap to clone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Owner {
    /// The tenant's id (`""` for the anonymous tenant).
    pub tenant: Arc<str>,
    /// The caller inside the tenant.
    pub caller: Arc<str>,
}

impl Owner {
    /// The owner `caller` of `tenant`.
    pub fn new(tenant: &str, caller: &str) -> Owner {
        Owner {
            tenant: tenant.into(),
            caller: caller.into(),
        }
    }
}

/// A place in the queue, to take it back when its waiter goes away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ticket(u64);

/// The queue: waiters by tenant and caller, with what each is running now. `W` is what the lane keeps of a
/// waiter (the channel that wakes it).
#[derive(Debug)]
pub struct FairQueue<W> {
    tenants: HashMap<Arc<str>, Share<Callers<W>>>,
    /// Counts tickets and services: both only grow, so they order arrivals and turns.
    clock: u64,
    waiting: usize,
}

/// A tenant's callers, each with its waiters in order.
type Callers<W> = HashMap<Arc<str>, Share<VecDeque<(Ticket, W)>>>;

/// A tenant's (or a caller's) part of the lane: jobs running, when it was last served, what waits inside it.
#[derive(Debug)]
struct Share<T> {
    running: usize,
    served_at: u64,
    inside: T,
}

impl<T: Default> Share<T> {
    fn new() -> Share<T> {
        Share {
            running: 0,
            served_at: 0,
            inside: T::default(),
        }
    }
}

/// What waits inside a share, to pick the share that goes next and to drop empty ones.
trait Waiters {
    /// The ticket of the first waiter inside, when there is one.
    fn first(&self) -> Option<Ticket>;
    fn is_idle(&self) -> bool;
}

impl<W> Waiters for VecDeque<(Ticket, W)> {
    fn first(&self) -> Option<Ticket> {
        self.front().map(|(ticket, _)| *ticket)
    }
    fn is_idle(&self) -> bool {
        self.is_empty()
    }
}

impl<T: Waiters> Waiters for HashMap<Arc<str>, Share<T>> {
    fn first(&self) -> Option<Ticket> {
        self.values().filter_map(|s| s.inside.first()).min()
    }
    fn is_idle(&self) -> bool {
        self.is_empty()
    }
}

impl<T: Waiters> Share<T> {
    /// The order of shares with someone waiting: fewest running, least recently served, first arrival.
    fn rank(&self) -> Option<(usize, u64, Ticket)> {
        Some((self.running, self.served_at, self.inside.first()?))
    }

    fn is_idle(&self) -> bool {
        self.running == 0 && self.inside.is_idle()
    }
}

/// The key of the share of `shares` that goes next.
fn next_of<T: Waiters>(shares: &HashMap<Arc<str>, Share<T>>) -> Option<Arc<str>> {
    shares
        .iter()
        .filter_map(|(key, share)| Some((share.rank()?, key)))
        .min()
        .map(|(_, key)| key.clone())
}

impl<W> Default for FairQueue<W> {
    fn default() -> Self {
        FairQueue {
            tenants: HashMap::new(),
            clock: 0,
            waiting: 0,
        }
    }
}

impl<W> FairQueue<W> {
    /// Waiters in the queue.
    pub fn waiting(&self) -> usize {
        self.waiting
    }

    /// Adds a waiter for `owner`, behind that caller's earlier ones.
    pub fn push(&mut self, owner: &Owner, waiter: W) -> Ticket {
        self.clock += 1;
        let ticket = Ticket(self.clock);
        self.tenants
            .entry(owner.tenant.clone())
            .or_insert_with(Share::new)
            .inside
            .entry(owner.caller.clone())
            .or_insert_with(Share::new)
            .inside
            .push_back((ticket, waiter));
        self.waiting += 1;
        ticket
    }

    /// Takes the waiter whose turn it is, counted as running for its owner until [`FairQueue::finished`].
    pub fn pop(&mut self) -> Option<(Owner, W)> {
        let tenant_key = next_of(&self.tenants)?;
        self.clock += 1;
        let tenant = self.tenants.get_mut(&tenant_key).expect("just picked");
        let caller_key =
            next_of(&tenant.inside).expect("a tenant with waiters has a caller with waiters");
        let caller = tenant.inside.get_mut(&caller_key).expect("just picked");
        let (_, waiter) = caller.inside.pop_front().expect("a caller with waiters");
        caller.running += 1;
        caller.served_at = self.clock;
        tenant.running += 1;
        tenant.served_at = self.clock;
        self.waiting -= 1;
        Some((
            Owner {
                tenant: tenant_key,
                caller: caller_key,
            },
            waiter,
        ))
    }

    /// Takes `ticket` out of the queue (its waiter went away before its turn): its waiter, if it was still there.
    pub fn remove(&mut self, owner: &Owner, ticket: Ticket) -> Option<W> {
        let tenant = self.tenants.get_mut(&owner.tenant)?;
        let caller = tenant.inside.get_mut(&owner.caller)?;
        let at = caller.inside.iter().position(|(t, _)| *t == ticket)?;
        let (_, waiter) = caller.inside.remove(at).expect("just found");
        self.waiting -= 1;
        self.forget_idle(owner);
        Some(waiter)
    }

    /// A job [`FairQueue::pop`] gave `owner` ended.
    pub fn finished(&mut self, owner: &Owner) {
        let Some(tenant) = self.tenants.get_mut(&owner.tenant) else {
            return;
        };
        tenant.running = tenant.running.saturating_sub(1);
        if let Some(caller) = tenant.inside.get_mut(&owner.caller) {
            caller.running = caller.running.saturating_sub(1);
        }
        self.forget_idle(owner);
    }

    /// Every waiter, taken out (the lane is closing).
    pub fn drain(&mut self) -> Vec<W> {
        let mut all = Vec::with_capacity(self.waiting);
        for tenant in self.tenants.values_mut() {
            for caller in tenant.inside.values_mut() {
                all.extend(caller.inside.drain(..).map(|(_, w)| w));
            }
        }
        self.waiting = 0;
        self.tenants.retain(|_, t| {
            t.inside.retain(|_, c| !c.is_idle());
            !t.is_idle()
        });
        all
    }

    /// Drops `owner`'s caller and tenant entries once nothing of theirs runs or waits (the map does not grow with
    /// every address ever seen).
    fn forget_idle(&mut self, owner: &Owner) {
        let Some(tenant) = self.tenants.get_mut(&owner.tenant) else {
            return;
        };
        if tenant.inside.get(&owner.caller).is_some_and(Share::is_idle) {
            tenant.inside.remove(&owner.caller);
        }
        if tenant.is_idle() {
            self.tenants.remove(&owner.tenant);
        }
    }

    /// Entries kept (for the tests: idle ones are dropped).
    #[cfg(test)]
    fn entries(&self) -> usize {
        self.tenants.values().map(|t| 1 + t.inside.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(tenant: &str, caller: &str) -> Owner {
        Owner::new(tenant, caller)
    }

    /// Pops every waiter, finishing each job at once: the order the waiters are served in.
    fn order<W>(queue: &mut FairQueue<W>) -> Vec<W> {
        let mut served = Vec::new();
        while let Some((owner, w)) = queue.pop() {
            queue.finished(&owner);
            served.push(w);
        }
        served
    }

    #[test]
    fn one_caller_is_served_in_order() {
        let mut queue = FairQueue::default();
        let a = owner("t", "a");
        for n in 0..4 {
            queue.push(&a, n);
        }
        assert_eq!(order(&mut queue), [0, 1, 2, 3]);
        assert_eq!(queue.entries(), 0, "nothing kept once idle");
    }

    #[test]
    fn a_caller_with_nothing_running_goes_before_one_holding_a_thread() {
        let mut queue = FairQueue::default();
        let (flood, hint) = (owner("", "10.0.0.1"), owner("", "10.0.0.2"));
        queue.push(&flood, "search 1");
        queue.push(&flood, "search 2");
        let (running, first) = queue.pop().expect("a waiter");
        assert_eq!((running.clone(), first), (flood.clone(), "search 1"));
        // The hint comes after the flood's second search, but the flood already holds a thread.
        queue.push(&hint, "hint");
        assert_eq!(queue.pop().map(|(_, w)| w), Some("hint"));
        assert_eq!(queue.pop().map(|(_, w)| w), Some("search 2"));
    }

    #[test]
    fn callers_take_turns() {
        let mut queue = FairQueue::default();
        let (a, b, c) = (owner("t", "a"), owner("t", "b"), owner("t", "c"));
        for n in 0..3 {
            queue.push(&a, ("a", n));
        }
        queue.push(&b, ("b", 0));
        queue.push(&b, ("b", 1));
        queue.push(&c, ("c", 0));
        assert_eq!(
            order(&mut queue),
            [("a", 0), ("b", 0), ("c", 0), ("a", 1), ("b", 1), ("a", 2)]
        );
    }

    #[test]
    fn tenants_take_turns_whatever_their_number_of_callers() {
        let mut queue = FairQueue::default();
        // Tenant "big" has three callers with two calls each; tenant "small" one caller with three.
        for caller in ["x", "y", "z"] {
            for n in 0..2 {
                queue.push(&owner("big", caller), format!("big/{caller}{n}"));
            }
        }
        for n in 0..3 {
            queue.push(&owner("small", "s"), format!("small/s{n}"));
        }
        let served = order(&mut queue);
        let first_six: Vec<_> = served[..6]
            .iter()
            .map(|s| &s[..s.find('/').unwrap()])
            .collect();
        assert_eq!(first_six, ["big", "small", "big", "small", "big", "small"]);
        // Inside "big", its callers take turns too.
        let big: Vec<_> = served
            .iter()
            .filter(|s| s.starts_with("big"))
            .cloned()
            .collect();
        assert_eq!(
            big,
            ["big/x0", "big/y0", "big/z0", "big/x1", "big/y1", "big/z1"]
        );
    }

    #[test]
    fn running_jobs_count_against_their_tenant_until_finished() {
        let mut queue = FairQueue::default();
        let (a, b) = (owner("ta", "a"), owner("tb", "b"));
        queue.push(&a, 1);
        queue.push(&a, 2);
        let (held, _) = queue.pop().expect("a1");
        queue.push(&b, 10);
        queue.push(&b, 11);
        // "ta" runs one job: "tb" goes next, and again while "ta" still holds its thread (ties break on service).
        let (b_owner, first) = queue.pop().expect("b");
        assert_eq!(first, 10);
        queue.finished(&b_owner);
        assert_eq!(queue.pop().map(|(_, w)| w), Some(11));
        queue.finished(&held);
        assert_eq!(queue.pop().map(|(_, w)| w), Some(2));
    }

    #[test]
    fn a_waiter_that_goes_away_leaves_the_queue() {
        let mut queue = FairQueue::default();
        let (a, b) = (owner("t", "a"), owner("t", "b"));
        let gone = queue.push(&a, "a0");
        queue.push(&b, "b0");
        queue.push(&a, "a1");
        assert_eq!(queue.remove(&a, gone), Some("a0"));
        assert_eq!(queue.remove(&a, gone), None, "only once");
        assert_eq!(queue.waiting(), 2);
        assert_eq!(order(&mut queue), ["b0", "a1"], "b0 came before a1");
        // The last waiter of a caller going away forgets the caller and its tenant.
        let alone = queue.push(&owner("u", "c"), "c0");
        assert_eq!(queue.remove(&owner("u", "c"), alone), Some("c0"));
        assert_eq!(queue.entries(), 0);
    }

    #[test]
    fn draining_takes_every_waiter_and_keeps_the_running_counts() {
        let mut queue = FairQueue::default();
        let a = owner("t", "a");
        queue.push(&a, 0);
        queue.push(&a, 1);
        queue.push(&owner("u", "b"), 2);
        let (running, _) = queue.pop().expect("one runs");
        let mut drained = queue.drain();
        drained.sort();
        assert_eq!(drained.len(), 2);
        assert_eq!(queue.waiting(), 0);
        assert!(queue.pop().is_none());
        assert_eq!(queue.entries(), 2, "the running job's tenant and caller");
        queue.finished(&running);
        assert_eq!(queue.entries(), 0);
    }
}
