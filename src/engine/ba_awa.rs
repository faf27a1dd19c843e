//! Ba-awa (Twi, Ghana): docs/ba-awa.md §4. Two rows of six, relay sowing, fours captured as they are made, and
//! pit ownership carried from game to game.
//!
//! Pits 0–5 are South's S1–S6 and 6–11 North's N1–N6; `0 → 1 → … → 11 → 0` is anticlockwise (§4.1).
//!
//! The same type plays three-player Ba-awa (§4.7): a third seat, East, sits between South and North in turn
//! order, every seat owns a block of consecutive pits, and a seat that wins no pits is out of the match.
//!
//! A client's state is checked and read into a game in `validate`; this file holds the rules of play.

use super::cycle::LoopGuard;
use super::event::{EndReason, Event, LapSource, Trace};
use super::illegal::check_between_games;
use super::setup::{
    validate, validate_before_move, Checker, InvalidState, Setup, StateView, Validate,
    VariantSetup, VariantView,
};
use super::sow::{sow_lap, Ring};
use super::work;
use super::{
    Game, GameKind, IllegalMove, Move, MoveList, Options, PerSeat, PitSet, Player, Reason, Sow,
    Status,
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
/// Three-player Ba-awa: turn order follows the sowing direction (§4.7).
const TURN_ORDER_OF_THREE: [Player; 3] = [Player::South, Player::East, Player::North];
/// Every lap goes anticlockwise round all twelve pits, the origin included.
const RING: Ring<PITS> = Ring::anticlockwise();

const _: () = assert!(SEEDS as usize <= u8::MAX as usize, "pit counts are u8");

/// A Ba-awa game and the match it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaAwa {
    pits: [u8; PITS],
    /// Bit i set: North owns pit i (§4.1 "ownership").
    north_owned: u16,
    /// Bit i set: East owns pit i (three-player Ba-awa; always 0 with two). South owns the pits of neither.
    east_owned: u16,
    /// Fours won in this game, per seat (`[South, North, East]`; East's stays 0 with two players).
    stores: [u8; 3],
    /// 2, or 3 for three-player Ba-awa (§4.7).
    seats: u8,
    /// Three-player Ba-awa: the game at whose end each seat was eliminated (0: still in), `[South, North, East]`.
    eliminated_in: [u32; 3],
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
        owner_of(self.north_owned, self.east_owned, pit as u8)
    }

    /// Seeds in each pit.
    pub fn pits(&self) -> &[u8; PITS] {
        &self.pits
    }

    /// Fours won in this game, `[South, North]`, East third in three-player Ba-awa.
    pub fn stores(&self) -> PerSeat {
        PerSeat::of(self.stores, self.seats as usize)
    }

    /// The seats of this game, 2 or 3.
    pub fn seats(&self) -> usize {
        self.seats as usize
    }

    fn owned_by(&self, player: Player) -> u16 {
        match player {
            Player::North => self.north_owned,
            Player::East => self.east_owned,
            Player::South => ALL_PITS & !self.north_owned & !self.east_owned,
        }
    }

    /// The seats in turn order: South, North; or South, East, North (§4.7).
    fn turn_order(&self) -> &'static [Player] {
        if self.seats == 3 {
            &TURN_ORDER_OF_THREE
        } else {
            &Player::BOTH
        }
    }

    /// Whether `seat` plays in this match and has not been eliminated (§4.7).
    fn still_in(&self, seat: Player) -> bool {
        seat.index() < self.seats as usize && self.eliminated_in[seat.index()] == 0
    }

    /// The seats still in, in turn order after `seat`, ending with `seat` itself when it is still in. With two
    /// seats: the opponent, then `seat`.
    fn in_turn_after(&self, seat: Player) -> impl Iterator<Item = Player> + '_ {
        let order = self.turn_order();
        let at = order.iter().position(|&s| s == seat).unwrap_or(0);
        (1..=order.len())
            .map(move |step| order[(at + step) % order.len()])
            .filter(move |&s| self.still_in(s))
    }

    fn seeds_on_board(&self) -> u8 {
        self.pits.iter().sum()
    }

    /// The match standing: pits owned while a game is played, pits won (fours ÷ 4) once it is over.
    fn match_score(&self) -> PerSeat {
        let score = match self.status {
            Status::InProgress => Player::ALL.map(|seat| self.owned_by(seat).count_ones() as u8),
            _ => self.stores.map(|won| won / FOUR),
        };
        PerSeat::of(score, self.seats as usize)
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
        let mut guard = None;
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
            let (north_owned, east_owned) = (self.north_owned, self.east_owned);
            let stores = &mut self.stores;
            let last = sow_lap(
                &mut self.pits,
                &RING,
                origin,
                hand,
                trace,
                |pits, pos, in_hand, trace| {
                    if in_hand > 0 && pits[pos as usize] == FOUR {
                        let owner = owner_of(north_owned, east_owned, pos);
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
            laps += 1;
            if laps >= LAPS_BEFORE_WATCHING && long_sowing_stops(&mut guard, &self.pits, last) {
                return Err(NeverEnds);
            }
            origin = last;
        }
    }

    /// The pits `player` may sow from (§4.2 legal moves): his own, not empty, and their sowing ends.
    fn sowable(&self, player: Player) -> impl Iterator<Item = u8> + '_ {
        let owned = self.owned_by(player);
        (0..PITS as u8).filter(move |&pit| {
            owned >> pit & 1 == 1
                && self.pits[pit as usize] > 0
                && self
                    .clone()
                    .sow_with_relays(pit, player, &mut super::NoTrace)
                    .is_ok()
        })
    }

    /// The sowings of `player` that end (§4.2 legal moves), pushed onto `out`.
    fn list_sows(&self, player: Player, out: &mut MoveList) {
        for pit in self.sowable(player) {
            out.push(Move::Sow(Sow::from(pit)));
        }
    }

    /// Whether `player` has a sowing that ends (stops at the first).
    fn can_move(&self, player: Player) -> bool {
        self.sowable(player).next().is_some()
    }

    /// After a move: the game ends with ≤ 8 seeds left (§4.3, R-4.2); otherwise the next player in turn order
    /// moves, or passes when he cannot (R-4.6, §4.7).
    fn finish_move<T: Trace>(
        &mut self,
        mover: Player,
        trace: &mut T,
        listing: Option<&mut MoveList>,
    ) {
        if self.seeds_on_board() <= LAST_SEEDS {
            self.end_game(EndReason::FewSeedsLeft, trace);
            return;
        }
        self.pass_to_first_who_can_move(mover, trace, listing);
    }

    /// The players still in after `last`, in turn order and `last` himself at the end: the first who can move
    /// is to move, each one before him passes; when nobody can, the game ends as with few seeds (§4.3,
    /// §4.7). `last` himself never passes: when he cannot move either, the game is over. Given a `listing`, a seat's
    /// moves are listed into it to see whether he can move, rather than stopping at his first (so that the list
    /// of the seat to move is left there, made once: [`Game::play_listing`]).
    fn pass_to_first_who_can_move<T: Trace>(
        &mut self,
        last: Player,
        trace: &mut T,
        mut listing: Option<&mut MoveList>,
    ) {
        // A plain loop over the turn order: this runs after every move, and two-player play must not pay for
        // the third seat.
        let order = self.turn_order();
        let at = order.iter().position(|&s| s == last).unwrap_or(0);
        for step in 1..=order.len() {
            let seat = order[(at + step) % order.len()];
            if !self.still_in(seat) {
                continue;
            }
            let can_move = match listing.as_deref_mut() {
                Some(out) => {
                    out.clear();
                    self.list_sows(seat, out);
                    !out.is_empty()
                }
                None => self.can_move(seat),
            };
            if can_move {
                self.to_move = Some(seat);
                return;
            }
            if seat != last {
                trace.record(Event::Pass { player: seat });
            }
        }
        self.end_game(EndReason::BothStuck, trace);
    }

    /// §4.3: the starter takes every seed left; then §4.4 step 2 (§4.7 steps 2–3 with three players) decides
    /// who is out and whether the match is over.
    fn end_game<T: Trace>(&mut self, reason: EndReason, trace: &mut T) {
        let collected = self.seeds_on_board();
        self.pits = [0; PITS];
        self.stores[self.starter.index()] += collected;
        self.to_move = None;
        let outcome = self.outcome_of_game();
        self.status = outcome.status;
        self.winner = outcome.winner;
        trace.record(Event::GameEnd {
            reason,
            winner: self.game_winner(),
            collector: Some(self.starter),
            collected,
            stores: self.stores(),
        });
        for seat in Player::ALL {
            if outcome.eliminated >> seat.index() & 1 == 1 {
                self.eliminated_in[seat.index()] = self.game_number;
                trace.record(Event::Elimination { player: seat });
            }
        }
        if self.status == Status::MatchOver {
            trace.record(Event::MatchEnd {
                winner: self.winner,
                score: self.match_score(),
                placing: self.placing(),
            });
        }
    }

    /// The player with the most winnings in the game just ended, `None` when the most are shared.
    fn game_winner(&self) -> Option<Player> {
        let stores = self.stores();
        let best = stores.as_slice().iter().copied().max().unwrap_or(0);
        let mut leaders = Player::seated(self.seats as usize)
            .iter()
            .filter(|&&seat| stores.get(seat) == best);
        match (leaders.next(), leaders.next()) {
            (Some(&leader), None) => Some(leader),
            _ => None,
        }
    }

    /// §4.4 step 2 (§4.7 steps 2–3): where the match stands after a game with these final winnings. A match
    /// needs all 48 seeds to share out pits; a custom position with fewer ends the match with its one game.
    fn outcome_of_game(&self) -> Outcome {
        let seats = Player::seated(self.seats as usize);
        let total: u16 = seats.iter().map(|s| self.stores[s.index()] as u16).sum();
        if total != SEEDS as u16 {
            return Outcome::over(self.game_winner());
        }
        let pits_won = self.stores.map(|won| won / FOUR);
        if self.seats == 2 {
            for player in Player::BOTH {
                let (mine, theirs) = (
                    pits_won[player.index()],
                    pits_won[player.opponent().index()],
                );
                if mine >= self.target || theirs == 0 {
                    return Outcome::over(Some(player));
                }
            }
            return Outcome::going_on(self.game_winner(), 0);
        }
        let eliminated = seats
            .iter()
            .filter(|&&seat| self.still_in(seat) && pits_won[seat.index()] == 0)
            .fold(0u8, |set, seat| set | 1 << seat.index());
        match seats
            .iter()
            .find(|&&seat| pits_won[seat.index()] >= self.target)
        {
            Some(&winner) => Outcome {
                status: Status::MatchOver,
                winner: Some(winner),
                eliminated,
            },
            None => Outcome::going_on(self.game_winner(), eliminated),
        }
    }

    /// §4.7 "placing", once a three-player match is over: the winner first, then whoever still holds pits, then
    /// the eliminated, the later out above the earlier; equals share a place. Empty with two players. A custom
    /// position with fewer than 48 seeds ends its match after one game and is placed by winnings.
    fn placing(&self) -> PerSeat {
        if self.seats != 3 {
            return PerSeat::NONE;
        }
        let full = Player::ALL
            .iter()
            .map(|s| self.stores[s.index()] as u16)
            .sum::<u16>()
            == SEEDS as u16;
        // How long each seat stayed in: the higher, the better placed.
        let standing = Player::ALL.map(|seat| {
            if self.winner == Some(seat) {
                u32::MAX
            } else if !full {
                self.stores[seat.index()] as u32
            } else {
                match self.eliminated_in[seat.index()] {
                    0 => u32::MAX - 1,
                    game => game,
                }
            }
        });
        let place = |seat: Player| {
            1 + standing
                .iter()
                .filter(|&&other| other > standing[seat.index()])
                .count() as u8
        };
        PerSeat::of(Player::ALL.map(place), 3)
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
        if self.seats == 3 {
            if !choice.is_empty() {
                return Err(IllegalMove::new(
                    Reason::InvalidChoice,
                    "three-player Ba-awa shares out pits in blocks with no choice; NextGame takes no pits (§4.7)",
                ));
            }
            (self.north_owned, self.east_owned) = allocate_blocks(self.stores);
        } else {
            self.north_owned = allocate_pits([self.stores[0], self.stores[1]], choice)?;
        }
        self.pits = [FOUR; PITS];
        self.stores = [0; 3];
        // The next seat still in after the last starter's, even one just eliminated (§4.4 step 5, §4.7 step 6).
        let last_starter = self.starter;
        let next_starter = self.in_turn_after(last_starter).next();
        self.starter = next_starter.unwrap_or(last_starter);
        self.status = Status::InProgress;
        self.winner = None;
        self.ply = 0;
        // A client's state may claim any game number; the count stops at the top rather than overflowing.
        self.game_number = self.game_number.saturating_add(1);
        trace.record(Event::Allocation {
            north_owned: self.north_owned,
            east_owned: self.east_owned,
            pits_owned: self.match_score(),
            starter: self.starter,
        });
        // Whether anyone can move is checked when a game starts too (§4.7): the starter, or the next who can.
        self.to_move = None;
        let order = self.turn_order();
        let at = order.iter().position(|&s| s == self.starter).unwrap_or(0);
        let before_starter = (1..order.len())
            .map(|back| order[(at + order.len() - back) % order.len()])
            .find(|&seat| self.still_in(seat))
            .unwrap_or(self.starter);
        self.pass_to_first_who_can_move(before_starter, trace, None);
        Ok(())
    }

    fn play_sow<T: Trace>(
        &mut self,
        sow: Sow,
        trace: &mut T,
        listing: Option<&mut MoveList>,
    ) -> Result<(), IllegalMove> {
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
                if self.seats == 3 {
                    "the pit is owned by another player; a player moves only from pits he owns (§4.1, §4.7)"
                } else {
                    "the pit is owned by the other player; a player moves only from pits he owns (§4.1)"
                },
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
        if T::FINISHES_MOVE {
            next.finish_move(mover, trace, listing);
        }
        *self = next;
        Ok(())
    }
}

