//! Target `codec`: the store's record codec (`mancala::store::codec`), what the embedded store reads back from
//! disk and what a shared store hands over from other replicas. Decoding arbitrary or damaged bytes is an
//! error, never a panic; every valid record survives encode → decode unchanged. The lobby's log entries
//! (`mancala::lobby::entry`), kept in the same stores, are held to the same.

use crate::{config, corpus};
use mancala::clock::TimeControl;
use mancala::engine::{
    Direction, GameKind, Kichwa, KuuDecision, Move, Options, PitSet, Player, Sow,
};
use mancala::store::codec;
use mancala::store::{Action, BotSeat, EndReason, EventRecord, Finished, MatchId, MatchRecord};
use proptest::prelude::*;

fn player() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::South), Just(Player::North), Just(Player::East)]
}

fn kind() -> impl Strategy<Value = GameKind> {
    (0..GameKind::ALL.len()).prop_map(|i| GameKind::ALL[i])
}

/// A seat of a person, or the server's opponent with or without a seed.
fn bot() -> impl Strategy<Value = Option<BotSeat>> {
    prop::option::of(
        (1u32..=6, prop::option::of(any::<u64>()))
            .prop_map(|(level, seed)| BotSeat { level, seed }),
    )
}

/// Any header the match manager could write.
fn record() -> impl Strategy<Value = MatchRecord> {
    (
        any::<[u8; 16]>(),
        kind(),
        player(),
        any::<u8>(),
        any::<u64>(),
        any::<[[u8; 32]; 3]>(),
        any::<u64>(),
        prop::option::of((
            any::<u64>(),
            prop::option::of(player()),
            prop::option::of(player()),
            prop::sample::select(EndReason::ALL.to_vec()),
        )),
        (
            "[a-z0-9-]{0,12}",
            [
                prop::option::of("[ -~]{1,16}"),
                prop::option::of("[ -~]{1,16}"),
                prop::option::of("[ -~]{1,16}"),
            ],
            1u64..,
            [bot(), bot(), bot()],
        ),
        (time_control(), prop::option::of(1u64..)),
    )
        .prop_map(
            |(
                id,
                kind,
                first_player,
                target,
                created_ms,
                token_hashes,
                version,
                finished,
                (tenant, players, active_ms, bots),
                (time_control, deadline_ms),
            )| {
                MatchRecord {
                    id: MatchId(id),
                    kind,
                    options: Options {
                        first_player,
                        ba_awa_target: target,
                        ..Options::default()
                    },
                    start: None,
                    created_ms,
                    token_hashes,
                    tenant,
                    players,
                    bots,
                    active_ms,
                    version,
                    finished: finished.map(|(at_ms, winner, resigned, reason)| Finished {
                        at_ms,
                        winner,
                        resigned,
                        reason,
                    }),
                    time_control,
                    deadline_ms,
                }
            },
        )
}

/// Any action a match of `kind` could log: a sowing from one of its pits with any choices, a `next` with any
/// of its pits, or a resignation.
fn action(kind: GameKind) -> impl Strategy<Value = Action> {
    let pits = kind.pit_count();
    let direction = prop::option::of(prop_oneof![
        Just(Direction::Clockwise),
        Just(Direction::Anticlockwise)
    ]);
    let kichwa = prop::option::of(prop_oneof![Just(Kichwa::Left), Just(Kichwa::Right)]);
    let decision = prop::option::of(prop_oneof![
        Just(KuuDecision::Stop),
        Just(KuuDecision::Safari)
    ]);
    let mask = if pits >= 32 {
        u32::MAX
    } else {
        (1u32 << pits) - 1
    };
    prop_oneof![
        (0..pits as u8, direction, kichwa, decision).prop_map(
            |(pit, direction, kichwa, kuu_decision)| Action::Move(Move::Sow(Sow {
                pit,
                direction,
                kichwa,
                kuu_decision,
            }))
        ),
        any::<u32>().prop_map(move |set| Action::Move(Move::NextGame(PitSet(set & mask)))),
        Just(Action::Resign),
        Just(Action::Flag),
        Just(Action::Abort),
        Just(Action::Claim),
    ]
}

fn event(kind: GameKind) -> impl Strategy<Value = EventRecord> {
    (
        any::<u64>(),
        player(),
        action(kind),
        "\\PC{0,20}",
        any::<u64>(),
    )
        .prop_map(|(seq, player, action, request_id, at_ms)| EventRecord {
            seq,
            player,
            action,
            request_id,
            at_ms,
        })
}

/// A record and one of its events.
fn record_and_event() -> impl Strategy<Value = (MatchRecord, EventRecord)> {
    record().prop_flat_map(|record| {
        let kind = record.kind;
        (Just(record), event(kind))
    })
}

