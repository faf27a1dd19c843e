//! Playing one move: docs/bao-la-kete.md §2.7, with the lap-end checks in the order A → B → C → D → E → F.

use super::circuit_index;
use super::endless::{relay_never_ends, LAPS_BEFORE_CHECK};
use super::moves::{Choices, Start};
use super::{
    base, direction_from, is_central, is_front, kichwa_for, kuu, offset, opposite, reverse,
    ring_of, row_word, BaoLaKete, HiziZetuMark, CIRCUIT, KUU_MIN, KUU_OFFSET, PITS, ROW, TAX,
};
use crate::engine::cycle::LoopGuard;
use crate::engine::event::{Event, LapSource, Trace};
use crate::engine::sow::sow_lap;
use crate::engine::work;
use crate::engine::{Direction, KuuDecision, Player};

/// How a move that ran to its end finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveEnd {
    /// The last lap ended; the opponent moves next (if he can).
    Normal,
    /// A capture emptied the opponent's front row: the mover wins (§2.7 B2).
    BaoHamna,
    /// A lap ended with the mover's own front row empty: he loses (§2.7 A).
    OwnFrontRowEmptied,
}

/// A move that ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ran {
    pub(crate) end: MoveEnd,
    /// Whether the stop-or-safari decision was reached (and so taken).
    pub(crate) decision_used: bool,
}

/// Why a move could not be played to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// The within-move configuration repeated: the sowing never ends (§1).
    NeverEnds,
    /// The first capture is in a central hole with no direction yet and no kichwa was chosen (§2.7 B3).
    KichwaRequired,
    /// A lap ended in the living kuu of a nemo capture move and no decision was given (§2.7 D).
    DecisionRequired,
}

/// Everything the rest of a move depends on at a lap end. Sowing is deterministic, so a configuration seen
/// twice means the move repeats for ever (§1). The kichwa and kuu choices are fixed for the move and the
/// `capturing`/`fromKuu` flags are constant, so only what changes is recorded.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Configuration {
    pits: [u8; PITS],
    at: u8,
    dir: Option<Direction>,
    kuu_alive: [bool; 2],
    mark: Option<HiziZetuMark>,
    first_lap: bool,
}

/// What is known of whether the move ever ends.
enum Endless {
    /// Too early to ask: most moves end within a few laps.
    Unknown,
    /// Lap ends are compared for a repeat (Brent's algorithm, no heap).
    Watching(LoopGuard<Configuration>),
    /// Proved to end by `relay_never_ends`: no need to watch any more.
    Ends,
}

/// The state of a move between laps (§2.7 "Initial set-up of the move").
struct Progress {
    /// Where the last lap ended.
    at: u8,
    /// Undefined in a nemo capture move until the first capture-sowing.
    dir: Option<Direction>,
    capturing: bool,
    nemo: bool,
    /// The move started by lifting the living kuu (§2.7; not taxation, not the six-seed rule).
    from_kuu: bool,
}

