//! The proof that the bytes are prost's: every answer of a large corpus (random playouts of the three games from
//! their standard starts, through game and round ends, three-player Ba-awa included; every event kind by hand,
//! with values that take several varint bytes; states longer than 127 bytes), encoded here and by prost from the
//! messages `convert` builds, must be equal to the byte. Refusals must be the same statuses.

use super::*;
use crate::api::convert;
use crate::engine::{
    Direction, EndReason, GameKind, Kichwa, KuuDecision, LapSource, Move, Options, PerSeat, PitSet,
    Player, Setup, Sow, StarterRule, Status, VariantSetup,
};
use prost::Message;
use std::collections::BTreeSet;

/// xorshift64*: the same corpus on every run, without a dependency.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The matches played: each game with its default options, and the options that change what is encoded.
pub(crate) fn matches() -> Vec<(GameKind, Options)> {
    let mut all = Vec::new();
    for kind in GameKind::ALL {
        all.push((kind, Options::default()));
    }
    for players in [2, 3] {
        for target in [10, 11, 12] {
            for first in [Player::South, Player::North, Player::East] {
                if first == Player::East && players != 3 {
                    continue;
                }
                all.push((
                    GameKind::BaAwa,
                    Options {
                        first_player: first,
                        ba_awa_target: target,
                        ba_awa_players: players,
                        ..Options::default()
                    },
                ));
            }
        }
    }
    for rule in [StarterRule::LoserStarts, StarterRule::WinnerStarts] {
        for first in [Player::South, Player::North] {
            all.push((
                GameKind::BaoLaKete,
                Options {
                    first_player: first,
                    bao_la_kete_starter: rule,
                    ..Options::default()
                },
            ));
        }
    }
    all.push((
        GameKind::Bosh,
        Options {
            first_player: Player::North,
            ..Options::default()
        },
    ));
    all
}

fn event_name(event: &Event) -> &'static str {
    match event {
        Event::Lap { .. } => "Lap",
        Event::Drop { .. } => "Drop",
        Event::Capture { .. } => "Capture",
        Event::NoCapture { .. } => "NoCapture",
        Event::Pass { .. } => "Pass",
        Event::GameEnd { .. } => "GameEnd",
        Event::RoundEnd { .. } => "RoundEnd",
        Event::MatchEnd { .. } => "MatchEnd",
        Event::Elimination { .. } => "Elimination",
        Event::Allocation { .. } => "Allocation",
        Event::Refill { .. } => "Refill",
        Event::Taxation { .. } => "Taxation",
        Event::KuuDestroyed { .. } => "KuuDestroyed",
        Event::KuuStop { .. } => "KuuStop",
        Event::Safari { .. } => "Safari",
        Event::MarkSet { .. } => "MarkSet",
        Event::MarkCleared { .. } => "MarkCleared",
    }
}

fn prost_apply(game: &AnyGame, events: &[Event]) -> Vec<u8> {
    pb::ApplyMoveResponse {
        state: Some(convert::state_to_pb(game)),
        events: convert::events_to_pb(events),
    }
    .encode_to_vec()
}

/// Both answers of one call: equal bytes, or equal statuses (code, message, details).
pub(crate) fn same_answer<P: Message + fmt::Debug, E>(
    call: &str,
    prost: Result<P, tonic::Status>,
    wire: Result<Encoded<E>, tonic::Status>,
) {
    match (prost, wire) {
        (Ok(p), Ok(w)) => assert_eq!(w.as_bytes(), p.encode_to_vec(), "{call}"),
        (Err(p), Err(w)) => {
            assert_eq!(p.code(), w.code(), "{call}");
            assert_eq!(p.message(), w.message(), "{call}");
            assert_eq!(p.details(), w.details(), "{call}");
        }
        (p, w) => panic!("{call}: prost answered {p:?}, wire {w:?}"),
    }
}

