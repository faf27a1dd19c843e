//! Protocol ⇄ engine. Decoding never trusts the client: every problem becomes a [`Violation`] with the field's
//! path, and the engine's own validation ([`AnyGame::from_setup`]) adds the game's invariants.

use super::pb;
use super::wire::setup_box::SetupBox;
use crate::engine::{
    self, AnyGame, Description, Direction, EndReason, Event, GameKind, Kichwa, KuuDecision,
    LapSource, Move, PerSeat, PitSet, Player, Setup, Sow, StarterRule, Status, VariantSetup,
    Violation,
};
use crate::rules::{ClientState, Decoded, StateAndMove};

/// Why a request could not be turned into engine values.
#[derive(Debug, Clone)]
pub enum DecodeError {
    /// Malformed fields or an impossible state: every violation, with paths from the request root.
    Invalid(Vec<Violation>),
}

/// Collects violations of the fields of one message ("state", "move"); paths are built only for violations.
struct Fields<'a> {
    message: &'a str,
    violations: Vec<Violation>,
}

impl<'a> Fields<'a> {
    fn new(message: &'a str) -> Self {
        Fields {
            message,
            violations: Vec::new(),
        }
    }

    fn fail(&mut self, field: &str, description: impl Into<String>) {
        self.violations.push(Violation {
            field: format!("{}.{field}", self.message),
            description: description.into(),
        });
    }

    fn player(&mut self, field: &str, value: i32) -> Option<Player> {
        self.player_named(|| field.to_string(), value)
    }

    /// Like [`Fields::player`], for a field whose path is only built when it is wrong (a list element): the
    /// success path of every request then formats nothing.
    fn player_named(&mut self, field: impl FnOnce() -> String, value: i32) -> Option<Player> {
        match pb::Player::try_from(value) {
            Ok(pb::Player::South) => Some(Player::South),
            Ok(pb::Player::North) => Some(Player::North),
            Ok(pb::Player::East) => Some(Player::East),
            Ok(pb::Player::Unspecified) => None,
            Err(_) => {
                self.fail(
                    &field(),
                    format!("{value} is not a Player (1 South, 2 North, 3 East)"),
                );
                None
            }
        }
    }

    fn enum_value<E: TryFrom<i32>>(&mut self, field: &str, value: i32, what: &str) -> Option<E> {
        match E::try_from(value) {
            Ok(e) => Some(e),
            Err(_) => {
                self.fail(field, format!("{value} is not a {what}"));
                None
            }
        }
    }
}

/// Decodes a required `GameKind`.
pub fn game_kind(field: &str, value: i32) -> Result<GameKind, Vec<Violation>> {
    let fail = |description: String| {
        vec![Violation {
            field: field.to_string(),
            description,
        }]
    };
    match pb::GameKind::try_from(value) {
        Ok(pb::GameKind::BaoLaKete) => Ok(GameKind::BaoLaKete),
        Ok(pb::GameKind::Bosh) => Ok(GameKind::Bosh),
        Ok(pb::GameKind::BaAwa) => Ok(GameKind::BaAwa),
        Ok(pb::GameKind::Unspecified) => Err(fail("the game kind must be set".into())),
        Err(_) => Err(fail(format!("{value} is not a GameKind"))),
    }
}

/// Encodes a game kind.
pub fn kind_to_pb(kind: GameKind) -> pb::GameKind {
    match kind {
        GameKind::BaoLaKete => pb::GameKind::BaoLaKete,
        GameKind::Bosh => pb::GameKind::Bosh,
        GameKind::BaAwa => pb::GameKind::BaAwa,
    }
}

/// Decodes a seat: `None` for PLAYER_UNSPECIFIED and for values that are not a Player.
pub fn player_from_pb(value: i32) -> Option<Player> {
    match pb::Player::try_from(value) {
        Ok(pb::Player::South) => Some(Player::South),
        Ok(pb::Player::North) => Some(Player::North),
        Ok(pb::Player::East) => Some(Player::East),
        _ => None,
    }
}