impl BaoLaKete {
    /// Plays `start` for `mover` with `choices` to the end of the move. On error the state is half-played and
    /// must be discarded (callers run on a copy).
    pub(crate) fn run<T: Trace>(
        &mut self,
        mover: Player,
        start: Start,
        choices: Choices,
        trace: &mut T,
    ) -> Result<Ran, Halt> {
        let me = mover.index();
        let mut progress = self.begin_move(mover, start, trace);
        let mut decision_used = false;
        let mut first_lap = true;
        let mut laps = 0u32;
        let mut endless = Endless::Unknown;
        loop {
            let at = progress.at;
            // A. Own front row check. A lap ending in the front row has just put a seed there.
            if !is_front(at) && !self.front_occupied(mover) {
                return Ok(Ran {
                    end: MoveEnd::OwnFrontRowEmptied,
                    decision_used,
                });
            }
            // Most moves end within a few laps; only a long one is checked for repeating (§1).
            laps += 1;
            if laps >= LAPS_BEFORE_CHECK {
                // A long move pays for its laps; out of budget it gives up (the answer is thrown away).
                if !work::spend(1) {
                    return Err(Halt::NeverEnds);
                }
                if let Endless::Watching(guard) = &mut endless {
                    if guard.repeats(self.configuration(at, &progress, first_lap)) {
                        return Err(Halt::NeverEnds);
                    }
                } else if matches!(endless, Endless::Unknown) {
                    endless = Endless::Watching(LoopGuard::new(
                        self.configuration(at, &progress, first_lap),
                    ));
                }
            }
            let seeds = self.pits[at as usize];
            // B. Capture.
            if progress.capturing
                && is_front(at)
                && seeds >= 2
                && self.pits[opposite(at) as usize] > 0
            {
                match self.capture(mover, &mut progress, choices, trace)? {
                    Some(end) => return Ok(Ran { end, decision_used }),
                    None => {
                        first_lap = false;
                        continue;
                    }
                }
            }
            // C. Empty landing.
            if seeds == 1 {
                return Ok(Ran {
                    end: MoveEnd::Normal,
                    decision_used,
                });
            }
            // D. Kuu.
            if at == kuu(mover) && self.kuu_alive[me] {
                if progress.nemo {
                    let decision = if progress.capturing {
                        let Some(decision) = choices.decision else {
                            return Err(Halt::DecisionRequired);
                        };
                        decision_used = true;
                        decision
                    } else {
                        // A nemo takata: "the turn is over without delay".
                        KuuDecision::Stop
                    };
                    if decision == KuuDecision::Stop {
                        trace.record(Event::KuuStop { pit: at });
                        return Ok(Ran {
                            end: MoveEnd::Normal,
                            decision_used,
                        });
                    }
                }
                // Safari: chosen in a nemo capture move, compulsory in mtaji.
                self.kuu_alive[me] = false;
                trace.record(Event::Safari { pit: at, seeds });
                trace.record(Event::KuuDestroyed {
                    owner: mover,
                    pit: at,
                });
            } else if self.stops_at_hizi_zetu(mover, at, first_lap && progress.from_kuu) {
                // E. Hizi zetu.
                return Ok(Ran {
                    end: MoveEnd::Normal,
                    decision_used,
                });
            }
            // F. Relay (endelea).
            let Some(dir) = progress.dir else {
                // Unreachable: a nemo capture move captures before it can relay, which sets the direction.
                return Err(Halt::KichwaRequired);
            };
            if matches!(endless, Endless::Watching(_)) && self.is_pure_relay(mover, &progress) {
                if relay_never_ends(&self.pits, base(mover), at, dir) {
                    return Err(Halt::NeverEnds);
                }
                endless = Endless::Ends;
            }
            progress.at = self.relay(mover, at, dir, trace);
            first_lap = false;
        }
    }

