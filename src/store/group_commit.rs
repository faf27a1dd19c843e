//! Group commit: appends are handed to one writer thread of the store's own, which commits everything waiting when
//! it comes round in one transaction (one fsync), then answers each append with its own result. N concurrent
//! appends cost one fsync instead of N; a caller awaits its answer without holding a thread, and the writer is
//! woken once a batch, not once an append.

use super::StoreError;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use tokio::sync::oneshot;

/// How long the writer waits for a request before it calls a quiet spell ([`Moment::Quiet`]).
pub(super) const QUIET: std::time::Duration = std::time::Duration::from_millis(500);

/// When the writer tidies: work of its own that no caller waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Moment {
    /// A batch was committed and answered.
    AfterBatch,
    /// No request came for [`QUIET`].
    Quiet,
    /// The writer is stopping (its store was dropped): its last chance to write.
    Closing,
}

/// What the writer thread runs.
pub(super) trait Committer<R>: Send + 'static {
    /// Commits `batch`: one result per request, in order.
    fn commit(&mut self, batch: &[R]) -> Vec<Result<(), StoreError>>;

    /// Work of the writer's own that no caller waits for, at `moment`.
    fn tidy(&mut self, _moment: Moment) {}
}

/// A plain commit function: nothing to tidy.
impl<R, F> Committer<R> for F
where
    F: FnMut(&[R]) -> Vec<Result<(), StoreError>> + Send + 'static,
{
    fn commit(&mut self, batch: &[R]) -> Vec<Result<(), StoreError>> {
        self(batch)
    }
}

/// Where a request's result goes.
type Answer = oneshot::Sender<Result<(), StoreError>>;

/// A group-commit point for requests `R`, and its writer thread, which stops (after its batch) when this is dropped.
pub(super) struct GroupCommit<R> {
    writer: Option<mpsc::Sender<(R, Answer)>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

fn stopped() -> StoreError {
    StoreError::Failed("the store's writer has stopped".into())
}

impl<R: Send + 'static> GroupCommit<R> {
    /// Starts the writer thread `name`: it gives `committer` each batch (in arrival order), which answers one result
    /// per request, in the same order, and lets it tidy between batches ([`Committer::tidy`]). A commit that panics
    /// fails its batch, a tidying that panics is logged; the writer goes on.
    pub(super) fn start(
        name: &str,
        mut committer: impl Committer<R>,
    ) -> std::io::Result<GroupCommit<R>> {
        let (writer, waiting) = mpsc::channel::<(R, Answer)>();
        let thread = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                loop {
                    let first = match waiting.recv_timeout(QUIET) {
                        Ok(first) => first,
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            // Once a quiet spell: then the writer sleeps until the next request.
                            tidy(&mut committer, Moment::Quiet);
                            match waiting.recv() {
                                Ok(first) => first,
                                Err(_) => break,
                            }
                        }
                    };
                    let (requests, answers): (Vec<R>, Vec<Answer>) =
                        std::iter::once(first).chain(waiting.try_iter()).unzip();
                    let results = catch_unwind(AssertUnwindSafe(|| committer.commit(&requests)))
                        .unwrap_or_else(|_| {
                            tracing::error!(
                                appends = requests.len(),
                                "a commit panicked; its appends failed"
                            );
                            Vec::new()
                        });
                    let mut results = results.into_iter();
                    for answer in answers {
                        let result = results.next().unwrap_or_else(|| {
                            Err(StoreError::Failed("the commit did not finish".into()))
                        });
                        // A caller gone away has nobody to tell; its append is committed all the same.
                        let _ = answer.send(result);
                    }
                    tidy(&mut committer, Moment::AfterBatch);
                }
                tidy(&mut committer, Moment::Closing);
            })?;
        Ok(GroupCommit {
            writer: Some(writer),
            thread: Some(thread),
        })
    }

    /// Commits `request`, with whatever else is waiting when its turn comes; its result, once durable.
    pub(super) async fn submit(&self, request: R) -> Result<(), StoreError> {
        let (answer, answered) = oneshot::channel();
        self.writer
            .as_ref()
            .ok_or_else(stopped)?
            .send((request, answer))
            .map_err(|_| stopped())?;
        answered.await.unwrap_or_else(|_| Err(stopped()))
    }
}

/// `committer`'s tidying at `moment`; a panic is logged, and the writer goes on.
fn tidy<R>(committer: &mut impl Committer<R>, moment: Moment) {
    if catch_unwind(AssertUnwindSafe(|| committer.tidy(moment))).is_err() {
        tracing::error!(?moment, "the store writer's tidying panicked");
    }
}

impl<R> Drop for GroupCommit<R> {
    fn drop(&mut self) {
        // The writer ends once its channel is closed and its batch committed; waiting for it means that the store's
        // file is closed when the store is gone (it can be opened again at once).
        drop(self.writer.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_writers_share_commits_and_each_gets_its_own_result() {
        let commits = Arc::new(AtomicUsize::new(0));
        let counted = commits.clone();
        let group = Arc::new(
            GroupCommit::<u32>::start("test-commit", move |batch: &[u32]| {
                counted.fetch_add(1, Ordering::Relaxed);
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
            .unwrap(),
        );
        let writers: Vec<_> = (0..16u32)
            .map(|n| {
                let group = group.clone();
                tokio::spawn(async move {
                    let mut results = Vec::new();
                    for i in 0..50 {
                        results.push(group.submit(n * 1000 + i).await.is_ok());
                    }
                    results
                })
            })
            .collect();
        for writer in writers {
            let results = writer.await.unwrap();
            assert_eq!(results, (0..50).map(|i| i % 2 == 0).collect::<Vec<_>>());
        }
        let commits = commits.load(Ordering::Relaxed);
        assert!(
            commits < 16 * 50,
            "{commits} commits for 800 writes: some were shared"
        );
    }

    #[tokio::test]
    async fn a_commit_that_panics_fails_its_batch_and_the_next_one_commits() {
        let calls = AtomicUsize::new(0);
        let group = GroupCommit::<u32>::start("test-commit", move |batch: &[u32]| {
            if calls.fetch_add(1, Ordering::Relaxed) == 0 {
                panic!("the disk caught fire");
            }
            batch.iter().map(|_| Ok(())).collect()
        })
        .unwrap();
        assert!(group.submit(1).await.is_err());
        assert!(group.submit(2).await.is_ok());
    }
}
