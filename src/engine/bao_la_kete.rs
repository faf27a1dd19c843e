//! Bao la Kete (Lamu archipelago, Kenya): docs/bao-la-kete.md §2. Four rows of eight; each player sows round his own two
//! rows. In the nemo stage every move places one reserve seed; in the mtaji stage moves lift a hole. Captures
//! take the opponent's front-row hole facing the last seed and are sown back from a kichwa; the kuu (f5) is
//! taxed, stops a move or goes on safari; hizi zetu reserves a lone threatened hole for the next capture.
//!
//! Pits 0–7 are South's f1–f8, 8–15 South's b1–b8, 16–23 North's f1–f8 and 24–31 North's b1–b8, every row
//! numbered from its owner's own left (§2.2). South's f_i faces North's f_(9−i), so front hole `p` faces
//! `23 − p`. Each player's circuit (§2.2) runs `f1 → … → f8 → b8 → … → b1 → f1` clockwise.
//!
//! The module is split by the rulebook: `moves` decides which moves are legal (§2.5, §2.6 and the layered
//! obligation of §1), `execute` plays one (§2.7), `hizi_zetu` sets the mark (§2.8), `validate` checks a
//! client's state, and this file holds the state, the end of a game and of the match (§2.9) and the wire shape.

mod endless;
mod execute;
mod hizi_zetu;
mod moves;
#[cfg(test)]
mod tests;
mod validate;

use super::event::{EndReason, Event, Trace};
use super::illegal::check_between_games;
use super::setup::{
    pair_u8, validate, validate_before_move, Checker, InvalidState, Setup, StateView, Validate,
    VariantSetup, VariantView,
};
use super::sow::Ring;
use super::{
    can_move_listing, Direction, Game, GameKind, IllegalMove, Kichwa, Move, MoveList, Options,
    PerSeat, PitSet, Player, Reason, StarterRule, Status,
};
use execute::MoveEnd;

/// Holes on the board.
pub(crate) const PITS: usize = 32;
/// Seeds in a game: 10 on the board and 22 in reserve per player (§2.2).
const SEEDS: u8 = 64;
/// Reserve seeds per player at the start (§2.2).
const RESERVE: u8 = 22;
/// Holes per player: his circuit.
const CIRCUIT: u8 = 16;
/// Holes per row.
const ROW: u8 = 8;
/// The kuu is f5, the fifth front hole from its owner's left (§2.2).
const KUU_OFFSET: u8 = 4;
/// A living kuu never holds fewer; a lone kuu holding exactly this many is emptied (§2.5 N-2).
const KUU_MIN: u8 = 6;
/// Seeds lifted by taxation (§2.5 N-2, R-2.6).
const TAX: u8 = 2;
/// A capture move starts from 2 to this many seeds (§2.4, 16-seed rule).
const MAX_CAPTURE_HAND: u8 = 15;
/// Games won to win the match (§2.9).
const WINS_FOR_MATCH: u8 = 2;
/// Each player's front row at the start; back rows are empty (§2.2).
const OPENING_FRONT: [u8; ROW as usize] = [0, 0, 0, 0, 6, 2, 2, 0];

const _: () = assert!(SEEDS as usize <= u8::MAX as usize, "hole counts are u8");

/// A hole reserved by hizi zetu (§2.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HiziZetuMark {
    /// The player whose hole is marked: he may not start from it, and a lap of his ending there stops.
    pub blockee: Player,
    /// The marked hole, in the blockee's front row.
    pub pit: u8,
    /// The player who set it: his next move must capture it first.
    pub setter: Player,
}

/// A Bao la Kete game and the best-of-three match it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaoLaKete {
    pits: [u8; PITS],
    /// Reserve seeds still to be placed, `[South, North]`.
    reserves: [u8; 2],
    /// Seeds of a winning capture, which are not sown (§2.7 B2); otherwise 0.
    stores: [u8; 2],
    kuu_alive: [bool; 2],
    mark: Option<HiziZetuMark>,
    to_move: Option<Player>,
    status: Status,
    /// The game's winner (game over) or the match's (match over).
    winner: Option<Player>,
    /// Who began this game.
    game_starter: Player,
    /// Who begins games 2 and 3: a match option the state carries from game to game.
    starter_rule: StarterRule,
    ply: u32,
    game_number: u32,
    /// Games won, `[South, North]`.
    match_score: [u8; 2],
}

