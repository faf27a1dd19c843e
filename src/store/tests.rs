//! Tests of the records: match ids, and every record through the codec.

use super::*;
use crate::clock::TimeControl;
use crate::engine::{AnyGame, GameKind, Kichwa, Move, Options, PitSet, Sow};

/// A new match of `kind` of tenant `acme`, its id all `id`: the stores' tests' fixture.
pub(super) fn record(id: u8, kind: GameKind) -> MatchRecord {
    MatchRecord {
        id: MatchId([id; 16]),
        kind,
        options: Options::default(),
        start: None,
        created_ms: 1,
        token_hashes: [[1; 32], [2; 32], [0; 32]],
        tenant: "acme".into(),
        players: [None, None, None],
        bots: [None, None, None],
        active_ms: 1,
        version: 0,
        finished: None,
        time_control: Default::default(),
        deadline_ms: None,
    }
}

/// Event `seq`: South sows from pit 2, with request id `r<seq>`: the stores' tests' event.
pub(super) fn sow(seq: u64) -> EventRecord {
    EventRecord {
        seq,
        player: Player::South,
        action: Action::Move(Move::Sow(Sow::from(2))),
        request_id: format!("r{seq}"),
        at_ms: seq,
    }
}

#[test]
fn match_ids_print_as_32_hex_digits_and_parse_back() {
    let id = MatchId::random().expect("the OS has randomness");
    let text = id.to_string();
    assert_eq!(text.len(), 32);
    assert_eq!(MatchId::parse(&text), Some(id));
    assert_eq!(MatchId::parse(&text.to_uppercase()), Some(id));
    assert_eq!(MatchId::parse("xyz"), None);
    assert_eq!(MatchId::parse(&"g".repeat(32)), None);
    assert_ne!(
        MatchId::random().unwrap(),
        id,
        "128 random bits do not repeat"
    );
}

#[test]
fn records_survive_the_codec() {
    let record = MatchRecord {
        id: MatchId([7; 16]),
        kind: GameKind::BaAwa,
        options: Options {
            first_player: Player::North,
            ba_awa_target: 11,
            ..Options::default()
        },
        start: None,
        created_ms: 1_700_000_000_000,
        token_hashes: [[1; 32], [2; 32], [0; 32]],
        tenant: "acme".into(),
        players: [Some("ann".into()), None, None],
        bots: [
            None,
            Some(BotSeat {
                level: 3,
                seed: Some(42),
            }),
            None,
        ],
        active_ms: 1_700_000_000_500,
        version: 3,
        finished: Some(Finished {
            at_ms: 1_700_000_000_999,
            winner: Some(Player::South),
            resigned: Some(Player::North),
            reason: EndReason::Resignation,
        }),
        time_control: TimeControl::Fischer {
            initial_ms: 300_000,
            increment_ms: 2_000,
        },
        deadline_ms: Some(1_700_000_300_500),
    };
    assert_eq!(
        codec::decode_match(record.id, &codec::encode_match(&record)).unwrap(),
        record
    );
    let events = [
        EventRecord {
            seq: 1,
            player: Player::North,
            action: Action::Move(Move::Sow(Sow::from(7))),
            request_id: "r-1".into(),
            at_ms: 5,
        },
        EventRecord {
            seq: 2,
            player: Player::South,
            action: Action::Move(Move::NextGame(PitSet(0b1100_0000))),
            request_id: String::new(),
            at_ms: 6,
        },
        EventRecord {
            seq: 3,
            player: Player::North,
            action: Action::Resign,
            request_id: String::new(),
            at_ms: 7,
        },
        EventRecord {
            seq: 4,
            player: Player::South,
            action: Action::Expire,
            request_id: String::new(),
            at_ms: 8,
        },
        EventRecord {
            seq: 5,
            player: Player::North,
            action: Action::Flag,
            request_id: String::new(),
            at_ms: 9,
        },
        EventRecord {
            seq: 6,
            player: Player::South,
            action: Action::Abort,
            request_id: "abort-1".into(),
            at_ms: 10,
        },
        EventRecord {
            seq: 7,
            player: Player::North,
            action: Action::Claim,
            request_id: String::new(),
            at_ms: 11,
        },
    ];
    for event in events {
        assert_eq!(
            codec::decode_event(&record, &codec::encode_event(&event)).unwrap(),
            event
        );
    }
    let bao = MatchRecord {
        kind: GameKind::BaoLaKete,
        ..record.clone()
    };
    let choice = EventRecord {
        seq: 1,
        player: Player::South,
        action: Action::Move(Move::Sow(Sow {
            kichwa: Some(Kichwa::Right),
            ..Sow::from(4)
        })),
        request_id: String::new(),
        at_ms: 1,
    };
    assert_eq!(
        codec::decode_event(&bao, &codec::encode_event(&choice)).unwrap(),
        choice
    );
}

#[test]
fn a_match_begun_from_a_position_keeps_it_in_its_header() {
    let mut game = AnyGame::new_match(GameKind::BaoLaKete, &Options::default());
    for _ in 0..2 {
        let first = game.legal_moves()[0];
        game.play(&first, &mut Vec::new()).unwrap();
    }
    let record = MatchRecord {
        start: Some(std::sync::Arc::new(game)),
        ..record(9, GameKind::BaoLaKete)
    };
    let bytes = codec::encode_match(&record);
    assert_eq!(codec::decode_match(record.id, &bytes).unwrap(), record);
    // A header without a start (every header written before starts existed) is the opening's.
    let opening = MatchRecord {
        start: None,
        ..record.clone()
    };
    assert_eq!(
        codec::decode_match(record.id, &codec::encode_match(&opening))
            .unwrap()
            .start,
        None
    );
}