/// Encodes a player (`None`: PLAYER_UNSPECIFIED).
pub fn player_to_pb(player: Option<Player>) -> i32 {
    match player {
        None => pb::Player::Unspecified as i32,
        Some(Player::South) => pb::Player::South as i32,
        Some(Player::North) => pb::Player::North as i32,
        Some(Player::East) => pb::Player::East as i32,
    }
}

/// A per-seat list, South first.
fn per_seat_to_pb(values: PerSeat) -> Vec<u32> {
    values.as_slice().iter().map(|&v| v as u32).collect()
}

/// Who begins games 2 and 3 of a Bao la Kete match. The default is written as unset, so that a state or options
/// without the rule encode as they did before it existed.
pub fn starter_rule_to_pb(rule: StarterRule) -> pb::StarterRule {
    match rule {
        StarterRule::Alternate => pb::StarterRule::Unspecified,
        StarterRule::LoserStarts => pb::StarterRule::LoserStarts,
        StarterRule::WinnerStarts => pb::StarterRule::WinnerStarts,
    }
}

/// A Bao la Kete state's stage: mtaji (`true`), nemo (`false`) or unspecified.
pub fn stage_to_pb(mtaji: Option<bool>) -> pb::bao_la_kete_state::Stage {
    match mtaji {
        None => pb::bao_la_kete_state::Stage::Unspecified,
        Some(false) => pb::bao_la_kete_state::Stage::Nemo,
        Some(true) => pb::bao_la_kete_state::Stage::Mtaji,
    }
}

fn starter_rule_from_pb(rule: pb::StarterRule) -> StarterRule {
    match rule {
        pb::StarterRule::Unspecified | pb::StarterRule::Alternate => StarterRule::Alternate,
        pb::StarterRule::LoserStarts => StarterRule::LoserStarts,
        pb::StarterRule::WinnerStarts => StarterRule::WinnerStarts,
    }
}

pub(super) fn status_to_pb(status: Status) -> pb::Status {
    match status {
        Status::InProgress => pb::Status::InProgress,
        Status::RoundOver => pb::Status::RoundOver,
        Status::GameOver => pb::Status::GameOver,
        Status::MatchOver => pb::Status::MatchOver,
    }
}

pub(super) fn direction_to_pb(direction: Option<Direction>) -> i32 {
    match direction {
        None => pb::Direction::Unspecified as i32,
        Some(Direction::Clockwise) => pb::Direction::Clockwise as i32,
        Some(Direction::Anticlockwise) => pb::Direction::Anticlockwise as i32,
    }
}

pub(super) fn kichwa_to_pb(kichwa: Option<Kichwa>) -> i32 {
    match kichwa {
        None => pb::Kichwa::Unspecified as i32,
        Some(Kichwa::Left) => pb::Kichwa::Left as i32,
        Some(Kichwa::Right) => pb::Kichwa::Right as i32,
    }
}

/// Decodes and validates a client's state (`field` is its path in the request, e.g. "state"). Takes the message
/// so that its vectors move into the engine's [`Setup`] instead of being copied.
pub fn game_state(
    field: &'static str,
    state: Option<pb::GameState>,
) -> Result<AnyGame, DecodeError> {
    state_setup(field, state)
        .and_then(|state| state.validate())
        .map_err(DecodeError::Invalid)
}

/// A state decoded field by field into its [`Setup`], not yet checked by the game's rules (which is engine work;
/// see [`ClientState`]), in the box its thread keeps for the next request ([`SetupBox`]).
pub type DecodedState = ClientState<SetupBox>;

