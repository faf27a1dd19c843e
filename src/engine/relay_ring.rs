//! Relay sowing on a ring of holes packed one per byte into a `u128`, seen from the hole where the next lap
//! starts. A lap is then a handful of integer operations however many seeds it holds, and the packed value is
//! the within-move configuration *up to rotation*: relay rules that look the same from every hole of the ring
//! (Bosh's always; Bao la Kete's once a takata is pure relay) repeat for ever exactly when it repeats, with
//! cycles up to the ring's length shorter than those of the absolute board. Used only to ask whether a move
//! ends; moves are played on the board itself, with their events.

/// One seed in each of the 16 bytes.
const ONES: u128 = u128::from_le_bytes([1; 16]);

/// `RUN[r]`: one seed in each of bytes 1 to `r`.
const RUN: [u128; 16] = {
    let mut run = [0u128; 16];
    let mut r = 1;
    while r < 16 {
        run[r] = run[r - 1] | (1u128 << (8 * r));
        r += 1;
    }
    run
};

/// `SOWN_16[r]`: `RUN[r]` seen from byte `r` of a ring of 16, the common case made a table.
const SOWN_16: [u128; 16] = {
    let mut sown = [0u128; 16];
    let mut r = 0;
    while r < 16 {
        sown[r] = RUN[r].rotate_right(8 * r as u32);
        r += 1;
    }
    sown
};

/// A ring of `len` holes (2 to 16) in sowing order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PackedRing {
    len: u32,
    ones: u128,
    /// ⌈2¹⁶ / len⌉: a hand (at most 255) divided by `len` is `hand * reciprocal >> 16`, without a division.
    reciprocal: u32,
}

impl PackedRing {
    pub(crate) const fn new(len: u32) -> Self {
        assert!(len >= 2 && len <= 16);
        let ones = if len == 16 {
            ONES
        } else {
            ONES & ((1u128 << (8 * len)) - 1)
        };
        PackedRing {
            len,
            ones,
            reciprocal: (1u32 << 16).div_ceil(len),
        }
    }

    /// Packs the holes, `holes[0]` first (the hole byte 0 stands for), then in sowing order.
    pub(crate) fn pack(holes: impl IntoIterator<Item = u8>) -> u128 {
        holes
            .into_iter()
            .enumerate()
            .fold(0, |packed, (i, seeds)| packed | (seeds as u128) << (8 * i))
    }

    /// One lap of `hand` seeds from byte 0, already lifted: a seed into each of the `hand` holes after it, round
    /// and round the ring (the origin is not skipped, RULES.md §1). Returns the ring turned so that byte 0 is the
    /// hole `ahead` places after the one that got the last seed.
    #[inline(always)]
    pub(crate) fn sow(self, relative: u128, hand: u32, ahead: u32) -> u128 {
        debug_assert!(hand <= u8::MAX as u32 && ahead <= 1);
        let rounds = (hand * self.reciprocal) >> 16;
        let rest = hand - rounds * self.len;
        let by = if rest + ahead == self.len {
            0
        } else {
            rest + ahead
        };
        // Turning the ring and the drops separately and adding them keeps the lap's dependency chain short.
        let sown = if self.len == 16 && ahead == 0 {
            SOWN_16[rest as usize]
        } else {
            self.turn(RUN[rest as usize], by)
        };
        let mut relative = self.turn(relative, by) + sown;
        if rounds > 0 {
            relative += self.ones * rounds as u128;
        }
        relative
    }

    /// The ring turned so that byte `by` becomes byte 0.
    #[inline(always)]
    fn turn(self, relative: u128, by: u32) -> u128 {
        if self.len == 16 {
            relative.rotate_right(8 * by)
        } else if by == 0 {
            relative
        } else {
            (relative >> (8 * by) | relative << (8 * (self.len - by))) & (self.ones * 0xFF)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PackedRing;

    fn unpack(packed: u128, len: usize) -> Vec<u8> {
        packed.to_le_bytes()[..len].to_vec()
    }

    #[test]
    fn laps_split_into_whole_rounds_and_a_rest_exactly() {
        for len in 2..=16 {
            let ring = PackedRing::new(len);
            for hand in 0..=255u32 {
                let rounds = (hand * ring.reciprocal) >> 16;
                assert_eq!((rounds, hand - rounds * len), (hand / len, hand % len));
            }
        }
    }

    #[test]
    fn a_lap_sows_round_and_round_and_turns_to_the_next_hole() {
        let ring = PackedRing::new(5);
        let start = PackedRing::pack([0, 1, 2, 3, 4]);
        // 7 seeds from byte 0 on a ring of 5: one into every hole, one more into bytes 1 and 2, the last in 2:
        // [1, 3, 4, 4, 5], seen from byte 2 or from the hole after it.
        assert_eq!(unpack(ring.sow(start, 7, 0), 5), [4, 4, 5, 1, 3]);
        assert_eq!(unpack(ring.sow(start, 7, 1), 5), [4, 5, 1, 3, 4]);
        let full = PackedRing::new(16);
        let start = PackedRing::pack([0; 16]);
        assert_eq!(unpack(full.sow(start, 3, 0), 16)[..4], [1, 0, 0, 0]);
        assert_eq!(unpack(full.sow(start, 3, 0), 16)[14..], [1, 1]);
    }
}
