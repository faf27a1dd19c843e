//! What a running tournament does next, decided against the lobby's state: the results of its round's matches
//! that have ended, then, once the round is over, the next round paired (with its matches) or the end. Pure: the
//! background work and `StartTournament` write what it returns, in one write, so a round is paired once.

use super::pairing::{self, History};
use super::record::{self, Board, Outcome, Record, System};
use super::standings::{half_points, standings};
use super::state::{Status, Tournament};
use crate::engine::Player;
use crate::lobby::entry::Entry;
use crate::lobby::{Origin, SeatRecord, TenantState, TournamentStep};
use crate::store::{Finished, MatchId};
use sha2::{Digest, Sha256};

/// The lobby entry of `record`, a step of `t`, told to `tell`.
pub fn step(t: &Tournament, record: &Record, tell: Vec<String>) -> Entry {
    Entry::Tournament(TournamentStep {
        id: t.id,
        tell,
        last: matches!(record, Record::Finished { .. }),
        body: record::encode(record),
    })
}

/// The entries that take `t` as far as it can go now: `t` applied as it goes, the entries in order.
pub fn advance(t: &mut Tournament, lobby: &TenantState) -> Vec<Entry> {
    let mut out = Vec::new();
    if t.status != Status::Running {
        return out;
    }
    if let Some(round) = t.rounds.last() {
        let number = round.number;
        let results: Vec<Record> = round
            .boards
            .iter()
            .filter(|(_, outcome)| outcome.is_none())
            .filter_map(|(board, _)| {
                let finished = lobby.match_info(&board.match_id)?.finished?;
                Some(Record::Result {
                    round: number,
                    match_id: board.match_id,
                    outcome: outcome_of(&finished),
                })
            })
            .collect();
        for result in results {
            t.apply(&result);
            out.push(step(t, &result, Vec::new()));
        }
        if !t.rounds.last().is_some_and(|r| r.over()) {
            return out;
        }
    }
    let next = match pair_next(t) {
        Some(paired) => paired,
        None => Record::Finished {
            standings: standings(t)
                .into_iter()
                .map(|line| (line.entrant, line.half_points))
                .collect(),
        },
    };
    t.apply(&next);
    let tell = match &next {
        Record::Finished { .. } => t.players(),
        _ => active_players(t),
    };
    out.push(step(t, &next, tell));
    if let Record::Paired { round, boards, .. } = &next {
        out.extend(
            boards
                .iter()
                .map(|board| match_created(t, *round, board, lobby)),
        );
    }
    out
}

/// The players still in `t`.
pub fn active_players(t: &Tournament) -> Vec<String> {
    t.entrants
        .iter()
        .filter(|e| !e.withdrawn)
        .filter_map(|e| e.player().map(str::to_string))
        .collect()
}

fn outcome_of(finished: &Finished) -> Outcome {
    match finished.winner {
        _ if !finished.has_result() => Outcome::NoResult,
        Some(Player::South) => Outcome::SouthWon,
        Some(_) => Outcome::NorthWon,
        None => Outcome::Draw,
    }
}

/// What the rounds of `t` so far say: who met whom, the byes, the seats.
pub fn history(t: &Tournament) -> History {
    let mut history = History::default();
    for round in &t.rounds {
        for (board, _) in &round.boards {
            history.board(&board.south, &board.north);
        }
        if let Some(bye) = &round.bye {
            history.bye(bye);
        }
    }
    history
}

/// The next round of `t` paired, or `None` when it is over: its rounds played, fewer than two entrants left, or
/// (Swiss) no pairing without a rematch or a second bye.
fn pair_next(t: &Tournament) -> Option<Record> {
    let round = t.current_round() + 1;
    let active: Vec<&str> = t
        .entrants
        .iter()
        .filter(|e| !e.withdrawn)
        .map(|e| e.id.as_str())
        .collect();
    if round > t.planned_rounds() || active.len() < 2 {
        return None;
    }
    let history = history(t);
    let (pairs, bye, idle) = match t.spec.system {
        System::Swiss { .. } => {
            let points = half_points(t);
            let mut ranked: Vec<&super::state::Entrant> =
                t.entrants.iter().filter(|e| !e.withdrawn).collect();
            ranked.sort_by_key(|e| {
                (
                    std::cmp::Reverse(points.get(e.id.as_str()).copied().unwrap_or(0)),
                    e.seed,
                )
            });
            let ranked: Vec<String> = ranked.iter().map(|e| e.id.clone()).collect();
            let pairing = pairing::swiss(&ranked, &history)?;
            (pairing.boards, pairing.bye, Vec::new())
        }
        System::RoundRobin => {
            let playing = |e: &Option<String>| {
                e.as_deref()
                    .is_some_and(|id| active.contains(&id))
                    .then(|| e.clone().unwrap_or_default())
            };
            let mut pairs = Vec::new();
            let mut idle = Vec::new();
            for (first, second) in pairing::round_robin(&t.participants, round) {
                match (playing(&first), playing(&second)) {
                    (Some(south), Some(north)) => pairs.push((south, north)),
                    (Some(alone), None) | (None, Some(alone)) => idle.push(alone),
                    (None, None) => {}
                }
            }
            (pairs, None, idle)
        }
    };
    Some(Record::Paired {
        round,
        boards: pairs
            .into_iter()
            .enumerate()
            .map(|(i, (south, north))| Board {
                match_id: board_match_id(t, round, i),
                south,
                north,
            })
            .collect(),
        bye,
        idle,
    })
}

/// A board's match id, the same whichever server pairs the round (only one pairing is ever written).
fn board_match_id(t: &Tournament, round: u32, board: usize) -> MatchId {
    let mut hash = Sha256::new();
    hash.update(b"mancala tournament board");
    hash.update(t.id.0);
    hash.update(round.to_be_bytes());
    hash.update((board as u64).to_be_bytes());
    let digest = hash.finalize();
    let mut id = [0u8; 16];
    id.copy_from_slice(&digest[..16]);
    MatchId(id)
}

/// The lobby's record of a board's match: South and North as the board seats them, a built-in opponent's seat
/// his level.
fn match_created(t: &Tournament, round: u32, board: &Board, lobby: &TenantState) -> Entry {
    let seat = |entrant: &str| match t.entrant(entrant).and_then(|e| e.bot_level) {
        Some(level) => SeatRecord {
            bot_level: Some(level),
            ..SeatRecord::default()
        },
        None => lobby.seat_record(entrant, t.spec.kind),
    };
    Entry::MatchCreated {
        id: board.match_id,
        kind: t.spec.kind,
        options: t.spec.options,
        time_control: t.spec.time_control,
        rated: t.spec.rated,
        seats: vec![seat(&board.south), seat(&board.north)],
        origin: Origin::Tournament { id: t.id, round },
    }
}
