//! Tournaments: round robin and Swiss over the lobby's matches (docs/guide/tournaments.md).
//!
//! A tournament lives in its tenant's lobby log, as the lobby's challenges do: each step (created, entered,
//! withdrawn, started, a round paired, a result, finished) is one lobby `Entry::Tournament` whose body is this
//! module's ([`record`]), and its state is the replay of those steps ([`state::Tournament`]). Every change is
//! decided against the log caught up with the store and written with the lobby's check-and-append
//! ([`Lobby::write`]); a round's pairing and the `MatchCreated` of its matches are one write, so whichever replicas
//! try, a round is paired once and its matches are made once. The lobby tells each step to the players it names
//! (their event streams) and creates the matches as it does an accepted challenge's.
//!
//! This file holds the calls; beside it: `record` (the steps and their stored form), `state` (the replay),
//! `pairing` (the Monrad Swiss, the round robin's circle, the seat rule), `standings` (points and tie-breaks),
//! `advance` (results, the next round or the end, decided against the lobby's state), `background` (the task that
//! advances every running tournament, on every replica) and `watch` (`WatchTournament`).

pub mod advance;
mod background;
pub mod pairing;
pub mod record;
pub mod standings;
pub mod state;
#[cfg(test)]
mod tests;
mod watch;

pub use record::{Board, Outcome, Record, Spec, System};
pub use standings::Line;
pub use state::{Entrant, Round, Status, Tournament};
pub use watch::Update;

use crate::engine::Violation;
use crate::lobby::entry::Entry;
use crate::lobby::{Lobby, LobbyError, LobbyId, TenantState};
use crate::matches::{Encoder, Matches};
use crate::store::MatchId;

/// The most entrants one tournament takes.
pub const MAX_ENTRANTS: usize = 256;
/// The most rounds of a Swiss tournament.
pub const MAX_SWISS_ROUNDS: u32 = 50;
/// The longest name, in bytes.
pub const MAX_NAME_BYTES: usize = 100;

/// A refusal of the tournaments; `crate::api::error::tournament_error` makes it a gRPC status.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// A malformed request.
    #[error("invalid request")]
    Invalid(Vec<Violation>),
    /// No such tournament or entrant.
    #[error("{0}")]
    NotFound(String),
    /// The caller may not do this.
    #[error("{0}")]
    PermissionDenied(String),
    /// Not now: FAILED_PRECONDITION with this `ErrorInfo` reason.
    #[error("{message}")]
    Refused {
        /// "TOURNAMENT_CLOSED", "ALREADY_ENTERED" or "TOO_FEW_ENTRANTS".
        reason: &'static str,
        /// The sentence.
        message: String,
    },
    /// Too many entrants.
    #[error("{0}")]
    ResourceExhausted(String),
    /// The lobby refused or failed.
    #[error(transparent)]
    Lobby(#[from] LobbyError),
}

impl TournamentError {
    fn invalid(field: &str, description: impl Into<String>) -> TournamentError {
        TournamentError::Invalid(vec![Violation {
            field: field.to_string(),
            description: description.into(),
        }])
    }

    fn closed(message: impl Into<String>) -> TournamentError {
        TournamentError::Refused {
            reason: "TOURNAMENT_CLOSED",
            message: message.into(),
        }
    }
}

/// Who is calling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A player, with his token.
    Player(String),
    /// The tenant's backend, with its API key.
    Backend,
}

/// The tournaments of every tenant.
pub struct Tournaments<E: Encoder> {
    lobby: Lobby<E>,
    matches: Matches<E>,
}

impl<E: Encoder> Clone for Tournaments<E> {
    fn clone(&self) -> Self {
        Tournaments {
            lobby: self.lobby.clone(),
            matches: self.matches.clone(),
        }
    }
}

impl<E: Encoder> std::fmt::Debug for Tournaments<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tournaments").finish_non_exhaustive()
    }
}

