//! Exact detection of never-ending moves (docs/common.md §1): a move whose within-move configuration repeats
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
///
/// A lap costs a few nanoseconds, so the loop is cut into runs of laps between the points where something
/// other than a lap happens (Brent saving a configuration, a batch paid for, the table started): within a run a
/// lap is the lap itself, one comparison with Brent's configuration and one hash compared with a bar.
pub(crate) fn repeats_before_end(first: u128, mut lap: impl FnMut(u128) -> Option<u128>) -> bool {
    /// Laps after which the distinguished values are worth keeping.
    const SIGHTINGS_FROM: u32 = 64;
    /// Laps spent from the budget at once.
    const BATCH: u32 = 4096;
    let mut walk = Walk {
        current: first,
        saved: first,
        power: 1,
        brent_left: 1,
        unpaid: 0,
    };
    let mut before_sightings = SIGHTINGS_FROM;
    while before_sightings > 0 {
        let laps = walk.run_length(BATCH).min(before_sightings);
        match walk.run(laps, &mut lap, |_| false) {
            Run::Ended => return false,
            Run::Repeated(laps_in_run) => return walk.repeated(laps_in_run, BATCH),
            Run::Done => {}
        }
        before_sightings -= laps;
        if !walk.after_run(laps, BATCH) {
            return true;
        }
    }
    let mut sightings = Sightings::new();
    loop {
        let laps = walk.run_length(BATCH);
        match walk.run(laps, &mut lap, |value| sightings.seen_before(value)) {
            Run::Ended => return false,
            Run::Repeated(laps_in_run) => return walk.repeated(laps_in_run, BATCH),
            Run::Done => {}
        }
        if !walk.after_run(laps, BATCH) {
            return true;
        }
    }
}

/// The state of [`repeats_before_end`] between runs of laps: the current value, Brent's saved one, and the laps
/// until the next points where something happens.
struct Walk {
    current: u128,
    saved: u128,
    power: u32,
    /// Laps until Brent saves the current value.
    brent_left: u32,
    /// Laps done and not yet spent from the budget (fewer than a batch).
    unpaid: u32,
}

/// How a run of laps stopped.
enum Run {
    /// `lap` said the sequence ends.
    Ended,
    /// A value repeated, after this many laps of the run.
    Repeated(u32),
    /// All the laps of the run were done.
    Done,
}

impl Walk {
    /// Laps until the next point where something else than a lap happens.
    fn run_length(&self, batch: u32) -> u32 {
        self.brent_left.min(batch - self.unpaid)
    }

    /// Runs `laps` laps, stopping at the end of the sequence or at a repeat of Brent's value or of one `seen`
    /// (which records it) knows.
    #[inline(always)]
    fn run(
        &mut self,
        laps: u32,
        lap: &mut impl FnMut(u128) -> Option<u128>,
        mut seen: impl FnMut(u128) -> bool,
    ) -> Run {
        let mut current = self.current;
        for done in 1..=laps {
            let Some(next) = lap(current) else {
                return Run::Ended;
            };
            current = next;
            if current == self.saved || seen(current) {
                return Run::Repeated(done);
            }
        }
        self.current = current;
        Run::Done
    }

    /// Pays for a run that found a repeat (a batch when it completed one, as a lap-by-lap count would) and
    /// answers: the move never ends.
    fn repeated(&self, laps_in_run: u32, batch: u32) -> bool {
        if self.unpaid + laps_in_run == batch {
            // Spent or not, the answer is the same.
            let _ = work::spend(batch.into());
        }
        true
    }

    /// Accounts for a run of `laps` done: Brent's saving, the budget's batch. `false` when the budget is spent.
    fn after_run(&mut self, laps: u32, batch: u32) -> bool {
        self.brent_left -= laps;
        if self.brent_left == 0 {
            self.saved = self.current;
            self.power = self.power.saturating_mul(2);
            self.brent_left = self.power;
        }
        self.unpaid += laps;
        if self.unpaid == batch {
            self.unpaid = 0;
            return work::spend(batch.into());
        }
        true
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

    #[inline(always)]
    fn hash(key: u128) -> u64 {
        (key as u64 ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Whether `key` (not 0) is distinguished and was recorded before; records it.
    #[inline(always)]
    fn seen_before(&mut self, key: u128) -> bool {
        let hash = Sightings::hash(key);
        hash < self.bar && self.recorded_before(key, hash)
    }

    /// Whether the distinguished `key` was recorded before; records it.
    #[inline(never)]
    fn recorded_before(&mut self, key: u128, hash: u64) -> bool {
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

    /// On random maps (each value has one successor, or ends the sequence), the answer is the truth found by
    /// remembering every value, from short tails and cycles to ones of tens of thousands of steps, on both
    /// sides of the points where the loop changes runs (Brent's powers of two, the batches, the table).
    #[test]
    fn repeats_exactly_when_a_value_comes_back() {
        let mut rng = crate::engine::Rng::new(0x5EED_CAFE);
        let (mut repeating, mut ending) = (0, 0);
        for round in 0..400 {
            let size = [10, 100, 5_000, 70_000][round % 4];
            let ends = [0, 1, 3][round % 3];
            // Values 1..=size; a successor of 0 means the sequence ends there.
            let next: Vec<u128> = (0..=size)
                .map(|_| {
                    if rng.below(size) < ends {
                        0
                    } else {
                        1 + rng.below(size) as u128
                    }
                })
                .collect();
            let first = 1 + rng.below(size) as u128;
            let truth = {
                let mut seen = std::collections::HashSet::new();
                let mut x = first;
                loop {
                    if !seen.insert(x) {
                        break true;
                    }
                    x = next[x as usize];
                    if x == 0 {
                        break false;
                    }
                }
            };
            let answer =
                super::repeats_before_end(first, |x| Some(next[x as usize]).filter(|&y| y != 0));
            assert_eq!(answer, truth, "round {round}");
            if truth {
                repeating += 1;
            } else {
                ending += 1;
            }
        }
        assert!(repeating > 100 && ending > 50, "{repeating} / {ending}");
    }

    /// The laps are paid for in batches, the last batch only when complete, as the laps are counted.
    #[test]
    fn laps_are_paid_in_whole_batches() {
        for laps in [1u128, 4095, 4096, 4097, 100_000] {
            let (ends, spent) = crate::engine::Budget::unlimited()
                .run(|| !super::repeats_before_end(1, |x| (x <= laps).then_some(x + 1)))
                .expect("unlimited");
            assert!(ends);
            assert_eq!(spent, (laps as u64 / 4096) * 4096, "{laps} laps");
        }
        // 1, 2, …, 4096, 4096: the repeat is lap 4096, which completes the first batch.
        let (repeats, spent) = crate::engine::Budget::unlimited()
            .run(|| super::repeats_before_end(1, |x| Some((x + 1).min(4096))))
            .expect("unlimited");
        assert!(repeats);
        assert_eq!(spent, 4096);
        assert_eq!(
            crate::engine::Budget::laps(4095).run(|| super::repeats_before_end(1, |x| Some(x + 1))),
            Err(crate::engine::Unfinished::Exhausted { budget: 4095 })
        );
    }

    #[test]
    fn a_sequence_without_repeats_is_never_flagged() {
        let mut guard = LoopGuard::new(0u32);
        assert!((1..10_000).all(|x| !guard.repeats(x)));
    }
}
