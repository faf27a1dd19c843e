//! The untrusted, wire-shaped state ([`Setup`]) and its validation into engine types: shakmaty's
//! `Setup` → `Position` split. A game's `from_setup` reports every violation at once.

use super::{GameKind, PerSeat, Player, Repeated, StarterRule, Status, RULES_VERSION};
use std::fmt;

/// A game state as a client sent it: nothing here has been checked yet.
///
/// [`AnyGame::from_setup`](super::AnyGame::from_setup) validates it into a game, or reports every violation at
/// once, each with the path of its field; [`AnyGame::to_setup`](super::AnyGame::to_setup) gives a game's state
/// in this shape.
///
/// ```
/// use mancala::engine::{AnyGame, GameKind, Options};
///
/// let game = AnyGame::new_match(GameKind::BaAwa, &Options::default());
/// let mut setup = game.to_setup();
/// assert_eq!(setup.pits, [4; 12]);
/// assert_eq!(AnyGame::from_setup(&setup), Ok(game));
///
/// // Ba-awa has 48 seeds, so no pit holds 60, and its reserves are always empty.
/// setup.pits[3] = 60;
/// setup.reserves = [1, 0].into();
/// let invalid = AnyGame::from_setup(&setup).unwrap_err();
/// let fields: Vec<&str> = invalid.0.iter().map(|v| v.field.as_str()).collect();
/// assert_eq!(fields, ["pits[3]", "pits", "reserves"]);
/// assert_eq!(invalid.0[0].description, "60 seeds is more than the game's 48");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Which game.
    pub kind: GameKind,
    /// The rules version the state claims.
    pub rules_version: u32,
    /// Seeds per pit, in the game's pit order.
    pub pits: Repeated<u32, 32>,
    /// Winnings of the current game or round, one per seat (`[South, North]`, East third in three-player
    /// Ba-awa).
    pub stores: Repeated<u32, 3>,
    /// Seeds held off the board that are not winnings, one per seat.
    pub reserves: Repeated<u32, 3>,
    /// Whose turn it is.
    pub to_move: Option<Player>,
    /// `None` when the client left it unspecified.
    pub status: Option<Status>,
    /// The winner of a finished game or match.
    pub winner: Option<Player>,
    /// Moves made in this game or round.
    pub ply: u32,
    /// 1-based game (or Bosh round) number.
    pub game_number: u32,
    /// The match standing, one per seat.
    pub match_score: Repeated<u32, 3>,
    /// The per-game fields.
    pub variant: VariantSetup,
}

impl Setup {
    /// How many seats the state claims: 3 for three-player Ba-awa, else 2.
    pub fn seats(&self) -> usize {
        match self.variant {
            VariantSetup::BaAwa { players: 3, .. } => 3,
            _ => 2,
        }
    }

    /// Whether every seat the state names outside Ba-awa's owners fits in `seats`: the test a valid state
    /// passes ([`Setup::seat_fields`] names the ones that do not fit).
    fn named_seats_fit(&self, seats: usize) -> bool {
        self.named_seats()
            .iter()
            .all(|(_, player)| player.is_none_or(|p| p.index() < seats))
    }

    /// Every seat the state names outside Ba-awa's owners (which its own check reads), with its field, in the
    /// order their violations are reported.
    fn seat_fields(&self) -> impl Iterator<Item = (&'static str, Player)> {
        self.named_seats()
            .into_iter()
            .filter_map(|(field, player)| Some((field, player?)))
    }