/// A move that may be illegal or malformed for the position: any pit, any choice.
pub(crate) fn any_move(rng: &mut Rng) -> pb::Move {
    let action = if rng.below(8) == 0 {
        pb::r#move::Action::NextGame(pb::NextGame {
            pits: (0..rng.below(4)).map(|_| rng.below(34) as u32).collect(),
        })
    } else {
        pb::r#move::Action::Sow(pb::Sow {
            pit: rng.below(34) as u32,
            direction: rng.below(4) as i32,
            kichwa: rng.below(4) as i32,
            kuu_decision: rng.below(4) as i32,
        })
    };
    pb::Move {
        action: Some(action),
    }
}

#[test]
fn answers_of_random_playouts_are_prosts_bytes() {
    let mut rng = Rng(0x18_2026_1202);
    let mut kinds = BTreeSet::new();
    let mut positions = 0usize;
    for (kind, options) in matches() {
        for _ in 0..12 {
            let mut game = AnyGame::new_match(kind, &options);
            for _ in 0..400 {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                positions += 1;
                // Every legal move, straight through the encoder, and the playout goes on with one of them.
                let chosen = rng.below(moves.len());
                let mut then = None;
                for (i, mv) in moves.iter().enumerate() {
                    let mut next = game.clone();
                    let mut events = Vec::new();
                    next.play(mv, &mut events).expect("a listed move is legal");
                    kinds.extend(events.iter().map(event_name));
                    assert_eq!(
                        apply_move(&next, &events).as_bytes(),
                        prost_apply(&next, &events)
                    );
                    if i == chosen {
                        then = Some(next);
                    }
                }
                game = then.expect("one move is chosen");
            }
        }
    }
    println!("{positions} positions, event kinds {kinds:?}");
    assert!(positions > 10_000, "{positions} positions");
    // Every kind of event the engine records is met in these playouts (and made by hand below).
    assert_eq!(kinds.len(), 17, "{kinds:?}");
}

fn any_player(rng: &mut Rng) -> Player {
    Player::ALL[rng.below(3)]
}

/// `value` two times in three, `None` otherwise.
fn maybe<T>(rng: &mut Rng, value: impl FnOnce(&mut Rng) -> T) -> Option<T> {
    (rng.below(3) != 0).then(|| value(rng))
}

fn any_seats(rng: &mut Rng) -> PerSeat {
    match rng.below(4) {
        0 => PerSeat::NONE,
        n => PerSeat::of(
            [rng.next() as u8, rng.next() as u8, rng.next() as u8],
            1 + n,
        ),
    }
}

