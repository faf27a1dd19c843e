//! Bosh (Darod, Somalia; Marin 1931): docs/bosh.md §3. Two rows of five, relay sowing that lifts the hole *after*
//! the last stone, a leapfrog capture across an empty hole, and holes closed from round to round.
//!
//! Holes 0–4 are South's S1–S5 and 5–9 North's N1–N5; `0 → 1 → … → 9 → 0` is anticlockwise (§3.1). A closed
//! hole is filled with sand and does not exist for sowing, relaying or the capture check, so every lap
//! follows a [`Ring`] that skips the closed holes, rebuilt whenever the closed set changes.
//!
//! A match is a series of rounds. A round ends at the start of a turn when the player to move cannot move
//! (§3.3); the state is then `RoundOver`, or `MatchOver` when a player's total is below 4 (§3.4 step 5: the
//! totals are known as soon as the round ends, so the match's end is decided there and then and the state shows
//! the winner). `NextGame` refills the holes and starts the next round (§3.4).

use super::cycle::repeats_before_end;
use super::event::{EndReason, Event, LapSource, Trace};
use super::illegal::check_between_games;
use super::relay_ring::PackedRing;
use super::setup::{
    pair_u8, validate, validate_before_move, Checker, InvalidState, Setup, StateView, Validate,
    VariantSetup, VariantView,
};
use super::sow::{sow_lap, Ring};
use super::work;
use super::{
    can_move_listing, Game, GameKind, IllegalMove, LegalityOnly, Move, MoveList, NoTrace, Options,
    PitSet, Player, Reason, Sow, Status,
};

/// Holes on the board.
pub(crate) const HOLES: usize = 10;
/// Stones in a match (§3.1: 20 per player).
pub(crate) const STONES: u8 = 40;
/// Stones put into every opened hole; a player needs this many to keep a hole open (§3.4).
const FOUR: u8 = 4;
/// Holes in a row: the most a player can open (§3.4 step 2).
const ROW_HOLES: u8 = 5;
/// South's row S1–S5 and North's row N1–N5, as hole bit masks.
const SOUTH_ROW: u16 = 0x01F;
const NORTH_ROW: u16 = 0x3E0;
const ALL_HOLES: u16 = SOUTH_ROW | NORTH_ROW;
/// The holes' names in docs/bosh.md, for messages.
const LABELS: [&str; HOLES] = ["S1", "S2", "S3", "S4", "S5", "N1", "N2", "N3", "N4", "N5"];

/// Relays a move is played before it is checked for ending (§1): most end sooner.
const RELAYS_BEFORE_PACKING: u32 = 16;

const _: () = assert!(STONES as usize <= u8::MAX as usize, "pit counts are u8");

/// A Bosh round and the match it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bosh {
    pits: [u8; HOLES],
    /// Bit i set: hole i is closed this round (§3.1 `open[10]`).
    closed: u16,
    /// The sowing path over the open holes; a function of `closed`.
    ring: Ring<HOLES>,
    /// Stones won this round, `[South, North]`.
    stores: [u8; 2],
    /// Stones carried from earlier rounds and not on the board, `[South, North]` (§3.4 step 3).
    reserves: [u8; 2],
    to_move: Option<Player>,
    status: Status,
    winner: Option<Player>,
    /// The player who started this round; the next round is started by the other.
    round_starter: Player,
    ply: u32,
    round: u32,
}

/// The sowing would never end (§1).
struct NeverEnds;

/// A player's own row.
fn row(player: Player) -> u16 {
    match player {
        Player::South => SOUTH_ROW,
        // East sits only in three-player Ba-awa, never at this board.
        Player::North | Player::East => NORTH_ROW,
    }
}

/// the successor of every hole along the open holes only, anticlockwise. The successor of a closed hole
/// is the next open hole too (sowing never starts from one). With no open hole at all every hole is its own
/// successor, which no sowing reaches.
fn ring_skipping(closed: u16) -> Ring<HOLES> {
    let mut next = [0u8; HOLES];
    for (hole, successor) in next.iter_mut().enumerate() {
        *successor = (1..=HOLES)
            .map(|step| ((hole + step) % HOLES) as u8)
            .find(|&candidate| closed >> candidate & 1 == 0)
            .unwrap_or(hole as u8);
    }
    Ring::from_table(next)
}