    /// `run` for whether `start` ends, on the mover's circuit packed into one word (no clone of the game, no
    /// trace, no watch for a repeat): a lap is a few word operations whatever its hand. `Some` is what `run`
    /// answers when the move is over within the laps it plays unwatched (most are); `None` when it goes on
    /// longer, and only `run` can tell. The steps are `run`'s, in its order. Holes are circuit positions
    /// (`circuit_index`: f1–f8 then b8–b1); the opponent's front row is a word too, his f_(8−k) facing
    /// position k. Only a mark against the mover matters (his laps stop there), so only it is followed.
    pub(crate) fn trial_early(
        &self,
        mover: Player,
        start: Start,
        choices: Choices,
    ) -> Option<Result<(), Halt>> {
        const KUU: u8 = KUU_OFFSET;
        let me = mover.index();
        let opponent = mover.opponent();
        let own = base(mover) as usize;
        let mut circuit = packed_circuit(&self.pits, own);
        let mut facing = row_word(&self.pits, base(opponent) as usize);
        let mut kuu_alive = self.kuu_alive;
        let mut marked = self
            .mark
            .filter(|m| m.blockee == mover)
            .map(|m| circuit_index(m.pit));
        let (mut at, mut dir, capturing, nemo, from_kuu) = match start {
            Start::NemoCapture { pit } => {
                let k = circuit_index(pit);
                circuit += 1 << (8 * k);
                (k, None, true, true, false)
            }
            Start::NemoTakata { pit, dir } => {
                let k = circuit_index(pit);
                circuit += 1 << (8 * k);
                let hand = if k == KUU && kuu_alive[me] {
                    // `tax_the_kuu`.
                    if seeds_at(circuit, k) - 1 <= KUU_MIN {
                        kuu_alive[me] = false;
                        lift(&mut circuit, k)
                    } else {
                        circuit -= (TAX as u128) << (8 * k);
                        TAX
                    }
                } else {
                    lift(&mut circuit, k)
                };
                (
                    sow_packed(&mut circuit, k, hand, dir),
                    Some(dir),
                    false,
                    true,
                    false,
                )
            }
            Start::Mtaji {
                pit,
                dir,
                capturing,
            } => {
                let k = circuit_index(pit);
                let hand = lift(&mut circuit, k);
                let from_kuu = k == KUU && kuu_alive[me];
                kuu_alive[me] &= !from_kuu;
                let at = sow_packed(&mut circuit, k, hand, dir);
                (at, Some(dir), capturing, false, from_kuu)
            }
        };
        let mut first_lap = true;
        for _ in 1..LAPS_BEFORE_CHECK {
            let is_front = at < ROW;
            // A. Own front row.
            if !is_front && circuit as u64 == 0 {
                return Some(Ok(()));
            }
            let seeds = seeds_at(circuit, at);
            // B. Capture, as in `capture` and `after_hole_taken`.
            let victim = (ROW - 1).wrapping_sub(at);
            if capturing && is_front && seeds >= 2 && (facing >> (8 * victim)) as u8 > 0 {
                let hole = 0xFFu64 << (8 * victim);
                if facing & !hole == 0 {
                    return Some(Ok(()));
                }
                let taken = ((facing & hole) >> (8 * victim)) as u8;
                facing &= !hole;
                // Front positions are offsets: `capture_direction` reads only the offset.
                let sow_dir = match self.capture_direction(at, dir, choices) {
                    Ok(sow_dir) => sow_dir,
                    Err(halt) => return Some(Err(halt)),
                };
                if victim == KUU {
                    kuu_alive[opponent.index()] = false;
                }
                // From the kichwa: f1 (after b1, position 15) clockwise, f8 (after b8, 8) anticlockwise.
                let before_kichwa = match sow_dir {
                    Direction::Clockwise => CIRCUIT - 1,
                    Direction::Anticlockwise => ROW,
                };
                at = sow_packed(&mut circuit, before_kichwa, taken, sow_dir);
                dir = Some(sow_dir);
                first_lap = false;
                continue;
            }
            // C. Empty landing.
            if seeds == 1 {
                return Some(Ok(()));
            }
            // D. Kuu; E. Hizi zetu.
            if at == KUU && kuu_alive[me] {
                if nemo {
                    let decision = match (capturing, choices.decision) {
                        (false, _) => KuuDecision::Stop,
                        (true, Some(decision)) => decision,
                        (true, None) => return Some(Err(Halt::DecisionRequired)),
                    };
                    if decision == KuuDecision::Stop {
                        return Some(Ok(()));
                    }
                }
                kuu_alive[me] = false;
            } else if marked == Some(at) && !(first_lap && from_kuu) {
                return Some(Ok(()));
            }
            // F. Relay.
            let Some(dir) = dir else {
                return Some(Err(Halt::KichwaRequired));
            };
            lift(&mut circuit, at);
            if marked == Some(at) {
                marked = None;
            }
            at = sow_packed(&mut circuit, at, seeds, dir);
            first_lap = false;
        }
        None
    }

    /// The within-move configuration at a lap end, for the repetition check.
    fn configuration(&self, at: u8, progress: &Progress, first_lap: bool) -> Configuration {
        Configuration {
            pits: self.pits,
            at,
            dir: progress.dir,
            kuu_alive: self.kuu_alive,
            mark: self.mark,
            first_lap,
        }
    }

