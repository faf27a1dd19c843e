//! Exact detection of never-ending moves (RULES.md §1): a move whose within-move configuration repeats
//! would repeat for ever, because sowing is deterministic. Brent's algorithm finds the repeat with one saved
//! configuration and no heap, however long the loop.

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
    fn a_sequence_without_repeats_is_never_flagged() {
        let mut guard = LoopGuard::new(0u32);
        assert!((1..10_000).all(|x| !guard.repeats(x)));
    }
}