/// What a change decides: the entries to write and the entrant it concerns, or the refusal.
type Decided = Result<(Vec<Entry>, Option<String>), TournamentError>;

impl<E: Encoder> Tournaments<E> {
    /// The tournaments kept in `lobby`'s logs, their matches made by `matches`' rules (bot levels, clocks).
    pub fn new(lobby: Lobby<E>, matches: Matches<E>) -> Tournaments<E> {
        Tournaments { lobby, matches }
    }

    /// Creates a tournament of `spec` (its `created_by` set from `actor`).
    pub async fn create(
        &self,
        tenant: &str,
        actor: &Actor,
        mut spec: Spec,
    ) -> Result<Tournament, TournamentError> {
        self.check_spec(&spec)?;
        spec.created_by = match actor {
            Actor::Player(player) => Some(player.clone()),
            Actor::Backend => None,
        };
        let id: LobbyId = MatchId::random()
            .map_err(|e| LobbyError::Internal(format!("reading the OS random generator: {e}")))?;
        let created = Record::Created(spec.clone());
        let tell: Vec<String> = spec.created_by.iter().cloned().collect();
        self.lobby
            .write(tenant, move |_| {
                let t = Tournament {
                    id,
                    spec: spec.clone(),
                    created_ms: 0,
                    entrants: Vec::new(),
                    status: Status::Open,
                    participants: Vec::new(),
                    rounds: Vec::new(),
                };
                Ok((vec![advance::step(&t, &created, tell.clone())], ()))
            })
            .await?;
        self.get(tenant, id).await
    }

    fn check_spec(&self, spec: &Spec) -> Result<(), TournamentError> {
        let mut violations = Vec::new();
        let mut problem = |field: &str, description: String| {
            violations.push(Violation {
                field: field.into(),
                description,
            })
        };
        if spec.name.len() > MAX_NAME_BYTES {
            problem("name", format!("at most {MAX_NAME_BYTES} bytes"));
        }
        if let System::Swiss { rounds } = spec.system {
            if !(1..=MAX_SWISS_ROUNDS).contains(&rounds) {
                problem(
                    "rounds",
                    format!("a Swiss tournament has 1 to {MAX_SWISS_ROUNDS} rounds"),
                );
            }
        }
        if spec.options.seats(spec.kind) != 2 {
            problem(
                "options.ba_awa_players",
                "tournaments pair two players: three-player Ba-awa is not offered".into(),
            );
        }
        if let Err(why) = spec.time_control.check(self.matches.max_initial_ms()) {
            problem("time_control", why);
        }
        if violations.is_empty() {
            Ok(())
        } else {
            Err(TournamentError::Invalid(violations))
        }
    }

    /// The tournament `id` as it stands.
    pub async fn get(&self, tenant: &str, id: LobbyId) -> Result<Tournament, TournamentError> {
        let t = self
            .lobby
            .read_state(tenant, move |state| found(state, id))
            .await??;
        // A round's matches are created after the entry that pairs it, by the replica that wrote it: the boards
        // still being played are made sure of before they are named, so that a caller asking any replica for
        // one next finds it.
        if let Some(round) = t.rounds.last() {
            for (board, _) in round.boards.iter().filter(|(_, outcome)| outcome.is_none()) {
                self.lobby.ensure_match(tenant, board.match_id).await;
            }
        }
        Ok(t)
    }

