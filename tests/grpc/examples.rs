//! The gRPC harness of the worked examples: every example of `tests/examples/<game>.toml` played against the
//! real server on 127.0.0.1:0 (`NewGame`, `ListLegalMoves`, `ValidateMove`, `ApplyMove`), compared with the
//! same expectations as the engine harness (`tests/rules/examples.rs`). A legal move's preview in
//! `ListLegalMoves` must also be exactly what `ApplyMove` answers.

use crate::support::examples::{
    self, from_label, place, wire_name, wire_state, Ev, File, Mv, Observed, Position,
};
use crate::support::server::{within, TestServer};
use mancala::api::pb;
use std::collections::BTreeMap;
use tonic::Code;
use tonic_types::StatusExt;

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

async fn observe(server: &TestServer, state: &pb::GameState) -> Observed {
    let legal = legal_moves(server, state).await;
    Observed::from_wire(
        state,
        legal
            .iter()
            .map(|m| Mv::from_wire(m.r#move.as_ref().expect("a move")))
            .collect(),
    )
}

async fn run(file: &File) {
    let kind = file.kind();
    let server = TestServer::start().await;
    let wire_kind = match kind {
        mancala::engine::GameKind::BaoLaKete => pb::GameKind::BaoLaKete,
        mancala::engine::GameKind::Bosh => pb::GameKind::Bosh,
        mancala::engine::GameKind::BaAwa => pb::GameKind::BaAwa,
    };
    for example in file.examples.iter().filter(|e| e.runnable) {
        let position = match &example.position {
            Position::Opening(_) => server.new_game(wire_kind).await,
            Position::State(state) => wire_state(&state.setup(kind)),
        };
        let mut states = BTreeMap::from([("position".to_string(), position)]);
        for (i, step) in example.steps.iter().enumerate() {
            let at = place(example, i, step);
            let from = from_label(&states, step, &at).clone();
            let listed = legal_moves(&server, &from).await;
            if let Some(legal) = &step.legal {
                let want: Vec<Mv> = legal
                    .iter()
                    .map(|m| examples::parse_move(kind, m))
                    .collect();
                let have: Vec<Mv> = listed
                    .iter()
                    .map(|m| Mv::from_wire(m.r#move.as_ref().expect("a move")))
                    .collect();
                assert_eq!(have, want, "{at}: ListLegalMoves");
            }
            let Some(text) = &step.mv else {
                if let Some(after) = &step.after {
                    after.check(kind, &observe(&server, &from).await, &at);
                }
                continue;
            };
            let mv = examples::parse_move(kind, text);
            let validated = within(server.rules().validate_move(pb::ValidateMoveRequest {
                state: Some(from.clone()),
                r#move: Some(mv.wire()),
            }))
            .await
            .expect("ValidateMove answers")
            .into_inner();
            let applied = within(server.rules().apply_move(pb::ApplyMoveRequest {
                state: Some(from.clone()),
                r#move: Some(mv.wire()),
                skip_events: false,
            }))
            .await;
            if let Some(reason) = &step.illegal {
                assert!(!validated.legal, "{at}: ValidateMove refuses it");
                assert_eq!(
                    wire_name(validated.reason().as_str_name(), "ILLEGAL_MOVE_REASON_"),
                    reason.to_ascii_lowercase(),
                    "{at}: ValidateMove's reason ({})",
                    validated.message
                );
                let status = applied.expect_err("ApplyMove refuses it");
                assert_eq!(status.code(), Code::FailedPrecondition, "{at}: {status:?}");
                assert_eq!(
                    &status
                        .get_error_details()
                        .error_info()
                        .expect("an ErrorInfo")
                        .reason,
                    reason,
                    "{at}: ApplyMove's reason"
                );
                continue;
            }
            assert!(validated.legal, "{at}: ValidateMove: {}", validated.message);
            let answer = applied
                .unwrap_or_else(|s| panic!("{at}: ApplyMove refused a legal move: {s:?}"))
                .into_inner();
            let after = answer.state.expect("ApplyMove answers a state");
            // A chosen allocation (`next` with pits) is legal without being listed: only the default is.
            let preview = listed
                .iter()
                .find(|m| m.r#move.as_ref().map(Mv::from_wire) == Some(mv.clone()));
            match (preview, &mv) {
                (Some(preview), _) => {
                    assert_eq!(
                        preview.result.as_ref(),
                        Some(&after),
                        "{at}: the preview is the result"
                    );
                    assert_eq!(preview.events, answer.events, "{at}: the preview's events");
                }
                (None, Mv::Next(chosen)) if !chosen.is_empty() => {}
                (None, _) => panic!("{at}: ListLegalMoves lists the move"),
            }
            if let Some(expected) = &step.after {
                expected.check(kind, &observe(&server, &after).await, &at);
            }
            if let Some(expected) = &step.events {
                expected.check(kind, &Ev::from_wire(&answer.events), &at);
            }
            if let Some(label) = &step.label {
                states.insert(label.clone(), after);
            }
        }
    }
}

#[tokio::test]
async fn bao_la_kete_examples_bk_1_to_bk_9() {
    run(&examples::load("bao_la_kete")).await;
}

#[tokio::test]
async fn bosh_examples_b_1_to_b_5() {
    run(&examples::load("bosh")).await;
}

#[tokio::test]
async fn ba_awa_examples_ba_1_to_ba_6() {
    run(&examples::load("ba_awa")).await;
}
