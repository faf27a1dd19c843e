//! The engine pool: where rules work that turns out long runs, off the async workers, and in what order.
//!
//! Nearly every call decides its answer in microseconds, and hopping to another thread would cost more than
//! the work. So a call first runs inline under a small budget ([`crate::config::EngineSettings::inline_laps`]);
//! only when that is spent does it start again on the pool, under its full budget, with a flag that stops it
//! when the caller goes away (the call's future is dropped: the client cancelled, its deadline passed, the
//! server gave up on it at shutdown). Work known to be long, the built-in opponent's searches, skips the inline
//! try: it plays thousands of short moves that never spend a lap, so inline it would hold an async worker for
//! its whole length, with no flag to stop it.
//!
//! The pool's threads are split in three lanes ([`EngineLane`]), each with a [fair queue](fair) in place of
//! first come, first served (docs/guide/engine-work.md tells operators the same):
//!
//! - **quick**: searches expected short (a hint at a low level) try here first, under
//!   `engine.quick_search_laps`; one that turns out longer starts again on the long lane. So a hint never waits
//!   behind a search of seconds, and nothing long can hold this lane for more than that budget.
//! - **long**: callers' long work (searches, Rules calls past `inline_laps`, match moves past it). Half the cores
//!   by default, so long work never takes every core from the cheap calls.
//! - **bots**: the server's own bots (`bots.max_thinking` threads), so that callers' searches never delay a bot;
//!   a bot on a clock waits at most until its move's share of the clock is spent ([`EnginePool::run_bot`]).
//!
//! In each lane a free thread goes to the tenant running the fewest jobs there, then inside it to the caller
//! running the fewest ([`Owner`]: a player, an API key, a client address). A caller may have
//! `engine.max_long_calls_per_caller` long calls in flight, and the callers' lanes together `engine.queue_limit`
//! waiting: past either a long call is refused at once rather than waiting behind work it cannot see.

pub mod fair;
mod lane;

pub use fair::Owner;

use crate::config::EngineSettings;
use crate::engine::{Budget, Unfinished};
pub use crate::metrics::EngineLane;
use crate::metrics::{EngineOutcome, Metrics};
use crate::sync::{Counts, Held};
use lane::{Lane, Permit};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// The caller already has its share of long calls in flight.
    #[error(
        "this caller already has {limit} long calls (searches, or calls whose rules work ran long) in flight, \
         the most one caller may have (engine.max_long_calls_per_caller)"
    )]
    TooManyLongCalls {
        /// The limit per caller.
        limit: usize,
    },
    /// A bot's deadline passed before a thread of its lane was free.
    #[error("no engine thread was free before the move's deadline")]
    Late,
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
    quick: Arc<Lane>,
    long: Arc<Lane>,
    bots: Arc<Lane>,
    /// Long calls in flight per caller (waiting or running), for `max_long_calls_per_caller`.
    in_flight: Counts<Owner>,
    queue_limit: usize,
    /// Callers' long calls waiting for a thread (quick and long lanes).
    waiting: AtomicUsize,
    /// Set when the server stops waiting for calls in flight: every long call stops within a few thousand laps.
    stopping: Arc<AtomicBool>,
    settings: EngineSettings,
    metrics: Metrics,
}

impl EnginePool {
    /// A pool as `settings` say, with one thread for the bots (see [`EnginePool::with_bot_threads`]).
    pub fn new(settings: &EngineSettings, metrics: Metrics) -> EnginePool {
        EnginePool::with_lanes(settings, 1, metrics)
    }

