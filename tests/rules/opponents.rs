//! The built-in opponents (`engine::search`) through the public engine API: every level plays only legal moves,
//! in play and between games, over random positions of every game; a seed makes every answer repeatable; budgets
//! and cancellation hold; and each game has a position whose winning move is known, which every searching level
//! must find.

use mancala::engine::notation::{self, Action};
use mancala::engine::search::{self, Algorithm, Bot, Limits, Thinker};
use mancala::engine::{
    AnyGame, Budget, EndReason, Event, GameKind, Move, NoTrace, Options, PitSet, Player, Rng,
    Status, Unfinished,
};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Small budgets of every algorithm: enough to exercise each code path, fast in a debug build.
fn thinkers() -> Vec<Thinker> {
    let with = |algorithm, iterations| Thinker {
        algorithm,
        limits: Limits::iterations(iterations),
    };
    vec![
        with(Algorithm::Random, 0),
        with(Algorithm::Greedy, 0),
        with(Algorithm::AlphaBeta, 300),
        with(Algorithm::Mcts, 60),
    ]
}

/// Positions of every kind along random matches of `kind`: in play, between games, at the end.
fn positions(kind: GameKind, matches: u64) -> Vec<AnyGame> {
    let mut out = Vec::new();
    for seed in 0..matches {
        let mut rng = Rng::new(seed * 7 + 3);
        let mut game = AnyGame::new_match(kind, &Options::default());
        let mut plies = 0;
        while game.status() != Status::MatchOver && plies < 600 {
            if plies % 5 == 0 || game.status() != Status::InProgress {
                out.push(game.clone());
            }
            let moves = game.legal_moves();
            let mv = moves[rng.below(moves.len())];
            game.play(&mv, &mut NoTrace)
                .expect("a listed move is legal");
            plies += 1;
        }
        out.push(game);
    }
    out
}

