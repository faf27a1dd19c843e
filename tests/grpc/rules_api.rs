//! The stateless Rules service over a real gRPC channel: every RPC and every error code. (The worked examples
//! of docs/ run over gRPC from `tests/examples/*.toml`: `examples.rs`.)

use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::r#move::Action;
use tonic::Code;
use tonic_types::StatusExt;

pub(crate) const SOUTH: i32 = pb::Player::South as i32;
pub(crate) const NORTH: i32 = pb::Player::North as i32;

/// A Ba-awa position in the middle of game 2, South owning pits 0–5 plus `south_extra` (pits of North's row).
pub(crate) fn ba_awa(
    pits: [u32; 12],
    stores: [u32; 2],
    south_extra: &[usize],
    starter: i32,
    to_move: i32,
) -> pb::GameState {
    let owners: Vec<i32> = (0..12)
        .map(|p| {
            if p < 6 || south_extra.contains(&p) {
                SOUTH
            } else {
                NORTH
            }
        })
        .collect();
    let south = owners.iter().filter(|&&o| o == SOUTH).count() as u32;
    pb::GameState {
        kind: pb::GameKind::BaAwa as i32,
        rules_version: 1,
        pits: pits.to_vec(),
        stores: stores.to_vec(),
        reserves: vec![0, 0],
        to_move,
        status: pb::Status::InProgress as i32,
        winner: 0,
        // A position from the middle of a later game: any player may be to move and pits may have changed hands.
        ply: 10,
        game_number: 2,
        match_score: vec![south, 12 - south],
        position_key: 0,
        variant: Some(pb::game_state::Variant::BaAwa(pb::BaAwaState {
            owners,
            starter,
            target: 10,
            players: 0,
            eliminated_in_game: Vec::new(),
        })),
    }
}

pub(crate) fn sow(pit: u32) -> pb::Move {
    pb::Move {
        action: Some(Action::Sow(pb::Sow {
            pit,
            ..Default::default()
        })),
    }
}

fn next_game(pits: &[u32]) -> pb::Move {
    pb::Move {
        action: Some(Action::NextGame(pb::NextGame {
            pits: pits.to_vec(),
        })),
    }
}

pub(crate) async fn apply(
    server: &TestServer,
    state: &pb::GameState,
    mv: pb::Move,
) -> Result<pb::ApplyMoveResponse, tonic::Status> {
    within(server.rules().apply_move(pb::ApplyMoveRequest {
        state: Some(state.clone()),
        r#move: Some(mv),
        skip_events: false,
    }))
    .await
    .map(|r| r.into_inner())
}

async fn validate(
    server: &TestServer,
    state: &pb::GameState,
    mv: pb::Move,
) -> pb::ValidateMoveResponse {
    within(server.rules().validate_move(pb::ValidateMoveRequest {
        state: Some(state.clone()),
        r#move: Some(mv),
    }))
    .await
    .expect("validate answers")
    .into_inner()
}

async fn new_ba_awa(server: &TestServer) -> pb::GameState {
    within(server.rules().new_game(pb::NewGameRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: None,
    }))
    .await
    .expect("new game")
    .into_inner()
    .state
    .expect("state")
}

fn laps(events: &[pb::Event]) -> Vec<pb::Lap> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            Some(pb::event::Kind::Lap(l)) => Some(l.clone()),
            _ => None,
        })
        .collect()
}

pub(crate) fn bad_request_fields(status: &tonic::Status) -> Vec<String> {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let details = status.get_error_details();
    let bad = details.bad_request().expect("BadRequest details");
    bad.field_violations
        .iter()
        .map(|v| v.field.clone())
        .collect()
}

fn error_reason(status: &tonic::Status) -> String {
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    let details = status.get_error_details();
    let info = details.error_info().expect("ErrorInfo details");
    assert_eq!(info.domain, "mancala.v1");
    info.reason.clone()
}

// ---- NewGame ----