    /// A pool as `settings` say, with `bot_threads` threads for the server's own bots (`bots.max_thinking`).
    pub fn with_lanes(
        settings: &EngineSettings,
        bot_threads: usize,
        metrics: Metrics,
    ) -> EnginePool {
        let lane = |name, threads| Lane::new(name, threads, metrics.clone());
        EnginePool {
            inner: Arc::new(Inner {
                quick: lane(EngineLane::Quick, settings.quick_threads),
                long: lane(EngineLane::Long, settings.pool_size()),
                bots: lane(EngineLane::Bots, bot_threads),
                in_flight: Counts::default(),
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

    /// The budget of a move of a server-held match (played by the match manager, inline while it is short, on the
    /// long lane past `inline_laps`, [`EnginePool::run_move`]): the match limit, stopped with the pool at the end
    /// of the shutdown grace.
    pub fn match_budget(&self) -> Budget {
        Budget::laps(self.inner.settings.match_budget_laps)
            .cancelled_by(self.inner.stopping.clone())
    }

    /// The laps a move may spend inline (`engine.inline_laps`).
    pub fn inline_laps(&self) -> u64 {
        self.inner.settings.inline_laps
    }

    /// Stops every long call in flight (they end with [`Unfinished::Cancelled`]) and refuses new ones: the
    /// server's shutdown grace is over.
    pub fn stop(&self) {
        self.inner.stopping.store(true, Ordering::Release);
        for lane in [&self.inner.quick, &self.inner.long, &self.inner.bots] {
            lane.close();
        }
    }

    /// Runs `job` inline under `limits.inline_laps`, or, when that is not enough, on the long lane for `owner`
    /// under `limits.laps`. `job` may run twice (the inline try's answer is thrown away when it runs out).
    pub async fn run<R: Send + 'static>(
        &self,
        owner: Owner,
        limits: Limits,
        job: impl Fn() -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        match self.try_inline(limits, &job) {
            Some(decided) => decided,
            None => self.run_long(owner, limits.laps, job).await,
        }
    }

    /// The inline try of [`EnginePool::run`], on its own: `job`'s answer (or why it stopped) when it is decided
    /// within `limits.inline_laps`, `None` when it must start again on the pool ([`EnginePool::run_long`]
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

    /// Runs `owner`'s `job` on the long lane under `laps`, with no inline try: a caller's work known or found to
    /// be long, which must never hold an async worker and must be stoppable by its caller. The job runs once.
    pub async fn run_long<R: Send + 'static>(
        &self,
        owner: Owner,
        laps: u64,
        job: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        let _in_flight = self.admit(&owner)?;
        self.on_long_lane(&owner, laps, job).await
    }

    /// `owner`'s `job` on the long lane under `laps`, its outcome counted: the one way a caller's long work runs
    /// there, whether known long at once or found long on the quick lane.
    async fn on_long_lane<R: Send + 'static>(
        &self,
        owner: &Owner,
        laps: u64,
        job: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        let metrics = self.inner.metrics.clone();
        let ran = self
            .on_lane(
                &self.inner.long,
                owner,
                Queue::Limited,
                laps,
                move |budget| counted(&metrics, budget.run(job)),
            )
            .await;
        self.answer(ran)
    }

    /// Runs `owner`'s search `job` under `laps`: when `expected_laps` (what its budget should cost, a lap per move
    /// it plays) is within `engine.quick_search_laps`, on the quick lane first under that many laps, and again on
    /// the long lane only if it turns out longer; otherwise on the long lane at once. `job` may run twice (a
    /// search is deterministic for its seed, unless it has a time limit).
    pub async fn run_search<R: Send + 'static>(
        &self,
        owner: Owner,
        laps: u64,
        expected_laps: u64,
        job: impl Fn() -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        let _in_flight = self.admit(&owner)?;
        let quick = self.inner.settings.quick_search_laps.min(laps);
        let job = if quick > 0 && expected_laps <= quick {
            let counter = self.inner.metrics.clone();
            let tried = self
                .on_lane(
                    &self.inner.quick,
                    &owner,
                    Queue::Limited,
                    quick,
                    move |budget| match budget.run(&job) {
                        // Not an outcome yet: it starts again on the long lane.
                        ran @ Err(Unfinished::Exhausted { .. }) if laps > quick => (ran, job),
                        ran => (counted(&counter, ran), job),
                    },
                )
                .await;
            match tried {
                Ok((Err(Unfinished::Exhausted { .. }), job)) if laps > quick => job,
                Ok((ran, _)) => return self.answer(Ok(ran)),
                Err(refused) => return self.answer::<R>(Err(refused)),
            }
        } else {
            job
        };
        self.on_long_lane(&owner, laps, job).await
    }

