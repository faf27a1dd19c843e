//! The lobby's record of matches: creating in the match store the matches it arranged, recording each match's
//! creation, start and end as it hears of them (and the ratings an end moves), and a player's list of matches.
//! Apart from challenges and seeks because every match of the tenant is recorded here, whoever arranged it.

use super::entry::{self, Entry, Origin, SeatRecord};
use super::ratings::{self, Glicko};
use super::state::{MatchInfo, Stage, TenantState};
use super::{Lobby, LobbyError};
use crate::engine::{GameKind, Player};
use crate::matches::{Encoder, Owner};
use crate::store::{BotSeat, MatchId, MatchRecord};
use std::collections::HashMap;
use std::sync::Arc;

impl<E: Encoder> Lobby<E> {
    /// Creates in the match store the match a `MatchCreated` entry of the lobby arranged.
    pub(super) async fn create_match(&self, tenant: &str, entry: &Entry) -> Result<(), LobbyError> {
        let Entry::MatchCreated {
            id,
            kind,
            options,
            time_control,
            seats,
            ..
        } = entry
        else {
            return Ok(());
        };
        let owner = Owner {
            tenant: tenant.to_string(),
            // `[South, North, East]`: East stays empty unless the game seats three.
            players: std::array::from_fn(|i| seats.get(i).and_then(|seat| seat.player.clone())),
            bots: std::array::from_fn(|i| {
                seats
                    .get(i)
                    .and_then(|seat| seat.bot_level)
                    .map(|level| BotSeat { level, seed: None })
            }),
            time_control: *time_control,
            // The lobby's own limits (pending challenges and seeks per player) bound what it arranges.
            creator: None,
        };
        self.inner
            .matches
            .create_with_id(*id, *kind, *options, owner)
            .await
            .map(|_| ())
            .map_err(|error| {
                tracing::error!(tenant, match_id = %id, error = %error, "a lobby match could not be created yet; the repair retries");
                LobbyError::Match(error)
            })
    }
    /// Up to `limit` of `player`'s matches, newest first, of game `kind` and status `finished` when given, made
    /// before entry `before` (the previous page's mark): their ids, and the mark of the next page if there is one.
    pub async fn matches_of(
        &self,
        tenant: &str,
        player: &str,
        kind: Option<GameKind>,
        finished: Option<bool>,
        before: Option<u64>,
        limit: usize,
    ) -> Result<(Vec<MatchId>, Option<u64>), LobbyError> {
        let player = player.to_string();
        self.read(tenant, move |state| {
            let mut page: Vec<(u64, MatchId)> = state
                .matches_of(&player)
                .into_iter()
                .filter(|(seq, _, info)| {
                    before.is_none_or(|before| *seq < before)
                        && kind.is_none_or(|kind| info.kind == kind)
                        && finished
                            .is_none_or(|finished| (info.stage == Stage::Finished) == finished)
                })
                .take(limit + 1)
                .map(|(seq, id, _)| (seq, id))
                .collect();
            let next = (page.len() > limit).then(|| page[limit - 1].0);
            page.truncate(limit);
            (page.into_iter().map(|(_, id)| id).collect(), next)
        })
        .await
    }
    /// Makes sure the match store holds match `id`, which the lobby arranged: its entry is written before the
    /// match is created, so a reader told of it at once could otherwise ask for it before it exists (NOT_FOUND). A
    /// match not there yet is created here, as the repair would (`create_with_id` makes it once, whoever tries);
    /// a failure is logged by `create_match` and left to the repair.
    pub(super) async fn ensure_created(&self, tenant: &str, id: MatchId) {
        if !matches!(self.inner.matches.header(id).await, Ok(None)) {
            return;
        }
        let arranged = self
            .read(tenant, move |state| {
                // Only one nobody has played: a match that went on and was purged after its retention is not made anew.
                state
                    .match_info(&id)
                    .filter(|info| info.stage == Stage::Created && info.from_lobby())
                    .map(|info| info.created_entry(id))
            })
            .await;
        if let Ok(Some(entry)) = arranged {
            let _ = self.create_match(tenant, &entry).await;
        }
    }
    // The record of matches.

