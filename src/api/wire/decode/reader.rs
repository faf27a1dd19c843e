//! The reader of protobuf's wire format that the canonical decoding is written with: varints of at most five
//! bytes, keys, length-delimited fields, packed lists, each `None` on anything the canonical encoding would
//! not write.

use crate::engine::{Player, Repeated};

// The reader: `None` whenever the input is not what it expects, so that the caller falls back to prost.

pub(super) const VARINT: u32 = 0;
pub(super) const LEN: u32 = 2;
pub(super) const FIXED64: u32 = 1;

/// A message's bytes, read front to back.
pub(super) struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(super) fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf }
    }

    fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Nothing left.
    pub(super) fn end(&self) -> Option<()> {
        self.is_empty().then_some(())
    }

    /// A varint of at most five bytes whose value fits a `u32` (what prost would read as the same `u32` or
    /// non-negative `i32`; longer ones, which prost truncates or reads as negative, fall back).
    #[inline]
    pub(super) fn varint(&mut self) -> Option<u32> {
        // One byte (every key of a state and nearly every value): split off by pattern, so with no bounds check.
        if let &[first @ 0..=0x7f, ref rest @ ..] = self.buf {
            self.buf = rest;
            return Some(u32::from(first));
        }
        let mut value = 0u64;
        for (i, &byte) in self.buf.iter().take(5).enumerate() {
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                self.buf = &self.buf[i + 1..];
                return u32::try_from(value).ok();
            }
        }
        None
    }

    /// The next key: (field number, wire type).
    pub(super) fn key(&mut self) -> Option<(u32, u32)> {
        let key = self.varint()?;
        Some((key >> 3, key & 7))
    }

    /// Whether the next key is `field` with `wire_type` (read when it is; left when it is another). The key's
    /// bytes are compared with its canonical encoding, one byte below field 16 and two below 2048, without
    /// decoding a varint: inlined where the field is a constant, each test is a compare or two. A key encoded
    /// longer than it needs is another key here, left unread, so that `end` refuses it and prost decodes it.
    #[inline(always)]
    pub(super) fn next_is(&mut self, field: u32, wire_type: u32) -> bool {
        let key = field << 3 | wire_type;
        let len = if key < 0x80 {
            (self.buf.first() == Some(&(key as u8))) as usize
        } else if key < 0x4000 {
            2 * self.buf.starts_with(&[key as u8 | 0x80, (key >> 7) as u8]) as usize
        } else {
            let mut ahead = Reader { buf: self.buf };
            return if ahead.key() == Some((field, wire_type)) {
                self.buf = ahead.buf;
                true
            } else {
                false
            };
        };
        self.buf = &self.buf[len..];
        len != 0
    }

    /// A length-delimited field's bytes (after its key).
    #[inline]
    pub(super) fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = self.varint()? as usize;
        if len > self.buf.len() {
            return None;
        }
        let (bytes, rest) = self.buf.split_at(len);
        self.buf = rest;
        Some(bytes)
    }

    /// A fixed64 field `field` (below 16: a one-byte key) read past when it is next, its value unread: one test
    /// of the length and one of the key, where reading the key and then the value took about twice the work.
    /// Left when it is another field or is cut short (so that `end` refuses what follows and prost decodes it).
    #[inline(always)]
    pub(super) fn skip_fixed64(&mut self, field: u32) {
        debug_assert!(field < 16);
        let key = (field << 3 | FIXED64) as u8;
        if let [first, _, _, _, _, _, _, _, _, rest @ ..] = self.buf {
            if *first == key {
                self.buf = rest;
            }
        }
    }

    /// A required message field `field` at this point: its bytes.
    pub(super) fn message(&mut self, field: u32) -> Option<&'a [u8]> {
        if self.next_is(field, LEN) {
            self.bytes()
        } else {
            None
        }
    }

    /// An optional `uint32` (or enum) field `field` at this point (absent: 0).
    #[inline(always)]
    pub(super) fn optional_varint(&mut self, field: u32) -> Option<u32> {
        if self.next_is(field, VARINT) {
            self.varint()
        } else {
            Some(0)
        }
    }

    /// An optional `Player` field `field` at this point (absent: unspecified).
    #[inline(always)]
    pub(super) fn optional_player(&mut self, field: u32) -> Option<Option<Player>> {
        player(self.optional_varint(field)?)
    }

    /// An optional bool field `field` at this point (absent: false).
    pub(super) fn optional_bool(&mut self, field: u32) -> Option<bool> {
        bool_value(self.optional_varint(field)?)
    }

    /// A packed repeated `uint32`'s values (after its key), appended to `list` in place (it is one of the
    /// state's lists, so moving a list built here into it would copy the whole place for `N` values).
    #[inline]
    pub(super) fn packed<const N: usize>(&mut self, list: &mut Repeated<u32, N>) -> Option<()> {
        let bytes = self.bytes()?;
        // A seat's list (stores, reserves, the match score), two values below 128: no loop at all.
        if let &[a @ 0..=0x7f, b @ 0..=0x7f] = bytes {
            if N >= 2 && list.is_empty() {
                *list = Repeated::from_slice(&[u32::from(a), u32::from(b)]);
                return Some(());
            }
        }
        if at_most(bytes, 0x7f) {
            // Every value below 128, one byte each (nearly every list of a state): one pass, no branch per value.
            list.extend_from_bytes(bytes, u32::from);
            return Some(());
        }
        let mut packed = Reader::new(bytes);
        while !packed.is_empty() {
            list.push(packed.varint()?);
        }
        Some(())
    }

    /// A packed repeated field of small values (after its key), each a single byte of at most `max` (so a
    /// one-byte varint), mapped by `value` and appended to `list` in place.
    fn packed_small<T: Copy + Default, const N: usize>(
        &mut self,
        list: &mut Repeated<T, N>,
        max: u8,
        value: impl Fn(u8) -> T,
    ) -> Option<()> {
        let bytes = self.bytes()?;
        at_most(bytes, max).then(|| list.extend_from_bytes(bytes, value))
    }

    /// A packed repeated `bool`'s values (after its key), each a single byte 0 or 1.
    pub(super) fn packed_bools<const N: usize>(
        &mut self,
        list: &mut Repeated<bool, N>,
    ) -> Option<()> {
        self.packed_small(list, 1, |b| b == 1)
    }

    /// A packed repeated `Player`'s values (after its key), each a single byte 0 to 3.
    pub(super) fn packed_players<const N: usize>(
        &mut self,
        list: &mut Repeated<Option<Player>, N>,
    ) -> Option<()> {
        const PLAYERS: [Option<Player>; 4] = [
            None,
            Some(Player::South),
            Some(Player::North),
            Some(Player::East),
        ];
        self.packed_small(list, 3, |b| PLAYERS[usize::from(b)])
    }
}

/// Whether no byte is above `max`, one less than a power of two (0x7f, 3, 1): no byte has a bit above `max`'s,
/// so the bytes are or-ed together, without a branch per byte (no early exit), a vector of bytes at a time.
#[inline]
fn at_most(bytes: &[u8], max: u8) -> bool {
    debug_assert_eq!(max & max.wrapping_add(1), 0, "{max} + 1 is a power of two");
    bytes.iter().fold(0, |bits, &b| bits | b) <= max
}

fn bool_value(value: u32) -> Option<bool> {
    match value {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

/// A `Player` field: `Some(None)` for PLAYER_UNSPECIFIED, `None` for a number that is not a player.
pub(super) fn player(value: u32) -> Option<Option<Player>> {
    match value {
        0 => Some(None),
        1 => Some(Some(Player::South)),
        2 => Some(Some(Player::North)),
        3 => Some(Some(Player::East)),
        _ => None,
    }
}
