//! `WatchTournament`: a tournament's steps after a resume point, each with the tournament as it stood after it,
//! then each new one as it is written, with heartbeats. It is the lobby's stream of the tenant's log read for this
//! tournament alone ([`Reader::Tournament`]), so its ids are the lobby's and it resumes the same way.

use super::record::{self, Record};
use super::state::Tournament;
use super::{TournamentError, Tournaments};
use crate::lobby::{LobbyError, LobbyId, News, Reader, Tiding};
use crate::matches::Encoder;
use tokio::sync::mpsc::Receiver;

/// One step of the stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Update {
    /// A step of the tournament (`seq` is the event id), and the tournament right after it.
    Step {
        /// The event id.
        seq: u64,
        /// When it was written.
        at_ms: u64,
        /// What happened.
        record: Box<Record>,
        /// The tournament after it.
        tournament: Box<Tournament>,
    },
    /// Nothing new up to `last`.
    Heartbeat {
        /// The latest event id passed.
        last: u64,
    },
}

impl<E: Encoder> Tournaments<E> {
    /// The steps of tournament `id` after event `after` (0: from its creation), then live; counted against
    /// `share`'s streams (`lobby.max_streams_per_player`). Ends when the receiver is dropped.
    pub async fn watch(
        &self,
        tenant: &str,
        id: LobbyId,
        after: u64,
        share: Option<String>,
    ) -> Result<Receiver<Result<Update, TournamentError>>, TournamentError> {
        let log = self
            .lobby
            .read_state(tenant, move |state| state.tournament(&id).cloned())
            .await?
            .ok_or_else(|| {
                TournamentError::NotFound(format!("no tournament {id} in this tenant"))
            })?;
        let first = log.steps.first().map_or(0, |(seq, _, _)| *seq);
        let from = if after == 0 {
            first.saturating_sub(1)
        } else {
            after
        };
        let known: Vec<(u64, u64, Vec<u8>)> = log
            .steps
            .into_iter()
            .filter(|(seq, _, _)| *seq <= from)
            .collect();
        let mut tournament = Tournament::replay(id, &known).map_err(|e| {
            LobbyError::Internal(format!("tournament {id}'s steps do not decode: {e}"))
        })?;
        let mut tidings = self
            .lobby
            .follow_as(tenant, Reader::Tournament(id), from, share)
            .await?;
        let (sender, receiver) = tokio::sync::mpsc::channel(64);
        let (lobby, tenant) = (self.lobby.clone(), tenant.to_string());
        tokio::spawn(async move {
            loop {
                let update = tokio::select! {
                    tiding = tidings.recv() => match tiding {
                        None => return,
                        Some(Err(error)) => Err(error.into()),
                        Some(Ok(Tiding::Heartbeat { last })) => Ok(Update::Heartbeat { last }),
                        Some(Ok(Tiding::News { seq, at_ms, news: News::Tournament { body, .. } })) => {
                            match record::decode(&body) {
                                Ok(step) => {
                                    // A round's matches are created after the step that pairs it, by the
                                    // replica that wrote it: made sure of before the pairing is told, so that a
                                    // watcher asking any replica for his match next finds it.
                                    if let Record::Paired { boards, .. } = &step {
                                        for board in boards {
                                            lobby.ensure_match(&tenant, board.match_id).await;
                                        }
                                    }
                                    Tournament::step(&mut tournament, id, at_ms, &step);
                                    match &tournament {
                                        Some(t) => Ok(Update::Step {
                                            seq,
                                            at_ms,
                                            record: Box::new(step),
                                            tournament: Box::new(t.clone()),
                                        }),
                                        None => continue,
                                    }
                                }
                                Err(e) => Err(LobbyError::Internal(format!(
                                    "tournament {id}'s step {seq} does not decode: {e}"
                                ))
                                .into()),
                            }
                        }
                        Some(Ok(_)) => continue,
                    },
                    () = sender.closed() => return,
                };
                let failed = update.is_err();
                if sender.send(update).await.is_err() || failed {
                    return;
                }
            }
        });
        Ok(receiver)
    }
}
