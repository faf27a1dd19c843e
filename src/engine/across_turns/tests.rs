//! The bookkeeping of §1 "Endless play across turns": counting positions per game, agreement, the match length,
//! and the position key.

use super::*;
use crate::engine::{Move, NoTrace, Player};

const S: Player = Player::South;
const N: Player = Player::North;

fn start(kind: GameKind, options: Options) -> (AnyGame, AcrossTurns) {
    let game = AnyGame::new_match(kind, &options);
    let across = AcrossTurns::start(kind, &options, &game);
    (game, across)
}

#[test]
fn the_first_position_of_a_game_counts_once() {
    for kind in GameKind::ALL {
        let (game, across) = start(kind, Options::default());
        assert_eq!(across.occurrences(&game), 1, "{kind:?}");
    }
}

/// The key is stable: a client computing it from the documented bytes gets these numbers for the openings
/// (docs/guide/endless-play.md#position-key). A change here is a change of the protocol.
#[test]
fn the_opening_positions_have_these_keys() {
    let keys =
        GameKind::ALL.map(|kind| position_key(&AnyGame::new_match(kind, &Options::default())));
    assert_eq!(keys, OPENING_KEYS, "{keys:#x?}");
    // Who is to move is part of the position.
    let north_first = Options {
        first_player: N,
        ..Options::default()
    };
    for (i, kind) in GameKind::ALL.into_iter().enumerate() {
        assert_ne!(
            position_key(&AnyGame::new_match(kind, &north_first)),
            keys[i]
        );
    }
}

/// Bao la Kete, Bosh and Ba-awa, South to move.
const OPENING_KEYS: [u64; 3] = [
    0x5501_0756_78ae_6427,
    0x9bb6_36d0_5579_4c6b,
    0xbf4c_3635_6d1f_0685,
];

/// The key gathered in blocks ([`position::key_of_view`]) is the documented one, and it is the blocks that
/// compute it for every state a match reaches (a hizi-zetu mark, closed holes, eliminations, three seats): the
/// states of random matches of every game, each compared at every ply.
#[test]
fn the_key_gathered_in_blocks_is_the_documented_key() {
    let mut rng = crate::engine::Rng::new(35);
    let three = Options {
        ba_awa_players: 3,
        ..Options::default()
    };
    let matches = GameKind::ALL
        .map(|kind| (kind, Options::default()))
        .into_iter()
        .chain([(GameKind::BaAwa, three)]);
    for (kind, options) in matches {
        for _ in 0..10 {
            let mut game = AnyGame::new_match(kind, &options);
            loop {
                let view = game.view();
                let documented = position::documented_key(&view);
                assert_eq!(position::key_of_view(&view), documented, "{view:?}");
                assert!(position::gathered_in_blocks(&view), "{view:?}");
                if game.random_playout(&mut rng, crate::engine::Until::MatchEnd, 1) == 0 {
                    break;
                }
            }
        }
    }
}

/// The documented bytes of Bosh's opening, hashed by hand, give the same key.
#[test]
fn the_key_is_fnv_1a_over_the_documented_bytes_as_words() {
    let mut bytes = vec![2u8, 10];
    bytes.extend([4u8; 10]);
    bytes.extend([2, 0, 0, 2, 0, 0, 1]);
    bytes.extend([0u8; 10]);
    bytes.push(1);
    // 30 bytes, padded to 32: four little-endian words.
    bytes.resize(32, 0);
    let fnv = bytes.chunks(8).fold(0xcbf2_9ce4_8422_2325u64, |h, word| {
        let word = u64::from_le_bytes(word.try_into().unwrap());
        (h ^ word).wrapping_mul(0x0000_0100_0000_01b3)
    });
    assert_eq!(
        fnv,
        position_key(&AnyGame::new_match(GameKind::Bosh, &Options::default()))
    );
}

#[test]
fn an_offer_and_its_acceptance_end_the_game_by_agreement() {
    let (mut game, mut across) = start(GameKind::BaAwa, Options::default());
    let mut trace = Vec::new();
    assert_eq!(
        across.check_agreement(&game, N, AgreementAction::Accept),
        Err(AgreementRefusal::NothingToAnswer)
    );
    assert_eq!(
        across.check_agreement(&game, S, AgreementAction::Offer),
        Ok(())
    );
    assert_eq!(
        across.agree(&mut game, S, AgreementAction::Offer, &mut trace),
        None
    );
    assert_eq!(
        across.check_agreement(&game, S, AgreementAction::Offer),
        Err(AgreementRefusal::AlreadyAgreed)
    );
    assert_eq!(
        across.check_agreement(&game, S, AgreementAction::Decline),
        Err(AgreementRefusal::NothingToAnswer)
    );
    assert!(across.agreement().agrees(S));
    assert_eq!(
        across.agree(&mut game, N, AgreementAction::Accept, &mut trace),
        Some(Ending::Game(EndReason::Agreement))
    );
    // South began: he takes all 48 seeds, 12 pits, and wins the match (§4.4).
    assert_eq!(game.status(), Status::MatchOver);
    assert!(trace.iter().any(|e| matches!(
        e,
        Event::GameEnd {
            reason: EndReason::Agreement,
            collector: Some(S),
            collected: 48,
            ..
        }
    )));
    assert_eq!(
        across.check_agreement(&game, S, AgreementAction::Offer),
        Err(AgreementRefusal::NoGameInPlay)
    );
}