    /// The seat fields outside Ba-awa's owners, each with its path, `None` where the state leaves it unset or its
    /// game has no such field. A fixed array, filled without a check per field: this runs for every state a call
    /// brings.
    fn named_seats(&self) -> [(&'static str, Option<Player>); 5] {
        let mut named = [("", None); 5];
        named[0] = ("to_move", self.to_move);
        named[1] = ("winner", self.winner);
        match &self.variant {
            VariantSetup::BaAwa { starter, .. } => named[2] = ("ba_awa.starter", *starter),
            VariantSetup::Bosh { round_starter, .. } => {
                named[2] = ("bosh.round_starter", *round_starter)
            }
            VariantSetup::BaoLaKete {
                mark, game_starter, ..
            } => {
                named[2] = ("bao_la_kete.game_starter", *game_starter);
                if let Some((blockee, _, setter)) = mark {
                    named[3] = ("bao_la_kete.mark.blockee", *blockee);
                    named[4] = ("bao_la_kete.mark.setter", *setter);
                }
            }
            VariantSetup::Missing => {}
        }
        named
    }
}

impl Setup {
    /// Each list of the state with its length and the longest any state of its game may hold: the board's pits,
    /// one value per seat (three at most, in three-player Ba-awa), and the own lists of the game whose fields the
    /// state carries (one per pit of that game's board, whatever `kind` says). A list beyond its
    /// longest is refused from its length alone ([`Setup::overlong_lists`]).
    fn list_lengths(&self) -> [(&'static str, usize, usize); 7] {
        let seats = if self.kind == GameKind::BaAwa { 3 } else { 2 };
        let mut lists = [("", 0, 0); 7];
        lists[0] = ("pits", self.pits.len(), self.kind.pit_count());
        lists[1] = ("stores", self.stores.len(), seats);
        lists[2] = ("reserves", self.reserves.len(), seats);
        lists[3] = ("match_score", self.match_score.len(), seats);
        match &self.variant {
            VariantSetup::BaAwa {
                owners,
                eliminated_in,
                ..
            } => {
                lists[4] = ("ba_awa.owners", owners.len(), GameKind::BaAwa.pit_count());
                lists[5] = ("ba_awa.eliminated_in_game", eliminated_in.len(), 3);
            }
            VariantSetup::Bosh { closed, .. } => {
                lists[4] = ("bosh.closed", closed.len(), GameKind::Bosh.pit_count());
            }
            VariantSetup::BaoLaKete { kuu_alive, .. } => {
                lists[4] = ("bao_la_kete.kuu_alive", kuu_alive.len(), 2);
            }
            VariantSetup::Missing => {}
        }
        lists
    }

    /// The lists longer than any state of the game holds, one violation each, found from their lengths alone:
    /// none of their values is looked at, so that a state of a million values is refused at the cost of a few
    /// compares rather than a check (and a violation) per value. `None` when every list is short enough (the
    /// game's own checks then say what else is wrong).
    pub(crate) fn overlong_lists(&self) -> Option<InvalidState> {
        let lists = self.list_lengths();
        if lists.iter().all(|&(_, len, max)| len <= max) {
            return None;
        }
        Some(self.report_overlong(&lists))
    }

    #[cold]
    #[inline(never)]
    fn report_overlong(&self, lists: &[(&'static str, usize, usize)]) -> InvalidState {
        let game = self.kind.name();
        InvalidState(
            lists
                .iter()
                .filter(|&&(_, len, max)| len > max)
                .map(|&(field, len, max)| Violation {
                    field: field.into(),
                    description: format!("holds {len} values; a {game} state has at most {max}"),
                })
                .collect(),
        )
    }
}

/// The per-game fields of a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantSetup {
    /// The client sent none.
    Missing,
    /// Ba-awa.
    BaAwa {
        /// Owner of each pit.
        owners: Repeated<Option<Player>, 12>,
        /// Who began the game.
        starter: Option<Player>,
        /// Pits that win the match.
        target: u32,
        /// 3 for three-player Ba-awa (§4.7); 0 or 2 for two players.
        players: u32,
        /// Three-player Ba-awa: the game at whose end each seat went out (0: still in), `[South, North, East]`;
        /// empty for none.
        eliminated_in: Repeated<u32, 3>,
    },
    /// Bosh.
    Bosh {
        /// Whether each hole is closed.
        closed: Repeated<bool, 10>,
        /// Who started the round.
        round_starter: Option<Player>,
    },
    /// Bao la Kete.
    BaoLaKete {
        /// `true` for mtaji, `false` for nemo, `None` when unspecified.
        mtaji: Option<bool>,
        /// `[South, North]`.
        kuu_alive: Repeated<bool, 2>,
        /// The hizi-zetu mark: (blockee, pit, setter).
        mark: Option<(Option<Player>, u32, Option<Player>)>,
        /// Who started the game.
        game_starter: Option<Player>,
        /// Who begins games 2 and 3 (R-2.12).
        starter_rule: StarterRule,
    },
}

/// A game's state in its wire shape as the game holds it: what [`Setup`] says of a valid state, with the counts
/// the game keeps in bytes borrowed as they are. An answer is written straight from it; [`StateView::to_setup`]
/// widens it into a [`Setup`] for everything else, so each game says its wire shape once ([`Game::view`]).
///
/// [`Game::view`]: super::Game::view
#[derive(Clone, Copy, Debug)]
pub struct StateView<'a> {
    /// Which game.
    pub kind: GameKind,
    /// Seeds per pit, in the game's pit order.
    pub pits: &'a [u8],
    /// Winnings of the current game or round, one per seat.
    pub stores: &'a [u8],
    /// Seeds held off the board that are not winnings, one per seat.
    pub reserves: &'a [u8],
    /// Whose turn it is.
    pub to_move: Option<Player>,
    /// Where the game stands.
    pub status: Status,
    /// The winner of a finished game or match.
    pub winner: Option<Player>,
    /// Moves made in this game or round.
    pub ply: u32,
    /// 1-based game (or Bosh round) number.
    pub game_number: u32,
    /// The match standing, one per seat.
    pub match_score: PerSeat,
    /// The per-game fields.
    pub variant: VariantView<'a>,
}

/// The per-game fields of a [`StateView`] (see [`VariantSetup`]).
#[derive(Clone, Copy, Debug)]
pub enum VariantView<'a> {
    /// Ba-awa.
    BaAwa {
        /// Owner of each pit.
        owners: [Player; 12],
        /// Who began the game.
        starter: Player,
        /// Pits that win the match.
        target: u32,
        /// 3 for three-player Ba-awa, 0 for two players.
        players: u32,
        /// Three-player Ba-awa: the game at whose end each seat went out (0: still in); empty for two players.
        eliminated_in: &'a [u32],
    },
    /// Bosh.
    Bosh {
        /// Whether each hole is closed.
        closed: [bool; 10],
        /// Who started the round.
        round_starter: Player,
    },
    /// Bao la Kete.
    BaoLaKete {
        /// `true` for mtaji, `false` for nemo.
        mtaji: bool,
        /// `[South, North]`.
        kuu_alive: [bool; 2],
        /// The hizi-zetu mark: (blockee, pit, setter).
        mark: Option<(Player, u32, Player)>,
        /// Who started the game.
        game_starter: Player,
        /// Who begins games 2 and 3 (R-2.12).
        starter_rule: StarterRule,
    },
}

impl StateView<'_> {
    /// The state as a [`Setup`], its counts widened.
    pub fn to_setup(&self) -> Setup {
        Setup {
            kind: self.kind,
            rules_version: RULES_VERSION,
            pits: Repeated::from_bytes(self.pits, u32::from),
            stores: Repeated::from_bytes(self.stores, u32::from),
            reserves: Repeated::from_bytes(self.reserves, u32::from),
            to_move: self.to_move,
            status: Some(self.status),
            winner: self.winner,
            ply: self.ply,
            game_number: self.game_number,
            match_score: Repeated::from_bytes(self.match_score.as_slice(), u32::from),
            variant: match self.variant {
                VariantView::BaAwa {
                    owners,
                    starter,
                    target,
                    players,
                    eliminated_in,
                } => VariantSetup::BaAwa {
                    owners: owners.map(Some).into(),
                    starter: Some(starter),
                    target,
                    players,
                    eliminated_in: Repeated::from_slice(eliminated_in),
                },
                VariantView::Bosh {
                    closed,
                    round_starter,
                } => VariantSetup::Bosh {
                    closed: closed.into(),
                    round_starter: Some(round_starter),
                },
                VariantView::BaoLaKete {
                    mtaji,
                    kuu_alive,
                    mark,
                    game_starter,
                    starter_rule,
                } => VariantSetup::BaoLaKete {
                    mtaji: Some(mtaji),
                    kuu_alive: kuu_alive.into(),
                    mark: mark.map(|(blockee, pit, setter)| (Some(blockee), pit, Some(setter))),
                    game_starter: Some(game_starter),
                    starter_rule,
                },
            },
        }
    }
}