// ---- Board geometry (§2.2) ----

/// The first pit of `player`'s sixteen holes.
const fn base(player: Player) -> u8 {
    match player {
        Player::South => 0,
        // East sits only in three-player Ba-awa, never at this board.
        Player::North | Player::East => CIRCUIT,
    }
}

/// The player whose circuit holds `pit`.
fn owner(pit: u8) -> Player {
    if pit < CIRCUIT {
        Player::South
    } else {
        Player::North
    }
}

/// The position of `pit` in its owner's rows: 0–7 for f1–f8, 8–15 for b1–b8.
fn offset(pit: u8) -> u8 {
    pit % CIRCUIT
}

fn is_front(pit: u8) -> bool {
    offset(pit) < ROW
}

/// The opponent's front hole facing front hole `pit` (§2.2: f_i faces f_(9−i)).
fn opposite(pit: u8) -> u8 {
    (2 * CIRCUIT - ROW - 1) - pit
}

fn kuu(player: Player) -> u8 {
    base(player) + KUU_OFFSET
}

/// f1 or f8.
fn is_kichwa(pit: u8) -> bool {
    matches!(offset(pit), 0 | 7)
}

/// f3–f6: a capture here lets a nemo mover choose the kichwa (§2.7 B3).
fn is_central(pit: u8) -> bool {
    matches!(offset(pit), 2..=5)
}

fn front_row(player: Player) -> std::ops::Range<u8> {
    base(player)..base(player) + ROW
}

fn circuit(player: Player) -> std::ops::Range<u8> {
    base(player)..base(player) + CIRCUIT
}

/// The position of an own hole on its owner's circuit: `k = i−1` for f_i and `k = 16−i` for b_i (§2.2).
const fn circuit_index(pit: u8) -> u8 {
    let r = pit % CIRCUIT;
    if r < ROW {
        r
    } else {
        3 * ROW - 1 - r
    }
}

/// The hole at circuit position `k` of the player whose holes start at `base`.
const fn hole_at(base: u8, k: u8) -> u8 {
    let k = k % CIRCUIT;
    base + if k < ROW { k } else { 3 * ROW - 1 - k }
}

/// The hole `n` steps from `pit` along its owner's circuit.
fn step(pit: u8, dir: Direction, n: u8) -> u8 {
    let dir = match dir {
        Direction::Clockwise => 0,
        Direction::Anticlockwise => 1,
    };
    STEPS[pit as usize][dir][(n % CIRCUIT) as usize]
}

/// `STEPS[pit][direction][n]`: the hole `n` steps from `pit`, clockwise then anticlockwise (move generation
/// asks this for every hole and direction, so it is a table).
const STEPS: [[[u8; CIRCUIT as usize]; 2]; PITS] = {
    let mut steps = [[[0u8; CIRCUIT as usize]; 2]; PITS];
    let mut pit = 0;
    while pit < PITS {
        let p = pit as u8;
        let (k, base) = (circuit_index(p), p - p % CIRCUIT);
        let mut n = 0;
        while n < CIRCUIT {
            steps[pit][0][n as usize] = hole_at(base, k + n);
            steps[pit][1][n as usize] = hole_at(base, k + CIRCUIT - n);
            n += 1;
        }
        pit += 1;
    }
    steps
};

/// One player's circuit in one direction; the other player's holes point at themselves and are never used.
const fn ring(player_base: u8, clockwise: bool) -> Ring<PITS> {
    let mut next = [0u8; PITS];
    let mut i = 0;
    while i < PITS {
        next[i] = i as u8;
        i += 1;
    }
    let mut k = 0;
    while k < CIRCUIT {
        let to = if clockwise { k + 1 } else { k + CIRCUIT - 1 };
        next[hole_at(player_base, k) as usize] = hole_at(player_base, to);
        k += 1;
    }
    Ring::from_table(next)
}

/// `RINGS[player][direction]`: South then North; clockwise then anticlockwise.
const RINGS: [[Ring<PITS>; 2]; 2] = [
    [ring(0, true), ring(0, false)],
    [ring(CIRCUIT, true), ring(CIRCUIT, false)],
];