    /// Records what the lobby has not yet recorded of the matches `records` describe (all of one tenant): each
    /// one's creation, first event and end, one entry each, once, all written together (a finished match the lobby
    /// never heard of is recorded only if `unknown_finished`: the repair leaves alone the matches finished before
    /// the lobby existed).
    pub async fn observe(
        &self,
        tenant: &str,
        records: Vec<MatchRecord>,
        unknown_finished: bool,
    ) -> Result<(), LobbyError> {
        let records = Arc::new(records);
        self.decide(tenant, move |state| {
            Ok((missing_steps(state, &records, unknown_finished), ()))
        })
        .await
    }
}

/// The steps of `records`' matches the lobby has not recorded, as entries in order, each decided as if those
/// before it were applied (a batch may hold several steps of one match, and two ends that move one player's rating).
pub(super) fn missing_steps(
    state: &TenantState,
    records: &[MatchRecord],
    unknown_finished: bool,
) -> Vec<Entry> {
    let mut stages: HashMap<MatchId, Stage> = HashMap::new();
    let mut ratings: HashMap<(String, GameKind), Glicko> = HashMap::new();
    let mut steps = Vec::new();
    for record in records {
        let id = record.id;
        loop {
            let info = state.match_info(&id);
            let stage = stages.get(&id).copied().or(info.map(|info| info.stage));
            let step = match (stage, record.finished) {
                (None, Some(_)) if !unknown_finished => None,
                (None, _) => Some(created_directly(state, record)),
                (Some(Stage::Created), _) if record.version >= 1 => {
                    Some(Entry::MatchStarted { id })
                }
                (Some(Stage::Created | Stage::Started), Some(finished)) => {
                    let changes =
                        info.and_then(|info| rating_changes(state, &ratings, info, &finished));
                    if let (Some(changes), Some(info)) = (&changes, info) {
                        for (seat, change) in info.seats.iter().zip(changes) {
                            let player = seat.player.clone().unwrap_or_default();
                            ratings.insert((player, info.kind), change.after);
                        }
                    }
                    Some(Entry::MatchFinished {
                        id,
                        finished,
                        ratings: changes,
                    })
                }
                _ => None,
            };
            let Some(step) = step else {
                break;
            };
            stages.insert(
                id,
                match step {
                    Entry::MatchCreated { .. } => Stage::Created,
                    Entry::MatchStarted { .. } => Stage::Started,
                    _ => Stage::Finished,
                },
            );
            steps.push(step);
        }
    }
    steps
}

/// The creation of a match made with `CreateMatch`, as the lobby records it (never rated).
fn created_directly(state: &TenantState, record: &MatchRecord) -> Entry {
    let seat = |seat: Player| {
        let index = seat.index();
        match (&record.players[index], record.bots[index]) {
            (Some(player), _) => state.seat_record(player, record.kind),
            (None, bot) => SeatRecord {
                bot_level: bot.map(|bot| bot.level),
                ..SeatRecord::default()
            },
        }
    };
    Entry::MatchCreated {
        id: record.id,
        kind: record.kind,
        options: record.options,
        time_control: record.time_control,
        rated: false,
        seats: Player::seated(record.options.seats(record.kind))
            .iter()
            .map(|&s| seat(s))
            .collect(),
        origin: Origin::Direct,
    }
}

/// What a match's end does to its players' ratings: nothing unless it was rated between two players and played to
/// a result (an expired or aborted match has none).
fn rating_changes(
    state: &TenantState,
    decided: &HashMap<(String, GameKind), Glicko>,
    info: &MatchInfo,
    finished: &crate::store::Finished,
) -> Option<[entry::RatingChange; 2]> {
    if !info.rated || !finished.has_result() {
        return None;
    }
    // Ratings move between two players only: a three-player match is never rated.
    let [south, north] = &info.seats[..] else {
        return None;
    };
    let (Some(south), Some(north)) = (south.player.clone(), north.player.clone()) else {
        return None;
    };
    let before = [south, north].map(|player| {
        decided
            .get(&(player.clone(), info.kind))
            .copied()
            .unwrap_or_else(|| state.profile(&player).standing(info.kind).glicko)
    });
    let after = ratings::after_match(before[0], before[1], finished.winner);
    Some([0, 1].map(|i| entry::RatingChange {
        before: before[i],
        after: after[i],
    }))
}
