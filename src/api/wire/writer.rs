//! The writer of protobuf's wire format the answers are written with: varints, keys, packed lists, and nested
//! messages whose length is written after their fields.

// The writer: protobuf's encoding as prost applies it to proto3 (scalars at their default are left out, repeated
// scalars are packed, a set message field is written even when empty, fields in the order of their numbers).

pub(super) const VARINT: u32 = 0;
pub(super) const LEN: u32 = 2;
pub(super) const FIXED64: u32 = 1;

pub(super) struct Writer {
    pub(super) buf: Vec<u8>,
}

impl Writer {
    pub(super) fn with_capacity(capacity: usize) -> Writer {
        Writer {
            buf: Vec::with_capacity(capacity),
        }
    }

    pub(super) fn varint(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.buf.push(value as u8 | 0x80);
            value >>= 7;
        }
        self.buf.push(value as u8);
    }

    /// A key and the varint after it (a scalar's value, a length, a length's byte set aside). When the value
    /// takes one byte, as nearly all do, key and value are written at once: one capacity check instead of one a
    /// byte. Always inlined: the field numbers are constants there, so the tests of the key fold away and what
    /// is left is a few stores (called, it cost more than the pushes it replaces).
    #[inline(always)]
    pub(super) fn key_varint(&mut self, field: u32, wire_type: u32, value: u64) {
        let key = field << 3 | wire_type;
        if key < 0x80 && value < 0x80 {
            self.buf.extend_from_slice(&[key as u8, value as u8]);
        } else if key < 0x4000 && value < 0x80 {
            // Fields 16 to 2047 (a state's variant message, 20 to 22): a two-byte key.
            self.buf
                .extend_from_slice(&[key as u8 | 0x80, (key >> 7) as u8, value as u8]);
        } else {
            self.key_varint_long(key, value);
        }
    }

    /// [`Writer::key_varint`] when either takes more than one byte (a high field number, a ply of 128 or more):
    /// kept out of line so that the inlined pair stays small.
    #[inline(never)]
    pub(super) fn key_varint_long(&mut self, key: u32, value: u64) {
        self.varint(u64::from(key));
        self.varint(value);
    }

    pub(super) fn uint32(&mut self, field: u32, value: u32) {
        if value != 0 {
            self.key_varint(field, VARINT, u64::from(value));
        }
    }

    /// A fixed64 (a one-byte key below field 16, as every state's is).
    pub(super) fn fixed64(&mut self, field: u32, value: u64) {
        if value != 0 {
            let key = (field << 3 | FIXED64) as u8;
            debug_assert!(field < 16);
            let mut bytes = [key; 9];
            bytes[1..].copy_from_slice(&value.to_le_bytes());
            self.buf.extend_from_slice(&bytes);
        }
    }

    /// An enum or int32 (negative values take ten bytes, as prost writes them).
    pub(super) fn int32(&mut self, field: u32, value: i32) {
        if value != 0 {
            self.key_varint(field, VARINT, value as i64 as u64);
        }
    }

    pub(super) fn bool(&mut self, field: u32, value: bool) {
        if value {
            self.key_varint(field, VARINT, 1);
        }
    }

    pub(super) fn string(&mut self, field: u32, value: &str) {
        if !value.is_empty() {
            self.key_varint(field, LEN, value.len() as u64);
            self.buf.extend_from_slice(value.as_bytes());
        }
    }

    /// A packed repeated uint32 (or enum, whose values here are never negative); nothing when empty. One pass:
    /// the values go into a length-delimited field like a message's, which is taken back off when it is empty.
    pub(super) fn packed(&mut self, field: u32, values: impl Iterator<Item = u32>) {
        let start = self.buf.len();
        let len = self.delimited(field, |w| values.for_each(|v| w.varint(u64::from(v))));
        if len == 0 {
            self.buf.truncate(start);
        }
    }

    /// [`Writer::packed`] for a slice (a state's pits, stores, reserves, scores): when every value is below 128,
    /// as nearly every count is, each takes one byte, so the length is the count and the values are written
    /// without a varint loop each (a vectorisable `or` tells whether they all are).
    pub(super) fn packed_slice(&mut self, field: u32, values: &[u32]) {
        if values.is_empty() {
            return;
        }
        if values.iter().fold(0, |any, &v| any | v) < 0x80 {
            self.key_varint(field, LEN, values.len() as u64);
            self.buf.extend(values.iter().map(|&v| v as u8));
        } else {
            self.packed(field, values.iter().copied());
        }
    }

    /// [`Writer::packed_slice`] for byte values (per-seat counts, round totals).
    pub(super) fn packed_bytes(&mut self, field: u32, values: &[u8]) {
        let key = field << 3 | LEN;
        // A seat's list (stores, reserves, the match score: two or three values, each below 128 but in a rare
        // state) with a one-byte key: key, length and values in one store of a known size, where the general
        // path's test of every value and copy of a slice of unknown length cost more than the few bytes.
        match *values {
            [] => return,
            [a, b] if key < 0x80 && (a | b) < 0x80 => {
                return self.buf.extend_from_slice(&[key as u8, 2, a, b]);
            }
            [a, b, c] if key < 0x80 && (a | b | c) < 0x80 => {
                return self.buf.extend_from_slice(&[key as u8, 3, a, b, c]);
            }
            _ => {}
        }
        if values.iter().fold(0, |any, &v| any | v) < 0x80 {
            self.key_varint(field, LEN, values.len() as u64);
            self.buf.extend_from_slice(values);
        } else {
            self.packed(field, values.iter().map(|&v| u32::from(v)));
        }
    }

    pub(super) fn packed_bools(&mut self, field: u32, values: &[bool]) {
        self.packed_small(field, values.iter().map(|&b| u8::from(b)));
    }

    /// A packed list of values known to be below 128 (flags, seat numbers): each takes one byte, so the length
    /// is their count and no varint is looped over; nothing when empty.
    pub(super) fn packed_small(&mut self, field: u32, values: impl ExactSizeIterator<Item = u8>) {
        if values.len() != 0 {
            self.key_varint(field, LEN, values.len() as u64);
            self.buf.extend(values);
        }
    }

    /// A message field (written even when empty, as prost writes a set `Option` or oneof message).
    pub(super) fn message(&mut self, field: u32, fields: impl FnOnce(&mut Writer)) {
        self.delimited(field, fields);
    }

    /// A length-delimited field: its key, its contents, then their length (returned) in the byte set aside for
    /// it, moved up when the length takes more than one byte.
    pub(super) fn delimited(&mut self, field: u32, contents: impl FnOnce(&mut Writer)) -> usize {
        self.key_varint(field, LEN, 0);
        let at = self.buf.len() - 1;
        contents(self);
        self.close(at)
    }

    /// Ends a length-delimited field whose contents follow the byte set aside at `at` for their length: writes
    /// the length (returned) there. Always inlined, a store and a test: the rare length of more than one byte is
    /// [`Writer::widen_length`]'s, out of line (with it inside, the calls cost more than the work).
    #[inline(always)]
    pub(super) fn close(&mut self, at: usize) -> usize {
        let len = self.buf.len() - at - 1;
        if len < 0x80 {
            self.buf[at] = len as u8;
        } else {
            self.widen_length(at, len);
        }
        len
    }

    /// [`Writer::close`] for a length of 128 or more: its varint replaces the byte set aside, the contents moved
    /// up by the extra bytes.
    #[cold]
    #[inline(never)]
    pub(super) fn widen_length(&mut self, at: usize, len: usize) {
        let mut prefix = [0u8; 10];
        let mut n = 0;
        let mut value = len as u64;
        while value >= 0x80 {
            prefix[n] = value as u8 | 0x80;
            value >>= 7;
            n += 1;
        }
        prefix[n] = value as u8;
        n += 1;
        self.buf.splice(at..at + 1, prefix[..n].iter().copied());
    }
}
