//! The messages inside a hot request decoded straight into the engine's values: the `GameState` (its common
//! fields and its game's variant) and the `Move`, each as `convert` reads it when it finds nothing wrong.

use super::reader::{player, Reader, LEN, VARINT};
use crate::api::wire::setup_box::SetupBox;
use crate::engine::{
    Direction, GameKind, Kichwa, KuuDecision, Move, PitSet, Player, Repeated, Setup, Sow,
    StarterRule, Status, VariantSetup,
};

/// `GameState`, as `convert::state_setup` decodes it when it finds nothing wrong.
///
/// Boxed, and filled in place: a `Setup` holds its lists in place, so it is large, and a request's values move
/// from the decoder through tonic to the handler and into its job; a box moves as a pointer (and is kept for
/// the thread's next request, [`SetupBox`]).
pub(super) fn game_state(bytes: &[u8]) -> Option<SetupBox> {
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
    // The position key a returned state carries: the server's to compute, so read past (a client sends back
    // the state it was given, key and all).
    r.skip_fixed64(12);
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
pub(super) fn game_move(bytes: &[u8], kind: GameKind) -> Option<Move> {
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
