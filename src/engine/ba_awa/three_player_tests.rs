//! Three-player Ba-awa (docs/ba-awa.md §4.7): the worked examples BA-7 and BA-8, then one test per clause.

use super::tests::captures;
use super::*;
use crate::engine::{playout::Rng, NoTrace};

const S: Player = Player::South;
const N: Player = Player::North;
const E: Player = Player::East;

fn three_players() -> Options {
    Options {
        ba_awa_players: 3,
        ..Options::default()
    }
}

/// Game 1's blocks: South 0–3, East 4–7, North 8–11.
const GAME_ONE_NORTH: u16 = 0xF00;
const GAME_ONE_EAST: u16 = 0x0F0;

fn sow(game: &mut BaAwa, pit: u8) -> Vec<Event> {
    let mut events = Vec::new();
    game.play(&Move::Sow(Sow::from(pit)), &mut events)
        .unwrap_or_else(|e| panic!("pit {pit}: {e}"));
    events
}

fn legal_pits(game: &BaAwa) -> Vec<u8> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .filter_map(|mv| match mv {
            Move::Sow(sow) => Some(sow.pit),
            Move::NextGame(_) => None,
        })
        .collect()
}

/// A finished three-player game with these winnings `[South, North, East]`, begun by `starter`.
fn finished(stores: [u8; 3], starter: Player) -> BaAwa {
    let mut game = BaAwa::new_match(&three_players());
    game.pits = [0; PITS];
    game.stores = stores;
    game.starter = starter;
    game.to_move = None;
    game.ply = 30;
    game.end_game(EndReason::FewSeedsLeft, &mut NoTrace);
    game
}

fn owners(game: &BaAwa) -> Vec<Player> {
    (0..PITS).map(|pit| game.owner(pit)).collect()
}

fn blocks(south: usize, east: usize, north: usize) -> Vec<Player> {
    [(S, south), (E, east), (N, north)]
        .iter()
        .flat_map(|&(seat, n)| std::iter::repeat_n(seat, n))
        .collect()
}

// ---- Worked examples, docs/ba-awa.md §4.7 ----

/// BA-8: reached from the start by S S3, E S6, N N5, S S1, E N1, N N4; then South's S4 (13 seeds) goes once round
/// the board: a four for East (N2, his), one for North (N5), and the final four, in East's S5, for South.
#[test]
fn ba_8_en_passant_fours_for_both_opponents_then_the_final_four_for_the_mover() {
    let mut game = BaAwa::new_match(&three_players());
    assert_eq!(owners(&game), blocks(4, 4, 4));
    for (seat, pit) in [(S, 2), (E, 5), (N, 10), (S, 0), (E, 6), (N, 9)] {
        assert_eq!(game.to_move, Some(seat), "before pit {pit}");
        sow(&mut game, pit);
    }
    assert_eq!(game.pits, [1, 2, 0, 13, 2, 1, 1, 3, 1, 0, 3, 1]);
    assert_eq!(game.stores(), PerSeat::of([8, 0, 12], 3));
    assert_eq!(game.to_move, Some(S));
    assert_eq!(legal_pits(&game), [0, 1, 3], "S1, S2 or S4; S3 is empty");

    let events = sow(&mut game, 3);
    assert_eq!(captures(&events), [(7, E), (10, N), (4, S)]);
    assert_eq!(game.pits, [2, 3, 1, 1, 0, 2, 2, 0, 2, 1, 0, 2]);
    assert_eq!(game.seeds_on_board(), 16);
    assert_eq!(game.stores(), PerSeat::of([12, 4, 16], 3));
    assert_eq!(game.status, Status::InProgress);
    assert_eq!(game.to_move, Some(E), "East moves next");
}