    /// Up to `limit` of the tenant's tournaments in `status` (any when `None`), newest first, created before
    /// entry `before` (the previous page's mark): the tournaments, and the next page's mark if there is one.
    pub async fn list(
        &self,
        tenant: &str,
        status: Option<Status>,
        before: Option<u64>,
        limit: usize,
    ) -> Result<(Vec<Tournament>, Option<u64>), TournamentError> {
        self.lobby
            .read_state(tenant, move |state| {
                let mut made: Vec<(u64, LobbyId)> = state
                    .tournaments()
                    .filter_map(|(id, log)| Some((log.steps.first()?.0, *id)))
                    .filter(|(seq, _)| before.is_none_or(|before| *seq < before))
                    .collect();
                made.sort_by_key(|(seq, _)| std::cmp::Reverse(*seq));
                let mut page = Vec::new();
                for (seq, id) in made {
                    let t = found(state, id)?;
                    if status.is_some_and(|status| t.status != status) {
                        continue;
                    }
                    if page.len() == limit {
                        return Ok((page, Some(seq + 1)));
                    }
                    page.push(t);
                }
                Ok((page, None))
            })
            .await?
    }

    /// Enters `actor` himself, or with `bot_level` a built-in opponent of that level (the creator or the
    /// backend): the tournament and the entrant id.
    pub async fn enter(
        &self,
        tenant: &str,
        actor: &Actor,
        id: LobbyId,
        bot_level: Option<u32>,
    ) -> Result<(Tournament, String), TournamentError> {
        if let Some(level) = bot_level {
            match self.matches.max_bot_level() {
                None => {
                    return Err(TournamentError::invalid(
                        "bot_level",
                        "this server plays no built-in opponents",
                    ))
                }
                Some(max) if level > max => {
                    return Err(TournamentError::invalid(
                        "bot_level",
                        format!("the built-in opponent's level is 1 to {max} on this server"),
                    ))
                }
                Some(_) => {}
            }
        }
        let actor = actor.clone();
        let entrant = self
            .change(tenant, id, move |t, _| {
                let entrant = match (&actor, bot_level) {
                    (_, Some(level)) => {
                        may_run(t, &actor, "enter a built-in opponent")?;
                        (t.next_bot_id(level), Some(level))
                    }
                    (Actor::Player(player), None) => (player.clone(), None),
                    (Actor::Backend, None) => {
                        return Err(TournamentError::PermissionDenied(
                            "a player enters with his own token (Players.IssuePlayerToken); the API key enters \
                             built-in opponents (bot_level)"
                                .into(),
                        ))
                    }
                };
                match t.status {
                    Status::Finished => return Err(TournamentError::closed("the tournament is over")),
                    Status::Running if t.spec.system == System::RoundRobin => {
                        return Err(TournamentError::closed(
                            "a round robin's schedule is fixed when it starts: it takes no more entries",
                        ))
                    }
                    _ => {}
                }
                if let Some(known) = t.entrant(&entrant.0) {
                    if !known.withdrawn {
                        return Err(TournamentError::Refused {
                            reason: "ALREADY_ENTERED",
                            message: format!("{} has entered already", entrant.0),
                        });
                    }
                } else if t.entrants.len() >= MAX_ENTRANTS {
                    return Err(TournamentError::ResourceExhausted(format!(
                        "a tournament takes at most {MAX_ENTRANTS} entrants"
                    )));
                }
                let record = Record::Entered {
                    entrant: entrant.0.clone(),
                    bot_level: entrant.1,
                };
                let tell = entrant.1.is_none().then(|| entrant.0.clone());
                Ok((
                    vec![advance::step(t, &record, tell.into_iter().collect())],
                    Some(entrant.0),
                ))
            })
            .await?;
        Ok((self.get(tenant, id).await?, entrant.unwrap_or_default()))
    }