/// Decodes the fields of a state (see [`DecodedState`]); only a missing state or kind stops it here.
pub fn state_setup(field: &'static str, state: Option<pb::GameState>) -> Decoded<SetupBox> {
    let Some(state) = state else {
        return Err(vec![Violation {
            field: field.to_string(),
            description: "the game state is required".into(),
        }]);
    };
    let mut fields = Fields::new(field);
    let kind = match game_kind("kind", state.kind) {
        Ok(kind) => kind,
        Err(mut violations) => {
            violations[0].field = format!("{field}.kind");
            return Err(violations);
        }
    };
    let status = fields
        .enum_value::<pb::Status>("status", state.status, "Status")
        .and_then(|s| match s {
            pb::Status::Unspecified => None,
            pb::Status::InProgress => Some(Status::InProgress),
            pb::Status::RoundOver => Some(Status::RoundOver),
            pb::Status::GameOver => Some(Status::GameOver),
            pb::Status::MatchOver => Some(Status::MatchOver),
        });
    let to_move = fields.player("to_move", state.to_move);
    let winner = fields.player("winner", state.winner);
    let variant = match state.variant {
        None => VariantSetup::Missing,
        Some(pb::game_state::Variant::BaAwa(v)) => VariantSetup::BaAwa {
            // A list longer than the board is refused by the game from its length alone, its values unread
            // (`Setup::overlong_lists`): here too, so that a million owners cost no million violations.
            owners: if v.owners.len() > GameKind::BaAwa.pit_count() {
                std::iter::repeat_n(None, v.owners.len()).collect()
            } else {
                v.owners
                    .iter()
                    .enumerate()
                    .map(|(i, &o)| fields.player_named(|| format!("ba_awa.owners[{i}]"), o))
                    .collect()
            },
            starter: fields.player("ba_awa.starter", v.starter),
            target: v.target,
            players: v.players,
            eliminated_in: v.eliminated_in_game.into(),
        },
        Some(pb::game_state::Variant::Bosh(v)) => VariantSetup::Bosh {
            closed: v.closed.into(),
            round_starter: fields.player("bosh.round_starter", v.round_starter),
        },
        Some(pb::game_state::Variant::BaoLaKete(v)) => VariantSetup::BaoLaKete {
            mtaji: fields
                .enum_value::<pb::bao_la_kete_state::Stage>("bao_la_kete.stage", v.stage, "Stage")
                .and_then(|s| match s {
                    pb::bao_la_kete_state::Stage::Unspecified => None,
                    pb::bao_la_kete_state::Stage::Nemo => Some(false),
                    pb::bao_la_kete_state::Stage::Mtaji => Some(true),
                }),
            kuu_alive: v.kuu_alive.into(),
            mark: v.mark.as_ref().map(|m| {
                (
                    fields.player("bao_la_kete.mark.blockee", m.blockee),
                    m.pit,
                    fields.player("bao_la_kete.mark.setter", m.setter),
                )
            }),
            game_starter: fields.player("bao_la_kete.game_starter", v.game_starter),
            starter_rule: fields
                .enum_value::<pb::StarterRule>(
                    "bao_la_kete.starter_rule",
                    v.starter_rule,
                    "StarterRule",
                )
                .map_or(StarterRule::Alternate, starter_rule_from_pb),
        },
    };
    let setup = Setup {
        kind,
        rules_version: state.rules_version,
        pits: state.pits.into(),
        stores: state.stores.into(),
        reserves: state.reserves.into(),
        to_move,
        status,
        winner,
        ply: state.ply,
        game_number: state.game_number,
        match_score: state.match_score.into(),
        variant,
    };
    Ok(ClientState::new(
        field,
        SetupBox::new(setup),
        fields.violations,
    ))
}

/// A request's `state` and `move` decoded (the move for the state's kind, as soon as it is known).
pub fn state_and_move(
    state: Option<pb::GameState>,
    mv: Option<&pb::Move>,
) -> StateAndMove<SetupBox> {
    StateAndMove::new(state_setup("state", state), |kind| {
        game_move("move", kind, mv)
    })
}

/// `NewGameRequest`'s game and options; the violations of both at once.
pub fn new_game_request(
    request: &pb::NewGameRequest,
) -> Result<(GameKind, engine::Options), Vec<Violation>> {
    let kind = game_kind("kind", request.kind);
    let options = options(kind.as_ref().ok().copied(), request.options.as_ref());
    match (kind, options) {
        (Ok(kind), Ok(options)) => Ok((kind, options)),
        (kind, options) => Err(kind
            .err()
            .into_iter()
            .chain(options.err())
            .flatten()
            .collect()),
    }
}

