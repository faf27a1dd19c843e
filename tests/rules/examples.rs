//! The engine harness of the worked examples: every example of `tests/examples/<game>.toml` played through the
//! pure engine API (`AnyGame::from_setup`, `legal_moves`, `check`, `play`). The gRPC harness runs the same
//! data over a real channel (`tests/grpc/examples.rs`).

use crate::support::examples::{self, from_label, place, Ev, File, Mv, Observed, Position};
use mancala::engine::{AnyGame, Options};
use std::collections::BTreeMap;

fn observe(game: &AnyGame) -> Observed {
    Observed::from_engine(
        &game.to_setup(),
        game.legal_moves().iter().map(Mv::from_engine).collect(),
    )
}

fn run(file: &File) {
    let kind = file.kind();
    for example in file.examples.iter().filter(|e| e.runnable) {
        let position = match &example.position {
            Position::Opening(word) => {
                assert_eq!(word, "opening", "{}: a position or \"opening\"", example.id);
                AnyGame::new_match(kind, &Options::default())
            }
            Position::State(state) => AnyGame::from_setup(&state.setup(kind))
                .unwrap_or_else(|e| panic!("{}: the position is valid: {e}", example.id)),
        };
        let mut states = BTreeMap::from([("position".to_string(), position)]);
        for (i, step) in example.steps.iter().enumerate() {
            let at = place(example, i, step);
            let from = from_label(&states, step, &at).clone();
            if let Some(legal) = &step.legal {
                let want: Vec<Mv> = legal
                    .iter()
                    .map(|m| examples::parse_move(kind, m))
                    .collect();
                assert_eq!(observe(&from).legal, want, "{at}: the legal moves");
            }
            let Some(text) = &step.mv else {
                if let Some(after) = &step.after {
                    after.check(kind, &observe(&from), &at);
                }
                continue;
            };
            let mv = examples::parse_move(kind, text).engine();
            let mut game = from.clone();
            let mut events = Vec::new();
            let played = game.play(&mv, &mut events);
            if let Some(reason) = &step.illegal {
                let refused = from.check(&mv).expect_err("an illegal move is refused");
                assert_eq!(refused.reason.code(), reason, "{at}: the reason");
                let err = played.expect_err("play refuses it too");
                assert_eq!(err.reason.code(), reason, "{at}: play's reason");
                assert_eq!(
                    game, from,
                    "{at}: an illegal move leaves the state as it was"
                );
                assert!(!from.legal_moves().contains(&mv), "{at}: not listed");
                continue;
            }
            if let Err(err) = played {
                panic!("{at}: the move is legal, but: {err}");
            }
            assert!(from.check(&mv).is_ok(), "{at}: check agrees with play");
            // A chosen allocation (`next` with pits) is legal without being listed: only the default is.
            if !matches!(mv, mancala::engine::Move::NextGame(set) if set.0 != 0) {
                assert!(from.legal_moves().contains(&mv), "{at}: the move is listed");
            }
            // Every state an example reaches survives the wire shape.
            assert_eq!(
                AnyGame::from_setup(&game.to_setup()).as_ref(),
                Ok(&game),
                "{at}: to_setup/from_setup round trip"
            );
            let observed = observe(&game);
            if let Some(after) = &step.after {
                after.check(kind, &observed, &at);
            }
            if let Some(expected) = &step.events {
                expected.check(kind, &Ev::from_engine(&events), &at);
            }
            if let Some(label) = &step.label {
                states.insert(label.clone(), game);
            }
        }
    }
}

#[test]
fn bao_la_kete_examples_bk_1_to_bk_9() {
    run(&examples::load("bao_la_kete"));
}

#[test]
fn bosh_examples_b_1_to_b_5() {
    run(&examples::load("bosh"));
}

#[test]
fn ba_awa_examples_ba_1_to_ba_6() {
    run(&examples::load("ba_awa"));
}