/// Laps a sowing relays before it is watched for a repeat and metered: most moves end well within them.
const LAPS_BEFORE_WATCHING: u32 = 16;

/// A sowing still relaying after [`LAPS_BEFORE_WATCHING`] laps, about to relay from `last` on `pits`: whether
/// it stops, because that board and pit repeat an earlier lap's (each lap follows from the one before, so the
/// move then never ends, R-4.7; watching from any lap finds the cycle) or because the call's budget is spent (a
/// long move pays for its laps and gives up when it runs out; the answer is then thrown away). Out of line and
/// cold: watched from the first lap and inlined, its set-up cost every sowing 6 % of a random game.
#[cold]
#[inline(never)]
fn long_sowing_stops(
    guard: &mut Option<LoopGuard<([u8; PITS], u8)>>,
    pits: &[u8; PITS],
    last: u8,
) -> bool {
    let configuration = (*pits, last);
    match guard {
        None => {
            *guard = Some(LoopGuard::new(configuration));
            !work::spend(1)
        }
        Some(guard) => guard.repeats(configuration) || !work::spend(1),
    }
}

/// Where the match stands after a game (§4.4 step 2, §4.7 steps 2–3).
struct Outcome {
    status: Status,
    winner: Option<Player>,
    /// Seats eliminated by this game, one bit per [`Player::index`].
    eliminated: u8,
}