fn ring_of(player: Player, dir: Direction) -> &'static Ring<PITS> {
    &RINGS[player.index()][match dir {
        Direction::Clockwise => 0,
        Direction::Anticlockwise => 1,
    }]
}

/// The eight holes from `first` as one word, the first in the lowest byte.
#[inline(always)]
fn row_word(pits: &[u8; PITS], first: usize) -> u64 {
    let mut row = [0u8; ROW as usize];
    row.copy_from_slice(&pits[first..first + ROW as usize]);
    u64::from_le_bytes(row)
}

fn reverse(dir: Direction) -> Direction {
    match dir {
        Direction::Clockwise => Direction::Anticlockwise,
        Direction::Anticlockwise => Direction::Clockwise,
    }
}

/// The kichwa captured seeds start from when sown in `dir` (§2.7 B3): clockwise from f1, anticlockwise from f8.
fn kichwa_for(dir: Direction) -> Kichwa {
    match dir {
        Direction::Clockwise => Kichwa::Left,
        Direction::Anticlockwise => Kichwa::Right,
    }
}

fn direction_from(kichwa: Kichwa) -> Direction {
    match kichwa {
        Kichwa::Left => Direction::Clockwise,
        Kichwa::Right => Direction::Anticlockwise,
    }
}

impl BaoLaKete {
    /// Seeds in each hole, in wire order.
    pub fn pits(&self) -> &[u8; PITS] {
        &self.pits
    }

    /// Reserve seeds still to be placed, `[South, North]`.
    pub fn reserves(&self) -> [u8; 2] {
        self.reserves
    }

    /// Seeds of a winning capture, `[South, North]` (0 at every other moment).
    pub fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// Whether each player's kuu still lives, `[South, North]`.
    pub fn kuu_alive(&self) -> [bool; 2] {
        self.kuu_alive
    }

    /// The hizi-zetu mark, when one is set.
    pub fn mark(&self) -> Option<HiziZetuMark> {
        self.mark
    }

    /// Games won, `[South, North]`.
    pub fn match_score(&self) -> [u8; 2] {
        self.match_score
    }

    /// Whether `player` moves in the nemo stage: his reserve still holds seeds (§2.3).
    fn is_nemo(&self, player: Player) -> bool {
        self.reserves[player.index()] > 0
    }

    /// `player`'s front row, f1 in the lowest byte: the row-wide questions of §2.5–§2.7 become one test.
    fn front_word(&self, player: Player) -> u64 {
        row_word(&self.pits, base(player) as usize)
    }

    fn front_occupied(&self, player: Player) -> bool {
        self.front_word(player) != 0
    }

    /// Whether a front hole of `player` other than `pit` holds a seed.
    fn front_occupied_besides(&self, player: Player, pit: u8) -> bool {
        self.front_word(player) & !(0xFF << (8 * offset(pit) as u32)) != 0
    }

    /// Whether a front hole of `player` holds two seeds or more.
    fn front_has_two(&self, player: Player) -> bool {
        self.front_word(player) & 0xFEFE_FEFE_FEFE_FEFE != 0
    }

    #[cfg(test)]
    fn seeds_in_play(&self) -> u32 {
        let board: u32 = self.pits.iter().map(|&s| s as u32).sum();
        board
            + self
                .reserves
                .iter()
                .chain(&self.stores)
                .map(|&s| s as u32)
                .sum::<u32>()
    }

    /// §2.2: the opening position of a game begun by `starter`.
    fn opening(
        starter: Player,
        starter_rule: StarterRule,
        game_number: u32,
        match_score: [u8; 2],
    ) -> BaoLaKete {
        let mut pits = [0u8; PITS];
        for player in Player::BOTH {
            let b = base(player) as usize;
            pits[b..b + ROW as usize].copy_from_slice(&OPENING_FRONT);
        }
        BaoLaKete {
            pits,
            reserves: [RESERVE; 2],
            stores: [0, 0],
            kuu_alive: [true, true],
            mark: None,
            to_move: Some(starter),
            status: Status::InProgress,
            winner: None,
            game_starter: starter,
            starter_rule,
            ply: 0,
            game_number,
            match_score,
        }
    }