/// One event of every kind in turn, with any values (bytes of 128 and more take two varint bytes).
fn any_event(rng: &mut Rng, which: usize) -> Event {
    let byte = |rng: &mut Rng| match rng.below(3) {
        0 => 0,
        1 => rng.below(128) as u8,
        _ => rng.next() as u8,
    };
    let reasons = [
        EndReason::FewSeedsLeft,
        EndReason::BothStuck,
        EndReason::PlayerEmpty,
        EndReason::BaoHamna,
        EndReason::NoLegalMove,
        EndReason::OwnFrontRowEmptied,
        EndReason::Resignation,
    ];
    let direction = [Direction::Clockwise, Direction::Anticlockwise][rng.below(2)];
    let kichwa = [Kichwa::Left, Kichwa::Right][rng.below(2)];
    match which % 17 {
        0 => Event::Lap {
            player: any_player(rng),
            origin: byte(rng),
            seeds: byte(rng),
            source: [LapSource::Pit, LapSource::Reserve, LapSource::Capture][rng.below(3)],
        },
        1 => Event::Drop { pit: byte(rng) },
        2 => Event::Capture {
            pit: byte(rng),
            seeds: byte(rng),
            beneficiary: any_player(rng),
            kichwa: maybe(rng, |_| kichwa),
            direction: maybe(rng, |_| direction),
        },
        3 => Event::NoCapture {
            empty_pit: byte(rng),
            beyond_pit: byte(rng),
        },
        4 => Event::Pass {
            player: any_player(rng),
        },
        5 => Event::GameEnd {
            reason: reasons[rng.below(reasons.len())],
            winner: maybe(rng, any_player),
            collector: maybe(rng, any_player),
            collected: byte(rng),
            stores: any_seats(rng),
        },
        6 => Event::RoundEnd {
            reason: reasons[rng.below(reasons.len())],
            collector: Some(any_player(rng)),
            collected: byte(rng),
            totals: [byte(rng), byte(rng)],
        },
        7 => Event::MatchEnd {
            winner: maybe(rng, any_player),
            score: any_seats(rng),
            placing: any_seats(rng),
        },
        8 => Event::Elimination {
            player: any_player(rng),
        },
        9 => Event::Allocation {
            north_owned: rng.next() as u16,
            east_owned: rng.next() as u16,
            pits_owned: any_seats(rng),
            starter: any_player(rng),
        },
        10 => Event::Refill {
            player: any_player(rng),
            opened: rng.next() as u16 & [0, 0xffff][rng.below(2)],
            closed: rng.next() as u16,
            reserve: byte(rng),
        },
        11 => Event::Taxation {
            pit: byte(rng),
            seeds: byte(rng),
            six_seed_rule: rng.below(2) == 0,
        },
        12 => Event::KuuDestroyed {
            owner: any_player(rng),
            pit: byte(rng),
        },
        13 => Event::KuuStop { pit: byte(rng) },
        14 => Event::Safari {
            pit: byte(rng),
            seeds: byte(rng),
        },
        15 => Event::MarkSet {
            blockee: any_player(rng),
            pit: byte(rng),
            setter: any_player(rng),
        },
        _ => Event::MarkCleared {
            blockee: any_player(rng),
            pit: byte(rng),
            setter: any_player(rng),
        },
    }
}

#[test]
fn every_event_kind_in_any_order_is_prosts_bytes() {
    let mut rng = Rng(18);
    let game = AnyGame::new_match(GameKind::BaAwa, &Options::default());
    let mut kinds = BTreeSet::new();
    for round in 0..20_000 {
        // Alone, and in lists of any length and order: drops before any lap (left out), laps of hundreds of
        // drops (a message longer than 127 bytes), captures between a lap's drops.
        let len = match round % 4 {
            0 => 1,
            1 => rng.below(8),
            2 => rng.below(40),
            _ => rng.below(400),
        };
        let events: Vec<Event> = (0..len)
            .map(|i| {
                if round % 4 == 0 {
                    any_event(&mut rng, round / 4)
                } else if rng.below(3) == 0 {
                    any_event(&mut rng, i)
                } else {
                    Event::Drop {
                        pit: rng.next() as u8,
                    }
                }
            })
            .collect();
        kinds.extend(events.iter().map(event_name));
        assert_eq!(
            apply_move(&game, &events).as_bytes(),
            prost_apply(&game, &events),
            "{events:?}"
        );
    }
    assert_eq!(kinds.len(), 17, "{kinds:?}");
}

#[test]
fn moves_and_validation_answers_are_prosts_bytes() {
    let mut rng = Rng(7);
    for _ in 0..10_000 {
        let mv = if rng.below(2) == 0 {
            Move::NextGame(PitSet(rng.next() as u32 & 0xffff))
        } else {
            Move::Sow(Sow {
                pit: rng.next() as u8,
                direction: maybe(&mut rng, |_| Direction::Clockwise),
                kichwa: maybe(&mut rng, |_| Kichwa::Right),
                kuu_decision: maybe(&mut rng, |_| KuuDecision::Safari),
            })
        };
        let mut w = Writer::with_capacity(8);
        w.game_move(&mv);
        assert_eq!(w.buf, convert::move_to_pb(&mv).encode_to_vec(), "{mv:?}");
        let message = "x".repeat(rng.below(300));
        let (legal, reason) = (rng.below(2) == 0, rng.below(25) as i32);
        let prost = pb::ValidateMoveResponse {
            legal,
            reason,
            message: message.clone(),
        };
        assert_eq!(
            validate_move(legal, reason, &message).as_bytes(),
            prost.encode_to_vec()
        );
    }
}