    /// A takata now ends only by a lap ending in an empty hole, the same rule at every hole of the circuit:
    /// no capture, no living kuu of the mover (where a nemo takata stops), no mark against him (where his laps
    /// stop). See `endless` for why such a move can be decided exactly and fast.
    fn is_pure_relay(&self, mover: Player, progress: &Progress) -> bool {
        !progress.capturing
            && !self.kuu_alive[mover.index()]
            && !self.mark.is_some_and(|m| m.blockee == mover)
    }

    /// §2.7 "Start": place the reserve seed or lift the start hole, and sow the first lap.
    fn begin_move<T: Trace>(&mut self, mover: Player, start: Start, trace: &mut T) -> Progress {
        let me = mover.index();
        match start {
            Start::NemoCapture { pit } => {
                self.place_reserve_seed(mover, pit, trace);
                Progress {
                    at: pit,
                    dir: None,
                    capturing: true,
                    nemo: true,
                    from_kuu: false,
                }
            }
            Start::NemoTakata { pit, dir } => {
                self.place_reserve_seed(mover, pit, trace);
                let seeds = if pit == kuu(mover) && self.kuu_alive[me] {
                    self.tax_the_kuu(mover, trace)
                } else {
                    std::mem::take(&mut self.pits[pit as usize])
                };
                let at = self.sow(mover, pit, pit, seeds, dir, LapSource::Pit, trace);
                Progress {
                    at,
                    dir: Some(dir),
                    capturing: false,
                    nemo: true,
                    from_kuu: false,
                }
            }
            Start::Mtaji {
                pit,
                dir,
                capturing,
            } => {
                let seeds = std::mem::take(&mut self.pits[pit as usize]);
                let from_kuu = pit == kuu(mover) && self.kuu_alive[me];
                if from_kuu {
                    self.kuu_alive[me] = false;
                    trace.record(Event::KuuDestroyed { owner: mover, pit });
                }
                let at = self.sow(mover, pit, pit, seeds, dir, LapSource::Pit, trace);
                Progress {
                    at,
                    dir: Some(dir),
                    capturing,
                    nemo: false,
                    from_kuu,
                }
            }
        }
    }

    /// §2.5: one seed from the reserve into front hole `pit`.
    fn place_reserve_seed<T: Trace>(&mut self, mover: Player, pit: u8, trace: &mut T) {
        self.reserves[mover.index()] -= 1;
        self.pits[pit as usize] += 1;
        trace.record(Event::Lap {
            player: mover,
            origin: pit,
            seeds: 1,
            source: LapSource::Reserve,
        });
        trace.record(Event::Drop { pit });
    }

    /// §2.5 N-2: a lone living kuu that has just received the reserve seed is taxed 2 seeds; if it held exactly
    /// six before the seed, the Lamu six-seed rule lifts all seven and the kuu dies. Returns the hand.
    fn tax_the_kuu<T: Trace>(&mut self, mover: Player, trace: &mut T) -> u8 {
        let pit = kuu(mover);
        let held = self.pits[pit as usize] - 1;
        if held <= KUU_MIN {
            let seeds = std::mem::take(&mut self.pits[pit as usize]);
            self.kuu_alive[mover.index()] = false;
            trace.record(Event::Taxation {
                pit,
                seeds,
                six_seed_rule: true,
            });
            trace.record(Event::KuuDestroyed { owner: mover, pit });
            seeds
        } else {
            self.pits[pit as usize] -= TAX;
            trace.record(Event::Taxation {
                pit,
                seeds: TAX,
                six_seed_rule: false,
            });
            TAX
        }
    }

