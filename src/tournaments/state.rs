//! A tournament as it stands: the replay of its steps ([`Tournament::apply`]), pure (no store, no clock).

use super::record::{self, Board, Outcome, Record, Spec, System};
use crate::lobby::LobbyId;
use crate::store::StoreError;

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Taking entries.
    Open,
    /// Rounds are being played.
    Running,
    /// Over.
    Finished,
}

/// One entrant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// A player id, or "bot L #N".
    pub id: String,
    /// A built-in opponent's level (`None`: a player).
    pub bot_level: Option<u32>,
    /// 1 for the first to enter, and so on.
    pub seed: u32,
    /// Whether he has withdrawn (he is paired no more).
    pub withdrawn: bool,
}

impl Entrant {
    /// The player, for a player's entry.
    pub fn player(&self) -> Option<&str> {
        self.bot_level.is_none().then_some(self.id.as_str())
    }
}

/// One round paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// From 1.
    pub number: u32,
    /// Its boards, each with its outcome once recorded.
    pub boards: Vec<(Board, Option<Outcome>)>,
    /// Swiss: who has the bye.
    pub bye: Option<String>,
    /// Who sits out with no point.
    pub idle: Vec<String>,
}

impl Round {
    /// Whether every board has its outcome.
    pub fn over(&self) -> bool {
        self.boards.iter().all(|(_, outcome)| outcome.is_some())
    }
}

/// A tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    /// Its id.
    pub id: LobbyId,
    /// What it is.
    pub spec: Spec,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Every entrant, in seed order.
    pub entrants: Vec<Entrant>,
    /// Where it stands.
    pub status: Status,
    /// The entrants at the start, in seed order (a round robin's schedule is theirs).
    pub participants: Vec<String>,
    /// Every round paired, in order.
    pub rounds: Vec<Round>,
}

impl Tournament {
    /// The tournament its `steps` (entry number, time, body) make; `None` before its creation step.
    pub fn replay(
        id: LobbyId,
        steps: &[(u64, u64, Vec<u8>)],
    ) -> Result<Option<Tournament>, StoreError> {
        let mut tournament: Option<Tournament> = None;
        for (_, at_ms, body) in steps {
            let step = record::decode(body)?;
            Tournament::step(&mut tournament, id, *at_ms, &step);
        }
        Ok(tournament)
    }

    /// Applies `step` (written at `at_ms`) to `tournament`, which a creation step makes.
    pub fn step(tournament: &mut Option<Tournament>, id: LobbyId, at_ms: u64, step: &Record) {
        match (tournament.as_mut(), step) {
            (None, Record::Created(spec)) => {
                *tournament = Some(Tournament {
                    id,
                    spec: spec.clone(),
                    created_ms: at_ms,
                    entrants: Vec::new(),
                    status: Status::Open,
                    participants: Vec::new(),
                    rounds: Vec::new(),
                })
            }
            (Some(t), step) => t.apply(step),
            (None, _) => {}
        }
    }

    /// Applies the next step.
    pub fn apply(&mut self, step: &Record) {
        match step {
            Record::Created(_) => {}
            Record::Entered { entrant, bot_level } => match self.entrant_mut(entrant) {
                Some(known) => known.withdrawn = false,
                None => {
                    let seed = self.entrants.len() as u32 + 1;
                    self.entrants.push(Entrant {
                        id: entrant.clone(),
                        bot_level: *bot_level,
                        seed,
                        withdrawn: false,
                    })
                }
            },
            Record::Withdrawn { entrant } => {
                if let Some(known) = self.entrant_mut(entrant) {
                    known.withdrawn = true;
                }
            }
            Record::Started { participants } => {
                self.status = Status::Running;
                self.participants = participants.clone();
            }
            Record::Paired {
                round,
                boards,
                bye,
                idle,
            } => self.rounds.push(Round {
                number: *round,
                boards: boards.iter().map(|b| (b.clone(), None)).collect(),
                bye: bye.clone(),
                idle: idle.clone(),
            }),
            Record::Result {
                round,
                match_id,
                outcome,
            } => {
                let board = self
                    .rounds
                    .iter_mut()
                    .filter(|r| r.number == *round)
                    .flat_map(|r| r.boards.iter_mut())
                    .find(|(b, _)| b.match_id == *match_id);
                if let Some((_, slot)) = board {
                    *slot = Some(*outcome);
                }
            }
            Record::Finished { .. } => self.status = Status::Finished,
        }
    }

    fn entrant_mut(&mut self, id: &str) -> Option<&mut Entrant> {
        self.entrants.iter_mut().find(|e| e.id == id)
    }

    /// An entrant.
    pub fn entrant(&self, id: &str) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.id == id)
    }

    /// How many rounds it has: a Swiss its planned number, a round robin its schedule's (0 before the start).
    pub fn planned_rounds(&self) -> u32 {
        match self.spec.system {
            System::Swiss { rounds } => rounds,
            System::RoundRobin if self.participants.len() < 2 => 0,
            System::RoundRobin => {
                let n = self.participants.len() as u32;
                n - 1 + n % 2
            }
        }
    }

    /// The round being played (0 before the start).
    pub fn current_round(&self) -> u32 {
        self.rounds.last().map_or(0, |r| r.number)
    }

    /// The players to tell of what concerns every entrant (built-in opponents have no stream).
    pub fn players(&self) -> Vec<String> {
        self.entrants
            .iter()
            .filter_map(|e| e.player().map(str::to_string))
            .collect()
    }

    /// The id the next built-in opponent of `level` entering gets: "bot L #N", N counting every built-in entrant.
    pub fn next_bot_id(&self, level: u32) -> String {
        let n = self
            .entrants
            .iter()
            .filter(|e| e.bot_level.is_some())
            .count()
            + 1;
        format!("bot {level} #{n}")
    }
}
