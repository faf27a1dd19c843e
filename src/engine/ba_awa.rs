//! Ba-awa (Twi, Ghana): docs/ba-awa.md §4. Two rows of six, relay sowing, fours captured as they are made, and
//! pit ownership carried from game to game.
//!
//! Pits 0–5 are South's S1–S6 and 6–11 North's N1–N6; `0 → 1 → … → 11 → 0` is anticlockwise (§4.1).

use super::cycle::LoopGuard;
use super::event::{EndReason, Event, LapSource, Trace};
use super::illegal::check_between_games;
use super::setup::{pair_u8, validate, Checker, InvalidState, Setup, Validate, VariantSetup};
use super::sow::{sow_lap, Ring};
use super::work;
use super::{
    Game, GameKind, IllegalMove, Move, MoveList, Options, PitSet, Player, Reason, Sow, Status,
};

/// Pits on the board.
pub(crate) const PITS: usize = 12;
/// Seeds in a game (§4.1).
pub(crate) const SEEDS: u8 = 48;
/// Pits that win a match by default.
pub(crate) const DEFAULT_TARGET: u8 = 10;
/// A game ends when at most this many seeds are left after a move (§4.3, R-4.2).
const LAST_SEEDS: u8 = 8;
/// A pit made to hold exactly this many is captured (§4.2).
const FOUR: u8 = 4;
/// South's row S1–S6 and North's row N1–N6, as pit bit masks.
const SOUTH_ROW: u16 = 0x03F;
const NORTH_ROW: u16 = 0xFC0;
const ALL_PITS: u16 = SOUTH_ROW | NORTH_ROW;
/// Every lap goes anticlockwise round all twelve pits, the origin included.
const RING: Ring<PITS> = Ring::anticlockwise();

const _: () = assert!(SEEDS as usize <= u8::MAX as usize, "pit counts are u8");

/// A Ba-awa game and the match it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaAwa {
    pits: [u8; PITS],
    /// Bit i set: North owns pit i (§4.1 "ownership").
    north_owned: u16,
    /// Fours won in this game, `[South, North]`.
    stores: [u8; 2],
    to_move: Option<Player>,
    status: Status,
    winner: Option<Player>,
    /// The player who began this game; he takes the last seeds (§4.3).
    starter: Player,
    /// Pits that win the match.
    target: u8,
    ply: u32,
    game_number: u32,
}

/// The sowing would never end (§1).
struct NeverEnds;

impl BaAwa {
    /// The owner of `pit`.
    pub fn owner(&self, pit: usize) -> Player {
        if self.north_owned >> pit & 1 == 1 {
            Player::North
        } else {
            Player::South
        }
    }

    /// Seeds in each pit.
    pub fn pits(&self) -> &[u8; PITS] {
        &self.pits
    }