/// Every legal move of `game`, each with its label, and with its result and events when `with_previews` (what
/// `ListLegalMoves` answers, and the previews a watcher of a match asks for).
pub fn legal_moves_to_pb(game: &AnyGame, with_previews: bool) -> Vec<pb::LegalMove> {
    let legal_move = |mv: &Move| {
        let mut legal = pb::LegalMove {
            r#move: Some(move_to_pb(mv)),
            result: None,
            events: Vec::new(),
            label: engine::notation::move_label(game.kind(), mv),
        };
        if with_previews {
            // Listed moves are legal by construction; a preview can only fail if the engine contradicts itself.
            if let Ok((next, events)) = game.preview(mv) {
                legal.result = Some(state_to_pb(&next));
                legal.events = events_to_pb(&events);
            }
        }
        legal
    };
    game.legal_moves().iter().map(legal_move).collect()
}

/// Encodes a state.
pub fn state_to_pb(game: &AnyGame) -> pb::GameState {
    pb::GameState {
        position_key: engine::across_turns::position_key(game),
        ..setup_to_pb(game.to_setup())
    }
}

/// Encodes a state's setup (what [`state_to_pb`] does once the engine has written it out; `wire::tests` also
/// encodes setups no game reaches).
pub fn setup_to_pb(setup: Setup) -> pb::GameState {
    let variant = match setup.variant {
        VariantSetup::Missing => None,
        VariantSetup::BaAwa {
            owners,
            starter,
            target,
            players,
            eliminated_in,
        } => Some(pb::game_state::Variant::BaAwa(pb::BaAwaState {
            owners: owners.into_iter().map(player_to_pb).collect(),
            starter: player_to_pb(starter),
            target,
            players,
            eliminated_in_game: eliminated_in.into_vec(),
        })),
        VariantSetup::Bosh {
            closed,
            round_starter,
        } => Some(pb::game_state::Variant::Bosh(pb::BoshState {
            closed: closed.into_vec(),
            round_starter: player_to_pb(round_starter),
        })),
        VariantSetup::BaoLaKete {
            mtaji,
            kuu_alive,
            mark,
            game_starter,
            starter_rule,
        } => Some(pb::game_state::Variant::BaoLaKete(pb::BaoLaKeteState {
            stage: stage_to_pb(mtaji) as i32,
            kuu_alive: kuu_alive.into_vec(),
            mark: mark.map(|(blockee, pit, setter)| pb::HiziZetuMark {
                blockee: player_to_pb(blockee),
                pit,
                setter: player_to_pb(setter),
            }),
            game_starter: player_to_pb(game_starter),
            starter_rule: starter_rule_to_pb(starter_rule) as i32,
        })),
    };
    pb::GameState {
        kind: kind_to_pb(setup.kind) as i32,
        rules_version: setup.rules_version,
        pits: setup.pits.into_vec(),
        stores: setup.stores.into_vec(),
        reserves: setup.reserves.into_vec(),
        to_move: player_to_pb(setup.to_move),
        status: setup.status.map_or(pb::Status::Unspecified, status_to_pb) as i32,
        winner: player_to_pb(setup.winner),
        ply: setup.ply,
        game_number: setup.game_number,
        match_score: setup.match_score.into_vec(),
        position_key: 0,
        variant,
    }
}

