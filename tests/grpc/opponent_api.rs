//! The built-in opponent over a real gRPC channel (issue 13): `SuggestMove` and `AnalyzePosition` answer legal
//! moves, the same for the same seed, value every legal move (between games every choice), refuse what is above
//! the server's `[search]` caps or makes no sense, and stop searching when the caller's deadline passes.

use crate::rules_api::{apply, ba_awa, sow, NORTH, SOUTH};
use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::analyze_position_request::Strength as AnalyzeStrength;
use pb::r#move::Action;
use pb::suggest_move_request::Strength;
use std::time::Duration;
use tonic::Code;
use tonic_types::StatusExt;

const KINDS: [pb::GameKind; 3] = [
    pb::GameKind::BaAwa,
    pb::GameKind::Bosh,
    pb::GameKind::BaoLaKete,
];

fn suggest_request(
    state: &pb::GameState,
    strength: Option<Strength>,
    seed: u64,
) -> pb::SuggestMoveRequest {
    pb::SuggestMoveRequest {
        state: Some(state.clone()),
        strength,
        seed,
        seat: 0,
        skip_preview: false,
    }
}

fn analyze_request(
    state: &pb::GameState,
    strength: Option<AnalyzeStrength>,
    seed: u64,
) -> pb::AnalyzePositionRequest {
    pb::AnalyzePositionRequest {
        state: Some(state.clone()),
        strength,
        seed,
        seat: 0,
        skip_previews: false,
    }
}

fn budget(algorithm: pb::SearchAlgorithm, iterations: u64) -> pb::SearchBudget {
    pb::SearchBudget {
        algorithm: algorithm as i32,
        iterations,
        max_depth: 0,
        time_limit_ms: 0,
    }
}

async fn suggest(
    server: &TestServer,
    request: pb::SuggestMoveRequest,
) -> Result<pb::SuggestMoveResponse, tonic::Status> {
    within(server.rules().suggest_move(request))
        .await
        .map(|r| r.into_inner())
}

async fn analyze(
    server: &TestServer,
    request: pb::AnalyzePositionRequest,
) -> Result<pb::AnalyzePositionResponse, tonic::Status> {
    within(server.rules().analyze_position(request))
        .await
        .map(|r| r.into_inner())
}

/// The legal moves of `state`, as ListLegalMoves gives them (with previews).
async fn legal_moves(server: &TestServer, state: &pb::GameState) -> Vec<pb::LegalMove> {
    within(server.rules().list_legal_moves(pb::ListLegalMovesRequest {
        state: Some(state.clone()),
        skip_previews: false,
    }))
    .await
    .expect("ListLegalMoves answers")
    .into_inner()
    .moves
}

/// The field of every violation of an INVALID_ARGUMENT, with its description.
fn violations(status: &tonic::Status) -> Vec<(String, String)> {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let details = status.get_error_details();
    let bad = details.bad_request().expect("BadRequest details");
    bad.field_violations
        .iter()
        .map(|v| (v.field.clone(), v.description.clone()))
        .collect()
}

/// The one violation of an INVALID_ARGUMENT, which must be of `field`; its description.
fn only_violation(status: &tonic::Status, field: &str) -> String {
    let all = violations(status);
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(all[0].0, field, "{all:?}");
    all[0].1.clone()
}

/// A Ba-awa game one move from its end: sowing pit 10 finishes it (the first position of
/// `rules_api::finished_games_and_matches_refuse_sowing`).
fn ba_awa_about_to_end() -> pb::GameState {
    ba_awa(
        [0, 1, 0, 0, 0, 3, 0, 0, 3, 0, 2, 3],
        [20, 16],
        &[],
        SOUTH,
        NORTH,
    )
}

/// A Ba-awa game just finished.
async fn ba_awa_game_over(server: &TestServer) -> pb::GameState {
    let state = ba_awa_about_to_end();
    let over = apply(server, &state, sow(10)).await.unwrap().state.unwrap();
    assert_eq!(over.status, pb::Status::GameOver as i32);
    over
}

