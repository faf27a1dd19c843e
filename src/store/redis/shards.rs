//! The matches' feed over sharded pub/sub: each match's appends are published (`SPUBLISH`, inside the append script)
//! on its own channel, `P events:{id}`, which lives in the match's hash slot; a replica subscribes (`SSUBSCRIBE`) to
//! the channels of the matches it holds, and to nothing else. On a cluster the subscription is made on the node that
//! owns the slot, so a node carries the messages of its own matches only, to the replicas that hold them; on one
//! Redis the same commands work alike.
//!
//! What was published while a channel was not followed is read back from the log, which stays the authority: each
//! (re)subscription is reported as [`Appended::Following`], after which the match manager reads the match's log.
//! Resubscriptions happen when the connection is lost (the library's push of `Disconnection`), and when the server
//! drops the subscription itself: a node that loses a slot (a failover, a resharding) ends its sharded subscriptions
//! with an `SUNSUBSCRIBE` push, and the channel is subscribed again where the slot now is.

use super::super::{Appended, MatchId};
use super::connection::{Connection, Target};
use super::keys::Keys;
use redis::{PushInfo, PushKind, Value};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

/// How often the subscriber retries what failed, and looks whether it should stop.
const TICK: Duration = Duration::from_millis(250);

/// A change in the matches this replica follows.
#[derive(Debug)]
pub(super) enum Interest {
    /// Start following a match's channel.
    Follow(MatchId),
    /// Stop.
    Forget(MatchId),
}

/// The matches this replica wants to follow, told before and after the feed starts.
pub(super) struct Shards {
    interest: UnboundedSender<Interest>,
    waiting: Mutex<Option<UnboundedReceiver<Interest>>>,
}

impl Shards {
    pub(super) fn new() -> Shards {
        let (interest, waiting) = unbounded_channel();
        Shards {
            interest,
            waiting: Mutex::new(Some(waiting)),
        }
    }

    /// Follows (or forgets) `id`'s channel from now on.
    pub(super) fn tell(&self, interest: Interest) {
        // Nobody to tell once the feed has stopped for good.
        let _ = self.interest.send(interest);
    }

    /// Starts the feed: a task on `runtime` keeps the subscriptions, a thread hands each report to `sink` (which
    /// may block: the match manager applies each report before the next). `None` if it was started already.
    pub(super) fn start(
        &self,
        runtime: &tokio::runtime::Handle,
        target: Target,
        keys: Keys,
        mut sink: Box<dyn FnMut(Appended) + Send>,
        stop: Arc<AtomicBool>,
    ) -> Option<std::thread::JoinHandle<()>> {
        let interest = self
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()?;
        let (reports, reported) = std::sync::mpsc::channel::<Appended>();
        let thread = std::thread::Builder::new()
            .name("mancala-redis-shards".into())
            .spawn(move || {
                // Ends when the subscriber task ends (its sender dropped).
                while let Ok(report) = reported.recv() {
                    sink(report);
                }
            })
            .map_err(|e| tracing::error!(error = %e, "cannot start the Redis feed's thread"))
            .ok()?;
        let subscriber = Subscriber {
            target,
            keys,
            interest,
            reports,
            stop,
            wanted: HashSet::new(),
            pending: HashSet::new(),
        };
        runtime.spawn(subscriber.run());
        Some(thread)
    }
}

/// The task that keeps the sharded subscriptions.
struct Subscriber {
    target: Target,
    keys: Keys,
    interest: UnboundedReceiver<Interest>,
    reports: std::sync::mpsc::Sender<Appended>,
    stop: Arc<AtomicBool>,
    /// Every match followed.
    wanted: HashSet<MatchId>,
    /// Those whose channel is not (or no longer) subscribed.
    pending: HashSet<MatchId>,
}

impl Subscriber {
    async fn run(mut self) {
        let (push_tx, mut pushes) = unbounded_channel::<PushInfo>();
        let mut connection: Option<Connection> = None;
        let mut ticks = tokio::time::interval(TICK);
        let mut lost_before = false;
        while !self.stop.load(Ordering::Acquire) {
            tokio::select! {
                Some(interest) = self.interest.recv() => {
                    self.on_interest(interest, connection.as_mut()).await;
                }
                Some(push) = pushes.recv() => self.on_push(push),
                _ = ticks.tick() => {}
            }
            if connection.is_none() {
                match self.target.subscriber(push_tx.clone()).await {
                    Ok(connected) => {
                        if std::mem::replace(&mut lost_before, true) {
                            tracing::info!(servers = %self.target.servers(), "following the matches' channels again");
                        }
                        connection = Some(connected);
                        self.pending.clone_from(&self.wanted);
                    }
                    Err(error) => {
                        tracing::warn!(servers = %self.target.servers(), error = %error, "cannot follow the matches' channels; retrying");
                        continue;
                    }
                }
            }
            if let Some(connection) = connection.as_mut() {
                self.subscribe_pending(connection).await;
            }
        }
    }

    async fn on_interest(&mut self, interest: Interest, connection: Option<&mut Connection>) {
        match interest {
            Interest::Follow(id) => {
                if self.wanted.insert(id) {
                    self.pending.insert(id);
                }
            }
            Interest::Forget(id) => {
                self.pending.remove(&id);
                if self.wanted.remove(&id) {
                    if let Some(connection) = connection {
                        // A failure leaves a channel followed for nothing: its messages are dropped on arrival.
                        let _ = redis::cmd("SUNSUBSCRIBE")
                            .arg(self.keys.events(&id))
                            .exec_async(connection)
                            .await;
                    }
                }
            }
        }
    }

    fn on_push(&mut self, push: PushInfo) {
        let channel = |data: &[Value]| match data.first() {
            Some(Value::BulkString(bytes)) => self.keys.events_match(bytes),
            _ => None,
        };
        match push.kind {
            PushKind::SMessage => {
                let Some(id) = channel(&push.data) else {
                    return;
                };
                if !self.wanted.contains(&id) {
                    return;
                }
                if let Some(Value::BulkString(event)) = push.data.into_iter().nth(1) {
                    let _ = self.reports.send(Appended::Event { id, event });
                }
            }
            PushKind::SUnsubscribe => {
                // Ours (a forgotten match), or the server's: the slot moved away from the node.
                if let Some(id) = channel(&push.data).filter(|id| self.wanted.contains(id)) {
                    self.pending.insert(id);
                }
            }
            PushKind::Disconnection => {
                // The connection is back by itself (or will be); its subscriptions are not.
                self.pending.clone_from(&self.wanted);
            }
            _ => {}
        }
    }

    /// Subscribes what is pending, each reported once its channel is followed (so that its log is read for what
    /// came before); what fails stays pending for the next round.
    async fn subscribe_pending(&mut self, connection: &mut Connection) {
        let pending: Vec<MatchId> = self.pending.iter().copied().collect();
        for id in pending {
            match redis::cmd("SSUBSCRIBE")
                .arg(self.keys.events(&id))
                .exec_async(connection)
                .await
            {
                Ok(()) => {
                    self.pending.remove(&id);
                    let _ = self.reports.send(Appended::Following { id });
                }
                Err(error) => {
                    tracing::debug!(match_id = %id, error = %error, "a match's channel is not followed yet");
                    return;
                }
            }
        }
    }
}
