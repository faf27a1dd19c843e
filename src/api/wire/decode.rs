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
//! construction; for the input it accepts, the values are those `convert` gives (`tests`, over a corpus
//! of real requests and their mutations, and `wire::reference` for whole calls).
//!
//! The server's Rules service (build.rs) takes these three requests as [`Call`]s: a `prost::Message` whose
//! `merge` tries the canonical decoding first and keeps prost's message when it does not apply.
//!
//! One file per job: this one holds the requests' decoders and the [`Call`] the server decodes into;
//! `reader.rs` reads the wire format's varints, keys and packed lists; `messages.rs` decodes the messages inside
//! a request (the state, its variant, the move); `tests.rs` checks all of it against prost and `convert`.

mod messages;
mod reader;
#[cfg(test)]
pub(crate) mod tests;

use std::fmt;

use bytes::{Buf, BufMut, Bytes};
use prost::encoding::{DecodeContext, WireType};

use self::messages::{game_move, game_state};
use self::reader::Reader;
use super::pb;
use crate::api::convert;
use crate::api::wire::setup_box::SetupBox;
use crate::engine::Move;
use crate::rules::{ClientState, Decoded, StateAndMove};

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

impl ValidateMoveCall {
    /// The request in the engine's values: its state and move.
    pub fn into_engine(self) -> StateAndMove<SetupBox> {
        match self.into_form() {
            Form::Engine(values) => StateAndMove::decoded(values.state, values.mv),
            Form::Prost(request) => convert::state_and_move(request.state, request.r#move.as_ref()),
        }
    }
}

impl ApplyMoveCall {
    /// The request in the engine's values: its state and move, and `skip_events`.
    pub fn into_engine(self) -> (StateAndMove<SetupBox>, bool) {
        match self.into_form() {
            Form::Engine(values) => (
                StateAndMove::decoded(values.state, values.mv),
                values.skip_events,
            ),
            Form::Prost(request) => (
                convert::state_and_move(request.state, request.r#move.as_ref()),
                request.skip_events,
            ),
        }
    }
}

impl ListLegalMovesCall {
    /// The request in the engine's values: its state, and whether the moves are previewed (not
    /// `skip_previews`).
    pub fn into_engine(self) -> (Decoded<SetupBox>, bool) {
        match self.into_form() {
            Form::Engine(values) => (
                Ok(ClientState::new("state", values.state, Vec::new())),
                !values.skip_previews,
            ),
            Form::Prost(request) => (
                convert::state_setup("state", request.state),
                !request.skip_previews,
            ),
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