#[tokio::test]
async fn new_game_starts_a_ba_awa_match() {
    let server = TestServer::start().await;
    let state = new_ba_awa(&server).await;
    assert_eq!(state.pits, vec![4; 12]);
    assert_eq!(state.to_move, SOUTH);
    assert_eq!(state.status, pb::Status::InProgress as i32);
    assert_eq!(state.rules_version, 1);
    assert_eq!(state.game_number, 1);
    assert_eq!(state.match_score, vec![6, 6]);
    let Some(pb::game_state::Variant::BaAwa(v)) = state.variant else {
        panic!("ba_awa variant")
    };
    assert_eq!(v.target, 10);
    assert_eq!(v.starter, SOUTH);
}

#[tokio::test]
async fn new_game_takes_options() {
    let server = TestServer::start().await;
    let state = within(server.rules().new_game(pb::NewGameRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: Some(pb::GameOptions {
            first_player: NORTH,
            ba_awa_target: 12,
            ..Default::default()
        }),
    }))
    .await
    .unwrap()
    .into_inner()
    .state
    .unwrap();
    assert_eq!(state.to_move, NORTH);
    let Some(pb::game_state::Variant::BaAwa(v)) = state.variant else {
        panic!()
    };
    assert_eq!((v.target, v.starter), (12, NORTH));
}

#[tokio::test]
async fn new_game_rejects_bad_requests_listing_every_field() {
    let server = TestServer::start().await;
    let status = within(server.rules().new_game(pb::NewGameRequest {
        kind: 0,
        options: Some(pb::GameOptions {
            first_player: 7,
            ba_awa_target: 9,
            ..Default::default()
        }),
    }))
    .await
    .unwrap_err();
    let fields = bad_request_fields(&status);
    assert_eq!(
        fields,
        vec!["kind", "options.first_player", "options.ba_awa_target"]
    );
}

#[tokio::test]
async fn new_game_answers_every_implemented_game_and_unimplemented_otherwise() {
    let server = TestServer::start().await;
    for kind in [pb::GameKind::Bosh, pb::GameKind::BaoLaKete] {
        let description = within(
            server
                .rules()
                .describe_game(pb::DescribeGameRequest { kind: kind as i32 }),
        )
        .await
        .unwrap()
        .into_inner();
        let answer = within(server.rules().new_game(pb::NewGameRequest {
            kind: kind as i32,
            options: None,
        }))
        .await;
        if description.implemented {
            assert!(answer.is_ok(), "{kind:?} is implemented");
        } else {
            let status = answer.unwrap_err();
            assert_eq!(status.code(), Code::Unimplemented);
            assert!(
                status.message().contains(&description.name),
                "{}",
                status.message()
            );
        }
    }
}

// ---- DescribeGame ----

#[tokio::test]
async fn describe_game_tells_how_to_draw_every_game() {
    let server = TestServer::start().await;
    let ba_awa = within(server.rules().describe_game(pb::DescribeGameRequest {
        kind: pb::GameKind::BaAwa as i32,
    }))
    .await
    .unwrap()
    .into_inner();
    assert_eq!(
        (ba_awa.rows, ba_awa.pits_per_row, ba_awa.seed_total),
        (2, 6, 48)
    );
    assert_eq!(ba_awa.pits.len(), 12);
    assert_eq!(ba_awa.pits[6].label, "N1");
    assert_eq!((ba_awa.pits[6].row, ba_awa.pits[6].column), (0, 5));
    assert_eq!(ba_awa.sowing_order, (0..12).collect::<Vec<_>>());
    assert!(ba_awa.implemented);
    assert_eq!(ba_awa.rules_version, 1);
    let bao = within(server.rules().describe_game(pb::DescribeGameRequest {
        kind: pb::GameKind::BaoLaKete as i32,
    }))
    .await
    .unwrap()
    .into_inner();
    assert_eq!((bao.rows, bao.pits_per_row, bao.seed_total), (4, 8, 64));
    assert_eq!(bao.pits[4].role, "kuu");
    let bosh = within(server.rules().describe_game(pb::DescribeGameRequest {
        kind: pb::GameKind::Bosh as i32,
    }))
    .await
    .unwrap()
    .into_inner();
    assert_eq!((bosh.rows, bosh.pits_per_row, bosh.seed_total), (2, 5, 40));
    let status = within(
        server
            .rules()
            .describe_game(pb::DescribeGameRequest { kind: 42 }),
    )
    .await
    .unwrap_err();
    assert_eq!(bad_request_fields(&status), vec!["kind"]);
}