#[test]
fn an_offer_lapses_when_its_maker_sows_and_can_be_declined_or_withdrawn() {
    let (mut game, mut across) = start(GameKind::Bosh, Options::default());
    let mut trace = Vec::new();
    across.agree(&mut game, S, AgreementAction::Offer, &mut trace);
    let mv = game.legal_moves()[0];
    game.play(&mv, &mut trace).unwrap();
    across.after_move(&mut game, S, &mut trace);
    assert!(
        !across.agreement().is_open(),
        "South sowed: his offer lapsed"
    );
    across.agree(&mut game, N, AgreementAction::Offer, &mut trace);
    across.agree(&mut game, S, AgreementAction::Decline, &mut trace);
    assert!(!across.agreement().is_open());
    across.agree(&mut game, N, AgreementAction::Offer, &mut trace);
    assert_eq!(
        across.check_agreement(&game, S, AgreementAction::Withdraw),
        Err(AgreementRefusal::NothingToWithdraw)
    );
    across.agree(&mut game, N, AgreementAction::Withdraw, &mut trace);
    assert!(!across.agreement().is_open());
    assert_eq!(game.status(), Status::InProgress);
}

#[test]
fn three_players_must_all_agree() {
    let options = Options {
        ba_awa_players: 3,
        ..Options::default()
    };
    let (mut game, mut across) = start(GameKind::BaAwa, options);
    let mut trace = Vec::new();
    assert_eq!(
        across.agree(&mut game, S, AgreementAction::Offer, &mut trace),
        None
    );
    assert_eq!(
        across.agree(&mut game, Player::East, AgreementAction::Accept, &mut trace),
        None
    );
    assert_eq!(
        across.agree(&mut game, N, AgreementAction::Accept, &mut trace),
        Some(Ending::Game(EndReason::Agreement))
    );
}

/// The third occurrence ends the game; the first two do not. A new game starts a new count.
#[test]
fn the_third_occurrence_ends_the_game_and_a_new_game_counts_afresh() {
    let (mut game, mut across) = start(GameKind::BaoLaKete, Options::default());
    let opening = game.clone();
    // Counting the same position again, as if play had come back to it.
    let mut trace = Vec::new();
    assert_eq!(across.after_move(&mut game, N, &mut trace), None);
    assert_eq!(across.occurrences(&game), 2);
    assert_eq!(
        across.after_move(&mut game, N, &mut trace),
        Some(Ending::Game(EndReason::Repetition))
    );
    assert_eq!(game.status(), Status::GameOver);
    // Equal seeds at the opening: a drawn game.
    assert_eq!(game.winner(), None);
    game.play(&Move::NextGame(crate::engine::PitSet::EMPTY), &mut NoTrace)
        .unwrap();
    assert_eq!(across.after_move(&mut game, S, &mut trace), None);
    assert_eq!(across.occurrences(&game), 1);
    assert_ne!(
        position_key(&game),
        position_key(&opening),
        "North begins game 2"
    );
}

#[test]
fn with_repetition_off_a_position_may_come_back_any_number_of_times() {
    let options = Options {
        repetition: false,
        ..Options::default()
    };
    let (mut game, mut across) = start(GameKind::Bosh, options);
    for _ in 0..5 {
        assert_eq!(across.after_move(&mut game, S, &mut Vec::new()), None);
    }
    assert_eq!(across.occurrences(&game), 6);
}

/// The match ends when its last game is over, whoever won that game, unless the rules ended it first.
#[test]
fn the_last_game_allowed_ends_the_match_by_its_length() {
    let options = Options {
        max_games: Some(1),
        ..Options::default()
    };
    let (mut game, mut across) = start(GameKind::BaoLaKete, options);
    across.after_move(&mut game, S, &mut Vec::new());
    assert_eq!(
        across.after_move(&mut game, S, &mut Vec::new()),
        Some(Ending::MatchLength),
        "a drawn first game is the last one"
    );
    assert_eq!(
        game.match_leader(),
        None,
        "nobody leads: the match is drawn"
    );
}

#[test]
fn each_game_has_its_default_match_length() {
    assert_eq!(Options::default().max_games_for(GameKind::BaoLaKete), 5);
    for kind in GameKind::ALL {
        let described = crate::engine::describe(kind);
        let option = described
            .options
            .iter()
            .find(|o| o.name == "max_games")
            .expect("DescribeGame lists the match length");
        assert_eq!(option.default_value, default_max_games(kind).to_string());
    }
}