    /// Runs a move of a server-held match that turned long (`job`, under the match budget) on the long lane for
    /// `owner` (the match's tenant and the match). Never refused for the queue or the caller cap: a match has
    /// one move in flight at a time, and a move is never accepted undecided.
    pub async fn run_move<R: Send + 'static>(
        &self,
        owner: Owner,
        job: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        let laps = self.inner.settings.match_budget_laps;
        let ran = self
            .on_lane(&self.inner.long, &owner, Queue::Unlimited, laps, |budget| {
                budget.run(job)
            })
            .await?;
        Ok(ran?.0)
    }

    /// Runs a search of the server's own bot (`job`, under the match budget) on the bots' lane, for `owner` (whose
    /// tenant says whether the bot is on a clock, and whose caller is the match: see [`bot_owner`]). With a
    /// `deadline` (the move's share of the bot's clock), the wait for a thread counts within it: past it the
    /// bot gives up its place ([`WorkError::Late`]), and `job` is given the time left when it starts, to bound its
    /// search by. It stops, like every long job, when its future is dropped or at the end of the shutdown grace.
    pub async fn run_bot<R: Send + 'static>(
        &self,
        owner: Owner,
        deadline: Option<Instant>,
        job: impl FnOnce(Option<Duration>) -> R + Send + 'static,
    ) -> Result<R, WorkError> {
        let inner = &self.inner;
        if inner.stopping.load(Ordering::Acquire) {
            return Err(WorkError::ShuttingDown);
        }
        // Only the wait is bounded here: once on a thread, the job bounds its own search by the time left.
        let turn = inner.bots.acquire(&owner);
        let permit = match deadline {
            Some(deadline) => {
                tokio::time::timeout_at(tokio::time::Instant::from_std(deadline), turn)
                    .await
                    .map_err(|_| WorkError::Late)?
            }
            None => turn.await,
        }
        .map_err(|_| WorkError::ShuttingDown)?;
        let work = move |budget: Budget| {
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            budget.run(|| job(left))
        };
        let ran = run_holding(inner, permit, inner.settings.match_budget_laps, work).await?;
        Ok(ran?.0)
    }

    /// The laps a move of a server-held match may spend (`engine.match_budget_laps`).
    pub fn match_budget_laps(&self) -> u64 {
        self.inner.settings.match_budget_laps
    }

    /// Counts `owner`'s long call in flight, or refuses it: the server stops, or the caller has its share.
    fn admit(&self, owner: &Owner) -> Result<Held<Owner>, WorkError> {
        let inner = &self.inner;
        if inner.stopping.load(Ordering::Acquire) {
            inner.metrics.engine_work(EngineOutcome::Cancelled);
            return Err(WorkError::ShuttingDown);
        }
        // At least 1 (the configuration says so): `Counts`' 0 for "no limit" never applies.
        let limit = inner.settings.max_long_calls_per_caller;
        inner.in_flight.take(owner, limit).map_err(|_| {
            inner.metrics.engine_work(EngineOutcome::CallerCap);
            WorkError::TooManyLongCalls { limit }
        })
    }

    /// A caller's answer from its job's run (counted on its thread, [`counted`]), or the refusal of its turn,
    /// counted here.
    fn answer<R>(
        &self,
        ran: Result<Result<(R, u64), Unfinished>, WorkError>,
    ) -> Result<R, WorkError> {
        match ran {
            Ok(Ok((answer, _))) => Ok(answer),
            Ok(Err(unfinished)) => Err(unfinished.into()),
            Err(refused) => {
                self.inner.metrics.engine_work(match refused {
                    WorkError::Busy { .. } => EngineOutcome::Busy,
                    _ => EngineOutcome::Cancelled,
                });
                Err(refused)
            }
        }
    }

    /// Waits for `owner`'s turn on `lane`, then runs `work` on a blocking thread with the budget of `laps`, stopped
    /// by the caller's going away and by the pool's stop. The thread is held until `work` ends, not until the
    /// caller stops waiting: its future dropped sets the budget's cancel flag.
    async fn on_lane<T: Send + 'static>(
        &self,
        lane: &Arc<Lane>,
        owner: &Owner,
        queue: Queue,
        laps: u64,
        work: impl FnOnce(Budget) -> T + Send + 'static,
    ) -> Result<T, WorkError> {
        let inner = &self.inner;
        if inner.stopping.load(Ordering::Acquire) {
            return Err(WorkError::ShuttingDown);
        }
        let permit = {
            let waiting = match queue {
                Queue::Limited => Some(Waiting::enter(inner)?),
                Queue::Unlimited => None,
            };
            let permit = lane
                .acquire(owner)
                .await
                .map_err(|_| WorkError::ShuttingDown)?;
            drop(waiting);
            permit
        };
        run_holding(inner, permit, laps, work).await
    }
}

