//! Independent review of never-ending-move detection (docs/common.md §1) in Bao la Kete (§2.5–§2.8, R-2.14) and
//! Bosh (§3.2, §3.3), through the public API only.
//!
//! The engine decides long moves with a rotation argument (a packed ring seen from each lap end) instead of
//! watching whole boards. This file plays it against a *literal* reference model written from the rules: the
//! board is played lap by lap exactly as §2.7 / §3.2 describe, and a move is never-ending when a full
//! within-move configuration (board, hole, direction, kuu flags, mark, first-lap flag) repeats; a move still
//! undecided after a lap cap is skipped, never guessed. Compared, per position: the legal move set (the
//! layered obligation of §1 included), the state after every legal move (with the opponent's "no legal move"
//! check, which again needs never-ending detection), the refusal reason of every never-ending candidate, and
//! states refused because the mover has no move that ends.
//!
//! Positions: random Bao la Kete positions (both stages, kuu alive or dead, hizi-zetu marks against and by the
//! mover, big holes), whole random games from the opening, and positions built from a corpus of relay cycles
//! (laid at random lap ends, rotations, directions, sides and stages: with the kuu dead, or the takata from the
//! living kuu, the move never ends; with the kuu alive in nemo or a mark against the mover it runs long and
//! ends); random Bosh positions with every closed-hole pattern (rings of 2 to 10 open holes, hands larger
//! than the ring). `cargo test --release --test endless_review -- --include-ignored` also runs the long
//! version (bigger lap cap, many more positions).

#![allow(clippy::needless_range_loop)]

use mancala::engine::{
    AnyGame, Direction, GameKind, InvalidState, Kichwa, KuuDecision, Move, NoTrace, Player, Reason,
    Setup, Sow, Status, VariantSetup, RULES_VERSION,
};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

const S: Player = Player::South;
const N: Player = Player::North;
const CW: Direction = Direction::Clockwise;
const ACW: Direction = Direction::Anticlockwise;
const DIRS: [Direction; 2] = [CW, ACW];

// ---------------------------------------------------------------------------------------------------------
// Small utilities
// ---------------------------------------------------------------------------------------------------------

/// xorshift64: seeded, no dependencies.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x2545_F491_4F6C_DD1D | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A multiply-rotate hasher: the configuration sets hold up to millions of entries.
#[derive(Default)]
struct Fx(u64);

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }
}

type FxSet<T> = HashSet<T, BuildHasherDefault<Fx>>;

fn pack<const L: usize>(bytes: &[u8; L]) -> [u128; 2] {
    let mut words = [0u128; 2];
    for (i, &b) in bytes.iter().enumerate() {
        words[i / 16] |= (b as u128) << (8 * (i % 16));
    }
    words
}

/// Lap ends before a move starts being recorded: shorter moves are decided by ending. Exactness is kept,
/// since a never-ending move repeats among its later configurations too.
const WATCH_FROM: u32 = 20;

#[derive(Default, Debug)]
struct Stats {
    positions: u64,
    undecided: u64,
    invalid: u64,
    no_legal_move: u64,
    legal_moves: u64,
    long_legal_moves: u64,
    never_ending: u64,
    after_undecided: u64,
    opponent_stuck: u64,
    /// Bao la Kete: never-ending moves confirmed, by start: nemo takata, mtaji front hole, mtaji back-row hole,
    /// mtaji from the living kuu. Bosh: by the number of open holes.
    never_by_kind: [u64; 11],
    /// Bao la Kete: legal moves of 16 laps or more, by kind: pure relay takata, nemo takata with the kuu
    /// alive, takata with a mark against the mover, capture.
    long_by_kind: [u64; 4],
    /// Bosh: never-ending moves with a relay hand larger than the ring of open holes.
    big_hand_never: u64,
}

// ---------------------------------------------------------------------------------------------------------
// Bao la Kete: the reference model (docs/bao-la-kete.md §2.2–§2.8, played literally)
// ---------------------------------------------------------------------------------------------------------