/// One broken invariant: the field (as a protocol path, "pits[3]") and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The field path, relative to the state message.
    pub field: String,
    /// What is wrong, in a sentence.
    pub description: String,
}

/// Every violation found in a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidState(pub Vec<Violation>);

impl fmt::Display for InvalidState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid state: ")?;
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{}: {}", v.field, v.description)?;
        }
        Ok(())
    }
}

impl std::error::Error for InvalidState {}

/// The steps in which every game validates a [`Setup`], in this order, so that the three games read alike and a
/// new game knows where each check belongs. [`validate`] runs them; each step records what it finds and goes on,
/// so that the client hears of every violation at once.
pub(crate) trait Validate<const N: usize>: Sized {
    /// Seeds (stones) in a game: no count of a valid state exceeds it.
    const SEED_TOTAL: u32;
    /// The game's own fields as read from [`VariantSetup`], each `None` when unusable.
    type OwnFields;

    /// Step 2: what this game allows in the fields every game shares (its stores and reserves, the status
    /// words it uses, how many games or rounds a match has).
    fn check_shared_fields(check: &mut Checker, setup: &Setup);

    /// Step 3: the game's own fields, read and checked one by one. `None` when the state carries no fields of
    /// this game, which leaves nothing more to check.
    fn check_own_fields(check: &mut Checker, setup: &Setup) -> Option<Self::OwnFields>;

