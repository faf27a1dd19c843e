//! The lobby's values as protobuf (`lobby.proto`, `players.proto`), and its requests decoded.

use super::convert::{kind_to_pb, options_to_pb, player_to_pb};
use super::matches::result_pb;
use super::pb;
use crate::engine::{GameKind, PerSeat, Player, Violation};
use crate::lobby::{
    Challenge, ChallengeStatus, DeclineReason, LobbyId, News, Origin, PlayerRating, Profile,
    SeatChoice, SeatRecord, Seek, SeekStatus, Tiding,
};
use crate::store::MatchId;

/// Decodes a challenge's, seek's or match's id from `field`.
pub fn lobby_id(field: &str, text: &str) -> Result<LobbyId, Vec<Violation>> {
    MatchId::parse(text).ok_or_else(|| {
        vec![Violation {
            field: field.to_string(),
            description: "an id is 32 hex digits".into(),
        }]
    })
}

/// Decodes a seat preference.
pub fn seat_choice(value: i32) -> Result<SeatChoice, Vec<Violation>> {
    match pb::SeatPreference::try_from(value) {
        Ok(pb::SeatPreference::Random) => Ok(SeatChoice::Random),
        Ok(pb::SeatPreference::South) => Ok(SeatChoice::Seat(Player::South)),
        Ok(pb::SeatPreference::North) => Ok(SeatChoice::Seat(Player::North)),
        Ok(pb::SeatPreference::East) => Ok(SeatChoice::Seat(Player::East)),
        Err(_) => Err(vec![Violation {
            field: "seat".into(),
            description: format!("{value} is not a SeatPreference"),
        }]),
    }
}

/// Decodes a decline reason.
pub fn decline_reason(value: i32) -> Result<DeclineReason, Vec<Violation>> {
    u32::try_from(value)
        .ok()
        .and_then(DeclineReason::from_code)
        .ok_or_else(|| {
            vec![Violation {
                field: "reason".into(),
                description: format!("{value} is not a DeclineReason"),
            }]
        })
}

fn seat_pb(choice: SeatChoice) -> i32 {
    let preference = match choice {
        SeatChoice::Random => pb::SeatPreference::Random,
        SeatChoice::Seat(Player::South) => pb::SeatPreference::South,
        SeatChoice::Seat(Player::North) => pb::SeatPreference::North,
        SeatChoice::Seat(Player::East) => pb::SeatPreference::East,
    };
    preference as i32
}

/// A challenge.
pub fn challenge_pb(c: &Challenge) -> pb::Challenge {
    let (status, reason, match_id, by) = match &c.status {
        ChallengeStatus::Pending => (
            pb::ChallengeStatus::Pending,
            0,
            String::new(),
            String::new(),
        ),
        ChallengeStatus::Accepted { match_id, by } => (
            pb::ChallengeStatus::Accepted,
            0,
            match_id.to_string(),
            by.clone(),
        ),
        ChallengeStatus::Declined(reason) => (
            pb::ChallengeStatus::Declined,
            reason.code() as i32,
            String::new(),
            String::new(),
        ),
        ChallengeStatus::Cancelled => (
            pb::ChallengeStatus::Cancelled,
            0,
            String::new(),
            String::new(),
        ),
        ChallengeStatus::Expired => (
            pb::ChallengeStatus::Expired,
            0,
            String::new(),
            String::new(),
        ),
    };
    pb::Challenge {
        challenge_id: c.id.to_string(),
        from_player_id: c.from.clone(),
        to_player_id: c.to.clone().unwrap_or_default(),
        also_to_player_id: c.also_to.clone().unwrap_or_default(),
        joined_player_ids: c.joined.clone(),
        kind: kind_to_pb(c.kind) as i32,
        options: Some(options_to_pb(&c.options)),
        time_control: super::matches::time_control_pb(c.time_control),
        rated: c.rated,
        seat: seat_pb(c.seat),
        status: status as i32,
        decline_reason: reason,
        match_id,
        accepted_by_player_id: by,
        created_at_ms: c.created_ms,
        expires_at_ms: c.expires_ms,
        rematch_of_match_id: c.rematch_of.map(|id| id.to_string()).unwrap_or_default(),
    }
}

