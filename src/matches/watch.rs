//! `WatchMatch` streams: one task per watcher, reading the match's broadcast channel.
//!
//! A stream starts with a snapshot (or, when resuming after `from_seq`, with exactly the missed
//! events read back from the store), then forwards every published event whose `seq` is past what it
//! has sent, so that nothing is sent twice or skipped. The subscription and the snapshot's version
//! are taken in the same critical section as a publication, so they agree.
//!
//! Back-pressure never reaches the match: when a client reads slowly, its task waits on the small
//! outgoing queue while the broadcast channel moves on; once the task is more than `watcher_buffer`
//! events behind, the channel reports the lag and the task sends a RESYNC snapshot instead of the
//! events it lost, then goes on from there. An idle stream gets a heartbeat every
//! `heartbeat_interval`. A task ends when the match finishes (after a final `MatchFinished`), when
//! the client goes away, or when the server shuts down (which drops the response stream).

use super::error::{store_failed, MatchError};
use super::replay::replay_all;
use super::slots::{lock, Inner, Published, Slot};
use super::view::{Encoder, SnapshotReason, Update};
use crate::engine::Player;
use crate::identity::Party;
use crate::store::Finished;
use crate::sync::Held;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

/// Messages queued for one stream beyond what HTTP/2 flow control holds. Small: a slow client is
/// meant to lag on the broadcast channel, where it is resynchronised, not here.
const OUT_QUEUE: usize = 4;

/// The messages of one `WatchMatch` stream, as the manager's [`Encoder`] made them; an error
/// ends it.
pub type WatchStream<M> = tokio_stream::wrappers::ReceiverStream<Result<M, MatchError>>;

/// Counts a watcher against its limits and a seat's presence; undoes both when dropped.
///
/// Spectators and seated players are counted apart: spectators (no token) share the match's and the
/// server's spectator limits, while each seat has streams of its own (`matches.max_streams_per_seat`)
/// that no number of spectators can take, so a crowd can never lock the players out of their match.
struct WatcherGuard<E: Encoder> {
    inner: Arc<Inner<E>>,
    slot: Arc<Slot<E::Message>>,
    /// Whose stream this is (`None`: a spectator's); its presence is counted once the stream starts.
    seat: Option<Player>,
    present: bool,
    /// A spectator's count in its match's tenant's streams, given back when dropped.
    tenant_watchers: Option<Arc<AtomicUsize>>,
    /// A spectator's count in its player's or address's share, given back when dropped.
    _share: Option<Held<Party>>,
}

/// Takes one from `counter` unless it is at `limit`.
fn take(counter: &AtomicUsize, limit: usize) -> bool {
    counter
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < limit).then_some(n + 1)
        })
        .is_ok()
}

impl<E: Encoder> WatcherGuard<E> {
    fn acquire(
        inner: &Arc<Inner<E>>,
        slot: &Arc<Slot<E::Message>>,
        seat: Option<Player>,
        party: Option<&Party>,
    ) -> Result<WatcherGuard<E>, MatchError> {
        let settings = &inner.settings;
        let mut tenant_watchers = None;
        let mut share = None;
        match seat {
            Some(seat) => {
                if !take(
                    &slot.seat_streams[seat.index()],
                    settings.max_streams_per_seat,
                ) {
                    return Err(MatchError::ResourceExhausted(format!(
                        "{seat} already has {} streams open on this match (matches.max_streams_per_seat)",
                        settings.max_streams_per_seat
                    )));
                }
            }
            None => {
                // The caller's share first: one caller over it takes nothing of the others'.
                if let (Some(identity), Some(party)) = (&inner.identity, party) {
                    let tenant = identity.tenant(&slot.tenant);
                    share = Some(identity.open_stream(party, &tenant).map_err(|over| {
                        inner.metrics.caller_refused(over.limit);
                        MatchError::OverLimit(over)
                    })?);
                }
                if !take(&inner.spectators, settings.max_watchers_total) {
                    return Err(MatchError::ResourceExhausted(format!(
                        "the server already has {} spectators (matches.max_watchers_total)",
                        settings.max_watchers_total
                    )));
                }
                if !take(&slot.spectators, settings.max_watchers_per_match) {
                    inner.spectators.fetch_sub(1, Ordering::AcqRel);
                    return Err(MatchError::ResourceExhausted(format!(
                        "this match already has {} spectators (matches.max_watchers_per_match); \
                         its players' streams are not counted",
                        settings.max_watchers_per_match
                    )));
                }
                if let Some(identity) = &inner.identity {
                    let tenant = identity.tenant(&slot.tenant);
                    let max = match tenant.limits.max_watchers {
                        0 => usize::MAX,
                        n => n as usize,
                    };
                    if !take(&tenant.watchers, max) {
                        inner.spectators.fetch_sub(1, Ordering::AcqRel);
                        slot.spectators.fetch_sub(1, Ordering::AcqRel);
                        return Err(MatchError::ResourceExhausted(format!(
                            "the tenant already has {max} spectator streams open (limits.max_watchers); \
                             its players' streams are not counted"
                        )));
                    }
                    tenant_watchers = Some(tenant.watchers.clone());
                }
            }
        }
        inner.metrics.watchers_add(1);
        Ok(WatcherGuard {
            inner: inner.clone(),
            slot: slot.clone(),
            seat,
            present: false,
            tenant_watchers,
            _share: share,
        })
    }
}

