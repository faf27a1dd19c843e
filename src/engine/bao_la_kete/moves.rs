//! Which moves are legal: docs/bao-la-kete.md §2.5 (nemo), §2.6 (mtaji) and the layered obligation of docs/common.md §1 — captures of a
//! hizi-zetu-marked hole, then any capture, then takata; the first layer holding a move that ends is the set of
//! legal moves. `play` gives the specific rule a refused move breaks. Capture moves always end (see the test
//! `capture_moves_always_end` for why), so in practice only takatas are ever dropped as never-ending.

use super::execute::Halt;
use super::{
    base, circuit, circuit_index, is_central, is_front, is_kichwa, kuu, offset, opposite, owner,
    row_word, step, BaoLaKete, CIRCUIT, KUU_OFFSET, MAX_CAPTURE_HAND, ROW,
};
use crate::engine::{
    Direction, IllegalMove, Kichwa, KuuDecision, Move, MoveList, NoTrace, PitSet, Player, Reason,
    Sow,
};
#[cfg(test)]
use arrayvec::ArrayVec;

mod refusals;
#[cfg(test)]
mod tests;

use self::refusals::*;
pub(crate) use self::refusals::{refusal, DECISION_NOT_REACHED};

/// How a move starts (§2.7 "Start"), before the choices made along the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// Nemo: the reserve seed goes into front hole `pit`, whose facing hole is occupied, and captures (N-1).
    NemoCapture { pit: u8 },
    /// Nemo: the reserve seed goes into `pit`, which is then lifted (or taxed) and sown in `dir` (N-2).
    NemoTakata { pit: u8, dir: Direction },
    /// Mtaji: `pit` is lifted and sown in `dir`; `capturing` when the first lap captures (M-1).
    Mtaji {
        pit: u8,
        dir: Direction,
        capturing: bool,
    },
}

impl Start {
    pub(crate) fn pit(self) -> u8 {
        match self {
            Start::NemoCapture { pit }
            | Start::NemoTakata { pit, .. }
            | Start::Mtaji { pit, .. } => pit,
        }
    }

    pub(crate) fn is_capture(self) -> bool {
        matches!(
            self,
            Start::NemoCapture { .. }
                | Start::Mtaji {
                    capturing: true,
                    ..
                }
        )
    }

    fn direction(self) -> Option<Direction> {
        match self {
            Start::NemoCapture { .. } => None,
            Start::NemoTakata { dir, .. } | Start::Mtaji { dir, .. } => Some(dir),
        }
    }
}

/// The choices a move carries beyond its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Choices {
    pub(crate) kichwa: Option<Kichwa>,
    pub(crate) decision: Option<KuuDecision>,
}

/// The layers of the obligation (§1, §2.6 M-1, §2.8), strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layer {
    /// Captures whose first capture is the hole the mover marked.
    MarkedCaptures,
    /// Every capture move.
    Captures,
    /// Moves that capture nothing.
    Takatas,
}

const LAYERS: [Layer; 3] = [Layer::MarkedCaptures, Layer::Captures, Layer::Takatas];
const DIRECTIONS: [Direction; 2] = [Direction::Clockwise, Direction::Anticlockwise];

/// Starts of one layer: at most 16 holes × 2 directions.
#[cfg(test)]
pub(crate) type Starts = ArrayVec<Start, 32>;