/// Whether a job counts against `engine.queue_limit` while it waits.
#[derive(Clone, Copy)]
enum Queue {
    /// A caller's long call.
    Limited,
    /// The server's own work, bounded by its own means (a match's one move, the bots' matches).
    Unlimited,
}

/// The owner of a bot's search on the bots' lane: bots on a clock and bots without take turns, and inside each
/// the matches take turns.
pub fn bot_owner(on_clock: bool, match_id: &str) -> Owner {
    Owner::new(if on_clock { "bots on a clock" } else { "bots" }, match_id)
}

/// Runs `work` on a blocking thread with a budget of `laps`, holding `permit` (a thread of a lane) until it ends.
async fn run_holding<T: Send + 'static>(
    inner: &Inner,
    permit: Permit,
    laps: u64,
    work: impl FnOnce(Budget) -> T + Send + 'static,
) -> Result<T, WorkError> {
    let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
    let budget = Budget::laps(laps)
        .cancelled_by(cancel.0.clone())
        .cancelled_by(inner.stopping.clone());
    let metrics = inner.metrics.clone();
    metrics.engine_running_add(1);
    let ran = tokio::task::spawn_blocking(move || {
        // Given back even if `work` panics.
        struct Release(Metrics, Option<Permit>);
        impl Drop for Release {
            fn drop(&mut self) {
                self.0.engine_running_add(-1);
                drop(self.1.take());
            }
        }
        let _release = Release(metrics, Some(permit));
        work(budget)
    })
    .await;
    match ran {
        Ok(answer) => Ok(answer),
        // The job panicked: let the caller's task see it as the inline path would.
        Err(join) if join.is_panic() => std::panic::resume_unwind(join.into_panic()),
        // Never started: the runtime is shutting down.
        Err(_) => Err(WorkError::ShuttingDown),
    }
}

/// `ran`, counted in the engine-work metric on the job's thread: so that a job whose caller went away (and whose
/// answer nobody reads) is counted too.
fn counted<R>(
    metrics: &Metrics,
    ran: Result<(R, u64), Unfinished>,
) -> Result<(R, u64), Unfinished> {
    metrics.engine_work(
        ran.as_ref()
            .map_or_else(|u| stopped(*u), |_| EngineOutcome::Pool),
    );
    ran
}

/// The metrics outcome of work the engine stopped before deciding.
fn stopped(unfinished: Unfinished) -> EngineOutcome {
    match unfinished {
        Unfinished::Exhausted { .. } => EngineOutcome::Exhausted,
        Unfinished::Cancelled => EngineOutcome::Cancelled,
    }
}

/// A place in the callers' queues, given back when dropped (the call got a thread, or went away while waiting).
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