#[test]
fn packed_lists_of_any_length_and_values_are_prosts_bytes() {
    // Both ways of writing a list (one byte a value, or varints) on either side of 128 values, each list of
    // values that all fit one byte or not, with every varint length.
    let mut rng = Rng(128);
    for len in (0..300).chain([1000, 20_000]) {
        for scale in [1u64, 128, 256, 1 << 14, 1 << 21, 1 << 28, 1 << 32] {
            let values: Vec<u32> = (0..len).map(|_| (rng.next() % scale) as u32).collect();
            let mut prost = Vec::new();
            prost::encoding::uint32::encode_packed(3, &values, &mut prost);
            let mut w = Writer::with_capacity(8);
            w.packed_slice(3, &values);
            assert_eq!(w.buf, prost, "{len} values below {scale}");
            let mut w = Writer::with_capacity(8);
            w.packed(3, values.iter().copied());
            assert_eq!(w.buf, prost, "{len} values below {scale}");
            if scale <= 256 {
                let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
                let mut w = Writer::with_capacity(8);
                w.packed_bytes(3, &bytes);
                assert_eq!(w.buf, prost, "{len} bytes below {scale}");
            }
        }
    }
}

#[test]
fn states_of_any_values_are_prosts_bytes() {
    // Values no game reaches (hundreds of seeds, long lists), so that states take multi-byte varints and
    // lengths of more than 127 bytes.
    let mut rng = Rng(99);
    let player = |rng: &mut Rng| maybe(rng, any_player);
    let list = |rng: &mut Rng, max: usize| -> Vec<u32> {
        let scale = [1u64, 128, 20_000, 1 << 32][rng.below(4)];
        (0..rng.below(max))
            .map(|_| (rng.next() % scale) as u32)
            .collect()
    };
    for _ in 0..5_000 {
        let variant = match rng.below(4) {
            0 => VariantSetup::Missing,
            1 => VariantSetup::BaAwa {
                owners: (0..rng.below(14)).map(|_| player(&mut rng)).collect(),
                starter: player(&mut rng),
                target: rng.next() as u32 % 300,
                players: rng.below(4) as u32,
                eliminated_in: list(&mut rng, 4).into(),
            },
            2 => VariantSetup::Bosh {
                closed: (0..rng.below(200)).map(|_| rng.below(2) == 0).collect(),
                round_starter: player(&mut rng),
            },
            _ => VariantSetup::BaoLaKete {
                mtaji: maybe(&mut rng, |rng| rng.below(2) == 0),
                kuu_alive: (0..rng.below(4)).map(|_| rng.below(2) == 0).collect(),
                mark: maybe(&mut rng, |rng| {
                    (player(rng), rng.next() as u32 % 1000, player(rng))
                }),
                game_starter: player(&mut rng),
                starter_rule: [
                    StarterRule::Alternate,
                    StarterRule::LoserStarts,
                    StarterRule::WinnerStarts,
                ][rng.below(3)],
            },
        };
        let statuses = [
            Status::InProgress,
            Status::RoundOver,
            Status::GameOver,
            Status::MatchOver,
        ];
        let setup = Setup {
            kind: GameKind::ALL[rng.below(3)],
            rules_version: rng.next() as u32 % 3,
            pits: list(&mut rng, 80).into(),
            stores: list(&mut rng, 4).into(),
            reserves: list(&mut rng, 4).into(),
            to_move: player(&mut rng),
            status: maybe(&mut rng, |rng| statuses[rng.below(4)]),
            winner: player(&mut rng),
            ply: rng.next() as u32 % 100_000,
            game_number: rng.next() as u32 % 300,
            match_score: list(&mut rng, 4).into(),
            variant,
        };
        let mut w = Writer::with_capacity(8);
        w.message(1, |w| w.setup(&setup));
        let prost = pb::ApplyMoveResponse {
            state: Some(convert::setup_to_pb(setup.clone())),
            events: Vec::new(),
        };
        assert_eq!(w.buf, prost.encode_to_vec(), "{setup:?}");
    }
}