    /// Step 4: the game, when every field it is built from is usable (`None` otherwise: what is wrong with those
    /// fields has been reported by the steps before).
    fn assemble(setup: &Setup, pits: [u8; N], own: &Self::OwnFields) -> Option<Self>;

    /// Step 5: the invariants of play that hold between the fields: whose turn it is and whether he can move, or
    /// how a finished game or round ended, and the match standing.
    fn check_position(&self, check: &mut Checker, setup: &Setup, own: &Self::OwnFields);
}

/// Validates `setup` as a game `G` in the steps of [`Validate`], reporting every violation at once.
pub(crate) fn validate<G: Validate<N>, const N: usize>(setup: &Setup) -> Result<G, InvalidState> {
    validate_in::<G, N>(setup, Checker::default()).map(|(game, _)| game)
}

/// [`validate`], leaving out the check that the player to move can move (see [`Checker::require_can_move`]) for
/// a caller who is about to check a move of his: `true` beside the game when it was left out. A state found
/// invalid is validated again in full, so that its violations are exactly [`validate`]'s.
pub(crate) fn validate_before_move<G: Validate<N>, const N: usize>(
    setup: &Setup,
) -> Result<(G, bool), InvalidState> {
    let check = Checker {
        can_move: CanMoveCheck::LeftToTheMove,
        ..Checker::default()
    };
    match validate_in::<G, N>(setup, check) {
        Err(_) => validate::<G, N>(setup).map(|game| (game, false)),
        valid => valid,
    }
}

/// The steps of [`Validate`] with `check`: the game and whether the can-move check was left out.
fn validate_in<G: Validate<N>, const N: usize>(
    setup: &Setup,
    mut check: Checker,
) -> Result<(G, bool), InvalidState> {
    // Step 0: a list longer than the game allows is refused from its length, before any value is read, so that
    // the cost of a refusal follows the board's size, not the request's.
    if let Some(overlong) = setup.overlong_lists() {
        return Err(overlong);
    }
    // Step 1: the shape every game shares (rules version, list lengths, seed bounds and totals, status, to_move
    // and winner together).
    let pits = check.common::<N>(setup, G::SEED_TOTAL);
    G::check_shared_fields(&mut check, setup);
    let Some(own) = G::check_own_fields(&mut check, setup) else {
        return Err(check.into_error());
    };
    let Some(game) = pits.and_then(|pits| G::assemble(setup, pits, &own)) else {
        return Err(check.into_error());
    };
    game.check_position(&mut check, setup, &own);
    let left_out = check.can_move_left_out;
    check.finish(|| (game, left_out))
}

/// Whether a validation checks that the player to move can move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum CanMoveCheck {
    /// It does.
    #[default]
    Made,
    /// It leaves that to the move the caller checks next ([`validate_before_move`]).
    LeftToTheMove,
}

/// Collects violations while a game validates a [`Setup`].
#[derive(Default)]
pub(crate) struct Checker {
    violations: Vec<Violation>,
    can_move: CanMoveCheck,
    /// The can-move check was reached and left out.
    can_move_left_out: bool,
}

impl Checker {
    /// Records a violation. Cold and out of line: a valid state never gets here, so every `require` that calls it
    /// stays a compare and a branch where it is inlined.
    #[cold]
    #[inline(never)]
    pub(crate) fn fail(&mut self, field: impl Into<String>, description: impl Into<String>) {
        self.violations.push(Violation {
            field: field.into(),
            description: description.into(),
        });
    }

    /// Records a violation unless `ok`.
    pub(crate) fn require(&mut self, ok: bool, field: &str, description: impl FnOnce() -> String) {
        if !ok {
            self.fail(field, description());
        }
    }

