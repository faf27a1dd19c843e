//! A client's state validated into a game (`from_setup`, `to_setup`), and the packed relay (`relay_ends`) checked
//! against the rules played literally.

use super::clauses::ALL_NEVER_ENDING;
use super::*;

fn setup_of(game: &Bosh) -> Setup {
    game.to_setup()
}

/// A state with one open hole on the whole board (North's row all closed) is refused, not a panic: the check of
/// whether South can move meets a relay on a ring of one hole, which never ends (found by
/// `tests/worst_cycles.rs`).
#[test]
fn one_open_hole_on_the_board_is_refused_without_a_panic() {
    let mut setup = setup_of(&position([0, 0, 4, 4, 4, 4, 4, 4, 4, 4], 0, S));
    setup.pits = vec![0, 0, 0, 0, 9, 0, 0, 0, 0, 0].into();
    setup.stores = vec![0, 31].into();
    setup.match_score = vec![1, 0].into();
    setup.variant = VariantSetup::Bosh {
        closed: (0..HOLES).map(|h| h != 4).collect(),
        round_starter: Some(S),
    };
    let refused = Bosh::from_setup(&setup).expect_err("North has no open hole");
    assert!(
        refused.0.iter().any(|v| v.field == "bosh.closed"),
        "{refused:?}"
    );
}

/// Every state the engine makes survives the wire shape unchanged.
#[test]
fn to_setup_and_from_setup_round_trip() {
    let mut game = Bosh::new_match(&Options::default());
    assert_eq!(Bosh::from_setup(&setup_of(&game)), Ok(game.clone()));
    sow(&mut game, 4);
    assert_eq!(Bosh::from_setup(&setup_of(&game)), Ok(game.clone()));
    for game in [
        round_over([28, 12], [0, 0], 0b11 << 5, S),
        round_over([37, 3], [0, 0], 0, N),
    ] {
        assert_eq!(Bosh::from_setup(&setup_of(&game)), Ok(game.clone()));
    }
    let setup = setup_of(&position([0, 0, 4, 4, 4, 4, 4, 4, 4, 4], S1_S2_CLOSED, S));
    assert_eq!(setup.match_score, vec![3, 5]);
    assert_eq!(
        setup.variant,
        VariantSetup::Bosh {
            closed: vec![true, true, false, false, false, false, false, false, false, false].into(),
            round_starter: Some(S)
        }
    );
}

fn fields(setup: &Setup) -> Vec<String> {
    match Bosh::from_setup(setup) {
        Ok(_) => Vec::new(),
        Err(InvalidState(violations)) => violations.into_iter().map(|v| v.field).collect(),
    }
}

/// from_setup reports every broken invariant at once.
#[test]
fn from_setup_reports_every_violation() {
    let mut setup = setup_of(&position([0, 0, 4, 4, 4, 4, 4, 4, 4, 4], S1_S2_CLOSED, S));
    setup.pits[0] = 1; // a closed hole holding a stone
    setup.reserves = vec![4, 0].into(); // 3 open holes with a reserve of 4
    setup.match_score = vec![5, 5].into(); // South has 3 open holes
    setup.ply = 1; // South started the round, so North is due after one move
    assert_eq!(
        fields(&setup),
        vec!["pits[0]", "reserves[0]", "match_score", "to_move"]
    );

    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.variant = VariantSetup::Bosh {
        closed: vec![false; 9].into(),
        round_starter: None,
    };
    assert_eq!(fields(&setup), vec!["bosh.closed", "bosh.round_starter"]);

    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.variant = VariantSetup::Bosh {
        closed: [
            true, true, true, true, true, false, false, false, false, false,
        ]
        .into(),
        round_starter: Some(S),
    };
    setup.pits = vec![0, 0, 0, 0, 0, 4, 4, 4, 4, 4].into();
    let f = fields(&setup);
    assert!(f.contains(&"bosh.closed".to_string()), "{f:?}");

    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.variant = VariantSetup::Missing;
    assert_eq!(fields(&setup), vec!["bosh"]);

    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.status = Some(Status::GameOver);
    setup.to_move = None;
    // A finished round also has an empty board.
    assert_eq!(fields(&setup), vec!["status", "pits"]);

    // 41 stones.
    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.reserves = vec![1, 0].into();
    assert_eq!(fields(&setup), vec!["pits"]);
}

