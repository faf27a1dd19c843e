//! The streams: a reader's news in the tenant's log, read a page at a time, and followed live with heartbeats;
//! and the count of open streams per player. Apart from the calls that write the log because a stream only reads
//! it, and lives as long as its reader.

use super::entry;
use super::error::store_failed;
use super::news::{self, News, Reader};
use super::{lock, now_ms, Lobby, LobbyError, Origin, TenantLobby};
use crate::matches::Encoder;
use crate::metrics::Metrics;
use crate::store::MatchId;
use crate::sync::Held;
use std::sync::Arc;

/// How many entries a stream reads from the store at once.
const PAGE: usize = 256;

/// One step of a stream: news with its entry's number and time, or a heartbeat.
#[derive(Clone, Debug, PartialEq)]
pub enum Tiding {
    /// News (`seq` is the event id).
    News {
        /// The entry's number.
        seq: u64,
        /// When it was written.
        at_ms: u64,
        /// What the reader is told.
        news: News,
    },
    /// What stands for the reader (a pending challenge, an open seek, an unfinished match), told again as the news
    /// of the entry that made it when his stream opens: `seq` is that entry's, at or before the resume point.
    Restated {
        /// The number of the entry that made it.
        seq: u64,
        /// When it was written.
        at_ms: u64,
        /// What the reader is told.
        news: News,
    },
    /// Nothing new up to `last`.
    Heartbeat {
        /// The latest entry passed.
        last: u64,
    },
}

impl<E: Encoder> Lobby<E> {
    /// The news for `reader` in `tenant`'s log after entry `after` (at most a page of entries read), the last entry
    /// read, and whether the log goes on past it.
    pub async fn news_after(
        &self,
        tenant: &str,
        reader: Reader,
        after: u64,
    ) -> Result<Page, LobbyError> {
        let store = self.inner.store.as_ref();
        let lobby = self.tenant(tenant);
        {
            let mut state = lobby.state.lock().await;
            Self::catch_up(store, &lobby.id, &mut state).await?;
            if after > state.seq {
                return Err(out_of_range(after, state.seq));
            }
            let entries = store
                .lobby_read(&lobby.id, after, PAGE)
                .await
                .map_err(|e| store_failed("reading the lobby", e))?;
            let mut page = Page {
                tidings: Vec::new(),
                passed: after,
                more: false,
            };
            for stored in entries.into_iter().take_while(|e| e.seq <= state.seq) {
                let logged = entry::decode(stored.seq, &stored.bytes)
                    .map_err(|e| store_failed("decoding the lobby", e))?;
                page.passed = logged.seq;
                if let Some(news) = news::news_for(&reader, &logged, &state) {
                    page.tidings.push(Tiding::News {
                        seq: logged.seq,
                        at_ms: logged.at_ms,
                        news,
                    });
                }
            }
            page.more = page.passed < state.seq;
            Ok(page)
        }
    }

    /// What stands for `player` now (pending challenges, open seeks, unfinished matches: see
    /// [`TenantState::standing_for`](super::state::TenantState::standing_for)) that was made at or before entry
    /// `after` (everything, for 0), restated as the news of the entries that made them; then a heartbeat at the
    /// resume point: how every player's stream begins, so that a bot restarted from any saved id, or none, is told
    /// of every match it has to finish. What was made after `after` is not restated: the log read from `after`
    /// brings it. Opened at 0 the stream resumes from the latest entry, as lichess's does: the history is not sent.
    async fn standing(&self, tenant: &str, player: &str, after: u64) -> Result<Page, LobbyError> {
        let player = player.to_string();
        let now = now_ms();
        self.read(tenant, move |state| {
            if after > state.seq {
                return Err(out_of_range(after, state.seq));
            }
            let resume = if after == 0 { state.seq } else { after };
            let reader = Reader::Player(player.clone());
            let mut tidings: Vec<Tiding> = state
                .standing_for(&player, now)
                .iter()
                .filter(|logged| logged.seq <= resume)
                .filter_map(|logged| {
                    news::news_for(&reader, logged, state).map(|news| Tiding::Restated {
                        seq: logged.seq,
                        at_ms: logged.at_ms,
                        news,
                    })
                })
                .collect();
            tidings.push(Tiding::Heartbeat { last: resume });
            Ok(Page {
                tidings,
                passed: resume,
                more: resume < state.seq,
            })
        })
        .await?
    }

    /// A stream of `reader`'s news after entry `after`: what the log holds, then each entry as it is written, with
    /// a heartbeat after every `lobby.heartbeat_ms` of silence. A player's stream begins with what stands for him
    /// ([`Lobby::standing`]), and opened at 0 goes on from the latest entry. It ends when the receiver is dropped.
    pub async fn follow(
        &self,
        tenant: &str,
        reader: Reader,
        after: u64,
    ) -> Result<tokio::sync::mpsc::Receiver<Result<Tiding, LobbyError>>, LobbyError> {
        self.follow_as(tenant, reader, after, None).await
    }