impl Bosh {
    /// Stones in each hole (a closed hole always holds 0).
    pub fn pits(&self) -> &[u8; HOLES] {
        &self.pits
    }

    /// Whether `hole` is closed this round.
    pub fn is_closed(&self, hole: usize) -> bool {
        self.closed >> hole & 1 == 1
    }

    /// Stones won this round, `[South, North]`.
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// Stones carried over from earlier rounds, `[South, North]`.
    pub fn reserves(&self) -> [u8; 2] {
        self.reserves
    }

    /// Round 1 in progress with `pits` and the `closed` holes (which must hold 0), `round_starter` to move.
    fn round_of(pits: [u8; HOLES], closed: u16, round_starter: Player) -> Bosh {
        Bosh {
            pits,
            closed,
            ring: ring_skipping(closed),
            stores: [0, 0],
            reserves: [0, 0],
            to_move: Some(round_starter),
            status: Status::InProgress,
            winner: None,
            round_starter,
            ply: 0,
            round: 1,
        }
    }

    /// `player`'s open holes, as a bit mask.
    fn open_holes(&self, player: Player) -> u16 {
        row(player) & !self.closed
    }

    /// The match standing: open holes this round, `[South, North]`.
    fn match_score(&self) -> [u8; 2] {
        Player::BOTH.map(|p| self.open_holes(p).count_ones() as u8)
    }

    fn stones_on_board(&self) -> u8 {
        self.pits.iter().sum()
    }

    /// Whether a stone lies in one of `player`'s open holes (§3.3).
    fn has_stones(&self, player: Player) -> bool {
        let open = self.open_holes(player);
        (0..HOLES).any(|hole| open >> hole & 1 == 1 && self.pits[hole] > 0)
    }

    /// §3.2: lift the hole and sow along the open holes (the origin included); when the hole after the last stone
    /// holds stones, lift it and sow on from the hole after it (the relay); when it is empty, the move ends with the
    /// capture of the hole beyond it. A move that never ends leaves the round as it was.
    fn sow_with_relays<T: Trace>(
        &mut self,
        hole: u8,
        mover: Player,
        trace: &mut T,
    ) -> Result<(), NeverEnds> {
        let mut pits = self.pits;
        let empty = self.relay_sow(&mut pits, hole, mover, trace)?;
        self.pits = pits;
        self.capture_beyond_empty_hole(empty, mover, trace);
        Ok(())
    }

    /// §3.2, the sowing of a move on `pits`: lift `hole`, sow, and relay from the hole after the last stone while it
    /// holds stones. Returns the empty hole the move ends at (the capture is the caller's). A move still going after
    /// a few relays is checked for ending (§1). Playing on a copy of the board, not the round, keeps the trial of a
    /// candidate move (`move_ends`) to ten bytes.
    fn relay_sow<T: Trace>(
        &self,
        pits: &mut [u8; HOLES],
        hole: u8,
        mover: Player,
        trace: &mut T,
    ) -> Result<u8, NeverEnds> {
        let mut origin = hole;
        let mut relays = 0;
        loop {
            if relays >= RELAYS_BEFORE_PACKING && !self.long_relay_goes_on(pits, origin, relays) {
                return Err(NeverEnds);
            }
            relays += 1;
            let hand = pits[origin as usize];
            pits[origin as usize] = 0;
            trace.record(Event::Lap {
                player: mover,
                origin,
                seeds: hand,
                source: LapSource::Pit,
            });
            let last = sow_lap(pits, &self.ring, origin, hand, trace, |_, _, _, _| {});
            origin = self.ring.next(last);
            if pits[origin as usize] == 0 {
                return Ok(origin);
            }
        }
    }

