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
    /// and round the ring (the origin is not skipped, docs/common.md §1). Returns the ring turned so that byte 0 is the
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
        let sown = self.turn(RUN[rest as usize], by);
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

/// A ring of 16 holes whose next lap starts in the hole of the last seed (Bao la Kete's circuit), packed
/// for the shortest lap: the even holes (0, 2, …, 14, seen from the lap's start) in the low `u64`, one per byte,
/// the odd holes in the high one. Turning the ring by `r` holes is then two 64-bit rotations of whole bytes
/// (the halves swapped when `r` is odd) instead of a 128-bit one, and what a lap of `h` seeds adds — a round
/// into every hole, one more into each of the last `h mod 16`, the hand taken from its hole — is one entry
/// of a table indexed by `h`, so a lap is a few independent operations and a load, whatever its hand.
pub(crate) struct Ring16;

/// `DROPS_16[h]`: what a lap of `h` seeds from hole 0 adds, seen from the hole of its last seed, the lifted
/// hand included as a negative count in its hole (halves low, high; wrapping, exact because the sums are
/// counts of 0 to 255).
const DROPS_16: [[u64; 2]; 256] = {
    /// Adds `seeds` to hole `hole` of the `Ring16` layout.
    const fn add(halves: &mut [u64; 2], hole: usize, seeds: i64) {
        let half = hole & 1;
        halves[half] =
            halves[half].wrapping_add((seeds as u64).wrapping_shl(8 * (hole as u32 >> 1)));
    }
    let mut drops = [[0u64; 2]; 256];
    let mut hand = 0;
    while hand < 256 {
        let (rounds, rest) = (hand / 16, hand % 16);
        let mut halves = [0u64; 2];
        let mut hole = 0;
        while hole < 16 {
            add(&mut halves, hole, rounds as i64);
            hole += 1;
        }
        // The last `rest` drops went into the holes 1 to `rest` after the origin: the last into the new hole 0,
        // the others into the `rest - 1` holes before it, that is 17 - rest to 15.
        if rest > 0 {
            add(&mut halves, 0, 1);
            let mut hole = 17 - rest;
            while hole < 16 {
                add(&mut halves, hole, 1);
                hole += 1;
            }
        }
        // The origin, `rest` holes behind the new hole 0.
        add(&mut halves, (16 - rest) % 16, -(hand as i64));
        drops[hand] = halves;
        hand += 1;
    }
    drops
};

impl Ring16 {
    /// Packs the 16 holes, `holes[0]` first (the hole the next lap starts from), then in sowing order.
    pub(crate) fn pack(holes: [u8; 16]) -> u128 {
        let (mut even, mut odd) = ([0u8; 8], [0u8; 8]);
        for (i, &seeds) in holes.iter().enumerate() {
            if i % 2 == 0 {
                even[i / 2] = seeds;
            } else {
                odd[i / 2] = seeds;
            }
        }
        u64::from_le_bytes(even) as u128 | (u64::from_le_bytes(odd) as u128) << 64
    }

    /// The holes of a packed ring, in sowing order from the hole the next lap starts from.
    #[cfg(test)]
    pub(crate) fn unpack(packed: u128) -> [u8; 16] {
        let (even, odd) = (
            (packed as u64).to_le_bytes(),
            ((packed >> 64) as u64).to_le_bytes(),
        );
        std::array::from_fn(|i| if i % 2 == 0 { even[i / 2] } else { odd[i / 2] })
    }

    /// The seeds in the hole the next lap starts from.
    #[inline(always)]
    pub(crate) fn hand(packed: u128) -> u8 {
        packed as u8
    }

