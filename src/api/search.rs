//! The built-in opponent's messages (`SuggestMove`, `AnalyzePosition`) ⇄ the engine's search
//! ([`crate::engine::search`]): the strength a request asks for, checked against the server's caps
//! ([`SearchSettings`]), and the suggestion encoded with the protocol's own `Move`, state and events.

use super::convert::{self, DecodedState};
use super::error;
use super::pb;
use crate::config::SearchSettings;
use crate::engine::search::{self, Algorithm, Bot, Limits, MoveValue, Suggestion, Thinker, Work};
use crate::engine::{AnyGame, GameKind, Player, Status, Violation};
use std::time::Duration;

/// A search request decoded field by field; what needs the rules (the state's own checks, whose turn it is)
/// waits for [`SearchRequest::validate`], which is engine work.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    state: Result<DecodedState, Vec<Violation>>,
    strength: Result<Strength, Vec<Violation>>,
    seat: Result<Option<Player>, Violation>,
    /// The seed of the search's random choices.
    pub seed: u64,
}

/// The search a request asked for, resolved: the level (0 for an explicit budget) and its thinker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// The level named (or the server's default); 0 for an explicit budget.
    pub level: u32,
    /// The algorithm and its budget.
    pub thinker: Thinker,
}

/// A request the rules accept: the game, the search, and for whom (`None`: the mover, or between games the
/// default chooser).
#[derive(Debug, Clone)]
pub struct Validated {
    /// The position.
    pub game: AnyGame,
    /// The search asked for.
    pub strength: Strength,
    /// Only between games: the chooser asked for.
    pub seat: Option<Player>,
}

/// Why a request cannot be searched.
#[derive(Debug, Clone)]
pub enum SearchRefusal {
    /// Malformed fields, an impossible state, a strength above the caps, a seat that is not the mover's: every
    /// violation found.
    Invalid(Vec<Violation>),
    /// The match is over: nothing is left to choose.
    MatchOver,
}

impl SearchRequest {
    /// Decodes the fields of `SuggestMove` and `AnalyzePosition` (which share them) under the server's caps.
    pub fn decode(
        state: Option<pb::GameState>,
        strength: Option<StrengthField<'_>>,
        seed: u64,
        seat: i32,
        caps: &SearchSettings,
    ) -> SearchRequest {
        let state = convert::state_setup("state", state);
        // Levels are per game: a strength is resolved once the kind is known (a bad state's violations and a
        // bad strength's are still reported together).
        let kind = state.as_ref().map(DecodedState::kind).ok();
        let strength = strength_of(kind, strength, caps);
        let seat = match pb::Player::try_from(seat) {
            Ok(pb::Player::Unspecified) => Ok(None),
            Ok(pb::Player::South) => Ok(Some(Player::South)),
            Ok(pb::Player::North) => Ok(Some(Player::North)),
            Ok(pb::Player::East) => Ok(Some(Player::East)),
            Err(_) => Err(Violation {
                field: "seat".into(),
                description: format!("{seat} is not a Player (1 South, 2 North, 3 East)"),
            }),
        };
        SearchRequest {
            state,
            strength,
            seat,
            seed,
        }
    }

    /// `SuggestMove`'s request decoded under `caps`, and whether the suggestion is previewed.
    pub fn suggest_move(r: pb::SuggestMoveRequest, caps: &SearchSettings) -> (SearchRequest, bool) {
        let strength = r.strength.as_ref().map(StrengthField::from);
        (
            Self::decode(r.state, strength, r.seed, r.seat, caps),
            !r.skip_preview,
        )
    }

    /// `AnalyzePosition`'s request decoded under `caps`, and whether the moves are previewed.
    pub fn analyze_position(
        r: pb::AnalyzePositionRequest,
        caps: &SearchSettings,
    ) -> (SearchRequest, bool) {
        let strength = r.strength.as_ref().map(StrengthField::from);
        (
            Self::decode(r.state, strength, r.seed, r.seat, caps),
            !r.skip_previews,
        )
    }

    /// `SuggestMove`'s engine work and answer: the request validated, the search run, its choice encoded.
    pub fn suggestion(&self, with_preview: bool) -> Result<pb::SuggestMoveResponse, tonic::Status> {
        let valid = self.validate().map_err(error::search_refusal)?;
        let found = Bot::new(valid.strength.thinker, self.seed)
            .choose(&valid.game, valid.seat)
            .ok_or_else(|| error::search_refusal(SearchRefusal::MatchOver))?;
        Ok(suggestion_to_pb(
            &valid.game,
            &valid.strength,
            &found,
            with_preview,
        ))
    }

