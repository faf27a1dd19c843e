//! The worked examples of docs/ as data (`tests/examples/<game>.toml`), and everything both harnesses
//! share: the data model, positions into engine `Setup`s and wire `GameState`s, moves in the examples'
//! notation, and one comparison of an expectation against a result, whichever front door produced it.
//!
//! A harness runs each step of an example from a state (the example's position, or the labelled result of
//! an earlier step), turns what came back into an [`Observed`] state and a list of [`Ev`]ents, and hands both
//! to [`Step::check`]. The engine harness is `tests/rules/examples.rs`, the gRPC one `tests/grpc/examples.rs`.
//!
//! Notation (as docs/ writes it):
//! - players `"S"`, `"N"` (and `"none"` for no one to move / no winner);
//! - pits: Bao la Kete `"S f3"`, `"N b8"` (player-relative, docs/bao-la-kete.md §2.2); Bosh and Ba-awa `"S1"`..`"N5"` /
//!   `"N6"` (docs/bosh.md §3.1, docs/ba-awa.md §4.1); or the global pit index as a number;
//! - moves: a pit, then for Bao la Kete any of `CW`/`ACW`, `left`/`right` (kichwa), `stop`/`safari`;
//!   `"next"` (the next game or round by default) or `"next N1 N2 N5"` (a choice of pits);
//! - names of statuses, end reasons, lap sources and refusal reasons in `snake_case`/`UPPER_CASE` as in
//!   the protocol without its prefix (`"game_over"`, `"bao_hamna"`, `"CAPTURE_IS_MANDATORY"`).

use mancala::api::pb;
use mancala::engine::{
    Direction, Event, GameKind, Kichwa, KuuDecision, LapSource, Move, PitSet, Player, Setup, Sow,
    StarterRule, Status, VariantSetup, RULES_VERSION,
};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One game's file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// `"bao_la_kete"`, `"bosh"` or `"ba_awa"`.
    pub game: String,
    #[serde(rename = "example")]
    pub examples: Vec<Example>,
}

/// One worked example of docs/.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// Its id in docs/: `"BK-1"`.
    pub id: String,
    pub title: String,
    /// `false` for an example of a rule the engine does not implement yet: the harnesses skip it.
    #[serde(default = "yes")]
    pub runnable: bool,
    /// `"opening"` (a new match with the default options) or a position.
    pub position: Position,
    #[serde(rename = "step", default)]
    pub steps: Vec<Step>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Position {
    Opening(String),
    State(Box<State>),
}

/// A state, as a position (missing fields take the defaults of [`State::setup`]) or as an expectation
/// (only the fields given are compared).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub south: Option<Side>,
    pub north: Option<Side>,
    pub stores: Option<[u32; 2]>,
    pub reserves: Option<[u32; 2]>,
    pub to_move: Option<String>,
    pub status: Option<String>,
    pub winner: Option<String>,
    pub ply: Option<u32>,
    /// The game (Bosh: round) number.
    pub game: Option<u32>,
    pub match_score: Option<[u32; 2]>,
    /// Who began the game (Bao la Kete, Ba-awa) or round (Bosh).
    pub starter: Option<String>,
    /// Bosh: the closed holes.
    pub closed: Option<Vec<PitRef>>,
    /// Ba-awa: the pits South owns (North owns the rest).
    pub south_owns: Option<Vec<PitRef>>,
    /// Ba-awa: the pits that win the match.
    pub target: Option<u32>,
    /// Bao la Kete: the hizi-zetu mark, or `"none"`.
    pub mark: Option<MarkSpec>,
    /// Expectation only: every seed of the state (pits, stores, reserves).
    pub seeds: Option<u32>,
    /// Expectation only: the legal moves of the state, in the engine's order.
    pub legal: Option<Vec<String>>,
}

/// A player's side: a row of pits (Bosh, Ba-awa), or Bao la Kete's rows, reserve and kuu.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Side {
    Row(Vec<u32>),
    Bao(BaoSide),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaoSide {
    pub f: Option<[u32; 8]>,
    pub b: Option<[u32; 8]>,
    pub reserve: Option<u32>,
    /// `"alive"` or `"dead"`.
    pub kuu: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum MarkSpec {
    None(String),
    Mark {
        blockee: String,
        pit: PitRef,
        setter: String,
    },
}

#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum PitRef {
    Index(u32),
    Name(String),
}

/// One step: from a state, optionally a move, and what must hold.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The label of an earlier step's result; the example's position when absent.
    pub from: Option<String>,
    /// A name for this step's result, for later steps.
    pub label: Option<String>,
    /// The legal moves of the `from` state, in the engine's order.
    pub legal: Option<Vec<String>>,
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// The move is refused with this reason (and the state is left as it was).
    pub illegal: Option<String>,
    /// The state after the move (without a move: the `from` state itself).
    pub after: Option<State>,
    pub events: Option<Events>,
}

