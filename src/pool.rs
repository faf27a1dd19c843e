//! The engine pool: where rules work that turns out long runs, off the async workers.
//!
//! Nearly every call decides its answer in microseconds, and hopping to another thread would cost more than
//! the work. So a call first runs inline under a small budget ([`crate::config::EngineSettings::inline_laps`]);
//! only when that is spent does it start again on the pool, under its full budget, with a flag that stops it
//! when the caller goes away (the call's future is dropped: the client cancelled, its deadline passed, the
//! server gave up on it at shutdown). The pool has a fixed number of threads (by default half the cores, so
//! long calls never take every core from the cheap ones) and a bounded queue: past it a long call is refused
//! at once rather than waiting behind work it cannot see. Work known to be long, the built-in opponent's searches
//! ([`EnginePool::run_on_pool`]), skips the inline try: it plays thousands of short moves that never spend a lap,
//! so inline it would hold an async worker for its whole length, with no flag to stop it.

use crate::config::EngineSettings;
use crate::engine::{Budget, Unfinished};
use crate::metrics::{EngineOutcome, Metrics};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// Why the pool did not produce an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkError {
    /// The engine stopped before deciding (budget spent, or cancelled).
    #[error(transparent)]
    Unfinished(#[from] Unfinished),
    /// The pool's queue was full.
    #[error("the engine is busy: {waiting} long calls are already waiting for it")]
    Busy {
        /// The queue limit that was reached.
        waiting: usize,
    },
    /// The server is shutting down.
    #[error("the server is shutting down")]
    ShuttingDown,
}

/// The budget a call gets: what it may spend inline, and in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Laps spent on the async worker before the call moves to the pool.
    pub inline_laps: u64,
    /// Laps the call may spend in all.
    pub laps: u64,
}

/// The engine pool, shared by the services.
#[derive(Clone, Debug)]
pub struct EnginePool {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    threads: Arc<Semaphore>,
    queue_limit: usize,
    waiting: AtomicUsize,
    /// Set when the server stops waiting for calls in flight: every long call stops within a few thousand laps.
    stopping: Arc<AtomicBool>,
    settings: EngineSettings,
    metrics: Metrics,
}

impl EnginePool {
    /// A pool as `settings` say.
    pub fn new(settings: &EngineSettings, metrics: Metrics) -> EnginePool {
        EnginePool {
            inner: Arc::new(Inner {
                threads: Arc::new(Semaphore::new(settings.pool_size())),
                queue_limit: settings.queue_limit,
                waiting: AtomicUsize::new(0),
                stopping: Arc::new(AtomicBool::new(false)),
                settings: settings.clone(),
                metrics,
            }),
        }
    }

    /// The limits of a stateless Rules call.
    pub fn rules_limits(&self) -> Limits {
        Limits {
            inline_laps: self.inner.settings.inline_laps,
            laps: self.inner.settings.rules_budget_laps,
        }
    }

    /// The budget of a move of a server-held match (played by the match manager, inline while it is short, on a
    /// blocking thread past `inline_laps`): the match limit, stopped with the pool at the end of the shutdown grace.
    pub fn match_budget(&self) -> Budget {
        Budget::laps(self.inner.settings.match_budget_laps)
            .cancelled_by(self.inner.stopping.clone())
    }

    /// Stops every long call in flight (they end with [`Unfinished::Cancelled`]) and refuses new ones: the
    /// server's shutdown grace is over.
    pub fn stop(&self) {
        self.inner.stopping.store(true, Ordering::Release);
    }