    /// Fours won in this game, `[South, North]`.
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }

    fn owned_by(&self, player: Player) -> u16 {
        match player {
            Player::North => self.north_owned,
            Player::South => ALL_PITS & !self.north_owned,
        }
    }

    fn seeds_on_board(&self) -> u8 {
        self.pits.iter().sum()
    }

    /// The match standing: pits owned while a game is played, pits won (fours ÷ 4) once it is over.
    fn match_score(&self) -> [u8; 2] {
        match self.status {
            Status::InProgress => {
                let north = self.north_owned.count_ones() as u8;
                [PITS as u8 - north, north]
            }
            _ => [self.stores[0] / FOUR, self.stores[1] / FOUR],
        }
    }

    /// §4.2: lift the pit and sow; a non-final seed that makes a four gives it to the pit's owner at once, a
    /// final seed that makes a four gives it to the mover and ends the move, a final seed in an empty pit ends
    /// the move, and any other final seed relays: its pit is lifted and sown from the next pit.
    fn sow_with_relays<T: Trace>(
        &mut self,
        pit: u8,
        mover: Player,
        trace: &mut T,
    ) -> Result<(), NeverEnds> {
        let mut origin = pit;
        let mut guard: Option<LoopGuard<([u8; PITS], u8)>> = None;
        // Most moves end within a few laps; only a long one is metered (`work`).
        const LAPS_BEFORE_PAYING: u32 = 16;
        let mut laps = 0u32;
        loop {
            let hand = self.pits[origin as usize];
            self.pits[origin as usize] = 0;
            trace.record(Event::Lap {
                player: mover,
                origin,
                seeds: hand,
                source: LapSource::Pit,
            });
            let north_owned = self.north_owned;
            let stores = &mut self.stores;
            let last = sow_lap(
                &mut self.pits,
                &RING,
                origin,
                hand,
                trace,
                |pits, pos, in_hand, trace| {
                    if in_hand > 0 && pits[pos as usize] == FOUR {
                        let owner = if north_owned >> pos & 1 == 1 {
                            Player::North
                        } else {
                            Player::South
                        };
                        capture_four(pits, stores, pos, owner, trace);
                    }
                },
            );
            match self.pits[last as usize] {
                FOUR => {
                    capture_four(&mut self.pits, &mut self.stores, last, mover, trace);
                    return Ok(());
                }
                1 => return Ok(()),
                _ => {}
            }
            // A relay from the same board and pit as before repeats the same laps for ever.
            let configuration = (self.pits, last);
            match guard.as_mut() {
                None => guard = Some(LoopGuard::new(configuration)),
                Some(guard) => {
                    if guard.repeats(configuration) {
                        return Err(NeverEnds);
                    }
                    // A long move pays for its laps; out of budget it gives up (the answer is thrown away).
                    laps += 1;
                    if laps >= LAPS_BEFORE_PAYING && !work::spend(1) {
                        return Err(NeverEnds);
                    }
                }
            }
            origin = last;
        }
    }

    /// Whether `player` has a sowing that ends (§4.2 legal moves).
    fn can_move(&self, player: Player) -> bool {
        let owned = self.owned_by(player);
        (0..PITS as u8).any(|pit| {
            owned >> pit & 1 == 1
                && self.pits[pit as usize] > 0
                && self
                    .clone()
                    .sow_with_relays(pit, player, &mut super::NoTrace)
                    .is_ok()
        })
    }

    /// After a move: the game ends with ≤ 8 seeds left (§4.3, R-4.2); otherwise the opponent moves, or passes
    /// when he cannot, and when neither can the game ends too (§4.3).
    fn finish_move<T: Trace>(&mut self, mover: Player, trace: &mut T) {
        if self.seeds_on_board() <= LAST_SEEDS {
            self.end_game(EndReason::FewSeedsLeft, trace);
            return;
        }
        let opponent = mover.opponent();
        if self.can_move(opponent) {
            self.to_move = Some(opponent);
            return;
        }
        trace.record(Event::Pass { player: opponent });
        if self.can_move(mover) {
            self.to_move = Some(mover);
        } else {
            self.end_game(EndReason::BothStuck, trace);
        }
    }

    /// §4.3: the starter takes every seed left; then §4.4 step 2 decides whether the match is over.
    fn end_game<T: Trace>(&mut self, reason: EndReason, trace: &mut T) {
        let collected = self.seeds_on_board();
        self.pits = [0; PITS];
        self.stores[self.starter.index()] += collected;
        self.to_move = None;
        let (status, winner) = outcome_of_game(self.stores, self.target);
        self.status = status;
        self.winner = winner;
        trace.record(Event::GameEnd {
            reason,
            winner: game_winner(self.stores),
            collector: Some(self.starter),
            collected,
            stores: self.stores,
        });
        if status == Status::MatchOver {
            trace.record(Event::MatchEnd {
                winner,
                score: self.match_score(),
            });
        }
    }

    /// §4.4: ownership from the fours won (the player with more than six keeps his row and takes the rest from
    /// the opponent's row, by default from its left end anticlockwise), 4 seeds in every pit, and the other
    /// player starts.
    fn start_next_game<T: Trace>(
        &mut self,
        choice: PitSet,
        trace: &mut T,
    ) -> Result<(), IllegalMove> {
        check_between_games(
            self.status,
            "the game is still being played; the next game starts when it is over",
        )?;
        self.north_owned = allocate_pits(self.stores, choice)?;
        self.pits = [FOUR; PITS];
        self.stores = [0, 0];
        self.starter = self.starter.opponent();
        self.to_move = Some(self.starter);
        self.status = Status::InProgress;
        self.winner = None;
        self.ply = 0;
        // A client's state may claim any game number; the count stops at the top rather than overflowing.
        self.game_number = self.game_number.saturating_add(1);
        trace.record(Event::Allocation {
            north_owned: self.north_owned,
            pits_owned: self.match_score(),
            starter: self.starter,
        });
        Ok(())
    }

    fn play_sow<T: Trace>(&mut self, sow: Sow, trace: &mut T) -> Result<(), IllegalMove> {
        let mover = match (self.status, self.to_move) {
            (Status::InProgress, Some(mover)) => mover,
            (Status::MatchOver, _) => {
                return Err(IllegalMove::new(Reason::MatchOver, "the match is over"))
            }
            _ => {
                return Err(IllegalMove::new(
                    Reason::GameOver,
                    "the game is over; play NextGame to start the next one",
                ))
            }
        };
        let pit = sow.pit;
        if sow.has_choices() {
            return Err(IllegalMove::at(
                Reason::ChoiceNotOffered,
                pit,
                "Ba-awa always sows anticlockwise and has no kichwa or kuu; leave those choices unspecified",
            ));
        }
        if pit as usize >= PITS {
            return Err(IllegalMove::at(
                Reason::NoSuchPit,
                pit,
                "Ba-awa has pits 0 to 11",
            ));
        }
        if self.owner(pit as usize) != mover {
            return Err(IllegalMove::at(
                Reason::NotYourPit,
                pit,
                "the pit is owned by the other player; a player moves only from pits he owns (§4.1)",
            ));
        }
        if self.pits[pit as usize] == 0 {
            return Err(IllegalMove::at(Reason::PitEmpty, pit, "the pit is empty"));
        }
        let mut next = self.clone();
        let mark = trace.mark();
        if next.sow_with_relays(pit, mover, trace).is_err() {
            trace.rollback(mark);
            return Err(IllegalMove::at(
                Reason::NeverEndingMove,
                pit,
                "sowing from this pit would never end, so the move is illegal (§1, R-4.7)",
            ));
        }
        // A client's state may claim any ply; the count stops at the top rather than overflowing.
        next.ply = next.ply.saturating_add(1);
        next.finish_move(mover, trace);
        *self = next;
        Ok(())
    }
}