    /// `AnalyzePosition`'s engine work and answer: the request validated, the search run, every move's value
    /// encoded.
    pub fn analysis(
        &self,
        with_previews: bool,
    ) -> Result<pb::AnalyzePositionResponse, tonic::Status> {
        let valid = self.validate().map_err(error::search_refusal)?;
        let found = search::analyze(&valid.game, valid.strength.thinker, valid.seat, self.seed)
            .ok_or_else(|| error::search_refusal(SearchRefusal::MatchOver))?;
        Ok(analysis_to_pb(
            &valid.game,
            &valid.strength,
            &found,
            with_previews,
        ))
    }

    /// The search asked for, when the request's strength decoded (to choose where the work runs).
    pub fn thinker(&self) -> Option<Thinker> {
        self.strength.as_ref().ok().map(|s| s.thinker)
    }

    /// The game and the search, once the rules accept the state and the seat fits it.
    pub fn validate(&self) -> Result<Validated, SearchRefusal> {
        let mut violations = Vec::new();
        let game = match self
            .state
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|s| s.validate())
        {
            Ok(game) => Some(game),
            Err(v) => {
                violations.extend(v);
                None
            }
        };
        if let Err(v) = &self.strength {
            violations.extend(v.iter().cloned());
        }
        if let Err(v) = &self.seat {
            violations.push(v.clone());
        }
        let (Some(game), Ok(strength), Ok(seat), true) =
            (game, &self.strength, &self.seat, violations.is_empty())
        else {
            return Err(SearchRefusal::Invalid(violations));
        };
        if game.seats() == 3 && strength.thinker.algorithm == Algorithm::Mcts {
            return Err(SearchRefusal::Invalid(vec![Violation {
                field: "budget.algorithm".into(),
                description: "Monte Carlo search is for two-player games; three-player Ba-awa is searched by \
                              ALPHA_BETA (each player against the other two together), RANDOM or GREEDY"
                    .into(),
            }]));
        }
        if let Some(seat) = seat.filter(|seat| seat.index() >= game.seats()) {
            return Err(SearchRefusal::Invalid(vec![Violation {
                field: "seat".into(),
                description: format!(
                    "{} has no seat in this two-player game (East sits only in three-player Ba-awa)",
                    name(seat)
                ),
            }]));
        }
        match (game.status(), game.to_move(), *seat) {
            (Status::MatchOver, ..) => return Err(SearchRefusal::MatchOver),
            (Status::InProgress, Some(mover), Some(seat)) if seat != mover => {
                return Err(SearchRefusal::Invalid(vec![Violation {
                    field: "seat".into(),
                    description: format!(
                        "{} is to move, not {}: during a game the seat may only name the player to move (it \
                         chooses only between games)",
                        name(mover),
                        name(seat)
                    ),
                }]));
            }
            _ => {}
        }
        Ok(Validated {
            game,
            strength: *strength,
            seat: *seat,
        })
    }
}

/// The `strength` oneof of either request.
#[derive(Clone, Copy, Debug)]
pub enum StrengthField<'a> {
    /// A level.
    Level(u32),
    /// An explicit budget.
    Budget(&'a pb::SearchBudget),
}

impl<'a> From<&'a pb::suggest_move_request::Strength> for StrengthField<'a> {
    fn from(s: &'a pb::suggest_move_request::Strength) -> Self {
        match s {
            pb::suggest_move_request::Strength::Level(level) => StrengthField::Level(*level),
            pb::suggest_move_request::Strength::Budget(budget) => StrengthField::Budget(budget),
        }
    }
}

impl<'a> From<&'a pb::analyze_position_request::Strength> for StrengthField<'a> {
    fn from(s: &'a pb::analyze_position_request::Strength) -> Self {
        match s {
            pb::analyze_position_request::Strength::Level(level) => StrengthField::Level(*level),
            pb::analyze_position_request::Strength::Budget(budget) => StrengthField::Budget(budget),
        }
    }
}

fn name(player: Player) -> &'static str {
    match player {
        Player::South => "South",
        Player::North => "North",
        Player::East => "East",
    }
}

fn violation(field: &str, description: String) -> Violation {
    Violation {
        field: field.to_string(),
        description,
    }
}