impl Outcome {
    fn over(winner: Option<Player>) -> Outcome {
        Outcome {
            status: Status::MatchOver,
            winner,
            eliminated: 0,
        }
    }

    fn going_on(game_winner: Option<Player>, eliminated: u8) -> Outcome {
        Outcome {
            status: Status::GameOver,
            winner: game_winner,
            eliminated,
        }
    }
}

/// North's and East's pits in game 1: the rows with two players (§4.1), four pits each with three (§4.7).
fn game_one_ownership(seats: u8) -> (u16, u16) {
    if seats == 3 {
        allocate_blocks([16, 16, 16])
    } else {
        (NORTH_ROW, 0)
    }
}

/// The owner of `pit` from North's and East's pits (South owns the rest).
fn owner_of(north_owned: u16, east_owned: u16, pit: u8) -> Player {
    if north_owned >> pit & 1 == 1 {
        Player::North
    } else if east_owned >> pit & 1 == 1 {
        Player::East
    } else {
        Player::South
    }
}

/// §4.7 step 4: blocks of consecutive pits from pit 0 in seat order, South's, then East's, then North's, each
/// as long as the fours its seat won. Returns North's and East's pits.
fn allocate_blocks(stores: [u8; 3]) -> (u16, u16) {
    let block = |seat: Player| (1u16 << (stores[seat.index()] / FOUR)) - 1;
    let south = (stores[Player::South.index()] / FOUR) as u32;
    let east = block(Player::East) << south;
    let north = ALL_PITS & !(block(Player::South) | east);
    (north, east)
}