    /// Whether a move already relayed `relays` times (at least [`RELAYS_BEFORE_PACKING`]) may relay again from
    /// `origin`: at the first of these relays, only if the move ends at all (§1); at every one, only while the
    /// call's budget lasts (a long move pays for its relays; out of budget it gives up and its answer is thrown
    /// away). Out of line and cold: few moves get here, and inlined its set-up was hoisted into every sowing's
    /// prologue (5 % of a Bosh playout's instructions).
    #[cold]
    #[inline(never)]
    fn long_relay_goes_on(&self, pits: &[u8; HOLES], origin: u8, relays: u32) -> bool {
        (relays != RELAYS_BEFORE_PACKING || self.relay_ends(pits, origin)) && work::spend(1)
    }

    /// Whether a relay from `origin` on `pits` ends (§1). The relay rule looks the same from every open hole, so
    /// the move is played on the open holes packed relative to the hole each lap starts from: it never ends
    /// exactly when that relative picture repeats (`relay_ring`), which is found fast however long the cycle.
    fn relay_ends(&self, pits: &[u8; HOLES], origin: u8) -> bool {
        let open = HOLES as u32 - self.closed.count_ones();
        if open < 2 {
            // One open hole (a state refused for the other player's empty row, still asked whether its mover can
            // move): every lap sows the hole back into itself, the hole after the last stone, and relays it.
            return false;
        }
        let ring = PackedRing::new(open);
        let holes = std::iter::successors(Some(origin), |&h| Some(self.ring.next(h)));
        let first = PackedRing::pack(holes.take(open as usize).map(|h| pits[h as usize]));
        !repeats_before_end(first, |relative| {
            let hand = (relative & 0xFF) as u32;
            let relative = ring.sow(relative & !0xFF, hand, 1);
            // The hole after the last stone: empty ends the move, otherwise it is relayed.
            (relative & 0xFF != 0).then_some(relative)
        })
    }

    /// §3.2, R-3.5: the hole after the last stone is empty, so the mover takes the hole beyond it, in either row;
    /// when that one is empty too, nothing is taken ("double empty void").
    fn capture_beyond_empty_hole<T: Trace>(&mut self, empty: u8, mover: Player, trace: &mut T) {
        let beyond = self.ring.next(empty);
        let seeds = self.pits[beyond as usize];
        if seeds == 0 {
            trace.record(Event::NoCapture {
                empty_pit: empty,
                beyond_pit: beyond,
            });
            return;
        }
        self.pits[beyond as usize] = 0;
        self.stores[mover.index()] += seeds;
        trace.record(Event::Capture {
            pit: beyond,
            seeds,
            beneficiary: mover,
            kichwa: None,
            direction: None,
        });
    }

    /// Whether sowing `hole` for `player` is a legal move: an open hole of his with a stone whose sowing ends.
    fn move_ends(&self, hole: u8, player: Player) -> bool {
        let mut pits = self.pits;
        self.open_holes(player) >> hole & 1 == 1
            && pits[hole as usize] > 0
            && self
                .relay_sow(&mut pits, hole, player, &mut NoTrace)
                .is_ok()
    }

    /// Whether `player` has a legal move (§3.2; §1: moves that never end do not count).
    fn can_move(&self, player: Player) -> bool {
        (0..HOLES as u8).any(|hole| self.move_ends(hole, player))
    }

    /// `player`'s legal moves, hole by hole.
    fn list_sows(&self, player: Player, out: &mut MoveList) {
        for hole in 0..HOLES as u8 {
            if self.move_ends(hole, player) {
                out.push(Move::Sow(Sow::from(hole)));
            }
        }
    }

    /// §3.3, R-3.1: the round-end check, made only at the start of a turn. A player who cannot move (no stone in
    /// his open holes, or, by §1, only moves that never end) ends the round; otherwise he is to move. Given a
    /// `listing`, the check lists his moves into it instead of stopping at the first (`play_and_list`).
    fn begin_turn<T: Trace>(
        &mut self,
        player: Player,
        trace: &mut T,
        listing: Option<&mut MoveList>,
    ) {
        let can_move = can_move_listing(
            listing,
            |out| self.list_sows(player, out),
            || self.can_move(player),
        );
        if can_move {
            self.to_move = Some(player);
        } else {
            self.forfeit_to_opponent(player, trace);
        }
    }

