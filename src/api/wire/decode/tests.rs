//! The canonical decoding gives `convert`'s values or falls back, over real requests and their mutations.

use super::*;
use crate::api::convert;
use crate::api::wire::tests::{any_move, matches, Rng};
use crate::engine::{self, AnyGame, GameKind};
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
