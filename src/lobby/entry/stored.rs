//! The lobby log's stored form: each [`Entry`] as one protobuf `StoredEntry` (so that fields can be added later,
//! as for matches and tenants), and back, every stored value checked. Apart from the entries themselves because
//! only the store's bytes need it.

use super::{
    BotAccount, Challenge, ChallengeStatus, DeclineReason, Entry, Fallback, LobbyId, Logged,
    Origin, RatingChange, SeatChoice, SeatRecord, Seek, SeekStatus, TournamentStep,
};
use crate::clock::TimeControl;
use crate::engine::{GameKind, Options, Player};
use crate::lobby::ratings::Glicko;
use crate::store::codec::{
    code_player, code_players, code_starter, player_code, players_code, starter_code,
    stored_time_control, time_control, StoredTimeControl,
};
use crate::store::{Finished, MatchId, StoreError};
use prost::Message;

#[cfg(test)]
mod tests;

#[derive(Clone, PartialEq, prost::Message)]
struct StoredEntry {
    #[prost(uint64, tag = "1")]
    at_ms: u64,
    #[prost(message, optional, tag = "2")]
    profile: Option<StoredProfile>,
    #[prost(message, optional, tag = "3")]
    challenged: Option<StoredChallenge>,
    #[prost(message, optional, tag = "4")]
    challenge_closed: Option<StoredClosed>,
    #[prost(message, optional, tag = "5")]
    sought: Option<StoredSeek>,
    #[prost(message, optional, tag = "6")]
    seek_closed: Option<StoredClosed>,
    #[prost(message, optional, tag = "7")]
    match_created: Option<StoredMatchCreated>,
    #[prost(bytes = "vec", optional, tag = "8")]
    match_started: Option<Vec<u8>>,
    #[prost(message, optional, tag = "9")]
    match_finished: Option<StoredMatchFinished>,
    #[prost(message, optional, tag = "10")]
    challenge_joined: Option<StoredJoined>,
    #[prost(message, optional, tag = "11")]
    tournament: Option<StoredTournamentStep>,
}

/// A tournament's step: the lobby keeps the tournaments' own bytes as they are.
#[derive(Clone, PartialEq, prost::Message)]
struct StoredTournamentStep {
    #[prost(bytes = "vec", tag = "1")]
    id: Vec<u8>,
    #[prost(string, repeated, tag = "2")]
    tell: Vec<String>,
    #[prost(bool, tag = "3")]
    last: bool,
    #[prost(bytes = "vec", tag = "4")]
    body: Vec<u8>,
}