/// Bit `i` set when byte `i` of a row (one hole a byte) is not 0. Without a loop: the high bit of each byte
/// says whether it is occupied (adding 0x7F to its low bits carries into it), and one multiplication gathers
/// the eight high bits into the top byte, byte `i`'s at bit `56 + i` (the partial products never overlap, so
/// nothing carries).
#[inline(always)]
fn occupied_bits(row: u64) -> u32 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let nonzero = ((row & LOW7).wrapping_add(LOW7) | row) & !LOW7;
    ((nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Bit `i` set when byte `i` of a row holds two seeds or more (its bits above the lowest are not all 0).
#[inline(always)]
fn two_or_more_bits(row: u64) -> u32 {
    occupied_bits(row & 0xFEFE_FEFE_FEFE_FEFE)
}

/// `POSITION[i]`: the circuit position (`circuit_index`) of the hole at offset `i` of a player's rows.
const POSITION: [u8; CIRCUIT as usize] = {
    let mut position = [0u8; CIRCUIT as usize];
    let mut i = 0;
    while i < CIRCUIT {
        position[i as usize] = circuit_index(i);
        i += 1;
    }
    position
};

/// The start holes of one layer for one player, found for all his holes at once: per direction (clockwise,
/// then anticlockwise) bit `i` for the hole at offset `i` of his rows (f1–f8, then b1–b8). A nemo capture has
/// no direction: its holes are in the clockwise set, the other is empty.
pub(crate) type StartSets = [u16; 2];

/// Which of a layer's two sets holds `start`: the anticlockwise one for an anticlockwise move.
fn set_index(start: Start) -> usize {
    usize::from(start.direction() == Some(Direction::Anticlockwise))
}

/// The offsets of the set bits of `set`, lowest first.
fn bits(mut set: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as u8;
            set &= set - 1;
            i
        })
    })
}

impl BaoLaKete {
    /// §2.4: `mover`'s front holes where the last seed of a lap captures — occupied, and facing an occupied
    /// hole — one bit per pit. Move generation asks this of every hole and direction, so it is one word test.
    fn capture_holes(&self, mover: Player) -> u32 {
        // f_i faces the opponent's f_(9−i): his row read backwards.
        let facing = self.front_word(mover.opponent()).swap_bytes();
        (occupied_bits(self.front_word(mover)) & occupied_bits(facing)) << base(mover)
    }

    /// §2.5 N-1: a nemo seed into `pit` captures when the hole is occupied and faces an occupied hole.
    fn is_nemo_capture_hole(&self, pit: u8) -> bool {
        self.capture_holes(owner(pit)) & (1 << pit) != 0
    }

    /// §2.6 M-1: the opponent's hole that a mtaji move from `pit` in `dir` captures with its first lap, if it
    /// captures: 2–15 seeds whose last lands in an occupied front hole facing an occupied hole. With at most 15
    /// seeds the lap never comes back to `pit`, so the landing hole's count is its count before the move.
    pub(crate) fn mtaji_first_capture(&self, pit: u8, dir: Direction) -> Option<u8> {
        self.first_capture_landing_in(self.capture_holes(owner(pit)), pit, dir)
    }

    /// `mtaji_first_capture` with the owner's `capture_holes` at hand.
    fn first_capture_landing_in(&self, capture_holes: u32, pit: u8, dir: Direction) -> Option<u8> {
        let seeds = self.pits[pit as usize];
        if !(2..=MAX_CAPTURE_HAND).contains(&seeds) {
            return None;
        }
        let landing = step(pit, dir, seeds);
        (capture_holes & (1 << landing) != 0).then(|| opposite(landing))
    }

    /// The opponent's hole a capture move captures first.
    fn first_capture(&self, start: Start) -> Option<u8> {
        match start {
            Start::NemoCapture { pit } => Some(opposite(pit)),
            Start::Mtaji {
                pit,
                dir,
                capturing: true,
            } => self.mtaji_first_capture(pit, dir),
            _ => None,
        }
    }

    /// §2.8: the blockee may not start from the marked hole.
    fn is_marked_for(&self, mover: Player, pit: u8) -> bool {
        self.mark
            .is_some_and(|m| m.blockee == mover && m.pit == pit)
    }

    /// The hole the mover must capture first, when his last takata marked one (§2.8).
    fn own_mark(&self, mover: Player) -> Option<u8> {
        self.mark.filter(|m| m.setter == mover).map(|m| m.pit)
    }

    /// The offset bit of the hole marked against `mover`, from which he may start nothing (§2.8); else 0.
    fn blocked_bits(&self, mover: Player) -> u16 {
        match self.mark {
            Some(m) if m.blockee == mover => 1 << offset(m.pit),
            _ => 0,
        }
    }