    /// §3.3: the stuck player forfeits every stone left on the board to his opponent, and the round ends.
    fn forfeit_to_opponent<T: Trace>(&mut self, stuck: Player, trace: &mut T) {
        let collector = stuck.opponent();
        let collected = self.stones_on_board();
        self.pits = [0; HOLES];
        self.stores[collector.index()] += collected;
        self.end_round(EndReason::PlayerEmpty, Some(collector), collected, trace);
    }

    /// §1 "How such a game ends", Bosh: on a repetition or an agreement each player takes the stones in the open
    /// holes of his own row (one capture per hole), and the round ends.
    fn take_own_rows<T: Trace>(&mut self, reason: EndReason, trace: &mut T) {
        for hole in 0..HOLES {
            let seeds = self.pits[hole];
            if seeds == 0 || self.is_closed(hole) {
                continue;
            }
            let owner = if row(Player::South) >> hole & 1 == 1 {
                Player::South
            } else {
                Player::North
            };
            self.pits[hole] = 0;
            self.stores[owner.index()] += seeds;
            trace.record(Event::Capture {
                pit: hole as u8,
                seeds,
                beneficiary: owner,
                kichwa: None,
                direction: None,
            });
        }
        self.end_round(reason, None, 0, trace);
    }

    /// The board emptied, the round ends; then §3.4 step 5 decides whether the match is over.
    fn end_round<T: Trace>(
        &mut self,
        reason: EndReason,
        collector: Option<Player>,
        collected: u8,
        trace: &mut T,
    ) {
        self.to_move = None;
        let (status, winner) = outcome_of_round(self.stores, self.reserves);
        self.status = status;
        self.winner = winner;
        trace.record(Event::RoundEnd {
            reason,
            collector,
            collected,
            totals: totals(self.stores, self.reserves),
        });
        if status == Status::MatchOver {
            trace.record(Event::MatchEnd {
                winner,
                score: self.match_score().into(),
                placing: super::PerSeat::NONE,
            });
        }
    }

    /// §3.4: every player opens one hole with 4 stones for every 4 stones he holds, at most five, in the holes he
    /// chose or by default from his right end leftward; the rest is his reserve. The player who did not
    /// start the last round starts the next.
    fn refill_between_rounds<T: Trace>(
        &mut self,
        choice: PitSet,
        trace: &mut T,
        listing: Option<&mut MoveList>,
    ) -> Result<(), IllegalMove> {
        check_between_games(
            self.status,
            "the round is still being played; the next round starts when it is over",
        )?;
        if choice.0 & !(ALL_HOLES as u32) != 0 {
            return Err(IllegalMove::new(
                Reason::InvalidChoice,
                "Bosh has holes 0 to 9; a hole chosen is not on the board",
            ));
        }
        let totals = totals(self.stores, self.reserves);
        let mut opened = 0u16;
        let mut reserves = [0u8; 2];
        for player in Player::BOTH {
            let total = totals[player.index()];
            let holes = (total / FOUR).min(ROW_HOLES);
            if holes == 0 {
                // A total below 4 ends the match at the end of the round (§3.4 step 5), so this is not reached.
                return Err(IllegalMove::new(
                    Reason::MatchOver,
                    "a player has fewer than 4 stones: the match is over",
                ));
            }
            opened |= holes_to_open(player, holes, choice)?;
            reserves[player.index()] = total - FOUR * holes;
        }
        self.closed = ALL_HOLES & !opened;
        self.ring = ring_skipping(self.closed);
        self.pits = [0; HOLES];
        for (hole, stones) in self.pits.iter_mut().enumerate() {
            if opened >> hole & 1 == 1 {
                *stones = FOUR;
            }
        }
        self.stores = [0, 0];
        self.reserves = reserves;
        self.round_starter = self.round_starter.opponent();
        self.status = Status::InProgress;
        self.winner = None;
        self.ply = 0;
        self.round = self.round.saturating_add(1);
        for player in Player::BOTH {
            trace.record(Event::Refill {
                player,
                opened: opened & row(player),
                closed: self.closed & row(player),
                reserve: reserves[player.index()],
            });
        }
        if T::FINISHES_MOVE {
            self.begin_turn(self.round_starter, trace, listing);
        }
        Ok(())
    }