    /// One lap: lifts hole 0 and sows its seeds one into each hole after it, round and round the ring (the
    /// origin is not skipped, docs/common.md §1). Returns the ring turned so that hole 0 is the one that got the last
    /// seed.
    #[inline(always)]
    pub(crate) fn lap(packed: u128) -> u128 {
        let (even, odd) = (packed as u64, (packed >> 64) as u64);
        let hand = even as u8 as usize;
        // Turned by r = hand mod 16: new hole j is old hole j + r. For even r both halves turn by r / 2 bytes;
        // for odd r the new even holes are the old odd ones turned by (r - 1) / 2 bytes, and the new odd ones
        // the old even ones turned by (r + 1) / 2 (a turn by 8 bytes is none).
        let (to_even, to_odd) = if hand & 1 == 1 {
            (odd, even)
        } else {
            (even, odd)
        };
        let even = to_even
            .rotate_right(((hand & 14) << 2) as u32)
            .wrapping_add(DROPS_16[hand][0]);
        let odd = to_odd
            .rotate_right((((hand + 1) & 14) << 2) as u32)
            .wrapping_add(DROPS_16[hand][1]);
        even as u128 | (odd as u128) << 64
    }
}

#[cfg(test)]
mod tests {
    use super::{PackedRing, Ring16};
    use proptest::prelude::*;

    /// A lap played seed by seed on the holes in sowing order from the origin, then seen from the hole `ahead`
    /// places after the one that got the last seed.
    fn sown_seed_by_seed(mut holes: Vec<u8>, ahead: usize) -> Vec<u8> {
        let len = holes.len();
        let hand = std::mem::take(&mut holes[0]);
        let mut at = 0;
        for _ in 0..hand {
            at = (at + 1) % len;
            holes[at] += 1;
        }
        (0..len).map(|j| holes[(at + ahead + j) % len]).collect()
    }

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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// The table-driven lap of `Ring16` is the lap played seed by seed, whatever the hand (up to 255, so
        /// several rounds) and the holes (up to 239, so that no hole overflows).
        #[test]
        fn a_ring16_lap_is_the_lap_sown_seed_by_seed(
            hand in 0..=255u8,
            rest in proptest::array::uniform15(0..=239u8),
        ) {
            let mut holes = [0u8; 16];
            holes[0] = hand;
            holes[1..].copy_from_slice(&rest);
            prop_assert_eq!(Ring16::unpack(Ring16::pack(holes)), holes);
            let lapped = Ring16::lap(Ring16::pack(holes));
            prop_assert_eq!(Ring16::unpack(lapped).to_vec(), sown_seed_by_seed(holes.to_vec(), 0));
            prop_assert_eq!(Ring16::hand(lapped), Ring16::unpack(lapped)[0]);
        }

        /// So is the packed lap of `PackedRing` on every length, with and without the step ahead (Bosh's
        /// rings).
        #[test]
        fn a_packed_lap_is_the_lap_sown_seed_by_seed(
            len in 2..=16usize,
            ahead in 0..=1u32,
            hand in 0..=255u8,
            rest in proptest::array::uniform15(0..=239u8),
        ) {
            // No hole may overflow: each gets at most `hand / len + 1` seeds.
            let room = 255 - (hand as usize / len + 1);
            let mut holes = vec![hand];
            holes.extend(rest[..len - 1].iter().map(|&s| (s as usize % (room + 1)) as u8));
            let ring = PackedRing::new(len as u32);
            let lapped = ring.sow(PackedRing::pack(holes.clone()) & !0xFF, hand.into(), ahead);
            prop_assert_eq!(unpack(lapped, len), sown_seed_by_seed(holes, ahead as usize));
            prop_assert_eq!(lapped.checked_shr(8 * len as u32).unwrap_or(0), 0);
        }
    }

    /// Long sequences of laps agree too (the two layouts of a ring of 16, lap after lap).
    #[test]
    fn a_ring16_relay_follows_the_packed_relay() {
        let full = PackedRing::new(16);
        let start = PackedRing::pack([2, 2, 1, 0, 3, 0, 1, 0, 6, 3, 16, 1, 14, 1, 0, 3]);
        let (mut packed, mut ring) = (start, Ring16::pack(start.to_le_bytes()));
        for _ in 0..100_000 {
            packed = full.sow(packed & !0xFF, (packed & 0xFF) as u32, 0);
            ring = Ring16::lap(ring);
            assert_eq!(Ring16::unpack(ring), packed.to_le_bytes());
        }
    }
}
