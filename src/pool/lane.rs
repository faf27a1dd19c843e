//! One lane of the engine pool: a number of threads, and the [fair queue](super::fair) of the jobs waiting for
//! one. A job holds its thread from the moment its turn comes until it ends ([`Permit`]); a waiter that goes away
//! (its call cancelled, its deadline passed) leaves the queue at once.

use super::fair::{FairQueue, Owner, Ticket};
use crate::metrics::{EngineLane, Metrics};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::oneshot;

/// A lane: its threads, its queue, its metrics.
#[derive(Debug)]
pub(super) struct Lane {
    name: EngineLane,
    state: Mutex<State>,
    metrics: Metrics,
}

#[derive(Debug)]
struct State {
    queue: FairQueue<oneshot::Sender<()>>,
    /// Threads with no job.
    free: usize,
    /// The server stops: no new waiter, and the waiting ones were told.
    closed: bool,
}

/// The lane is closed: the server is shutting down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Closed;

impl Lane {
    /// A lane of `threads` threads (at least one).
    pub(super) fn new(name: EngineLane, threads: usize, metrics: Metrics) -> Arc<Lane> {
        Arc::new(Lane {
            name,
            state: Mutex::new(State {
                queue: FairQueue::default(),
                free: threads.max(1),
                closed: false,
            }),
            metrics,
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic under this lock leaves counts only; the lane goes on with them rather than failing every call.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits for `owner`'s turn on one of the lane's threads. Dropping the future before then leaves the queue.
    pub(super) async fn acquire(self: &Arc<Lane>, owner: &Owner) -> Result<Permit, Closed> {
        let asked = Instant::now();
        let (tx, rx) = oneshot::channel();
        let ticket = {
            let mut state = self.lock();
            if state.closed {
                return Err(Closed);
            }
            let ticket = state.queue.push(owner, tx);
            self.dispatch(&mut state);
            ticket
        };
        let mut waiting = Waiting {
            lane: self,
            owner,
            ticket,
            rx: Some(rx),
        };
        let granted = waiting.rx.as_mut().expect("set above").await;
        // Granted or told to stop: either way no longer in the queue, and nothing for the drop to give back.
        waiting.rx = None;
        granted.map_err(|_| Closed)?;
        self.metrics.engine_queue_wait(self.name, asked.elapsed());
        Ok(Permit {
            lane: self.clone(),
            owner: owner.clone(),
        })
    }

    /// Gives free threads to the waiters whose turn it is.
    fn dispatch(&self, state: &mut State) {
        while state.free > 0 {
            let Some((owner, waiter)) = state.queue.pop() else {
                break;
            };
            state.free -= 1;
            self.metrics.engine_lane_running_add(self.name, 1);
            if waiter.send(()).is_err() {
                // Cannot happen (a waiter leaves the queue before its receiver goes), but a lost thread must not be.
                self.give_back(state, &owner);
            }
        }
        self.metrics
            .engine_lane_waiting_set(self.name, state.queue.waiting());
    }

    fn give_back(&self, state: &mut State, owner: &Owner) {
        state.queue.finished(owner);
        state.free += 1;
        self.metrics.engine_lane_running_add(self.name, -1);
    }

    /// Refuses new waiters and tells the waiting ones the server stops (jobs running end on their own).
    pub(super) fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        // Dropping the senders wakes their waiters with an error.
        drop(state.queue.drain());
        self.metrics.engine_lane_waiting_set(self.name, 0);
    }

    /// Waiters in the queue now.
    #[cfg(test)]
    pub(super) fn waiting(&self) -> usize {
        self.lock().queue.waiting()
    }
}

/// A waiter's place, taken back if its future is dropped before its turn (or given back, if the turn came in
/// between and was not seen).
struct Waiting<'a> {
    lane: &'a Arc<Lane>,
    owner: &'a Owner,
    ticket: Ticket,
    rx: Option<oneshot::Receiver<()>>,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let Some(mut rx) = self.rx.take() else {
            return;
        };
        let lane = self.lane;
        let mut state = lane.lock();
        if state.queue.remove(self.owner, self.ticket).is_some() {
            lane.metrics
                .engine_lane_waiting_set(lane.name, state.queue.waiting());
        } else if rx.try_recv().is_ok() {
            // The turn came, but nobody will use it.
            lane.give_back(&mut state, self.owner);
            lane.dispatch(&mut state);
        }
    }
}