fn base(p: Player) -> u8 {
    p.index() as u8 * 16
}
/// The hole at circuit position `k` (`k = i−1` for f_i, `16−i` for b_i, §2.2).
fn hole(p: Player, k: u8) -> u8 {
    let k = k % 16;
    base(p) + if k < 8 { k } else { 23 - k }
}
fn cidx(pit: u8) -> u8 {
    let r = pit % 16;
    if r < 8 {
        r
    } else {
        23 - r
    }
}
fn owner(pit: u8) -> Player {
    if pit < 16 {
        S
    } else {
        N
    }
}
fn next(pit: u8, dir: Direction) -> u8 {
    let k = cidx(pit);
    hole(owner(pit), if dir == CW { k + 1 } else { k + 15 })
}
fn step(pit: u8, dir: Direction, n: u8) -> u8 {
    (0..n).fold(pit, |h, _| next(h, dir))
}
fn is_front(pit: u8) -> bool {
    pit % 16 < 8
}
/// f_i faces the opponent's f_(9−i).
fn opp(pit: u8) -> u8 {
    23 - pit
}
fn kuu(p: Player) -> u8 {
    base(p) + 4
}
fn front(p: Player) -> std::ops::Range<u8> {
    base(p)..base(p) + 8
}
fn circuit(p: Player) -> std::ops::Range<u8> {
    base(p)..base(p) + 16
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Mark {
    blockee: Player,
    pit: u8,
    setter: Player,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Bao {
    pits: [u8; 32],
    reserves: [u8; 2],
    kuu: [bool; 2],
    mark: Option<Mark>,
    stores: [u8; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    NemoCapture(u8),
    NemoTakata(u8, Direction),
    Mtaji(u8, Direction, bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Normal,
    BaoHamna,
    OwnFrontEmptied,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    Ended { end: End, laps: u32 },
    Never,
    Undecided,
    NeedKichwa,
    NeedDecision,
}

/// The reference's verdict on a position: its legal moves with the state each leaves (after the sowing, before
/// the end-of-move bookkeeping), and the never-ending candidates of the layers it had to look at.
struct Layered {
    legal: Vec<(Move, Bao, End, bool, u32)>,
    never: Vec<Move>,
}

#[derive(Debug)]
struct Undecided;

/// The whole state after a move, as the wire shows it.
#[derive(Debug, PartialEq, Eq)]
struct After {
    pits: [u8; 32],
    kuu: [bool; 2],
    mark: Option<Mark>,
    stores: [u8; 2],
    status: Status,
    winner: Option<Player>,
    to_move: Option<Player>,
}

fn sow_move(
    pit: u8,
    dir: Option<Direction>,
    kichwa: Option<Kichwa>,
    d: Option<KuuDecision>,
) -> Move {
    Move::Sow(Sow {
        pit,
        direction: dir,
        kichwa,
        kuu_decision: d,
    })
}

impl Bao {
    fn empty() -> Bao {
        Bao {
            pits: [0; 32],
            reserves: [0, 0],
            kuu: [false, false],
            mark: None,
            stores: [0, 0],
        }
    }

    fn front_empty(&self, p: Player) -> bool {
        front(p).all(|h| self.pits[h as usize] == 0)
    }

    fn front_has_two(&self, p: Player) -> bool {
        front(p).any(|h| self.pits[h as usize] >= 2)
    }

    fn marked_for(&self, p: Player, pit: u8) -> bool {
        self.mark.is_some_and(|m| m.blockee == p && m.pit == pit)
    }

    fn total(&self) -> u32 {
        self.pits
            .iter()
            .chain(&self.reserves)
            .chain(&self.stores)
            .map(|&s| s as u32)
            .sum()
    }

    /// Drops `hand` seeds into the holes after `after`; the hole of the last one.
    fn sow(&mut self, after: u8, hand: u8, dir: Direction) -> u8 {
        let mut pos = after;
        for _ in 0..hand {
            pos = next(pos, dir);
            self.pits[pos as usize] += 1;
        }
        pos
    }

    /// §2.7, literally: the start, then the lap-end checks A → B → C → D → E → F. A configuration seen twice
    /// means the move never ends (§1); past `cap` lap ends the move is undecided.
    fn run(
        &mut self,
        mover: Player,
        start: Start,
        kichwa: Option<Kichwa>,
        decision: Option<KuuDecision>,
        cap: u32,
    ) -> Run {
        let me = mover.index();
        let o = mover.opponent();
        let (mut at, mut dir, capturing, nemo, from_kuu);
        match start {
            Start::NemoCapture(pit) => {
                self.reserves[me] -= 1;
                self.pits[pit as usize] += 1;
                (at, dir, capturing, nemo, from_kuu) = (pit, None, true, true, false);
            }
            Start::NemoTakata(pit, d) => {
                self.reserves[me] -= 1;
                self.pits[pit as usize] += 1;
                let hand = if pit == kuu(mover) && self.kuu[me] {
                    let held = self.pits[pit as usize] - 1;
                    if held == 6 {
                        // Lamu six-seed rule: all seven, the kuu dies.
                        self.kuu[me] = false;
                        std::mem::take(&mut self.pits[pit as usize])
                    } else {
                        // Taxation: exactly two.
                        self.pits[pit as usize] -= 2;
                        2
                    }
                } else {
                    std::mem::take(&mut self.pits[pit as usize])
                };
                at = self.sow(pit, hand, d);
                (dir, capturing, nemo, from_kuu) = (Some(d), false, true, false);
            }
            Start::Mtaji(pit, d, cap_move) => {
                let hand = std::mem::take(&mut self.pits[pit as usize]);
                from_kuu = pit == kuu(mover) && self.kuu[me];
                if from_kuu {
                    self.kuu[me] = false;
                }
                at = self.sow(pit, hand, d);
                (dir, capturing, nemo) = (Some(d), cap_move, false);
            }
        }
        let mut lap = 1u32;
        let mut seen: FxSet<([u128; 2], u32)> = FxSet::default();
        loop {
            // A. Own front row.
            if self.front_empty(mover) {
                return Run::Ended {
                    end: End::OwnFrontEmptied,
                    laps: lap,
                };
            }
            if lap > cap {
                return Run::Undecided;
            }
            if lap > WATCH_FROM {
                let meta = at as u32
                    | (dir.map_or(0, |d| 1 + (d == ACW) as u32) << 8)
                    | (self.kuu[0] as u32) << 10
                    | (self.kuu[1] as u32) << 11
                    | ((lap == 1) as u32) << 12
                    | self.mark.map_or(0, |m| {
                        (1 + m.pit as u32) << 13 | (m.blockee.index() as u32) << 19
                    });
                if !seen.insert((pack(&self.pits), meta)) {
                    return Run::Never;
                }
            }
            let c = self.pits[at as usize];
            // B. Capture.
            if capturing && is_front(at) && c >= 2 && self.pits[opp(at) as usize] >= 1 {
                let victim = opp(at);
                let x = std::mem::take(&mut self.pits[victim as usize]);
                if victim == kuu(o) && self.kuu[o.index()] {
                    self.kuu[o.index()] = false;
                }
                if self.mark.is_some_and(|m| m.pit == victim) {
                    self.mark = None;
                }
                if self.front_empty(o) {
                    self.stores[me] += x;
                    return Run::Ended {
                        end: End::BaoHamna,
                        laps: lap,
                    };
                }
                let d = match at % 16 {
                    0 | 1 => CW,
                    6 | 7 => ACW,
                    _ => match (dir, kichwa) {
                        (Some(d), _) => d,
                        (None, Some(Kichwa::Left)) => CW,
                        (None, Some(Kichwa::Right)) => ACW,
                        (None, None) => return Run::NeedKichwa,
                    },
                };
                // Capture-sowing: the first seed goes into the kichwa itself.
                let kichwa_hole = base(mover) + if d == CW { 0 } else { 7 };
                self.pits[kichwa_hole as usize] += 1;
                at = self.sow(kichwa_hole, x - 1, d);
                dir = Some(d);
                lap += 1;
                continue;
            }
            // C. Empty landing.
            if c == 1 {
                return Run::Ended {
                    end: End::Normal,
                    laps: lap,
                };
            }
            if at == kuu(mover) && self.kuu[me] {
                // D. Kuu.
                if nemo {
                    if !capturing {
                        return Run::Ended {
                            end: End::Normal,
                            laps: lap,
                        };
                    }
                    match decision {
                        None => return Run::NeedDecision,
                        Some(KuuDecision::Stop) => {
                            return Run::Ended {
                                end: End::Normal,
                                laps: lap,
                            }
                        }
                        Some(KuuDecision::Safari) => self.kuu[me] = false,
                    }
                } else {
                    self.kuu[me] = false;
                }
            } else if self.marked_for(mover, at) && !(lap == 1 && from_kuu) {
                // E. Hizi zetu.
                return Run::Ended {
                    end: End::Normal,
                    laps: lap,
                };
            }
            // F. Relay.
            let d = dir.expect("a relay has a direction");
            self.pits[at as usize] = 0;
            if self.mark.is_some_and(|m| m.pit == at) {
                self.mark = None;
            }
            at = self.sow(at, c, d);
            lap += 1;
        }
    }

    /// M-1 first-lap capture of a mtaji move: the opponent hole it captures first.
    fn mtaji_first_capture(&self, pit: u8, dir: Direction) -> Option<u8> {
        let n = self.pits[pit as usize];
        if !(2..=15).contains(&n) {
            return None;
        }
        let landing = step(pit, dir, n);
        (is_front(landing)
            && self.pits[landing as usize] >= 1
            && self.pits[opp(landing) as usize] >= 1)
            .then(|| opp(landing))
    }

    /// §2.8 T: the opponent holes `p`'s mtaji capture moves would capture first (M-1 alone).
    fn threatened(&self, p: Player) -> Vec<u8> {
        let mut holes = Vec::new();
        for pit in circuit(p) {
            for dir in DIRS {
                if let Some(v) = self.mtaji_first_capture(pit, dir) {
                    if !holes.contains(&v) {
                        holes.push(v);
                    }
                }
            }
        }
        holes
    }

    fn nemo_capture_hole(&self, pit: u8) -> bool {
        self.pits[pit as usize] >= 1 && self.pits[opp(pit) as usize] >= 1
    }

    /// Capture starts (N-1 / M-1) with the hole each captures first; the marked hole never starts a move.
    fn capture_starts(&self, p: Player) -> Vec<(Start, u8)> {
        let mut out = Vec::new();
        if self.reserves[p.index()] > 0 {
            for pit in front(p) {
                if !self.marked_for(p, pit) && self.nemo_capture_hole(pit) {
                    out.push((Start::NemoCapture(pit), opp(pit)));
                }
            }
        } else {
            for pit in circuit(p) {
                if self.marked_for(p, pit) {
                    continue;
                }
                for dir in DIRS {
                    if let Some(v) = self.mtaji_first_capture(pit, dir) {
                        out.push((Start::Mtaji(pit, dir, true), v));
                    }
                }
            }
        }
        out
    }

    /// Takata starts (N-2 / M-2, lone-kichwa rule).
    fn takata_starts(&self, p: Player) -> Vec<Start> {
        let me = p.index();
        let mut out = Vec::new();
        let front_occupied_besides =
            |pit: u8| front(p).any(|h| h != pit && self.pits[h as usize] > 0);
        let dirs_for = |pit: u8| -> Vec<Direction> {
            let alone = is_front(pit) && !front_occupied_besides(pit);
            match pit % 16 {
                0 if alone => vec![CW],
                7 if alone => vec![ACW],
                _ => DIRS.to_vec(),
            }
        };
        if self.reserves[me] > 0 {
            for pit in front(p) {
                let seeds = self.pits[pit as usize];
                if seeds == 0 || self.marked_for(p, pit) || self.nemo_capture_hole(pit) {
                    continue;
                }
                if self.kuu[me] {
                    if pit == kuu(p) && front_occupied_besides(pit) {
                        continue;
                    }
                } else if seeds == 1 && self.front_has_two(p) {
                    continue;
                }
                for d in dirs_for(pit) {
                    out.push(Start::NemoTakata(pit, d));
                }
            }
        } else {
            for pit in circuit(p) {
                let seeds = self.pits[pit as usize];
                if seeds < 2 || self.marked_for(p, pit) {
                    continue;
                }
                if self.kuu[me] {
                    if pit != kuu(p) {
                        continue;
                    }
                } else if !is_front(pit) && self.front_has_two(p) {
                    continue;
                }
                for d in dirs_for(pit) {
                    if self.mtaji_first_capture(pit, d).is_none() {
                        out.push(Start::Mtaji(pit, d, false));
                    }
                }
            }
        }
        out
    }

    /// Every complete move of `start` with the outcome of each: (move, run, state after).
    fn variants(&self, p: Player, start: Start, cap: u32) -> Vec<(Move, Run, Bao)> {
        let (pit, dir) = match start {
            Start::NemoCapture(pit) => (pit, None),
            Start::NemoTakata(pit, d) | Start::Mtaji(pit, d, _) => (pit, Some(d)),
        };
        let kichwas: &[Option<Kichwa>] = match start {
            Start::NemoCapture(pit) if (2..=5).contains(&(pit % 16)) => {
                &[Some(Kichwa::Left), Some(Kichwa::Right)]
            }
            _ => &[None],
        };
        let mut out = Vec::new();
        for &kichwa in kichwas {
            let play = |decision| {
                let mut after = self.clone();
                let run = after.run(p, start, kichwa, decision, cap);
                (run, after)
            };
            let (run, after) = play(None);
            match run {
                Run::NeedDecision => {
                    for d in [KuuDecision::Stop, KuuDecision::Safari] {
                        let (run, after) = play(Some(d));
                        out.push((sow_move(pit, dir, kichwa, Some(d)), run, after));
                    }
                }
                Run::NeedKichwa => panic!("a central nemo capture is always given a kichwa"),
                _ => out.push((sow_move(pit, dir, kichwa, None), run, after)),
            }
        }
        out
    }

    /// §1 layers: marked-hole captures, captures, takatas; the first layer with a move that ends.
    fn legal(&self, p: Player, cap: u32) -> Result<Layered, Undecided> {
        let captures = self.capture_starts(p);
        let own_mark = self.mark.filter(|m| m.setter == p).map(|m| m.pit);
        let layers: [Vec<Start>; 3] = [
            match own_mark {
                Some(h) => captures.iter().filter(|c| c.1 == h).map(|c| c.0).collect(),
                None => Vec::new(),
            },
            captures.iter().map(|c| c.0).collect(),
            self.takata_starts(p),
        ];
        let mut never = Vec::new();
        for starts in layers {
            let mut legal = Vec::new();
            let mut undecided = false;
            for start in starts {
                let capture = matches!(start, Start::NemoCapture(_) | Start::Mtaji(_, _, true));
                for (mv, run, after) in self.variants(p, start, cap) {
                    match run {
                        Run::Ended { end, laps } => legal.push((mv, after, end, capture, laps)),
                        Run::Never => never.push(mv),
                        Run::Undecided => undecided = true,
                        Run::NeedKichwa | Run::NeedDecision => unreachable!(),
                    }
                }
            }
            if undecided {
                return Err(Undecided);
            }
            if !legal.is_empty() {
                return Ok(Layered { legal, never });
            }
        }
        Ok(Layered {
            legal: Vec::new(),
            never,
        })
    }

    /// §2.8: after a takata by `x` with both reserves 0.
    fn hizi_zetu(&mut self, x: Player) {
        let y = x.opponent();
        let t = self.threatened(x);
        if t.len() != 1 || !self.threatened(y).is_empty() {
            return;
        }
        let h = t[0];
        let seeds = |p: u8| self.pits[p as usize];
        let others: Vec<u8> = front(y).filter(|&p| p != h).collect();
        let living_kuu = h == kuu(y) && self.kuu[y.index()];
        let only_occupied = others.iter().all(|&p| seeds(p) == 0);
        let only_with_more = seeds(h) > 1 && others.iter().all(|&p| seeds(p) <= 1);
        if living_kuu || only_occupied || only_with_more {
            return;
        }
        assert!(self.mark.is_none(), "a second mark would be set: {self:?}");
        self.mark = Some(Mark {
            blockee: y,
            pit: h,
            setter: x,
        });
    }

    /// §2.7 "After the move", §2.8 clearing, §2.9: the state the wire shows after a move by `mover`.
    fn finish(
        mut self,
        mover: Player,
        was_capture: bool,
        end: End,
        cap: u32,
    ) -> Result<After, Undecided> {
        let o = mover.opponent();
        let (status, winner, to_move) = match end {
            End::BaoHamna => {
                self.mark = None;
                (Status::GameOver, Some(mover), None)
            }
            End::OwnFrontEmptied => {
                self.mark = None;
                (Status::GameOver, Some(o), None)
            }
            End::Normal => {
                if self.mark.is_some_and(|m| m.setter == mover) {
                    self.mark = None;
                }
                if !was_capture && self.reserves == [0, 0] {
                    self.hizi_zetu(mover);
                }
                if self.legal(o, cap)?.legal.is_empty() {
                    self.mark = None;
                    (Status::GameOver, Some(mover), None)
                } else {
                    (Status::InProgress, None, Some(o))
                }
            }
        };
        Ok(After {
            pits: self.pits,
            kuu: self.kuu,
            mark: self.mark,
            stores: self.stores,
            status,
            winner,
            to_move,
        })
    }
}

// ---- Bao la Kete through the public API ----

fn bao_setup(st: &Bao, mover: Player) -> Setup {
    Setup {
        kind: GameKind::BaoLaKete,
        rules_version: RULES_VERSION,
        pits: st.pits.iter().map(|&s| s as u32).collect(),
        stores: vec![0, 0].into(),
        reserves: st.reserves.iter().map(|&s| s as u32).collect(),
        to_move: Some(mover),
        status: Some(Status::InProgress),
        winner: None,
        ply: 0,
        game_number: 1,
        match_score: vec![0, 0].into(),
        variant: VariantSetup::BaoLaKete {
            mtaji: Some(st.reserves[mover.index()] == 0),
            kuu_alive: st.kuu.to_vec().into(),
            mark: st
                .mark
                .map(|m| (Some(m.blockee), m.pit as u32, Some(m.setter))),
            game_starter: Some(S),
            starter_rule: mancala::engine::StarterRule::Alternate,
        },
    }
}

fn bao_of(game: &AnyGame) -> Bao {
    let AnyGame::BaoLaKete(g) = game else {
        unreachable!()
    };
    Bao {
        pits: *g.pits(),
        reserves: g.reserves(),
        kuu: g.kuu_alive(),
        mark: g.mark().map(|m| Mark {
            blockee: m.blockee,
            pit: m.pit,
            setter: m.setter,
        }),
        stores: g.stores(),
    }
}

fn after_of(game: &AnyGame) -> After {
    let st = bao_of(game);
    After {
        pits: st.pits,
        kuu: st.kuu,
        mark: st.mark,
        stores: st.stores,
        status: game.status(),
        winner: game.to_setup().winner,
        to_move: game.to_move(),
    }
}

/// The only violation is "the mover has no legal move" (§2.9: every move of his never ends, or none exists).
fn only_no_legal_move(v: &InvalidState) -> bool {
    v.0.len() == 1
        && v.0[0].field == "to_move"
        && (v.0[0].description.contains("no legal move")
            || v.0[0].description.contains("never end"))
}

fn key(mv: &Move) -> String {
    format!("{mv:?}")
}

/// Never-ending Bao la Kete moves by start: nemo takata, mtaji front hole, back-row hole, living kuu.
fn never_kind(st: &Bao, mover: Player, mv: &Move) -> usize {
    let Move::Sow(sow) = mv else { unreachable!() };
    if st.reserves[mover.index()] > 0 {
        0
    } else if sow.pit == kuu(mover) && st.kuu[mover.index()] {
        3
    } else if is_front(sow.pit) {
        1
    } else {
        2
    }
}

/// Compares the engine with the reference on one position whose state the engine either holds (`game`) or
/// should accept from `st`.
fn check_bao(st: &Bao, mover: Player, game: Option<AnyGame>, cap: u32, stats: &mut Stats) {
    stats.positions += 1;
    let Ok(reference) = st.legal(mover, cap) else {
        stats.undecided += 1;
        return;
    };
    let game = match game {
        Some(game) => game,
        None => match AnyGame::from_setup(&bao_setup(st, mover)) {
            Ok(game) => game,
            Err(e) if only_no_legal_move(&e) => {
                assert!(
                    reference.legal.is_empty(),
                    "the engine says {mover} has no move that ends, the rules give {:?}\n{st:?}",
                    reference.legal.iter().map(|l| l.0).collect::<Vec<_>>()
                );
                assert!(!reference.never.is_empty() || st.takata_starts(mover).is_empty());
                stats.no_legal_move += 1;
                stats.never_ending += reference.never.len() as u64;
                for mv in &reference.never {
                    stats.never_by_kind[never_kind(st, mover, mv)] += 1;
                }
                return;
            }
            Err(e) => {
                if std::env::var_os("ENDLESS_REVIEW_VERBOSE").is_some() {
                    eprintln!("refused: {e}\n{mover} {st:?}");
                }
                stats.invalid += 1;
                return;
            }
        },
    };
    let mut engine_moves: Vec<String> = game.legal_moves().iter().map(key).collect();
    let mut rules_moves: Vec<String> = reference.legal.iter().map(|l| key(&l.0)).collect();
    engine_moves.sort();
    rules_moves.sort();
    assert_eq!(
        engine_moves, rules_moves,
        "legal moves differ (engine, rules) for {mover}\n{st:?}\nnever-ending by the rules: {:?}",
        reference.never
    );
    for mv in &reference.never {
        stats.never_by_kind[never_kind(st, mover, mv)] += 1;
        let refusal = game.check(mv);
        assert!(
            matches!(refusal, Err(ref e) if e.reason == Reason::NeverEndingMove),
            "{mv:?} never ends by the rules; the engine says {refusal:?}\n{mover} {st:?}"
        );
        stats.never_ending += 1;
    }
    for (mv, after, end, was_capture, laps) in reference.legal {
        stats.legal_moves += 1;
        if laps >= 16 {
            stats.long_legal_moves += 1;
            let kind = if was_capture {
                3
            } else if st.mark.is_some_and(|m| m.blockee == mover) {
                2
            } else if st.reserves[mover.index()] > 0 && st.kuu[mover.index()] {
                1
            } else {
                0
            };
            stats.long_by_kind[kind] += 1;
        }
        let mut played = game.clone();
        played
            .play(&mv, &mut NoTrace)
            .unwrap_or_else(|e| panic!("{mv:?} refused: {e}\n{mover} {st:?}"));
        let Ok(expected) = after.finish(mover, was_capture, end, cap) else {
            stats.after_undecided += 1;
            continue;
        };
        if expected.status != Status::InProgress && end == End::Normal {
            stats.opponent_stuck += 1;
        }
        assert_eq!(
            after_of(&played),
            expected,
            "after {mv:?} by {mover}\n{st:?}"
        );
    }
}

// ---- Bao la Kete positions ----

/// The other player's rows: a few front seeds facing empty holes of the mover where possible (so that takatas
/// are the legal layer), the rest in the back row.
fn add_opponent(st: &mut Bao, mover: Player, rng: &mut Rng, budget: u32, sparse: bool) {
    let o = mover.opponent();
    let empties: Vec<u8> = front(mover)
        .filter(|&h| st.pits[h as usize] == 0)
        .map(opp)
        .collect();
    let fronts = 1 + rng.below(3);
    for _ in 0..fronts {
        let h = if sparse && !empties.is_empty() {
            empties[rng.below(empties.len() as u64) as usize]
        } else {
            base(o) + rng.below(8) as u8
        };
        st.pits[h as usize] += 1;
    }
    let back = rng.below(budget.saturating_sub(fronts as u32) as u64 + 1);
    for _ in 0..back {
        st.pits[(base(o) + 8 + rng.below(8) as u8) as usize] += 1;
    }
    if rng.chance(8) && st.pits[kuu(o) as usize] == 0 && st.total() + 6 <= 64 {
        st.pits[kuu(o) as usize] = 6 + rng.below(3) as u8;
        st.kuu[o.index()] = true;
    }
}

/// Reserves for the stage: South began the game, so with North to move South has one seed fewer (§2.3).
fn set_reserves(st: &mut Bao, mover: Player, nemo: bool, rng: &mut Rng) {
    st.reserves = [0, 0];
    if !nemo {
        return;
    }
    let room = 64u32.saturating_sub(st.total());
    let max = (room / 2).min(22);
    if max == 0 && !(mover == N && room >= 1) {
        return;
    }
    let r = 1 + rng.below(max.max(1) as u64) as u8;
    st.reserves = match mover {
        S => [r, r],
        _ => [r - 1, r],
    };
    if st.total() > 64 {
        st.reserves = [0, 0];
    }
}

/// A hizi-zetu mark against the mover, set by the opponent's last takata: H in the mover's front row (not his
/// living kuu), threatened by a first lap of the opponent, the mover threatening nothing (§2.8). The opponent
/// gets a hole whose first lap lands facing H. `false` when this try does not give a valid mark.
fn mark_against(st: &mut Bao, mover: Player, only: Option<u8>, rng: &mut Rng) -> bool {
    let o = mover.opponent();
    let candidates: Vec<u8> = front(mover)
        .filter(|&h| st.pits[h as usize] > 0 && !(h == kuu(mover) && st.kuu[mover.index()]))
        .filter(|&h| only.is_none_or(|only| only == h))
        .collect();
    if candidates.is_empty() {
        return false;
    }
    let h = candidates[rng.below(candidates.len() as u64) as usize];
    let landing = opp(h);
    let mut trial = st.clone();
    if trial.pits[landing as usize] == 0 {
        trial.pits[landing as usize] = 1;
    }
    let x = base(o) + rng.below(16) as u8;
    let dir = DIRS[rng.below(2) as usize];
    let n = (0..16u8).find(|&n| step(x, dir, n) == landing).unwrap_or(0);
    if n < 2 || (x == kuu(o) && trial.kuu[o.index()]) {
        return false;
    }
    trial.pits[x as usize] = n;
    if trial.total() > 64
        || !trial.threatened(o).contains(&h)
        || !trial.threatened(mover).is_empty()
    {
        return false;
    }
    trial.mark = Some(Mark {
        blockee: mover,
        pit: h,
        setter: o,
    });
    *st = trial;
    true
}

/// A hizi-zetu mark against the mover, or one he set (so he must capture its hole first).
fn add_mark(st: &mut Bao, mover: Player, rng: &mut Rng) {
    let o = mover.opponent();
    if rng.chance(50) {
        mark_against(st, mover, None, rng);
    } else {
        let t: Vec<u8> = st
            .threatened(mover)
            .into_iter()
            .filter(|&h| !(h == kuu(o) && st.kuu[o.index()]))
            .collect();
        if let Some(&h) = t.get(rng.below(t.len().max(1) as u64) as usize) {
            st.mark = Some(Mark {
                blockee: o,
                pit: h,
                setter: mover,
            });
        }
    }
}

/// A random position: the mover's circuit in one of several shapes (uniform, one big hole, mostly pairs),
/// kuu alive or dead, either stage, sometimes a mark.
fn random_bao(rng: &mut Rng) -> (Bao, Player) {
    let mover = if rng.chance(30) { N } else { S };
    let me = mover.index();
    let mut st = Bao::empty();
    let nemo = rng.chance(35);
    if rng.chance(30) {
        st.kuu[me] = true;
        let spread = if rng.chance(50) { 1 } else { 8 };
        st.pits[kuu(mover) as usize] = 6 + rng.below(spread) as u8;
    }
    let seeds = 4 + rng.below(48);
    let c = |k: u64| hole(mover, k as u8) as usize;
    match rng.below(4) {
        0 => {
            for _ in 0..seeds {
                st.pits[c(rng.below(16))] += 1;
            }
        }
        1 => {
            st.pits[c(rng.below(16))] += 10 + rng.below(25) as u8;
            for _ in 0..seeds / 2 {
                st.pits[c(rng.below(16))] += 1;
            }
        }
        2 => {
            for k in 0..16 {
                st.pits[c(k)] += [0, 1, 2, 2, 2, 3][rng.below(6) as usize];
            }
        }
        _ => {
            // Sparse: few seeds, front-heavy.
            for _ in 0..(2 + seeds / 4) {
                let span = if rng.chance(60) { 8 } else { 16 };
                st.pits[c(rng.below(span))] += 1;
            }
        }
    }
    if st.front_empty(mover) {
        st.pits[c(rng.below(8))] += 1 + rng.below(3) as u8;
    }
    let budget = 64u32.saturating_sub(st.total()).min(20);
    let sparse = rng.chance(75);
    add_opponent(&mut st, mover, rng, budget, sparse);
    if st.total() > 64 {
        return random_bao(rng);
    }
    set_reserves(&mut st, mover, nemo, rng);
    if st.reserves == [0, 0] && rng.chance(30) {
        add_mark(&mut st, mover, rng);
    }
    (st, mover)
}

/// Relay cycles of one circuit, found by a literal search (docs/bao-la-kete.md §2.7 A, C, F on 16 holes): each is a lap
/// end on the cycle, in sowing order from the hole where the lap ended, with the cycle's length in laps. Where
/// the cycle allows, the lap end holds 6 or more seeds, so that it can stand for a living kuu.
const CYCLES: [([u8; 16], u32); 118] = [
    ([12, 0, 1, 0, 3, 0, 1, 2, 3, 1, 2, 3, 2, 1, 0, 5], 70),
    ([6, 2, 0, 2, 1, 0, 3, 2, 3, 0, 1, 3, 2, 1, 0, 3], 72),
    ([9, 2, 1, 0, 2, 3, 0, 1, 0, 5, 0, 1, 0, 1, 2, 5], 72),
    ([8, 2, 1, 0, 3, 0, 2, 1, 2, 1, 0, 3, 0, 3, 1, 2], 76),
    ([7, 0, 2, 3, 0, 1, 0, 1, 2, 1, 0, 1, 4, 5, 0, 1], 80),
    ([9, 0, 2, 1, 2, 1, 2, 1, 0, 5, 0, 1, 0, 3, 2, 1], 80),
    ([7, 0, 1, 0, 2, 1, 0, 3, 0, 2, 3, 2, 1, 0, 2, 1], 84),
    ([8, 0, 1, 2, 1, 2, 1, 0, 2, 1, 0, 1, 0, 3, 2, 1], 84),
    ([2, 0, 1, 3, 2, 1, 0, 2, 1, 0, 1, 3, 2, 1, 0, 3], 88),
    ([7, 0, 1, 3, 0, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 3], 88),
    ([6, 0, 1, 2, 1, 2, 1, 0, 1, 0, 4, 0, 2, 1, 0, 3], 88),
    ([8, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 1, 2, 1, 2, 1], 88),
    ([8, 0, 1, 0, 3, 0, 1, 0, 1, 2, 3, 1, 2, 0, 2, 1], 88),
    ([12, 2, 1, 0, 1, 0, 1, 2, 1, 0, 1, 0, 1, 0, 2, 1], 90),
    ([13, 0, 1, 2, 1, 0, 1, 0, 1, 0, 2, 1, 0, 3, 0, 1], 90),
    ([2, 0, 1, 2, 1, 0, 3, 0, 1, 0, 2, 1, 0, 1, 2, 3], 96),
    ([2, 0, 2, 1, 0, 1, 0, 2, 1, 0, 1, 2, 4, 0, 2, 1], 96),
    ([6, 0, 1, 0, 1, 0, 1, 2, 1, 0, 2, 1, 0, 3, 0, 3], 96),
    ([8, 0, 1, 0, 1, 0, 3, 0, 1, 0, 2, 1, 0, 3, 0, 1], 98),
    ([6, 0, 1, 0, 1, 0, 1, 0, 1, 2, 1, 0, 2, 1, 0, 3], 100),
    ([6, 0, 1, 0, 1, 0, 1, 2, 1, 0, 2, 1, 0, 3, 0, 1], 100),
    ([10, 0, 1, 0, 1, 0, 1, 0, 1, 0, 2, 1, 0, 1, 2, 1], 102),
    ([9, 0, 1, 0, 1, 0, 2, 1, 0, 1, 0, 1, 0, 3, 0, 1], 104),
    ([2, 0, 1, 0, 1, 0, 1, 0, 3, 0, 2, 1, 2, 1, 0, 3], 108),
    ([2, 0, 1, 0, 1, 0, 1, 0, 1, 2, 1, 0, 2, 1, 0, 3], 112),
    ([2, 0, 1, 0, 1, 0, 1, 0, 1, 3, 2, 1, 0, 1, 0, 3], 112),
    ([10, 4, 1, 0, 3, 0, 3, 2, 1, 5, 4, 1, 0, 1, 2, 3], 124),
    ([17, 2, 1, 0, 8, 0, 2, 1, 4, 0, 2, 1, 2, 3, 2, 1], 128),
    ([13, 0, 1, 6, 0, 3, 1, 2, 4, 5, 1, 3, 2, 1, 0, 1], 196),
    ([15, 0, 1, 0, 1, 0, 1, 0, 2, 1, 2, 1, 0, 1, 0, 1], 198),
    ([10, 3, 0, 1, 0, 4, 3, 2, 1, 0, 1, 3, 2, 1, 2, 1], 208),
    ([11, 0, 2, 3, 0, 1, 0, 1, 2, 1, 2, 3, 2, 1, 2, 3], 208),
    ([15, 0, 2, 1, 4, 1, 2, 1, 0, 1, 0, 1, 0, 1, 2, 8], 214),
    ([7, 0, 2, 1, 0, 1, 0, 4, 3, 0, 1, 0, 4, 1, 3, 2], 220),
    ([7, 3, 0, 1, 0, 1, 0, 3, 2, 1, 0, 3, 4, 3, 0, 1], 220),
    ([12, 4, 1, 2, 1, 0, 1, 2, 1, 0, 1, 0, 4, 0, 1, 2], 220),
    ([9, 0, 6, 0, 1, 0, 2, 1, 0, 5, 0, 1, 0, 1, 4, 2], 220),
    ([8, 1, 3, 2, 1, 0, 1, 0, 2, 3, 2, 1, 2, 1, 0, 7], 222),
    ([8, 2, 3, 0, 1, 2, 1, 0, 4, 1, 2, 1, 0, 1, 2, 1], 224),
    ([10, 1, 2, 1, 0, 2, 1, 2, 1, 0, 4, 0, 4, 1, 0, 1], 232),
    ([11, 0, 4, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 3, 2], 236),
    ([11, 5, 1, 2, 0, 1, 2, 1, 0, 1, 0, 1, 0, 1, 2, 3], 240),
    ([17, 0, 1, 0, 1, 0, 4, 1, 0, 1, 0, 2, 1, 0, 2, 1], 241),
    ([10, 0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 0, 1, 5, 2, 1], 242),
    ([9, 1, 0, 2, 1, 0, 2, 1, 0, 1, 0, 2, 1, 0, 2, 4], 248),
    ([14, 0, 1, 0, 1, 0, 7, 2, 3, 0, 1, 0, 1, 0, 2, 1], 252),
    ([12, 2, 1, 0, 1, 0, 1, 0, 1, 2, 1, 0, 2, 1, 2, 1], 254),
    ([9, 0, 1, 3, 2, 0, 2, 1, 0, 5, 0, 1, 0, 3, 0, 1], 256),
    ([10, 1, 4, 2, 3, 1, 0, 3, 0, 3, 4, 1, 2, 1, 0, 3], 260),
    ([11, 1, 2, 1, 0, 1, 0, 1, 0, 1, 0, 3, 0, 1, 2, 1], 263),
    ([9, 3, 0, 1, 0, 1, 0, 1, 0, 1, 0, 5, 2, 1, 0, 1], 266),
    ([13, 0, 1, 0, 1, 0, 2, 1, 2, 1, 0, 1, 0, 3, 0, 1], 276),
    ([13, 0, 2, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 1, 0, 1], 294),
    ([15, 0, 2, 3, 0, 7, 1, 3, 2, 1, 4, 1, 0, 5, 0, 3], 294),
    ([2, 0, 1, 0, 1, 0, 2, 1, 2, 1, 0, 3, 0, 1, 2, 3], 296),
    ([2, 0, 1, 0, 2, 1, 2, 1, 0, 1, 2, 3, 0, 1, 0, 3], 296),
    ([6, 1, 0, 2, 1, 0, 1, 0, 1, 0, 2, 1, 0, 3, 0, 1], 296),
    ([6, 1, 0, 2, 1, 0, 2, 1, 0, 1, 0, 1, 2, 1, 0, 1], 296),
    ([6, 0, 1, 0, 1, 0, 3, 0, 1, 0, 1, 0, 2, 3, 0, 1], 308),
    ([6, 0, 1, 0, 1, 0, 1, 0, 2, 3, 0, 1, 0, 1, 0, 1], 332),
    ([15, 0, 2, 1, 2, 1, 0, 1, 2, 1, 0, 3, 0, 1, 0, 1], 340),
    ([10, 0, 1, 0, 2, 1, 3, 2, 1, 0, 6, 3, 2, 1, 2, 1], 348),
    ([17, 3, 0, 2, 1, 2, 3, 2, 1, 0, 4, 1, 2, 3, 0, 1], 366),
    ([15, 2, 1, 0, 2, 1, 0, 3, 2, 1, 0, 1, 0, 3, 0, 1], 372),
    ([13, 0, 8, 0, 2, 1, 0, 1, 0, 1, 0, 1, 4, 1, 2, 1], 392),
    ([17, 0, 1, 5, 0, 5, 0, 1, 0, 1, 0, 2, 1, 0, 2, 1], 414),
    ([17, 0, 1, 0, 2, 6, 0, 6, 3, 0, 1, 0, 1, 0, 2, 1], 420),
    ([17, 0, 2, 11, 4, 3, 4, 3, 2, 5, 4, 3, 0, 1, 0, 3], 456),
    ([17, 0, 1, 2, 5, 2, 0, 1, 6, 2, 1, 5, 2, 1, 2, 1], 502),
    ([17, 1, 3, 6, 1, 0, 1, 2, 5, 4, 1, 2, 1, 0, 2, 1], 522),
    ([12, 2, 5, 0, 1, 4, 1, 0, 1, 2, 1, 0, 2, 3, 2, 1], 588),
    ([17, 0, 1, 2, 0, 1, 2, 1, 0, 1, 2, 1, 0, 3, 2, 3], 600),
    ([17, 0, 1, 3, 2, 1, 0, 4, 1, 0, 4, 0, 2, 1, 0, 1], 644),
    ([17, 0, 3, 0, 1, 0, 4, 1, 3, 2, 0, 1, 4, 1, 0, 1], 656),
    ([17, 3, 0, 1, 0, 1, 0, 7, 0, 2, 1, 0, 2, 1, 0, 1], 666),
    ([9, 1, 0, 3, 0, 1, 2, 3, 0, 1, 4, 3, 0, 1, 2, 1], 676),
    ([10, 1, 2, 1, 0, 1, 3, 4, 1, 0, 1, 0, 1, 0, 5, 1], 694),
    ([11, 1, 0, 1, 2, 1, 0, 3, 0, 5, 0, 3, 0, 1, 0, 3], 708),
    ([17, 1, 0, 1, 0, 2, 1, 0, 1, 0, 1, 0, 2, 3, 0, 1], 724),
    ([25, 0, 1, 2, 1, 0, 1, 2, 4, 0, 2, 1, 0, 5, 0, 1], 765),
    ([17, 2, 1, 0, 3, 1, 2, 3, 0, 3, 0, 5, 0, 1, 0, 1], 784),
    ([17, 3, 0, 1, 0, 1, 8, 4, 2, 3, 4, 3, 4, 3, 2, 1], 802),
    ([8, 0, 1, 2, 0, 2, 1, 0, 1, 0, 4, 1, 0, 3, 0, 1], 804),
    ([10, 1, 0, 1, 0, 2, 1, 0, 1, 0, 1, 0, 4, 1, 0, 1], 828),
    ([7, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 2, 0, 1, 2, 1], 840),
    ([8, 2, 1, 0, 1, 0, 1, 0, 1, 0, 4, 1, 0, 1, 2, 1], 840),
    ([17, 1, 2, 1, 0, 1, 2, 1, 0, 2, 3, 0, 1, 0, 2, 1], 857),
    ([7, 1, 0, 3, 0, 1, 0, 1, 2, 3, 0, 1, 0, 1, 0, 1], 864),
    ([17, 2, 1, 2, 1, 0, 6, 1, 0, 1, 0, 3, 0, 1, 0, 1], 864),
    ([11, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 5, 4, 1, 0, 1], 952),
    ([15, 3, 0, 1, 8, 3, 0, 3, 2, 1, 0, 1, 0, 1, 2, 1], 1031),
    ([17, 0, 2, 1, 2, 1, 2, 1, 0, 7, 1, 0, 2, 1, 0, 1], 1084),
    ([15, 0, 2, 1, 0, 1, 3, 2, 1, 0, 4, 1, 0, 1, 0, 1], 1172),
    ([17, 1, 4, 1, 2, 0, 2, 1, 0, 1, 6, 1, 0, 1, 0, 1], 1254),
    ([17, 0, 3, 0, 1, 4, 1, 5, 4, 0, 2, 1, 2, 1, 2, 1], 1756),
    ([14, 3, 0, 3, 0, 1, 0, 1, 0, 4, 3, 0, 1, 0, 2, 1], 1944),
    ([17, 1, 0, 3, 0, 1, 0, 1, 2, 1, 0, 3, 0, 1, 2, 1], 2006),
    ([13, 3, 0, 1, 0, 1, 2, 3, 0, 1, 4, 1, 0, 1, 0, 1], 2256),
    ([12, 0, 1, 0, 1, 0, 3, 0, 1, 0, 1, 0, 5, 0, 1, 2], 2276),
    ([15, 1, 0, 1, 0, 1, 2, 1, 0, 1, 0, 1, 0, 1, 0, 1], 2479),
    ([9, 1, 0, 1, 0, 3, 0, 1, 0, 1, 0, 1, 2, 1, 0, 1], 2664),
    ([9, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 3, 0, 1, 0, 1], 2808),
    ([17, 12, 0, 1, 0, 1, 0, 1, 0, 2, 1, 2, 1, 0, 2, 1], 2976),
    ([17, 0, 1, 6, 2, 1, 0, 2, 6, 0, 2, 1, 0, 3, 0, 1], 3028),
    ([12, 1, 0, 6, 0, 1, 0, 2, 1, 2, 1, 0, 1, 3, 2, 1], 3312),
    ([17, 0, 4, 0, 2, 1, 0, 1, 0, 7, 0, 1, 0, 1, 0, 1], 3456),
    ([17, 0, 1, 3, 0, 1, 0, 1, 4, 7, 0, 1, 0, 1, 0, 1], 3832),
    ([17, 0, 3, 2, 3, 2, 3, 0, 3, 2, 4, 3, 4, 1, 2, 1], 4752),
    ([17, 0, 4, 3, 0, 1, 0, 1, 0, 3, 4, 3, 0, 1, 0, 3], 4768),
    ([17, 9, 5, 2, 5, 4, 1, 2, 1, 3, 0, 5, 2, 3, 0, 1], 6224),
    ([17, 8, 0, 1, 0, 2, 1, 0, 1, 2, 1, 0, 2, 3, 0, 1], 9120),
    ([14, 1, 0, 4, 3, 0, 1, 0, 1, 0, 1, 2, 1, 0, 5, 1], 9648),
    ([17, 4, 3, 0, 7, 1, 2, 4, 0, 4, 1, 2, 4, 3, 2, 1], 11136),
    ([17, 1, 4, 3, 2, 1, 0, 1, 2, 5, 0, 1, 0, 1, 2, 1], 15312),
    ([19, 5, 4, 1, 0, 1, 0, 7, 2, 1, 0, 3, 2, 1, 0, 1], 31280),
    ([17, 7, 0, 1, 4, 3, 0, 1, 4, 1, 0, 1, 2, 1, 0, 1], 82724),
    ([22, 1, 0, 1, 0, 2, 1, 0, 1, 0, 1, 0, 1, 0, 2, 1], 86080),
    ([26, 3, 0, 1, 0, 1, 0, 4, 0, 2, 1, 0, 1, 0, 2, 1], 107774),
];

/// Every lap end of the relay cycle through `state`, each seen from its own lap end (the relative picture: lift
/// byte 0, sow on, turn to the last seed).
fn orbit(state: &[u8; 16]) -> Vec<[u8; 16]> {
    let mut out = vec![*state];
    let mut s = *state;
    loop {
        let hand = std::mem::take(&mut s[0]) as usize;
        for i in 1..=hand {
            s[i % 16] += 1;
        }
        s.rotate_left(hand % 16);
        assert!(s[0] >= 2, "{state:?} is not on a relay cycle");
        if s == *state {
            return out;
        }
        out.push(s);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    /// Mtaji, kuu dead, the takata from the lap end (a front hole).
    MtajiFront,
    /// Mtaji, kuu dead, the front row holding only single seeds: the takata from the back-row lap end.
    MtajiBack,
    /// Mtaji, the lap end is the living kuu: the takata must start from it (and kills it).
    MtajiKuu,
    /// Nemo, kuu dead: the lap end holds one seed fewer; the reserve seed completes it.
    Nemo,
    /// Nemo with the kuu alive (6 or more seeds at f5): laps ending in the kuu stop the move.
    NemoKuuAlive,
    /// Mtaji, kuu dead, a hizi-zetu mark against the mover on a hole of the cycle: laps ending there stop.
    MarkAgainst,
    /// `MtajiKuu` with a mark against the mover on the hole where the first lap ends: the first lap of a move
    /// from the kuu relays from the marked hole (which clears the mark), so the move still never ends.
    MtajiKuuMarked,
}

const VARIANTS: [Variant; 7] = [
    Variant::MtajiFront,
    Variant::MtajiBack,
    Variant::MtajiKuu,
    Variant::Nemo,
    Variant::NemoKuuAlive,
    Variant::MarkAgainst,
    Variant::MtajiKuuMarked,
];

/// A position built from a relay cycle: a lap end of `orbit` laid on the mover's circuit at circuit position
/// `k` in `dir` (byte `i` at `k ± i`), the move from that hole being a legal takata. In the kuu-dead variants it
/// never ends (it is the cycle); with the kuu alive (nemo) or a mark against the mover it ends where the cycle
/// first ends a lap in the kuu or the marked hole. `None` when no lap end of the cycle fits the variant.
fn corpus_bao(orbit: &[[u8; 16]], variant: Variant, rng: &mut Rng) -> Option<(Bao, Player)> {
    let mover = if rng.chance(50) { N } else { S };
    for _ in 0..200 {
        let state = orbit[rng.below(orbit.len() as u64) as usize];
        let dir = DIRS[rng.below(2) as usize];
        let at = |k: u8, i: u8| if dir == CW { k + i } else { k + 16 - i };
        let k = match variant {
            Variant::MtajiKuu | Variant::MtajiKuuMarked => 4,
            Variant::MtajiBack => 8 + rng.below(8) as u8,
            Variant::NemoKuuAlive => {
                // A byte of 6 or more on f5, the lap end elsewhere in the front row.
                let j = rng.below(15) as u8 + 1;
                let k = if dir == CW {
                    (4 + 16 - j) % 16
                } else {
                    (4 + j) % 16
                };
                if state[j as usize] < 6 || k >= 8 {
                    continue;
                }
                k
            }
            _ => rng.below(8) as u8,
        };
        let mut st = Bao::empty();
        for i in 0..16u8 {
            st.pits[hole(mover, at(k, i)) as usize] = state[i as usize];
        }
        let start = hole(mover, k);
        let nemo = matches!(variant, Variant::Nemo | Variant::NemoKuuAlive);
        match variant {
            Variant::MtajiKuu | Variant::MtajiKuuMarked if state[0] < 6 => continue,
            Variant::MtajiBack if st.front_has_two(mover) => continue,
            Variant::MtajiKuu | Variant::MtajiKuuMarked | Variant::NemoKuuAlive => {
                st.kuu[mover.index()] = true
            }
            _ => {}
        }
        if nemo {
            st.pits[start as usize] -= 1;
        }
        let budget = 64u32
            .saturating_sub(st.total() + if nemo { 2 } else { 0 })
            .min(12);
        let sparse = rng.chance(85);
        add_opponent(&mut st, mover, rng, budget.max(1), sparse);
        set_reserves(&mut st, mover, nemo, rng);
        if nemo && st.reserves == [0, 0] {
            continue;
        }
        if st.total() > 64 {
            continue;
        }
        if variant == Variant::MarkAgainst && !mark_against(&mut st, mover, None, rng) {
            continue;
        }
        if variant == Variant::MtajiKuuMarked {
            let first_lap_end = hole(mover, at(k, state[0] % 16));
            if !is_front(first_lap_end) || !mark_against(&mut st, mover, Some(first_lap_end), rng) {
                continue;
            }
        }
        return Some((st, mover));
    }
    None
}

// ---- Bao la Kete tests ----

const BAO_CAP: u32 = 20_000;

#[test]
fn bao_random_positions_agree_with_the_literal_rules() {
    let mut rng = Rng::new(0xB401_A4E7E);
    let mut stats = Stats::default();
    for _ in 0..20_000 {
        let (st, mover) = random_bao(&mut rng);
        check_bao(&st, mover, None, BAO_CAP, &mut stats);
    }
    eprintln!("random Bao la Kete positions: {stats:?}");
    assert!(
        stats.legal_moves > 5_000 && stats.long_legal_moves > 100,
        "{stats:?}"
    );
    assert!(stats.invalid < stats.positions / 4, "{stats:?}");
}

/// Every variant of every short cycle of the corpus, at random lap ends, rotations, directions and sides.
fn corpus_positions(
    max_len: u32,
    per_variant: usize,
    cap: u32,
    rng: &mut Rng,
) -> Vec<(Variant, Stats)> {
    let mut stats: Vec<(Variant, Stats)> =
        VARIANTS.iter().map(|&v| (v, Stats::default())).collect();
    for (state, len) in CYCLES.iter() {
        if *len > max_len {
            continue;
        }
        let orbit = orbit(state);
        for (variant, stats) in stats.iter_mut() {
            for _ in 0..per_variant {
                if let Some((st, mover)) = corpus_bao(&orbit, *variant, rng) {
                    check_bao(&st, mover, None, cap, stats);
                }
            }
        }
    }
    for (variant, stats) in &stats {
        eprintln!("relay-cycle positions, {variant:?}: {stats:?}");
    }
    stats
}

#[test]
fn bao_relay_cycles_never_end_at_every_rotation_stage_and_kuu() {
    let mut rng = Rng::new(0xC7C1E);
    let stats = corpus_positions(5_000, 8, BAO_CAP, &mut rng);
    for (variant, stats) in &stats {
        assert!(
            stats.invalid < stats.positions / 5 + 5,
            "{variant:?}: {stats:?}"
        );
        match variant {
            Variant::NemoKuuAlive | Variant::MarkAgainst => {
                assert_eq!(stats.never_ending, 0, "{variant:?}: {stats:?}");
                assert!(
                    stats.long_by_kind[1] + stats.long_by_kind[2] > 20,
                    "{variant:?}: {stats:?}"
                );
            }
            Variant::MtajiBack | Variant::MtajiKuuMarked => {}
            _ => assert!(stats.never_ending > 50, "{variant:?}: {stats:?}"),
        }
    }
}

/// Whole random games from the opening, every position checked.
#[test]
fn bao_random_games_agree_with_the_literal_rules() {
    let mut rng = Rng::new(0x6A3E5);
    let mut stats = Stats::default();
    for _ in 0..20 {
        let mut game = AnyGame::new_match(GameKind::BaoLaKete, &Default::default());
        for _ in 0..400 {
            if game.status() != Status::InProgress {
                break;
            }
            let mover = game.to_move().unwrap();
            check_bao(
                &bao_of(&game),
                mover,
                Some(game.clone()),
                BAO_CAP,
                &mut stats,
            );
            let moves = game.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            game.play(&mv, &mut NoTrace).unwrap();
        }
    }
    eprintln!("Bao la Kete random games: {stats:?}");
}

fn side(f: [u8; 8], b: [u8; 8]) -> [u8; 16] {
    let mut s = [0; 16];
    s[..8].copy_from_slice(&f);
    s[8..].copy_from_slice(&b);
    s
}

/// Known never-ending positions (the engine's own examples, checked here against the rules).
#[test]
fn bao_known_never_ending_positions() {
    let mut stats = Stats::default();
    let mut st = Bao::empty();
    st.pits[..16].copy_from_slice(&side([1, 2, 6, 1, 10, 1, 0, 1], [0, 1, 0, 4, 5, 2, 3, 2]));
    st.pits[16..].copy_from_slice(&side([3, 4, 9, 1, 0, 1, 1, 0], [0, 0, 2, 0, 2, 1, 1, 0]));
    check_bao(&st, S, None, 1_000_000, &mut stats);
    assert_eq!(
        stats.never_ending, 1,
        "S f3 anticlockwise never ends: {stats:?}"
    );
    let mut st = Bao::empty();
    st.pits[..16].copy_from_slice(&side([0, 1, 0, 1, 11, 1, 0, 1], [3, 2, 3, 2, 1, 2, 1, 0]));
    st.pits[16] = 1;
    st.kuu = [true, false];
    check_bao(&st, S, None, 1_000_000, &mut stats);
    assert_eq!(
        stats.no_legal_move, 1,
        "both takatas from the kuu never end: {stats:?}"
    );
}

/// The long version: a larger lap cap and many more positions (release mode).
#[test]
#[ignore]
fn bao_long() {
    let mut rng = Rng::new(0x10_4E);
    let mut stats = Stats::default();
    corpus_positions(u32::MAX, 40, 2_000_000, &mut rng);
    for _ in 0..300_000 {
        let (st, mover) = random_bao(&mut rng);
        check_bao(&st, mover, None, 2_000_000, &mut stats);
    }
    eprintln!("random: {stats:?}");
    let mut stats = Stats::default();
    for _ in 0..200 {
        let mut game = AnyGame::new_match(GameKind::BaoLaKete, &Default::default());
        for _ in 0..400 {
            if game.status() != Status::InProgress {
                break;
            }
            let mover = game.to_move().unwrap();
            check_bao(
                &bao_of(&game),
                mover,
                Some(game.clone()),
                2_000_000,
                &mut stats,
            );
            let moves = game.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            game.play(&mv, &mut NoTrace).unwrap();
        }
    }
    eprintln!("games: {stats:?}");
}

// ---------------------------------------------------------------------------------------------------------
// Bosh: the reference model (docs/bosh.md §3.2, §3.3) and the comparison
// ---------------------------------------------------------------------------------------------------------

fn bosh_next(closed: u16, h: u8) -> u8 {
    (1..=10)
        .map(|s| (h + s) % 10)
        .find(|&c| closed >> c & 1 == 0)
        .unwrap()
}

fn bosh_row(p: Player) -> std::ops::Range<u8> {
    if p == S {
        0..5
    } else {
        5..10
    }
}

enum BoshRun {
    Ended { captured: u8, relays: u32 },
    Never { big_hand: bool },
    Undecided,
}

/// §3.2 literally; a repeat of (board, hole about to be lifted) means the move never ends.
fn bosh_run(pits: &mut [u8; 10], closed: u16, h: u8, cap: u32) -> BoshRun {
    let mut hand = std::mem::take(&mut pits[h as usize]);
    let mut pos = h;
    let mut relays = 0u32;
    let mut seen: FxSet<u128> = FxSet::default();
    let ring = (0..10).filter(|&h| closed >> h & 1 == 0).count() as u8;
    let mut big_hand = false;
    loop {
        while hand > 0 {
            pos = bosh_next(closed, pos);
            pits[pos as usize] += 1;
            hand -= 1;
        }
        let n1 = bosh_next(closed, pos);
        if pits[n1 as usize] > 0 {
            relays += 1;
            if relays > cap {
                return BoshRun::Undecided;
            }
            if relays > WATCH_FROM && !seen.insert(pack(pits)[0] | (n1 as u128) << 120) {
                return BoshRun::Never { big_hand };
            }
            hand = std::mem::take(&mut pits[n1 as usize]);
            big_hand |= hand > ring;
            pos = n1;
            continue;
        }
        let n2 = bosh_next(closed, n1);
        let captured = std::mem::take(&mut pits[n2 as usize]);
        return BoshRun::Ended { captured, relays };
    }
}

struct BoshLegal {
    legal: Vec<(u8, [u8; 10], u8, u32)>,
    never: Vec<u8>,
    /// Never-ending moves with a relay hand larger than the ring of open holes.
    big_hands: u64,
}

fn bosh_legal(pits: &[u8; 10], closed: u16, p: Player, cap: u32) -> Result<BoshLegal, Undecided> {
    let mut out = BoshLegal {
        legal: Vec::new(),
        never: Vec::new(),
        big_hands: 0,
    };
    for h in bosh_row(p) {
        if closed >> h & 1 == 1 || pits[h as usize] == 0 {
            continue;
        }
        let mut after = *pits;
        match bosh_run(&mut after, closed, h, cap) {
            BoshRun::Ended { captured, relays } => out.legal.push((h, after, captured, relays)),
            BoshRun::Never { big_hand } => {
                out.never.push(h);
                out.big_hands += big_hand as u64;
            }
            BoshRun::Undecided => return Err(Undecided),
        }
    }
    Ok(out)
}

fn bosh_setup(pits: &[u8; 10], closed: u16, mover: Player) -> Setup {
    let open = |p: Player| bosh_row(p).filter(|&h| closed >> h & 1 == 0).count() as u32;
    Setup {
        kind: GameKind::Bosh,
        rules_version: RULES_VERSION,
        pits: pits.iter().map(|&s| s as u32).collect(),
        stores: vec![0, 0].into(),
        reserves: vec![0, 0].into(),
        to_move: Some(mover),
        status: Some(Status::InProgress),
        winner: None,
        ply: 0,
        game_number: 1,
        match_score: vec![open(S), open(N)].into(),
        variant: VariantSetup::Bosh {
            closed: (0..10).map(|h| closed >> h & 1 == 1).collect(),
            round_starter: Some(mover),
        },
    }
}

fn check_bosh(pits: &[u8; 10], closed: u16, mover: Player, cap: u32, stats: &mut Stats) {
    stats.positions += 1;
    let Ok(reference) = bosh_legal(pits, closed, mover, cap) else {
        stats.undecided += 1;
        return;
    };
    let game = match AnyGame::from_setup(&bosh_setup(pits, closed, mover)) {
        Ok(game) => game,
        Err(e) if only_no_legal_move(&e) => {
            assert!(
                reference.legal.is_empty(),
                "the engine says every move never ends; by the rules {:?} end\n{pits:?} closed {closed:#x} {mover}",
                reference.legal.iter().map(|l| l.0).collect::<Vec<_>>()
            );
            stats.no_legal_move += 1;
            stats.never_ending += reference.never.len() as u64;
            stats.never_by_kind[(0..10).filter(|&h| closed >> h & 1 == 0).count()] +=
                reference.never.len() as u64;
            return;
        }
        Err(e) => panic!("state refused: {e}\n{pits:?} closed {closed:#x} {mover}"),
    };
    let mut engine_moves: Vec<u8> = game
        .legal_moves()
        .iter()
        .map(|m| match m {
            Move::Sow(s) => s.pit,
            _ => unreachable!(),
        })
        .collect();
    engine_moves.sort();
    let rules_moves: Vec<u8> = reference.legal.iter().map(|l| l.0).collect();
    assert_eq!(
        engine_moves, rules_moves,
        "legal moves differ (engine, rules): {pits:?} closed {closed:#x} {mover}; never-ending by the rules: {:?}",
        reference.never
    );
    let ring = (0..10).filter(|&h| closed >> h & 1 == 0).count();
    stats.big_hand_never += reference.big_hands;
    for &h in &reference.never {
        stats.never_by_kind[ring] += 1;
        let refusal = game.check(&Move::Sow(Sow::from(h)));
        assert!(
            matches!(refusal, Err(ref e) if e.reason == Reason::NeverEndingMove),
            "{h} never ends by the rules; the engine says {refusal:?}\n{pits:?} closed {closed:#x} {mover}"
        );
        stats.never_ending += 1;
    }
    for (h, after, captured, relays) in reference.legal {
        stats.legal_moves += 1;
        if relays >= 16 {
            stats.long_legal_moves += 1;
        }
        let mut played = game.clone();
        played
            .play(&Move::Sow(Sow::from(h)), &mut NoTrace)
            .unwrap_or_else(|e| panic!("{h} refused: {e}\n{pits:?} closed {closed:#x} {mover}"));
        let mut stores = [0u8; 2];
        stores[mover.index()] = captured;
        // §3.3: the opponent's turn begins; with no move that ends he forfeits the board to the mover.
        let Ok(next) = bosh_legal(&after, closed, mover.opponent(), cap) else {
            stats.after_undecided += 1;
            continue;
        };
        let (pits_after, status, to_move, winner) = if next.legal.is_empty() {
            stats.opponent_stuck += 1;
            stores[mover.index()] += after.iter().sum::<u8>();
            let (status, winner) = match (stores[0] < 4, stores[1] < 4) {
                (true, true) => (Status::MatchOver, None),
                (true, false) => (Status::MatchOver, Some(N)),
                (false, true) => (Status::MatchOver, Some(S)),
                (false, false) => (Status::RoundOver, None),
            };
            ([0u8; 10], status, None, winner)
        } else {
            (after, Status::InProgress, Some(mover.opponent()), None)
        };
        let AnyGame::Bosh(g) = &played else {
            unreachable!()
        };
        let context = format!("after {h}: {pits:?} closed {closed:#x} {mover}");
        assert_eq!(g.pits(), &pits_after, "{context}");
        assert_eq!(g.stores(), stores, "{context}");
        assert_eq!(
            (played.status(), played.to_move()),
            (status, to_move),
            "{context}"
        );
        if status == Status::MatchOver {
            assert_eq!(played.to_setup().winner, winner, "{context}");
        }
    }
}

/// A random Bosh position: each player opens 1 to 5 holes of his choice (rings of 2 to 10 open holes), up to
/// 40 stones in them, the mover holding at least one.
fn random_bosh(rng: &mut Rng) -> ([u8; 10], u16, Player) {
    let mover = if rng.chance(50) { S } else { N };
    let mut closed = 0u16;
    for p in [S, N] {
        let open = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5][rng.below(10) as usize];
        let mut row: Vec<u8> = bosh_row(p).collect();
        for i in (1..row.len()).rev() {
            row.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for &h in &row[open..] {
            closed |= 1 << h;
        }
    }
    let open: Vec<u8> = (0..10).filter(|&h| closed >> h & 1 == 0).collect();
    let mut pits = [0u8; 10];
    let stones = 1 + rng.below(40);
    for _ in 0..stones {
        pits[open[rng.below(open.len() as u64) as usize] as usize] += 1;
    }
    let mine: Vec<u8> = bosh_row(mover).filter(|&h| closed >> h & 1 == 0).collect();
    if mine.iter().all(|&h| pits[h as usize] == 0) {
        let h = mine[rng.below(mine.len() as u64) as usize];
        pits[h as usize] += 1;
        if stones == 40 {
            let donor = (0..10).find(|&d| d != h as usize && pits[d] > 0).unwrap();
            pits[donor] -= 1;
        }
    }
    (pits, closed, mover)
}

const BOSH_CAP: u32 = 200_000;

#[test]
fn bosh_random_positions_agree_with_the_literal_rules() {
    let mut rng = Rng::new(0xB05E);
    let mut stats = Stats::default();
    for _ in 0..40_000 {
        let (pits, closed, mover) = random_bosh(&mut rng);
        check_bosh(&pits, closed, mover, BOSH_CAP, &mut stats);
    }
    eprintln!("random Bosh positions: {stats:?}");
    assert!(
        stats.never_ending > 1_000 && stats.no_legal_move > 100,
        "{stats:?}"
    );
    assert!(stats.long_legal_moves > 100, "{stats:?}");
}

/// docs/bosh.md §3.2: open holes S3…N5, pits [0,0,5,2,0 | 2,1,0,1,1], North to move: N5 never ends.
#[test]
fn bosh_rules_example_never_ends() {
    let mut stats = Stats::default();
    check_bosh(
        &[0, 0, 5, 2, 0, 2, 1, 0, 1, 1],
        0b11,
        N,
        1_000_000,
        &mut stats,
    );
    assert!(stats.never_ending >= 1, "{stats:?}");
}

#[test]
#[ignore]
fn bosh_long() {
    let mut rng = Rng::new(0x104E_B05E);
    let mut stats = Stats::default();
    for _ in 0..1_000_000 {
        let (pits, closed, mover) = random_bosh(&mut rng);
        check_bosh(&pits, closed, mover, 5_000_000, &mut stats);
    }
    eprintln!("random Bosh positions: {stats:?}");
}