/// The events of interest of a move.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Events {
    /// Every event's kind, in order (a lap with its drops counts once).
    pub kinds: Option<Vec<String>>,
    /// The kinds of the last events, in order.
    pub last: Option<Vec<String>>,
    /// Every lap as `[origin, seeds]`.
    pub laps: Option<Vec<(PitRef, u32)>>,
    pub lap_count: Option<usize>,
    /// Every lap's origin.
    pub lap_origins: Option<Vec<PitRef>>,
    /// `[lap index, [drops]]` for the laps whose drops matter.
    pub lap_drops: Option<Vec<(usize, Vec<PitRef>)>>,
    pub first_lap_source: Option<String>,
    /// The pit the last seed of the move fell into.
    pub last_drop: Option<PitRef>,
    /// Every capture, in order.
    pub captures: Option<Vec<CaptureSpec>>,
    /// Bosh: `[empty pit, pit beyond]`.
    pub no_capture: Option<(PitRef, PitRef)>,
    pub kuu_stop: Option<PitRef>,
    pub taxation: Option<TaxationSpec>,
    pub mark_set: Option<MarkFields>,
    pub game_end: Option<EndSpec>,
    pub round_end: Option<EndSpec>,
    pub match_end: Option<MatchEndSpec>,
    /// Every refill, in order.
    pub refills: Option<Vec<RefillSpec>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureSpec {
    pub pit: PitRef,
    pub seeds: u32,
    pub by: String,
    /// How many seeds of the lap had been dropped when the capture happened.
    pub after_drop: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaxationSpec {
    pub pit: PitRef,
    pub seeds: u32,
    pub six_seed_rule: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkFields {
    pub blockee: String,
    pub pit: PitRef,
    pub setter: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndSpec {
    pub reason: String,
    pub winner: Option<String>,
    pub collector: Option<String>,
    pub collected: Option<u32>,
    /// Bosh: the round's totals.
    pub totals: Option<[u32; 2]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchEndSpec {
    pub winner: String,
    pub score: [u32; 2],
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefillSpec {
    pub player: String,
    pub opened: Vec<PitRef>,
    pub closed: Vec<PitRef>,
    pub reserve: u32,
}

/// Reads `tests/examples/<game>.toml`.
pub fn load(game: &str) -> File {
    let path = format!("{}/tests/examples/{game}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file: File = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(file.game, game, "{path} names its game");
    assert!(!file.examples.is_empty(), "{path} has examples");
    file
}

impl File {
    pub fn kind(&self) -> GameKind {
        match self.game.as_str() {
            "bao_la_kete" => GameKind::BaoLaKete,
            "bosh" => GameKind::Bosh,
            "ba_awa" => GameKind::BaAwa,
            other => panic!("unknown game {other}"),
        }
    }
}

// ---- Names ----

pub fn player(name: &str) -> Player {
    match name {
        "S" => Player::South,
        "N" => Player::North,
        "E" => Player::East,
        other => panic!("not a player: {other}"),
    }
}

fn who(name: &str) -> Option<Player> {
    match name {
        "none" => None,
        other => Some(player(other)),
    }
}

fn letter(p: Option<Player>) -> String {
    match p {
        Some(Player::South) => "S",
        Some(Player::North) => "N",
        Some(Player::East) => "E",
        None => "none",
    }
    .to_string()
}

/// `InProgress` → `in_progress`.
pub fn snake(debug: &str) -> String {
    let mut out = String::new();
    for (i, c) in debug.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A protocol enum's name without its prefix, in lower case: `STATUS_GAME_OVER` → `game_over`.
pub fn wire_name(name: &str, prefix: &str) -> String {
    name.strip_prefix(prefix)
        .unwrap_or_else(|| panic!("{name} starts with {prefix}"))
        .to_ascii_lowercase()
}

/// Pits per player row in Bosh and Ba-awa.
fn row_len(kind: GameKind) -> u32 {
    match kind {
        GameKind::Bosh => 5,
        GameKind::BaAwa => 6,
        GameKind::BaoLaKete => 16,
    }
}

impl PitRef {
    pub fn index(&self, kind: GameKind) -> u32 {
        match self {
            PitRef::Index(i) => *i,
            PitRef::Name(name) => pit_index(kind, name),
        }
    }
}

/// `"S f3"`, `"N b8"` (Bao la Kete) or `"S1"`, `"N5"` (Bosh, Ba-awa).
pub fn pit_index(kind: GameKind, name: &str) -> u32 {
    let bad = || panic!("not a pit of {kind:?}: {name:?}");
    let side = match &name[..1] {
        "S" => 0,
        "N" => 1,
        _ => bad(),
    };
    if kind == GameKind::BaoLaKete {
        let rest = name[1..].trim();
        let i: u32 = rest[1..].parse().unwrap_or_else(|_| bad());
        let row = match &rest[..1] {
            "f" => 0,
            "b" => 8,
            _ => bad(),
        };
        assert!((1..=8).contains(&i), "{name}");
        side * 16 + row + i - 1
    } else {
        let i: u32 = name[1..].parse().unwrap_or_else(|_| bad());
        assert!((1..=row_len(kind)).contains(&i), "{name}");
        side * row_len(kind) + i - 1
    }
}

fn pits(kind: GameKind, refs: &[PitRef]) -> Vec<u32> {
    refs.iter().map(|p| p.index(kind)).collect()
}

// ---- Moves ----

/// A move in a shape both front doors compare equal: `(pit, direction, kichwa, kuu decision)` as the
/// protocol numbers them (0 = none), or the next game with its chosen pits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mv {
    Sow(u32, i32, i32, i32),
    Next(Vec<u32>),
}

/// Parses the examples' move notation.
pub fn parse_move(kind: GameKind, text: &str) -> Mv {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.first() == Some(&"next") {
        let mut chosen: Vec<u32> = tokens[1..]
            .iter()
            .map(|t| match t.parse() {
                Ok(i) => i,
                Err(_) => pit_index(kind, t),
            })
            .collect();
        chosen.sort_unstable();
        return Mv::Next(chosen);
    }
    let (pit, choices) = if kind == GameKind::BaoLaKete {
        (pit_index(kind, &tokens[..2].join(" ")), &tokens[2..])
    } else {
        (pit_index(kind, tokens[0]), &tokens[1..])
    };
    let (mut direction, mut kichwa, mut decision) = (0, 0, 0);
    for choice in choices {
        match *choice {
            "CW" => direction = pb::Direction::Clockwise as i32,
            "ACW" => direction = pb::Direction::Anticlockwise as i32,
            "left" => kichwa = pb::Kichwa::Left as i32,
            "right" => kichwa = pb::Kichwa::Right as i32,
            "stop" => decision = pb::KuuDecision::Stop as i32,
            "safari" => decision = pb::KuuDecision::Safari as i32,
            other => panic!("unknown choice {other:?} in move {text:?}"),
        }
    }
    Mv::Sow(pit, direction, kichwa, decision)
}

impl Mv {
    pub fn engine(&self) -> Move {
        match self {
            Mv::Sow(pit, direction, kichwa, decision) => Move::Sow(Sow {
                pit: *pit as u8,
                direction: match *direction {
                    0 => None,
                    1 => Some(Direction::Clockwise),
                    _ => Some(Direction::Anticlockwise),
                },
                kichwa: match *kichwa {
                    0 => None,
                    1 => Some(Kichwa::Left),
                    _ => Some(Kichwa::Right),
                },
                kuu_decision: match *decision {
                    0 => None,
                    1 => Some(KuuDecision::Stop),
                    _ => Some(KuuDecision::Safari),
                },
            }),
            Mv::Next(chosen) => Move::NextGame(PitSet(chosen.iter().map(|p| 1 << p).sum())),
        }
    }

    pub fn from_engine(mv: &Move) -> Mv {
        match mv {
            Move::Sow(s) => Mv::Sow(
                s.pit as u32,
                match s.direction {
                    None => 0,
                    Some(Direction::Clockwise) => 1,
                    Some(Direction::Anticlockwise) => 2,
                },
                match s.kichwa {
                    None => 0,
                    Some(Kichwa::Left) => 1,
                    Some(Kichwa::Right) => 2,
                },
                match s.kuu_decision {
                    None => 0,
                    Some(KuuDecision::Stop) => 1,
                    Some(KuuDecision::Safari) => 2,
                },
            ),
            Move::NextGame(set) => Mv::Next((0..32).filter(|p| set.0 & (1 << p) != 0).collect()),
        }
    }

    pub fn wire(&self) -> pb::Move {
        use pb::r#move::Action;
        pb::Move {
            action: Some(match self {
                Mv::Sow(pit, direction, kichwa, kuu_decision) => Action::Sow(pb::Sow {
                    pit: *pit,
                    direction: *direction,
                    kichwa: *kichwa,
                    kuu_decision: *kuu_decision,
                }),
                Mv::Next(chosen) => Action::NextGame(pb::NextGame {
                    pits: chosen.clone(),
                }),
            }),
        }
    }

    pub fn from_wire(mv: &pb::Move) -> Mv {
        use pb::r#move::Action;
        match mv.action.as_ref().expect("a move has an action") {
            Action::Sow(s) => Mv::Sow(s.pit, s.direction, s.kichwa, s.kuu_decision),
            Action::NextGame(n) => {
                let mut chosen = n.pits.clone();
                chosen.sort_unstable();
                Mv::Next(chosen)
            }
            #[allow(unreachable_patterns)]
            other => panic!("not a move of the examples: {other:?}"),
        }
    }
}

// ---- Positions ----

impl State {
    /// The position as the engine's wire-shaped state. Defaults: stores and reserves 0, game 1, ply 0, in
    /// progress, the starter South (Bosh: the player to move), no closed hole, each player owning his row,
    /// target 10; Bao la Kete's stage follows from the mover's reserve.
    pub fn setup(&self, kind: GameKind) -> Setup {
        let to_move = player(
            self.to_move
                .as_deref()
                .expect("a position says who is to move"),
        );
        fn side(s: &Option<Side>) -> &Side {
            s.as_ref().expect("a position gives both sides")
        }
        let mut reserves = self.reserves.unwrap_or([0, 0]).to_vec();
        let mut pits = Vec::new();
        let mut kuu_alive = Vec::new();
        for (i, s) in [side(&self.south), side(&self.north)]
            .into_iter()
            .enumerate()
        {
            match s {
                Side::Row(row) => {
                    assert_eq!(row.len() as u32, row_len(kind), "a row of {kind:?}");
                    pits.extend_from_slice(row)
                }
                Side::Bao(b) => {
                    pits.extend(b.f.expect("f"));
                    pits.extend(b.b.unwrap_or([0; 8]));
                    reserves[i] = b.reserve.unwrap_or(0);
                    kuu_alive.push(kuu(b
                        .kuu
                        .as_deref()
                        .expect("a position says if the kuu lives")));
                }
            }
        }
        let n = pits.len() as u32;
        let closed: Vec<bool> = {
            let closed = self
                .closed
                .as_ref()
                .map(|c| pits_of(kind, c))
                .unwrap_or_default();
            (0..n).map(|p| closed.contains(&p)).collect()
        };
        let owners: Vec<Option<Player>> = match &self.south_owns {
            Some(owned) => {
                let owned = pits_of(kind, owned);
                (0..n)
                    .map(|p| {
                        Some(if owned.contains(&p) {
                            Player::South
                        } else {
                            Player::North
                        })
                    })
                    .collect()
            }
            None => (0..n)
                .map(|p| {
                    Some(if p < n / 2 {
                        Player::South
                    } else {
                        Player::North
                    })
                })
                .collect(),
        };
        let starter = self.starter.as_deref().map(player);
        let (match_score, variant) = match kind {
            GameKind::BaoLaKete => (
                [0, 0],
                VariantSetup::BaoLaKete {
                    mtaji: Some(reserves[to_move.index()] == 0),
                    kuu_alive: kuu_alive.into(),
                    mark: match &self.mark {
                        None | Some(MarkSpec::None(_)) => None,
                        Some(MarkSpec::Mark {
                            blockee,
                            pit,
                            setter,
                        }) => Some((who(blockee), pit.index(kind), who(setter))),
                    },
                    game_starter: Some(starter.unwrap_or(Player::South)),
                    starter_rule: StarterRule::Alternate,
                },
            ),
            GameKind::Bosh => {
                let open = |row: std::ops::Range<usize>| row.filter(|&h| !closed[h]).count() as u32;
                (
                    [open(0..5), open(5..10)],
                    VariantSetup::Bosh {
                        closed: closed.clone().into(),
                        round_starter: Some(starter.unwrap_or(to_move)),
                    },
                )
            }
            GameKind::BaAwa => {
                let south = owners.iter().filter(|&&o| o == Some(Player::South)).count() as u32;
                (
                    [south, n - south],
                    VariantSetup::BaAwa {
                        owners: owners.into(),
                        starter: Some(starter.unwrap_or(Player::South)),
                        target: self.target.unwrap_or(10),
                        players: 0,
                        eliminated_in: Vec::new().into(),
                    },
                )
            }
        };
        Setup {
            kind,
            rules_version: RULES_VERSION,
            pits: pits.into(),
            stores: self.stores.unwrap_or([0, 0]).to_vec().into(),
            reserves: reserves.into(),
            to_move: Some(to_move),
            status: Some(Status::InProgress),
            winner: None,
            ply: self.ply.unwrap_or(0),
            game_number: self.game.unwrap_or(1),
            match_score: self.match_score.unwrap_or(match_score).to_vec().into(),
            variant,
        }
    }
}

fn kuu(word: &str) -> bool {
    match word {
        "alive" => true,
        "dead" => false,
        other => panic!("a kuu is alive or dead, not {other:?}"),
    }
}

fn pits_of(kind: GameKind, refs: &[PitRef]) -> Vec<u32> {
    pits(kind, refs)
}

fn wire_player(p: Option<Player>) -> i32 {
    match p {
        None => 0,
        Some(Player::South) => pb::Player::South as i32,
        Some(Player::North) => pb::Player::North as i32,
        Some(Player::East) => pb::Player::East as i32,
    }
}

/// The same state in its protocol shape (written here from the .proto, not with the server's encoder).
pub fn wire_state(setup: &Setup) -> pb::GameState {
    use pb::game_state::Variant;
    pb::GameState {
        kind: match setup.kind {
            GameKind::BaoLaKete => pb::GameKind::BaoLaKete,
            GameKind::Bosh => pb::GameKind::Bosh,
            GameKind::BaAwa => pb::GameKind::BaAwa,
        } as i32,
        rules_version: setup.rules_version,
        pits: setup.pits.clone().into_vec(),
        stores: setup.stores.clone().into_vec(),
        reserves: setup.reserves.clone().into_vec(),
        to_move: wire_player(setup.to_move),
        status: match setup.status.expect("a status") {
            Status::InProgress => pb::Status::InProgress,
            Status::RoundOver => pb::Status::RoundOver,
            Status::GameOver => pb::Status::GameOver,
            Status::MatchOver => pb::Status::MatchOver,
        } as i32,
        winner: wire_player(setup.winner),
        ply: setup.ply,
        game_number: setup.game_number,
        match_score: setup.match_score.clone().into_vec(),
        position_key: 0,
        variant: Some(match &setup.variant {
            VariantSetup::BaoLaKete {
                mtaji,
                kuu_alive,
                mark,
                game_starter,
                ..
            } => Variant::BaoLaKete(pb::BaoLaKeteState {
                stage: if mtaji.expect("a stage") {
                    pb::bao_la_kete_state::Stage::Mtaji
                } else {
                    pb::bao_la_kete_state::Stage::Nemo
                } as i32,
                kuu_alive: kuu_alive.clone().into_vec(),
                mark: mark.map(|(blockee, pit, setter)| pb::HiziZetuMark {
                    blockee: wire_player(blockee),
                    pit,
                    setter: wire_player(setter),
                }),
                game_starter: wire_player(*game_starter),
                starter_rule: 0,
            }),
            VariantSetup::Bosh {
                closed,
                round_starter,
            } => Variant::Bosh(pb::BoshState {
                closed: closed.clone().into_vec(),
                round_starter: wire_player(*round_starter),
            }),
            VariantSetup::BaAwa {
                owners,
                starter,
                target,
                players,
                eliminated_in,
            } => Variant::BaAwa(pb::BaAwaState {
                owners: owners.iter().map(|&o| wire_player(o)).collect(),
                starter: wire_player(*starter),
                target: *target,
                players: *players,
                eliminated_in_game: eliminated_in.clone().into_vec(),
            }),
            VariantSetup::Missing => panic!("a state without its game's fields"),
        }),
    }
}

// ---- Results, from either front door ----

/// A state as both front doors can report it.
#[derive(Debug, PartialEq, Eq)]
pub struct Observed {
    pub pits: Vec<u32>,
    pub stores: Vec<u32>,
    pub reserves: Vec<u32>,
    pub to_move: String,
    pub status: String,
    pub winner: String,
    pub ply: u32,
    pub game: u32,
    pub match_score: Vec<u32>,
    pub starter: String,
    pub closed: Vec<bool>,
    pub owners: Vec<String>,
    pub target: u32,
    pub kuu_alive: Vec<bool>,
    pub mark: Option<(String, u32, String)>,
    pub legal: Vec<Mv>,
}

impl Observed {
    pub fn from_engine(setup: &Setup, legal: Vec<Mv>) -> Observed {
        let (mut starter, mut closed, mut owners, mut target, mut kuu_alive, mut mark) =
            (None, vec![], vec![], 0, vec![], None);
        match &setup.variant {
            VariantSetup::BaoLaKete {
                kuu_alive: k,
                mark: m,
                game_starter,
                ..
            } => {
                kuu_alive = k.clone().into_vec();
                mark = m.map(|(b, p, s)| (letter(b), p, letter(s)));
                starter = *game_starter;
            }
            VariantSetup::Bosh {
                closed: c,
                round_starter,
            } => {
                closed = c.clone().into_vec();
                starter = *round_starter;
            }
            VariantSetup::BaAwa {
                owners: o,
                starter: s,
                target: t,
                ..
            } => {
                owners = o.iter().map(|&p| letter(p)).collect();
                starter = *s;
                target = *t;
            }
            VariantSetup::Missing => {}
        }
        Observed {
            pits: setup.pits.clone().into_vec(),
            stores: setup.stores.clone().into_vec(),
            reserves: setup.reserves.clone().into_vec(),
            to_move: letter(setup.to_move),
            status: snake(&format!("{:?}", setup.status.expect("a status"))),
            winner: letter(setup.winner),
            ply: setup.ply,
            game: setup.game_number,
            match_score: setup.match_score.clone().into_vec(),
            starter: letter(starter),
            closed,
            owners,
            target,
            kuu_alive,
            mark,
            legal,
        }
    }

    pub fn from_wire(state: &pb::GameState, legal: Vec<Mv>) -> Observed {
        use pb::game_state::Variant;
        let p = |i: i32| -> String {
            match pb::Player::try_from(i) {
                Ok(pb::Player::South) => "S".into(),
                Ok(pb::Player::North) => "N".into(),
                Ok(pb::Player::East) => "E".into(),
                _ => "none".into(),
            }
        };
        let starter;
        let (mut closed, mut owners, mut target, mut kuu_alive, mut mark) =
            (vec![], vec![], 0, vec![], None);
        match state.variant.as_ref().expect("a variant") {
            Variant::BaoLaKete(b) => {
                kuu_alive = b.kuu_alive.clone();
                mark = b.mark.map(|m| (p(m.blockee), m.pit, p(m.setter)));
                starter = b.game_starter;
            }
            Variant::Bosh(b) => {
                closed = b.closed.clone();
                starter = b.round_starter;
            }
            Variant::BaAwa(b) => {
                owners = b.owners.iter().map(|&o| p(o)).collect();
                starter = b.starter;
                target = b.target;
            }
            #[allow(unreachable_patterns)]
            other => panic!("not a game of the examples: {other:?}"),
        }
        Observed {
            pits: state.pits.clone(),
            stores: state.stores.clone(),
            reserves: state.reserves.clone(),
            to_move: p(state.to_move),
            status: wire_name(state.status().as_str_name(), "STATUS_"),
            winner: p(state.winner),
            ply: state.ply,
            game: state.game_number,
            match_score: state.match_score.clone(),
            starter: p(starter),
            closed,
            owners,
            target,
            kuu_alive,
            mark,
            legal,
        }
    }
}

/// One event as both front doors can report it; a lap carries its drops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ev {
    Lap {
        origin: u32,
        seeds: u32,
        source: String,
        drops: Vec<u32>,
    },
    Capture {
        pit: u32,
        seeds: u32,
        by: String,
        after_drop: u32,
    },
    NoCapture(u32, u32),
    KuuStop(u32),
    Taxation(u32, u32, bool),
    MarkSet(String, u32, String),
    GameEnd {
        reason: String,
        winner: String,
        collector: String,
        collected: u32,
    },
    RoundEnd {
        reason: String,
        collector: String,
        collected: u32,
        totals: Vec<u32>,
    },
    MatchEnd(String, Vec<u32>),
    Refill {
        player: String,
        opened: Vec<u32>,
        closed: Vec<u32>,
        reserve: u32,
    },
    /// Any other event, by kind.
    Other(String),
}

impl Ev {
    pub fn kind(&self) -> String {
        match self {
            Ev::Lap { .. } => "lap".into(),
            Ev::Capture { .. } => "capture".into(),
            Ev::NoCapture(..) => "no_capture".into(),
            Ev::KuuStop(_) => "kuu_stop".into(),
            Ev::Taxation(..) => "taxation".into(),
            Ev::MarkSet(..) => "mark_set".into(),
            Ev::GameEnd { .. } => "game_end".into(),
            Ev::RoundEnd { .. } => "round_end".into(),
            Ev::MatchEnd(..) => "match_end".into(),
            Ev::Refill { .. } => "refill".into(),
            Ev::Other(kind) => kind.clone(),
        }
    }

    pub fn from_engine(events: &[Event]) -> Vec<Ev> {
        let bits = |set: u16| {
            (0..16)
                .filter(|p| set & (1 << p) != 0)
                .collect::<Vec<u32>>()
        };
        let mut out: Vec<Ev> = Vec::new();
        let mut lap: Option<usize> = None;
        for event in events {
            let ev = match *event {
                Event::Lap {
                    origin,
                    seeds,
                    source,
                    ..
                } => {
                    lap = Some(out.len());
                    Ev::Lap {
                        origin: origin as u32,
                        seeds: seeds as u32,
                        source: match source {
                            LapSource::Pit => "pit",
                            LapSource::Reserve => "reserve",
                            LapSource::Capture => "capture",
                        }
                        .into(),
                        drops: Vec::new(),
                    }
                }
                Event::Drop { pit } => {
                    match lap.map(|i| &mut out[i]) {
                        Some(Ev::Lap { drops, .. }) => drops.push(pit as u32),
                        _ => panic!("a drop outside a lap"),
                    }
                    continue;
                }
                Event::Capture {
                    pit,
                    seeds,
                    beneficiary,
                    ..
                } => Ev::Capture {
                    pit: pit as u32,
                    seeds: seeds as u32,
                    by: letter(Some(beneficiary)),
                    after_drop: match lap.map(|i| &out[i]) {
                        Some(Ev::Lap { drops, .. }) => drops.len() as u32,
                        _ => 0,
                    },
                },
                Event::NoCapture {
                    empty_pit,
                    beyond_pit,
                } => Ev::NoCapture(empty_pit as u32, beyond_pit as u32),
                Event::KuuStop { pit } => Ev::KuuStop(pit as u32),
                Event::Taxation {
                    pit,
                    seeds,
                    six_seed_rule,
                } => Ev::Taxation(pit as u32, seeds as u32, six_seed_rule),
                Event::MarkSet {
                    blockee,
                    pit,
                    setter,
                } => Ev::MarkSet(letter(Some(blockee)), pit as u32, letter(Some(setter))),
                Event::GameEnd {
                    reason,
                    winner,
                    collector,
                    collected,
                    ..
                } => Ev::GameEnd {
                    reason: snake(&format!("{reason:?}")),
                    winner: letter(winner),
                    collector: letter(collector),
                    collected: collected as u32,
                },
                Event::RoundEnd {
                    reason,
                    collector,
                    collected,
                    totals,
                } => Ev::RoundEnd {
                    reason: snake(&format!("{reason:?}")),
                    collector: letter(collector),
                    collected: collected as u32,
                    totals: totals.iter().map(|&t| t as u32).collect(),
                },
                Event::MatchEnd { winner, score, .. } => Ev::MatchEnd(
                    letter(winner),
                    score.as_slice().iter().map(|&s| s as u32).collect(),
                ),
                Event::Refill {
                    player,
                    opened,
                    closed,
                    reserve,
                } => Ev::Refill {
                    player: letter(Some(player)),
                    opened: bits(opened),
                    closed: bits(closed),
                    reserve: reserve as u32,
                },
                other => Ev::Other(snake(
                    format!("{other:?}")
                        .split([' ', '{', '('])
                        .next()
                        .unwrap_or(""),
                )),
            };
            out.push(ev);
        }
        out
    }

    pub fn from_wire(events: &[pb::Event]) -> Vec<Ev> {
        use pb::event::Kind;
        let p = |i: i32| -> String {
            match pb::Player::try_from(i) {
                Ok(pb::Player::South) => "S".into(),
                Ok(pb::Player::North) => "N".into(),
                Ok(pb::Player::East) => "E".into(),
                _ => "none".into(),
            }
        };
        let reason = |r: i32| {
            wire_name(
                pb::EndReason::try_from(r)
                    .expect("an end reason")
                    .as_str_name(),
                "END_REASON_",
            )
        };
        events
            .iter()
            .map(|e| match e.kind.as_ref().expect("an event has a kind") {
                Kind::Lap(l) => Ev::Lap {
                    origin: l.origin,
                    seeds: l.seeds,
                    source: wire_name(l.source().as_str_name(), "LAP_SOURCE_"),
                    drops: l.drops.clone(),
                },
                Kind::Capture(c) => Ev::Capture {
                    pit: c.pit,
                    seeds: c.seeds,
                    by: p(c.beneficiary),
                    after_drop: c.after_drop,
                },
                Kind::NoCapture(n) => Ev::NoCapture(n.empty_pit, n.beyond_pit),
                Kind::KuuStop(k) => Ev::KuuStop(k.pit),
                Kind::Taxation(t) => Ev::Taxation(t.pit, t.seeds, t.six_seed_rule),
                Kind::MarkSet(m) => {
                    let m = m.mark.expect("a mark");
                    Ev::MarkSet(p(m.blockee), m.pit, p(m.setter))
                }
                Kind::GameEnd(g) => Ev::GameEnd {
                    reason: reason(g.reason),
                    winner: p(g.winner),
                    collector: p(g.collector),
                    collected: g.collected,
                },
                Kind::RoundEnd(r) => Ev::RoundEnd {
                    reason: reason(r.reason),
                    collector: p(r.collector),
                    collected: r.collected,
                    totals: r.totals.clone(),
                },
                Kind::MatchEnd(m) => Ev::MatchEnd(p(m.winner), m.match_score.clone()),
                Kind::Refill(r) => Ev::Refill {
                    player: p(r.player),
                    opened: r.opened.clone(),
                    closed: r.closed.clone(),
                    reserve: r.reserve,
                },
                Kind::Pass(_) => Ev::Other("pass".into()),
                Kind::Allocation(_) => Ev::Other("allocation".into()),
                Kind::Elimination(_) => Ev::Other("elimination".into()),
                Kind::KuuDestroyed(_) => Ev::Other("kuu_destroyed".into()),
                Kind::Safari(_) => Ev::Other("safari".into()),
                Kind::MarkCleared(_) => Ev::Other("mark_cleared".into()),
            })
            .collect()
    }
}

// ---- The comparison ----

/// Where a step is, for failure messages: `BK-2 step 3 (S f3 right stop)`.
pub fn place(example: &Example, index: usize, step: &Step) -> String {
    format!(
        "{} step {} ({})",
        example.id,
        index + 1,
        step.mv.as_deref().unwrap_or("no move")
    )
}

impl State {
    /// Compares every field this expectation gives.
    pub fn check(&self, kind: GameKind, got: &Observed, at: &str) {
        let half = got.pits.len() / 2;
        for (i, side) in [&self.south, &self.north].into_iter().enumerate() {
            let Some(side) = side else { continue };
            let pits = &got.pits[i * half..(i + 1) * half];
            let who = ["south", "north"][i];
            match side {
                Side::Row(row) => assert_eq!(pits, &row[..], "{at}: {who}'s row"),
                Side::Bao(b) => {
                    if let Some(f) = b.f {
                        assert_eq!(pits[..8], f, "{at}: {who}'s front row");
                    }
                    if let Some(back) = b.b {
                        assert_eq!(pits[8..], back, "{at}: {who}'s back row");
                    }
                    if let Some(reserve) = b.reserve {
                        assert_eq!(got.reserves[i], reserve, "{at}: {who}'s reserve");
                    }
                    if let Some(k) = &b.kuu {
                        assert_eq!(got.kuu_alive[i], kuu(k), "{at}: {who}'s kuu");
                    }
                }
            }
        }
        let eq = |what: &str, want: Option<String>, have: &str| {
            if let Some(want) = want {
                assert_eq!(have, want, "{at}: {what}");
            }
        };
        eq("to_move", self.to_move.clone(), &got.to_move);
        eq("status", self.status.clone(), &got.status);
        eq("winner", self.winner.clone(), &got.winner);
        eq("starter", self.starter.clone(), &got.starter);
        if let Some(stores) = self.stores {
            assert_eq!(got.stores, stores, "{at}: stores");
        }
        if let Some(reserves) = self.reserves {
            assert_eq!(got.reserves, reserves, "{at}: reserves");
        }
        if let Some(ply) = self.ply {
            assert_eq!(got.ply, ply, "{at}: ply");
        }
        if let Some(game) = self.game {
            assert_eq!(got.game, game, "{at}: game number");
        }
        if let Some(score) = self.match_score {
            assert_eq!(got.match_score, score, "{at}: match score");
        }
        if let Some(closed) = &self.closed {
            let closed = pits(kind, closed);
            let want: Vec<bool> = (0..got.pits.len() as u32)
                .map(|p| closed.contains(&p))
                .collect();
            assert_eq!(got.closed, want, "{at}: closed holes");
        }
        if let Some(owned) = &self.south_owns {
            let mut owned = pits(kind, owned);
            owned.sort_unstable();
            let have: Vec<u32> = (0..got.owners.len() as u32)
                .filter(|&p| got.owners[p as usize] == "S")
                .collect();
            assert_eq!(have, owned, "{at}: the pits South owns");
            assert!(
                got.owners.iter().all(|o| o == "S" || o == "N"),
                "{at}: every pit has an owner"
            );
        }
        if let Some(target) = self.target {
            assert_eq!(got.target, target, "{at}: target");
        }
        match &self.mark {
            None => {}
            Some(MarkSpec::None(word)) => {
                assert_eq!(word, "none", "{at}: a mark is a table or \"none\"");
                assert_eq!(got.mark, None, "{at}: no mark");
            }
            Some(MarkSpec::Mark {
                blockee,
                pit,
                setter,
            }) => assert_eq!(
                got.mark,
                Some((blockee.clone(), pit.index(kind), setter.clone())),
                "{at}: the mark"
            ),
        }
        if let Some(seeds) = self.seeds {
            let total: u32 = got
                .pits
                .iter()
                .chain(&got.stores)
                .chain(&got.reserves)
                .sum();
            assert_eq!(total, seeds, "{at}: every seed");
        }
        if let Some(legal) = &self.legal {
            let want: Vec<Mv> = legal.iter().map(|m| parse_move(kind, m)).collect();
            assert_eq!(got.legal, want, "{at}: the legal moves after");
        }
    }
}

impl Events {
    pub fn check(&self, kind: GameKind, got: &[Ev], at: &str) {
        let kinds: Vec<String> = got.iter().map(Ev::kind).collect();
        if let Some(want) = &self.kinds {
            assert_eq!(&kinds, want, "{at}: the kinds of events");
        }
        if let Some(want) = &self.last {
            assert!(kinds.len() >= want.len(), "{at}: {kinds:?}");
            assert_eq!(
                &kinds[kinds.len() - want.len()..],
                want,
                "{at}: the last events"
            );
        }
        let laps: Vec<(u32, u32, &String, &Vec<u32>)> = got
            .iter()
            .filter_map(|e| match e {
                Ev::Lap {
                    origin,
                    seeds,
                    source,
                    drops,
                } => Some((*origin, *seeds, source, drops)),
                _ => None,
            })
            .collect();
        if let Some(want) = &self.laps {
            let want: Vec<(u32, u32)> = want.iter().map(|(o, s)| (o.index(kind), *s)).collect();
            let have: Vec<(u32, u32)> = laps.iter().map(|l| (l.0, l.1)).collect();
            assert_eq!(have, want, "{at}: laps as (origin, seeds)");
        }
        if let Some(want) = &self.lap_origins {
            let have: Vec<u32> = laps.iter().map(|l| l.0).collect();
            assert_eq!(have, pits(kind, want), "{at}: the laps' origins");
        }
        if let Some(count) = self.lap_count {
            assert_eq!(laps.len(), count, "{at}: the number of laps");
        }
        if let Some(want) = &self.lap_drops {
            for (i, drops) in want {
                assert_eq!(laps[*i].3, &pits(kind, drops), "{at}: the drops of lap {i}");
            }
        }
        if let Some(source) = &self.first_lap_source {
            assert_eq!(laps[0].2, source, "{at}: the first lap's source");
        }
        if let Some(pit) = &self.last_drop {
            let last = laps.iter().rev().find_map(|l| l.3.last()).expect("a drop");
            assert_eq!(*last, pit.index(kind), "{at}: the last drop");
        }
        if let Some(want) = &self.captures {
            let have: Vec<(u32, u32, String, u32)> = got
                .iter()
                .filter_map(|e| match e {
                    Ev::Capture {
                        pit,
                        seeds,
                        by,
                        after_drop,
                    } => Some((*pit, *seeds, by.clone(), *after_drop)),
                    _ => None,
                })
                .collect();
            let have_for = |c: &CaptureSpec, h: &(u32, u32, String, u32)| {
                (h.0, h.1, h.2.clone(), c.after_drop.map(|_| h.3))
            };
            let want_list: Vec<_> = want
                .iter()
                .map(|c| (c.pit.index(kind), c.seeds, c.by.clone(), c.after_drop))
                .collect();
            assert_eq!(have.len(), want.len(), "{at}: captures {have:?}");
            let have_list: Vec<_> = want
                .iter()
                .zip(&have)
                .map(|(c, h)| have_for(c, h))
                .collect();
            assert_eq!(
                have_list, want_list,
                "{at}: captures as (pit, seeds, by, after_drop)"
            );
        }
        let find = |kind: &str| got.iter().find(|e| e.kind() == kind).cloned();
        if let Some((empty, beyond)) = &self.no_capture {
            assert_eq!(
                find("no_capture"),
                Some(Ev::NoCapture(empty.index(kind), beyond.index(kind))),
                "{at}: no capture"
            );
        }
        if let Some(pit) = &self.kuu_stop {
            assert!(got.contains(&Ev::KuuStop(pit.index(kind))), "{at}: {got:?}");
        }
        if let Some(t) = &self.taxation {
            let want = Ev::Taxation(t.pit.index(kind), t.seeds, t.six_seed_rule);
            assert!(got.contains(&want), "{at}: {want:?} in {got:?}");
        }
        if let Some(m) = &self.mark_set {
            let want = Ev::MarkSet(m.blockee.clone(), m.pit.index(kind), m.setter.clone());
            assert!(got.contains(&want), "{at}: {want:?} in {got:?}");
        }
        if let Some(end) = &self.game_end {
            match find("game_end") {
                Some(Ev::GameEnd {
                    reason,
                    winner,
                    collector,
                    collected,
                }) => {
                    assert_eq!(reason, end.reason, "{at}: game end reason");
                    if let Some(w) = &end.winner {
                        assert_eq!(&winner, w, "{at}: game end winner");
                    }
                    if let Some(c) = &end.collector {
                        assert_eq!(&collector, c, "{at}: game end collector");
                    }
                    if let Some(c) = end.collected {
                        assert_eq!(collected, c, "{at}: seeds collected at the game end");
                    }
                }
                other => panic!("{at}: no game end: {other:?} in {got:?}"),
            }
        }
        if let Some(end) = &self.round_end {
            match find("round_end") {
                Some(Ev::RoundEnd {
                    reason,
                    collector,
                    collected,
                    totals,
                }) => {
                    assert_eq!(reason, end.reason, "{at}: round end reason");
                    if let Some(c) = &end.collector {
                        assert_eq!(&collector, c, "{at}: round end collector");
                    }
                    if let Some(c) = end.collected {
                        assert_eq!(collected, c, "{at}: stones collected at the round end");
                    }
                    if let Some(t) = end.totals {
                        assert_eq!(totals, t, "{at}: round totals");
                    }
                }
                other => panic!("{at}: no round end: {other:?} in {got:?}"),
            }
        }
        if let Some(end) = &self.match_end {
            assert_eq!(
                find("match_end"),
                Some(Ev::MatchEnd(end.winner.clone(), end.score.to_vec())),
                "{at}: match end"
            );
        }
        if let Some(want) = &self.refills {
            let want: Vec<Ev> = want
                .iter()
                .map(|r| Ev::Refill {
                    player: r.player.clone(),
                    opened: pits(kind, &r.opened),
                    closed: pits(kind, &r.closed),
                    reserve: r.reserve,
                })
                .collect();
            let have: Vec<Ev> = got
                .iter()
                .filter(|e| e.kind() == "refill")
                .cloned()
                .collect();
            assert_eq!(have, want, "{at}: refills");
        }
    }
}

/// The state a step starts from.
pub fn from_label<'a, T>(states: &'a BTreeMap<String, T>, step: &Step, at: &str) -> &'a T {
    let label = step.from.as_deref().unwrap_or("position");
    states
        .get(label)
        .unwrap_or_else(|| panic!("{at}: no earlier state labelled {label:?}"))
}