    /// The starts of layer `Captures` (§2.5 N-1, §2.6 M-1), all of them in one pass: in the nemo stage the
    /// capture holes themselves, in the mtaji stage the holes whose first lap ends in one. The marked hole
    /// starts nothing.
    pub(crate) fn capture_starts(&self, mover: Player) -> StartSets {
        // Front offsets are circuit positions 0–7.
        let holes = self.capture_holes(mover) >> base(mover);
        let blocked = self.blocked_bits(mover);
        if self.is_nemo(mover) {
            return [holes as u16 & !blocked, 0];
        }
        let [clockwise, anticlockwise] = self.first_laps_ending_in(mover, holes);
        [clockwise & !blocked, anticlockwise & !blocked]
    }

    /// §2.6 M-1 for every hole and direction at once: the holes of 2 to 15 seeds whose first lap (which never
    /// comes back to its start) ends at one of the circuit positions in `targets`, as `first_capture_landing_in`
    /// asks of one.
    fn first_laps_ending_in(&self, mover: Player, targets: u32) -> StartSets {
        let own = base(mover) as usize;
        let mut sets = [0u16; 2];
        for (i, &k) in POSITION.iter().enumerate() {
            let seeds = self.pits[own + i];
            let hand = u32::from((2..=MAX_CAPTURE_HAND).contains(&seeds));
            let clockwise = k.wrapping_add(seeds) % CIRCUIT;
            let anticlockwise = k.wrapping_sub(seeds) % CIRCUIT;
            sets[0] |= ((targets >> clockwise & hand) as u16) << i;
            sets[1] |= ((targets >> anticlockwise & hand) as u16) << i;
        }
        sets
    }

    /// The starts of layer `MarkedCaptures` (§2.8, R-2.9): those of `captures` (the mover's capture starts)
    /// whose first capture is the hole he marked on his previous turn; none without a mark.
    fn marked_capture_starts(&self, mover: Player, captures: StartSets) -> StartSets {
        let Some(marked) = self.own_mark(mover) else {
            return [0, 0];
        };
        let mut sets = [0u16; 2];
        self.first_start_in(mover, Layer::Captures, captures, |start| {
            if self.first_capture(start) == Some(marked) {
                sets[set_index(start)] |= 1 << offset(start.pit());
            }
            false
        });
        sets
    }

    /// The starts of layer `Takatas`, given the mover's `captures` (a hole and direction that captures is no
    /// takata): the holes §2.5 N-2 or §2.6 M-2 allow (`check_takata_hole`), in the directions the lone-kichwa
    /// rule allows (`check_takata_direction`), as word tests on the rows.
    fn takata_starts(&self, mover: Player, captures: StartSets) -> StartSets {
        const KUU: u16 = 1 << KUU_OFFSET;
        let front = self.front_word(mover);
        let occupied = occupied_bits(front) as u16;
        let two = two_or_more_bits(front) as u16;
        let kuu_alive = self.kuu_alive[mover.index()];
        let blocked = self.blocked_bits(mover);
        let mut sets = if self.is_nemo(mover) {
            // N-2: any occupied front hole but the kuu while it lives (the kuu only when alone); once it is
            // dead, the holes of two seeds or more when there are some.
            let allowed = match (kuu_alive, two) {
                (true, _) if occupied & !KUU != 0 => occupied & !KUU,
                (true, _) | (false, 0) => occupied,
                (false, _) => two,
            };
            // A nemo capture hole captures in both directions.
            let holes = allowed & !blocked & !captures[0];
            [holes, holes]
        } else {
            // M-2: two seeds or more; from the living kuu alone; from the back row only when the front row
            // holds nothing but single seeds.
            let back = row_word(&self.pits, (base(mover) + ROW) as usize);
            let allowed = match (kuu_alive, two) {
                (true, _) => two & KUU,
                (false, 0) => (two_or_more_bits(back) as u16) << ROW,
                (false, _) => two,
            } & !blocked;
            [allowed & !captures[0], allowed & !captures[1]]
        };
        // The lone kichwa is sown toward the centre: f1 clockwise, f8 anticlockwise.
        const F1: u16 = 1;
        const F8: u16 = 1 << (ROW - 1);
        if occupied & !F1 == 0 {
            sets[1] &= !F1;
        }
        if occupied & !F8 == 0 {
            sets[0] &= !F8;
        }
        sets
    }