    fn play_sow<T: Trace>(
        &mut self,
        sow: Sow,
        trace: &mut T,
        listing: Option<&mut MoveList>,
    ) -> Result<(), IllegalMove> {
        let mover =
            match (self.status, self.to_move) {
                (Status::InProgress, Some(mover)) => mover,
                (Status::MatchOver, _) => {
                    return Err(IllegalMove::new(Reason::MatchOver, "the match is over"))
                }
                _ => return Err(IllegalMove::new(
                    Reason::GameOver,
                    "the round is over; play NextGame to refill the holes and start the next round",
                )),
            };
        let hole = sow.pit;
        if sow.has_choices() {
            return Err(IllegalMove::at(
                Reason::ChoiceNotOffered,
                hole,
                "Bosh always sows anticlockwise and has no kichwa or kuu; leave those choices unspecified",
            ));
        }
        if hole as usize >= HOLES {
            return Err(IllegalMove::at(
                Reason::NoSuchPit,
                hole,
                "Bosh has holes 0 to 9",
            ));
        }
        if row(mover) >> hole & 1 == 0 {
            return Err(IllegalMove::at(
                Reason::NotYourPit,
                hole,
                "the hole is in the other player's row; a player sows only from his own row (§3.1)",
            ));
        }
        if self.is_closed(hole as usize) {
            return Err(IllegalMove::at(
                Reason::HoleClosed,
                hole,
                "the hole is closed (filled with sand) for this round and does not exist (§3.1, §3.4)",
            ));
        }
        if self.pits[hole as usize] == 0 {
            return Err(IllegalMove::at(Reason::PitEmpty, hole, "the hole is empty"));
        }
        let mark = trace.mark();
        // A move that never ends changes nothing, so the round needs no copy to stay untouched.
        if self.sow_with_relays(hole, mover, trace).is_err() {
            trace.rollback(mark);
            return Err(IllegalMove::at(
                Reason::NeverEndingMove,
                hole,
                "sowing from this hole would never end, so the move is illegal (§1, §3.2)",
            ));
        }
        self.ply = self.ply.wrapping_add(1);
        if T::FINISHES_MOVE {
            self.begin_turn(mover.opponent(), trace, listing);
        }
        Ok(())
    }
}

/// Each player's stones for the match, store + reserve, `[South, North]` (§3.4 step 1).
fn totals(stores: [u8; 2], reserves: [u8; 2]) -> [u8; 2] {
    [stores[0] + reserves[0], stores[1] + reserves[1]]
}

/// §3.4 step 5: where the match stands after a round with these stores and reserves. A player whose total is
/// below 4 cannot open a hole and loses; the other wins. Both below 4 (only in custom positions with fewer than
/// 8 stones) ends the match without a winner. Otherwise the round is over and its winner is the player who won
/// more stones in it (`None` for equal stores).
fn outcome_of_round(stores: [u8; 2], reserves: [u8; 2]) -> (Status, Option<Player>) {
    let totals = totals(stores, reserves);
    match (totals[0] < FOUR, totals[1] < FOUR) {
        (true, true) => (Status::MatchOver, None),
        (true, false) => (Status::MatchOver, Some(Player::North)),
        (false, true) => (Status::MatchOver, Some(Player::South)),
        (false, false) => (
            Status::RoundOver,
            match stores[0].cmp(&stores[1]) {
                std::cmp::Ordering::Greater => Some(Player::South),
                std::cmp::Ordering::Less => Some(Player::North),
                std::cmp::Ordering::Equal => None,
            },
        ),
    }
}