/// Takes the four in `pit` for `beneficiary` (§4.2).
fn capture_four<T: Trace>(
    pits: &mut [u8; PITS],
    stores: &mut [u8; 2],
    pit: u8,
    beneficiary: Player,
    trace: &mut T,
) {
    pits[pit as usize] = 0;
    stores[beneficiary.index()] += FOUR;
    trace.record(Event::Capture {
        pit,
        seeds: FOUR,
        beneficiary,
        kichwa: None,
        direction: None,
    });
}

/// The player with more winnings, `None` for equal winnings.
fn game_winner(stores: [u8; 2]) -> Option<Player> {
    match stores[0].cmp(&stores[1]) {
        std::cmp::Ordering::Greater => Some(Player::South),
        std::cmp::Ordering::Less => Some(Player::North),
        std::cmp::Ordering::Equal => None,
    }
}

/// §4.4 step 2: where the match stands after a game with these final winnings. A match needs all 48 seeds to
/// share out pits; a custom position with fewer ends the match with its one game.
fn outcome_of_game(stores: [u8; 2], target: u8) -> (Status, Option<Player>) {
    if stores[0] as u16 + stores[1] as u16 != SEEDS as u16 {
        return (Status::MatchOver, game_winner(stores));
    }
    let pits_won = [stores[0] / FOUR, stores[1] / FOUR];
    for player in Player::BOTH {
        let (mine, theirs) = (
            pits_won[player.index()],
            pits_won[player.opponent().index()],
        );
        if mine >= target || theirs == 0 {
            return (Status::MatchOver, Some(player));
        }
    }
    (Status::GameOver, game_winner(stores))
}