/// A seek.
pub fn seek_pb(s: &Seek) -> pb::Seek {
    let (status, match_id, opponent) = match &s.status {
        SeekStatus::Open => (pb::SeekStatus::Open, String::new(), String::new()),
        SeekStatus::Paired { match_id, opponent } => (
            pb::SeekStatus::Paired,
            match_id.to_string(),
            opponent.clone().unwrap_or_default(),
        ),
        SeekStatus::Cancelled => (pb::SeekStatus::Cancelled, String::new(), String::new()),
        SeekStatus::Expired => (pb::SeekStatus::Expired, String::new(), String::new()),
    };
    pb::Seek {
        seek_id: s.id.to_string(),
        player_id: s.player.clone(),
        kind: kind_to_pb(s.kind) as i32,
        options: Some(options_to_pb(&s.options)),
        time_control: super::matches::time_control_pb(s.time_control),
        rated: s.rated,
        rating_min: s.rating_min.unwrap_or(0),
        rating_max: s.rating_max.unwrap_or(0),
        fallback_bot_level: s.fallback.map_or(0, |f| f.level),
        fallback_after_ms: s.fallback.map_or(0, |f| f.after_ms as u32),
        status: status as i32,
        match_id,
        opponent_player_id: opponent,
        created_at_ms: s.created_ms,
        expires_at_ms: s.expires_ms,
    }
}

/// A player's profile, one rating per game.
pub fn profile_pb(p: &Profile) -> pb::PlayerProfile {
    pb::PlayerProfile {
        player_id: p.player.clone(),
        display_name: p.display_name.clone(),
        bot: p.bot.as_ref().map(|bot| pb::BotAccount {
            owner: bot.owner.clone(),
            description: bot.description.clone(),
        }),
        ratings: GameKind::ALL
            .iter()
            .map(|&kind| {
                let s = p.standing(kind);
                pb::GameRating {
                    kind: kind_to_pb(kind) as i32,
                    rating: s.glicko.rating,
                    deviation: s.glicko.deviation,
                    volatility: s.glicko.volatility,
                    provisional: s.glicko.provisional(),
                    rated_matches: s.rated_matches,
                    wins: s.wins,
                    losses: s.losses,
                    draws: s.draws,
                }
            })
            .collect(),
        online: p.online,
        last_seen_at_ms: p.last_seen_ms,
    }
}

fn rating_changes_pb(ratings: &[PlayerRating]) -> Vec<pb::RatingChange> {
    ratings
        .iter()
        .map(|r| pb::RatingChange {
            player_id: r.player.clone(),
            before: r.change.before.rating,
            after: r.change.after.rating,
        })
        .collect()
}

fn origin_ids(origin: &Origin) -> (String, Vec<String>) {
    match origin {
        Origin::Direct => (String::new(), Vec::new()),
        Origin::Challenge(id) => (id.to_string(), Vec::new()),
        Origin::Seeks(ids) => (String::new(), ids.iter().map(ToString::to_string).collect()),
        Origin::Tournament { .. } => (String::new(), Vec::new()),
    }
}

/// A tournament match's tournament and round (empty and 0 for any other match).
fn tournament_of(origin: &Origin) -> (String, u32) {
    match origin {
        Origin::Tournament { id, round } => (id.to_string(), *round),
        _ => (String::new(), 0),
    }
}

fn opponent_pb(seat: &SeatRecord) -> pb::Opponent {
    pb::Opponent {
        player_id: seat.player.clone().unwrap_or_default(),
        bot_level: seat.bot_level.unwrap_or(0),
        rating: if seat.player.is_some() {
            seat.rating
        } else {
            0.0
        },
        is_bot_account: seat.bot_account,
        seat: 0,
    }
}

/// A tiding's event id, time and news, and whether it is restated; for a heartbeat, the heartbeat message both
/// streams send (event id 0).
fn news_of(tiding: &Tiding) -> Result<(u64, u64, &News, bool), pb::LobbyHeartbeat> {
    match tiding {
        Tiding::Heartbeat { last } => Err(pb::LobbyHeartbeat {
            last_event_id: *last,
        }),
        Tiding::News { seq, at_ms, news } => Ok((*seq, *at_ms, news, false)),
        Tiding::Restated { seq, at_ms, news } => Ok((*seq, *at_ms, news, true)),
    }
}