impl<E: Encoder> Drop for WatcherGuard<E> {
    fn drop(&mut self) {
        match self.seat {
            Some(seat) => self.slot.seat_streams[seat.index()].fetch_sub(1, Ordering::AcqRel),
            None => {
                self.inner.spectators.fetch_sub(1, Ordering::AcqRel);
                self.slot.spectators.fetch_sub(1, Ordering::AcqRel)
            }
        };
        if let Some(watchers) = &self.tenant_watchers {
            watchers.fetch_sub(1, Ordering::AcqRel);
        }
        self.inner.metrics.watchers_add(-1);
        if let (Some(seat), true) = (self.seat, self.present) {
            let mut live = lock(&self.slot.live);
            live.presence[seat.index()] -= 1;
            if live.presence[seat.index()] == 0 {
                let notice = self.inner.encoder.encode(Update::Presence {
                    seat,
                    connected: false,
                });
                let _ = self.slot.events.send(Arc::new(Published::Notice(notice)));
                drop(live);
                // The seat's absence (an abandonment claim) counts from now.
                self.inner
                    .seat_seen(&self.slot, seat, self.inner.time.now_ms());
            }
        }
    }
}

/// Opens a stream on `slot` for `seat` (`None`: a spectator).
pub(super) fn start<E: Encoder>(
    inner: Arc<Inner<E>>,
    slot: Arc<Slot<E::Message>>,
    seat: Option<Player>,
    from_seq: Option<u64>,
    party: Option<&Party>,
) -> Result<WatchStream<E::Message>, MatchError> {
    let mut guard = WatcherGuard::acquire(&inner, &slot, seat, party)?;
    let (receiver, version, finished_at_start) = {
        let mut live = lock(&slot.live);
        if let Some(from_seq) = from_seq {
            if from_seq > live.version {
                return Err(MatchError::OutOfRange {
                    from_seq,
                    version: live.version,
                });
            }
        }
        let receiver = slot.events.subscribe();
        if let Some(seat) = seat {
            live.presence[seat.index()] += 1;
            guard.present = true;
            if live.presence[seat.index()] == 1 {
                let notice = inner.encoder.encode(Update::Presence {
                    seat,
                    connected: true,
                });
                let _ = slot.events.send(Arc::new(Published::Notice(notice)));
            }
        }
        (receiver, live.version, live.finished)
    };
    if let Some(seat) = seat {
        inner.seat_seen(&slot, seat, inner.time.now_ms());
    }
    let (out, stream) = mpsc::channel(OUT_QUEUE);
    let heartbeat = inner.settings.heartbeat_interval;
    let next_beat = heartbeat.map(|every| Instant::now() + every);
    let watcher = Watcher {
        inner,
        slot,
        out,
        receiver,
        cursor: version,
        finished_at_start,
        heartbeat,
        next_beat,
    };
    tokio::spawn(watcher.run(guard, from_seq));
    Ok(WatchStream::new(stream))
}

struct Watcher<E: Encoder> {
    inner: Arc<Inner<E>>,
    slot: Arc<Slot<E::Message>>,
    out: mpsc::Sender<Result<E::Message, MatchError>>,
    receiver: broadcast::Receiver<Arc<Published<E::Message>>>,
    /// The seq of the last event sent (or covered by a snapshot).
    cursor: u64,
    /// The outcome, if the match was already over when the stream opened at version `cursor`.
    finished_at_start: Option<Finished>,
    heartbeat: Option<Duration>,
    next_beat: Option<Instant>,
}