fn sample_record(kind: GameKind) -> MatchRecord {
    MatchRecord {
        id: MatchId([0xab; 16]),
        kind,
        options: Options {
            first_player: Player::North,
            ba_awa_target: 11,
            ..Options::default()
        },
        start: None,
        created_ms: 1_700_000_000_000,
        token_hashes: [[1; 32], [2; 32], [0; 32]],
        tenant: "acme".into(),
        players: [None, Some("bob".into()), None],
        bots: [
            Some(BotSeat {
                level: 2,
                seed: None,
            }),
            None,
            None,
        ],
        active_ms: 1_700_000_000_400,
        version: 2,
        finished: Some(Finished {
            at_ms: 1_700_000_000_500,
            winner: Some(Player::South),
            resigned: Some(Player::North),
            reason: EndReason::Resignation,
        }),
        time_control: TimeControl::Delay {
            initial_ms: 180_000,
            delay_ms: 3_000,
        },
        deadline_ms: None,
    }
}

/// Any time control.
fn time_control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        Just(TimeControl::Untimed),
        (any::<u64>(), any::<u64>()).prop_map(|(initial_ms, increment_ms)| {
            TimeControl::Fischer {
                initial_ms,
                increment_ms,
            }
        }),
        (any::<u64>(), any::<u64>()).prop_map(|(initial_ms, delay_ms)| TimeControl::Delay {
            initial_ms,
            delay_ms
        }),
        any::<u32>().prop_map(|days| TimeControl::Correspondence { days }),
    ]
}

/// The seed corpus: a header and events of every game, encoded (`match-…` and `event-…`).
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for kind in GameKind::ALL {
        let name = kind.slug();
        let record = sample_record(kind);
        out.push((format!("match-{name}.bin"), codec::encode_match(&record)));
        let events = [
            Action::Move(Move::Sow(Sow {
                pit: 4,
                direction: Some(Direction::Clockwise),
                kichwa: Some(Kichwa::Right),
                kuu_decision: Some(KuuDecision::Safari),
            })),
            Action::Move(Move::NextGame(PitSet(0b1011))),
            Action::Resign,
        ];
        for (i, action) in events.into_iter().enumerate() {
            let event = EventRecord {
                seq: i as u64 + 1,
                player: Player::North,
                action,
                request_id: format!("req-{i}"),
                at_ms: 1_700_000_000_000 + i as u64,
            };
            out.push((format!("event-{name}-{i}.bin"), codec::encode_event(&event)));
        }
    }
    out
}

/// Decodes `bytes` as a header and as an event of every game: an answer or an error, never a panic. A header
/// that decodes encodes back to bytes that decode to it, and its version and end read alone are its own.
pub fn check_bytes(bytes: &[u8]) -> Result<(), TestCaseError> {
    let id = MatchId([7; 16]);
    if let Ok(record) = codec::decode_match(id, bytes) {
        prop_assert_eq!(
            codec::decode_match(id, &codec::encode_match(&record)).ok(),
            Some(record.clone())
        );
        // The embedded store's check-and-append reads these two fields alone: the same as the whole header's.
        prop_assert_eq!(
            codec::decode_progress(id, bytes).ok(),
            Some((record.version, record.finished.is_some()))
        );
    }
    if let Ok(logged) = mancala::lobby::entry::decode(1, bytes) {
        let again = mancala::lobby::entry::encode(&logged.entry, logged.at_ms);
        prop_assert_eq!(mancala::lobby::entry::decode(1, &again).ok(), Some(logged));
    }
    for kind in GameKind::ALL {
        let record = sample_record(kind);
        if let Ok(event) = codec::decode_event(&record, bytes) {
            prop_assert_eq!(
                codec::decode_event(&record, &codec::encode_event(&event)).ok(),
                Some(event)
            );
        }
    }
    Ok(())
}

#[test]
fn codec_corpus_replays() {
    for (name, bytes) in corpus("codec") {
        check_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

proptest! {
    #![proptest_config(config(10000))]

    #[test]
    fn codec_records_round_trip((record, event) in record_and_event()) {
        let decoded = codec::decode_match(record.id, &codec::encode_match(&record));
        prop_assert_eq!(decoded.ok(), Some(record.clone()));
        let decoded = codec::decode_event(&record, &codec::encode_event(&event));
        prop_assert_eq!(decoded.ok(), Some(event));
    }

    #[test]
    fn codec_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check_bytes(&bytes)?;
    }

    #[test]
    fn codec_damaged_records((record, event) in record_and_event(),
                             flips in prop::collection::vec((any::<usize>(), 0u8..8), 1..4),
                             cut in any::<usize>()) {
        for mut bytes in [codec::encode_match(&record), codec::encode_event(&event)] {
            for &(at, bit) in &flips {
                if !bytes.is_empty() {
                    let at = at % bytes.len();
                    bytes[at] ^= 1 << bit;
                }
            }
            check_bytes(&bytes)?;
            bytes.truncate(cut % (bytes.len() + 1));
            check_bytes(&bytes)?;
        }
    }
}