/// BA-7: winnings S 20, E 12, N 16 give South 0–4, East 5–7, North 8–11; later S 28, E 0, N 20 put East out, and
/// South and North go on alternately with blocks 0–6 and 7–11.
#[test]
fn ba_7_allocation_by_blocks_and_an_elimination() {
    let mut game = finished([20, 16, 12], S);
    assert_eq!(game.status, Status::GameOver);
    assert_eq!(game.match_score(), PerSeat::of([5, 4, 3], 3));
    let mut events = Vec::new();
    game.play(&Move::NextGame(PitSet::EMPTY), &mut events)
        .unwrap();
    assert_eq!(owners(&game), blocks(5, 3, 4));
    assert_eq!(game.starter, E, "the next in turn order after South");
    assert!(events.contains(&Event::Allocation {
        north_owned: 0xF00,
        east_owned: 0x0E0,
        pits_owned: PerSeat::of([5, 4, 3], 3),
        starter: E,
    }));

    // A later game, begun by North: East wins nothing and goes out.
    let mut events = Vec::new();
    let mut game = finished([28, 20, 0], N);
    game.game_number = 5;
    game.eliminated_in = [0; 3];
    game.status = Status::InProgress;
    game.pits = [0; PITS];
    game.end_game(EndReason::FewSeedsLeft, &mut events);
    assert_eq!(game.status, Status::GameOver, "nobody has 10 pits");
    assert_eq!(game.eliminated_in, [0, 0, 5]);
    assert!(events.contains(&Event::Elimination { player: E }));
    game.play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .unwrap();
    assert_eq!(owners(&game), blocks(7, 0, 5));
    assert_eq!(game.starter, S, "after North, East being out, South");
    assert_eq!(game.to_move, Some(S));
    sow(&mut game, 0);
    assert_eq!(game.to_move, Some(N), "South and North alternate");
}

// ---- One test per clause of §4.7 ----

/// §4.7: turns go South → East → North, and East's pits are S5, S6, N1, N2.
#[test]
fn turns_follow_the_sowing_direction() {
    let mut game = BaAwa::new_match(&three_players());
    assert_eq!(
        (game.north_owned, game.east_owned),
        (GAME_ONE_NORTH, GAME_ONE_EAST)
    );
    assert_eq!(legal_pits(&game), [0, 1, 2, 3]);
    sow(&mut game, 0);
    assert_eq!(game.to_move, Some(E));
    assert!(legal_pits(&game).iter().all(|p| (4..8).contains(p)));
    let east_pit = legal_pits(&game)[0];
    sow(&mut game, east_pit);
    assert_eq!(game.to_move, Some(N));
    assert!(legal_pits(&game).iter().all(|p| (8..12).contains(p)));
}

/// §4.7: any seat may begin game 1.
#[test]
fn east_may_begin_the_match() {
    let game = BaAwa::new_match(&Options {
        first_player: E,
        ..three_players()
    });
    assert_eq!((game.starter, game.to_move), (E, Some(E)));
}

/// §4.7 "moves": a player moves only from his own pits, whoever else owns the one he names.
#[test]
fn a_pit_of_either_other_player_is_refused() {
    let game = BaAwa::new_match(&three_players());
    for pit in [4, 9] {
        let err = game
            .clone()
            .play(&Move::Sow(Sow::from(pit)), &mut NoTrace)
            .unwrap_err();
        assert_eq!(err.reason, Reason::NotYourPit);
    }
}

/// §4.7, R-4.6: a player who cannot move passes and the next in turn order moves.
#[test]
fn a_stuck_player_passes_to_the_next_in_turn() {
    let mut game = BaAwa::new_match(&three_players());
    // East's pits are empty; South's S3 ends in his own empty S4.
    game.pits = [0, 0, 1, 0, 0, 0, 0, 0, 3, 3, 3, 3];
    game.ply = 7;
    let events = sow(&mut game, 2);
    assert!(events.contains(&Event::Pass { player: E }));
    assert_eq!(game.to_move, Some(N));
}

/// §4.7 step 2: a player who is out has no turn.
#[test]
fn an_eliminated_player_has_no_turn() {
    let mut game = finished([24, 24, 0], S);
    assert_eq!(game.eliminated_in, [0, 0, 1]);
    game.play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .unwrap();
    assert_eq!(
        game.starter, N,
        "after South comes East, who is out, then North"
    );
    assert_eq!(game.match_score(), PerSeat::of([6, 6, 0], 3));
    for _ in 0..6 {
        let Some(mover) = game.to_move else { break };
        assert_ne!(mover, E);
        let pit = legal_pits(&game)[0];
        sow(&mut game, pit);
        if let Some(next) = game.to_move {
            assert_ne!(next, mover, "two players alternate");
        }
    }
}