    /// [`Lobby::follow`], the stream counted as `share`'s against `lobby.max_streams_per_player` rather than the
    /// reader's: the anonymous tenant's feed is counted per client address, so that one client holding its streams
    /// does not lock every other anonymous client out of the feed.
    pub async fn follow_as(
        &self,
        tenant: &str,
        reader: Reader,
        after: u64,
        share: Option<String>,
    ) -> Result<tokio::sync::mpsc::Receiver<Result<Tiding, LobbyError>>, LobbyError> {
        // Watched before the first read, so that an entry written meanwhile wakes the stream.
        let mut latest = self.tenant(tenant).latest.subscribe();
        latest.borrow_and_update();
        // Refused now (OUT_OF_RANGE, a store failure) rather than as the stream's first item.
        let first = match &reader {
            Reader::Player(player) => self.standing(tenant, player, after).await?,
            Reader::Tenant | Reader::Tournament(_) => {
                self.news_after(tenant, reader.clone(), after).await?
            }
        };
        let guard = self.open_stream(tenant, &reader, share)?;
        // A player with his stream open is online, on every replica, until it closes.
        let present = match &reader {
            Reader::Player(player) => Some(self.present(tenant, player).await),
            Reader::Tenant | Reader::Tournament(_) => None,
        };
        let (sender, receiver) = tokio::sync::mpsc::channel(PAGE);
        let lobby = self.clone();
        let tenant = tenant.to_string();
        let heartbeat = self.inner.settings.heartbeat;
        tokio::spawn(async move {
            let _guard = guard;
            let _present = present;
            let mut page = Ok(first);
            // A heartbeat is due after `heartbeat` with nothing sent to this reader, however many entries of
            // others were read meanwhile.
            let mut due = tokio::time::Instant::now() + heartbeat;
            loop {
                let Page {
                    tidings,
                    passed,
                    more,
                } = match page {
                    Ok(page) => page,
                    Err(error) => {
                        let _ = sender.send(Err(error)).await;
                        return;
                    }
                };
                for tiding in tidings {
                    if let Some(id) = announced_match(&tiding) {
                        lobby.ensure_created(&tenant, id).await;
                    }
                    if sender.send(Ok(tiding)).await.is_err() {
                        return;
                    }
                    due = tokio::time::Instant::now() + heartbeat;
                }
                if !more {
                    // Caught up: wait for the next entry, the heartbeat's time, or the reader leaving.
                    tokio::select! {
                        changed = latest.changed() => if changed.is_err() { return },
                        () = tokio::time::sleep_until(due) => {
                            if sender.send(Ok(Tiding::Heartbeat { last: passed })).await.is_err() {
                                return;
                            }
                            due = tokio::time::Instant::now() + heartbeat;
                        }
                        () = sender.closed() => return,
                    }
                    latest.borrow_and_update();
                } else if tokio::time::Instant::now() >= due {
                    // Reading a long stretch of others' entries: the reader still hears the stream is alive.
                    if sender
                        .send(Ok(Tiding::Heartbeat { last: passed }))
                        .await
                        .is_err()
                    {
                        return;
                    }
                    due = tokio::time::Instant::now() + heartbeat;
                }
                page = lobby.news_after(&tenant, reader.clone(), passed).await;
            }
        });
        Ok(receiver)
    }
    /// Counts an open stream of `reader`, refusing one beyond `lobby.max_streams_per_player` (a player's, or the
    /// tenant's feed).
    fn open_stream(
        &self,
        tenant: &str,
        reader: &Reader,
        share: Option<String>,
    ) -> Result<StreamGuard, LobbyError> {
        // Player ids are never empty: "" counts the tenant's feeds.
        let (who, whose) = match (share, reader) {
            (Some(share), _) => (share.clone(), format!("{share} has")),
            (None, Reader::Player(player)) => (player.clone(), format!("{player} has")),
            (None, Reader::Tenant) => (String::new(), "the tenant has".to_string()),
            // Counted as the tenant's feed is: a tournament's watchers share the tenant's count.
            (None, Reader::Tournament(_)) => (String::new(), "the tenant has".to_string()),
        };
        let key = (tenant.to_string(), who);
        let max = self.inner.settings.max_streams_per_player;
        let held = self.inner.streams.take(&key, max).map_err(|_| {
            LobbyError::ResourceExhausted(format!(
                "{whose} {max} event streams open on this server, the limit (lobby.max_streams_per_player)"
            ))
        })?;
        self.inner.metrics.lobby_streams_add(1);
        Ok(StreamGuard {
            _held: held,
            metrics: self.inner.metrics.clone(),
        })
    }

    /// Wakes the streams of `tenant` (another replica wrote entry `seq`).
    pub(super) fn woken(&self, tenant: &str, seq: u64) {
        let held = lock(&self.inner.tenants).get(tenant).cloned();
        if let Some(lobby) = held {
            lobby.latest.send_if_modified(|latest| {
                let newer = seq > *latest;
                *latest = (*latest).max(seq);
                newer
            });
        }
    }

    /// Wakes every stream (the store's feed restarted: entries may have been missed).
    pub(super) fn woken_all(&self) {
        let held: Vec<Arc<TenantLobby>> = lock(&self.inner.tenants).values().cloned().collect();
        for lobby in held {
            lobby.latest.send_modify(|_| {});
        }
    }
}

/// A page of a stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The reader's news in the entries read.
    pub tidings: Vec<Tiding>,
    /// The last entry read.
    pub passed: u64,
    /// Whether the log goes on past it.
    pub more: bool,
}

/// The match a tiding tells of that the lobby arranged (its creation in the match store follows its entry).
fn announced_match(tiding: &Tiding) -> Option<MatchId> {
    let (Tiding::News { news, .. } | Tiding::Restated { news, .. }) = tiding else {
        return None;
    };
    match news {
        News::MatchStarted { id, origin, .. } | News::MatchCreated { id, origin, .. }
            if *origin != Origin::Direct =>
        {
            Some(*id)
        }
        _ => None,
    }
}

fn out_of_range(after: u64, latest: u64) -> LobbyError {
    LobbyError::OutOfRange(format!(
        "after_event_id {after} is beyond the tenant's latest event, {latest}"
    ))
}

/// An open player stream, counted (in the lobby's streams and the metrics' gauge) until dropped.
struct StreamGuard {
    _held: Held<(String, String)>,
    metrics: Metrics,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.metrics.lobby_streams_add(-1);
    }
}
