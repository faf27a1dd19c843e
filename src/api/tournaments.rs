//! The tournaments' values as protobuf (`tournaments.proto`, and the tournament events of `lobby.proto`'s player
//! stream), and their requests decoded.

use super::convert::{kind_to_pb, options_to_pb, player_to_pb};
use super::matches::time_control_pb;
use super::pb;
use crate::engine::{Player, Violation};
use crate::lobby::LobbyId;
use crate::tournaments::{record, Outcome, Record, Status, System, Tournament, Update};

/// Decodes a tournament system with its `rounds`.
pub fn system(value: i32, rounds: u32) -> Result<System, Vec<Violation>> {
    let problem = |field: &str, description: String| {
        Err(vec![Violation {
            field: field.into(),
            description,
        }])
    };
    match pb::TournamentSystem::try_from(value) {
        Ok(pb::TournamentSystem::Swiss) => Ok(System::Swiss { rounds }),
        Ok(pb::TournamentSystem::RoundRobin) if rounds == 0 => Ok(System::RoundRobin),
        Ok(pb::TournamentSystem::RoundRobin) => problem(
            "rounds",
            "a round robin has as many rounds as it takes: leave rounds 0".into(),
        ),
        Ok(pb::TournamentSystem::Unspecified) => {
            problem("system", "set ROUND_ROBIN or SWISS".into())
        }
        Err(_) => problem("system", format!("{value} is not a TournamentSystem")),
    }
}

/// Decodes a status filter (unset: any).
pub fn status_filter(value: i32) -> Result<Option<Status>, Vec<Violation>> {
    match pb::TournamentStatus::try_from(value) {
        Ok(pb::TournamentStatus::Unspecified) => Ok(None),
        Ok(pb::TournamentStatus::Open) => Ok(Some(Status::Open)),
        Ok(pb::TournamentStatus::Running) => Ok(Some(Status::Running)),
        Ok(pb::TournamentStatus::Finished) => Ok(Some(Status::Finished)),
        Err(_) => Err(vec![Violation {
            field: "status".into(),
            description: format!("{value} is not a TournamentStatus"),
        }]),
    }
}

/// What kind of step a record is.
pub fn event_kind(record: &Record) -> pb::TournamentEventKind {
    use pb::TournamentEventKind as K;
    match record {
        Record::Created(_) => K::Created,
        Record::Entered { .. } => K::Entered,
        Record::Withdrawn { .. } => K::Withdrawn,
        Record::Started { .. } => K::Started,
        Record::Paired { .. } => K::RoundPaired,
        Record::Result { .. } => K::Result,
        Record::Finished { .. } => K::Finished,
    }
}

fn halves(value: u32) -> f64 {
    f64::from(value) / 2.0
}

fn outcome_pb(outcome: Option<Outcome>) -> i32 {
    let result = match outcome {
        None => pb::BoardResult::Unspecified,
        Some(Outcome::SouthWon) => pb::BoardResult::SouthWon,
        Some(Outcome::NorthWon) => pb::BoardResult::NorthWon,
        Some(Outcome::Draw) => pb::BoardResult::Draw,
        Some(Outcome::NoResult) => pb::BoardResult::NoResult,
    };
    result as i32
}

