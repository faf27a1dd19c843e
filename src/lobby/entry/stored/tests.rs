//! The stored form's round trip for every entry, and bytes the lobby did not write refused.

use super::*;

fn game() -> (GameKind, Options) {
    (
        GameKind::BaAwa,
        Options {
            first_player: Player::North,
            ba_awa_target: 11,
            ..Options::default()
        },
    )
}

/// A three-player Ba-awa match made with `CreateMatch`, with `seats`.
fn three_player_match(id: MatchId, seats: Vec<SeatRecord>) -> Entry {
    let (kind, options) = game();
    Entry::MatchCreated {
        id,
        kind,
        options: Options {
            ba_awa_players: 3,
            ..options
        },
        time_control: Default::default(),
        rated: false,
        seats,
        origin: Origin::Direct,
    }
}

#[test]
fn every_entry_survives_the_codec() {
    let (kind, options) = game();
    let id = MatchId([3; 16]);
    let glicko = Glicko {
        rating: 1612.5,
        deviation: 201.25,
        volatility: 0.0599,
    };
    let challenge = Challenge {
        id,
        from: "ann".into(),
        to: None,
        also_to: None,
        joined: Vec::new(),
        kind,
        options,
        time_control: Default::default(),
        rated: true,
        seat: SeatChoice::Seat(Player::North),
        created_ms: 5,
        expires_ms: 9,
        rematch_of: Some(MatchId([4; 16])),
        status: ChallengeStatus::Pending,
    };
    let seek = Seek {
        id,
        player: "bob".into(),
        kind,
        options,
        time_control: Default::default(),
        rated: false,
        rating_min: Some(1200),
        rating_max: None,
        fallback: Some(Fallback {
            level: 3,
            after_ms: 2500,
        }),
        created_ms: 1,
        expires_ms: 2,
        status: SeekStatus::Open,
    };
    let entries = vec![
        Entry::Profile {
            player: "ann".into(),
            display_name: "Ann".into(),
            bot: Some(BotAccount {
                owner: "team".into(),
                description: "plays fast".into(),
            }),
        },
        Entry::Profile {
            player: "bob".into(),
            display_name: String::new(),
            bot: None,
        },
        Entry::Challenged(challenge.clone()),
        Entry::Challenged(Challenge {
            to: Some("bob".into()),
            seat: SeatChoice::Random,
            rematch_of: None,
            ..challenge.clone()
        }),
        // Three-player Ba-awa: a challenge to two players, East asked for, and one of them accepting first.
        Entry::Challenged(Challenge {
            to: Some("bob".into()),
            also_to: Some("cy".into()),
            options: Options {
                ba_awa_players: 3,
                ..options
            },
            seat: SeatChoice::Seat(Player::East),
            ..challenge
        }),
        Entry::ChallengeJoined {
            id,
            player: "cy".into(),
        },
        Entry::ChallengeClosed {
            id,
            status: ChallengeStatus::Declined(DeclineReason::OnlyBot),
        },
        Entry::ChallengeClosed {
            id,
            status: ChallengeStatus::Cancelled,
        },
        Entry::ChallengeClosed {
            id,
            status: ChallengeStatus::Expired,
        },
        Entry::Sought(seek.clone()),
        Entry::Sought(Seek {
            fallback: None,
            ..seek
        }),
        Entry::SeekClosed {
            id,
            status: SeekStatus::Cancelled,
        },
        Entry::SeekClosed {
            id,
            status: SeekStatus::Expired,
        },
        Entry::MatchCreated {
            id,
            kind,
            options,
            time_control: Default::default(),
            rated: true,
            seats: vec![
                SeatRecord {
                    player: Some("ann".into()),
                    bot_level: None,
                    rating: 1500.0,
                    bot_account: true,
                },
                SeatRecord {
                    player: None,
                    bot_level: Some(4),
                    rating: 0.0,
                    bot_account: false,
                },
            ],
            origin: Origin::Seeks(vec![id, MatchId([8; 16])]),
        },
        Entry::MatchCreated {
            id,
            kind,
            options,
            time_control: Default::default(),
            rated: false,
            seats: vec![SeatRecord::default(); 2],
            origin: Origin::Challenge(MatchId([6; 16])),
        },
        Entry::MatchCreated {
            id,
            kind,
            options,
            time_control: Default::default(),
            rated: false,
            seats: vec![SeatRecord::default(); 2],
            origin: Origin::Direct,
        },
        Entry::MatchCreated {
            id,
            kind,
            options,
            time_control: Default::default(),
            rated: true,
            seats: vec![SeatRecord::default(); 2],
            origin: Origin::Tournament {
                id: MatchId([7; 16]),
                round: 3,
            },
        },
        Entry::Tournament(TournamentStep {
            id: MatchId([7; 16]),
            tell: vec!["ann".into(), "bob".into()],
            last: true,
            body: vec![1, 2, 3],
        }),
        // Three-player Ba-awa: East's seat is recorded third.
        three_player_match(
            id,
            vec![
                SeatRecord {
                    player: Some("ann".into()),
                    ..SeatRecord::default()
                },
                SeatRecord::default(),
                SeatRecord {
                    player: Some("cy".into()),
                    rating: 1500.0,
                    ..SeatRecord::default()
                },
            ],
        ),
        // A three-player match recorded before East was: two seats still read back.
        three_player_match(id, vec![SeatRecord::default(); 2]),
        Entry::MatchStarted { id },
        Entry::MatchFinished {
            id,
            finished: Finished {
                at_ms: 77,
                winner: Some(Player::South),
                resigned: Some(Player::North),
                reason: crate::store::EndReason::Resignation,
            },
            ratings: Some([
                RatingChange {
                    before: Glicko::default(),
                    after: glicko,
                },
                RatingChange {
                    before: glicko,
                    after: Glicko::default(),
                },
            ]),
        },
        Entry::MatchFinished {
            id,
            finished: Finished {
                at_ms: 78,
                winner: None,
                resigned: None,
                reason: crate::store::EndReason::Expired,
            },
            ratings: None,
        },
    ];
    for (seq, entry) in (1..).zip(entries) {
        let bytes = encode(&entry, 1000 + seq);
        assert_eq!(
            decode(seq, &bytes).unwrap(),
            Logged {
                seq,
                at_ms: 1000 + seq,
                entry
            }
        );
    }
}

#[test]
fn bytes_the_lobby_did_not_write_are_an_error() {
    assert!(decode(1, b"").is_err(), "an empty entry");
    assert!(decode(1, b"\xff\xff\xff").is_err());
    let no_game = StoredEntry {
        challenged: Some(StoredChallenge::default()),
        ..StoredEntry::default()
    };
    assert!(decode(1, &no_game.encode_to_vec()).is_err());
    // Three seats for a two-player game is not something the lobby writes.
    let (kind, options) = game();
    let three_seats = encode(
        &Entry::MatchCreated {
            id: MatchId([4; 16]),
            kind,
            options,
            time_control: Default::default(),
            rated: false,
            seats: vec![SeatRecord::default(); 3],
            origin: Origin::Direct,
        },
        5,
    );
    assert!(decode(1, &three_seats).is_err());
}