/// §4.4 step 3: North's pits for the next game, from the final winnings and the surplus player's
/// optional choice of the opponent's pits.
fn allocate_pits(stores: [u8; 2], choice: PitSet) -> Result<u16, IllegalMove> {
    let pits_won = [stores[0] / FOUR, stores[1] / FOUR];
    let Some(surplus) = Player::BOTH.into_iter().find(|p| pits_won[p.index()] > 6) else {
        if !choice.is_empty() {
            return Err(IllegalMove::new(
                Reason::InvalidChoice,
                "each player won six pits and keeps his own row, so there are no pits to choose",
            ));
        }
        return Ok(NORTH_ROW);
    };
    let extra = (pits_won[surplus.index()] - 6) as u32;
    let opponent_row = match surplus {
        Player::South => NORTH_ROW,
        Player::North => SOUTH_ROW,
    };
    let taken = if choice.is_empty() {
        // The opponent's pits nearest in sowing order, from his leftmost pit anticlockwise.
        let first = opponent_row.trailing_zeros();
        (((1u32 << extra) - 1) << first) as u16
    } else {
        if choice.0 & !(opponent_row as u32) != 0 {
            return Err(IllegalMove::new(
                Reason::InvalidChoice,
                "the pits taken must all be in the opponent's row (§4.4)",
            ));
        }
        if choice.len() != extra {
            return Err(IllegalMove::new(
                Reason::InvalidChoice,
                "the number of pits taken must be the pits won beyond six (§4.4)",
            ));
        }
        choice.0 as u16
    };
    Ok(match surplus {
        Player::South => NORTH_ROW & !taken,
        Player::North => NORTH_ROW | taken,
    })
}

/// Ba-awa's own fields of a [`Setup`], as read by [`Validate::check_own_fields`].
pub(crate) struct OwnFields {
    /// North's pits, when every pit has an owner.
    north_owned: Option<u16>,
    starter: Option<Player>,
    target: u32,
}

impl Validate<PITS> for BaAwa {
    const SEED_TOTAL: u32 = SEEDS as u32;
    type OwnFields = OwnFields;

    /// §4.2, §4.3: Ba-awa has no reserves, its winnings are fours, and it is played in games, not rounds.
    fn check_shared_fields(check: &mut Checker, setup: &Setup) {
        if setup.reserves.iter().any(|&r| r != 0) {
            check.fail("reserves", "Ba-awa has no reserves; both must be 0");
        }
        // Winnings are fours (§4.2), except that at the end of a game the starter also takes the seeds left on
        // the board (§4.3): with all 48 seeds those are a multiple of 4 too, in a custom position with fewer
        // they need not be.
        let finished = matches!(setup.status, Some(status) if status != Status::InProgress);
        let starter = match &setup.variant {
            VariantSetup::BaAwa { starter, .. } => starter.map(Player::index),
            _ => None,
        };
        for (i, &store) in setup.stores.iter().enumerate() {
            check.require_at(
                store % FOUR as u32 == 0 || (finished && starter == Some(i)),
                || format!("stores[{i}]"),
                || format!("{store} is not a multiple of 4; Ba-awa's winnings are fours (§4.2)"),
            );
        }
        check.require(setup.status != Some(Status::RoundOver), "status", || {
            "Ba-awa has games, not rounds; use GAME_OVER".into()
        });
    }