/// Whether the stream goes on.
enum Flow {
    Continue,
    End,
}

impl<E: Encoder> Watcher<E> {
    async fn run(mut self, _guard: WatcherGuard<E>, from_seq: Option<u64>) {
        if let Flow::End = self.open(from_seq).await {
            return;
        }
        loop {
            let beat = self.next_beat;
            let flow = tokio::select! {
                _ = self.out.closed() => Flow::End,
                received = self.receiver.recv() => match received {
                    Ok(published) => self.forward(&published).await,
                    Err(broadcast::error::RecvError::Lagged(skipped)) => {
                        tracing::debug!(match_id = %self.slot.id, skipped, "watcher resynchronised");
                        self.snapshot(SnapshotReason::Resync).await
                    }
                    Err(broadcast::error::RecvError::Closed) => Flow::End,
                },
                _ = sleep_until(beat) => {
                    let version = self.cursor;
                    let beat = self.inner.encoder.encode(Update::Heartbeat { version });
                    self.send(beat).await
                }
            };
            if let Flow::End = flow {
                return;
            }
        }
    }

    /// The first messages: a snapshot, or the events after `from_seq` read back from the log.
    async fn open(&mut self, from_seq: Option<u64>) -> Flow {
        let Some(from_seq) = from_seq else {
            return self.snapshot(SnapshotReason::Initial).await;
        };
        let (version, inner, slot) = (self.cursor, &self.inner, &self.slot);
        let missed: Result<Vec<_>, MatchError> = if from_seq < version {
            async {
                let stored = inner.history(slot).await?;
                let (mut events, _) = replay_all(&stored, inner.abort_after_ms())
                    .map_err(|e| store_failed("replaying a stored match", Some(slot.id), e))?;
                events.truncate(version as usize);
                let missed = events.split_off(from_seq as usize);
                Ok(missed
                    .iter()
                    .map(|event| inner.encoder.encode(Update::Event(event)))
                    .collect())
            }
            .await
        } else {
            Ok(Vec::new())
        };
        let missed = match missed {
            Ok(missed) => missed,
            Err(error) => {
                let _ = self.out.send(Err(error)).await;
                return Flow::End;
            }
        };
        for event in missed {
            if let Flow::End = self.send(event).await {
                return Flow::End;
            }
        }
        match self.finished_at_start {
            Some(finished) => {
                self.send_finished(version, &finished).await;
                Flow::End
            }
            None => Flow::Continue,
        }
    }

    /// Sends the match as it stands now and moves the cursor there.
    async fn snapshot(&mut self, reason: SnapshotReason) -> Flow {
        let view = self.slot.view(self.inner.time.now_ms());
        let (version, finished) = (view.version, view.finished);
        let message = self.inner.encoder.encode(Update::Snapshot(&view, reason));
        self.cursor = version;
        if let Flow::End = self.send(message).await {
            return Flow::End;
        }
        match finished {
            Some(finished) => {
                self.send_finished(version, &finished).await;
                Flow::End
            }
            None => Flow::Continue,
        }
    }

    /// The last message of a stream on a finished match.
    async fn send_finished(&mut self, version: u64, finished: &Finished) {
        // A finished match's board no longer changes: the live one is the one it ended with.
        let placing = super::view::placing(&lock(&self.slot.live).game, finished);
        let message = self.inner.encoder.encode(Update::Finished {
            version,
            finished,
            placing,
        });
        self.send(message).await;
    }

    async fn forward(&mut self, published: &Published<E::Message>) -> Flow {
        match published {
            Published::Event { seq, message } => {
                if *seq <= self.cursor {
                    return Flow::Continue;
                }
                self.cursor = *seq;
                self.send(message.clone()).await
            }
            Published::Notice(message) => self.send(message.clone()).await,
            Published::Finished(message) => {
                self.send(message.clone()).await;
                Flow::End
            }
        }
    }

    async fn send(&mut self, message: E::Message) -> Flow {
        self.next_beat = self.heartbeat.map(|every| Instant::now() + every);
        match self.out.send(Ok(message)).await {
            Ok(()) => Flow::Continue,
            Err(_) => Flow::End,
        }
    }
}

/// Sleeps until `deadline`, or forever without one (heartbeats off).
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