// ---- ListLegalMoves ----

#[tokio::test]
async fn list_legal_moves_previews_every_opening() {
    let server = TestServer::start().await;
    let state = new_ba_awa(&server).await;
    let moves = within(server.rules().list_legal_moves(pb::ListLegalMovesRequest {
        state: Some(state),
        skip_previews: false,
    }))
    .await
    .unwrap()
    .into_inner()
    .moves;
    assert_eq!(moves.len(), 6);
    let pits: Vec<u32> = moves
        .iter()
        .map(|m| match &m.r#move.as_ref().unwrap().action {
            Some(Action::Sow(s)) => s.pit,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(pits, vec![0, 1, 2, 3, 4, 5]);
    let labels: Vec<&str> = moves.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(labels, ["S1", "S2", "S3", "S4", "S5", "S6"]);
    // BA-1 is the preview of S1.
    assert_eq!(
        moves[0].result.as_ref().unwrap().pits,
        vec![2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6]
    );
    assert_eq!(laps(&moves[0].events).len(), 5);
}

#[tokio::test]
async fn list_legal_moves_can_skip_previews() {
    let server = TestServer::start().await;
    let state = new_ba_awa(&server).await;
    let moves = within(server.rules().list_legal_moves(pb::ListLegalMovesRequest {
        state: Some(state),
        skip_previews: true,
    }))
    .await
    .unwrap()
    .into_inner()
    .moves;
    assert_eq!(moves.len(), 6);
    assert!(moves
        .iter()
        .all(|m| m.result.is_none() && m.events.is_empty()));
}

// ---- ValidateMove and ApplyMove refusals ----

#[tokio::test]
async fn validate_move_answers_legal_and_illegal_moves_with_reasons() {
    let server = TestServer::start().await;
    let start = new_ba_awa(&server).await;
    let ok = validate(&server, &start, sow(0)).await;
    assert!(ok.legal);
    assert_eq!(ok.reason, 0);

    let cases = [
        (
            start.clone(),
            sow(7),
            pb::IllegalMoveReason::NotYourPit,
            "pit 7",
        ),
        (
            ba_awa(
                [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
                [4, 0],
                &[],
                SOUTH,
                SOUTH,
            ),
            sow(0),
            pb::IllegalMoveReason::PitEmpty,
            "empty",
        ),
        (
            ba_awa(
                [2, 1, 3, 1, 0, 1, 0, 1, 0, 2, 1, 0],
                [20, 16],
                &[],
                SOUTH,
                SOUTH,
            ),
            sow(2),
            pb::IllegalMoveReason::NeverEndingMove,
            "never end",
        ),
        (
            start.clone(),
            next_game(&[]),
            pb::IllegalMoveReason::GameInProgress,
            "still being played",
        ),
        (
            start.clone(),
            pb::Move {
                action: Some(Action::Sow(pb::Sow {
                    pit: 0,
                    direction: 1,
                    ..Default::default()
                })),
            },
            pb::IllegalMoveReason::ChoiceNotOffered,
            "anticlockwise",
        ),
    ];
    for (state, mv, reason, words) in cases {
        let answer = validate(&server, &state, mv.clone()).await;
        assert!(!answer.legal, "{mv:?}");
        assert_eq!(answer.reason, reason as i32, "{mv:?}: {}", answer.message);
        assert!(
            answer.message.contains(words),
            "{:?} lacks {words:?}",
            answer.message
        );
    }
}

#[tokio::test]
async fn apply_move_refuses_illegal_moves_with_error_info() {
    let server = TestServer::start().await;
    let start = new_ba_awa(&server).await;
    let status = apply(&server, &start, sow(8)).await.unwrap_err();
    assert_eq!(error_reason(&status), "NOT_YOUR_PIT");
    assert!(status.message().contains("pit 8"), "{}", status.message());
    let details = status.get_error_details();
    assert_eq!(
        details
            .error_info()
            .unwrap()
            .metadata
            .get("pit")
            .map(String::as_str),
        Some("8")
    );

    let empty = ba_awa(
        [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
        [4, 0],
        &[],
        SOUTH,
        SOUTH,
    );
    assert_eq!(
        error_reason(&apply(&server, &empty, sow(0)).await.unwrap_err()),
        "PIT_EMPTY"
    );
    let looping = ba_awa(
        [2, 1, 3, 1, 0, 1, 0, 1, 0, 2, 1, 0],
        [20, 16],
        &[],
        SOUTH,
        SOUTH,
    );
    assert_eq!(
        error_reason(&apply(&server, &looping, sow(2)).await.unwrap_err()),
        "NEVER_ENDING_MOVE"
    );
    assert_eq!(
        error_reason(&apply(&server, &start, next_game(&[])).await.unwrap_err()),
        "GAME_IN_PROGRESS"
    );
}

#[tokio::test]
async fn apply_move_can_skip_the_events() {
    let server = TestServer::start().await;
    let mut client = server.rules();
    let request = |state: &pb::GameState, mv: pb::Move| pb::ApplyMoveRequest {
        state: Some(state.clone()),
        r#move: Some(mv),
        skip_events: true,
    };
    // Every game's opening moves: the same state as with the events, and no event.
    for kind in [
        pb::GameKind::BaAwa,
        pb::GameKind::Bosh,
        pb::GameKind::BaoLaKete,
    ] {
        let start = server.new_game(kind).await;
        let moves = within(client.list_legal_moves(pb::ListLegalMovesRequest {
            state: Some(start.clone()),
            skip_previews: true,
        }))
        .await
        .unwrap()
        .into_inner()
        .moves;
        for legal in moves {
            let mv = legal.r#move.unwrap();
            let full = apply(&server, &start, mv.clone()).await.unwrap();
            assert!(!full.events.is_empty());
            let bare = within(client.apply_move(request(&start, mv)))
                .await
                .unwrap()
                .into_inner();
            assert_eq!(bare.state, full.state, "{kind:?}");
            assert!(bare.events.is_empty());
        }
    }
    // A refusal is the same refusal.
    let start = new_ba_awa(&server).await;
    let status = within(client.apply_move(request(&start, sow(8))))
        .await
        .unwrap_err();
    assert_eq!(error_reason(&status), "NOT_YOUR_PIT");
}

#[tokio::test]
async fn finished_games_and_matches_refuse_sowing() {
    let server = TestServer::start().await;
    let state = ba_awa(
        [0, 1, 0, 0, 0, 3, 0, 0, 3, 0, 2, 3],
        [20, 16],
        &[],
        SOUTH,
        NORTH,
    );
    let over = apply(&server, &state, sow(10))
        .await
        .unwrap()
        .state
        .unwrap();
    assert_eq!(
        error_reason(&apply(&server, &over, sow(0)).await.unwrap_err()),
        "GAME_OVER"
    );
    assert_eq!(
        error_reason(&apply(&server, &over, next_game(&[0])).await.unwrap_err()),
        "INVALID_CHOICE"
    );
    assert_eq!(
        error_reason(&apply(&server, &over, next_game(&[7, 8])).await.unwrap_err()),
        "INVALID_CHOICE"
    );

    // A game that ends with South at 10 pits ends the match.
    let state = ba_awa(
        [0, 1, 0, 0, 0, 3, 0, 0, 3, 0, 2, 3],
        [32, 4],
        &[],
        SOUTH,
        NORTH,
    );
    let over = apply(&server, &state, sow(10)).await.unwrap();
    let match_over = over.state.unwrap();
    assert_eq!(match_over.status, pb::Status::MatchOver as i32);
    assert_eq!(match_over.winner, SOUTH);
    assert!(over
        .events
        .iter()
        .any(|e| matches!(e.kind, Some(pb::event::Kind::MatchEnd(_)))));
    assert_eq!(
        error_reason(
            &apply(&server, &match_over, next_game(&[]))
                .await
                .unwrap_err()
        ),
        "MATCH_OVER"
    );
    assert_eq!(
        error_reason(&apply(&server, &match_over, sow(0)).await.unwrap_err()),
        "MATCH_OVER"
    );
    let moves = within(server.rules().list_legal_moves(pb::ListLegalMovesRequest {
        state: Some(match_over),
        skip_previews: false,
    }))
    .await
    .unwrap()
    .into_inner()
    .moves;
    assert!(moves.is_empty());
}

// ---- Impossible states and malformed requests: INVALID_ARGUMENT with every violation ----

#[tokio::test]
async fn an_impossible_state_lists_every_violation() {
    let server = TestServer::start().await;
    let mut state = new_ba_awa(&server).await;
    state.pits = vec![4; 11];
    state.status = 0;
    state.rules_version = 9;
    state.stores = vec![3, 0];
    if let Some(pb::game_state::Variant::BaAwa(v)) = &mut state.variant {
        v.owners[3] = 0;
        v.target = 13;
    }
    let status = within(server.rules().list_legal_moves(pb::ListLegalMovesRequest {
        state: Some(state),
        skip_previews: false,
    }))
    .await
    .unwrap_err();
    let mut fields = bad_request_fields(&status);
    fields.sort();
    assert_eq!(
        fields,
        vec![
            "state.ba_awa.owners[3]",
            "state.ba_awa.target",
            "state.pits",
            "state.rules_version",
            "state.status",
            "state.stores[0]",
        ]
    );
}

#[tokio::test]
async fn more_seeds_than_the_game_has_is_refused() {
    let server = TestServer::start().await;
    let mut state = new_ba_awa(&server).await;
    state.pits[0] = 49;
    state.pits[1] = 10;
    let status = apply(&server, &state, sow(1)).await.unwrap_err();
    let fields = bad_request_fields(&status);
    assert!(fields.contains(&"state.pits[0]".to_string()), "{fields:?}");
    assert!(fields.contains(&"state.pits".to_string()), "{fields:?}");
}

#[tokio::test]
async fn a_finished_game_with_a_player_to_move_is_refused() {
    let server = TestServer::start().await;
    let state = ba_awa(
        [0, 1, 0, 0, 0, 3, 0, 0, 3, 0, 2, 3],
        [20, 16],
        &[],
        SOUTH,
        NORTH,
    );
    let mut over = apply(&server, &state, sow(10))
        .await
        .unwrap()
        .state
        .unwrap();
    over.to_move = NORTH;
    over.winner = NORTH;
    let status = apply(&server, &over, next_game(&[])).await.unwrap_err();
    let fields = bad_request_fields(&status);
    assert!(fields.contains(&"state.to_move".to_string()), "{fields:?}");
    assert!(fields.contains(&"state.winner".to_string()), "{fields:?}");
}

#[tokio::test]
async fn custom_positions_with_fewer_seeds_are_accepted() {
    let server = TestServer::start().await;
    let state = ba_awa(
        [3, 0, 0, 0, 0, 0, 3, 3, 3, 0, 0, 0],
        [0, 0],
        &[],
        SOUTH,
        SOUTH,
    );
    let answer = apply(&server, &state, sow(0)).await.unwrap();
    assert_eq!(
        answer.state.unwrap().pits,
        vec![0, 1, 1, 1, 0, 0, 3, 3, 3, 0, 0, 0]
    );
}

#[tokio::test]
async fn malformed_moves_and_missing_fields_are_invalid_arguments() {
    let server = TestServer::start().await;
    let start = new_ba_awa(&server).await;
    let status = apply(&server, &start, sow(12)).await.unwrap_err();
    assert_eq!(bad_request_fields(&status), vec!["move.sow.pit"]);
    assert!(
        status.message().contains("pits 0 to 11"),
        "{}",
        status.message()
    );

    let status = apply(&server, &start, pb::Move { action: None })
        .await
        .unwrap_err();
    assert_eq!(bad_request_fields(&status), vec!["move.action"]);

    let status = apply(&server, &start, next_game(&[3, 3, 40]))
        .await
        .unwrap_err();
    assert_eq!(
        bad_request_fields(&status),
        vec!["move.next_game.pits[1]", "move.next_game.pits[2]"]
    );

    let status = within(server.rules().validate_move(pb::ValidateMoveRequest {
        state: None,
        r#move: Some(sow(0)),
    }))
    .await
    .unwrap_err();
    assert_eq!(bad_request_fields(&status), vec!["state"]);

    let mut wrong_variant = start.clone();
    wrong_variant.variant = Some(pb::game_state::Variant::Bosh(pb::BoshState::default()));
    let status = apply(&server, &wrong_variant, sow(0)).await.unwrap_err();
    assert_eq!(bad_request_fields(&status), vec!["state.ba_awa"]);

    let mut no_kind = start.clone();
    no_kind.kind = 0;
    let status = apply(&server, &no_kind, sow(0)).await.unwrap_err();
    assert_eq!(bad_request_fields(&status), vec!["state.kind"]);
    no_kind.kind = 99;
    let status = apply(&server, &no_kind, sow(0)).await.unwrap_err();
    assert_eq!(bad_request_fields(&status), vec!["state.kind"]);
    assert!(
        status.message().contains("99 is not a GameKind"),
        "{}",
        status.message()
    );
}

// ---- A whole match through the Rules service alone ----

/// Plays a complete Ba-awa match with seeded random choices among `ListLegalMoves`, applying each with
/// `ApplyMove`, and checks that every applied state equals its preview and that 48 seeds are conserved.
#[tokio::test]
async fn a_complete_ba_awa_match_can_be_played_through_the_rules_service() {
    let server = TestServer::start().await;
    let mut client = server.rules();
    let mut state = new_ba_awa(&server).await;
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut moves_played = 0;
    let mut games = 1;
    while state.status != pb::Status::MatchOver as i32 {
        assert!(moves_played < 20_000, "the match did not end");
        let moves = within(client.list_legal_moves(pb::ListLegalMovesRequest {
            state: Some(state.clone()),
            skip_previews: false,
        }))
        .await
        .unwrap()
        .into_inner()
        .moves;
        assert!(!moves.is_empty(), "a match in play always has a move");
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let chosen = &moves[(rng % moves.len() as u64) as usize];
        let answer = within(client.apply_move(pb::ApplyMoveRequest {
            state: Some(state.clone()),
            r#move: chosen.r#move.clone(),
            skip_events: false,
        }))
        .await
        .unwrap()
        .into_inner();
        let next = answer.state.unwrap();
        assert_eq!(
            Some(&next),
            chosen.result.as_ref(),
            "the preview is the result"
        );
        let seeds: u32 = next.pits.iter().chain(&next.stores).sum();
        assert_eq!(seeds, 48);
        if next.game_number > state.game_number {
            games += 1;
        }
        state = next;
        moves_played += 1;
    }
    assert!(state.winner == SOUTH || state.winner == NORTH);
    assert!(state.match_score.iter().any(|&pits| pits >= 10) || state.match_score.contains(&0));
    assert!(games >= 1);
}