/// A tournament as it stands.
pub fn tournament_pb(t: &Tournament) -> pb::Tournament {
    let spec = &t.spec;
    pb::Tournament {
        tournament_id: t.id.to_string(),
        name: spec.name.clone(),
        system: match spec.system {
            System::RoundRobin => pb::TournamentSystem::RoundRobin,
            System::Swiss { .. } => pb::TournamentSystem::Swiss,
        } as i32,
        rounds: t.planned_rounds(),
        kind: kind_to_pb(spec.kind) as i32,
        options: Some(options_to_pb(&spec.options)),
        time_control: time_control_pb(spec.time_control),
        rated: spec.rated,
        created_by: spec.created_by.clone().unwrap_or_default(),
        status: match t.status {
            Status::Open => pb::TournamentStatus::Open,
            Status::Running => pb::TournamentStatus::Running,
            Status::Finished => pb::TournamentStatus::Finished,
        } as i32,
        current_round: t.current_round(),
        entrants: t
            .entrants
            .iter()
            .map(|e| pb::TournamentEntrant {
                entrant_id: e.id.clone(),
                player_id: e.player().unwrap_or_default().to_string(),
                bot_level: e.bot_level.unwrap_or(0),
                seed: e.seed,
                withdrawn: e.withdrawn,
            })
            .collect(),
        round_pairings: t
            .rounds
            .iter()
            .map(|r| pb::TournamentRound {
                round: r.number,
                boards: r
                    .boards
                    .iter()
                    .zip(1..)
                    .map(|((board, outcome), number)| pb::TournamentBoard {
                        board: number,
                        match_id: board.match_id.to_string(),
                        south_entrant_id: board.south.clone(),
                        north_entrant_id: board.north.clone(),
                        result: outcome_pb(*outcome),
                    })
                    .collect(),
                bye_entrant_id: r.bye.clone().unwrap_or_default(),
                idle_entrant_ids: r.idle.clone(),
            })
            .collect(),
        standings: crate::tournaments::standings::standings(t)
            .into_iter()
            .zip(1..)
            .map(|(line, rank)| pb::TournamentStanding {
                rank,
                entrant_id: line.entrant,
                points: halves(line.half_points),
                buchholz: halves(line.buchholz_halves),
                sonneborn_berger: f64::from(line.sonneborn_berger_quarters) / 4.0,
                wins: line.wins,
                draws: line.draws,
                losses: line.losses,
                byes: line.byes,
                south: line.south,
                north: line.north,
                withdrawn: line.withdrawn,
            })
            .collect(),
        created_at_ms: t.created_ms,
    }
}

/// A step of `WatchTournament`.
pub fn update_pb(update: &Update) -> pb::WatchTournamentResponse {
    match update {
        Update::Heartbeat { last } => pb::WatchTournamentResponse {
            heartbeat: Some(pb::LobbyHeartbeat {
                last_event_id: *last,
            }),
            ..pb::WatchTournamentResponse::default()
        },
        Update::Step {
            seq,
            at_ms,
            record,
            tournament,
        } => pb::WatchTournamentResponse {
            event_id: *seq,
            at_ms: *at_ms,
            kind: event_kind(record) as i32,
            tournament: Some(tournament_pb(tournament)),
            heartbeat: None,
        },
    }
}

/// A tournament step as `reader` hears it on his event stream (`None` for bytes that do not decode).
pub fn player_tournament_event(
    id: &LobbyId,
    reader: &str,
    body: &[u8],
) -> Option<pb::PlayerTournamentEvent> {
    let record = record::decode(body).ok()?;
    let mut event = pb::PlayerTournamentEvent {
        tournament_id: id.to_string(),
        kind: event_kind(&record) as i32,
        ..pb::PlayerTournamentEvent::default()
    };
    match &record {
        Record::Paired {
            round, boards, bye, ..
        } => {
            event.round = *round;
            event.bye = bye.as_deref() == Some(reader);
            let mine = boards.iter().find_map(|b| {
                if b.south == reader {
                    Some((b, Player::South, &b.north))
                } else if b.north == reader {
                    Some((b, Player::North, &b.south))
                } else {
                    None
                }
            });
            if let Some((board, seat, opponent)) = mine {
                event.match_id = board.match_id.to_string();
                event.seat = player_to_pb(Some(seat));
                event.opponent_entrant_id = opponent.clone();
            }
        }
        Record::Finished { standings } => {
            if let Some((rank, (_, half_points))) = (1..)
                .zip(standings)
                .find(|(_, (entrant, _))| entrant == reader)
            {
                event.rank = rank;
                event.points = halves(*half_points);
            }
        }
        _ => {}
    }
    Some(event)
}