/// §3.4 step 4, R-3.3: the `holes` holes `player` opens. With none of his holes in `choice` he gets the default
/// right-to-left fill (S5, S4, … or N5, N4, …); otherwise he must have listed exactly `holes` of his own holes.
fn holes_to_open(player: Player, holes: u8, choice: PitSet) -> Result<u16, IllegalMove> {
    let own_row = row(player);
    let chosen = choice.0 as u16 & own_row;
    if chosen == 0 {
        // The highest `holes` indices of the row are its rightmost holes from the owner's side.
        let row_end = 16 - own_row.leading_zeros();
        return Ok(((1u16 << holes) - 1) << (row_end - holes as u32));
    }
    if chosen.count_ones() != holes as u32 {
        return Err(IllegalMove::new(
            Reason::InvalidChoice,
            match player {
                Player::South => {
                    "South must choose exactly as many of his holes as he can fill: one for every 4 stones he holds, \
                     at most five (§3.4); list none of his holes for the default right-to-left fill"
                }
                Player::North | Player::East => {
                    "North must choose exactly as many of his holes as he can fill: one for every 4 stones he holds, \
                     at most five (§3.4); list none of his holes for the default right-to-left fill"
                }
            },
        ));
    }
    Ok(chosen)
}

/// Bosh's own fields of a [`Setup`], as read by [`Validate::check_own_fields`].
pub(crate) struct OwnFields {
    /// The closed holes, when the list has a flag per hole.
    closed: Option<u16>,
    round_starter: Option<Player>,
}

impl Validate<HOLES> for Bosh {
    const SEED_TOTAL: u32 = STONES as u32;
    type OwnFields = OwnFields;

    /// §3.3: Bosh is played in rounds, so a finished round is ROUND_OVER, never GAME_OVER.
    fn check_shared_fields(check: &mut Checker, setup: &Setup) {
        check.require(setup.status != Some(Status::GameOver), "status", || {
            "Bosh has rounds, not games: a finished round is ROUND_OVER (§3.3)".into()
        });
    }

    /// §3.1, §3.4: the closed holes and the round's starter.
    fn check_own_fields(check: &mut Checker, setup: &Setup) -> Option<OwnFields> {
        let VariantSetup::Bosh {
            closed,
            round_starter,
        } = &setup.variant
        else {
            check.fail(
                "bosh",
                "a Bosh state carries the bosh fields (closed, round_starter)",
            );
            return None;
        };
        let closed = check_closed_holes(check, setup, closed);
        check.require(round_starter.is_some(), "bosh.round_starter", || {
            "the player who started the round must be set".into()
        });
        Some(OwnFields {
            closed,
            round_starter: *round_starter,
        })
    }

    fn assemble(setup: &Setup, pits: [u8; HOLES], own: &OwnFields) -> Option<Bosh> {
        // Every count must fit in a u8 for the rules of step 5, so the state holds at most 40 stones in all.
        let stones: u64 = (setup.pits.iter())
            .chain(&setup.stores)
            .chain(&setup.reserves)
            .map(|&s| s as u64)
            .sum();
        let (Some(status), Some(round_starter), Some(closed), true) = (
            setup.status,
            own.round_starter,
            own.closed,
            stones <= STONES as u64,
        ) else {
            return None;
        };
        Some(Bosh {
            pits,
            closed,
            ring: ring_skipping(closed),
            stores: pair_u8(&setup.stores),
            reserves: pair_u8(&setup.reserves),
            to_move: setup.to_move,
            status,
            winner: setup.winner,
            round_starter,
            ply: setup.ply,
            round: setup.game_number,
        })
    }

    /// §3.3, §3.4: a round in play or a round that is over.
    fn check_position(&self, check: &mut Checker, _: &Setup, _: &OwnFields) {
        match (self.status, self.to_move) {
            (Status::InProgress, None) => {} // reported by the common checks
            (Status::InProgress, Some(mover)) => self.check_turn(check, mover),
            _ => self.check_round_end(check),
        }
    }
}