/// Takes the four in `pit` for `beneficiary` (§4.2).
fn capture_four<T: Trace>(
    pits: &mut [u8; PITS],
    stores: &mut [u8; 3],
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
        Player::North | Player::East => SOUTH_ROW,
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
        Player::North | Player::East => NORTH_ROW | taken,
    })
}

impl Game for BaAwa {
    const KIND: GameKind = GameKind::BaAwa;

    fn new_match(options: &Options) -> Self {
        let seats = options.seats(GameKind::BaAwa) as u8;
        let (north_owned, east_owned) = game_one_ownership(seats);
        // East starts only where he sits; the protocol layer refuses him elsewhere.
        let starter = match options.first_player {
            Player::East if seats == 2 => Player::South,
            player => player,
        };
        BaAwa {
            pits: [FOUR; PITS],
            north_owned,
            east_owned,
            stores: [0; 3],
            seats,
            eliminated_in: [0; 3],
            to_move: Some(starter),
            status: Status::InProgress,
            winner: None,
            starter,
            // The protocol layer refuses other targets; the engine keeps to the three the rules know.
            target: options.ba_awa_target.clamp(10, 12),
            ply: 0,
            game_number: 1,
        }
    }

    fn from_setup(setup: &Setup) -> Result<Self, InvalidState> {
        validate::<BaAwa, PITS>(setup)
    }

