//! A client's state validated into a game: round trips, every violation at once, untrusted states.

use super::examples::{bk_2, bk_3, bk_9};
use super::hizi_zetu::north_blocked_at_f4;
use super::match_play::won_game;
use super::*;

fn fields(setup: &Setup) -> Vec<String> {
    match BaoLaKete::from_setup(setup) {
        Ok(_) => Vec::new(),
        Err(err) => err.0.into_iter().map(|v| v.field).collect(),
    }
}

#[test]
fn states_round_trip_through_the_wire_shape() {
    let opening = BaoLaKete::new_match(&Options::default());
    assert_eq!(BaoLaKete::from_setup(&opening.to_setup()), Ok(opening));
    let mut marked = bk_9();
    play(&mut marked, sow(f(S, 6), ACW));
    assert_eq!(
        BaoLaKete::from_setup(&marked.to_setup()),
        Ok(marked.clone())
    );
    let setup = marked.to_setup();
    assert_eq!(
        setup.variant,
        VariantSetup::BaoLaKete {
            mtaji: Some(true),
            kuu_alive: vec![false, false].into(),
            mark: Some((Some(N), f(N, 4) as u32, Some(S))),
            game_starter: Some(S),
            starter_rule: StarterRule::Alternate,
        }
    );
    for game in [bk_2(), bk_3(), won_game(S)] {
        assert_eq!(BaoLaKete::from_setup(&game.to_setup()), Ok(game));
    }
}

type MarkFields = Option<(Option<Player>, u32, Option<Player>)>;

fn variant(
    setup: &mut Setup,
) -> (
    &mut Option<bool>,
    &mut Repeated<bool, 2>,
    &mut MarkFields,
    &mut Option<Player>,
) {
    match &mut setup.variant {
        VariantSetup::BaoLaKete {
            mtaji,
            kuu_alive,
            mark,
            game_starter,
            ..
        } => (mtaji, kuu_alive, mark, game_starter),
        _ => unreachable!("a Bao la Kete state"),
    }
}

/// Every broken invariant is reported, all at once.
#[test]
fn invalid_states_report_every_violation() {
    let good = BaoLaKete::new_match(&Options::default()).to_setup();
    let broken = |change: &dyn Fn(&mut Setup)| {
        let mut setup = good.clone();
        change(&mut setup);
        fields(&setup)
    };
    assert_eq!(broken(&|s| s.reserves[0] = 23), ["pits", "reserves[0]"]);
    assert_eq!(broken(&|s| s.pits[4] = 5), ["bao_la_kete.kuu_alive[0]"]);
    assert_eq!(
        broken(&|s| *variant(s).0 = Some(true)),
        ["bao_la_kete.stage"]
    );
    assert_eq!(broken(&|s| *variant(s).0 = None), ["bao_la_kete.stage"]);
    assert_eq!(
        broken(&|s| *variant(s).2 = Some((Some(N), 4, Some(S)))),
        ["bao_la_kete.mark.pit"]
    );
    assert!(broken(&|s| *variant(s).2 = Some((Some(N), 20, Some(N))))
        .contains(&"bao_la_kete.mark.setter".into()));
    assert!(broken(&|s| *variant(s).2 = Some((Some(N), 19, Some(S))))
        .contains(&"bao_la_kete.mark".into()));
    assert_eq!(
        broken(&|s| *variant(s).3 = None),
        ["bao_la_kete.game_starter"]
    );
    assert_eq!(
        broken(&|s| variant(s).1.push(true)),
        ["bao_la_kete.kuu_alive"]
    );
    // Drawn games (§1, R-2.13) count for neither player, so game 4 at 0–0 is a state play can reach; a match of
    // more games than any match may have is not.
    assert_eq!(broken(&|s| s.game_number = 4), Vec::<&str>::new());
    assert_eq!(broken(&|s| s.game_number = 1001), ["game_number"]);
    assert_eq!(
        broken(&|s| s.match_score = vec![2, 0].into()),
        ["match_score", "game_number"]
    );
    assert_eq!(
        broken(&|s| {
            s.stores = vec![1, 0].into();
            s.pits[5] = 1;
        }),
        ["stores"]
    );
    assert_eq!(broken(&|s| s.to_move = Some(N)), ["to_move"]);
    assert_eq!(
        broken(&|s| s.status = Some(Status::RoundOver)),
        ["to_move", "status", "winner"]
    );
    assert_eq!(
        broken(&|s| s.variant = VariantSetup::Missing),
        ["bao_la_kete"]
    );
    assert_eq!(
        broken(&|s| s.pits[16..24].fill(0)),
        ["bao_la_kete.kuu_alive[1]", "pits"]
    );
    // Several at once.
    let many = broken(&|s| {
        s.reserves[1] = 30;
        s.pits[20] = 5;
        s.game_number = 0;
    });
    assert!(many.len() >= 3, "{many:?}");
}