    /// §2.7 step B: take the facing hole; win if that empties the opponent's front row (B2); otherwise sow the
    /// seeds from the kichwa the capture calls for (B3, B4). `Some(end)` when the move is over.
    fn capture<T: Trace>(
        &mut self,
        mover: Player,
        progress: &mut Progress,
        choices: Choices,
        trace: &mut T,
    ) -> Result<Option<MoveEnd>, Halt> {
        let at = progress.at;
        let victim = opposite(at);
        let opponent = mover.opponent();
        // Asked before the hole is emptied: reading the row back right after the store would stall.
        let bao_hamna = !self.front_occupied_besides(opponent, victim);
        let seeds = std::mem::take(&mut self.pits[victim as usize]);
        if bao_hamna {
            // B2, Bao hamna: the captured seeds are not sown; they go to the mover's store.
            self.stores[mover.index()] += seeds;
            trace.record(Event::Capture {
                pit: victim,
                seeds,
                beneficiary: mover,
                kichwa: None,
                direction: None,
            });
            self.after_hole_taken(opponent, victim, trace);
            return Ok(Some(MoveEnd::BaoHamna));
        }
        let dir = self.capture_direction(at, progress.dir, choices)?;
        trace.record(Event::Capture {
            pit: victim,
            seeds,
            beneficiary: mover,
            kichwa: Some(kichwa_for(dir)),
            direction: Some(dir),
        });
        self.after_hole_taken(opponent, victim, trace);
        // Capture-sowing puts its first seed into the kichwa itself: start "after" the hole before it.
        let kichwa = base(mover)
            + if dir == Direction::Clockwise {
                0
            } else {
                ROW - 1
            };
        let before_kichwa = ring_of(mover, reverse(dir)).next(kichwa);
        progress.at = self.sow(
            mover,
            victim,
            before_kichwa,
            seeds,
            dir,
            LapSource::Capture,
            trace,
        );
        progress.dir = Some(dir);
        Ok(None)
    }

    /// §2.7 B3: a capture at f1/f2 is sown clockwise from f1, at f7/f8 anticlockwise from f8; at f3–f6 the
    /// direction is kept, or chosen by the kichwa when none is set yet (the first capture of a nemo move).
    fn capture_direction(
        &self,
        at: u8,
        dir: Option<Direction>,
        choices: Choices,
    ) -> Result<Direction, Halt> {
        Ok(match offset(at) {
            0 | 1 => Direction::Clockwise,
            6 | 7 => Direction::Anticlockwise,
            _ => match (dir, choices.kichwa) {
                (Some(dir), _) => dir,
                (None, Some(kichwa)) if is_central(at) => direction_from(kichwa),
                (None, _) => return Err(Halt::KichwaRequired),
            },
        })
    }

    /// A hole of `owner` was captured: a living kuu dies (§2.3) and a mark on it is cleared (§2.8).
    fn after_hole_taken<T: Trace>(&mut self, owner: Player, pit: u8, trace: &mut T) {
        if pit == kuu(owner) && self.kuu_alive[owner.index()] {
            self.kuu_alive[owner.index()] = false;
            trace.record(Event::KuuDestroyed { owner, pit });
        }
        if self.mark.is_some_and(|m| m.pit == pit) {
            self.clear_mark(trace);
        }
    }

    /// §2.7 step E, §2.8: a lap of the blockee ending in the marked hole stops the move, unless it is the first
    /// lap of a move started from his kuu.
    fn stops_at_hizi_zetu(&self, mover: Player, at: u8, first_lap_from_kuu: bool) -> bool {
        self.mark.is_some_and(|m| m.blockee == mover && m.pit == at) && !first_lap_from_kuu
    }

    /// §2.7 step F: lift the hole where the lap ended and sow on in the same direction. Lifting the marked hole
    /// empties it, which clears the mark (§2.8).
    fn relay<T: Trace>(&mut self, mover: Player, at: u8, dir: Direction, trace: &mut T) -> u8 {
        let seeds = std::mem::take(&mut self.pits[at as usize]);
        if self.mark.is_some_and(|m| m.pit == at) {
            self.clear_mark(trace);
        }
        self.sow(mover, at, at, seeds, dir, LapSource::Pit, trace)
    }