    fn from_setup_before_move(setup: &Setup) -> Result<(Self, bool), InvalidState> {
        validate_before_move::<BaAwa, PITS>(setup)
    }

    fn view(&self) -> StateView<'_> {
        let seats = self.seats as usize;
        StateView {
            kind: GameKind::BaAwa,
            pits: &self.pits,
            stores: &self.stores[..seats],
            // Every seed is on the board or won: a reserve of none for each seat.
            reserves: &[0; 3][..seats],
            to_move: self.to_move,
            status: self.status,
            winner: self.winner,
            ply: self.ply,
            game_number: self.game_number,
            match_score: self.match_score(),
            variant: VariantView::BaAwa {
                owners: std::array::from_fn(|pit| self.owner(pit)),
                starter: self.starter,
                target: self.target as u32,
                players: if seats == 3 { 3 } else { 0 },
                eliminated_in: if seats == 3 { &self.eliminated_in } else { &[] },
            },
        }
    }

    fn seats(&self) -> usize {
        self.seats as usize
    }

    fn in_match(&self, seat: Player) -> bool {
        self.still_in(seat)
    }

    fn placing(&self) -> PerSeat {
        if self.status == Status::MatchOver {
            BaAwa::placing(self)
        } else {
            PerSeat::NONE
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

    fn sowing_candidates(&self) -> Option<u32> {
        let mover = self.to_move.filter(|_| self.status == Status::InProgress)?;
        let seeds = (0..PITS).fold(0u16, |bits, pit| {
            bits | u16::from(self.pits[pit] > 0) << pit
        });
        Some(u32::from(self.owned_by(mover) & seeds))
    }

    fn legal_moves(&self, out: &mut MoveList) {
        match (self.status, self.to_move) {
            (Status::InProgress, Some(mover)) => self.list_sows(mover, out),
            (Status::GameOver, _) => out.push(Move::NextGame(PitSet::EMPTY)),
            _ => {}
        }
    }

    /// A sowing's end-of-move check (whether the next seat can move, R-4.6) lists that seat's moves into
    /// `listing`, so that `play_and_list` sows each of them once, not twice (13 % of a random game's
    /// instructions).
    fn play_listing<T: Trace>(
        &mut self,
        mv: &Move,
        trace: &mut T,
        listing: Option<&mut MoveList>,
    ) -> Result<(), IllegalMove> {
        match *mv {
            Move::Sow(sow) => self.play_sow(sow, trace, listing),
            Move::NextGame(choice) => self.start_next_game(choice, trace),
        }
    }

    /// §1 "How such a game ends", Ba-awa: as §4.3, the starter takes every seed left.
    fn end_across_turns<T: Trace>(&mut self, reason: EndReason, trace: &mut T) {
        if self.status == Status::InProgress {
            self.end_game(reason, trace);
        }
    }

    /// §1 "Match length", Ba-awa: more pits; with three players the seats still in come first (§4.7 placing),
    /// then more pits. Level leaders: no winner.
    fn match_leader(&self) -> Option<Player> {
        let pits = |seat: Player| self.stores[seat.index()] / FOUR;
        let contenders = Player::seated(self.seats as usize)
            .iter()
            .copied()
            .filter(|&seat| self.still_in(seat));
        let best = contenders.clone().map(pits).max()?;
        let mut leaders = contenders.filter(|&seat| pits(seat) == best);
        match (leaders.next(), leaders.next()) {
            (Some(leader), None) => Some(leader),
            _ => None,
        }
    }

    fn play<T: Trace>(&mut self, mv: &Move, trace: &mut T) -> Result<(), IllegalMove> {
        match *mv {
            Move::Sow(sow) => self.play_sow(sow, trace, None),
            Move::NextGame(choice) => self.start_next_game(choice, trace),
        }
    }
}

#[cfg(test)]
mod endless_tests;
#[cfg(test)]
mod tests;
mod validate;

#[cfg(test)]
mod three_player_tests;
