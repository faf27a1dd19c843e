//! What the modules above the engine share to run concurrently: one lock that goes on past a poisoning, and one
//! guard that stops a background task with its owner. A module of its own, using nothing of the crate, so that
//! every layer can use it.

use std::future::Future;
use std::sync::{Mutex, MutexGuard, PoisonError};
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
