//! What a search needs to know of each game beyond its rules: how good a position is for a player, which choices
//! a player has between games, and a key for the transposition table.
//!
//! Every value is an expected score for one side, in `0.0..=1.0` (1 a certain win, 0.5 even). A search looks no
//! further than the end of the game (or Bosh round) being played, so a finished game is valued by what it brings
//! to the match: in Bao la Kete the game itself (best of three, §2.9); in Bosh the stones a player takes into the
//! next round, which decide how many holes he opens (§3.4); in Ba-awa the pits his fours win him (§4.4).

use crate::engine::{BaAwa, BaoLaKete, Bosh, Game, Move, MoveList, PitSet, Player, Status};

/// The per-game knowledge of a search.
pub trait Judge: Game {
    /// The value for `side` of a position where play has stopped (the game, round or match is over).
    fn outcome(&self, side: Player) -> f64;
    /// An estimate for `side` of a position in play, from material alone: cheap, and only a guide.
    fn estimate(&self, side: Player) -> f64;
    /// The `NextGame` moves open to `chooser` between games, the default (empty choice) first. Only the
    /// chooser's own part of the choice varies; the other player keeps his default.
    fn choices(&self, chooser: Player, out: &mut MoveList);
    /// Who decides between games when nobody says: the player whose choice it is (Ba-awa's surplus player),
    /// or the one who starts the next game.
    fn default_chooser(&self) -> Player;
    /// A 64-bit key of the position, for the transposition table.
    fn key(&self) -> u64;
}