    /// §2.8 clearing: the mark goes as soon as its hole is captured or emptied, and at the end of the
    /// setter's next move.
    fn clear_mark<T: Trace>(&mut self, trace: &mut T) {
        if let Some(mark) = self.mark.take() {
            trace.record(Event::MarkCleared {
                blockee: mark.blockee,
                pit: mark.pit,
                setter: mark.setter,
            });
        }
    }

    /// After a move that ended normally (§2.7 "After the move"): the setter's mark is cleared, a takata in the
    /// mtaji stage may set a new one (§2.8, R-2.10), and the opponent moves, losing if he cannot (§2.9). Given a
    /// `listing`, that last check lists the opponent's moves into it instead of stopping at the first
    /// (`play_and_list`).
    fn finish_move<T: Trace>(
        &mut self,
        mover: Player,
        was_capture: bool,
        end: MoveEnd,
        trace: &mut T,
        listing: Option<&mut MoveList>,
    ) {
        self.ply = self.ply.saturating_add(1);
        match end {
            MoveEnd::BaoHamna => self.end_game(mover, EndReason::BaoHamna, trace),
            MoveEnd::OwnFrontRowEmptied => {
                self.end_game(mover.opponent(), EndReason::OwnFrontRowEmptied, trace)
            }
            MoveEnd::Normal => {
                if self.mark.is_some_and(|m| m.setter == mover) {
                    self.clear_mark(trace);
                }
                // A standing mark is the opponent's, set against this mover: its setter can capture it, so
                // the new evaluation would find a threat to the mover's hole and set nothing (§2.8: at most
                // one mark).
                if !was_capture && self.reserves == [0, 0] && self.mark.is_none() {
                    self.set_hizi_zetu(mover, trace);
                }
                let opponent = mover.opponent();
                self.to_move = Some(opponent);
                let can_move = can_move_listing(
                    listing,
                    |out| self.collect_legal_moves(opponent, out),
                    || self.has_legal_move(opponent),
                );
                if !can_move {
                    self.end_game(mover, EndReason::NoLegalMove, trace);
                }
            }
        }
    }

    /// §2.9: `winner` wins the game; the match ends when he has won two.
    fn end_game<T: Trace>(&mut self, winner: Player, reason: EndReason, trace: &mut T) {
        self.clear_mark(trace);
        self.to_move = None;
        self.winner = Some(winner);
        self.match_score[winner.index()] += 1;
        trace.record(Event::GameEnd {
            reason,
            winner: Some(winner),
            collector: None,
            collected: 0,
            stores: self.stores.into(),
        });
        if self.match_score[winner.index()] >= WINS_FOR_MATCH {
            self.status = Status::MatchOver;
            trace.record(Event::MatchEnd {
                winner: Some(winner),
                score: self.match_score.into(),
                placing: PerSeat::NONE,
            });
        } else {
            self.status = Status::GameOver;
        }
    }

    /// §1 "How such a game ends", Bao la Kete: the player with more seeds (his 16 holes and his reserve) wins the
    /// game; with equal seeds it is drawn and counts for neither.
    fn end_by_seeds<T: Trace>(&mut self, reason: EndReason, trace: &mut T) {
        let seeds = |player: Player| -> u32 {
            let holes: u32 = circuit(player)
                .map(|pit| self.pits[pit as usize] as u32)
                .sum();
            holes + self.reserves[player.index()] as u32
        };
        match seeds(Player::South).cmp(&seeds(Player::North)) {
            std::cmp::Ordering::Greater => self.end_game(Player::South, reason, trace),
            std::cmp::Ordering::Less => self.end_game(Player::North, reason, trace),
            std::cmp::Ordering::Equal => {
                self.clear_mark(trace);
                self.to_move = None;
                self.winner = None;
                self.status = Status::GameOver;
                trace.record(Event::GameEnd {
                    reason,
                    winner: None,
                    collector: None,
                    collected: 0,
                    stores: self.stores.into(),
                });
            }
        }
    }

