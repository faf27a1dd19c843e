//! Exact detection of never-ending moves (RULES.md §1): a move whose within-move configuration repeats
//! would repeat for ever, because sowing is deterministic. Brent's algorithm finds the repeat with one saved
//! configuration and no heap, however long the loop.

use super::work;

/// Watches the configurations at successive lap ends of one move.
pub(crate) struct LoopGuard<C: Copy + Eq> {
    saved: C,
    power: u32,
    steps: u32,
}

impl<C: Copy + Eq> LoopGuard<C> {
    /// Starts watching from the configuration at the start of the first relay.
    pub(crate) fn new(first: C) -> Self {
        LoopGuard {
            saved: first,
            power: 1,
            steps: 0,
        }
    }

    /// Records the next configuration; `true` when it repeats an earlier one, i.e. the move never ends.
    pub(crate) fn repeats(&mut self, next: C) -> bool {
        if next == self.saved {
            return true;
        }
        self.steps += 1;
        if self.steps == self.power {
            self.saved = next;
            self.power = self.power.saturating_mul(2);
            self.steps = 0;
        }
        false
    }
}

/// Whether the sequence `first, lap(first), lap(lap(first)), …` repeats before `lap` says it ends (`None`):
/// the never-ending check of a relay sowing packed into a `u128` (never 0: a board in play holds seeds).
/// Brent's algorithm is certain to find a repeat within a few cycle lengths; a small table of "distinguished"
/// values (those whose hash starts with enough zero bits), started once the sequence is long, in practice finds
/// it within about one cycle length — 2.5 times sooner on the cycles of millions of laps random play meets.
///
/// The laps are spent from the running call's budget ([`work::spend`]), a batch at a time; when it runs out the
/// answer is `true` (give up as if the move never ended), which the caller's `Budget::run` throws away.
pub(crate) fn repeats_before_end(first: u128, mut lap: impl FnMut(u128) -> Option<u128>) -> bool {
    /// Laps after which the distinguished values are worth keeping.
    const SIGHTINGS_FROM: u32 = 64;
    /// Laps spent from the budget at once.
    const BATCH: u32 = 4096;
    let mut brent = LoopGuard::new(first);
    let mut sightings: Option<Sightings> = None;
    let mut laps = 0u32;
    let mut unpaid = 0u32;
    let mut current = first;
    loop {
        let Some(next) = lap(current) else {
            return false;
        };
        unpaid += 1;
        if unpaid == BATCH {
            unpaid = 0;
            if !work::spend(BATCH.into()) {
                return true;
            }
        }
        current = next;
        if brent.repeats(current) {
            return true;
        }
        match sightings.as_mut() {
            Some(sightings) => {
                if sightings.seen_before(current) {
                    return true;
                }
            }
            None => {
                laps += 1;
                if laps == SIGHTINGS_FROM {
                    sightings = Some(Sightings::new());
                }
            }
        }
    }
}

/// Distinguished values, in an open-addressing table on the stack. A value is kept when its hash is below
/// `bar` (starts with enough zero bits); when the table is half full, the bar is halved and the entries that no
/// longer pass are dropped, so the table holds a thinning sample of the whole sequence.
struct Sightings {
    slots: [u128; SLOTS],
    len: usize,
    bar: u64,
}

const SLOTS: usize = 512;

impl Sightings {
    fn new() -> Self {
        Sightings {
            slots: [0; SLOTS],
            len: 0,
            bar: u64::MAX,
        }
    }

    fn hash(key: u128) -> u64 {
        (key as u64 ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Whether `key` (not 0) is distinguished and was recorded before; records it.
    fn seen_before(&mut self, key: u128) -> bool {
        let hash = Sightings::hash(key);
        if hash >= self.bar {
            return false;
        }
        let mut slot = (hash >> 16) as usize % SLOTS;
        loop {
            match self.slots[slot] {
                0 => break,
                k if k == key => return true,
                _ => slot = (slot + 1) % SLOTS,
            }
        }
        self.slots[slot] = key;
        self.len += 1;
        while self.len >= SLOTS / 2 {
            self.thin();
        }
        false
    }

    /// Halves the bar and keeps the entries that still pass it.
    fn thin(&mut self) {
        self.bar >>= 1;
        let kept = std::mem::replace(&mut self.slots, [0; SLOTS]);
        self.len = 0;
        for key in kept {
            let hash = Sightings::hash(key);
            if key != 0 && hash < self.bar {
                let mut slot = (hash >> 16) as usize % SLOTS;
                while self.slots[slot] != 0 {
                    slot = (slot + 1) % SLOTS;
                }
                self.slots[slot] = key;
                self.len += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LoopGuard;

    #[test]
    fn a_sequence_that_settles_into_a_cycle_is_caught() {
        // 0, 1, 2, …, 9, then 5..9 for ever.
        let step = |x: u32| if x == 9 { 5 } else { x + 1 };
        let mut guard = LoopGuard::new(0);
        let mut x = 0;
        let mut caught = false;
        for _ in 0..100 {
            x = step(x);
            if guard.repeats(x) {
                caught = true;
                break;
            }
        }
        assert!(caught);
    }

    #[test]
    fn a_long_cycle_is_found_and_an_ending_sequence_ends() {
        // x → 3x mod a prime cycles through every non-zero residue: a cycle of p − 1 values.
        let p = 1_000_003u128;
        assert!(super::repeats_before_end(1, |x| Some(x * 3 % p)));
        assert!(!super::repeats_before_end(1, |x| (x < 2_000_000).then_some(x + 1)));
    }

    #[test]
    fn a_sequence_without_repeats_is_never_flagged() {
        let mut guard = LoopGuard::new(0u32);
        assert!((1..10_000).all(|x| !guard.repeats(x)));
    }
}