    /// §4.1, §4.4, R-4.10: the owner of every pit, the game's starter and the match target.
    fn check_own_fields(check: &mut Checker, setup: &Setup) -> Option<OwnFields> {
        let VariantSetup::BaAwa {
            owners,
            starter,
            target,
        } = &setup.variant
        else {
            check.fail(
                "ba_awa",
                "a Ba-awa state carries the ba_awa fields (owners, starter, target)",
            );
            return None;
        };
        let north_owned = check_owners(check, owners);
        check.require(starter.is_some(), "ba_awa.starter", || {
            "the player who began the game must be set".into()
        });
        check.require((10..=12).contains(target), "ba_awa.target", || {
            format!("the match target is 10, 11 or 12 pits, not {target}")
        });
        Some(OwnFields {
            north_owned,
            starter: *starter,
            target: *target,
        })
    }

    fn assemble(setup: &Setup, pits: [u8; PITS], own: &OwnFields) -> Option<BaAwa> {
        let (Some(status), Some(starter), Some(north_owned)) =
            (setup.status, own.starter, own.north_owned)
        else {
            return None;
        };
        Some(BaAwa {
            pits,
            north_owned,
            stores: pair_u8(&setup.stores),
            to_move: setup.to_move,
            status,
            winner: setup.winner,
            starter,
            target: own.target as u8,
            ply: setup.ply,
            game_number: setup.game_number,
        })
    }

    /// §4.3, §4.4: a game in play or a game that is over, then the match score either way.
    fn check_position(&self, check: &mut Checker, setup: &Setup, _: &OwnFields) {
        match self.status {
            Status::InProgress => self.check_turn(check),
            _ => self.check_game_end(check),
        }
        self.check_match_score(check, &setup.match_score);
    }
}

/// §4.1, §4.4 step 3: every pit has an owner, and the player with more pits keeps his whole row. Returns North's
/// pits when every pit is owned.
fn check_owners(check: &mut Checker, owners: &[Option<Player>]) -> Option<u16> {
    if owners.len() != PITS {
        check.fail(
            "ba_awa.owners",
            format!("one owner per pit: 12, not {}", owners.len()),
        );
        return None;
    }
    let mut north_owned = 0u16;
    for (pit, owner) in owners.iter().enumerate() {
        match owner {
            None => check.fail(
                format!("ba_awa.owners[{pit}]"),
                "every pit is owned by South or North",
            ),
            Some(Player::North) => north_owned |= 1 << pit,
            Some(Player::South) => {}
        }
    }
    check.require(north_owned & SOUTH_ROW == 0 || north_owned & NORTH_ROW == NORTH_ROW, "ba_awa.owners", || {
        "the player with more pits keeps his whole row and the other owns pits of his own row only (§4.4)".into()
    });
    owners.iter().all(Option::is_some).then_some(north_owned)
}

impl BaAwa {
    /// §4.1, §4.3, §4.4 step 2, R-4.6: a game in play has more than 8 seeds on the board and no owner of a
    /// winning number of pits; game 1 keeps the rows; its starter moves first, and the player to move can move.
    fn check_turn(&self, check: &mut Checker) {
        check.require(self.seeds_on_board() > LAST_SEEDS, "pits", || {
            "with 8 or fewer seeds on the board the game is over (§4.3)".into()
        });
        let owned = self.match_score();
        for player in Player::BOTH {
            let pits = owned[player.index()];
            check.require(pits > 0 && pits < self.target, "ba_awa.owners", || {
                format!(
                    "{player} owns {pits} pits: with a target of {} the match would be over (§4.4 step 2)",
                    self.target
                )
            });
        }
        check.require(
            self.game_number > 1 || self.north_owned == NORTH_ROW,
            "ba_awa.owners",
            || "in game 1 each player owns his own row (§4.1)".into(),
        );
        check.require(
            self.ply > 0 || self.to_move == Some(self.starter),
            "to_move",
            || "before the first move of a game its starter is to move".into(),
        );
        if let Some(mover) = self.to_move {
            check.require(self.can_move(mover), "to_move", || {
                format!("{mover} has no legal move, so he would have passed (R-4.6)")
            });
        }
    }