/// The value of a finished match for `side`: 1 won, 0 lost, ½ without a winner.
fn match_result(winner: Option<Player>, side: Player) -> f64 {
    match winner {
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// `mine` against `theirs` out of `total` (which bounds `mine + theirs`) as a score: ½ when equal, 1 when one
/// side holds everything. Clamped, so a custom position with more than a game's seeds stays within 0 to 1.
fn share(mine: u32, theirs: u32, total: u32) -> f64 {
    (0.5 + (mine as f64 - theirs as f64) / (2.0 * total.max(1) as f64)).clamp(0.0, 1.0)
}

/// A fast 64-bit mix (FNV-1a over bytes), enough for a transposition table's keys.
struct KeyHasher(u64);

impl KeyHasher {
    fn new() -> KeyHasher {
        KeyHasher(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }
    fn word(&mut self, word: u64) -> &mut Self {
        self.bytes(&word.to_le_bytes())
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

fn status_code(status: Status) -> u64 {
    match status {
        Status::InProgress => 0,
        Status::RoundOver => 1,
        Status::GameOver => 2,
        Status::MatchOver => 3,
    }
}

fn mover_code(mover: Option<Player>) -> u64 {
    match mover {
        None => 0,
        Some(Player::South) => 1,
        Some(Player::North) => 2,
        Some(Player::East) => 3,
    }
}

// ---- Bao la Kete (§2) ----

/// Bao la Kete's holes of one player: the sixteen from his base (§2.2).
fn bao_side(player: Player) -> std::ops::Range<usize> {
    match player {
        Player::South => 0..16,
        // East sits only in three-player Ba-awa.
        Player::North | Player::East => 16..32,
    }
}

/// The front row of one player: circuit positions 0 to 7, which are the first eight of his holes.
fn bao_front(player: Player) -> std::ops::Range<usize> {
    let side = bao_side(player);
    side.start..side.start + 8
}

impl Judge for BaoLaKete {
    fn outcome(&self, side: Player) -> f64 {
        // A game is won or lost; there is no draw (§2.9).
        match_result(self.winner(), side)
    }

    fn estimate(&self, side: Player) -> f64 {
        // Seeds a player still commands (his holes and his reserve), with the front row counted again: it is what
        // captures take and what must not be emptied (§2.9).
        let pits = self.pits();
        let reserves = self.reserves();
        let strength = |p: Player| -> u32 {
            let held: u32 = pits[bao_side(p)].iter().map(|&s| s as u32).sum();
            let front: u32 = pits[bao_front(p)].iter().map(|&s| s as u32).sum();
            let occupied = pits[bao_front(p)].iter().filter(|&&s| s > 0).count() as u32;
            held + reserves[p.index()] as u32 + front / 2 + 2 * occupied
        };
        share(strength(side), strength(side.opponent()), 64 + 32 + 16)
    }

    fn choices(&self, _chooser: Player, out: &mut MoveList) {
        // Bao la Kete has nothing to choose between games.
        out.clear();
        self.legal_moves(out);
    }

    fn default_chooser(&self) -> Player {
        self.to_move().unwrap_or(Player::South)
    }

    fn key(&self) -> u64 {
        let mut h = KeyHasher::new();
        h.bytes(self.pits())
            .bytes(&self.reserves())
            .bytes(&self.stores());
        let kuu = self.kuu_alive();
        let mark = self.mark().map_or(0, |m| {
            1 + m.pit as u64 * 4 + m.blockee.index() as u64 * 2 + m.setter.index() as u64
        });
        h.word(kuu[0] as u64 | (kuu[1] as u64) << 1 | mark << 2)
            .word(
                status_code(self.status())
                    | mover_code(self.to_move()) << 2
                    | mover_code(self.winner()) << 4,
            )
            .bytes(&self.match_score());
        h.finish()
    }
}

// ---- Bosh (§3) ----

const BOSH_SOUTH_ROW: u32 = 0x01F;
const BOSH_NORTH_ROW: u32 = 0x3E0;
const BOSH_STONES: u32 = 40;

fn bosh_row(player: Player) -> u32 {
    match player {
        Player::South => BOSH_SOUTH_ROW,
        // East sits only in three-player Ba-awa.
        Player::North | Player::East => BOSH_NORTH_ROW,
    }
}

impl Judge for Bosh {
    fn outcome(&self, side: Player) -> f64 {
        if self.status() == Status::MatchOver {
            return match_result(self.winner(), side);
        }
        // The round is over: what counts is each player's stones for the next round (§3.4 step 1).
        let totals =
            |p: Player| self.stores()[p.index()] as u32 + self.reserves()[p.index()] as u32;
        share(totals(side), totals(side.opponent()), BOSH_STONES)
    }

    fn estimate(&self, side: Player) -> f64 {
        // Stones won and carried, and the stones in a player's row, which end up his when the other runs dry
        // (§3.3), at half weight: they may still be captured.
        let pits = self.pits();
        let strength = |p: Player| -> u32 {
            let row = bosh_row(p);
            let on_row: u32 = (0..10)
                .filter(|h| row >> h & 1 == 1)
                .map(|h| pits[h] as u32)
                .sum();
            2 * (self.stores()[p.index()] as u32 + self.reserves()[p.index()] as u32) + on_row
        };
        share(strength(side), strength(side.opponent()), 2 * BOSH_STONES)
    }

    fn choices(&self, chooser: Player, out: &mut MoveList) {
        out.clear();
        if self.status() != Status::RoundOver {
            self.legal_moves(out);
            return;
        }
        out.push(Move::NextGame(PitSet::EMPTY));
        // §3.4 steps 2 and 4: the chooser opens one hole per 4 stones, at most five, in any holes of his row.
        let total = self.stores()[chooser.index()] as u32 + self.reserves()[chooser.index()] as u32;
        let holes = (total / 4).min(5);
        if holes == 0 || holes == 5 {
            return;
        }
        let row = bosh_row(chooser);
        let shift = row.trailing_zeros();
        for subset in 0u32..32 {
            if subset.count_ones() == holes {
                let choice = PitSet(subset << shift);
                // The default right-to-left fill is already listed first.
                if out.iter().all(|m| *m != Move::NextGame(choice))
                    && !is_default_bosh(choice, holes, row)
                {
                    out.push(Move::NextGame(choice));
                }
            }
        }
    }

    fn default_chooser(&self) -> Player {
        // The player who did not start this round starts the next, so he is the one to move next.
        self.to_move().unwrap_or_else(|| {
            let mut next = self.clone();
            match next.play(&Move::NextGame(PitSet::EMPTY), &mut crate::engine::NoTrace) {
                Ok(()) => next.to_move().unwrap_or(Player::South),
                Err(_) => Player::South,
            }
        })
    }

    fn key(&self) -> u64 {
        let mut h = KeyHasher::new();
        let closed = (0..10)
            .filter(|&hole| self.is_closed(hole))
            .fold(0u64, |acc, hole| acc | 1 << hole);
        h.bytes(self.pits())
            .bytes(&self.stores())
            .bytes(&self.reserves())
            .word(closed | status_code(self.status()) << 10 | mover_code(self.to_move()) << 12);
        h.finish()
    }
}

/// Whether `choice` is the fill the rules make by default: the `holes` rightmost holes of `row`.
fn is_default_bosh(choice: PitSet, holes: u32, row: u32) -> bool {
    let row_end = 32 - row.leading_zeros();
    choice.0 == ((1u32 << holes) - 1) << (row_end - holes)
}

// ---- Ba-awa (§4) ----

const BA_AWA_SOUTH_ROW: u32 = 0x03F;
const BA_AWA_NORTH_ROW: u32 = 0xFC0;
const BA_AWA_SEEDS: u32 = 48;

impl Judge for BaAwa {
    fn outcome(&self, side: Player) -> f64 {
        if self.status() == Status::MatchOver {
            return match_result(self.winner(), side);
        }
        // The game is over: every four seeds won are a pit for the next game (§4.4 step 1). With three players
        // the searched side plays against the other two together (a paranoid search).
        let stores = self.stores();
        let mine = stores.get(side) as u32;
        let all: u32 = stores.as_slice().iter().map(|&s| s as u32).sum();
        share(mine, all - mine, BA_AWA_SEEDS)
    }

    fn estimate(&self, side: Player) -> f64 {
        // Seeds won count twice; seeds in a player's own pits once, as fours made there by a passing seed are
        // his (§4.2). The two players' strengths add up to at most twice the seeds.
        let pits = self.pits();
        let strength = |p: Player| -> u32 {
            let owned: u32 = (0..12)
                .filter(|&i| self.owner(i) == p)
                .map(|i| pits[i] as u32)
                .sum();
            2 * self.stores().get(p) as u32 + owned
        };
        let others: u32 = Player::seated(self.seats())
            .iter()
            .filter(|&&p| p != side)
            .map(|&p| strength(p))
            .sum();
        share(strength(side), others, 2 * BA_AWA_SEEDS)
    }

    fn choices(&self, chooser: Player, out: &mut MoveList) {
        out.clear();
        if self.status() != Status::GameOver {
            self.legal_moves(out);
            return;
        }
        out.push(Move::NextGame(PitSet::EMPTY));
        // §4.4 step 3: only a player who won more than six pits chooses which of the opponent's he takes; three
        // players share out pits in blocks, with no choice (§4.7).
        let won = self.stores().get(chooser) as u32 / 4;
        if won <= 6 || won >= 12 || self.seats() == 3 {
            return;
        }
        let extra = won - 6;
        let row = match chooser {
            Player::South => BA_AWA_NORTH_ROW,
            Player::North | Player::East => BA_AWA_SOUTH_ROW,
        };
        let shift = row.trailing_zeros();
        let default = (1u32 << extra) - 1;
        for subset in 0u32..64 {
            if subset.count_ones() == extra && subset != default {
                out.push(Move::NextGame(PitSet(subset << shift)));
            }
        }
    }

    fn default_chooser(&self) -> Player {
        let stores = self.stores();
        if self.status() == Status::GameOver {
            let surplus = Player::BOTH.into_iter().find(|&p| stores.get(p) / 4 > 6);
            if let (Some(surplus), 2) = (surplus, self.seats()) {
                return surplus;
            }
            // Three players have no choice to make (§4.7): the one who starts the next game sends it, never a
            // player who is out.
            if self.seats() == 3 {
                let mut next = self.clone();
                if next
                    .play(&Move::NextGame(PitSet::EMPTY), &mut crate::engine::NoTrace)
                    .is_ok()
                {
                    if let Some(starter) = next.to_move() {
                        return starter;
                    }
                }
            }
        }
        self.to_move().unwrap_or(Player::South)
    }

    fn key(&self) -> u64 {
        let mut h = KeyHasher::new();
        let owned_by = |seat: Player| {
            (0..12)
                .filter(|&i| self.owner(i) == seat)
                .fold(0u64, |acc, i| acc | 1 << i)
        };
        h.bytes(self.pits()).bytes(self.stores().as_slice()).word(
            owned_by(Player::North)
                | status_code(self.status()) << 12
                | mover_code(self.to_move()) << 14
                | owned_by(Player::East) << 16,
        );
        h.finish()
    }
}
