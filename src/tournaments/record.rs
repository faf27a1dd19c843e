//! A tournament's steps ([`Record`]), as the lobby's log keeps them: each one the body of a lobby
//! `Entry::Tournament`, in protobuf (so that fields can be added later, as for the lobby's own entries), every
//! value checked when read back.

use crate::clock::TimeControl;
use crate::engine::{GameKind, Options};
use crate::lobby::entry::{decode_game, encode_game};
use crate::store::{MatchId, StoreError};
use prost::Message;

/// How a tournament is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// Every entrant meets every other once.
    RoundRobin,
    /// A fixed number of rounds, by the Monrad system with no rematches.
    Swiss {
        /// The rounds planned.
        rounds: u32,
    },
}

/// How a board ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// South won.
    SouthWon,
    /// North won.
    NorthWon,
    /// A draw.
    Draw,
    /// The match ended without a result (expired, aborted): no point to either.
    NoResult,
}

/// One board of a round: its match and who sits where (entrant ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The match.
    pub match_id: MatchId,
    /// South's entrant.
    pub south: String,
    /// North's entrant.
    pub north: String,
}

/// What a tournament is.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// Its name.
    pub name: String,
    /// How it is paired.
    pub system: System,
    /// The game.
    pub kind: GameKind,
    /// Its options.
    pub options: Options,
    /// How its matches are timed.
    pub time_control: TimeControl,
    /// Whether matches between two players change ratings.
    pub rated: bool,
    /// The player who made it (`None`: the tenant's backend).
    pub created_by: Option<String>,
}