    /// §4.3, §4.4 step 2: a finished game has an empty board, and its status and winner follow from the winnings.
    fn check_game_end(&self, check: &mut Checker) {
        check.require(self.seeds_on_board() == 0, "pits", || {
            "at the end of a game the starter has taken every seed left (§4.3)".into()
        });
        let (status, winner) = outcome_of_game(self.stores, self.target);
        check.require(status == self.status, "status", || {
            format!("with these winnings the status is {status:?}")
        });
        check.require(winner == self.winner, "winner", || match winner {
            Some(p) => format!("with these winnings the winner is {p}"),
            None => "with equal winnings there is no winner".into(),
        });
    }

    /// §4.4 step 1: the match score is the pits owned while a game is played, the pits won once it is over.
    fn check_match_score(&self, check: &mut Checker, claimed: &[u32]) {
        let score = self.match_score();
        check.require(
            claimed == [score[0] as u32, score[1] as u32],
            "match_score",
            || {
                format!(
                    "Ba-awa's match score is [{}, {}] here: pits owned in play, pits won once over",
                    score[0], score[1]
                )
            },
        );
    }
}

impl Game for BaAwa {
    const KIND: GameKind = GameKind::BaAwa;

    fn new_match(options: &Options) -> Self {
        BaAwa {
            pits: [FOUR; PITS],
            north_owned: NORTH_ROW,
            stores: [0, 0],
            to_move: Some(options.first_player),
            status: Status::InProgress,
            winner: None,
            starter: options.first_player,
            // The protocol layer refuses other targets; the engine keeps to the three the rules know.
            target: options.ba_awa_target.clamp(10, 12),
            ply: 0,
            game_number: 1,
        }
    }

    fn from_setup(setup: &Setup) -> Result<Self, InvalidState> {
        validate::<BaAwa, PITS>(setup)
    }

    fn to_setup(&self) -> Setup {
        let score = self.match_score();
        Setup {
            kind: GameKind::BaAwa,
            rules_version: super::RULES_VERSION,
            pits: self.pits.iter().map(|&s| s as u32).collect(),
            stores: self.stores.iter().map(|&s| s as u32).collect(),
            reserves: vec![0, 0],
            to_move: self.to_move,
            status: Some(self.status),
            winner: self.winner,
            ply: self.ply,
            game_number: self.game_number,
            match_score: score.iter().map(|&s| s as u32).collect(),
            variant: VariantSetup::BaAwa {
                owners: (0..PITS).map(|pit| Some(self.owner(pit))).collect(),
                starter: Some(self.starter),
                target: self.target as u32,
            },
        }
    }

    fn status(&self) -> Status {
        self.status
    }

    fn to_move(&self) -> Option<Player> {
        self.to_move
    }

    fn winner(&self) -> Option<Player> {
        self.winner
    }

    fn legal_moves(&self, out: &mut MoveList) {
        match (self.status, self.to_move) {
            (Status::InProgress, Some(mover)) => {
                let owned = self.owned_by(mover);
                for pit in 0..PITS as u8 {
                    if owned >> pit & 1 == 1
                        && self.pits[pit as usize] > 0
                        && self
                            .clone()
                            .sow_with_relays(pit, mover, &mut super::NoTrace)
                            .is_ok()
                    {
                        out.push(Move::Sow(Sow::from(pit)));
                    }
                }
            }
            (Status::GameOver, _) => out.push(Move::NextGame(PitSet::EMPTY)),
            _ => {}
        }
    }

    // Ba-awa keeps the default `play_listing`: its end-of-move check (`finish_move`) stops at the opponent's
    // first move and lists nothing; its moves are cheap enough that `play_and_list` listing after it costs
    // little (BENCHMARKS.md).
    fn play<T: Trace>(&mut self, mv: &Move, trace: &mut T) -> Result<(), IllegalMove> {
        match *mv {
            Move::Sow(sow) => self.play_sow(sow, trace),
            Move::NextGame(choice) => self.start_next_game(choice, trace),
        }
    }
}

#[cfg(test)]
mod tests;