    /// Runs `job` inline under `limits.inline_laps`, or, when that is not enough, on the pool under
    /// `limits.laps`. `job` may run twice (the inline try's answer is thrown away when it runs out).
    pub async fn run<R: Send + 'static>(
        &self,
        limits: Limits,
        job: impl Fn() -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        match self.try_inline(limits, &job) {
            Some(decided) => decided,
            None => self.run_on_pool(limits.laps, job).await,
        }
    }

    /// The inline try of [`EnginePool::run`], on its own: `job`'s answer (or why it stopped) when it is decided
    /// within `limits.inline_laps`, `None` when it must start again on the pool ([`EnginePool::run_on_pool`]
    /// under `limits.laps`). For a caller that answers at once when it can, without an `await` in between.
    pub fn try_inline<R>(
        &self,
        limits: Limits,
        job: &impl Fn() -> R,
    ) -> Option<Result<R, WorkError>> {
        let metrics = &self.inner.metrics;
        match Budget::laps(limits.inline_laps.min(limits.laps)).run(job) {
            Ok((answer, _)) => {
                metrics.engine_work(EngineOutcome::Inline);
                Some(Ok(answer))
            }
            Err(Unfinished::Exhausted { .. }) if limits.laps > limits.inline_laps => None,
            Err(unfinished) => {
                metrics.engine_work(stopped(unfinished));
                Some(Err(unfinished.into()))
            }
        }
    }

    /// Runs `job` on the pool under `laps`, with no inline try: for work known to be long (a search), which
    /// must never hold an async worker and must be stoppable by its caller. The job runs once.
    pub async fn run_on_pool<R: Send + 'static>(
        &self,
        laps: u64,
        job: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        let inner = &self.inner;
        let metrics = &inner.metrics;
        if inner.stopping.load(Ordering::Acquire) {
            metrics.engine_work(EngineOutcome::Cancelled);
            return Err(WorkError::ShuttingDown);
        }
        let permit = {
            let waiting = Waiting::enter(inner).inspect_err(|_| {
                metrics.engine_work(EngineOutcome::Busy);
            })?;
            let permit = inner
                .threads
                .clone()
                .acquire_owned()
                .await
                .map_err(|_| WorkError::ShuttingDown)?;
            drop(waiting);
            permit
        };
        run_holding(inner, permit, laps, job, true).await
    }
}

impl EnginePool {
    /// Runs `job` on the pool under `laps` at once (never inline): the server's own long work, such as a bot's
    /// search, which is known to be long. It waits for a thread however many wait already, so its callers bound
    /// themselves; it stops, like every long call, when its future is dropped or at the end of the shutdown
    /// grace.
    pub async fn run_background<R: Send + 'static>(
        &self,
        laps: u64,
        job: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        let inner = &self.inner;
        if inner.stopping.load(Ordering::Acquire) {
            return Err(WorkError::ShuttingDown);
        }
        let permit = inner
            .threads
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| WorkError::ShuttingDown)?;
        run_holding(inner, permit, laps, job, false).await
    }

    /// The laps a move of a server-held match may spend (`engine.match_budget_laps`).
    pub fn match_budget_laps(&self) -> u64 {
        self.inner.settings.match_budget_laps
    }
}

/// Runs `job` on a blocking thread under `laps`, holding `permit` (one of the pool's threads) until the job ends,
/// not until the caller stops waiting: its future dropped sets the job's cancel flag. `count` says whether the
/// outcome is counted in the engine-work metric (a caller's call) or not (the server's own work).
async fn run_holding<R: Send + 'static>(
    inner: &Inner,
    permit: tokio::sync::OwnedSemaphorePermit,
    laps: u64,
    job: impl FnOnce() -> R + Send + 'static,
    count: bool,
) -> Result<R, WorkError> {
    let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
    let budget = Budget::laps(laps)
        .cancelled_by(cancel.0.clone())
        .cancelled_by(inner.stopping.clone());
    let metrics = inner.metrics.clone();
    metrics.engine_running_add(1);
    let ran = tokio::task::spawn_blocking(move || {
        let ran = budget.run(job);
        if count {
            metrics.engine_work(
                ran.as_ref()
                    .map_or_else(|u| stopped(*u), |_| EngineOutcome::Pool),
            );
        }
        metrics.engine_running_add(-1);
        drop(permit);
        ran
    })
    .await;
    match ran {
        Ok(Ok((answer, _))) => Ok(answer),
        Ok(Err(unfinished)) => Err(unfinished.into()),
        // The job panicked: let the caller's task see it as the inline path would.
        Err(join) if join.is_panic() => std::panic::resume_unwind(join.into_panic()),
        // Never started: the runtime is shutting down.
        Err(_) => Err(WorkError::ShuttingDown),
    }
}

/// The metrics outcome of work the engine stopped before deciding.
fn stopped(unfinished: Unfinished) -> EngineOutcome {
    match unfinished {
        Unfinished::Exhausted { .. } => EngineOutcome::Exhausted,
        Unfinished::Cancelled => EngineOutcome::Cancelled,
    }
}

/// A place in the pool's queue, given back when dropped (the call got a thread, or went away while waiting).
struct Waiting<'a>(&'a Inner);

impl<'a> Waiting<'a> {
    fn enter(inner: &'a Inner) -> Result<Waiting<'a>, WorkError> {
        inner
            .waiting
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |w| {
                (w < inner.queue_limit).then_some(w + 1)
            })
            .map_err(|waiting| WorkError::Busy { waiting })?;
        Ok(Waiting(inner))
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Set when the call's future is dropped before its job finished: the job stops within a few thousand laps
/// instead of burning a pool thread for an answer nobody will read.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}
