//! Deciding quickly and exactly whether a long takata ever ends (§1, R-2.14).
//!
//! Random play meets takatas whose relay cycles are 10⁸ laps long; stepping the whole board through Brent's
//! algorithm took seconds for one of them. Once a takata is *pure relay* — no capture, no living kuu of the
//! mover (the one hole where a nemo takata stops), no hizi-zetu mark against him (the one hole where his laps
//! stop) — the only way it ends is a lap ending in an empty hole, and that rule looks the same from every hole
//! of the circuit. Two facts then make the check both cheap and exact:
//!
//! * **Rotation.** The sowing is the same seen from any hole, so if a lap end looks like an earlier one
//!   rotated by `k` holes, everything after it is the earlier sequel rotated by `k`: the move has already
//!   shown it does not end, and never will. Comparing lap ends *relative to the hole where the lap ended*
//!   therefore decides the move, with cycles up to 16 times shorter than the absolute ones.
//! * **Step A cannot fire.** After one revolution (16 drops) every hole has received a seed since, so a hole is
//!   empty only if a lap ended in it in the last 15 drops and it was lifted. Lap ends are at least 2 holes apart
//!   (a hole is relayed only with 2 or more seeds), so at most 4 of the 8 consecutive front holes can be empty:
//!   the own-front-row check (§2.7 A) never ends such a move and the rotated sequel is the true sequel.
//!
//! The circuit is packed into a `relay_ring::Ring16` and checked with `cycle::repeats_before_end`.

use super::{circuit_index, Direction, CIRCUIT, PITS, ROW};
use crate::engine::cycle::repeats_before_end;
use crate::engine::relay_ring::Ring16;

/// Laps a move plays before the check is worth making (and at least one revolution: 16 laps are ≥ 32 drops).
pub(super) const LAPS_BEFORE_CHECK: u32 = 16;

const _: () = assert!(CIRCUIT == 16, "the circuit is a `Ring16`");

/// Whether a pure-relay takata whose lap just ended in `at` (holding ≥ 2 seeds, about to be relayed) goes on
/// for ever. `pits` is the board; only the circuit of the player whose holes start at `base` is read.
pub(super) fn relay_never_ends(pits: &[u8; PITS], base: u8, at: u8, dir: Direction) -> bool {
    let first = Ring16::pack(pack_from(pits, base, at, dir).to_le_bytes());
    repeats_before_end(first, |ring| {
        // §2.7 F then C: lift the hole and sow; a lap whose last seed lands in an empty hole ends the move.
        let ring = Ring16::lap(ring);
        (Ring16::hand(ring) != 1).then_some(ring)
    })
}

/// The circuit in sowing order starting at `at`: byte `i` holds the hole `i` steps on from `at` in `dir`.
fn pack_from(pits: &[u8; PITS], base: u8, at: u8, dir: Direction) -> u128 {
    let row = |from: usize| {
        let mut bytes = [0u8; ROW as usize];
        bytes.copy_from_slice(&pits[from..from + ROW as usize]);
        u64::from_le_bytes(bytes)
    };
    // Clockwise from f1: f1 … f8 then b8 … b1 (§2.2).
    let clockwise =
        row(base as usize) as u128 | (row((base + ROW) as usize).swap_bytes() as u128) << 64;
    let k = circuit_index(at) as u32;
    match dir {
        Direction::Clockwise => clockwise.rotate_right(8 * k),
        Direction::Anticlockwise => clockwise.swap_bytes().rotate_right(8 * (15 - k)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::hole_at;
    use super::*;
    use std::collections::HashSet;

    /// The rules played literally on one player's circuit (South's, `pits[0..16]`): relay until a lap ends in
    /// an empty hole or the front row is empty (§2.7 A, C, F), a repeat of the whole board and hole meaning the
    /// move never ends (§1). `None` when it runs past `max_laps` undecided.
    fn literal(pits: &mut [u8; PITS], mut at: u8, dir: Direction, max_laps: u32) -> Option<bool> {
        let mut seen = HashSet::new();
        for _ in 0..max_laps {
            if pits[0..8].iter().all(|&s| s == 0) || pits[at as usize] == 1 {
                return Some(false);
            }
            if !seen.insert((*pits, at)) {
                return Some(true);
            }
            let hand = std::mem::take(&mut pits[at as usize]);
            for _ in 0..hand {
                at = super::super::step(at, dir, 1);
                pits[at as usize] += 1;
            }
        }
        None
    }

    /// The fast check agrees with the rules played literally, on random circuits after one revolution of
    /// relay (the precondition under which it is called), in both directions.
    #[test]
    fn agrees_with_the_literal_rules() {
        let mut rng = crate::engine::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut rand = move |n: u64| rng.below(n as usize) as u64;
        let (mut endless, mut ending) = (0, 0);
        for _ in 0..300_000 {
            let mut pits = [0u8; PITS];
            for _ in 0..16 + rand(49) {
                pits[rand(16) as usize] += 1;
            }
            let Some(at) = (0..16u8).find(|&p| pits[p as usize] >= 2) else {
                continue;
            };
            let dir = if rand(2) == 0 {
                Direction::Clockwise
            } else {
                Direction::Anticlockwise
            };
            // Play the first laps literally, as `run` does before it asks.
            let mut at_now = at;
            let mut early_end = false;
            for _ in 0..LAPS_BEFORE_CHECK {
                if pits[0..8].iter().all(|&s| s == 0) || pits[at_now as usize] == 1 {
                    early_end = true;
                    break;
                }
                let hand = std::mem::take(&mut pits[at_now as usize]);
                for _ in 0..hand {
                    at_now = super::super::step(at_now, dir, 1);
                    pits[at_now as usize] += 1;
                }
            }
            if early_end || pits[at_now as usize] == 1 || pits[0..8].iter().all(|&s| s == 0) {
                continue;
            }
            let Some(expected) = literal(&mut pits.clone(), at_now, dir, 200_000) else {
                continue;
            };
            assert_eq!(
                relay_never_ends(&pits, 0, at_now, dir),
                expected,
                "{pits:?} at {at_now} {dir:?}"
            );
            if expected {
                endless += 1;
            } else {
                ending += 1;
            }
        }
        assert!(
            endless > 10 && ending > 5_000,
            "{endless} endless, {ending} ending"
        );
    }

    /// A cycle of 21 million relative lap ends (over 100 million laps on the board) found in random play from
    /// the standard start: the check finds it.
    #[test]
    fn a_cycle_of_random_play_is_found() {
        // South's circuit in sowing order from the lap end, as `pack_from` lays it out.
        let relative = 0x0300_010e_0010_0206_0001_0005_0001_0202u128;
        let mut pits = [0u8; PITS];
        for (k, seeds) in relative.to_le_bytes().into_iter().enumerate() {
            pits[hole_at(0, k as u8) as usize] = seeds;
        }
        assert!(relay_never_ends(&pits, 0, 0, Direction::Clockwise));
    }
}