/// from_setup: the player to move must be able to move, and must be the one the ply count says.
#[test]
fn from_setup_checks_the_player_to_move() {
    // South to move with an empty row: the round would have ended (§3.3).
    let setup = setup_of(&position([0, 0, 0, 0, 0, 4, 4, 4, 4, 4], 0, S));
    assert_eq!(fields(&setup), vec!["to_move"]);
    // North to move at ply 1 of a round North started: every move passes the turn, so South is due.
    let mut setup = setup_of(&position([4; HOLES], 0, N));
    setup.ply = 1;
    assert_eq!(fields(&setup), vec!["to_move"]);
    setup.variant = VariantSetup::Bosh {
        closed: vec![false; HOLES].into(),
        round_starter: Some(S),
    };
    assert_eq!(fields(&setup), Vec::<String>::new());
    // Every move never ends.
    let (pits, closed) = ALL_NEVER_ENDING;
    assert_eq!(
        fields(&setup_of(&position(pits, closed, N))),
        vec!["to_move"]
    );
    // A custom position with fewer than 40 stones is fine.
    assert_eq!(
        fields(&setup_of(&position([0, 2, 0, 0, 1, 3, 0, 0, 2, 0], 0, S))),
        Vec::<String>::new()
    );
}

/// from_setup: a finished round has an empty board and the status and winner its totals give.
#[test]
fn from_setup_checks_a_finished_round() {
    let mut setup = setup_of(&round_over([28, 12], [0, 0], 0, S));
    setup.pits[3] = 1;
    setup.stores = vec![27, 12].into();
    assert_eq!(fields(&setup), vec!["pits"]);
    let mut setup = setup_of(&round_over([28, 12], [0, 0], 0, S));
    setup.winner = Some(N);
    setup.status = Some(Status::MatchOver);
    assert_eq!(fields(&setup), vec!["status", "winner"]);
    let mut setup = setup_of(&round_over([37, 3], [0, 0], 0, S));
    setup.status = Some(Status::RoundOver);
    assert_eq!(fields(&setup), vec!["status"]);
}

/// from_setup never panics, whatever the numbers: a board of 400 stones is refused, not sown.
#[test]
fn from_setup_refuses_oversized_boards_without_panicking() {
    let mut setup = setup_of(&Bosh::new_match(&Options::default()));
    setup.pits = vec![40; HOLES].into();
    assert_eq!(fields(&setup), vec!["pits"]);
    setup.pits = vec![u32::MAX; HOLES].into();
    setup.stores = vec![u32::MAX, 7].into();
    setup.ply = u32::MAX;
    assert!(fields(&setup).len() > HOLES);
    let mut setup = setup_of(&round_over([20, 20], [0, 0], 0, S));
    setup.pits = vec![40; HOLES].into();
    assert_eq!(fields(&setup), vec!["pits"]);
}

/// §1: `relay_ends` (the relay played on the open holes packed relative to each lap's origin) agrees with the
/// rules played literally on the board — relay until the hole after the last stone is empty, a repeat of the
/// board and origin meaning the move never ends — on random boards with random closed holes.
#[test]
fn sowing_ends_agrees_with_the_literal_relay() {
    use std::collections::HashSet;
    let mut rng = crate::engine::Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut rand = move |n: u64| rng.below(n as usize) as u64;
    let (mut endless, mut ending) = (0, 0);
    for _ in 0..20_000 {
        let closed = rand(1 << HOLES) as u16 & !(1 << rand(5)) & !(1 << (5 + rand(5)));
        let mut pits = [0u8; HOLES];
        for _ in 0..2 + rand(39) {
            let open: Vec<usize> = (0..HOLES).filter(|&h| closed >> h & 1 == 0).collect();
            pits[open[rand(open.len() as u64) as usize]] += 1;
        }
        let game = position(pits, closed, S);
        for hole in (0..HOLES as u8).filter(|&h| game.pits[h as usize] > 0) {
            let mut board = game.clone();
            let mut seen = HashSet::new();
            let mut origin = hole;
            let literal = loop {
                if !seen.insert((board.pits, origin)) {
                    break false;
                }
                let hand = std::mem::take(&mut board.pits[origin as usize]);
                let mut at = origin;
                for _ in 0..hand {
                    at = board.ring.next(at);
                    board.pits[at as usize] += 1;
                }
                origin = board.ring.next(at);
                if board.pits[origin as usize] == 0 {
                    break true;
                }
            };
            assert_eq!(
                game.relay_ends(&game.pits, hole),
                literal,
                "{pits:?} closed {closed:#x} hole {hole}"
            );
            if literal {
                ending += 1;
            } else {
                endless += 1;
            }
        }
    }
    assert!(
        endless > 100 && ending > 10_000,
        "{endless} endless, {ending} ending"
    );
}