    /// The first start of `sets` (of `layer`) that `wanted` accepts, in hole order, clockwise first.
    fn first_start_in(
        &self,
        mover: Player,
        layer: Layer,
        sets: StartSets,
        mut wanted: impl FnMut(Start) -> bool,
    ) -> Option<Start> {
        let (nemo, own) = (self.is_nemo(mover), base(mover));
        let start_at = |pit, dir| match (nemo, layer) {
            (true, Layer::Takatas) => Start::NemoTakata { pit, dir },
            (true, _) => Start::NemoCapture { pit },
            (false, _) => Start::Mtaji {
                pit,
                dir,
                capturing: layer != Layer::Takatas,
            },
        };
        for i in bits(sets[0] | sets[1]) {
            let pit = own + i;
            if sets[0] & (1 << i) != 0 {
                let start = start_at(pit, Direction::Clockwise);
                if wanted(start) {
                    return Some(start);
                }
            }
            if sets[1] & (1 << i) != 0 {
                let start = start_at(pit, Direction::Anticlockwise);
                if wanted(start) {
                    return Some(start);
                }
            }
        }
        None
    }

    /// Whether a start hole for a takata is allowed, ignoring the direction (§2.5 N-2, §2.6 M-2).
    fn check_takata_hole(&self, mover: Player, pit: u8) -> Result<(), IllegalMove> {
        let me = mover.index();
        let seeds = self.pits[pit as usize];
        let refuse = |reason, detail| Err(IllegalMove::at(reason, pit, detail));
        let front_has_two = self.front_has_two(mover);
        if self.is_nemo(mover) {
            if !is_front(pit) {
                return refuse(Reason::HoleNotAllowed, NEMO_FRONT_ONLY);
            }
            if seeds == 0 {
                return refuse(Reason::PitEmpty, NEMO_EMPTY);
            }
            if self.is_marked_for(mover, pit) {
                return refuse(Reason::HoleMarkedHiziZetu, MARKED);
            }
            if self.kuu_alive[me] {
                // Any occupied front hole but the kuu, singletons included; the kuu only when alone.
                if pit == kuu(mover) && self.front_occupied_besides(mover, pit) {
                    return refuse(
                        Reason::KuuNotAllowedWhileOtherHolesOccupied,
                        NEMO_KUU_NOT_ALONE,
                    );
                }
            } else if seeds == 1 && front_has_two {
                return refuse(Reason::SingletonNotAllowed, NEMO_SINGLETON);
            }
        } else {
            if seeds == 0 {
                return refuse(Reason::PitEmpty, EMPTY);
            }
            if self.is_marked_for(mover, pit) {
                return refuse(Reason::HoleMarkedHiziZetu, MARKED);
            }
            if seeds == 1 {
                return refuse(Reason::SingletonNotAllowed, MTAJI_SINGLETON);
            }
            if self.kuu_alive[me] {
                if pit != kuu(mover) {
                    return refuse(Reason::KuuMustStartTakata, KUU_MUST_START);
                }
            } else if !is_front(pit) && front_has_two {
                return refuse(Reason::HoleNotAllowed, MTAJI_BACK_ROW);
            }
        }
        Ok(())
    }

    /// §2.5 N-2 lone-kichwa rule (both stages): a kichwa that is the only occupied front hole is sown toward
    /// the centre, so that the first lap never empties the front row.
    fn check_takata_direction(
        &self,
        mover: Player,
        pit: u8,
        dir: Direction,
    ) -> Result<(), IllegalMove> {
        let alone = is_front(pit) && !self.front_occupied_besides(mover, pit);
        let toward_centre = match offset(pit) {
            0 => Direction::Clockwise,
            _ => Direction::Anticlockwise,
        };
        if is_kichwa(pit) && alone && dir != toward_centre {
            return Err(IllegalMove::at(
                Reason::MustSowTowardCentre,
                pit,
                TOWARD_CENTRE,
            ));
        }
        Ok(())
    }

    /// The starts of `layer` for `mover`, in hole order, clockwise first, found hole by hole: the reference the
    /// start sets of the listing are tested against.
    #[cfg(test)]
    pub(crate) fn starts(&self, mover: Player, layer: Layer, out: &mut Starts) {
        self.find_start(mover, layer, |start| {
            out.push(start);
            false
        });
    }

