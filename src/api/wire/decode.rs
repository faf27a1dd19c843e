//! The hot Rules requests (`ValidateMove`, `ApplyMove`, `ListLegalMoves`) decoded straight from protobuf's wire
//! format into the engine's values (a [`Setup`] and a [`Move`]), without building prost's messages and converting
//! them (issue 18): the other half of [`super`], which writes the answers.
//!
//! Only the **canonical** encoding is decoded here, the one prost and the other standard encoders write for a
//! well-formed request: known fields only, each once, in the order of their numbers, with its own wire type,
//! repeated scalars packed, varints of at most five bytes holding a `u32`, bools 0 or 1, at most one member of a
//! oneof, and only values that [`convert`](super::convert) accepts without a violation (a known game kind, known
//! enum values, a move that fits the board, no pit listed twice). Anything else, malformed or merely unusual,
//! falls back to prost's decoding and `convert`, so that every error, status and violation is theirs by
//! construction; for the input it accepts, the values are those `convert` gives (`tests` below, over a corpus
//! of real requests and their mutations, and `service::rules::tests` for whole calls).
//!
//! The server's Rules service (build.rs) takes these three requests as [`Call`]s: a `prost::Message` whose
//! `merge` tries the canonical decoding first and keeps prost's message when it does not apply.

use std::fmt;

use bytes::{Buf, BufMut, Bytes};
use prost::encoding::{DecodeContext, WireType};

use super::pb;
use crate::api::setup_box::SetupBox;
use crate::engine::{
    Direction, GameKind, Kichwa, KuuDecision, Move, PitSet, Player, Repeated, Setup, Sow,
    StarterRule, Status, VariantSetup,
};

/// A prost request that may be decoded straight into engine values.
pub trait Canonical: prost::Message + Default + PartialEq + fmt::Debug + Sized {
    /// The engine values of the request.
    type Engine: fmt::Debug + Send + Sync;

    /// The request's values, when `bytes` are its canonical encoding and `convert` would accept every field;
    /// `None` (fall back to prost) otherwise.
    fn decode_canonical(bytes: &[u8]) -> Option<Self::Engine>;
}

/// `ValidateMoveRequest`, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidateMoveValues {
    /// `state`, every field decoded (the game's own checks are still to run).
    pub state: SetupBox,
    /// `move`, checked against the board's size.
    pub mv: Move,
}

/// `ApplyMoveRequest`, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyMoveValues {
    /// `state`, every field decoded (the game's own checks are still to run).
    pub state: SetupBox,
    /// `move`, checked against the board's size.
    pub mv: Move,
    /// `skip_events`.
    pub skip_events: bool,
}

/// `ListLegalMovesRequest`, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListLegalMovesValues {
    /// `state`, every field decoded (the game's own checks are still to run).
    pub state: SetupBox,
    /// `skip_previews`.
    pub skip_previews: bool,
}

/// A request as the server decodes it: its engine values, or prost's message when it was not canonical.
pub enum Form<P: Canonical> {
    /// Decoded straight into the engine's values.
    Engine(P::Engine),
    /// Decoded by prost, for `convert` (which reports what is wrong with it, if anything). Boxed, as the engine's
    /// values are, so that a request moves through tonic and into its handler as a pointer.
    Prost(Box<P>),
}

/// A hot Rules request as the server receives it (see the module's documentation).
pub struct Call<P: Canonical> {
    /// The bytes the engine values were decoded from (empty in the prost form), so that the request encodes as
    /// it came (which no server does).
    raw: Bytes,
    /// `None` for the empty request every decoding starts from, so that starting allocates nothing.
    form: Option<Form<P>>,
}

/// `ValidateMoveRequest`, as the server decodes it.
pub type ValidateMoveCall = Call<pb::ValidateMoveRequest>;
/// `ApplyMoveRequest`, as the server decodes it.
pub type ApplyMoveCall = Call<pb::ApplyMoveRequest>;
/// `ListLegalMovesRequest`, as the server decodes it.
pub type ListLegalMovesCall = Call<pb::ListLegalMovesRequest>;

impl<P: Canonical> Call<P> {
    /// The request: its engine values, or prost's message.
    pub fn into_form(self) -> Form<P> {
        self.form.unwrap_or_else(|| Form::Prost(Box::default()))
    }

    /// The prost form, decoding the kept bytes again if the request was decoded straight (only for the
    /// `prost::Message` methods no server calls: a field merged in by hand).
    fn prost_mut(&mut self) -> &mut P {
        let message = match self.form.take() {
            Some(Form::Prost(message)) => message,
            Some(Form::Engine(_)) => {
                let raw = std::mem::take(&mut self.raw);
                Box::new(P::decode(raw).expect("a canonical encoding decodes with prost"))
            }
            None => Box::default(),
        };
        match self.form.insert(Form::Prost(message)) {
            Form::Prost(message) => message,
            Form::Engine(_) => unreachable!("just made the prost form"),
        }
    }
}

