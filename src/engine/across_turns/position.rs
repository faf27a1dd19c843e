//! The position key: a stable 64-bit hash of exactly what repetition compares (§1 "Repetition"): the board, the
//! stores and reserves, who is to move, and each game's own state. Left out: the move and game counters, the
//! match score, the status and the winner, and the match's options (none of them changes within a game, or they
//! say nothing of what the rest of the game can be).
//!
//! The key is FNV-1a over 64-bit words, so that any client can compute it (docs/guide/endless-play.md): these bytes,
//! padded with zero bytes to a multiple of 8, read as little-endian 64-bit words, each XORed into the hash and
//! multiplied by FNV's prime. Word by word rather than byte by byte because every state the Rules API returns
//! carries a key (each preview's too): eight times fewer multiplications on the hot calls.
//! 1. the game's `GameKind` number (1 Bao la Kete, 2 Bosh, 3 Ba-awa);
//! 2. for each of `pits`, `stores`, `reserves`: its length, then each count as one byte;
//! 3. `to_move` as its `Player` number (0 none, 1 South, 2 North, 3 East);
//! 4. Bosh: each hole's closed flag (0/1), then `round_starter`; Ba-awa: each pit's owner, `starter`, then the
//!    number of `eliminated_in_game` entries and each as 4 little-endian bytes; Bao la Kete: the stage (1 mtaji,
//!    0 nemo), both kuu flags, the mark as 0 or 1 followed by blockee, pit, setter, then `game_starter`.
//!
//! Player numbers are the protocol's. The bytes are gathered in blocks of a size known for each game
//! ([`fast_key`]); the byte-by-byte gathering ([`documented_key`]) is kept for any state they do not fit and as the
//! tests' reference.

use crate::engine::{AnyGame, GameKind, Player, StateView, VariantView};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The bytes of a position, gathered on the stack (the longest, Bao la Kete's and three-player Ba-awa's, are 49 bytes), then hashed.
struct Bytes {
    bytes: [u8; 64],
    len: usize,
}

impl Bytes {
    fn byte(&mut self, byte: u8) {
        self.bytes[self.len] = byte;
        self.len += 1;
    }