/// §4.7 step 3: a player with the target wins; so does the last one with pits, whether the other two went out
/// in one game or not.
#[test]
fn the_match_ends_at_the_target_or_with_one_player_left() {
    let game = finished([40, 4, 4], E);
    assert_eq!((game.status, game.winner), (Status::MatchOver, Some(S)));
    let game = finished([36, 8, 4], E);
    assert_eq!(game.status, Status::GameOver);
    let game = finished([0, 0, 48], E);
    assert_eq!((game.status, game.winner), (Status::MatchOver, Some(E)));
    assert_eq!(game.eliminated_in, [1, 1, 0]);
    let err = game
        .clone()
        .play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .unwrap_err();
    assert_eq!(err.reason, Reason::MatchOver);
}

/// §4.7 "placing": the winner first; a player still holding pits above every eliminated one; of two eliminated,
/// the later out higher; equals share a place.
#[test]
fn placing_by_how_long_each_stayed_in() {
    // Both losers still hold pits: they share second place, whatever their counts.
    let mut events = Vec::new();
    let mut game = finished([0, 0, 0], S);
    game.stores = [40, 4, 4];
    game.status = Status::InProgress;
    game.end_game(EndReason::FewSeedsLeft, &mut events);
    assert_eq!(game.placing(), PerSeat::of([1, 2, 2], 3));
    assert!(matches!(
        events.last(),
        Some(Event::MatchEnd { winner: Some(S), placing, .. }) if *placing == PerSeat::of([1, 2, 2], 3)
    ));
    // One out earlier, one holding pits at the end.
    let mut game = finished([40, 8, 0], S);
    game.eliminated_in = [0, 0, 3];
    assert_eq!(game.placing(), PerSeat::of([1, 2, 3], 3));
    // Out in different games: the later out ranks higher.
    let mut game = finished([48, 0, 0], S);
    game.eliminated_in = [0, 4, 2];
    assert_eq!(game.placing(), PerSeat::of([1, 2, 3], 3));
    // Out after the same game: a shared place.
    let game = finished([48, 0, 0], S);
    assert_eq!(game.placing(), PerSeat::of([1, 2, 2], 3));
    // Two players: no placing.
    assert_eq!(
        BaAwa::new_match(&Options::default()).placing(),
        PerSeat::NONE
    );
}

/// §4.7 step 4: with three players `NextGame` carries no pits.
#[test]
fn no_choice_of_pits_with_three_players() {
    let err = finished([32, 8, 8], S)
        .play(&Move::NextGame(PitSet(1 << 8)), &mut NoTrace)
        .unwrap_err();
    assert_eq!(err.reason, Reason::InvalidChoice);
}

/// §4.7 step 6: the starter moves on even when the last starter has just gone out.
#[test]
fn the_starter_after_an_eliminated_starter() {
    let mut game = finished([24, 24, 0], E);
    game.play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .unwrap();
    assert_eq!(game.starter, N);
}

/// A three-player state goes out and comes back as the same game; a two-player state carries no third seat.
#[test]
fn a_three_player_state_round_trips_and_two_player_states_refuse_east() {
    let mut game = BaAwa::new_match(&three_players());
    sow(&mut game, 1);
    let setup = game.to_setup();
    assert_eq!(setup.stores.len(), 3);
    assert_eq!(BaAwa::from_setup(&setup), Ok(game.clone()));
    let game = finished([24, 24, 0], E);
    assert_eq!(BaAwa::from_setup(&game.to_setup()), Ok(game));

    let mut two = BaAwa::new_match(&Options::default()).to_setup();
    two.to_move = Some(E);
    let fields: Vec<String> = BaAwa::from_setup(&two)
        .unwrap_err()
        .0
        .into_iter()
        .map(|v| v.field)
        .collect();
    assert!(fields.contains(&"to_move".to_string()), "{fields:?}");

    // Owners out of block order.
    let mut setup = BaAwa::new_match(&three_players()).to_setup();
    if let VariantSetup::BaAwa { owners, .. } = &mut setup.variant {
        owners.swap(0, 11);
    }
    let violations = BaAwa::from_setup(&setup).unwrap_err().0;
    assert!(
        violations.iter().any(|v| v.field == "ba_awa.owners"),
        "{violations:?}"
    );
}