    /// [`Checker::require`] for a field whose path is built only when it is wrong (a list element), so that a
    /// valid state formats nothing.
    pub(crate) fn require_at(
        &mut self,
        ok: bool,
        field: impl FnOnce() -> String,
        description: impl FnOnce() -> String,
    ) {
        if !ok {
            self.fail(field(), description());
        }
    }

    /// Records a violation unless the player to move `can_move` (§1: a player whose every move would never end
    /// cannot move either). Of a state's checks this is the costly one: it plays his moves until one ends. A
    /// caller about to check one of his moves ([`validate_before_move`]) has it left out, since a legal move
    /// answers it; only if that move is illegal must the state be checked in full.
    pub(crate) fn require_can_move(
        &mut self,
        can_move: impl FnOnce() -> bool,
        field: &str,
        description: impl FnOnce() -> String,
    ) {
        match self.can_move {
            CanMoveCheck::Made => self.require(can_move(), field, description),
            CanMoveCheck::LeftToTheMove => self.can_move_left_out = true,
        }
    }

    /// Whether nothing has failed so far.
    pub(crate) fn is_clean(&self) -> bool {
        self.violations.is_empty()
    }

    /// Every violation found so far, for a check that cannot go on.
    pub(crate) fn into_error(self) -> InvalidState {
        InvalidState(self.violations)
    }

    /// `Ok(value)` when nothing failed, else every violation.
    pub(crate) fn finish<T>(self, value: impl FnOnce() -> T) -> Result<T, InvalidState> {
        if self.violations.is_empty() {
            Ok(value())
        } else {
            Err(InvalidState(self.violations))
        }
    }

    /// Checks the fields every game shares: rules version, list lengths, seed bounds, status/to_move/winner
    /// consistency, counters. Returns the pits as `u8` when each fits (`None` when the list is unusable), so
    /// that the game can go on checking its own invariants and report every violation at once.
    pub(crate) fn common<const N: usize>(
        &mut self,
        setup: &Setup,
        seed_total: u32,
    ) -> Option<[u8; N]> {
        self.require(
            setup.rules_version == super::RULES_VERSION,
            "rules_version",
            || {
                format!(
                    "rules version {} is not supported; this server plays version {}",
                    setup.rules_version,
                    super::RULES_VERSION
                )
            },
        );
        let seats = setup.seats();
        self.per_seat(&setup.stores, "stores", seats, seed_total);
        self.per_seat(&setup.reserves, "reserves", seats, seed_total);
        self.per_seat(&setup.match_score, "match_score", seats, u32::MAX);
        // A seat the game does not have must not reach a game's `[South, North]` arrays: it stops the check
        // before the game is assembled, like pits that do not fit.
        let seats_fit = setup.named_seats_fit(seats);
        if !seats_fit {
            self.report_unseated(setup, seats);
        }
        self.require(setup.game_number >= 1, "game_number", || {
            "the first game or round is number 1".into()
        });
        match setup.status {
            None => self.fail("status", "status must be set"),
            Some(Status::InProgress) => {
                self.require(setup.to_move.is_some(), "to_move", || {
                    "a game in progress has a player to move".into()
                });
                self.require(setup.winner.is_none(), "winner", || {
                    "a game in progress has no winner yet".into()
                });
            }
            Some(_) => self.require(setup.to_move.is_none(), "to_move", || {
                "a finished game or round has no player to move".into()
            }),
        }
        let Ok(counts) = <&[u32; N]>::try_from(&setup.pits[..]) else {
            self.fail(
                "pits",
                format!(
                    "{} has {N} pits, not {}",
                    setup.kind.name(),
                    setup.pits.len()
                ),
            );
            return None;
        };
        // Over the whole board at once, without a branch per pit: a valid state has no pit to report.
        let pits_fit = all_at_most(counts, seed_total);
        if !pits_fit {
            self.report_overfull_pits(counts, seed_total);
        }
        let on_board: u32 = counts.iter().map(|&s| s.min(seed_total)).sum();
        let off_board: u32 = [&setup.stores, &setup.reserves]
            .map(|seeds| seeds.iter().map(|&s| s.min(seed_total)).sum::<u32>())
            .iter()
            .sum();
        let total_fits = on_board + off_board <= seed_total;
        self.require(total_fits, "pits", || {
            format!(
                "{on_board} seeds on the board and {off_board} in stores and reserves exceed the game's {seed_total}"
            )
        });
        // Past this point games add seeds up in `u8`; a state over the total must not reach that arithmetic.
        (pits_fit && total_fits && seats_fit).then(|| counts.map(|seeds| seeds as u8))
    }