/// A tiding of a player's stream; `None` for news that only the tenant's feed carries.
pub fn player_event_pb(tiding: &Tiding) -> Option<pb::PlayerEvent> {
    use pb::player_event::Event;
    let (event_id, at_ms, news, restated) = match news_of(tiding) {
        Ok(news) => news,
        Err(heartbeat) => {
            return Some(pb::PlayerEvent {
                event: Some(Event::Heartbeat(heartbeat)),
                ..pb::PlayerEvent::default()
            })
        }
    };
    let event = match news {
        News::Challenge(c) => Event::Challenge(challenge_pb(c)),
        News::Seek(s) => Event::Seek(seek_pb(s)),
        News::MatchStarted {
            id,
            kind,
            options,
            rated,
            seat,
            others,
            origin,
            own_seek,
        } => {
            let (challenge_id, _) = origin_ids(origin);
            Event::MatchStarted(pb::PlayerMatchStarted {
                match_id: id.to_string(),
                kind: kind_to_pb(*kind) as i32,
                options: Some(options_to_pb(options)),
                rated: *rated,
                seat: player_to_pb(Some(*seat)),
                // The other seat; in three-player Ba-awa the next in turn order after the reader's.
                opponent: Some(
                    others
                        .first()
                        .map(|(_, record)| opponent_pb(record))
                        .unwrap_or_default(),
                ),
                opponents: others
                    .iter()
                    .map(|(seat, record)| pb::Opponent {
                        seat: player_to_pb(Some(*seat)),
                        ..opponent_pb(record)
                    })
                    .collect(),
                challenge_id,
                seek_id: own_seek.map(|id| id.to_string()).unwrap_or_default(),
                tournament_id: tournament_of(origin).0,
                tournament_round: tournament_of(origin).1,
            })
        }
        News::MatchFinished {
            id,
            kind,
            seat,
            finished,
            rated,
            ratings,
        } => Event::MatchFinished(pb::PlayerMatchFinished {
            match_id: id.to_string(),
            kind: kind_to_pb(*kind) as i32,
            seat: player_to_pb(*seat),
            result: Some(result_pb(finished, PerSeat::NONE)),
            rated: *rated,
            rating_changes: rating_changes_pb(ratings),
        }),
        News::Tournament {
            id,
            reader: Some(reader),
            body,
        } => Event::Tournament(super::tournaments::player_tournament_event(
            id, reader, body,
        )?),
        News::MatchCreated { .. } | News::MatchBegun { .. } | News::Tournament { .. } => {
            return None
        }
    };
    Some(pb::PlayerEvent {
        event_id,
        at_ms,
        event: Some(event),
        restated,
    })
}

/// A tiding of a tenant's feed; `None` for news that only players' streams carry.
pub fn feed_event_pb(tiding: &Tiding) -> Option<pb::FeedEvent> {
    use pb::feed_event::Event;
    // A tenant's feed restates nothing: `Restated` is only ever in a player's stream.
    let (event_id, at_ms, news, _) = match news_of(tiding) {
        Ok(news) => news,
        Err(heartbeat) => {
            return Some(pb::FeedEvent {
                event: Some(Event::Heartbeat(heartbeat)),
                ..pb::FeedEvent::default()
            })
        }
    };
    let event = match news {
        News::MatchCreated {
            id,
            kind,
            options,
            rated,
            seats,
            origin,
        } => {
            let (challenge_id, seek_ids) = origin_ids(origin);
            Event::MatchCreated(pb::FeedMatchCreated {
                match_id: id.to_string(),
                kind: kind_to_pb(*kind) as i32,
                options: Some(options_to_pb(options)),
                rated: *rated,
                seats: Player::ALL
                    .iter()
                    .zip(seats)
                    .map(|(&seat, record)| pb::FeedSeat {
                        player: player_to_pb(Some(seat)),
                        player_id: record.player.clone().unwrap_or_default(),
                        bot_level: record.bot_level.unwrap_or(0),
                    })
                    .collect(),
                challenge_id,
                seek_ids,
                tournament_id: tournament_of(origin).0,
                tournament_round: tournament_of(origin).1,
            })
        }
        News::MatchBegun { id } => Event::MatchStarted(pb::FeedMatchStarted {
            match_id: id.to_string(),
        }),
        News::MatchFinished {
            id,
            finished,
            rated,
            ratings,
            ..
        } => Event::MatchFinished(pb::FeedMatchFinished {
            match_id: id.to_string(),
            result: Some(result_pb(finished, PerSeat::NONE)),
            rated: *rated,
            rating_changes: rating_changes_pb(ratings),
        }),
        News::Challenge(_)
        | News::Seek(_)
        | News::MatchStarted { .. }
        | News::Tournament { .. } => return None,
    };
    Some(pb::FeedEvent {
        event_id,
        at_ms,
        event: Some(event),
    })
}