/// Decodes a move for a game of `kind` (`field` is its path in the request, e.g. "move").
pub fn game_move(
    field: &str,
    kind: GameKind,
    mv: Option<&pb::Move>,
) -> Result<Move, Vec<Violation>> {
    let mut fields = Fields::new(field);
    let pits = kind.pit_count();
    let Some(action) = mv.and_then(|m| m.action.as_ref()) else {
        fields.fail("action", "set either sow or next_game");
        return Err(fields.violations);
    };
    let decoded = match action {
        pb::r#move::Action::Sow(sow) => {
            if sow.pit as usize >= pits {
                fields.fail(
                    "sow.pit",
                    format!(
                        "{} has pits 0 to {}; there is no pit {}",
                        kind.name(),
                        pits - 1,
                        sow.pit
                    ),
                );
            }
            let direction = fields
                .enum_value::<pb::Direction>("sow.direction", sow.direction, "Direction")
                .and_then(|d| match d {
                    pb::Direction::Unspecified => None,
                    pb::Direction::Clockwise => Some(Direction::Clockwise),
                    pb::Direction::Anticlockwise => Some(Direction::Anticlockwise),
                });
            let kichwa = fields
                .enum_value::<pb::Kichwa>("sow.kichwa", sow.kichwa, "Kichwa")
                .and_then(|k| match k {
                    pb::Kichwa::Unspecified => None,
                    pb::Kichwa::Left => Some(Kichwa::Left),
                    pb::Kichwa::Right => Some(Kichwa::Right),
                });
            let kuu_decision = fields
                .enum_value::<pb::KuuDecision>("sow.kuu_decision", sow.kuu_decision, "KuuDecision")
                .and_then(|k| match k {
                    pb::KuuDecision::Unspecified => None,
                    pb::KuuDecision::Stop => Some(KuuDecision::Stop),
                    pb::KuuDecision::Safari => Some(KuuDecision::Safari),
                });
            Move::Sow(Sow {
                pit: sow.pit.min(255) as u8,
                direction,
                kichwa,
                kuu_decision,
            })
        }
        pb::r#move::Action::NextGame(next) if next.pits.len() > pits => {
            // More pits than the board has cannot be a set of its pits: refused from the length alone, so that a
            // million listed pits cost no million violations.
            fields.fail(
                "next_game.pits",
                format!("lists {} pits; {} has {pits}", next.pits.len(), kind.name()),
            );
            Move::NextGame(PitSet::EMPTY)
        }
        pb::r#move::Action::NextGame(next) => {
            let mut set = PitSet::EMPTY;
            for (i, &pit) in next.pits.iter().enumerate() {
                if pit as usize >= pits {
                    fields.fail(
                        &format!("next_game.pits[{i}]"),
                        format!("{} has no pit {pit}", kind.name()),
                    );
                } else if set.contains(pit as usize) {
                    fields.fail(
                        &format!("next_game.pits[{i}]"),
                        format!("pit {pit} is listed twice"),
                    );
                } else {
                    set = set.with(pit as usize);
                }
            }
            Move::NextGame(set)
        }
    };
    if fields.violations.is_empty() {
        Ok(decoded)
    } else {
        Err(fields.violations)
    }
}

/// Encodes a move.
pub fn move_to_pb(mv: &Move) -> pb::Move {
    let action = match *mv {
        Move::Sow(sow) => pb::r#move::Action::Sow(pb::Sow {
            pit: sow.pit as u32,
            direction: direction_to_pb(sow.direction),
            kichwa: kichwa_to_pb(sow.kichwa),
            kuu_decision: match sow.kuu_decision {
                None => pb::KuuDecision::Unspecified,
                Some(KuuDecision::Stop) => pb::KuuDecision::Stop,
                Some(KuuDecision::Safari) => pb::KuuDecision::Safari,
            } as i32,
        }),
        Move::NextGame(set) => pb::r#move::Action::NextGame(pb::NextGame {
            pits: set.iter().map(|p| p as u32).collect(),
        }),
    };
    pb::Move {
        action: Some(action),
    }
}

/// The pits of a set, in order (a refill's opened or closed holes).
pub(super) fn pits_of(mask: u16) -> impl Iterator<Item = u32> + Clone {
    (0..16).filter(move |p| mask >> p & 1 == 1)
}

pub(super) fn end_reason_to_pb(reason: EndReason) -> i32 {
    (match reason {
        EndReason::FewSeedsLeft => pb::EndReason::FewSeedsLeft,
        EndReason::BothStuck => pb::EndReason::BothStuck,
        EndReason::PlayerEmpty => pb::EndReason::PlayerEmpty,
        EndReason::BaoHamna => pb::EndReason::BaoHamna,
        EndReason::NoLegalMove => pb::EndReason::NoLegalMove,
        EndReason::OwnFrontRowEmptied => pb::EndReason::OwnFrontRowEmptied,
        EndReason::Resignation => pb::EndReason::Resignation,
        EndReason::Repetition => pb::EndReason::Repetition,
        EndReason::Agreement => pb::EndReason::Agreement,
    }) as i32
}