    /// §2.9, R-2.12: the next game of the match starts from the opening position, begun by the player the
    /// match's starter rule names: the other player than last time (the default), the loser or the winner.
    fn start_next_game(&mut self, choice: PitSet) -> Result<(), IllegalMove> {
        check_between_games(
            self.status,
            "the game is still being played; the next game starts when it is over",
        )?;
        if !choice.is_empty() {
            return Err(IllegalMove::new(
                Reason::InvalidChoice,
                "a Bao la Kete game always starts from the opening position; NextGame takes no pits",
            ));
        }
        // A game ends with a winner (§2.9) but for one drawn by repetition or agreement (§1), after which the
        // other player than last time begins whatever the starter rule: names a loser or a winner, and a
        // drawn game has neither.
        let starter = match (self.starter_rule, self.winner) {
            (StarterRule::LoserStarts, Some(winner)) => winner.opponent(),
            (StarterRule::WinnerStarts, Some(winner)) => winner,
            _ => self.game_starter.opponent(),
        };
        *self = BaoLaKete::opening(
            starter,
            self.starter_rule,
            self.game_number + 1,
            self.match_score,
        );
        Ok(())
    }

    fn play_sow<T: Trace>(
        &mut self,
        sow: super::Sow,
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
        let (start, choices) = self.check_sow(mover, &sow)?;
        let mut next = self.clone();
        let mark = trace.mark();
        match next.run(mover, start, choices, trace) {
            Ok(ran) if sow.kuu_decision.is_some() && !ran.decision_used => {
                trace.rollback(mark);
                Err(IllegalMove::at(
                    Reason::ChoiceNotOffered,
                    sow.pit,
                    moves::DECISION_NOT_REACHED,
                ))
            }
            Ok(ran) => {
                if T::FINISHES_MOVE {
                    next.finish_move(mover, start.is_capture(), ran.end, trace, listing);
                }
                *self = next;
                Ok(())
            }
            Err(halt) => {
                trace.rollback(mark);
                Err(moves::refusal(halt, sow.pit))
            }
        }
    }
}

impl Game for BaoLaKete {
    const KIND: GameKind = GameKind::BaoLaKete;

    fn new_match(options: &Options) -> Self {
        // East sits only in three-player Ba-awa; the protocol layer refuses him here.
        let first = match options.first_player {
            Player::East => Player::South,
            player => player,
        };
        BaoLaKete::opening(first, options.bao_la_kete_starter, 1, [0, 0])
    }

    fn from_setup(setup: &Setup) -> Result<Self, InvalidState> {
        validate::<BaoLaKete, PITS>(setup)
    }

    fn from_setup_before_move(setup: &Setup) -> Result<(Self, bool), InvalidState> {
        validate_before_move::<BaoLaKete, PITS>(setup)
    }

    fn view(&self) -> StateView<'_> {
        let mtaji = match self.to_move {
            Some(mover) => !self.is_nemo(mover),
            None => self.reserves == [0, 0],
        };
        StateView {
            kind: GameKind::BaoLaKete,
            pits: &self.pits,
            stores: &self.stores,
            reserves: &self.reserves,
            to_move: self.to_move,
            status: self.status,
            winner: self.winner,
            ply: self.ply,
            game_number: self.game_number,
            match_score: self.match_score.into(),
            variant: VariantView::BaoLaKete {
                mtaji,
                kuu_alive: self.kuu_alive,
                mark: self.mark.map(|m| (m.blockee, u32::from(m.pit), m.setter)),
                game_starter: self.game_starter,
                starter_rule: self.starter_rule,
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
            (Status::InProgress, Some(mover)) => self.collect_legal_moves(mover, out),
            (Status::GameOver, _) => out.push(Move::NextGame(PitSet::EMPTY)),
            _ => {}
        }
    }

    fn end_across_turns<T: Trace>(&mut self, reason: EndReason, trace: &mut T) {
        if self.status == Status::InProgress {
            self.end_by_seeds(reason, trace);
        }
    }

    /// §1 "Match length", Bao la Kete: more games won.
    fn match_leader(&self) -> Option<Player> {
        let [south, north] = self.match_score;
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
            // A new game opens with the same moves every time; nothing to list on the way.
            Move::NextGame(choice) => self.start_next_game(choice),
        }
    }
}