    /// Reports each seat named outside Ba-awa's owners that the game does not have, in field order.
    #[cold]
    #[inline(never)]
    fn report_unseated(&mut self, setup: &Setup, seats: usize) {
        for (field, player) in setup.seat_fields() {
            if player.index() >= seats {
                self.fail(
                    field,
                    "East plays only in three-player Ba-awa (ba_awa.players = 3)",
                );
            }
        }
    }

    /// Reports each pit holding more seeds than the game has, in pit order.
    #[cold]
    #[inline(never)]
    fn report_overfull_pits(&mut self, counts: &[u32], seed_total: u32) {
        for (i, &seeds) in counts.iter().enumerate() {
            if seeds > seed_total {
                self.fail(
                    format!("pits[{i}]"),
                    format!("{seeds} seeds is more than the game's {seed_total}"),
                );
            }
        }
    }

    /// Checks a per-seat list: `[South, North]`, or `[South, North, East]` with three seats. A list of the
    /// right length within bounds is all a valid state brings, so that is tested first, without a branch per
    /// value; [`Checker::report_per_seat`] says what is wrong with any other.
    #[inline]
    fn per_seat(&mut self, values: &[u32], field: &str, seats: usize, max: u32) {
        if values.len() != seats || !all_at_most(values, max) {
            self.report_per_seat(values, field, seats, max);
        }
    }

    /// The violations of a per-seat list [`Checker::per_seat`] found wrong: its length, else each value over
    /// `max`.
    #[cold]
    #[inline(never)]
    fn report_per_seat(&mut self, values: &[u32], field: &str, seats: usize, max: u32) {
        if values.len() != seats {
            let order = if seats == 3 {
                "[South, North, East]"
            } else {
                "[South, North]"
            };
            self.fail(
                field,
                format!("holds one value per player {order}, not {}", values.len()),
            );
            return;
        }
        for (i, &v) in values.iter().enumerate() {
            if v > max {
                self.fail(
                    format!("{field}[{i}]"),
                    format!("{v} is more than the game's {max} seeds"),
                );
            }
        }
    }
}

/// Whether no value is over `max`, tested over the whole list without a branch per value: a valid state's lists
/// always pass, and the checks that fail say which values did not.
fn all_at_most(values: &[u32], max: u32) -> bool {
    values.iter().fold(true, |ok, &v| ok & (v <= max))
}

/// The `[South, North]` pair of a validated list (callers check the length first).
pub(crate) fn pair_u8(values: &[u32]) -> [u8; 2] {
    [
        values.first().copied().unwrap_or(0) as u8,
        values.get(1).copied().unwrap_or(0) as u8,
    ]
}

#[cfg(test)]
mod tests {
    use super::super::{AnyGame, GameKind, Move, Options, PitSet, Rng, Sow};

    /// The state variants a position gives: itself, and its board's seeds dealt out again at random (the same
    /// total, so that the seed checks still pass), which often leaves the player to move without a move.
    fn variants(game: &AnyGame, rng: &mut Rng) -> [super::Setup; 2] {
        let setup = game.to_setup();
        let mut dealt = setup.clone();
        let total: u32 = dealt.pits.iter().sum();
        dealt.pits.iter_mut().for_each(|p| *p = 0);
        for _ in 0..total {
            let pit = rng.below(dealt.pits.len());
            dealt.pits[pit] += 1;
        }
        [setup, dealt]
    }