/// The strength asked for (none: the server's default level), checked against the caps. `kind` is `None` when
/// the state did not decode far enough to say which game it is; a level is then only checked for range.
fn strength_of(
    kind: Option<GameKind>,
    strength: Option<StrengthField<'_>>,
    caps: &SearchSettings,
) -> Result<Strength, Vec<Violation>> {
    match strength {
        None => level_of(kind, "level", caps.default_level, caps),
        Some(StrengthField::Level(n)) => level_of(kind, "level", n, caps),
        Some(StrengthField::Budget(budget)) => {
            budget_of(budget, caps).map(|thinker| Strength { level: 0, thinker })
        }
    }
}

fn level_of(
    kind: Option<GameKind>,
    field: &str,
    n: u32,
    caps: &SearchSettings,
) -> Result<Strength, Vec<Violation>> {
    let unknown = || {
        vec![violation(
            field,
            format!(
                "there is no level {n}: levels are 1 (random moves) to {} (the strongest)",
                search::TOP_LEVEL
            ),
        )]
    };
    // Any game's table says whether the level exists; only the state's own game says its budget.
    let thinker = search::level(kind.unwrap_or(GameKind::BaAwa), n).ok_or_else(unknown)?;
    let iterations = thinker.limits.iterations;
    if kind.is_some() && iterations > caps.max_iterations {
        return Err(vec![violation(
            field,
            format!(
                "level {n} searches {iterations} iterations, above this server's cap of {} \
                 (search.max_iterations): ask for a lower level",
                caps.max_iterations
            ),
        )]);
    }
    Ok(Strength { level: n, thinker })
}

fn budget_of(budget: &pb::SearchBudget, caps: &SearchSettings) -> Result<Thinker, Vec<Violation>> {
    let mut violations = Vec::new();
    let algorithm = match pb::SearchAlgorithm::try_from(budget.algorithm) {
        Ok(pb::SearchAlgorithm::Random) => Some(Algorithm::Random),
        Ok(pb::SearchAlgorithm::Greedy) => Some(Algorithm::Greedy),
        Ok(pb::SearchAlgorithm::AlphaBeta) => Some(Algorithm::AlphaBeta),
        Ok(pb::SearchAlgorithm::Mcts) => Some(Algorithm::Mcts),
        Ok(pb::SearchAlgorithm::Unspecified) => {
            violations.push(violation(
                "budget.algorithm",
                "the search algorithm must be set (RANDOM, GREEDY, ALPHA_BETA or MCTS)".into(),
            ));
            None
        }
        Err(_) => {
            violations.push(violation(
                "budget.algorithm",
                format!("{} is not a SearchAlgorithm", budget.algorithm),
            ));
            None
        }
    };
    let searching = matches!(algorithm, Some(Algorithm::AlphaBeta | Algorithm::Mcts));
    if searching && budget.iterations == 0 {
        violations.push(violation(
            "budget.iterations",
            format!(
                "{} needs at least 1 iteration",
                algorithm.map_or("the search", Algorithm::name)
            ),
        ));
    }
    if searching && budget.iterations > caps.max_iterations {
        violations.push(violation(
            "budget.iterations",
            format!(
                "{} iterations is above this server's cap of {} (search.max_iterations)",
                budget.iterations, caps.max_iterations
            ),
        ));
    }
    let time = Duration::from_millis(budget.time_limit_ms.into());
    if time > caps.max_time {
        violations.push(violation(
            "budget.time_limit_ms",
            if caps.max_time.is_zero() {
                "this server takes no time limits (search.max_time_ms = 0): budget in iterations"
                    .into()
            } else {
                format!(
                    "{} ms is above this server's cap of {} ms (search.max_time_ms)",
                    budget.time_limit_ms,
                    caps.max_time.as_millis()
                )
            },
        ));
    }
    match algorithm {
        Some(algorithm) if violations.is_empty() => {
            let mut limits = Limits::iterations(if searching { budget.iterations } else { 0 });
            if budget.max_depth > 0 {
                limits.max_depth = budget.max_depth;
            }
            limits.time = (!time.is_zero()).then_some(time);
            Ok(Thinker { algorithm, limits })
        }
        _ => Err(violations),
    }
}

fn algorithm_to_pb(algorithm: Algorithm) -> pb::SearchAlgorithm {
    match algorithm {
        Algorithm::Random => pb::SearchAlgorithm::Random,
        Algorithm::Greedy => pb::SearchAlgorithm::Greedy,
        Algorithm::AlphaBeta => pb::SearchAlgorithm::AlphaBeta,
        Algorithm::Mcts => pb::SearchAlgorithm::Mcts,
    }
}