/// Reduced positions with fewer than 64 seeds are accepted (docs/common.md §1 "Custom and reduced positions").
#[test]
fn reduced_positions_are_accepted() {
    for game in [bk_9(), north_blocked_at_f4(true)] {
        assert!(BaoLaKete::from_setup(&game.to_setup()).is_ok());
    }
}

/// Untrusted states never make the engine panic: random wire states are validated, and every accepted one is
/// played with random move shapes (legal or not), checking that the move list and `play` agree.
#[test]
fn random_untrusted_states_never_panic() {
    let mut state = 0xC0FF_EE12_3456_789Bu64;
    let mut rand = move |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as u32
    };
    let mut accepted = 0;
    for _ in 0..20_000 {
        let mut pits: Vec<u32> = (0..PITS)
            .map(|_| if rand(3) == 0 { 0 } else { rand(4) })
            .collect();
        let kuu_alive = vec![rand(2) == 0, rand(2) == 0];
        for (i, &alive) in kuu_alive.iter().enumerate() {
            if alive {
                pits[i * 16 + 4] = 6 + rand(8);
            }
        }
        let reserve = if rand(2) == 0 { 0 } else { rand(4) };
        let to_move = if rand(2) == 0 { S } else { N };
        let reserves = match to_move {
            Player::South => vec![reserve, reserve],
            Player::North | Player::East => vec![reserve.saturating_sub(1), reserve],
        };
        let mark = (rand(4) == 0).then(|| {
            let blockee = if rand(2) == 0 { S } else { N };
            (
                Some(blockee),
                base(blockee) as u32 + rand(8),
                Some(blockee.opponent()),
            )
        });
        let setup = Setup {
            kind: GameKind::BaoLaKete,
            rules_version: crate::engine::RULES_VERSION,
            pits: pits.into(),
            stores: vec![0, 0].into(),
            reserves: reserves.clone().into(),
            to_move: Some(to_move),
            status: Some(Status::InProgress),
            winner: None,
            ply: if rand(2) == 0 { u32::MAX } else { 0 },
            game_number: 1,
            match_score: vec![0, 0].into(),
            variant: VariantSetup::BaoLaKete {
                mtaji: Some(reserves[to_move.index()] == 0),
                kuu_alive: kuu_alive.into(),
                mark,
                game_starter: Some(S),
                starter_rule: StarterRule::Alternate,
            },
        };
        let Ok(game) = BaoLaKete::from_setup(&setup) else {
            continue;
        };
        accepted += 1;
        let moves = legal(&game);
        assert!(!moves.is_empty());
        for _ in 0..8 {
            let direction = [None, Some(CW), Some(ACW)][rand(3) as usize];
            let kichwa = [None, Some(Kichwa::Left), Some(Kichwa::Right)][rand(3) as usize];
            let kuu_decision =
                [None, Some(KuuDecision::Stop), Some(KuuDecision::Safari)][rand(3) as usize];
            let mv = Move::Sow(Sow {
                pit: rand(33) as u8,
                direction,
                kichwa,
                kuu_decision,
            });
            assert_eq!(
                moves.contains(&mv),
                game.is_legal(&mv),
                "{mv:?} in {game:?}"
            );
        }
        let mut next = game.clone();
        play(&mut next, moves[rand(moves.len() as u32) as usize]);
        assert_eq!(
            BaoLaKete::from_setup(&next.to_setup()),
            Ok(next.clone()),
            "from {game:?}"
        );
    }
    assert!(accepted > 1000, "{accepted}");
}
