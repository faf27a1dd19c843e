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
//! A third fact decides the longest of them without playing a lap (`residues_never_meet`):
//!
//! * **Residues mod 17.** Count time in seeds dropped, and give each hole the time `v` at which it last held
//!   nothing, extended back over the revolutions it has been filling: `v = t − 16·c` where `c` is what it holds
//!   after the seed it receives at time `t` (a lifted hole has `v` = the time of its lap end; each revolution
//!   adds one seed and sixteen drops, so `v` stays put). A lap ending at time `t` in a hole with `v` lifts
//!   `h = (t − v)/16` seeds and the next lap ends at `t + h`; as 16 ≡ −1 (mod 17), `t + h ≡ v` (mod 17). So
//!   the next lap end takes the residue mod 17 of the hole just lifted (call it *pending*), and that hole takes
//!   the residue of its own lap end, which is the previous pending: each lap end swaps the pending residue with
//!   the landing hole's, and the multiset of 17 residues (16 holes and pending) never changes. A relay ends in
//!   a hole holding one seed after the drop, `t − v = 16`, that is `v ≡ t + 1 ≡ pending + 1` (mod 17). If no
//!   two of the 17 residues are consecutive mod 17, no lap can ever end in an empty hole: the move never ends.
//!   The longest cycles random play and the search of `tests/rules/worst_cycles.rs` meet (10⁷–10⁸ laps) are
//!   all of this kind; the relays whose residues include consecutive ones either end or cycle quickly, and are
//!   still decided lap by lap.
//!
//! Otherwise the circuit is packed into a `relay_ring::Ring16` and checked with `cycle::repeats_before_end`.

use super::{circuit_index, Direction, CIRCUIT, PITS, ROW};
use crate::engine::cycle::repeats_before_end;
use crate::engine::relay_ring::Ring16;

/// Laps a move plays before the check is worth making (and at least one revolution: 16 laps are ≥ 32 drops).
pub(super) const LAPS_BEFORE_CHECK: u32 = 16;

const _: () = assert!(CIRCUIT == 16, "the circuit is a `Ring16`");

/// Whether a pure-relay takata whose lap just ended in `at` (holding ≥ 2 seeds, about to be relayed) goes on
/// for ever. `pits` is the board; only the circuit of the player whose holes start at `base` is read.
pub(super) fn relay_never_ends(pits: &[u8; PITS], base: u8, at: u8, dir: Direction) -> bool {
    let relative = pack_from(pits, base, at, dir).to_le_bytes();
    if residues_never_meet(relative) {
        return true;
    }
    let first = Ring16::pack(relative);
    repeats_before_end(first, |ring| {
        // §2.7 F then C: lift the hole and sow; a lap whose last seed lands in an empty hole ends the move.
        let ring = Ring16::lap(ring);
        (Ring16::hand(ring) != 1).then_some(ring)
    })
}