/// One step of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    /// It was created.
    Created(Spec),
    /// An entrant entered (again, after withdrawing: he is back).
    Entered {
        /// The entrant id: a player id, or "bot L #N".
        entrant: String,
        /// A built-in opponent's level.
        bot_level: Option<u32>,
    },
    /// An entrant withdrew.
    Withdrawn {
        /// The entrant.
        entrant: String,
    },
    /// It started with these entrants, in seed order (a round robin's schedule is theirs).
    Started {
        /// The entrants at the start.
        participants: Vec<String>,
    },
    /// A round was paired (its matches' `MatchCreated` are written with it).
    Paired {
        /// The round, from 1.
        round: u32,
        /// Its boards, in order.
        boards: Vec<Board>,
        /// Swiss: who has the bye.
        bye: Option<String>,
        /// Who sits out with no point.
        idle: Vec<String>,
    },
    /// A board's match ended.
    Result {
        /// The round.
        round: u32,
        /// The board's match.
        match_id: MatchId,
        /// How.
        outcome: Outcome,
    },
    /// It is over: the entrants, best first, each with his points counted in halves.
    Finished {
        /// The final order.
        standings: Vec<(String, u32)>,
    },
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredRecord {
    #[prost(message, optional, tag = "1")]
    created: Option<StoredCreated>,
    #[prost(message, optional, tag = "2")]
    entered: Option<StoredEntered>,
    #[prost(string, optional, tag = "3")]
    withdrawn: Option<String>,
    #[prost(message, optional, tag = "4")]
    started: Option<StoredStarted>,
    #[prost(message, optional, tag = "5")]
    paired: Option<StoredPaired>,
    #[prost(message, optional, tag = "6")]
    result: Option<StoredResult>,
    #[prost(message, optional, tag = "7")]
    finished: Option<StoredFinished>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredCreated {
    #[prost(string, tag = "1")]
    name: String,
    /// 0 for a round robin, else a Swiss of this many rounds.
    #[prost(uint32, tag = "2")]
    swiss_rounds: u32,
    /// The lobby's stored game.
    #[prost(bytes = "vec", tag = "3")]
    game: Vec<u8>,
    #[prost(bool, tag = "4")]
    rated: bool,
    #[prost(string, optional, tag = "5")]
    created_by: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredEntered {
    #[prost(string, tag = "1")]
    entrant: String,
    #[prost(uint32, optional, tag = "2")]
    bot_level: Option<u32>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredStarted {
    #[prost(string, repeated, tag = "1")]
    participants: Vec<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredBoard {
    #[prost(bytes = "vec", tag = "1")]
    match_id: Vec<u8>,
    #[prost(string, tag = "2")]
    south: String,
    #[prost(string, tag = "3")]
    north: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredPaired {
    #[prost(uint32, tag = "1")]
    round: u32,
    #[prost(message, repeated, tag = "2")]
    boards: Vec<StoredBoard>,
    #[prost(string, optional, tag = "3")]
    bye: Option<String>,
    #[prost(string, repeated, tag = "4")]
    idle: Vec<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredResult {
    #[prost(uint32, tag = "1")]
    round: u32,
    #[prost(bytes = "vec", tag = "2")]
    match_id: Vec<u8>,
    /// 1 South won, 2 North won, 3 draw, 4 no result.
    #[prost(uint32, tag = "3")]
    outcome: u32,
}

#[derive(Clone, PartialEq, prost::Message)]
struct StoredFinished {
    #[prost(string, repeated, tag = "1")]
    entrants: Vec<String>,
    #[prost(uint32, repeated, tag = "2")]
    half_points: Vec<u32>,
}

const OUTCOMES: [Outcome; 4] = [
    Outcome::SouthWon,
    Outcome::NorthWon,
    Outcome::Draw,
    Outcome::NoResult,
];

fn bad(what: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(format!("a tournament step: bad {what}"))
}

fn match_id(bytes: &[u8]) -> Result<MatchId, StoreError> {
    Ok(MatchId(bytes.try_into().map_err(|_| bad("match id"))?))
}

/// The step as bytes.
pub fn encode(record: &Record) -> Vec<u8> {
    let mut stored = StoredRecord::default();
    match record {
        Record::Created(spec) => {
            stored.created = Some(StoredCreated {
                name: spec.name.clone(),
                swiss_rounds: match spec.system {
                    System::RoundRobin => 0,
                    System::Swiss { rounds } => rounds,
                },
                game: encode_game(spec.kind, &spec.options, spec.time_control),
                rated: spec.rated,
                created_by: spec.created_by.clone(),
            })
        }
        Record::Entered { entrant, bot_level } => {
            stored.entered = Some(StoredEntered {
                entrant: entrant.clone(),
                bot_level: *bot_level,
            })
        }
        Record::Withdrawn { entrant } => stored.withdrawn = Some(entrant.clone()),
        Record::Started { participants } => {
            stored.started = Some(StoredStarted {
                participants: participants.clone(),
            })
        }
        Record::Paired {
            round,
            boards,
            bye,
            idle,
        } => {
            stored.paired = Some(StoredPaired {
                round: *round,
                boards: boards
                    .iter()
                    .map(|b| StoredBoard {
                        match_id: b.match_id.0.to_vec(),
                        south: b.south.clone(),
                        north: b.north.clone(),
                    })
                    .collect(),
                bye: bye.clone(),
                idle: idle.clone(),
            })
        }
        Record::Result {
            round,
            match_id,
            outcome,
        } => {
            stored.result = Some(StoredResult {
                round: *round,
                match_id: match_id.0.to_vec(),
                outcome: OUTCOMES.iter().position(|o| o == outcome).unwrap_or(0) as u32 + 1,
            })
        }
        Record::Finished { standings } => {
            stored.finished = Some(StoredFinished {
                entrants: standings.iter().map(|(e, _)| e.clone()).collect(),
                half_points: standings.iter().map(|(_, p)| *p).collect(),
            })
        }
    }
    stored.encode_to_vec()
}

/// A step from bytes: an error (never a panic) for anything the tournaments did not write.
pub fn decode(bytes: &[u8]) -> Result<Record, StoreError> {
    let stored = StoredRecord::decode(bytes).map_err(bad)?;
    Ok(if let Some(c) = stored.created {
        let (kind, options, time_control) = decode_game(&c.game)?;
        Record::Created(Spec {
            name: c.name,
            system: match c.swiss_rounds {
                0 => System::RoundRobin,
                rounds => System::Swiss { rounds },
            },
            kind,
            options,
            time_control,
            rated: c.rated,
            created_by: c.created_by,
        })
    } else if let Some(e) = stored.entered {
        Record::Entered {
            entrant: e.entrant,
            bot_level: e.bot_level,
        }
    } else if let Some(entrant) = stored.withdrawn {
        Record::Withdrawn { entrant }
    } else if let Some(s) = stored.started {
        Record::Started {
            participants: s.participants,
        }
    } else if let Some(p) = stored.paired {
        Record::Paired {
            round: p.round,
            boards: p
                .boards
                .into_iter()
                .map(|b| {
                    Ok(Board {
                        match_id: match_id(&b.match_id)?,
                        south: b.south,
                        north: b.north,
                    })
                })
                .collect::<Result<_, StoreError>>()?,
            bye: p.bye,
            idle: p.idle,
        }
    } else if let Some(r) = stored.result {
        Record::Result {
            round: r.round,
            match_id: match_id(&r.match_id)?,
            outcome: *r
                .outcome
                .checked_sub(1)
                .and_then(|i| OUTCOMES.get(i as usize))
                .ok_or_else(|| bad("outcome"))?,
        }
    } else if let Some(f) = stored.finished {
        if f.entrants.len() != f.half_points.len() {
            return Err(bad("standings"));
        }
        Record::Finished {
            standings: f.entrants.into_iter().zip(f.half_points).collect(),
        }
    } else {
        return Err(bad("step (empty)"));
    })
}