impl<P: Canonical> Default for Call<P> {
    fn default() -> Self {
        Call {
            raw: Bytes::new(),
            form: None,
        }
    }
}

impl<P: Canonical> fmt::Debug for Call<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.form {
            Some(Form::Engine(values)) => f.debug_tuple("Engine").field(values).finish(),
            Some(Form::Prost(message)) => f.debug_tuple("Prost").field(message).finish(),
            None => f.debug_tuple("Prost").field(&P::default()).finish(),
        }
    }
}

impl<P: Canonical> prost::Message for Call<P> {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        match &self.form {
            Some(Form::Engine(_)) => buf.put_slice(&self.raw),
            Some(Form::Prost(message)) => message.encode_raw(buf),
            None => {}
        }
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), prost::DecodeError> {
        self.prost_mut().merge_field(tag, wire_type, buf, ctx)
    }

    fn encoded_len(&self) -> usize {
        match &self.form {
            Some(Form::Engine(_)) => self.raw.len(),
            Some(Form::Prost(message)) => message.encoded_len(),
            None => 0,
        }
    }

    fn clear(&mut self) {
        *self = Call::default();
    }

    /// How the server decodes a request (`decode` merges into the default): the canonical decoding when it
    /// applies, prost's otherwise, with prost's error for bytes it cannot decode. Merging into a request that
    /// already holds fields is prost's merge.
    fn merge(&mut self, mut buf: impl Buf) -> Result<(), prost::DecodeError> {
        let empty = match &self.form {
            None => true,
            Some(Form::Prost(message)) => **message == P::default(),
            Some(Form::Engine(_)) => false,
        };
        if !empty {
            return self.prost_mut().merge(buf);
        }
        let raw = buf.copy_to_bytes(buf.remaining());
        match P::decode_canonical(&raw) {
            Some(values) => {
                self.form = Some(Form::Engine(values));
                self.raw = raw;
                Ok(())
            }
            None => self.prost_mut().merge(raw),
        }
    }
}

impl Canonical for pb::ValidateMoveRequest {
    type Engine = ValidateMoveValues;

    fn decode_canonical(bytes: &[u8]) -> Option<ValidateMoveValues> {
        let mut r = Reader::new(bytes);
        let state = game_state(r.message(1)?)?;
        let mv = game_move(r.message(2)?, state.kind)?;
        r.end()?;
        Some(ValidateMoveValues { state, mv })
    }
}

impl Canonical for pb::ApplyMoveRequest {
    type Engine = ApplyMoveValues;

    fn decode_canonical(bytes: &[u8]) -> Option<ApplyMoveValues> {
        let mut r = Reader::new(bytes);
        let state = game_state(r.message(1)?)?;
        let mv = game_move(r.message(2)?, state.kind)?;
        let skip_events = r.optional_bool(3)?;
        r.end()?;
        Some(ApplyMoveValues {
            state,
            mv,
            skip_events,
        })
    }
}

impl Canonical for pb::ListLegalMovesRequest {
    type Engine = ListLegalMovesValues;

    fn decode_canonical(bytes: &[u8]) -> Option<ListLegalMovesValues> {
        let mut r = Reader::new(bytes);
        let state = game_state(r.message(1)?)?;
        let skip_previews = r.optional_bool(2)?;
        r.end()?;
        Some(ListLegalMovesValues {
            state,
            skip_previews,
        })
    }
}

// The reader: `None` whenever the input is not what it expects, so that the caller falls back to prost.

const VARINT: u32 = 0;
const LEN: u32 = 2;