/// Encodes a move's events: each [`Event::Lap`] with the drops that follow it becomes one `Lap`.
pub fn events_to_pb(events: &[Event]) -> Vec<pb::Event> {
    use pb::event::Kind;
    let mut out: Vec<pb::Event> = Vec::with_capacity(events.len());
    // Index in `out` of the lap that drops belong to.
    let mut current_lap: Option<usize> = None;
    let drops_so_far = |out: &Vec<pb::Event>, lap: Option<usize>| match lap.map(|i| &out[i].kind) {
        Some(Some(Kind::Lap(lap))) => lap.drops.len() as u32,
        _ => 0,
    };
    for event in events {
        let kind = match *event {
            Event::Lap {
                player,
                origin,
                seeds,
                source,
            } => {
                current_lap = Some(out.len());
                Kind::Lap(pb::Lap {
                    player: player_to_pb(Some(player)),
                    origin: origin as u32,
                    seeds: seeds as u32,
                    drops: Vec::with_capacity(seeds as usize),
                    source: match source {
                        LapSource::Pit => pb::LapSource::Pit,
                        LapSource::Reserve => pb::LapSource::Reserve,
                        LapSource::Capture => pb::LapSource::Capture,
                    } as i32,
                })
            }
            Event::Drop { pit } => {
                if let Some(Some(Kind::Lap(lap))) = current_lap.map(|i| &mut out[i].kind) {
                    lap.drops.push(pit as u32);
                }
                continue;
            }
            Event::Capture {
                pit,
                seeds,
                beneficiary,
                kichwa,
                direction,
            } => Kind::Capture(pb::Capture {
                pit: pit as u32,
                seeds: seeds as u32,
                beneficiary: player_to_pb(Some(beneficiary)),
                after_drop: drops_so_far(&out, current_lap),
                kichwa: kichwa_to_pb(kichwa),
                direction: direction_to_pb(direction),
            }),
            Event::NoCapture {
                empty_pit,
                beyond_pit,
            } => Kind::NoCapture(pb::NoCapture {
                empty_pit: empty_pit as u32,
                beyond_pit: beyond_pit as u32,
            }),
            Event::Pass { player } => Kind::Pass(pb::Pass {
                player: player_to_pb(Some(player)),
            }),
            Event::GameEnd {
                reason,
                winner,
                collector,
                collected,
                stores,
            } => Kind::GameEnd(pb::GameEnd {
                reason: end_reason_to_pb(reason),
                winner: player_to_pb(winner),
                collector: player_to_pb(collector),
                collected: collected as u32,
                stores: per_seat_to_pb(stores),
            }),
            Event::RoundEnd {
                reason,
                collector,
                collected,
                totals,
            } => Kind::RoundEnd(pb::RoundEnd {
                reason: end_reason_to_pb(reason),
                collector: player_to_pb(collector),
                collected: collected as u32,
                totals: totals.iter().map(|&s| s as u32).collect(),
            }),
            Event::MatchEnd {
                winner,
                score,
                placing,
            } => Kind::MatchEnd(pb::MatchEnd {
                winner: player_to_pb(winner),
                match_score: per_seat_to_pb(score),
                placing: per_seat_to_pb(placing),
            }),
            Event::Elimination { player } => Kind::Elimination(pb::Elimination {
                player: player_to_pb(Some(player)),
            }),
            Event::Allocation {
                north_owned,
                east_owned,
                pits_owned,
                starter,
            } => Kind::Allocation(pb::Allocation {
                pits_owned: per_seat_to_pb(pits_owned),
                owners: (0..12)
                    .map(|p| {
                        player_to_pb(Some(if north_owned >> p & 1 == 1 {
                            Player::North
                        } else if east_owned >> p & 1 == 1 {
                            Player::East
                        } else {
                            Player::South
                        }))
                    })
                    .collect(),
                starter: player_to_pb(Some(starter)),
            }),
            Event::Refill {
                player,
                opened,
                closed,
                reserve,
            } => Kind::Refill(pb::Refill {
                player: player_to_pb(Some(player)),
                opened: pits_of(opened).collect(),
                closed: pits_of(closed).collect(),
                reserve: reserve as u32,
            }),
            Event::Taxation {
                pit,
                seeds,
                six_seed_rule,
            } => Kind::Taxation(pb::Taxation {
                pit: pit as u32,
                seeds: seeds as u32,
                six_seed_rule,
            }),
            Event::KuuDestroyed { owner, pit } => Kind::KuuDestroyed(pb::KuuDestroyed {
                owner: player_to_pb(Some(owner)),
                pit: pit as u32,
            }),
            Event::KuuStop { pit } => Kind::KuuStop(pb::KuuStop { pit: pit as u32 }),
            Event::Safari { pit, seeds } => Kind::Safari(pb::Safari {
                pit: pit as u32,
                seeds: seeds as u32,
            }),
            Event::MarkSet {
                blockee,
                pit,
                setter,
            } => Kind::MarkSet(pb::MarkSet {
                mark: Some(mark_to_pb(blockee, pit, setter)),
            }),
            Event::MarkCleared {
                blockee,
                pit,
                setter,
            } => Kind::MarkCleared(pb::MarkCleared {
                mark: Some(mark_to_pb(blockee, pit, setter)),
            }),
        };
        out.push(pb::Event { kind: Some(kind) });
    }
    out
}