    fn list(&mut self, bytes: &[u8]) {
        self.byte(bytes.len() as u8);
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    fn seat(&mut self, seat: Option<Player>) {
        self.byte(seat_number(seat));
    }

    /// `N` bytes at once (one bounds check, no loop).
    #[inline(always)]
    fn block<const N: usize>(&mut self, bytes: [u8; N]) -> &mut Self {
        self.bytes[self.len..self.len + N].copy_from_slice(&bytes);
        self.len += N;
        self
    }

    /// A seat's list (stores, reserves) as [`Bytes::list`] writes it, when it is empty or holds two or three
    /// values (`None` otherwise).
    #[inline(always)]
    fn seat_list(&mut self, list: &[u8]) -> Option<()> {
        match *list {
            [] => self.block([0]),
            [a, b] => self.block([2, a, b]),
            [a, b, c] => self.block([3, a, b, c]),
            _ => return None,
        };
        Some(())
    }

    /// FNV-1a over the bytes as little-endian 64-bit words, the last padded with zeros.
    fn key(&self) -> u64 {
        self.bytes[..self.len.div_ceil(8) * 8]
            .chunks_exact(8)
            .fold(FNV_OFFSET, |h, word| {
                let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
                (h ^ word).wrapping_mul(FNV_PRIME)
            })
    }
}

/// The protocol's number of a seat: South 1, North 2, East 3 (index + 1), none 0.
fn seat_number(seat: Option<Player>) -> u8 {
    seat.map_or(0, |s| s.index() as u8 + 1)
}

/// The protocol's number of a game.
fn kind_number(kind: GameKind) -> u8 {
    match kind {
        GameKind::BaoLaKete => 1,
        GameKind::Bosh => 2,
        GameKind::BaAwa => 3,
    }
}

/// The position key of the state `game` stands in (see the module's documentation).
pub fn position_key(game: &AnyGame) -> u64 {
    key_of_view(&game.view())
}

/// The position key of a game's `view` (for a caller that holds the view already).
pub fn key_of_view(view: &StateView<'_>) -> u64 {
    block_key(view).unwrap_or_else(|| documented_key(view))
}

/// [`fast_key`] at the board size of `view`'s game.
#[inline(always)]
fn block_key(view: &StateView<'_>) -> Option<u64> {
    match view.kind {
        GameKind::BaoLaKete => fast_key::<32>(view),
        GameKind::Bosh => fast_key::<10>(view),
        GameKind::BaAwa => fast_key::<12>(view),
    }
}

/// The bytes of a position as [`documented_key`] gathers them, but in blocks of known size: the board of `P`
/// pits at once, a seat's list as one block of its two or three values, each game's fields a block. Every
/// returned state has its key (ApplyMove's, each preview's), and gathered byte by byte, each byte's own bounds
/// check and the lists' copies of unknown length (calls to `memcpy`) cost about 280 instructions a key, in
/// blocks about 140. `None` for a state whose lists are not of a game's usual lengths (a board of another size, a
/// seat's list of one value, a Ba-awa elimination list of other than three games): [`documented_key`] takes it.
#[inline(always)]
fn fast_key<const P: usize>(view: &StateView<'_>) -> Option<u64> {
    let pits: &[u8; P] = view.pits.try_into().ok()?;
    let mut g = Bytes {
        bytes: [0; 64],
        len: 2 + P,
    };
    g.bytes[0] = kind_number(view.kind);
    g.bytes[1] = P as u8;
    g.bytes[2..2 + P].copy_from_slice(pits);
    g.seat_list(view.stores)?;
    g.seat_list(view.reserves)?;
    g.block([seat_number(view.to_move)]);
    match view.variant {
        VariantView::Bosh {
            closed,
            round_starter,
        } => g
            .block(closed.map(u8::from))
            .block([seat_number(Some(round_starter))]),
        VariantView::BaAwa {
            owners,
            starter,
            eliminated_in,
            ..
        } => {
            g.block(owners.map(|o| seat_number(Some(o))));
            match *eliminated_in {
                [] => g.block([seat_number(Some(starter)), 0]),
                [a, b, c] => g
                    .block([seat_number(Some(starter)), 3])
                    .block(a.to_le_bytes())
                    .block(b.to_le_bytes())
                    .block(c.to_le_bytes()),
                _ => return None,
            }
        }
        VariantView::BaoLaKete {
            mtaji,
            kuu_alive: [south, north],
            mark,
            game_starter,
            ..
        } => {
            g.block([u8::from(mtaji), u8::from(south), u8::from(north)]);
            match mark {
                None => g.block([0, seat_number(Some(game_starter))]),
                Some((blockee, pit, setter)) => g.block([
                    1,
                    seat_number(Some(blockee)),
                    pit as u8,
                    seat_number(Some(setter)),
                    seat_number(Some(game_starter)),
                ]),
            }
        }
    };
    Some(g.key())
}

/// Whether [`key_of_view`] gathers `view`'s bytes in blocks (the tests' check that real states do).
#[cfg(test)]
pub(super) fn gathered_in_blocks(view: &StateView<'_>) -> bool {
    block_key(view).is_some()
}

/// The position key of `view`, its bytes gathered one by one as the module's documentation lists them.
pub(super) fn documented_key(view: &StateView<'_>) -> u64 {
    let mut h = Bytes {
        bytes: [0; 64],
        len: 0,
    };
    h.byte(kind_number(view.kind));
    h.list(view.pits);
    h.list(view.stores);
    h.list(view.reserves);
    h.seat(view.to_move);
    match view.variant {
        VariantView::Bosh {
            closed,
            round_starter,
        } => {
            closed.iter().for_each(|&c| h.byte(u8::from(c)));
            h.seat(Some(round_starter));
        }
        VariantView::BaAwa {
            owners,
            starter,
            eliminated_in,
            ..
        } => {
            owners.iter().for_each(|&o| h.seat(Some(o)));
            h.seat(Some(starter));
            h.byte(eliminated_in.len() as u8);
            for game in eliminated_in {
                game.to_le_bytes().iter().for_each(|&b| h.byte(b));
            }
        }
        VariantView::BaoLaKete {
            mtaji,
            kuu_alive,
            mark,
            game_starter,
            ..
        } => {
            h.byte(u8::from(mtaji));
            kuu_alive.iter().for_each(|&k| h.byte(u8::from(k)));
            match mark {
                None => h.byte(0),
                Some((blockee, pit, setter)) => {
                    h.byte(1);
                    h.seat(Some(blockee));
                    h.byte(pit as u8);
                    h.seat(Some(setter));
                }
            }
            h.seat(Some(game_starter));
        }
    }
    h.key()
}