/// §3.1, §3.4 steps 2–3, 5: one flag per hole; a closed hole holds no stone; every player keeps an open hole
/// (with none he has lost the match), and a reserve of 4 or more only with his whole row open; the match score
/// is the open holes. Returns the closed holes when the list is usable.
fn check_closed_holes(check: &mut Checker, setup: &Setup, closed: &[bool]) -> Option<u16> {
    if closed.len() != HOLES {
        check.fail(
            "bosh.closed",
            format!("one flag per hole: 10, not {}", closed.len()),
        );
        return None;
    }
    let mut closed_mask = 0u16;
    for (hole, _) in closed.iter().enumerate().filter(|(_, &c)| c) {
        closed_mask |= 1 << hole;
        let stones = setup.pits.get(hole).copied().unwrap_or(0);
        check.require_at(
            stones == 0,
            || format!("pits[{hole}]"),
            || {
                format!(
                    "hole {} is closed (filled with sand) and cannot hold {stones} stones (§3.1)",
                    LABELS[hole]
                )
            },
        );
    }
    for player in Player::BOTH {
        let open = (row(player) & !closed_mask).count_ones();
        check.require(open > 0, "bosh.closed", || {
            format!(
                "{player} has no open hole: with fewer than 4 stones he has lost the match \
                 (§3.4 step 5)"
            )
        });
        let i = player.index();
        if let Some(&reserve) = setup.reserves.get(i) {
            check.require_at(
                open == ROW_HOLES as u32 || reserve < FOUR as u32,
                || format!("reserves[{i}]"),
                || {
                    format!(
                        "{player} has only {open} open holes, so his reserve is below 4: a hole is \
                         opened for every 4 stones (§3.4 steps 2-3)"
                    )
                },
            );
        }
    }
    let open = Player::BOTH.map(|p| (row(p) & !closed_mask).count_ones());
    check.require(setup.match_score == open, "match_score", || {
        format!(
            "Bosh's match score is each player's open holes this round: [{}, {}]",
            open[0], open[1]
        )
    });
    Some(closed_mask)
}

impl Bosh {
    /// §3.3, R-3.1: players alternate from the round's starter, and the player to move can move (else the round
    /// would have ended at the start of his turn).
    fn check_turn(&self, check: &mut Checker, mover: Player) {
        // Every move passes the turn (Bosh has no passes), so the ply's parity says whose turn it is.
        let starter = self.round_starter;
        let due = if self.ply % 2 == 0 {
            starter
        } else {
            starter.opponent()
        };
        check.require(mover == due, "to_move", || {
            format!(
                "{starter} started the round and {} moves were made, so {due} is to move",
                self.ply
            )
        });
        if self.open_holes(mover) == 0 {
            // Reported by check_closed_holes as a closed set without an open hole.
        } else if !self.has_stones(mover) {
            check.fail(
                "to_move",
                format!(
                    "{mover} has no stone in his open holes, so the round ended at the start of \
                     his turn (§3.3)"
                ),
            );
        } else {
            check.require_can_move(
                || self.can_move(mover),
                "to_move",
                || {
                    format!(
                    "every move of {mover} would never end, so he cannot move and the round ended \
                     (§1, §3.3)"
                )
                },
            );
        }
    }

    /// §3.3, §3.4 step 5: a finished round has an empty board, and its status and winner follow from the stores
    /// and reserves.
    fn check_round_end(&self, check: &mut Checker) {
        check.require(self.stones_on_board() == 0, "pits", || {
            "at the end of a round the stones left on the board have gone to the opponent of the \
             player who could not move (§3.3)"
                .into()
        });
        let (status, winner) = outcome_of_round(self.stores, self.reserves);
        // GAME_OVER is reported by check_shared_fields; what else is wrong still is worth saying.
        let game_over = self.status == Status::GameOver;
        check.require(game_over || status == self.status, "status", || {
            format!("with these stores and reserves the status is {status:?} (§3.4 step 5)")
        });
        check.require(winner == self.winner, "winner", || match winner {
            Some(p) => format!("with these stores and reserves the winner is {p}"),
            None => "with these stores and reserves there is no winner".into(),
        });
    }
}