/// Encodes the search used.
pub fn used_to_pb(strength: &Strength) -> pb::SearchUsed {
    let limits = strength.thinker.limits;
    pb::SearchUsed {
        level: strength.level,
        budget: Some(pb::SearchBudget {
            algorithm: algorithm_to_pb(strength.thinker.algorithm) as i32,
            iterations: limits.iterations,
            max_depth: limits.max_depth,
            time_limit_ms: limits
                .time
                .map_or(0, |t| t.as_millis().try_into().unwrap_or(u32::MAX)),
        }),
    }
}

/// Encodes the work done.
pub fn work_to_pb(work: &Work) -> pb::SearchWork {
    pb::SearchWork {
        iterations: work.iterations,
        nodes: work.nodes,
        plies: work.plies,
        depth: work.depth,
        elapsed_us: work.elapsed.as_micros().try_into().unwrap_or(u64::MAX),
    }
}

/// One valued move, with its label as `ListLegalMoves` gives it, its line, its proof, and its preview when asked.
pub fn move_value_to_pb(game: &AnyGame, mv: &MoveValue, with_preview: bool) -> pb::MoveEvaluation {
    let (result, events) = preview(game, &mv.mv, with_preview);
    pb::MoveEvaluation {
        r#move: Some(convert::move_to_pb(&mv.mv)),
        result,
        events,
        value: mv.value,
        visits: mv.visits,
        label: crate::engine::notation::move_label(game.kind(), &mv.mv),
        line: mv.line.iter().map(convert::move_to_pb).collect(),
        proof: proof(mv) as i32,
    }
}

/// What a proven value proves (scores are exact binary fractions here: 0, ½ and 1 compare exactly).
fn proof(mv: &MoveValue) -> pb::Proof {
    if !mv.proven {
        return pb::Proof::Unspecified;
    }
    match mv.value {
        1.0 => pb::Proof::Win,
        0.0 => pb::Proof::Loss,
        0.5 => pb::Proof::Draw,
        _ => pb::Proof::Score,
    }
}

/// What a value of `kind` is the expected score of.
fn value_scale(kind: GameKind) -> pb::ValueScale {
    match kind {
        GameKind::BaoLaKete => pb::ValueScale::GameWon,
        GameKind::Bosh => pb::ValueScale::StoneShare,
        GameKind::BaAwa => pb::ValueScale::PitShare,
    }
}

/// The state after `mv` and its events, when asked (`mv` is one the search listed, so legal).
fn preview(
    game: &AnyGame,
    mv: &crate::engine::Move,
    with_preview: bool,
) -> (Option<pb::GameState>, Vec<pb::Event>) {
    if !with_preview {
        return (None, Vec::new());
    }
    match game.preview(mv) {
        Ok((next, events)) => (
            Some(convert::state_to_pb(&next)),
            convert::events_to_pb(&events),
        ),
        // Listed moves are legal: a preview fails only if the engine contradicts itself.
        Err(_) => (None, Vec::new()),
    }
}

/// `SuggestMove`'s answer.
pub fn suggestion_to_pb(
    game: &AnyGame,
    strength: &Strength,
    found: &Suggestion,
    with_preview: bool,
) -> pb::SuggestMoveResponse {
    let (result, events) = preview(game, &found.best, with_preview);
    pb::SuggestMoveResponse {
        r#move: Some(convert::move_to_pb(&found.best)),
        value: found.value,
        side: convert::player_to_pb(Some(found.side)),
        principal_variation: found.pv.iter().map(convert::move_to_pb).collect(),
        work: Some(work_to_pb(&found.work)),
        search: Some(used_to_pb(strength)),
        result,
        events,
    }
}

/// `AnalyzePosition`'s answer.
pub fn analysis_to_pb(
    game: &AnyGame,
    strength: &Strength,
    found: &Suggestion,
    with_previews: bool,
) -> pb::AnalyzePositionResponse {
    pb::AnalyzePositionResponse {
        side: convert::player_to_pb(Some(found.side)),
        moves: found
            .moves
            .iter()
            .map(|mv| move_value_to_pb(game, mv, with_previews))
            .collect(),
        principal_variation: found.pv.iter().map(convert::move_to_pb).collect(),
        work: Some(work_to_pb(&found.work)),
        search: Some(used_to_pb(strength)),
        value_scale: value_scale(game.kind()) as i32,
    }
}