fn mark_to_pb(blockee: Player, pit: u8, setter: Player) -> pb::HiziZetuMark {
    pb::HiziZetuMark {
        blockee: player_to_pb(Some(blockee)),
        pit: pit as u32,
        setter: player_to_pb(Some(setter)),
    }
}

/// Encodes a game description.
pub fn description_to_pb(d: &Description) -> pb::DescribeGameResponse {
    pb::DescribeGameResponse {
        kind: kind_to_pb(d.kind) as i32,
        name: d.kind.name().to_string(),
        rows: d.rows as u32,
        pits_per_row: d.pits_per_row as u32,
        pits: d
            .pits
            .iter()
            .map(|p| pb::PitDescription {
                index: p.index as u32,
                row: p.row as u32,
                column: p.column as u32,
                side: player_to_pb(Some(p.side)),
                label: p.label.clone(),
                role: p.role.to_string(),
            })
            .collect(),
        sowing_order: d.sowing_order.iter().map(|&p| p as u32).collect(),
        seed_total: d.seed_total as u32,
        rules_source: d.rules_source.to_string(),
        rules_version: d.rules_version,
        // Every game this server knows is implemented.
        implemented: true,
        summary: d.summary.to_string(),
        players: d.players.iter().map(|&n| n as u32).collect(),
        options: d
            .options
            .iter()
            .map(|o| pb::GameOption {
                name: o.name.into(),
                values: o.values.iter().map(|&v| v.into()).collect(),
                default_value: o.default_value.into(),
                clause: o.clause.into(),
                description: o.description.into(),
            })
            .collect(),
    }
}