impl Game for Bosh {
    const KIND: GameKind = GameKind::Bosh;

    fn new_match(options: &Options) -> Self {
        Bosh::round_of([FOUR; HOLES], 0, options.first_player)
    }

    fn from_setup(setup: &Setup) -> Result<Self, InvalidState> {
        validate::<Bosh, HOLES>(setup)
    }

    fn from_setup_before_move(setup: &Setup) -> Result<(Self, bool), InvalidState> {
        validate_before_move::<Bosh, HOLES>(setup)
    }

    fn view(&self) -> StateView<'_> {
        StateView {
            kind: GameKind::Bosh,
            pits: &self.pits,
            stores: &self.stores,
            reserves: &self.reserves,
            to_move: self.to_move,
            status: self.status,
            winner: self.winner,
            ply: self.ply,
            game_number: self.round,
            match_score: self.match_score().into(),
            variant: VariantView::Bosh {
                closed: std::array::from_fn(|hole| self.is_closed(hole)),
                round_starter: self.round_starter,
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

    fn sowing_candidates(&self) -> Option<u32> {
        let mover = self.to_move.filter(|_| self.status == Status::InProgress)?;
        let stones = (0..HOLES).fold(0u16, |bits, hole| {
            bits | u16::from(self.pits[hole] > 0) << hole
        });
        Some(u32::from(self.open_holes(mover) & stones))
    }

    /// §3.3's check at the start of a turn tries the player's sowings until one ends, and a random playout draws
    /// and plays one of them next anyway: the sowing it plays is the check (a playout made two sowings a turn).
    const DEFERS_TURN_CHECK: bool = true;

    fn play_unchecked(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        self.play_listing(mv, &mut LegalityOnly, None)?;
        // The move stopped once it was legal, before the turn passed on: it passes now, to the sowing's next player
        // or to the new round's starter, unchecked.
        self.to_move = match mv {
            Move::Sow(_) => self.to_move.map(Player::opponent),
            Move::NextGame(_) => Some(self.round_starter),
        };
        Ok(())
    }

    fn settle_turn(&mut self) {
        if let (Status::InProgress, Some(player)) = (self.status, self.to_move) {
            self.begin_turn(player, &mut NoTrace, None);
        }
    }

    fn legal_moves(&self, out: &mut MoveList) {
        match (self.status, self.to_move) {
            (Status::InProgress, Some(mover)) => self.list_sows(mover, out),
            (Status::RoundOver, _) => out.push(Move::NextGame(PitSet::EMPTY)),
            _ => {}
        }
    }

    fn end_across_turns<T: Trace>(&mut self, reason: EndReason, trace: &mut T) {
        if self.status == Status::InProgress {
            self.take_own_rows(reason, trace);
        }
    }

    /// §1 "Match length", Bosh: more stones in store and reserve.
    fn match_leader(&self) -> Option<Player> {
        let [south, north] = totals(self.stores, self.reserves);
        match south.cmp(&north) {
            std::cmp::Ordering::Greater => Some(Player::South),
            std::cmp::Ordering::Less => Some(Player::North),
            std::cmp::Ordering::Equal => None,
        }
    }

    fn play<T: Trace>(&mut self, mv: &Move, trace: &mut T) -> Result<(), IllegalMove> {
        self.play_listing(mv, trace, None)
    }

    fn play_listing<T: Trace>(
        &mut self,
        mv: &Move,
        trace: &mut T,
        listing: Option<&mut MoveList>,
    ) -> Result<(), IllegalMove> {
        match *mv {
            Move::Sow(sow) => self.play_sow(sow, trace, listing),
            Move::NextGame(choice) => self.refill_between_rounds(choice, trace, listing),
        }
    }
}

#[cfg(test)]
mod tests;