/// A three-player challenge accepted by one player while it waits for another.
#[derive(Clone, PartialEq, prost::Message)]
struct StoredJoined {
    #[prost(bytes = "vec", tag = "1")]
    id: Vec<u8>,
    #[prost(string, tag = "2")]
    player: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredProfile {
    #[prost(string, tag = "1")]
    player: String,
    #[prost(string, tag = "2")]
    display_name: String,
    #[prost(bool, tag = "3")]
    bot: bool,
    #[prost(string, tag = "4")]
    bot_owner: String,
    #[prost(string, tag = "5")]
    bot_description: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredGame {
    #[prost(string, tag = "1")]
    kind: String,
    #[prost(uint32, tag = "2")]
    first_player: u32,
    #[prost(uint32, tag = "3")]
    ba_awa_target: u32,
    /// Absent: untimed (and in entries written before clocks).
    #[prost(message, optional, tag = "4")]
    time_control: Option<StoredTimeControl>,
    /// Bao la Kete's starter of later games (`starter_code`); 0 in entries written before the option.
    #[prost(uint32, tag = "5")]
    bao_la_kete_starter: u32,
    /// Ba-awa's players (`players_code`): a three-player match made with `CreateMatch` is recorded too.
    #[prost(uint32, tag = "6")]
    ba_awa_players: u32,
    /// The match's most games (§1 "Match length"); 0 for the game's default (and in older entries).
    #[prost(uint32, tag = "7")]
    max_games: u32,
    /// Whether repetition is switched off (§1 "Repetition"); false in older entries.
    #[prost(bool, tag = "8")]
    repetition_off: bool,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredChallenge {
    #[prost(bytes = "vec", tag = "1")]
    id: Vec<u8>,
    #[prost(string, tag = "2")]
    from: String,
    #[prost(string, optional, tag = "3")]
    to: Option<String>,
    #[prost(message, optional, tag = "4")]
    game: Option<StoredGame>,
    #[prost(bool, tag = "5")]
    rated: bool,
    /// 0 random, 1 South, 2 North, 3 East.
    #[prost(uint32, tag = "6")]
    seat: u32,
    #[prost(uint64, tag = "7")]
    created_ms: u64,
    #[prost(uint64, tag = "8")]
    expires_ms: u64,
    #[prost(bytes = "vec", optional, tag = "9")]
    rematch_of: Option<Vec<u8>>,
    /// Three-player Ba-awa: the second player challenged.
    #[prost(string, optional, tag = "10")]
    also_to: Option<String>,
}

/// A challenge or seek closed: 3 declined (with `reason`), 4 cancelled, 5 expired.
#[derive(Clone, PartialEq, prost::Message)]
struct StoredClosed {
    #[prost(bytes = "vec", tag = "1")]
    id: Vec<u8>,
    #[prost(uint32, tag = "2")]
    status: u32,
    #[prost(uint32, tag = "3")]
    reason: u32,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredSeek {
    #[prost(bytes = "vec", tag = "1")]
    id: Vec<u8>,
    #[prost(string, tag = "2")]
    player: String,
    #[prost(message, optional, tag = "3")]
    game: Option<StoredGame>,
    #[prost(bool, tag = "4")]
    rated: bool,
    #[prost(uint32, optional, tag = "5")]
    rating_min: Option<u32>,
    #[prost(uint32, optional, tag = "6")]
    rating_max: Option<u32>,
    #[prost(uint32, optional, tag = "7")]
    fallback_level: Option<u32>,
    #[prost(uint64, tag = "8")]
    fallback_after_ms: u64,
    #[prost(uint64, tag = "9")]
    created_ms: u64,
    #[prost(uint64, tag = "10")]
    expires_ms: u64,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredSeat {
    #[prost(string, optional, tag = "1")]
    player: Option<String>,
    #[prost(uint32, optional, tag = "2")]
    bot_level: Option<u32>,
    #[prost(double, tag = "3")]
    rating: f64,
    #[prost(bool, tag = "4")]
    bot_account: bool,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredMatchCreated {
    #[prost(bytes = "vec", tag = "1")]
    id: Vec<u8>,
    #[prost(message, optional, tag = "2")]
    game: Option<StoredGame>,
    #[prost(bool, tag = "3")]
    rated: bool,
    #[prost(message, repeated, tag = "4")]
    seats: Vec<StoredSeat>,
    #[prost(bytes = "vec", optional, tag = "5")]
    challenge: Option<Vec<u8>>,
    #[prost(bytes = "vec", repeated, tag = "6")]
    seeks: Vec<Vec<u8>>,
    /// A tournament's match: the tournament, and the round in `tournament_round`.
    #[prost(bytes = "vec", optional, tag = "7")]
    tournament: Option<Vec<u8>>,
    #[prost(uint32, tag = "8")]
    tournament_round: u32,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredGlicko {
    #[prost(double, tag = "1")]
    rating: f64,
    #[prost(double, tag = "2")]
    deviation: f64,
    #[prost(double, tag = "3")]
    volatility: f64,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredMatchFinished {
    #[prost(bytes = "vec", tag = "1")]
    id: Vec<u8>,
    #[prost(uint64, tag = "2")]
    at_ms: u64,
    /// 0 none (a draw), 1 South, 2 North.
    #[prost(uint32, tag = "3")]
    winner: u32,
    #[prost(uint32, tag = "4")]
    resigned: u32,
    #[prost(bool, tag = "5")]
    expired: bool,
    /// Empty, or South's before and after, then North's.
    #[prost(message, repeated, tag = "6")]
    ratings: Vec<StoredGlicko>,
    /// `EndReason::code`; 0 in entries written before reasons (`resigned` and `expired` tell).
    #[prost(uint32, tag = "7")]
    end_reason: u32,
}

fn bad(what: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(format!("a lobby entry: bad {what}"))
}

fn id_of(bytes: &[u8]) -> Result<LobbyId, StoreError> {
    Ok(MatchId(bytes.try_into().map_err(|_| bad("id"))?))
}

fn stored_game(kind: GameKind, options: &Options, control: TimeControl) -> Option<StoredGame> {
    Some(StoredGame {
        kind: kind.slug().to_string(),
        first_player: player_code(Some(options.first_player)),
        ba_awa_target: options.ba_awa_target.into(),
        time_control: stored_time_control(control),
        bao_la_kete_starter: starter_code(options.bao_la_kete_starter),
        ba_awa_players: players_code(options),
        max_games: options.max_games.unwrap_or(0),
        repetition_off: !options.repetition,
    })
}

fn game_of(game: Option<StoredGame>) -> Result<(GameKind, Options, TimeControl), StoreError> {
    let game = game.ok_or_else(|| bad("game (none)"))?;
    let kind = GameKind::from_slug(&game.kind).ok_or_else(|| bad("game"))?;
    Ok((
        kind,
        Options {
            first_player: code_player(game.first_player)?.unwrap_or(Player::South),
            ba_awa_target: u8::try_from(game.ba_awa_target).map_err(|_| bad("target"))?,
            ba_awa_players: code_players(game.ba_awa_players)?,
            bao_la_kete_starter: code_starter(game.bao_la_kete_starter)?,
            repetition: !game.repetition_off,
            max_games: (game.max_games != 0).then_some(game.max_games),
        },
        time_control(game.time_control)?,
    ))
}

/// A game, its options and time control as bytes: the lobby's stored form, for the tournaments' records.
pub fn encode_game(kind: GameKind, options: &Options, control: TimeControl) -> Vec<u8> {
    stored_game(kind, options, control)
        .unwrap_or_default()
        .encode_to_vec()
}

/// [`encode_game`]'s bytes read back, every value checked.
pub fn decode_game(bytes: &[u8]) -> Result<(GameKind, Options, TimeControl), StoreError> {
    game_of(Some(
        StoredGame::decode(bytes).map_err(|e| bad(format_args!("game: {e}")))?,
    ))
}

fn stored_glicko(g: Glicko) -> StoredGlicko {
    StoredGlicko {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    }
}

fn glicko_of(g: &StoredGlicko) -> Result<Glicko, StoreError> {
    finite(g.rating)?;
    finite(g.deviation)?;
    finite(g.volatility)?;
    Ok(Glicko {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    })
}

/// A stored number of a rating: never NaN or infinite (the lobby writes none).
fn finite(value: f64) -> Result<f64, StoreError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(bad("rating"))
    }
}

fn closed_code(status: &ChallengeStatus) -> (u32, u32) {
    match status {
        ChallengeStatus::Declined(reason) => (3, reason.code()),
        ChallengeStatus::Cancelled => (4, 0),
        _ => (5, 0),
    }
}

/// The entry as bytes, stamped `at_ms`.
pub fn encode(entry: &Entry, at_ms: u64) -> Vec<u8> {
    let mut stored = StoredEntry {
        at_ms,
        ..StoredEntry::default()
    };
    match entry {
        Entry::Profile {
            player,
            display_name,
            bot,
        } => {
            stored.profile = Some(StoredProfile {
                player: player.clone(),
                display_name: display_name.clone(),
                bot: bot.is_some(),
                bot_owner: bot.as_ref().map_or(String::new(), |b| b.owner.clone()),
                bot_description: bot
                    .as_ref()
                    .map_or(String::new(), |b| b.description.clone()),
            })
        }
        Entry::Challenged(c) => {
            stored.challenged = Some(StoredChallenge {
                id: c.id.0.to_vec(),
                from: c.from.clone(),
                to: c.to.clone(),
                also_to: c.also_to.clone(),
                game: stored_game(c.kind, &c.options, c.time_control),
                rated: c.rated,
                seat: match c.seat {
                    SeatChoice::Random => 0,
                    SeatChoice::Seat(p) => player_code(Some(p)),
                },
                created_ms: c.created_ms,
                expires_ms: c.expires_ms,
                rematch_of: c.rematch_of.map(|id| id.0.to_vec()),
            })
        }
        Entry::ChallengeJoined { id, player } => {
            stored.challenge_joined = Some(StoredJoined {
                id: id.0.to_vec(),
                player: player.clone(),
            })
        }
        Entry::ChallengeClosed { id, status } => {
            let (status, reason) = closed_code(status);
            stored.challenge_closed = Some(StoredClosed {
                id: id.0.to_vec(),
                status,
                reason,
            })
        }
        Entry::Sought(s) => {
            stored.sought = Some(StoredSeek {
                id: s.id.0.to_vec(),
                player: s.player.clone(),
                game: stored_game(s.kind, &s.options, s.time_control),
                rated: s.rated,
                rating_min: s.rating_min,
                rating_max: s.rating_max,
                fallback_level: s.fallback.map(|f| f.level),
                fallback_after_ms: s.fallback.map_or(0, |f| f.after_ms),
                created_ms: s.created_ms,
                expires_ms: s.expires_ms,
            })
        }
        Entry::SeekClosed { id, status } => {
            stored.seek_closed = Some(StoredClosed {
                id: id.0.to_vec(),
                status: if *status == SeekStatus::Cancelled {
                    4
                } else {
                    5
                },
                reason: 0,
            })
        }
        Entry::MatchCreated {
            id,
            kind,
            options,
            time_control,
            rated,
            seats,
            origin,
        } => {
            stored.match_created = Some(StoredMatchCreated {
                id: id.0.to_vec(),
                game: stored_game(*kind, options, *time_control),
                rated: *rated,
                seats: seats
                    .iter()
                    .map(|seat| StoredSeat {
                        player: seat.player.clone(),
                        bot_level: seat.bot_level,
                        rating: seat.rating,
                        bot_account: seat.bot_account,
                    })
                    .collect(),
                challenge: match origin {
                    Origin::Challenge(id) => Some(id.0.to_vec()),
                    _ => None,
                },
                seeks: match origin {
                    Origin::Seeks(ids) => ids.iter().map(|id| id.0.to_vec()).collect(),
                    _ => Vec::new(),
                },
                tournament: match origin {
                    Origin::Tournament { id, .. } => Some(id.0.to_vec()),
                    _ => None,
                },
                tournament_round: match origin {
                    Origin::Tournament { round, .. } => *round,
                    _ => 0,
                },
            })
        }
        Entry::MatchStarted { id } => stored.match_started = Some(id.0.to_vec()),
        Entry::Tournament(step) => {
            stored.tournament = Some(StoredTournamentStep {
                id: step.id.0.to_vec(),
                tell: step.tell.clone(),
                last: step.last,
                body: step.body.clone(),
            })
        }
        Entry::MatchFinished {
            id,
            finished,
            ratings,
        } => {
            stored.match_finished = Some(StoredMatchFinished {
                id: id.0.to_vec(),
                at_ms: finished.at_ms,
                winner: player_code(finished.winner),
                resigned: player_code(finished.resigned),
                expired: finished.expired(),
                end_reason: finished.reason.code(),
                ratings: ratings
                    .iter()
                    .flatten()
                    .flat_map(|c| [stored_glicko(c.before), stored_glicko(c.after)])
                    .collect(),
            })
        }
    }
    stored.encode_to_vec()
}

/// Entry `seq` from bytes: an error (never a panic) for anything the lobby did not write.
pub fn decode(seq: u64, bytes: &[u8]) -> Result<Logged, StoreError> {
    let stored = StoredEntry::decode(bytes)
        .map_err(|e| StoreError::Failed(format!("lobby entry {seq}: {e}")))?;
    let entry = if let Some(p) = stored.profile {
        Entry::Profile {
            player: p.player,
            display_name: p.display_name,
            bot: p.bot.then_some(BotAccount {
                owner: p.bot_owner,
                description: p.bot_description,
            }),
        }
    } else if let Some(c) = stored.challenged {
        let (kind, options, time_control) = game_of(c.game)?;
        Entry::Challenged(Challenge {
            id: id_of(&c.id)?,
            from: c.from,
            to: c.to,
            also_to: c.also_to,
            joined: Vec::new(),
            kind,
            options,
            time_control,
            rated: c.rated,
            seat: match code_player(c.seat)? {
                None => SeatChoice::Random,
                Some(p) => SeatChoice::Seat(p),
            },
            created_ms: c.created_ms,
            expires_ms: c.expires_ms,
            rematch_of: c.rematch_of.as_deref().map(id_of).transpose()?,
            status: ChallengeStatus::Pending,
        })
    } else if let Some(j) = stored.challenge_joined {
        Entry::ChallengeJoined {
            id: id_of(&j.id)?,
            player: j.player,
        }
    } else if let Some(c) = stored.challenge_closed {
        Entry::ChallengeClosed {
            id: id_of(&c.id)?,
            status: match c.status {
                3 => ChallengeStatus::Declined(
                    DeclineReason::from_code(c.reason).ok_or_else(|| bad("decline reason"))?,
                ),
                4 => ChallengeStatus::Cancelled,
                5 => ChallengeStatus::Expired,
                _ => return Err(bad("challenge status")),
            },
        }
    } else if let Some(s) = stored.sought {
        let (kind, options, time_control) = game_of(s.game)?;
        Entry::Sought(Seek {
            id: id_of(&s.id)?,
            player: s.player,
            kind,
            options,
            time_control,
            rated: s.rated,
            rating_min: s.rating_min,
            rating_max: s.rating_max,
            fallback: s.fallback_level.map(|level| Fallback {
                level,
                after_ms: s.fallback_after_ms,
            }),
            created_ms: s.created_ms,
            expires_ms: s.expires_ms,
            status: SeekStatus::Open,
        })
    } else if let Some(s) = stored.seek_closed {
        Entry::SeekClosed {
            id: id_of(&s.id)?,
            status: match s.status {
                4 => SeekStatus::Cancelled,
                5 => SeekStatus::Expired,
                _ => return Err(bad("seek status")),
            },
        }
    } else if let Some(m) = stored.match_created {
        let (kind, options, time_control) = game_of(m.game)?;
        let seats: Vec<SeatRecord> = m
            .seats
            .into_iter()
            .map(|s| {
                Ok(SeatRecord {
                    player: s.player,
                    bot_level: s.bot_level,
                    rating: finite(s.rating)?,
                    bot_account: s.bot_account,
                })
            })
            .collect::<Result<_, StoreError>>()?;
        // Two seats, or three in three-player Ba-awa; an entry written before East was recorded has two even for
        // a three-player match (its East player is not known to the lobby).
        if !(2..=options.seats(kind)).contains(&seats.len()) {
            return Err(bad("seats"));
        }
        Entry::MatchCreated {
            id: id_of(&m.id)?,
            kind,
            options,
            time_control,
            rated: m.rated,
            seats,
            origin: match (m.challenge, m.seeks.is_empty(), m.tournament) {
                (Some(c), _, _) => Origin::Challenge(id_of(&c)?),
                (None, false, _) => {
                    Origin::Seeks(m.seeks.iter().map(|s| id_of(s)).collect::<Result<_, _>>()?)
                }
                (None, true, Some(t)) => Origin::Tournament {
                    id: id_of(&t)?,
                    round: m.tournament_round,
                },
                (None, true, None) => Origin::Direct,
            },
        }
    } else if let Some(id) = stored.match_started {
        Entry::MatchStarted { id: id_of(&id)? }
    } else if let Some(m) = stored.match_finished {
        let ratings = match m.ratings.as_slice() {
            [] => None,
            [sb, sa, nb, na] => Some([
                RatingChange {
                    before: glicko_of(sb)?,
                    after: glicko_of(sa)?,
                },
                RatingChange {
                    before: glicko_of(nb)?,
                    after: glicko_of(na)?,
                },
            ]),
            _ => return Err(bad("rating changes")),
        };
        Entry::MatchFinished {
            id: id_of(&m.id)?,
            finished: Finished {
                at_ms: m.at_ms,
                winner: code_player(m.winner)?,
                resigned: code_player(m.resigned)?,
                reason: crate::store::codec::end_reason(
                    m.end_reason,
                    code_player(m.resigned)?,
                    m.expired,
                )?,
            },
            ratings,
        }
    } else if let Some(t) = stored.tournament {
        Entry::Tournament(TournamentStep {
            id: id_of(&t.id)?,
            tell: t.tell,
            last: t.last,
            body: t.body,
        })
    } else {
        return Err(StoreError::Failed(format!("lobby entry {seq}: empty")));
    };
    Ok(Logged {
        seq,
        at_ms: stored.at_ms,
        entry,
    })
}
