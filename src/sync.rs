//! What the modules above the engine share to run concurrently: one lock that goes on past a poisoning, one
//! guard that stops a background task with its owner, and one count of things held open per key (streams,
//! connections, long calls) whose entries live as long as what they count. A module of its own, using nothing of the crate, so that
//! every layer can use it.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use tokio::task::JoinHandle;

/// Locks `mutex`, going on past a poisoning. Every critical section of this crate assigns whole values (counts, a
/// map's entries, a match's state), so a panic in another holder leaves nothing half-changed, and one call that
/// panicked is no reason to stop serving all the others.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A background task (a sweep, a purge, the clocks, a reload loop) that is aborted when its guard is dropped, so
/// that it ends with whoever started it.
#[derive(Debug)]
#[must_use = "the task is stopped when its guard is dropped"]
pub struct TaskGuard(JoinHandle<()>);

impl TaskGuard {
    /// Spawns `task` on the current runtime, guarded.
    pub fn spawn(task: impl Future<Output = ()> + Send + 'static) -> TaskGuard {
        TaskGuard(tokio::spawn(task))
    }

    /// Guards a task already spawned.
    pub fn new(task: JoinHandle<()>) -> TaskGuard {
        TaskGuard(task)
    }
}

impl Drop for TaskGuard {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Things held open, by key, each refused past its key's limit. An entry lives as long as what it counts.
#[derive(Debug)]
pub struct Counts<K: Hash + Eq> {
    open: Arc<Mutex<HashMap<K, usize>>>,
}

impl<K: Hash + Eq> Default for Counts<K> {
    fn default() -> Self {
        Counts {
            open: Arc::default(),
        }
    }
}

impl<K: Hash + Eq + Clone> Counts<K> {
    /// One more for `key`, unless it holds `max` already (`0`: no limit); refused: how many it holds.
    pub fn take(&self, key: &K, max: usize) -> Result<Held<K>, usize> {
        let mut open = lock(&self.open);
        let held = open.entry(key.clone()).or_insert(0);
        if max > 0 && *held >= max {
            return Err(*held);
        }
        *held += 1;
        Ok(Held {
            open: self.open.clone(),
            key: key.clone(),
        })
    }

    /// How many `key` holds.
    pub fn held(&self, key: &K) -> usize {
        lock(&self.open).get(key).copied().unwrap_or(0)
    }

    /// The keys holding something.
    pub fn keys(&self) -> Vec<K> {
        lock(&self.open).keys().cloned().collect()
    }

    /// Keys holding something.
    pub fn len(&self) -> usize {
        lock(&self.open).len()
    }

    /// Whether no key holds anything.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One thing counted in [`Counts`], given back when dropped.
#[derive(Debug)]
pub struct Held<K: Hash + Eq> {
    open: Arc<Mutex<HashMap<K, usize>>>,
    key: K,
}

impl<K: Hash + Eq> Drop for Held<K> {
    fn drop(&mut self) {
        let mut open = lock(&self.open);
        if let Some(held) = open.get_mut(&self.key) {
            *held -= 1;
            if *held == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_refuse_past_the_limit_and_forget_a_key_when_its_last_is_given_back() {
        let counts = Counts::default();
        let a = 1u32;
        let first = counts.take(&a, 2).unwrap();
        let second = counts.take(&a, 2).unwrap();
        assert_eq!(counts.take(&a, 2).unwrap_err(), 2);
        assert!(counts.take(&2, 2).is_ok(), "another key has its own");
        drop(first);
        let third = counts.take(&a, 2).unwrap();
        drop((second, third));
        assert_eq!(counts.held(&a), 0);
        assert!(counts.is_empty());
        let unlimited: Vec<_> = (0..10).map(|_| counts.take(&a, 0).unwrap()).collect();
        assert_eq!(counts.held(&a), 10);
        drop(unlimited);
        assert!(counts.is_empty());
    }
}
