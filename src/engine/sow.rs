//! The one sowing primitive every game uses: drop a handful, one seed a pit, along a ring of pits.

use super::event::{Event, Trace};

/// The successor of every pit along one sowing path. Games build it once: Ba-awa's is fixed, Bosh's skips
/// closed holes, Bao la Kete has one per player and direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ring<const N: usize> {
    next: [u8; N],
}

impl<const N: usize> Ring<N> {
    /// The ring `0 → 1 → … → N−1 → 0`.
    pub(crate) const fn anticlockwise() -> Self {
        let mut next = [0u8; N];
        let mut i = 0;
        while i < N {
            next[i] = ((i + 1) % N) as u8;
            i += 1;
        }
        Ring { next }
    }

    /// A ring from an explicit successor table.
    pub(crate) const fn from_table(next: [u8; N]) -> Self {
        Ring { next }
    }

    /// The pit after `pit`.
    #[inline(always)]
    pub(crate) fn next(&self, pit: u8) -> u8 {
        self.next[pit as usize]
    }
}

/// Sows `seeds` seeds one at a time into the pits after `after` along `ring` (the origin is never skipped:
/// docs/common.md §1). After each drop `on_drop(pits, pit, seeds_left_in_hand)` runs, so a game can capture en
/// passant. Returns the pit of the last seed. `seeds` must be at least 1.
#[inline(always)]
pub(crate) fn sow_lap<const N: usize, T: Trace>(
    pits: &mut [u8; N],
    ring: &Ring<N>,
    after: u8,
    seeds: u8,
    trace: &mut T,
    mut on_drop: impl FnMut(&mut [u8; N], u8, u8, &mut T),
) -> u8 {
    let mut pos = after;
    let mut hand = seeds;
    while hand > 0 {
        pos = ring.next(pos);
        pits[pos as usize] += 1;
        hand -= 1;
        trace.record(Event::Drop { pit: pos });
        on_drop(pits, pos, hand, trace);
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoTrace;

    #[test]
    fn a_lap_longer_than_the_ring_feeds_its_origin() {
        let ring = Ring::<4>::anticlockwise();
        let mut pits = [0, 0, 0, 0];
        let last = sow_lap(&mut pits, &ring, 1, 5, &mut NoTrace, |_, _, _, _| {});
        assert_eq!(pits, [1, 1, 2, 1]);
        assert_eq!(last, 2);
    }

    #[test]
    fn drops_are_traced_in_order() {
        let ring = Ring::<3>::from_table([2, 0, 1]);
        let mut pits = [0; 3];
        let mut events = Vec::new();
        sow_lap(&mut pits, &ring, 0, 2, &mut events, |_, _, _, _| {});
        assert_eq!(events, vec![Event::Drop { pit: 2 }, Event::Drop { pit: 1 }]);
    }
}