/// A message's bytes, read front to back.
struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf }
    }

    fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Nothing left.
    fn end(&self) -> Option<()> {
        self.is_empty().then_some(())
    }

    /// A varint of at most five bytes whose value fits a `u32` (what prost would read as the same `u32` or
    /// non-negative `i32`; longer ones, which prost truncates or reads as negative, fall back).
    #[inline]
    fn varint(&mut self) -> Option<u32> {
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
    fn key(&mut self) -> Option<(u32, u32)> {
        let key = self.varint()?;
        Some((key >> 3, key & 7))
    }

    /// Whether the next key is `field` with `wire_type` (read when it is; left when it is another). The key's
    /// bytes are compared with its canonical encoding, one byte below field 16 and two below 2048, without
    /// decoding a varint: inlined where the field is a constant, each test is a compare or two. A key encoded
    /// longer than it needs is another key here, left unread, so that `end` refuses it and prost decodes it.
    #[inline(always)]
    fn next_is(&mut self, field: u32, wire_type: u32) -> bool {
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
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = self.varint()? as usize;
        if len > self.buf.len() {
            return None;
        }
        let (bytes, rest) = self.buf.split_at(len);
        self.buf = rest;
        Some(bytes)
    }

    /// A required message field `field` at this point: its bytes.
    fn message(&mut self, field: u32) -> Option<&'a [u8]> {
        if self.next_is(field, LEN) {
            self.bytes()
        } else {
            None
        }
    }

    /// An optional `uint32` (or enum) field `field` at this point (absent: 0).
    #[inline(always)]
    fn optional_varint(&mut self, field: u32) -> Option<u32> {
        if self.next_is(field, VARINT) {
            self.varint()
        } else {
            Some(0)
        }
    }

    /// An optional `Player` field `field` at this point (absent: unspecified).
    #[inline(always)]
    fn optional_player(&mut self, field: u32) -> Option<Option<Player>> {
        player(self.optional_varint(field)?)
    }

    /// An optional bool field `field` at this point (absent: false).
    fn optional_bool(&mut self, field: u32) -> Option<bool> {
        bool_value(self.optional_varint(field)?)
    }

    /// A packed repeated `uint32`'s values (after its key), appended to `list` in place (it is one of the
    /// state's lists, so moving a list built here into it would copy the whole place for `N` values).
    #[inline]
    fn packed<const N: usize>(&mut self, list: &mut Repeated<u32, N>) -> Option<()> {
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
    fn packed_bools<const N: usize>(&mut self, list: &mut Repeated<bool, N>) -> Option<()> {
        self.packed_small(list, 1, |b| b == 1)
    }

    /// A packed repeated `Player`'s values (after its key), each a single byte 0 to 3.
    fn packed_players<const N: usize>(
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
fn player(value: u32) -> Option<Option<Player>> {
    match value {
        0 => Some(None),
        1 => Some(Some(Player::South)),
        2 => Some(Some(Player::North)),
        3 => Some(Some(Player::East)),
        _ => None,
    }
}

/// `GameState`, as `convert::state_setup` decodes it when it finds nothing wrong.
///
/// Boxed, and filled in place: a `Setup` holds its lists in place, so it is large, and a request's values move
/// from the decoder through tonic to the handler and into its job; a box moves as a pointer (and is kept for
/// the thread's next request, [`SetupBox`]).
fn game_state(bytes: &[u8]) -> Option<SetupBox> {
    // Field by field in the order of their numbers, each read only if it is next: the canonical encoding's
    // fields come in that order, each at most once, so a field out of order or twice is left unread and
    // `end` refuses it (prost's decoding takes over). One compare and branch a field, the same at the same
    // place in every request, where a loop over a `match` on the field number jumps somewhere new each time
    // (under callgrind's branch simulation: 9 fewer mispredicted jumps and 46 fewer instructions a call).
    let mut r = Reader::new(bytes);
    let kind = if r.next_is(1, VARINT) {
        match r.varint()? {
            1 => GameKind::BaoLaKete,
            2 => GameKind::Bosh,
            3 => GameKind::BaAwa,
            _ => return None,
        }
    } else {
        return None;
    };
    let mut setup = SetupBox::new(Setup {
        kind,
        rules_version: 0,
        pits: Repeated::new(),
        stores: Repeated::new(),
        reserves: Repeated::new(),
        to_move: None,
        status: None,
        winner: None,
        ply: 0,
        game_number: 0,
        match_score: Repeated::new(),
        variant: VariantSetup::Missing,
    });
    if r.next_is(2, VARINT) {
        setup.rules_version = r.varint()?;
    }
    if r.next_is(3, LEN) {
        r.packed(&mut setup.pits)?;
    }
    if r.next_is(4, LEN) {
        r.packed(&mut setup.stores)?;
    }
    if r.next_is(5, LEN) {
        r.packed(&mut setup.reserves)?;
    }
    if r.next_is(6, VARINT) {
        setup.to_move = player(r.varint()?)?;
    }
    if r.next_is(7, VARINT) {
        setup.status = match r.varint()? {
            0 => None,
            1 => Some(Status::InProgress),
            2 => Some(Status::RoundOver),
            3 => Some(Status::GameOver),
            4 => Some(Status::MatchOver),
            _ => return None,
        };
    }
    if r.next_is(8, VARINT) {
        setup.winner = player(r.varint()?)?;
    }
    if r.next_is(9, VARINT) {
        setup.ply = r.varint()?;
    }
    if r.next_is(10, VARINT) {
        setup.game_number = r.varint()?;
    }
    if r.next_is(11, LEN) {
        r.packed(&mut setup.match_score)?;
    }
    // The oneof `variant`: one member at most (a second one is left unread, and refused by `end`).
    if r.next_is(20, LEN) {
        setup.variant = ba_awa(r.bytes()?)?;
    } else if r.next_is(21, LEN) {
        setup.variant = bosh(r.bytes()?)?;
    } else if r.next_is(22, LEN) {
        setup.variant = bao_la_kete(r.bytes()?)?;
    }
    r.end()?;
    Some(setup)
}

/// `BaAwaState`, field by field in order as [`game_state`] reads its own.
fn ba_awa(bytes: &[u8]) -> Option<VariantSetup> {
    let mut r = Reader::new(bytes);
    let mut owners = Repeated::new();
    if r.next_is(1, LEN) {
        r.packed_players(&mut owners)?;
    }
    let starter = r.optional_player(2)?;
    let target = r.optional_varint(3)?;
    let players = r.optional_varint(4)?;
    let mut eliminated_in = Repeated::new();
    if r.next_is(5, LEN) {
        r.packed(&mut eliminated_in)?;
    }
    r.end()?;
    Some(VariantSetup::BaAwa {
        owners,
        starter,
        target,
        players,
        eliminated_in,
    })
}

/// `BoshState`, field by field in order.
fn bosh(bytes: &[u8]) -> Option<VariantSetup> {
    let mut r = Reader::new(bytes);
    let mut closed = Repeated::new();
    if r.next_is(1, LEN) {
        r.packed_bools(&mut closed)?;
    }
    let round_starter = r.optional_player(2)?;
    r.end()?;
    Some(VariantSetup::Bosh {
        closed,
        round_starter,
    })
}

/// `BaoLaKeteState`, field by field in order.
fn bao_la_kete(bytes: &[u8]) -> Option<VariantSetup> {
    let mut r = Reader::new(bytes);
    let mtaji = match r.optional_varint(1)? {
        0 => None,
        1 => Some(false),
        2 => Some(true),
        _ => return None,
    };
    let mut kuu_alive = Repeated::new();
    if r.next_is(2, LEN) {
        r.packed_bools(&mut kuu_alive)?;
    }
    let mark = if r.next_is(3, LEN) {
        Some(hizi_zetu_mark(r.bytes()?)?)
    } else {
        None
    };
    let game_starter = r.optional_player(4)?;
    let starter_rule = match r.optional_varint(5)? {
        0 | 1 => StarterRule::Alternate,
        2 => StarterRule::LoserStarts,
        3 => StarterRule::WinnerStarts,
        _ => return None,
    };
    r.end()?;
    Some(VariantSetup::BaoLaKete {
        mtaji,
        kuu_alive,
        mark,
        game_starter,
        starter_rule,
    })
}

/// `HiziZetuMark`: (blockee, pit, setter), field by field in order.
fn hizi_zetu_mark(bytes: &[u8]) -> Option<(Option<Player>, u32, Option<Player>)> {
    let mut r = Reader::new(bytes);
    let blockee = r.optional_player(1)?;
    let pit = r.optional_varint(2)?;
    let setter = r.optional_player(3)?;
    r.end()?;
    Some((blockee, pit, setter))
}

/// `Move` for a game of `kind`, as `convert::game_move` decodes it when it finds nothing wrong.
fn game_move(bytes: &[u8], kind: GameKind) -> Option<Move> {
    let mut r = Reader::new(bytes);
    // The oneof `action`: exactly one member (none is a violation; with two, prost keeps the last).
    let mv = match r.key()? {
        (1, LEN) => Move::Sow(sow(r.bytes()?, kind)?),
        (2, LEN) => Move::NextGame(next_game(r.bytes()?, kind)?),
        _ => return None,
    };
    r.end()?;
    Some(mv)
}

/// `Sow`, its pit on the board, field by field in order.
fn sow(bytes: &[u8], kind: GameKind) -> Option<Sow> {
    let mut r = Reader::new(bytes);
    let pit = r.optional_varint(1)?;
    if pit as usize >= kind.pit_count() {
        return None;
    }
    let direction = match r.optional_varint(2)? {
        0 => None,
        1 => Some(Direction::Clockwise),
        2 => Some(Direction::Anticlockwise),
        _ => return None,
    };
    let kichwa = match r.optional_varint(3)? {
        0 => None,
        1 => Some(Kichwa::Left),
        2 => Some(Kichwa::Right),
        _ => return None,
    };
    let kuu_decision = match r.optional_varint(4)? {
        0 => None,
        1 => Some(KuuDecision::Stop),
        2 => Some(KuuDecision::Safari),
        _ => return None,
    };
    r.end()?;
    Some(Sow {
        pit: pit as u8,
        direction,
        kichwa,
        kuu_decision,
    })
}

/// `NextGame`: its pits on the board, none listed twice.
fn next_game(bytes: &[u8], kind: GameKind) -> Option<PitSet> {
    let mut r = Reader::new(bytes);
    let mut set = PitSet::EMPTY;
    if r.next_is(1, LEN) {
        let mut pits = Repeated::<u32, 32>::new();
        r.packed(&mut pits)?;
        for &pit in pits.iter() {
            let pit = pit as usize;
            if pit >= kind.pit_count() || set.contains(pit) {
                return None;
            }
            set = set.with(pit);
        }
    }
    r.end()?;
    Some(set)
}

/// The canonical decoding gives `convert`'s values or falls back, over real requests and their mutations.
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::api::convert;
    use crate::api::wire::tests::{any_move, matches, Rng};
    use crate::engine::{self, AnyGame};
    use prost::Message;

    /// What prost and `convert` make of a request's state and move: their values when nothing is wrong.
    fn slow_state(state: Option<pb::GameState>) -> Option<SetupBox> {
        convert::state_setup("state", state)
            .ok()?
            .clean_setup()
            .cloned()
            .map(SetupBox::new)
    }

    fn slow_move(kind: GameKind, mv: Option<&pb::Move>) -> Option<Move> {
        convert::game_move("move", kind, mv).ok()
    }

    /// The values the prost path finds in a request's bytes, `None` when prost or `convert` finds anything wrong.
    pub(crate) trait Slow: Canonical
    where
        Self::Engine: PartialEq,
    {
        fn slow(bytes: &[u8]) -> Option<Self::Engine>;
    }

    impl Slow for pb::ValidateMoveRequest {
        fn slow(bytes: &[u8]) -> Option<ValidateMoveValues> {
            let request = Self::decode(bytes).ok()?;
            let state = slow_state(request.state)?;
            let mv = slow_move(state.kind, request.r#move.as_ref())?;
            Some(ValidateMoveValues { state, mv })
        }
    }

    impl Slow for pb::ApplyMoveRequest {
        fn slow(bytes: &[u8]) -> Option<ApplyMoveValues> {
            let request = Self::decode(bytes).ok()?;
            let state = slow_state(request.state)?;
            let mv = slow_move(state.kind, request.r#move.as_ref())?;
            Some(ApplyMoveValues {
                state,
                mv,
                skip_events: request.skip_events,
            })
        }
    }

    impl Slow for pb::ListLegalMovesRequest {
        fn slow(bytes: &[u8]) -> Option<ListLegalMovesValues> {
            let request = Self::decode(bytes).ok()?;
            Some(ListLegalMovesValues {
                state: slow_state(request.state)?,
                skip_previews: request.skip_previews,
            })
        }
    }

    /// What the checks met.
    #[derive(Default, Debug)]
    pub(crate) struct Tally {
        /// Decoded straight, with `convert`'s values.
        pub(crate) fast: usize,
        /// Fallen back on input that prost and `convert` accept (legal, merely not canonical).
        pub(crate) fell_back_clean: usize,
        /// Fallen back on input that prost or `convert` rejects.
        pub(crate) fell_back_wrong: usize,
        /// Of these, input prost cannot decode at all.
        pub(crate) undecodable: usize,
    }

    /// Checks one request's bytes: the canonical decoding gives the prost path's values or falls back, and a
    /// [`Call`] decodes (or fails to, with prost's error) as prost does. Returns whether it decoded straight.
    pub(crate) fn check<P: Slow + fmt::Debug>(bytes: &[u8], tally: &mut Tally) -> bool
    where
        P::Engine: PartialEq,
    {
        let fast = P::decode_canonical(bytes);
        let slow = P::slow(bytes);
        match (&fast, &slow) {
            (Some(f), Some(s)) => {
                assert_eq!(f, s, "{bytes:02x?}");
                tally.fast += 1;
            }
            (Some(f), None) => panic!("decoded {f:?} where prost and convert refuse {bytes:02x?}"),
            (None, Some(_)) => tally.fell_back_clean += 1,
            (None, None) => tally.fell_back_wrong += 1,
        }
        // The request type the server decodes: the same error, or the same message in one form or the other.
        match (Call::<P>::decode(bytes), P::decode(bytes)) {
            (Ok(call), Ok(message)) => {
                match call.form.as_ref().expect("a decoded request has a form") {
                    Form::Engine(_) => {
                        assert!(fast.is_some());
                        assert_eq!(call.encode_to_vec(), bytes);
                        assert_eq!(call.encoded_len(), bytes.len());
                    }
                    Form::Prost(decoded) => {
                        assert!(fast.is_none());
                        assert_eq!(**decoded, message);
                    }
                }
                assert_eq!(
                    P::decode(call.encode_to_vec().as_slice()).ok(),
                    Some(message)
                );
            }
            (Err(call), Err(message)) => {
                assert_eq!(call.to_string(), message.to_string());
                tally.undecodable += 1;
            }
            (call, message) => panic!("Call decoded {call:?}, prost {message:?}: {bytes:02x?}"),
        }
        fast.is_some()
    }

    // Mutations: the bytes of a request changed the ways a client, a proxy or an attacker might change them.

    /// A field as it is written: key, then value (a varint's bytes, a length and its bytes, or fixed bytes).
    #[derive(Clone, Debug)]
    struct Segment {
        field: u64,
        wire_type: u64,
        /// The value's bytes, as written (with its length for a length-delimited field).
        value: Vec<u8>,
    }

    fn varint_bytes(mut value: u64) -> Vec<u8> {
        let mut out = Vec::new();
        while value >= 0x80 {
            out.push(value as u8 | 0x80);
            value >>= 7;
        }
        out.push(value as u8);
        out
    }

    fn read_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
        let mut value = 0u64;
        for i in 0..10 {
            let byte = *bytes.get(*at)?;
            *at += 1;
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                return Some(value);
            }
        }
        None
    }

    /// A message's fields, when it parses as one.
    fn segments(bytes: &[u8]) -> Option<Vec<Segment>> {
        let mut at = 0;
        let mut out = Vec::new();
        while at < bytes.len() {
            let key = read_varint(bytes, &mut at)?;
            let start = at;
            match key & 7 {
                0 => {
                    read_varint(bytes, &mut at)?;
                }
                1 => at += 8,
                2 => {
                    let len = read_varint(bytes, &mut at)? as usize;
                    at = at.checked_add(len)?;
                }
                5 => at += 4,
                _ => return None,
            }
            if at > bytes.len() || key >> 3 == 0 {
                return None;
            }
            out.push(Segment {
                field: key >> 3,
                wire_type: key & 7,
                value: bytes[start..at].to_vec(),
            });
        }
        Some(out)
    }

    fn join(segments: &[Segment]) -> Vec<u8> {
        let mut out = Vec::new();
        for s in segments {
            out.extend(varint_bytes(s.field << 3 | s.wire_type));
            out.extend(&s.value);
        }
        out
    }

    /// A length-delimited value's contents.
    fn contents(value: &[u8]) -> Vec<u8> {
        let mut at = 0;
        read_varint(value, &mut at).expect("a length");
        value[at..].to_vec()
    }

    fn delimited(contents: &[u8]) -> Vec<u8> {
        let mut out = varint_bytes(contents.len() as u64);
        out.extend(contents);
        out
    }

    /// One change to a message's fields, or to a message nested in them (`depth` levels down at most).
    fn mutate_fields(rng: &mut Rng, bytes: &[u8], depth: usize) -> Vec<u8> {
        let Some(mut fields) = segments(bytes) else {
            return mutate_bytes(rng, bytes);
        };
        let nested: Vec<usize> = (0..fields.len())
            .filter(|&i| {
                fields[i].wire_type == 2
                    && segments(&contents(&fields[i].value)).is_some_and(|s| !s.is_empty())
            })
            .collect();
        if depth > 0 && !nested.is_empty() && rng.below(3) != 0 {
            let i = nested[rng.below(nested.len())];
            let inner = mutate_fields(rng, &contents(&fields[i].value), depth - 1);
            fields[i].value = delimited(&inner);
            return join(&fields);
        }
        let n = fields.len();
        match rng.below(11) {
            // A field twice: at once, or at the end.
            0 if n > 0 => {
                let i = rng.below(n);
                let at = if rng.below(2) == 0 { i + 1 } else { n };
                fields.insert(at, fields[i].clone());
            }
            // Two fields swapped.
            1 if n > 1 => {
                let (i, j) = (rng.below(n), rng.below(n));
                fields.swap(i, j);
            }
            // A field left out.
            2 if n > 0 => {
                fields.remove(rng.below(n));
            }
            // A field of any number (known or not, explicit default or not) with any value of any wire type.
            3 | 4 => {
                let field = 1 + rng.below(25) as u64;
                let (wire_type, value) = match rng.below(5) {
                    0 => (0, varint_bytes(rng.below(4) as u64)),
                    1 => (0, varint_bytes(rng.next() >> rng.below(64))),
                    2 => (
                        2,
                        delimited(
                            &(0..rng.below(4))
                                .map(|_| rng.below(3) as u8)
                                .collect::<Vec<_>>(),
                        ),
                    ),
                    3 => (5, vec![1, 0, 0, 0]),
                    _ => (1, vec![2, 0, 0, 0, 0, 0, 0, 0]),
                };
                fields.insert(
                    rng.below(n + 1),
                    Segment {
                        field,
                        wire_type,
                        value,
                    },
                );
            }
            // A packed field unpacked, or a varint field packed.
            5 if n > 0 => {
                let i = rng.below(n);
                let s = fields[i].clone();
                if s.wire_type == 2 {
                    let inner = contents(&s.value);
                    let mut at = 0;
                    let mut values = Vec::new();
                    while at < inner.len() {
                        match read_varint(&inner, &mut at) {
                            Some(v) => values.push(v),
                            None => return join(&fields),
                        }
                    }
                    fields.splice(
                        i..=i,
                        values.into_iter().map(|v| Segment {
                            field: s.field,
                            wire_type: 0,
                            value: varint_bytes(v),
                        }),
                    );
                } else if s.wire_type == 0 {
                    fields[i] = Segment {
                        field: s.field,
                        wire_type: 2,
                        value: delimited(&s.value),
                    };
                }
            }
            // A varint written longer than it needs (prost reads the same value).
            6 if n > 0 => {
                let i = rng.below(n);
                if fields[i].wire_type == 0 {
                    let last = fields[i].value.len() - 1;
                    fields[i].value[last] |= 0x80;
                    fields[i].value.push(0);
                }
            }
            // Another wire type for a field.
            7 if n > 0 => {
                let i = rng.below(n);
                fields[i].wire_type = [0, 1, 2, 3, 4, 5, 6, 7][rng.below(8)];
            }
            // An empty message or list in place of a field's value.
            8 if n > 0 => {
                let i = rng.below(n);
                fields[i].wire_type = 2;
                fields[i].value = vec![0];
            }
            // A value changed: a varint to any value, a list's element.
            9 if n > 0 => {
                let i = rng.below(n);
                if fields[i].wire_type == 0 {
                    fields[i].value = varint_bytes(match rng.below(3) {
                        0 => rng.below(6) as u64,
                        1 => rng.next() >> 32,
                        _ => rng.next(),
                    });
                } else if fields[i].wire_type == 2 {
                    let mut inner = contents(&fields[i].value);
                    if !inner.is_empty() {
                        let j = rng.below(inner.len());
                        inner[j] = rng.below(40) as u8;
                    }
                    fields[i].value = delimited(&inner);
                }
            }
            _ => return mutate_bytes(rng, &join(&fields)),
        }
        join(&fields)
    }

    /// One change to the bytes themselves: a byte or bit changed, the end cut off, a byte added or taken out.
    fn mutate_bytes(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        if out.is_empty() {
            out.push(rng.next() as u8);
            return out;
        }
        let i = rng.below(out.len());
        match rng.below(5) {
            0 => out[i] = rng.next() as u8,
            1 => out[i] ^= 1 << rng.below(8),
            2 => out.truncate(i),
            3 => out.insert(i, rng.next() as u8),
            _ => {
                out.remove(i);
            }
        }
        out
    }

    /// `bytes` mutated once or a few times.
    pub(crate) fn mutated(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        for _ in 0..1 + rng.below(3) * rng.below(2) {
            out = if rng.below(3) == 0 {
                mutate_bytes(rng, &out)
            } else {
                mutate_fields(rng, &out, 3)
            };
        }
        out
    }

    /// The requests of random playouts of every game and option set, each position's ValidateMove, ApplyMove
    /// (with and without events) and ListLegalMoves (with and without previews), a legal move and one that may not
    /// be; `each` gets their bytes.
    pub(crate) fn playout_requests(
        seed: u64,
        playouts: usize,
        mut each: impl FnMut(&mut Rng, Request, Vec<u8>),
    ) {
        let mut rng = Rng(seed);
        for (kind, options) in matches() {
            for _ in 0..playouts {
                let mut game = AnyGame::new_match(kind, &options);
                for _ in 0..400 {
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let state = convert::state_to_pb(&game);
                    let legal = convert::move_to_pb(&moves[rng.below(moves.len())]);
                    for mv in [legal, any_move(&mut rng)] {
                        let validate = pb::ValidateMoveRequest {
                            state: Some(state.clone()),
                            r#move: Some(mv.clone()),
                        };
                        each(&mut rng, Request::Validate, validate.encode_to_vec());
                        for skip_events in [false, true] {
                            let apply = pb::ApplyMoveRequest {
                                state: Some(state.clone()),
                                r#move: Some(mv.clone()),
                                skip_events,
                            };
                            each(&mut rng, Request::Apply, apply.encode_to_vec());
                        }
                    }
                    for skip_previews in [false, true] {
                        let list = pb::ListLegalMovesRequest {
                            state: Some(state.clone()),
                            skip_previews,
                        };
                        each(&mut rng, Request::List, list.encode_to_vec());
                    }
                    let chosen = moves[rng.below(moves.len())];
                    game.play(&chosen, &mut engine::NoTrace)
                        .expect("a listed move is legal");
                }
            }
        }
    }

    /// Which request.
    #[derive(Clone, Copy, Debug)]
    pub(crate) enum Request {
        Validate,
        Apply,
        List,
    }

    fn check_any(request: Request, bytes: &[u8], tally: &mut Tally) -> bool {
        match request {
            Request::Validate => check::<pb::ValidateMoveRequest>(bytes, tally),
            Request::Apply => check::<pb::ApplyMoveRequest>(bytes, tally),
            Request::List => check::<pb::ListLegalMovesRequest>(bytes, tally),
        }
    }

    #[test]
    fn prosts_requests_decode_straight_into_converts_values() {
        let mut tally = Tally::default();
        playout_requests(0x18_2026_1204, 12, |_, request, bytes| {
            check_any(request, &bytes, &mut tally);
        });
        println!("{tally:?}");
        // Every request prost writes that `convert` accepts is decoded straight.
        assert_eq!(tally.fell_back_clean, 0, "{tally:?}");
        assert!(tally.fast > 400_000, "{tally:?}");
    }

    #[test]
    fn mutated_requests_decode_as_converts_values_or_fall_back() {
        let mut tally = Tally::default();
        playout_requests(0x18_2026_1205, 4, |rng, request, bytes| {
            for _ in 0..4 {
                check_any(request, &mutated(rng, &bytes), &mut tally);
            }
        });
        println!("{tally:?}");
        // Each kind of outcome is met many times.
        assert!(tally.fast > 10_000, "{tally:?}");
        assert!(tally.fell_back_clean > 10_000, "{tally:?}");
        assert!(tally.fell_back_wrong > 10_000, "{tally:?}");
        assert!(tally.undecodable > 10_000, "{tally:?}");
    }

    #[test]
    fn lists_longer_than_their_place_or_of_larger_values_decode_to_the_same_values() {
        // A wrong state, for the game's checks to report, but one `convert` takes as it is: the decoding must too.
        let mut state = convert::state_to_pb(&AnyGame::new_match(
            GameKind::BaAwa,
            &engine::Options::default(),
        ));
        let mut tally = Tally::default();
        for (pits, stores) in [
            ((0..40).collect::<Vec<u32>>(), vec![1, 2, 3, 4, 5]),
            ((0..40).map(|v| v * 100).collect(), vec![300, 0, 127, 128]),
            (vec![127; 33], vec![]),
        ] {
            state.pits = pits;
            state.stores = stores;
            let request = pb::ListLegalMovesRequest {
                state: Some(state.clone()),
                skip_previews: true,
            };
            assert!(check::<pb::ListLegalMovesRequest>(
                &request.encode_to_vec(),
                &mut tally
            ));
        }
        assert_eq!(tally.fast, 3, "{tally:?}");
    }

    #[test]
    fn unusual_but_valid_encodings_fall_back_with_the_same_values() {
        // Fields a canonical encoder writes, and the same values written otherwise.
        let state = convert::state_to_pb(&AnyGame::new_match(
            GameKind::BaoLaKete,
            &engine::Options::default(),
        ));
        let request = pb::ValidateMoveRequest {
            state: Some(state),
            r#move: Some(pb::Move {
                action: Some(pb::r#move::Action::Sow(pb::Sow {
                    pit: 3,
                    direction: 1,
                    kichwa: 0,
                    kuu_decision: 0,
                })),
            }),
        };
        let bytes = request.encode_to_vec();
        let mut tally = Tally::default();
        assert!(check::<pb::ValidateMoveRequest>(&bytes, &mut tally));
        // The move before the state; the state twice (prost merges); an empty request; a request cut short.
        let fields = segments(&bytes).unwrap();
        for other in [
            join(&[fields[1].clone(), fields[0].clone()]),
            join(&[fields[0].clone(), fields[0].clone(), fields[1].clone()]),
            Vec::new(),
            bytes[..bytes.len() - 1].to_vec(),
        ] {
            assert!(!check::<pb::ValidateMoveRequest>(&other, &mut tally));
        }
        assert_eq!(tally.fell_back_clean, 2, "{tally:?}");
        assert_eq!(tally.undecodable, 1, "{tally:?}");
    }
}