/// A Ba-awa match just won by South.
async fn ba_awa_match_over(server: &TestServer) -> pb::GameState {
    let state = ba_awa(
        [0, 1, 0, 0, 0, 3, 0, 0, 3, 0, 2, 3],
        [32, 4],
        &[],
        SOUTH,
        NORTH,
    );
    let over = apply(server, &state, sow(10)).await.unwrap().state.unwrap();
    assert_eq!(over.status, pb::Status::MatchOver as i32);
    over
}

/// The answer without the one thing that may differ between two runs of the same search: its time.
fn timeless(mut answer: pb::SuggestMoveResponse) -> pb::SuggestMoveResponse {
    answer.work.as_mut().expect("work").elapsed_us = 0;
    answer
}

#[tokio::test]
async fn the_same_request_gets_the_same_legal_move_in_every_game() {
    let server = TestServer::start().await;
    for kind in KINDS {
        let state = server.new_game(kind).await;
        let request = suggest_request(&state, Some(Strength::Level(3)), 7);
        let first = suggest(&server, request.clone()).await.expect("suggested");
        let again = suggest(&server, request).await.expect("suggested");
        assert_eq!(timeless(first.clone()), timeless(again), "{kind:?}");

        assert_eq!(first.side, state.to_move, "{kind:?}");
        assert!((0.0..=1.0).contains(&first.value), "{first:?}");
        assert_eq!(first.principal_variation.first(), first.r#move.as_ref());
        let used = first.search.as_ref().unwrap();
        assert_eq!(used.level, 3);
        let work = first.work.as_ref().unwrap();
        assert!(work.iterations >= 1 && work.plies >= 1, "{work:?}");
        // The move is one of the legal moves, and its preview is what ApplyMove makes of it.
        let legal = legal_moves(&server, &state).await;
        assert!(legal.iter().any(|m| m.r#move == first.r#move), "{kind:?}");
        let applied = apply(&server, &state, first.r#move.clone().unwrap())
            .await
            .expect("the suggested move is legal");
        assert_eq!(applied.state, first.result);
        assert_eq!(applied.events, first.events);
    }
}

#[tokio::test]
async fn suggested_moves_are_legal_along_a_game_at_every_cheap_level() {
    let server = TestServer::start().await;
    for kind in KINDS {
        let mut state = server.new_game(kind).await;
        for ply in 0..12u32 {
            if state.status == pb::Status::MatchOver as i32 {
                break;
            }
            let level = 1 + ply % 3;
            let mut request = suggest_request(&state, Some(Strength::Level(level)), ply.into());
            request.skip_preview = true;
            let answer = suggest(&server, request).await.expect("suggested");
            assert!(answer.result.is_none() && answer.events.is_empty());
            state = apply(&server, &state, answer.r#move.unwrap())
                .await
                .unwrap_or_else(|e| panic!("{kind:?} ply {ply} level {level}: {e:?}"))
                .state
                .unwrap();
        }
    }
}

#[tokio::test]
async fn no_strength_is_the_default_level_and_a_seed_changes_random_play() {
    let server = TestServer::start_with(|s| s.search.default_level = 2).await;
    let state = server.new_game(pb::GameKind::Bosh).await;
    let answer = suggest(&server, suggest_request(&state, None, 1))
        .await
        .unwrap();
    let used = answer.search.unwrap();
    assert_eq!(used.level, 2);
    assert_eq!(
        used.budget.unwrap().algorithm,
        pb::SearchAlgorithm::Greedy as i32
    );
    // Level 1 plays at random: over a few seeds it does not always play the same opening.
    let mut moves = Vec::new();
    for seed in 0..16 {
        let answer = suggest(
            &server,
            suggest_request(&state, Some(Strength::Level(1)), seed),
        )
        .await
        .unwrap();
        moves.push(answer.r#move.unwrap());
    }
    assert!(moves.iter().any(|m| *m != moves[0]), "{moves:?}");
}

#[tokio::test]
async fn analyze_values_every_legal_move_best_first() {
    let server = TestServer::start().await;
    for kind in KINDS {
        let state = server.new_game(kind).await;
        let legal = legal_moves(&server, &state).await;
        let mcts = budget(pb::SearchAlgorithm::Mcts, 300);
        let analysis = analyze(
            &server,
            analyze_request(&state, Some(AnalyzeStrength::Budget(mcts)), 5),
        )
        .await
        .expect("analysed");
        assert_eq!(analysis.side, state.to_move);
        assert_eq!(analysis.moves.len(), legal.len(), "{kind:?}");
        for listed in &legal {
            let valued = analysis
                .moves
                .iter()
                .find(|m| m.r#move == listed.r#move)
                .unwrap_or_else(|| panic!("{kind:?}: {listed:?} is not analysed"));
            assert!((0.0..=1.0).contains(&valued.value), "{valued:?}");
            // The preview is ListLegalMoves' own.
            assert_eq!(valued.result, listed.result);
            assert_eq!(valued.events, listed.events);
        }
        // Monte Carlo's best is its most visited move, and SuggestMove plays it for the same request.
        let visits: Vec<u64> = analysis.moves.iter().map(|m| m.visits).collect();
        assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
        let suggested = suggest(
            &server,
            suggest_request(&state, Some(Strength::Budget(mcts)), 5),
        )
        .await
        .unwrap();
        assert_eq!(suggested.r#move, analysis.moves[0].r#move, "{kind:?}");
        assert_eq!(
            analysis.principal_variation.first(),
            suggested.r#move.as_ref()
        );
    }
}

#[tokio::test]
async fn alpha_beta_analysis_reports_its_depth() {
    let server = TestServer::start().await;
    let state = server.new_game(pb::GameKind::BaAwa).await;
    let mut alpha_beta = budget(pb::SearchAlgorithm::AlphaBeta, 5_000);
    alpha_beta.max_depth = 3;
    let mut request = analyze_request(&state, Some(AnalyzeStrength::Budget(alpha_beta)), 0);
    request.skip_previews = true;
    let analysis = analyze(&server, request).await.expect("analysed");
    assert_eq!(analysis.moves.len(), 6);
    assert!(analysis
        .moves
        .iter()
        .all(|m| m.result.is_none() && m.events.is_empty() && (1..=3).contains(&m.visits)));
    let values: Vec<f64> = analysis.moves.iter().map(|m| m.value).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    let work = analysis.work.unwrap();
    assert!((1..=3).contains(&work.depth) && work.nodes >= 1, "{work:?}");
    let used = analysis.search.unwrap();
    assert_eq!((used.level, used.budget), (0, Some(alpha_beta)));
}

#[tokio::test]
async fn between_games_the_seat_chooses_the_next_opening() {
    let server = TestServer::start().await;
    let over = ba_awa_game_over(&server).await;
    for seat in [SOUTH, NORTH] {
        let mut request = analyze_request(&over, Some(AnalyzeStrength::Level(3)), 1);
        request.seat = seat;
        let analysis = analyze(&server, request).await.expect("analysed");
        assert_eq!(analysis.side, seat);
        assert!(!analysis.moves.is_empty());
        let mut seen = Vec::new();
        for valued in &analysis.moves {
            let mv = valued.r#move.clone().unwrap();
            assert!(matches!(mv.action, Some(Action::NextGame(_))), "{mv:?}");
            assert!(!seen.contains(&mv), "{mv:?} listed twice");
            apply(&server, &over, mv.clone())
                .await
                .expect("every choice is legal");
            seen.push(mv);
        }
        let mut request = suggest_request(&over, Some(Strength::Level(3)), 1);
        request.seat = seat;
        let answer = suggest(&server, request).await.expect("suggested");
        assert_eq!(answer.side, seat);
        assert!(seen.contains(answer.r#move.as_ref().unwrap()));
    }
    // Without a seat the search chooses for the player whose choice it is.
    let answer = suggest(&server, suggest_request(&over, Some(Strength::Level(2)), 1))
        .await
        .expect("suggested");
    assert!(answer.side == SOUTH || answer.side == NORTH);
    apply(&server, &over, answer.r#move.unwrap())
        .await
        .expect("legal");
}

#[tokio::test]
async fn over_the_caps_is_refused_naming_the_field_and_the_cap() {
    let server = TestServer::start_with(|s| {
        s.search.max_iterations = 1_000;
        s.search.max_time = Duration::from_millis(500);
        s.search.default_level = 2;
    })
    .await;
    let state = server.new_game(pb::GameKind::BaAwa).await;
    let refused = |strength| {
        let request = suggest_request(&state, Some(strength), 0);
        let server = &server;
        async move { suggest(server, request).await.expect_err("over a cap") }
    };
    let too_many = refused(Strength::Budget(budget(pb::SearchAlgorithm::Mcts, 1_001))).await;
    let why = only_violation(&too_many, "budget.iterations");
    assert!(
        why.contains("1000") && why.contains("search.max_iterations"),
        "{why}"
    );

    let mut too_long = budget(pb::SearchAlgorithm::Mcts, 100);
    too_long.time_limit_ms = 501;
    let why = only_violation(
        &refused(Strength::Budget(too_long)).await,
        "budget.time_limit_ms",
    );
    assert!(
        why.contains("500 ms") && why.contains("search.max_time_ms"),
        "{why}"
    );

    // A level is held to the same caps: level 5 searches more than 1,000 iterations.
    let why = only_violation(&refused(Strength::Level(5)).await, "level");
    assert!(why.contains("search.max_iterations"), "{why}");
    // AnalyzePosition too.
    let status = analyze(
        &server,
        analyze_request(&state, Some(AnalyzeStrength::Level(6)), 0),
    )
    .await
    .expect_err("over the cap");
    only_violation(&status, "level");

    // At the caps, and for the one-ply players whose iterations mean nothing, it is answered.
    let mut at_caps = budget(pb::SearchAlgorithm::Mcts, 1_000);
    at_caps.time_limit_ms = 500;
    suggest(
        &server,
        suggest_request(&state, Some(Strength::Budget(at_caps)), 0),
    )
    .await
    .expect("at the caps");
    let greedy = budget(pb::SearchAlgorithm::Greedy, 1_000_000);
    let answer = suggest(
        &server,
        suggest_request(&state, Some(Strength::Budget(greedy)), 0),
    )
    .await
    .expect("iterations do not matter to greedy play");
    assert_eq!(answer.search.unwrap().budget.unwrap().iterations, 0);
}

#[tokio::test]
async fn bad_levels_budgets_seats_and_states_are_invalid_arguments() {
    let server = TestServer::start().await;
    let state = server.new_game(pb::GameKind::BaAwa).await;
    for level in [0, 7, 99] {
        let status = suggest(
            &server,
            suggest_request(&state, Some(Strength::Level(level)), 0),
        )
        .await
        .expect_err("no such level");
        let why = only_violation(&status, "level");
        assert!(why.contains(&format!("no level {level}")), "{why}");
    }
    let status = suggest(
        &server,
        suggest_request(
            &state,
            Some(Strength::Budget(budget(
                pb::SearchAlgorithm::Unspecified,
                10,
            ))),
            0,
        ),
    )
    .await
    .unwrap_err();
    only_violation(&status, "budget.algorithm");
    let status = suggest(
        &server,
        suggest_request(
            &state,
            Some(Strength::Budget(budget(pb::SearchAlgorithm::Mcts, 0))),
            0,
        ),
    )
    .await
    .unwrap_err();
    only_violation(&status, "budget.iterations");

    // South is to move: the seat may name him, not North.
    let mut request = suggest_request(&state, Some(Strength::Level(2)), 0);
    request.seat = SOUTH;
    suggest(&server, request.clone())
        .await
        .expect("the mover's own seat");
    request.seat = NORTH;
    let why = only_violation(
        &suggest(&server, request.clone()).await.unwrap_err(),
        "seat",
    );
    assert!(why.contains("South is to move"), "{why}");
    request.seat = 9;
    only_violation(&suggest(&server, request).await.unwrap_err(), "seat");

    // Every violation at once: the state's and the level's.
    let mut bad = state.clone();
    bad.pits = vec![4; 11];
    let status = suggest(&server, suggest_request(&bad, Some(Strength::Level(99)), 0))
        .await
        .unwrap_err();
    let fields: Vec<String> = violations(&status).into_iter().map(|(f, _)| f).collect();
    assert!(
        fields.iter().any(|f| f.starts_with("state.pits")),
        "{fields:?}"
    );
    assert!(fields.contains(&"level".to_string()), "{fields:?}");
    // No state at all.
    let mut request = suggest_request(&state, None, 0);
    request.state = None;
    only_violation(&suggest(&server, request).await.unwrap_err(), "state");
}

#[tokio::test]
async fn a_finished_match_has_nothing_to_suggest_or_analyse() {
    let server = TestServer::start().await;
    let over = ba_awa_match_over(&server).await;
    let reason = |status: tonic::Status| {
        assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
        let info = status.get_details_error_info().expect("ErrorInfo");
        assert_eq!(info.domain, "mancala.v1");
        info.reason
    };
    let refused = suggest(&server, suggest_request(&over, Some(Strength::Level(3)), 0))
        .await
        .unwrap_err();
    assert!(refused.message().contains("match is over"), "{refused:?}");
    assert_eq!(reason(refused), "MATCH_OVER");
    let refused = analyze(&server, analyze_request(&over, None, 0))
        .await
        .unwrap_err();
    assert_eq!(reason(refused), "MATCH_OVER");
}

#[tokio::test]
async fn a_time_limit_stops_the_search_with_an_answer() {
    let server = TestServer::start_with(|s| s.search.max_iterations = u64::MAX).await;
    let state = server.new_game(pb::GameKind::Bosh).await;
    let mut timed = budget(pb::SearchAlgorithm::Mcts, u64::MAX);
    timed.time_limit_ms = 100;
    let answer = suggest(
        &server,
        suggest_request(&state, Some(Strength::Budget(timed)), 3),
    )
    .await
    .expect("answered when the time ran out");
    let work = answer.work.unwrap();
    assert!(
        work.iterations >= 1 && work.iterations < u64::MAX,
        "{work:?}"
    );
    assert_eq!(answer.search.unwrap().budget.unwrap().time_limit_ms, 100);
    apply(&server, &state, answer.r#move.unwrap())
        .await
        .expect("legal");
}

#[tokio::test]
async fn a_search_abandoned_at_its_deadline_stops_and_frees_the_pool() {
    // One pool thread: the next search can only be answered once the abandoned one has stopped.
    let server = TestServer::start_with(|s| {
        s.engine.pool_threads = 1;
        s.search.max_iterations = u64::MAX;
    })
    .await;
    let state = server.new_game(pb::GameKind::BaoLaKete).await;
    let endless = budget(pb::SearchAlgorithm::Mcts, u64::MAX);
    for rpc in ["SuggestMove", "AnalyzePosition"] {
        let late = if rpc == "SuggestMove" {
            let mut request =
                tonic::Request::new(suggest_request(&state, Some(Strength::Budget(endless)), 0));
            request.set_timeout(Duration::from_millis(50));
            within(server.rules().suggest_move(request)).await.map(drop)
        } else {
            let mut request = tonic::Request::new(analyze_request(
                &state,
                Some(AnalyzeStrength::Budget(endless)),
                0,
            ));
            request.set_timeout(Duration::from_millis(50));
            within(server.rules().analyze_position(request))
                .await
                .map(drop)
        }
        .expect_err("past its deadline");
        // The client's own channel gives up at the deadline too: whichever side answers first.
        assert!(
            matches!(late.code(), Code::DeadlineExceeded | Code::Cancelled),
            "{rpc}: {late:?}"
        );
        // Were the endless search still running, this one would wait for the pool's thread until the test's
        // timeout.
        let answer = suggest(
            &server,
            suggest_request(
                &state,
                Some(Strength::Budget(budget(pb::SearchAlgorithm::Mcts, 50))),
                0,
            ),
        )
        .await
        .unwrap_or_else(|e| panic!("after {rpc}: {e:?}"));
        assert!(answer.r#move.is_some());
    }
}

/// The scale `AnalyzePosition` names for `kind`.
fn scale_of(kind: pb::GameKind) -> pb::ValueScale {
    match kind {
        pb::GameKind::BaoLaKete => pb::ValueScale::GameWon,
        pb::GameKind::Bosh => pb::ValueScale::StoneShare,
        _ => pb::ValueScale::PitShare,
    }
}

/// Along the first moves of a game of each kind, `AnalyzePosition` agrees with `SuggestMove` for the same strength
/// and seed (its first move, that move's value, the principal variation), labels every move as `ListLegalMoves`
/// does, gives each its own line (starting with it), and names the game's value scale.
#[tokio::test]
async fn analysis_agrees_with_suggest_move_and_labels_and_lines_every_move() {
    let server = TestServer::start().await;
    let strengths = |kind: pb::GameKind| {
        let mut alpha_beta = budget(pb::SearchAlgorithm::AlphaBeta, 2_000);
        if kind != pb::GameKind::BaoLaKete {
            alpha_beta.max_depth = 4;
        }
        [
            (Strength::Level(2), AnalyzeStrength::Level(2)),
            (Strength::Level(3), AnalyzeStrength::Level(3)),
            (
                Strength::Budget(alpha_beta),
                AnalyzeStrength::Budget(alpha_beta),
            ),
            (
                Strength::Budget(budget(pb::SearchAlgorithm::Mcts, 200)),
                AnalyzeStrength::Budget(budget(pb::SearchAlgorithm::Mcts, 200)),
            ),
        ]
    };
    for kind in KINDS {
        let mut state = server.new_game(kind).await;
        for ply in 0..5u64 {
            let legal = legal_moves(&server, &state).await;
            let mut next = None;
            for (suggest_strength, analyze_strength) in strengths(kind) {
                let seed = 11 + ply;
                let suggested = suggest(
                    &server,
                    suggest_request(&state, Some(suggest_strength), seed),
                )
                .await
                .expect("suggested");
                let analysis = analyze(
                    &server,
                    analyze_request(&state, Some(analyze_strength), seed),
                )
                .await
                .expect("analysed");
                let what = format!("{kind:?} ply {ply} {analyze_strength:?}");
                assert_eq!(analysis.moves[0].r#move, suggested.r#move, "{what}");
                assert_eq!(analysis.moves[0].value, suggested.value, "{what}");
                assert_eq!(
                    analysis.principal_variation, suggested.principal_variation,
                    "{what}"
                );
                assert_eq!(analysis.value_scale(), scale_of(kind), "{what}");
                assert_eq!(analysis.moves.len(), legal.len(), "{what}");
                for m in &analysis.moves {
                    let listed = legal
                        .iter()
                        .find(|l| l.r#move == m.r#move)
                        .unwrap_or_else(|| panic!("{what}: {m:?} is not legal"));
                    assert_eq!(m.label, listed.label, "{what}");
                    assert!(!m.label.is_empty());
                    assert_eq!(m.line.first(), m.r#move.as_ref(), "{what}: {m:?}");
                    assert!((0.0..=1.0).contains(&m.value), "{what}: {m:?}");
                }
                assert_eq!(
                    analysis.moves[0].line, analysis.principal_variation,
                    "{what}: the first move's line is the principal variation"
                );
                next.get_or_insert(suggested.result.expect("a preview"));
            }
            state = next.expect("a move");
        }
    }
}

/// A move that ends the game is proven, with the game's score as its value, at every strength; a move the
/// one-ply player only estimated is not.
#[tokio::test]
async fn a_move_that_ends_the_game_is_proven_with_its_score() {
    let server = TestServer::start().await;
    let state = ba_awa_about_to_end();
    let ending_move = sow(10);
    for strength in [
        AnalyzeStrength::Level(2),
        AnalyzeStrength::Level(3),
        AnalyzeStrength::Budget(budget(pb::SearchAlgorithm::Mcts, 100)),
    ] {
        let analysis = analyze(&server, analyze_request(&state, Some(strength), 3))
            .await
            .expect("analysed");
        let ending = analysis
            .moves
            .iter()
            .find(|m| m.r#move.as_ref() == Some(&ending_move))
            .expect("the ending move is analysed");
        let expected = match ending.value {
            1.0 => pb::Proof::Win,
            0.0 => pb::Proof::Loss,
            0.5 => pb::Proof::Draw,
            _ => pb::Proof::Score,
        };
        assert_eq!(ending.proof(), expected, "{strength:?}: {ending:?}");
        let over = apply(&server, &state, ending_move.clone())
            .await
            .unwrap()
            .state
            .unwrap();
        assert_ne!(over.status, pb::Status::InProgress as i32);
        if strength == AnalyzeStrength::Level(2) {
            for other in analysis
                .moves
                .iter()
                .filter(|m| m.r#move.as_ref() != Some(&ending_move))
            {
                let next = apply(&server, &state, other.r#move.clone().unwrap())
                    .await
                    .unwrap()
                    .state
                    .unwrap();
                if next.status == pb::Status::InProgress as i32 {
                    assert_eq!(other.proof(), pb::Proof::Unspecified, "{other:?}");
                }
            }
        }
    }
}

/// A position with one legal move is answered without searching, at the strongest level and under any budget: the
/// move itself, valued by the estimate after it, with no node, playout or ply of search (nodes 0).
#[tokio::test]
async fn a_forced_move_is_answered_without_searching() {
    let server = TestServer::start().await;
    // South owns one seed, in S6: sowing it is his only move.
    let state = ba_awa(
        [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 6],
        [20, 16],
        &[],
        SOUTH,
        SOUTH,
    );
    let legal = legal_moves(&server, &state).await;
    assert_eq!(legal.len(), 1, "{legal:?}");
    let only = legal[0].r#move.clone();
    let no_search = |work: Option<pb::SearchWork>| {
        let work = work.expect("work");
        assert_eq!(
            (work.iterations, work.nodes, work.plies, work.depth),
            (0, 0, 0, 0),
            "{work:?}"
        );
    };
    for (suggest_strength, analyze_strength) in [
        (Strength::Level(6), AnalyzeStrength::Level(6)),
        (
            Strength::Budget(budget(pb::SearchAlgorithm::Mcts, 100_000)),
            AnalyzeStrength::Budget(budget(pb::SearchAlgorithm::Mcts, 100_000)),
        ),
    ] {
        let suggested = suggest(&server, suggest_request(&state, Some(suggest_strength), 5))
            .await
            .expect("suggested");
        assert_eq!(suggested.r#move, only);
        assert_eq!(suggested.principal_variation, vec![only.clone().unwrap()]);
        assert!((0.0..=1.0).contains(&suggested.value));
        no_search(suggested.work);
        let analysis = analyze(&server, analyze_request(&state, Some(analyze_strength), 5))
            .await
            .expect("analysed");
        assert_eq!(analysis.moves.len(), 1);
        assert_eq!(analysis.moves[0].r#move, only);
        assert_eq!(analysis.moves[0].value, suggested.value);
        no_search(analysis.work);
    }
}