    /// The first start of `layer` for `mover` (in the order of `starts`) that `wanted` accepts.
    #[cfg(test)]
    fn find_start(
        &self,
        mover: Player,
        layer: Layer,
        mut wanted: impl FnMut(Start) -> bool,
    ) -> Option<Start> {
        let nemo = self.is_nemo(mover);
        let marked = self.own_mark(mover);
        if layer == Layer::MarkedCaptures && marked.is_none() {
            return None;
        }
        let capture_holes = self.capture_holes(mover);
        let holes = if nemo {
            super::front_row(mover)
        } else {
            circuit(mover)
        };
        for pit in holes {
            if self.is_marked_for(mover, pit) {
                continue;
            }
            if nemo {
                let capture = capture_holes & (1 << pit) != 0;
                match layer {
                    Layer::MarkedCaptures | Layer::Captures if capture => {
                        let start = Start::NemoCapture { pit };
                        if (layer == Layer::Captures || self.first_capture(start) == marked)
                            && wanted(start)
                        {
                            return Some(start);
                        }
                    }
                    Layer::Takatas if !capture && self.check_takata_hole(mover, pit).is_ok() => {
                        for dir in DIRECTIONS {
                            let start = Start::NemoTakata { pit, dir };
                            if self.check_takata_direction(mover, pit, dir).is_ok() && wanted(start)
                            {
                                return Some(start);
                            }
                        }
                    }
                    _ => {}
                }
                continue;
            }
            // Whether the hole may start a takata is the same in both directions: asked once, when needed.
            let mut takata_hole = None;
            for dir in DIRECTIONS {
                let first = self.first_capture_landing_in(capture_holes, pit, dir);
                let take = match layer {
                    Layer::MarkedCaptures => first.is_some() && first == marked,
                    Layer::Captures => first.is_some(),
                    Layer::Takatas => {
                        first.is_none()
                            && *takata_hole
                                .get_or_insert_with(|| self.check_takata_hole(mover, pit).is_ok())
                            && self.check_takata_direction(mover, pit, dir).is_ok()
                    }
                };
                let start = Start::Mtaji {
                    pit,
                    dir,
                    capturing: first.is_some(),
                };
                if take && wanted(start) {
                    return Some(start);
                }
            }
        }
        None
    }