/// Decodes new-match options for a game of `kind` (`None` when the request's kind is itself wrong: then only
/// what every game shares is checked).
pub fn options(
    kind: Option<GameKind>,
    options: Option<&pb::GameOptions>,
) -> Result<engine::Options, Vec<Violation>> {
    let mut fields = Fields::new("options");
    let mut decoded = engine::Options::default();
    if let Some(o) = options {
        if let Some(first) = fields.player("first_player", o.first_player) {
            decoded.first_player = first;
        }
        match o.ba_awa_target {
            0 => {}
            t @ 10..=12 => decoded.ba_awa_target = t as u8,
            t => fields.fail(
                "ba_awa_target",
                format!("the Ba-awa match target is 10, 11 or 12 pits (or 0 for 10), not {t}"),
            ),
        }
        match (o.ba_awa_players, kind) {
            (0 | 2, _) => {}
            (3, Some(GameKind::BaAwa) | None) => decoded.ba_awa_players = 3,
            (3, Some(other)) => fields.fail(
                "ba_awa_players",
                format!(
                    "only Ba-awa has a three-player game; {} is played by two",
                    other.name()
                ),
            ),
            (n, _) => fields.fail(
                "ba_awa_players",
                format!("Ba-awa is played by 2 or 3 players (or 0 for 2), not {n}"),
            ),
        }
        if let Some(rule) = fields.enum_value::<pb::StarterRule>(
            "bao_la_kete_starter",
            o.bao_la_kete_starter,
            "StarterRule",
        ) {
            decoded.bao_la_kete_starter = starter_rule_from_pb(rule);
            if rule != pb::StarterRule::Unspecified
                && kind.is_some_and(|k| k != GameKind::BaoLaKete)
            {
                fields.fail(
                    "bao_la_kete_starter",
                    "who begins later games is an option of Bao la Kete only (R-2.12)",
                );
            }
        }
        decoded.repetition = o.repetition.unwrap_or(true);
        match o.max_games {
            None => {}
            Some(n @ 1..=engine::across_turns::MAX_GAMES_LIMIT) => decoded.max_games = Some(n),
            Some(n) => fields.fail(
                "max_games",
                format!(
                    "a match has 1 to {} games (Bosh: rounds), not {n}; leave it unset for the game's default (§1 \"Match length\")",
                    engine::across_turns::MAX_GAMES_LIMIT
                ),
            ),
        }
        if decoded.first_player == Player::East && decoded.ba_awa_players != 3 {
            fields.fail(
                "first_player",
                "East sits only in three-player Ba-awa (ba_awa_players = 3)",
            );
        }
    }
    if fields.violations.is_empty() {
        Ok(decoded)
    } else {
        Err(fields.violations)
    }
}

/// Encodes new-match options (as `options` decodes them).
pub fn options_to_pb(options: &engine::Options) -> pb::GameOptions {
    pb::GameOptions {
        first_player: player_to_pb(Some(options.first_player)),
        ba_awa_target: options.ba_awa_target as u32,
        // Defaults are written as unset, so that options without them encode as before they existed.
        ba_awa_players: if options.ba_awa_players == 3 { 3 } else { 0 },
        bao_la_kete_starter: starter_rule_to_pb(options.bao_la_kete_starter) as i32,
        repetition: (!options.repetition).then_some(false),
        // A match recorded before the match length existed has none to show.
        max_games: options
            .max_games
            .filter(|&n| n <= engine::across_turns::MAX_GAMES_LIMIT),
    }
}

/// The readable reason for an illegal move, as the protocol's enum.
pub fn reason_to_pb(reason: engine::Reason) -> pb::IllegalMoveReason {
    use engine::Reason as R;
    use pb::IllegalMoveReason as P;
    match reason {
        R::NoSuchPit => P::NoSuchPit,
        R::PitEmpty => P::PitEmpty,
        R::NotYourPit => P::NotYourPit,
        R::GameOver => P::GameOver,
        R::NeverEndingMove => P::NeverEndingMove,
        R::GameInProgress => P::GameInProgress,
        R::MatchOver => P::MatchOver,
        R::InvalidChoice => P::InvalidChoice,
        R::HoleClosed => P::HoleClosed,
        R::ChoiceRequired => P::ChoiceRequired,
        R::ChoiceNotOffered => P::ChoiceNotOffered,
        R::CaptureIsMandatory => P::CaptureIsMandatory,
        R::KuuMustStartTakata => P::KuuMustStartTakata,
        R::KuuNotAllowedWhileOtherHolesOccupied => P::KuuNotAllowedWhileOtherHolesOccupied,
        R::SingletonNotAllowed => P::SingletonNotAllowed,
        R::MustSowTowardCentre => P::MustSowTowardCentre,
        R::HoleMarkedHiziZetu => P::HoleMarkedHiziZetu,
        R::MustCaptureMarkedHole => P::MustCaptureMarkedHole,
        R::TooManySeedsToCapture => P::TooManySeedsToCapture,
        R::HoleNotAllowed => P::HoleNotAllowed,
    }
}