    /// A check or a play of a move on a state validated with the can-move check left to the move
    /// (`AnyGame::from_setup_then`) answers exactly what the full validation and then the move answer: the same
    /// violations for an invalid state (the can-move one included), the same verdict, game and events otherwise;
    /// and a check that stops once the move is known legal (`LegalityOnly`) gives the verdict of a whole play.
    #[test]
    fn leaving_the_can_move_check_to_the_move_answers_as_the_full_validation() {
        let mut rng = Rng::new(18);
        // Legal moves, illegal ones, states refused for their can-move check alone, states refused otherwise.
        let mut tally = [0usize; 4];
        for kind in GameKind::ALL {
            for three in [false, true] {
                if three && kind != GameKind::BaAwa {
                    continue;
                }
                let options = Options {
                    ba_awa_players: if three { 3 } else { 2 },
                    ..Options::default()
                };
                for _ in 0..40 {
                    let mut game = AnyGame::new_match(kind, &options);
                    for _ in 0..300 {
                        let legal = game.legal_moves();
                        if legal.is_empty() {
                            break;
                        }
                        for setup in variants(&game, &mut rng) {
                            let mut tries: Vec<Move> = legal.iter().copied().collect();
                            tries.push(Move::Sow(Sow::from(rng.below(kind.pit_count()) as u8)));
                            tries.push(Move::NextGame(PitSet::EMPTY));
                            for mv in &tries {
                                compare(&setup, mv, &mut tally);
                            }
                        }
                        let mv = legal[rng.below(legal.len())];
                        game.play(&mv, &mut super::super::NoTrace)
                            .expect("a listed move is legal");
                    }
                }
            }
        }
        // Every case met, and often.
        assert!(tally.iter().all(|&n| n > 500), "{tally:?}");
    }

    /// Issue 34: a list longer than the game allows is refused from its length, its values unread, one violation
    /// per such list and nothing else; a list within the bound is checked value by value as before.
    #[test]
    fn lists_longer_than_the_game_allows_are_refused_from_their_length() {
        use super::{Repeated, VariantSetup};
        let long = 100_000;
        let mut setup = AnyGame::new_match(GameKind::BaAwa, &Options::default()).to_setup();
        setup.stores = Repeated::from_slice(&vec![7; long]);
        setup.reserves = Repeated::from_slice(&[7; 4]);
        if let VariantSetup::BaAwa { owners, .. } = &mut setup.variant {
            *owners = Repeated::from_slice(&vec![None; long]);
        }
        // Wrong in other ways too (not its turn's status), which is not looked at while a list is too long.
        setup.status = None;
        let invalid = AnyGame::from_setup(&setup).expect_err("refused");
        let found: Vec<(&str, &str)> = invalid
            .0
            .iter()
            .map(|v| (v.field.as_str(), v.description.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "stores",
                    "holds 100000 values; a Ba-awa state has at most 3"
                ),
                ("reserves", "holds 4 values; a Ba-awa state has at most 3"),
                (
                    "ba_awa.owners",
                    "holds 100000 values; a Ba-awa state has at most 12"
                ),
            ]
        );
        // The same through the check before a move.
        let checked = AnyGame::from_setup_then(&setup, |game| game.check(&Move::Sow(Sow::from(0))));
        assert_eq!(checked.err(), Some(invalid));

        // Within the bound, the lists' own checks speak (a two-player Ba-awa state with three stores).
        let mut setup = AnyGame::new_match(GameKind::BaAwa, &Options::default()).to_setup();
        setup.stores = Repeated::from_slice(&[0, 0, 0]);
        let invalid = AnyGame::from_setup(&setup).expect_err("refused");
        assert_eq!(invalid.0[0].field, "stores");
        assert!(
            invalid.0[0]
                .description
                .starts_with("holds one value per player"),
            "{invalid}"
        );
    }

    fn compare(setup: &super::Setup, mv: &Move, tally: &mut [usize; 4]) {
        let full = AnyGame::from_setup(setup);
        let checked = AnyGame::from_setup_then(setup, |game| game.check(mv));
        let mut events = Vec::new();
        let played = AnyGame::from_setup_then(setup, |game| game.play(mv, &mut events));
        match full {
            Err(invalid) => {
                assert_eq!(checked.as_ref().err(), Some(&invalid), "{setup:?} {mv:?}");
                assert_eq!(played.err(), Some(invalid.clone()), "{setup:?} {mv:?}");
                let can_move_only = invalid.0.len() == 1 && invalid.0[0].field == "to_move";
                tally[if can_move_only { 2 } else { 3 }] += 1;
            }
            Ok(game) => {
                let mut after = game.clone();
                let mut full_events = Vec::new();
                let whole = after.play(mv, &mut full_events);
                assert_eq!(game.check(mv), whole, "{setup:?} {mv:?}");
                let (checked_game, verdict) = checked.expect("valid");
                assert_eq!((checked_game, verdict), (game.clone(), whole));
                let (played_game, play) = played.expect("valid");
                assert_eq!(play, whole);
                assert_eq!(played_game, if whole.is_ok() { after } else { game });
                assert_eq!(events, full_events);
                tally[if whole.is_ok() { 0 } else { 1 }] += 1;
            }
        }
    }
}
