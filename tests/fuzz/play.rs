//! Target `play`: engine play on arbitrary valid states: reachable states with perturbations the rules accept
//! (seeds moved between pits, stores and reserves, other players to move, other variant fields), then random
//! sequences of listed and arbitrary moves. An illegal move leaves the state unchanged, a legal one conserves
//! seeds, a move is legal exactly when it is listed, and every answer comes within the budget or is refused.

use crate::state::{perturb, perturbation};
use crate::{any_reachable, budgeted, config, corpus, sample_states, seeds_after, seeds_of};
use mancala::api::{convert, pb};
use mancala::engine::{
    AnyGame, Direction, Kichwa, KuuDecision, Move, NoTrace, PitSet, Sow, Status,
};
use proptest::prelude::*;
use prost::Message;

/// The seed corpus: reachable states of every game, encoded.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    sample_states()
        .into_iter()
        .map(|(name, game)| {
            (
                format!("{name}.bin"),
                convert::state_to_pb(&game).encode_to_vec(),
            )
        })
        .collect()
}

/// A valid state: reachable, with the perturbations the rules accept applied one after another.
fn valid_state() -> impl Strategy<Value = AnyGame> {
    (any_reachable(), prop::collection::vec(perturbation(), 0..6)).prop_map(
        |(mut game, perturbations)| {
            for p in &perturbations {
                let mut state = convert::state_to_pb(&game);
                perturb(&mut state, p);
                if let Ok(Ok(accepted)) = budgeted(|| convert::game_state("state", Some(state))) {
                    game = accepted;
                }
            }
            game
        },
    )
}

/// A move to try: one of the listed ones (by index), or any move at all.
#[derive(Clone, Debug)]
pub enum Try {
    Listed(usize),
    Any(Move),
}

fn any_move() -> impl Strategy<Value = Move> {
    let direction = prop::option::of(prop_oneof![
        Just(Direction::Clockwise),
        Just(Direction::Anticlockwise)
    ]);
    let kichwa = prop::option::of(prop_oneof![Just(Kichwa::Left), Just(Kichwa::Right)]);
    let decision = prop::option::of(prop_oneof![
        Just(KuuDecision::Stop),
        Just(KuuDecision::Safari)
    ]);
    prop_oneof![
        4 => (prop_oneof![0u8..32, any::<u8>()], direction, kichwa, decision).prop_map(
            |(pit, direction, kichwa, kuu_decision)| Move::Sow(Sow {
                pit,
                direction,
                kichwa,
                kuu_decision,
            })
        ),
        1 => Just(Move::NextGame(PitSet::EMPTY)),
        1 => any::<u32>().prop_map(|set| Move::NextGame(PitSet(set))),
    ]
}

fn attempt() -> impl Strategy<Value = Try> {
    prop_oneof![
        any::<usize>().prop_map(Try::Listed),
        any_move().prop_map(Try::Any)
    ]
}

fn seeds_in(game: &AnyGame) -> u64 {
    seeds_of(&convert::state_to_pb(game))
}

/// Plays `tries` from `game`, checking every move.
pub fn check(mut game: AnyGame, tries: &[Try]) -> Result<(), TestCaseError> {
    let mut total = seeds_in(&game);
    for t in tries {
        let Ok(listed) = budgeted(|| game.legal_moves()) else {
            return Ok(());
        };
        prop_assert_eq!(
            listed.is_empty(),
            game.status() == Status::MatchOver,
            "terminal ⇔ no legal move, in {:?}",
            game
        );
        let mv = match t {
            Try::Listed(_) if listed.is_empty() => continue,
            Try::Listed(i) => listed[i % listed.len()],
            Try::Any(mv) => *mv,
        };
        let mut next = game.clone();
        let Ok(outcome) = budgeted(|| next.play(&mv, &mut NoTrace)) else {
            return Ok(()); // refused within budget: nothing decided
        };
        // NextGame may carry a choice of pits that the list does not spell out (it lists the default).
        let listable = !matches!(mv, Move::NextGame(set) if !set.is_empty());
        match outcome {
            Ok(()) => {
                if listable {
                    prop_assert!(
                        listed.contains(&mv),
                        "{:?} plays but is not listed in {:?}",
                        mv,
                        game
                    );
                }
                total = seeds_after(&game, &mv, total);
                prop_assert_eq!(seeds_in(&next), total, "{:?} in {:?}", mv, game);
                // What the engine reaches is a state it accepts back.
                if let Ok(back) =
                    budgeted(|| convert::game_state("state", Some(convert::state_to_pb(&next))))
                {
                    prop_assert!(
                        back.is_ok(),
                        "{:?} from {:?} leads to a refused state: {:?}",
                        mv,
                        game,
                        back.err()
                    );
                }
                game = next;
            }
            Err(illegal) => {
                prop_assert!(
                    !listed.contains(&mv),
                    "listed {:?} is illegal ({}) in {:?}",
                    mv,
                    illegal,
                    game
                );
                prop_assert_eq!(&next, &game, "illegal {:?} changed the state", mv);
            }
        }
    }
    Ok(())
}

/// The moves a corpus state is played with: every listed move in turn, and a spread of arbitrary ones.
fn corpus_tries() -> Vec<Try> {
    let mut tries: Vec<Try> = (0..64).map(Try::Listed).collect();
    for pit in [0u8, 1, 7, 9, 11, 15, 31, 32, 255] {
        tries.push(Try::Any(Move::Sow(Sow::from(pit))));
        tries.push(Try::Any(Move::Sow(Sow {
            direction: Some(Direction::Anticlockwise),
            kichwa: Some(Kichwa::Left),
            kuu_decision: Some(KuuDecision::Safari),
            ..Sow::from(pit)
        })));
    }
    tries.push(Try::Any(Move::NextGame(PitSet::EMPTY)));
    tries.push(Try::Any(Move::NextGame(PitSet(u32::MAX))));
    tries
}

#[test]
fn play_corpus_replays() {
    for (name, bytes) in corpus("play") {
        let state = pb::GameState::decode(bytes.as_slice())
            .unwrap_or_else(|e| panic!("{name} is not a GameState: {e}"));
        let game = match budgeted(|| convert::game_state("state", Some(state))) {
            Ok(Ok(game)) => game,
            Ok(Err(e)) => panic!("{name} is not a valid state: {e:?}"),
            Err(_) => continue,
        };
        // Each try from the corpus state itself, then all of them in a row.
        for t in corpus_tries() {
            check(game.clone(), std::slice::from_ref(&t)).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        check(game, &corpus_tries()).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn play_on_valid_states(game in valid_state(), tries in prop::collection::vec(attempt(), 1..40)) {
        check(game, &tries)?;
    }
}