/// Whether the residues mod 17 of a relay at a lap end prove that it never ends (see the module's doc):
/// `holes` in sowing order from the lap end, whose seeds (at least 2) are about to be relayed. With the lap end
/// at time 0, the lifted hole's residue is 0, pending is `holes[0]` (`v = −16·h ≡ h`), and hole `j` (next
/// sown at time `j`, then holding `holes[j] + 1`) has `j + holes[j] + 1`.
fn residues_never_meet(holes: [u8; CIRCUIT as usize]) -> bool {
    const MOD: u32 = 17;
    let mut residues = 1u32 | 1 << (holes[0] as u32 % MOD);
    for (j, &seeds) in holes.iter().enumerate().skip(1) {
        residues |= 1 << ((j as u32 + seeds as u32 + 1) % MOD);
    }
    // Each residue's successor mod 17, as a set: the bits turned by one place round the 17.
    let successors = (residues << 1 | residues >> (MOD - 1)) & ((1 << MOD) - 1);
    residues & successors == 0
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

    /// One lap of a relay on a ring seen from its lap end (`holes[0]` lifted and sown seed by seed), seen from
    /// its new lap end; `None` when the last seed fell into an empty hole (§2.7 C).
    fn relay_lap(holes: &mut [u8; 16]) -> Option<u8> {
        let hand = std::mem::take(&mut holes[0]);
        let mut at = 0;
        for _ in 0..hand {
            at = (at + 1) % 16;
            holes[at] += 1;
        }
        holes.rotate_left(at);
        (holes[0] != 1).then_some(hand)
    }

    /// The 17 residues of a ring at a lap end (module doc), counted by residue, with the lap end at `time`.
    fn residues_at(holes: &[u8; 16], time: u64) -> [u32; 17] {
        let mut counts = [0; 17];
        let mut add = |residue: u64| counts[((residue + time) % 17) as usize] += 1;
        add(0);
        add(holes[0].into());
        for (j, &seeds) in holes.iter().enumerate().skip(1) {
            add(j as u64 + u64::from(seeds) + 1);
        }
        counts
    }

    fn random_ring(rand: &mut impl FnMut(u64) -> u64) -> Option<[u8; 16]> {
        let mut holes = [0u8; 16];
        for _ in 0..16 + rand(49) {
            holes[rand(16) as usize] += 1;
        }
        (holes[0] >= 2).then_some(holes)
    }

    /// A ring whose residues never meet, built from a random set of residues no two consecutive: each hole
    /// gets the fewest seeds that give it a residue of the set (or now and then the next fewest), so that the
    /// rings hold tens of seeds, as a circuit does in play, rather than hundreds.
    fn random_ring_apart(rand: &mut impl FnMut(u64) -> u64) -> [u8; 16] {
        loop {
            let mut set = 1u32; // the lifted hole's 0
            for r in 2..16 {
                if set >> (r - 1) & 1 == 0 && rand(2) == 0 {
                    set |= 1 << r;
                }
            }
            let seeds_for = |j: u64, rand: &mut dyn FnMut(u64) -> u64| {
                let mut options: Vec<u64> = (0..17)
                    .filter(|&r| set >> r & 1 == 1)
                    .map(|r| (r + 34 - j - 1) % 17)
                    .collect();
                options.sort_unstable();
                options[(rand(3) == 0 && options.len() > 1) as usize]
            };
            let mut holes = [0u8; 16];
            for (j, seeds) in holes.iter_mut().enumerate().skip(1) {
                *seeds = seeds_for(j as u64, rand) as u8;
            }
            // Pending: a residue of the set (not 0) that is also a hand of at least 2.
            let hands: Vec<u8> = (2..17u8).filter(|&r| set >> r & 1 == 1).collect();
            if hands.is_empty() {
                continue;
            }
            holes[0] = hands[rand(hands.len() as u64) as usize];
            assert!(residues_never_meet(holes));
            return holes;
        }
    }

    /// The lemma behind `residues_never_meet`, lap by lap on random relays: the multiset of the 17 residues
    /// is the same after every lap (in seeds dropped since the start), and a relay that ends had two of them
    /// consecutive.
    #[test]
    fn the_residues_mod_17_are_kept_and_a_relay_ends_only_where_two_meet() {
        let mut rng = crate::engine::Rng::new(0x17);
        let mut rand = move |n: u64| rng.below(n as usize) as u64;
        let (mut ended, mut laps_checked) = (0, 0);
        for _ in 0..20_000 {
            let Some(start) = random_ring(&mut rand) else {
                continue;
            };
            let kept = residues_at(&start, 0);
            let (mut holes, mut time) = (start, 0u64);
            for _ in 0..2_000 {
                let Some(hand) = relay_lap(&mut holes) else {
                    assert!(!residues_never_meet(start), "{start:?} ended");
                    ended += 1;
                    break;
                };
                time += u64::from(hand);
                assert_eq!(
                    residues_at(&holes, time),
                    kept,
                    "{start:?} after {time} drops"
                );
                laps_checked += 1;
            }
        }
        assert!(
            ended > 12_000 && laps_checked > 50_000,
            "{ended} / {laps_checked}"
        );
    }

    /// Relays whose residues never meet are called never-ending without a lap, and that is the truth: played
    /// lap by lap they do not end, and where the lap-by-lap detector (`repeats_before_end`, which finds the
    /// repeat exactly) decides them within its cap, it says so too.
    #[test]
    fn relays_whose_residues_never_meet_never_end_lap_by_lap() {
        let mut rng = crate::engine::Rng::new(0x5EED_0017);
        let mut rand = move |n: u64| rng.below(n as usize) as u64;
        let mut confirmed = 0;
        for _ in 0..300 {
            let start = random_ring_apart(&mut rand);
            let mut holes = start;
            for _ in 0..20_000 {
                assert!(relay_lap(&mut holes).is_some(), "{start:?} ended");
            }
            let lap_by_lap = crate::engine::Budget::laps(200_000).run(|| {
                repeats_before_end(Ring16::pack(start), |ring| {
                    let ring = Ring16::lap(ring);
                    (Ring16::hand(ring) != 1).then_some(ring)
                })
            });
            if let Ok((never_ends, _)) = lap_by_lap {
                assert!(never_ends, "{start:?}");
                confirmed += 1;
            }
        }
        assert!(confirmed > 30, "{confirmed} confirmed by the detector");
    }

    /// Random relays, most of which end within a few laps: the residue test never claims one of them.
    #[test]
    fn relays_that_end_never_have_residues_apart() {
        let mut rng = crate::engine::Rng::new(0xE17D);
        let mut rand = move |n: u64| rng.below(n as usize) as u64;
        let (mut ended, mut apart) = (0, 0);
        for _ in 0..200_000 {
            let Some(start) = random_ring(&mut rand) else {
                continue;
            };
            let mut holes = start;
            let ends = (0..1_000).any(|_| relay_lap(&mut holes).is_none());
            if ends {
                ended += 1;
                assert!(!residues_never_meet(start), "{start:?}");
            } else if residues_never_meet(start) {
                apart += 1;
            }
        }
        assert!(ended > 120_000, "{ended} ended, {apart} apart");
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
        // Its residues never meet: decided without a lap.
        let (never_ends, laps) = crate::engine::Budget::laps(0)
            .run(|| relay_never_ends(&pits, 0, 0, Direction::Clockwise))
            .expect("no lap spent");
        assert!(never_ends && laps == 0);
    }
}