#[test]
fn every_level_plays_only_legal_moves_in_play_and_between_games() {
    for kind in GameKind::ALL {
        let positions = positions(kind, 6);
        let between = positions
            .iter()
            .filter(|g| g.status() == Status::RoundOver || g.status() == Status::GameOver);
        assert!(
            between.count() > 0,
            "{kind:?}: the sample has positions between games"
        );
        for thinker in thinkers() {
            let mut bot = Bot::new(thinker, 11);
            for game in &positions {
                match game.status() {
                    Status::MatchOver => assert!(
                        bot.choose(game, None).is_none(),
                        "{kind:?}: no move after the match"
                    ),
                    Status::InProgress => {
                        let s = bot.choose(game, None).expect("a game in play has a move");
                        assert_eq!(Some(s.side), game.to_move());
                        assert_eq!(
                            game.check(&s.best),
                            Ok(()),
                            "{kind:?} {thinker:?}: {:?} in {game:?}",
                            s.best
                        );
                        assert_eq!(s.pv.first(), Some(&s.best), "the line starts with the move");
                        assert!(
                            (0.0..=1.0).contains(&s.value),
                            "value {} out of range",
                            s.value
                        );
                    }
                    _ => {
                        // Each seat chooses its own part; each part and their union are legal.
                        let mut union = PitSet::EMPTY;
                        for seat in Player::BOTH {
                            let s = bot
                                .choose(game, Some(seat))
                                .expect("between games there is a move");
                            assert_eq!(s.side, seat);
                            assert_eq!(
                                game.check(&s.best),
                                Ok(()),
                                "{kind:?} {thinker:?}: {:?}",
                                s.best
                            );
                            let Move::NextGame(part) = s.best else {
                                panic!("between games only NextGame")
                            };
                            union = PitSet(union.0 | part.0);
                        }
                        assert_eq!(
                            game.check(&Move::NextGame(union)),
                            Ok(()),
                            "{kind:?}: both parts together"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn every_named_level_exists_and_plays() {
    for kind in GameKind::ALL {
        assert!(search::level(kind, 0).is_none());
        assert!(search::level(kind, search::TOP_LEVEL + 1).is_none());
        assert_eq!(
            search::level(kind, 1).map(|t| t.algorithm),
            Some(Algorithm::Random)
        );
        let game = AnyGame::new_match(kind, &Options::default());
        for level in 1..=3 {
            let thinker = search::level(kind, level).expect("levels 1 to the top exist");
            let s = search::suggest(&game, thinker, None, 5).expect("the opening has moves");
            assert_eq!(game.check(&s.best), Ok(()));
        }
    }
}

#[test]
fn a_seed_makes_every_answer_repeatable() {
    for kind in GameKind::ALL {
        for game in positions(kind, 2)
            .iter()
            .filter(|g| g.status() == Status::InProgress)
            .take(12)
        {
            for thinker in thinkers() {
                let first = search::suggest(game, thinker, None, 42).expect("a move");
                let again = search::suggest(game, thinker, None, 42).expect("a move");
                assert_eq!(
                    (first.best, &first.pv, first.work.iterations),
                    (again.best, &again.pv, again.work.iterations)
                );
                assert_eq!(first.value, again.value);
            }
        }
    }
}

#[test]
fn a_search_stays_within_its_budget() {
    let game = AnyGame::new_match(GameKind::BaoLaKete, &Options::default());
    let mcts = Thinker {
        algorithm: Algorithm::Mcts,
        limits: Limits::iterations(150),
    };
    let s = search::suggest(&game, mcts, None, 1).expect("a move");
    assert_eq!(
        s.work.iterations, 150,
        "Monte Carlo search runs exactly its playouts"
    );
    let alphabeta = Thinker {
        algorithm: Algorithm::AlphaBeta,
        limits: Limits::iterations(2_000),
    };
    let s = search::suggest(&game, alphabeta, None, 1).expect("a move");
    assert!(
        s.work.nodes <= 2_000,
        "alpha-beta visited {} nodes",
        s.work.nodes
    );
    assert!(s.work.depth >= 1);
    // A time limit stops a search whose playouts would take far longer.
    let timed = Thinker {
        algorithm: Algorithm::Mcts,
        limits: Limits {
            time: Some(std::time::Duration::from_millis(30)),
            ..Limits::iterations(u64::MAX)
        },
    };
    let s = search::suggest(&game, timed, None, 1).expect("a move");
    assert!(
        s.work.elapsed < std::time::Duration::from_secs(2),
        "took {:?}",
        s.work.elapsed
    );
    assert_eq!(game.check(&s.best), Ok(()));
}

/// Alpha-beta stops deepening once a position is settled: near the end of a Ba-awa game, where every line the
/// search weighs reaches the end, the strongest level stops after the first iteration that rested on no estimate
/// (a deeper one would give the same answer) rather than deepening on to its deepest iteration, 64.
#[test]
fn a_settled_search_stops_deepening() {
    let level_6 = search::level(GameKind::BaAwa, search::TOP_LEVEL).expect("level 6");
    let mut found = 0;
    for seed in 0..40 {
        let mut rng = Rng::new(seed);
        let mut game = AnyGame::new_match(GameKind::BaAwa, &Options::default());
        let mut line = vec![game.clone()];
        while game.status() == Status::InProgress {
            let moves = game.legal_moves();
            game.play(&moves[rng.below(moves.len())], &mut NoTrace)
                .expect("a listed move is legal");
            line.push(game.clone());
        }
        // Three moves from the end, with a choice to make.
        let Some(late) = line
            .iter()
            .rev()
            .skip(3)
            .find(|g| g.status() == Status::InProgress && g.legal_moves().len() > 1)
        else {
            continue;
        };
        let s = search::suggest(late, level_6, None, 1).expect("a move");
        if !s.moves.iter().all(|m| m.proven) {
            continue;
        }
        found += 1;
        assert!(
            s.work.depth < 64 && s.work.nodes < 150_000,
            "seed {seed}: {:?}",
            s.work
        );
    }
    assert!(found >= 5, "only {found} settled positions in the sample");
}

#[test]
fn a_cancelled_call_stops_the_search() {
    let game = AnyGame::new_match(GameKind::BaAwa, &Options::default());
    let huge = Thinker {
        algorithm: Algorithm::Mcts,
        limits: Limits::iterations(u64::MAX),
    };
    let cancelled = Arc::new(AtomicBool::new(true));
    let outcome = Budget::unlimited()
        .cancelled_by(cancelled)
        .run(|| search::suggest(&game, huge, None, 1));
    assert_eq!(outcome.unwrap_err(), Unfinished::Cancelled);
}

/// The position after `moves` (a notation without its header) of a new match of `kind`.
fn after(kind: GameKind, moves: &str) -> AnyGame {
    let text = format!("{}\n{moves}", notation::header(kind, &Options::default()));
    notation::replay(&text).expect("the line is legal").game
}

/// Every searching level plays `winning` in `game`, and so does the greedy player (the win is one ply deep).
fn every_level_finds(game: &AnyGame, winning: &str) {
    let mover = game.to_move().expect("someone is to move");
    let (kind, line) = (
        game.kind(),
        format!(
            "{} {winning}",
            if mover == Player::South { "S" } else { "N" }
        ),
    );
    let (_, Action::Move(expected)) = notation::parse_event_line(kind, &line).expect("a move")
    else {
        panic!("a move")
    };
    for level in 2..=search::TOP_LEVEL.min(4) {
        let thinker = search::level(kind, level).expect("a level");
        let s = search::suggest(game, thinker, None, 3).expect("a move");
        assert_eq!(
            s.best, expected,
            "{kind:?} level {level} missed the win ({:?})",
            s.moves
        );
        assert!(
            s.value > 0.5,
            "{kind:?} level {level} values the win at {}",
            s.value
        );
    }
    let alphabeta = Thinker {
        algorithm: Algorithm::AlphaBeta,
        limits: Limits::iterations(5_000),
    };
    assert_eq!(
        search::suggest(game, alphabeta, None, 3)
            .expect("a move")
            .best,
        expected
    );
}

#[test]
fn bao_la_kete_a_hamna_in_one() {
    // Found along a random match and checked by hand: South's f7 (hole 6) captures North's last front-row
    // seeds, emptying his front row (§2.9 Bao hamna); none of South's four other moves ends the game.
    let game = after(
        GameKind::BaoLaKete,
        "S 6 cw\nN 22 acw\nS 4 kl\nN 21 acw\nS 4 kr\nN 17\nS 7 safari\nN 20 kr\nS 0\nN 20 kr\nS 6\nN 20 kr\nS 2 kr\n\
         N 22\nS 3 kr\nN 21 kr\nS 3 kl\nN 21 kr\nS 0\nN 21 kl\nS 4 kl\nN 16\nS 4 kr\nN 18 kl\nS 2 kl\nN 16",
    );
    assert_eq!(game.to_move(), Some(Player::South));
    let hamna = game
        .legal_moves()
        .iter()
        .filter(|mv| {
            let (_, events) = game.preview(mv).expect("listed");
            events.iter().any(|e| {
                matches!(
                    e,
                    Event::GameEnd {
                        reason: EndReason::BaoHamna,
                        winner: Some(Player::South),
                        ..
                    }
                )
            })
        })
        .count();
    assert_eq!(hamna, 1, "exactly one move is a hamna");
    every_level_finds(&game, "6");
}

#[test]
fn bosh_a_capture_that_ends_the_round() {
    // South's S3 (hole 2) takes North's last stones: North then has nothing to sow and the round is South's
    // (§3.3); South's other three moves leave North a move.
    let game = after(
        GameKind::Bosh,
        "S 0\nN 9\nS 2\nN 6\nS 2\nN 8\nS 2\nN 5\nS 1\nN 6\nS 0\nN 7\nS 0\nN 8",
    );
    let (next, _) = game
        .preview(&Move::Sow(mancala::engine::Sow::from(2)))
        .expect("legal");
    assert_ne!(next.status(), Status::InProgress);
    assert_eq!(next.winner(), Some(Player::South));
    every_level_finds(&game, "2");
}

#[test]
fn ba_awa_a_four_that_ends_the_game() {
    // South's S6 (pit 5) makes a four and leaves 8 or fewer seeds, which ends the game (§4.3) with South ahead;
    // none of his other moves ends it.
    let game = after(
        GameKind::BaAwa,
        "S 0\nN 9\nS 1\nN 9\nS 1\nN 7\nS 3\nN 8\nS 3\nN 8\nS 1\nN 9\nN 6\nS 5\nN 7\nS 2\nN 9\nS 2\nN 7\nS 0\nN 6\n\
         S 3\nN 10",
    );
    let (next, events) = game
        .preview(&Move::Sow(mancala::engine::Sow::from(5)))
        .expect("legal");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Capture {
            beneficiary: Player::South,
            ..
        }
    )));
    assert_ne!(next.status(), Status::InProgress);
    assert_eq!(next.winner(), Some(Player::South));
    every_level_finds(&game, "5");
}