    /// Withdraws `entrant` (`None`: the caller himself; another: the creator or the backend only).
    pub async fn withdraw(
        &self,
        tenant: &str,
        actor: &Actor,
        id: LobbyId,
        entrant: Option<String>,
    ) -> Result<Tournament, TournamentError> {
        let actor = actor.clone();
        self.change(tenant, id, move |t, _| {
            let who = match (&entrant, &actor) {
                (Some(e), Actor::Player(p)) if e == p => e.clone(),
                (Some(e), _) => {
                    may_run(t, &actor, "withdraw another entrant")?;
                    e.clone()
                }
                (None, Actor::Player(p)) => p.clone(),
                (None, Actor::Backend) => {
                    return Err(TournamentError::invalid(
                        "entrant_id",
                        "the API key withdraws an entrant it names",
                    ))
                }
            };
            let Some(known) = t.entrant(&who) else {
                return Err(TournamentError::NotFound(format!(
                    "{who} has not entered tournament {}",
                    t.id
                )));
            };
            if t.status == Status::Finished {
                return Err(TournamentError::closed("the tournament is over"));
            }
            if known.withdrawn {
                return Ok((Vec::new(), None));
            }
            let record = Record::Withdrawn {
                entrant: who.clone(),
            };
            let tell = known.player().map(str::to_string);
            Ok((
                vec![advance::step(t, &record, tell.into_iter().collect())],
                None,
            ))
        })
        .await?;
        self.get(tenant, id).await
    }

    /// Starts the tournament (the creator or the backend): round 1 is paired in the same write.
    pub async fn start(
        &self,
        tenant: &str,
        actor: &Actor,
        id: LobbyId,
    ) -> Result<Tournament, TournamentError> {
        let actor = actor.clone();
        self.change(tenant, id, move |t, lobby| {
            may_run(t, &actor, "start the tournament")?;
            if t.status != Status::Open {
                return Err(TournamentError::closed(
                    "the tournament has started already",
                ));
            }
            let participants: Vec<String> = t
                .entrants
                .iter()
                .filter(|e| !e.withdrawn)
                .map(|e| e.id.clone())
                .collect();
            if participants.len() < 2 {
                return Err(TournamentError::Refused {
                    reason: "TOO_FEW_ENTRANTS",
                    message: format!(
                        "a tournament starts with two entrants or more; it has {}",
                        participants.len()
                    ),
                });
            }
            let mut t = t.clone();
            let started = Record::Started { participants };
            t.apply(&started);
            let mut entries = vec![advance::step(&t, &started, advance::active_players(&t))];
            entries.extend(advance::advance(&mut t, lobby));
            Ok((entries, None))
        })
        .await?;
        self.get(tenant, id).await
    }

    /// Decides a change of tournament `id` against the lobby's state and writes it: `decide` returns the
    /// entries and the entrant it concerns, or the refusal.
    async fn change(
        &self,
        tenant: &str,
        id: LobbyId,
        mut decide: impl FnMut(&Tournament, &TenantState) -> Decided + Send + 'static,
    ) -> Result<Option<String>, TournamentError> {
        self.lobby
            .write(tenant, move |state| {
                let decided = found(state, id).and_then(|t| decide(&t, state));
                Ok(match decided {
                    Ok((entries, entrant)) => (entries, Ok(entrant)),
                    Err(refusal) => (Vec::new(), Err(refusal)),
                })
            })
            .await?
    }
}

/// Tournament `id` of the tenant whose lobby state is `state`.
fn found(state: &TenantState, id: LobbyId) -> Result<Tournament, TournamentError> {
    let not_found = || TournamentError::NotFound(format!("no tournament {id} in this tenant"));
    let log = state.tournament(&id).ok_or_else(not_found)?;
    Tournament::replay(id, &log.steps)
        .map_err(|e| {
            LobbyError::Internal(format!("tournament {id}'s steps do not decode: {e}")).into()
        })
        .and_then(|t| t.ok_or_else(not_found))
}

/// Refuses `actor` what only the creator or the backend may do.
fn may_run(t: &Tournament, actor: &Actor, what: &str) -> Result<(), TournamentError> {
    match actor {
        Actor::Backend => Ok(()),
        Actor::Player(p) if t.spec.created_by.as_deref() == Some(p) => Ok(()),
        Actor::Player(_) => Err(TournamentError::PermissionDenied(format!(
            "only the tournament's creator or the tenant's API key may {what}"
        ))),
    }
}