/// Random three-player matches: every state the engine reaches is valid, every seat moves only from his own
/// pits, eliminated players never move, and every match ends with a placing.
#[test]
fn random_three_player_matches_stay_valid_for_every_seat() {
    for seed in 0..12u64 {
        let mut rng = Rng::new(seed);
        let mut game = BaAwa::new_match(&Options {
            first_player: [S, E, N][seed as usize % 3],
            ..three_players()
        });
        let mut moved = [false; 3];
        for _ in 0..20_000 {
            assert_eq!(
                BaAwa::from_setup(&game.to_setup()),
                Ok(game.clone()),
                "seed {seed}"
            );
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            if let (Move::Sow(sow), Some(mover)) = (mv, game.to_move) {
                assert_eq!(game.owner(sow.pit as usize), mover);
                assert_eq!(game.eliminated_in[mover.index()], 0);
                moved[mover.index()] = true;
            }
            let mut events = Vec::new();
            game.play(&mv, &mut events).unwrap();
            let total: u32 = game
                .pits
                .iter()
                .chain(&game.stores)
                .map(|&s| s as u32)
                .sum();
            assert_eq!(total, 48, "no seed is lost");
        }
        assert_eq!(game.status, Status::MatchOver, "seed {seed}");
        assert_eq!(moved, [true; 3]);
        let placing = game.placing();
        assert_eq!(placing.get(game.winner.unwrap()), 1);
        assert!(placing.as_slice().iter().all(|&p| (1..=3).contains(&p)));
    }
}

/// Found by the fuzz targets `state`, `play` and `wire`: a two-player state of any game naming East (as the game's
/// starter, the hizi-zetu mark's players, the player to move) is refused, naming the field, before any rule reads
/// it (Bao la Kete indexed its `[South, North]` reserves with him and panicked; Ba-awa gave him the last seeds).
#[test]
fn east_in_a_two_player_state_is_refused_before_any_rule_reads_it() {
    use crate::engine::{AnyGame, GameKind};
    for kind in GameKind::ALL {
        let good = AnyGame::new_match(kind, &Options::default()).to_setup();
        let mut changes: Vec<(&str, Setup)> = Vec::new();
        let mut to_move = good.clone();
        to_move.to_move = Some(E);
        changes.push(("to_move", to_move));
        let mut starter = good.clone();
        match &mut starter.variant {
            VariantSetup::BaAwa { starter, .. } => *starter = Some(E),
            VariantSetup::Bosh { round_starter, .. } => *round_starter = Some(E),
            VariantSetup::BaoLaKete { game_starter, .. } => *game_starter = Some(E),
            VariantSetup::Missing => unreachable!(),
        }
        let field = match kind {
            GameKind::BaAwa => "ba_awa.starter",
            GameKind::Bosh => "bosh.round_starter",
            GameKind::BaoLaKete => "bao_la_kete.game_starter",
        };
        changes.push((field, starter));
        if kind == GameKind::BaoLaKete {
            let mut mark = good.clone();
            if let VariantSetup::BaoLaKete { mark, .. } = &mut mark.variant {
                *mark = Some((Some(E), 20, Some(S)));
            }
            changes.push(("bao_la_kete.mark.blockee", mark));
        }
        for (field, setup) in changes {
            let violations = AnyGame::from_setup(&setup).expect_err(field).0;
            assert!(
                violations.iter().any(|v| v.field == field),
                "{kind:?} {field}: {violations:?}"
            );
        }
    }
}