    /// One lap: `seeds` from `origin` (for the trace), dropped after `after` round the mover's circuit in `dir`.
    /// Returns the hole of the last seed.
    #[allow(clippy::too_many_arguments)]
    fn sow<T: Trace>(
        &mut self,
        mover: Player,
        origin: u8,
        after: u8,
        seeds: u8,
        dir: Direction,
        source: LapSource,
        trace: &mut T,
    ) -> u8 {
        trace.record(Event::Lap {
            player: mover,
            origin,
            seeds,
            source,
        });
        sow_lap(
            &mut self.pits,
            ring_of(mover, dir),
            after,
            seeds,
            trace,
            |_, _, _, _| {},
        )
    }
}

// ---- One player's circuit in a word, for `trial_early` ----

/// `LOW[r]`: one seed in each of bytes 0 to `r − 1`.
const LOW: [u128; CIRCUIT as usize] = {
    let mut low = [0u128; CIRCUIT as usize];
    let mut r = 1;
    while r < CIRCUIT as usize {
        low[r] = low[r - 1] | 1 << (8 * (r - 1));
        r += 1;
    }
    low
};

/// The circuit of the player whose holes start at `own`, byte k for circuit position k: the front row as it
/// is, then the back row reversed (b8 first).
#[inline(always)]
fn packed_circuit(pits: &[u8; PITS], own: usize) -> u128 {
    let back = row_word(pits, own + ROW as usize).swap_bytes();
    row_word(pits, own) as u128 | (back as u128) << 64
}

/// `SOWN[first][r]`: one seed in each of the `r` positions from `first` on, round the circuit (a table: a
/// rotate of a 128-bit word by a variable amount is a dozen instructions).
const SOWN: [[u128; CIRCUIT as usize]; CIRCUIT as usize] = {
    let mut sown = [[0u128; CIRCUIT as usize]; CIRCUIT as usize];
    let mut first = 0;
    while first < CIRCUIT as usize {
        let mut r = 0;
        while r < CIRCUIT as usize {
            sown[first][r] = LOW[r].rotate_left(8 * first as u32);
            r += 1;
        }
        first += 1;
    }
    sown
};

/// `HOLE[k]`: the byte of position `k`.
const HOLE: [u128; CIRCUIT as usize] = {
    let mut hole = [0u128; CIRCUIT as usize];
    let mut k = 0;
    while k < CIRCUIT as usize {
        hole[k] = 0xFF << (8 * k);
        k += 1;
    }
    hole
};

#[inline(always)]
fn seeds_at(circuit: u128, k: u8) -> u8 {
    // The word's half holding `k`, then a 64-bit shift (a 128-bit one by a variable amount costs more).
    let half = if k < ROW {
        circuit as u64
    } else {
        (circuit >> 64) as u64
    };
    (half >> (8 * (k % ROW))) as u8
}

/// Empties position `k`; returns its seeds.
#[inline(always)]
fn lift(circuit: &mut u128, k: u8) -> u8 {
    let seeds = seeds_at(*circuit, k);
    *circuit &= !HOLE[(k % CIRCUIT) as usize];
    seeds
}

/// A lap of `seeds` (at least 1) after position `after` in `dir`: a round into every position, one more into
/// each of the next `seeds mod 16`. Returns the position of the last seed.
#[inline(always)]
fn sow_packed(circuit: &mut u128, after: u8, seeds: u8, dir: Direction) -> u8 {
    const ONES: u128 = u128::from_le_bytes([1; CIRCUIT as usize]);
    let (rounds, rest) = (seeds / CIRCUIT, seeds % CIRCUIT);
    let (first, last) = match dir {
        Direction::Clockwise => (after.wrapping_add(1), after.wrapping_add(seeds)),
        Direction::Anticlockwise => (after.wrapping_sub(rest), after.wrapping_sub(seeds)),
    };
    *circuit += SOWN[(first % CIRCUIT) as usize][rest as usize];
    if rounds > 0 {
        *circuit += ONES * rounds as u128;
    }
    last % CIRCUIT
}