/// A thread of a lane, held by one job until dropped.
#[derive(Debug)]
pub(super) struct Permit {
    lane: Arc<Lane>,
    owner: Owner,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut state = self.lane.lock();
        self.lane.give_back(&mut state, &self.owner);
        self.lane.dispatch(&mut state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    fn poll<F: Future>(f: std::pin::Pin<&mut F>) -> Poll<F::Output> {
        f.poll(&mut Context::from_waker(Waker::noop()))
    }

    fn lane(threads: usize) -> Arc<Lane> {
        Lane::new(EngineLane::Long, threads, Metrics::new())
    }

    #[test]
    fn a_free_thread_is_taken_at_once_and_given_back_on_drop() {
        let lane = lane(1);
        let a = Owner::new("t", "a");
        let first = pin!(lane.acquire(&a));
        let Poll::Ready(Ok(permit)) = poll(first) else {
            panic!("a free thread")
        };
        let mut second = pin!(lane.acquire(&a));
        assert!(poll(second.as_mut()).is_pending());
        assert_eq!(lane.waiting(), 1);
        drop(permit);
        assert!(matches!(poll(second.as_mut()), Poll::Ready(Ok(_))));
    }

    #[test]
    fn the_next_turn_goes_to_the_caller_with_nothing_running() {
        let lane = lane(1);
        let (flood, hint) = (Owner::new("", "10.0.0.1"), Owner::new("", "10.0.0.2"));
        let Poll::Ready(Ok(running)) = poll(pin!(lane.acquire(&flood))) else {
            panic!("a free thread")
        };
        let mut flood_next = pin!(lane.acquire(&flood));
        let mut hint_next = pin!(lane.acquire(&hint));
        assert!(poll(flood_next.as_mut()).is_pending());
        assert!(poll(hint_next.as_mut()).is_pending());
        drop(running);
        assert!(poll(flood_next.as_mut()).is_pending());
        assert!(matches!(poll(hint_next.as_mut()), Poll::Ready(Ok(_))));
    }

    #[test]
    fn a_waiter_dropped_leaves_the_queue_and_a_turn_unseen_is_given_back() {
        let lane = lane(1);
        let a = Owner::new("t", "a");
        let Poll::Ready(Ok(running)) = poll(pin!(lane.acquire(&a))) else {
            panic!("a free thread")
        };
        {
            let mut gone = Box::pin(lane.acquire(&a));
            assert!(poll(gone.as_mut()).is_pending());
            assert_eq!(lane.waiting(), 1);
        }
        assert_eq!(lane.waiting(), 0, "cancelled while waiting");
        // Granted but dropped before it looked: the thread comes back.
        let mut unseen = Box::pin(lane.acquire(&a));
        assert!(poll(unseen.as_mut()).is_pending());
        drop(running);
        drop(unseen);
        assert!(matches!(poll(pin!(lane.acquire(&a))), Poll::Ready(Ok(_))));
    }

    #[test]
    fn closing_wakes_every_waiter_and_refuses_new_ones() {
        let lane = lane(1);
        let a = Owner::new("t", "a");
        let Poll::Ready(Ok(_running)) = poll(pin!(lane.acquire(&a))) else {
            panic!("a free thread")
        };
        let mut waiting = pin!(lane.acquire(&a));
        assert!(poll(waiting.as_mut()).is_pending());
        lane.close();
        assert!(matches!(poll(waiting.as_mut()), Poll::Ready(Err(Closed))));
        assert!(matches!(
            poll(pin!(lane.acquire(&a))),
            Poll::Ready(Err(Closed))
        ));
    }
}