    /// The kichwa choices a start offers: both for a nemo capture at a central hole, none otherwise.
    fn kichwa_options(start: Start) -> &'static [Option<Kichwa>] {
        match start {
            Start::NemoCapture { pit } if is_central(pit) => {
                &[Some(Kichwa::Left), Some(Kichwa::Right)]
            }
            _ => &[None],
        }
    }

    /// Plays `start` for whether it ends: most moves on the board alone (`trial_early`), the long ones on a
    /// copy of the game, without a trace.
    fn trial(&self, mover: Player, start: Start, choices: Choices) -> Result<(), Halt> {
        self.trial_early(mover, start, choices).unwrap_or_else(|| {
            self.clone()
                .run(mover, start, choices, &mut NoTrace)
                .map(|_| ())
        })
    }

    /// Every complete move (with its choices) of `start` that ends, in a fixed order: left kichwa first, stop
    /// before safari.
    fn for_each_ending_variant(&self, mover: Player, start: Start, mut emit: impl FnMut(Move)) {
        for &kichwa in BaoLaKete::kichwa_options(start) {
            let sow = |decision| {
                Move::Sow(Sow {
                    pit: start.pit(),
                    direction: start.direction(),
                    kichwa,
                    kuu_decision: decision,
                })
            };
            let asks_nothing = match start {
                // The kuu decision is a nemo one (§2.7 D).
                Start::Mtaji { capturing, .. } => capturing,
                // It is asked only in a living kuu, and a kuu never comes back to life within a move.
                Start::NemoCapture { .. } => !self.kuu_alive[mover.index()],
                Start::NemoTakata { .. } => false,
            };
            if asks_nothing {
                // A capture move: it ends (captures always do), and no lap can ask for a decision.
                emit(sow(None));
                continue;
            }
            match self.trial(
                mover,
                start,
                Choices {
                    kichwa,
                    decision: None,
                },
            ) {
                Ok(_) => emit(sow(None)),
                Err(Halt::DecisionRequired) => {
                    // Stopping ends the move right at the decision, which was reached without a repeat.
                    emit(sow(Some(KuuDecision::Stop)));
                    let safari = Choices {
                        kichwa,
                        decision: Some(KuuDecision::Safari),
                    };
                    if self.trial(mover, start, safari).is_ok() {
                        emit(sow(Some(KuuDecision::Safari)));
                    }
                }
                Err(_) => {}
            }
        }
    }

    /// Whether some complete move of `start` ends.
    pub(crate) fn has_ending_variant(&self, mover: Player, start: Start) -> bool {
        BaoLaKete::kichwa_options(start).iter().any(|&kichwa| {
            // A decision reached can always be answered with "stop", which ends the move.
            matches!(
                self.trial(
                    mover,
                    start,
                    Choices {
                        kichwa,
                        decision: None
                    }
                ),
                Ok(_) | Err(Halt::DecisionRequired)
            )
        })
    }

    /// §2.9: whether `player` has a legal move. Capture moves always end (the proof is at the test
    /// `capture_moves_always_end`), so only takatas are played to find out.
    pub(crate) fn has_legal_move(&self, player: Player) -> bool {
        // A marked-hole capture is a capture: two layers are enough to ask.
        let captures = self.capture_starts(player);
        captures != [0, 0]
            || self
                .first_start_in(
                    player,
                    Layer::Takatas,
                    self.takata_starts(player, captures),
                    |start| self.has_ending_variant(player, start),
                )
                .is_some()
    }

    /// Every legal move: those that end, of the first layer that has one (§1). The layers' starts come from
    /// the start sets, each found in one pass over the mover's holes.
    pub(crate) fn collect_legal_moves(&self, mover: Player, out: &mut MoveList) {
        let captures = self.capture_starts(mover);
        // Nothing to play out: a mtaji capture, or a nemo capture once the kuu is dead (no lap can ask for the
        // kuu decision), as `for_each_ending_variant` lists them.
        let captures_ask_nothing = !self.is_nemo(mover) || !self.kuu_alive[mover.index()];
        for layer in LAYERS {
            let sets = match layer {
                Layer::MarkedCaptures if self.own_mark(mover).is_none() => [0, 0],
                Layer::MarkedCaptures => self.marked_capture_starts(mover, captures),
                Layer::Captures if captures_ask_nothing => {
                    self.list_captures(mover, captures, out);
                    [0, 0]
                }
                Layer::Captures => captures,
                Layer::Takatas => self.takata_starts(mover, captures),
            };
            self.first_start_in(mover, layer, sets, |start| {
                self.for_each_ending_variant(mover, start, |mv| out.push(mv));
                false
            });
            if !out.is_empty() {
                return;
            }
        }
    }

    /// The capture moves of `captures` when none asks for a trial (`for_each_ending_variant`'s `asks_nothing`),
    /// in its order: a nemo capture at a central hole with the left kichwa, then the right (§2.7 B3); a mtaji
    /// capture clockwise, then anticlockwise.
    fn list_captures(&self, mover: Player, captures: StartSets, out: &mut MoveList) {
        let nemo = self.is_nemo(mover);
        let own = base(mover);
        let sow = |pit, direction, kichwa| {
            Move::Sow(Sow {
                pit,
                direction,
                kichwa,
                kuu_decision: None,
            })
        };
        for i in bits(captures[0] | captures[1]) {
            let pit = own + i;
            if nemo {
                if is_central(pit) {
                    out.push(sow(pit, None, Some(Kichwa::Left)));
                    out.push(sow(pit, None, Some(Kichwa::Right)));
                } else {
                    out.push(sow(pit, None, None));
                }
                continue;
            }
            if captures[0] & (1 << i) != 0 {
                out.push(sow(pit, Some(Direction::Clockwise), None));
            }
            if captures[1] & (1 << i) != 0 {
                out.push(sow(pit, Some(Direction::Anticlockwise), None));
            }
        }
    }

    /// The first start of `layer` that has a move that ends, found hole by hole: the reference for
    /// `has_legal_move` and the obligation.
    #[cfg(test)]
    pub(crate) fn first_live_start(&self, mover: Player, layer: Layer) -> Option<Start> {
        self.find_start(mover, layer, |start| {
            layer != Layer::Takatas || self.has_ending_variant(mover, start)
        })
    }

    /// `collect_legal_moves` layer by layer, hole by hole: the reference the listing is tested against.
    #[cfg(test)]
    pub(crate) fn collect_legal_moves_by_layers(&self, mover: Player, out: &mut MoveList) {
        for layer in LAYERS {
            let mut starts = Starts::new();
            self.starts(mover, layer, &mut starts);
            for start in starts {
                self.for_each_ending_variant(mover, start, |mv| out.push(mv));
            }
            if !out.is_empty() {
                return;
            }
        }
    }

    /// The refusal for a move of `layer` when a stronger layer holds a move that ends. Capture moves always end,
    /// so a stronger layer holds one when it has a start.
    pub(crate) fn check_obligation(
        &self,
        mover: Player,
        pit: u8,
        layer: Layer,
    ) -> Result<(), IllegalMove> {
        let marked = match layer {
            Layer::MarkedCaptures => None,
            Layer::Captures | Layer::Takatas => self.own_mark(mover),
        };
        if marked.is_none() && layer != Layer::Takatas {
            return Ok(());
        }
        let captures = self.capture_starts(mover);
        if let Some(marked) = marked {
            if self.marked_capture_starts(mover, captures) != [0, 0] {
                let hole = offset(marked) as usize;
                return Err(IllegalMove::at(
                    Reason::MustCaptureMarkedHole,
                    pit,
                    MARKED_HOLE_FIRST[hole],
                ));
            }
        }
        let any_capture = captures[0] | captures[1];
        if layer == Layer::Takatas && any_capture != 0 {
            if !self.is_nemo(mover) && self.pits[pit as usize] > MAX_CAPTURE_HAND {
                return Err(IllegalMove::at(
                    Reason::TooManySeedsToCapture,
                    pit,
                    TOO_MANY_TO_CAPTURE,
                ));
            }
            // The first capture start in hole order.
            let hole = any_capture.trailing_zeros() as usize;
            return Err(IllegalMove::at(
                Reason::CaptureIsMandatory,
                pit,
                CAPTURE_AVAILABLE[hole],
            ));
        }
        Ok(())
    }

    /// `check_obligation` by searching the layers hole by hole: the reference it is tested against.
    #[cfg(test)]
    pub(crate) fn check_obligation_by_search(
        &self,
        mover: Player,
        pit: u8,
        layer: Layer,
    ) -> Result<(), IllegalMove> {
        if layer != Layer::MarkedCaptures {
            if let Some(marked) = self.own_mark(mover) {
                if self
                    .first_live_start(mover, Layer::MarkedCaptures)
                    .is_some()
                {
                    let hole = offset(marked) as usize;
                    return Err(IllegalMove::at(
                        Reason::MustCaptureMarkedHole,
                        pit,
                        MARKED_HOLE_FIRST[hole],
                    ));
                }
            }
        }
        if layer == Layer::Takatas {
            if let Some(capture) = self.first_live_start(mover, Layer::Captures) {
                if !self.is_nemo(mover) && self.pits[pit as usize] > MAX_CAPTURE_HAND {
                    return Err(IllegalMove::at(
                        Reason::TooManySeedsToCapture,
                        pit,
                        TOO_MANY_TO_CAPTURE,
                    ));
                }
                let hole = offset(capture.pit()) as usize;
                return Err(IllegalMove::at(
                    Reason::CaptureIsMandatory,
                    pit,
                    CAPTURE_AVAILABLE[hole],
                ));
            }
        }
        Ok(())
    }

    /// Checks everything about `sow` that does not need playing it, and says how it starts.
    pub(crate) fn check_sow(
        &self,
        mover: Player,
        sow: &Sow,
    ) -> Result<(Start, Choices), IllegalMove> {
        let pit = sow.pit;
        let refuse = |reason, detail| Err(IllegalMove::at(reason, pit, detail));
        if pit as usize >= super::PITS {
            return refuse(Reason::NoSuchPit, NO_SUCH_PIT);
        }
        if owner(pit) != mover {
            return refuse(Reason::NotYourPit, NOT_YOUR_PIT);
        }
        let choices = Choices {
            kichwa: sow.kichwa,
            decision: sow.kuu_decision,
        };
        if self.is_nemo(mover) {
            if !is_front(pit) {
                return refuse(Reason::HoleNotAllowed, NEMO_FRONT_ONLY);
            }
            if self.pits[pit as usize] == 0 {
                return refuse(Reason::PitEmpty, NEMO_EMPTY);
            }
            if self.is_marked_for(mover, pit) {
                return refuse(Reason::HoleMarkedHiziZetu, MARKED);
            }
            if self.is_nemo_capture_hole(pit) {
                let start = Start::NemoCapture { pit };
                let marked = self.own_mark(mover).is_some()
                    && self.first_capture(start) == self.own_mark(mover);
                self.check_obligation(
                    mover,
                    pit,
                    if marked {
                        Layer::MarkedCaptures
                    } else {
                        Layer::Captures
                    },
                )?;
                if sow.direction.is_some() {
                    return refuse(Reason::ChoiceNotOffered, NEMO_CAPTURE_DIRECTION);
                }
                match (is_central(pit), sow.kichwa) {
                    (true, None) => return refuse(Reason::ChoiceRequired, KICHWA_REQUIRED),
                    (false, Some(_)) => return refuse(Reason::ChoiceNotOffered, KICHWA_FIXED),
                    _ => {}
                }
                return Ok((start, choices));
            }
            self.check_obligation(mover, pit, Layer::Takatas)?;
            self.check_takata_hole(mover, pit)?;
            let Some(dir) = sow.direction else {
                return refuse(Reason::ChoiceRequired, TAKATA_DIRECTION);
            };
            self.check_no_choices(sow)?;
            self.check_takata_direction(mover, pit, dir)?;
            return Ok((Start::NemoTakata { pit, dir }, choices));
        }
        if self.pits[pit as usize] == 0 {
            return refuse(Reason::PitEmpty, EMPTY);
        }
        let Some(dir) = sow.direction else {
            return refuse(Reason::ChoiceRequired, MTAJI_DIRECTION);
        };
        self.check_no_choices(sow)?;
        if self.is_marked_for(mover, pit) {
            return refuse(Reason::HoleMarkedHiziZetu, MARKED);
        }
        match self.mtaji_first_capture(pit, dir) {
            Some(victim) => {
                let layer = if Some(victim) == self.own_mark(mover) {
                    Layer::MarkedCaptures
                } else {
                    Layer::Captures
                };
                self.check_obligation(mover, pit, layer)?;
                Ok((
                    Start::Mtaji {
                        pit,
                        dir,
                        capturing: true,
                    },
                    choices,
                ))
            }
            None => {
                self.check_obligation(mover, pit, Layer::Takatas)?;
                self.check_takata_hole(mover, pit)?;
                self.check_takata_direction(mover, pit, dir)?;
                Ok((
                    Start::Mtaji {
                        pit,
                        dir,
                        capturing: false,
                    },
                    choices,
                ))
            }
        }
    }

    /// Takata and mtaji moves choose only a direction.
    fn check_no_choices(&self, sow: &Sow) -> Result<(), IllegalMove> {
        if sow.kichwa.is_some() {
            return Err(IllegalMove::at(
                Reason::ChoiceNotOffered,
                sow.pit,
                KICHWA_NOT_OFFERED,
            ));
        }
        if sow.kuu_decision.is_some() {
            return Err(IllegalMove::at(
                Reason::ChoiceNotOffered,
                sow.pit,
                DECISION_NOT_OFFERED,
            ));
        }
        Ok(())
    }

    /// §2.8: the opponent holes that `player`'s mtaji capture moves would capture first (M-1 alone).
    pub(crate) fn threatened_holes(&self, player: Player) -> PitSet {
        let mut holes = PitSet::EMPTY;
        let capture_holes = self.capture_holes(player);
        for pit in circuit(player) {
            for dir in DIRECTIONS {
                if let Some(victim) = self.first_capture_landing_in(capture_holes, pit, dir) {
                    holes = holes.with(victim as usize);
                }
            }
        }
        holes
    }
}
