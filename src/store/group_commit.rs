//! Group commit: writers that arrive while a commit is under way wait for it, then are committed together in the
//! next one, so N concurrent appends cost one fsync instead of N. Each writer still returns only once its own write
//! is durable (leader and followers, no thread of its own: the first writer to find no commit running commits
//! everything waiting, itself included, and hands the results out).

use super::StoreError;
use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// The writers waiting and the results not yet collected.
struct Queue<R> {
    waiting: Vec<(u64, R)>,
    committing: bool,
    done: HashMap<u64, Result<(), StoreError>>,
    next_ticket: u64,
}

/// A group-commit point for requests `R`.
pub(super) struct GroupCommit<R> {
    queue: Mutex<Queue<R>>,
    turn: Condvar,
}

impl<R> Default for GroupCommit<R> {
    fn default() -> Self {
        GroupCommit {
            queue: Mutex::new(Queue {
                waiting: Vec::new(),
                committing: false,
                done: HashMap::new(),
                next_ticket: 0,
            }),
            turn: Condvar::new(),
        }
    }
}

impl<R> GroupCommit<R> {
    fn lock(&self) -> MutexGuard<'_, Queue<R>> {
        // The queue is changed only by whole assignments: a panic elsewhere leaves it consistent.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Commits `request`, with whatever else is waiting when its turn comes: `commit` is given the batch (in arrival
    /// order) and answers one result per request, in the same order. Blocks until this request's result is known.
    pub(super) fn submit(
        &self,
        request: R,
        commit: impl FnOnce(&[R]) -> Vec<Result<(), StoreError>>,
    ) -> Result<(), StoreError> {
        let mut queue = self.lock();
        let ticket = queue.next_ticket;
        queue.next_ticket += 1;
        queue.waiting.push((ticket, request));
        let mut commit = Some(commit);
        loop {
            if let Some(result) = queue.done.remove(&ticket) {
                return result;
            }
            if !queue.committing {
                // This writer leads: everything waiting, itself included, goes into one commit.
                queue.committing = true;
                let batch = std::mem::take(&mut queue.waiting);
                drop(queue);
                let (tickets, requests): (Vec<u64>, Vec<R>) = batch.into_iter().unzip();
                let mut guard = Leading {
                    group: self,
                    tickets: &tickets,
                    results: None,
                };
                let commit = commit.take().expect("a writer leads at most once");
                guard.results = Some(commit(&requests));
                drop(guard);
                queue = self.lock();
                continue;
            }
            queue = self
                .turn
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// The leader's commit: its results are handed out when it ends, even by a panic (then every request of the batch
/// fails), so that no follower waits for ever.
struct Leading<'a, R> {
    group: &'a GroupCommit<R>,
    tickets: &'a [u64],
    results: Option<Vec<Result<(), StoreError>>>,
}

impl<R> Drop for Leading<'_, R> {
    fn drop(&mut self) {
        let mut results = self.results.take().unwrap_or_default().into_iter();
        let mut queue = self.group.lock();
        for &ticket in self.tickets {
            let result = results
                .next()
                .unwrap_or_else(|| Err(StoreError::Failed("the commit did not finish".into())));
            queue.done.insert(ticket, result);
        }
        queue.committing = false;
        drop(queue);
        self.group.turn.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn concurrent_writers_share_commits_and_each_gets_its_own_result() {
        let group = Arc::new(GroupCommit::<u32>::default());
        let commits = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..16u32)
            .map(|n| {
                let (group, commits) = (group.clone(), commits.clone());
                std::thread::spawn(move || {
                    (0..50)
                        .map(|i| {
                            group.submit(n * 1000 + i, |batch| {
                                commits.fetch_add(1, Ordering::Relaxed);
                                std::thread::sleep(std::time::Duration::from_micros(200));
                                // Odd requests are refused, as a version conflict would be.
                                batch
                                    .iter()
                                    .map(|r| {
                                        if r % 2 == 0 {
                                            Ok(())
                                        } else {
                                            Err(StoreError::Conflict { current: 0 })
                                        }
                                    })
                                    .collect()
                            })
                        })
                        .map(|result| result.is_ok())
                        .collect::<Vec<bool>>()
                })
            })
            .collect();
        for thread in threads {
            let results = thread.join().unwrap();
            assert_eq!(results, (0..50).map(|i| i % 2 == 0).collect::<Vec<_>>());
        }
        let commits = commits.load(Ordering::Relaxed);
        assert!(
            commits < 16 * 50,
            "{commits} commits for 800 writes: some were shared"
        );
    }

    #[test]
    fn a_leader_that_panics_fails_its_batch_and_the_next_writer_commits() {
        let group = GroupCommit::<u32>::default();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            group.submit(1, |_| panic!("the disk caught fire"))
        }));
        assert!(panicked.is_err());
        assert!(group
            .submit(2, |batch| batch.iter().map(|_| Ok(())).collect())
            .is_ok());
    }
}
