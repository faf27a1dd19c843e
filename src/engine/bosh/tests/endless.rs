//! §1 "Endless play across turns" in Bosh: a round whose position comes back a third time ends there, each player
//! taking the stones in the open holes of his own row.

use super::*;
use crate::engine::across_turns::{AcrossTurns, Ending};
use crate::engine::{AnyGame, GameKind, Options, Rng};

/// Seeded random play from the standard start, as a match applies §1 to it, until the first ending by the rules
/// of endless play: the game just before the move that ended it, the move's seat and events, and the ending.
fn play_until_an_ending(seed: u64) -> (AnyGame, Player, Vec<Event>, Ending) {
    let options = Options::default();
    let mut game = AnyGame::new_match(GameKind::Bosh, &options);
    let mut across = AcrossTurns::start(GameKind::Bosh, &options, &game);
    let mut rng = Rng::new(seed);
    loop {
        let moves = game.legal_moves();
        let mv = moves[rng.below(moves.len())];
        let seat = game.to_move().unwrap_or(S);
        let before = game.clone();
        let mut trace = Vec::new();
        game.play(&mv, &mut trace).expect("a listed move");
        // Seen this often before this move brought it about again.
        let earlier = across.occurrences(&game);
        if let Some(ending) = across.after_move(&mut game, seat, &mut trace) {
            assert_eq!(earlier, 2, "the third occurrence ends it, not another");
            return (before, seat, trace, ending);
        }
        assert!(earlier < 2);
    }
}

/// Random play meets a repetition in the 64th move (seed 40): the round ends there, each player taking his own
/// row's stones, and the match goes on to the next round.
#[test]
fn a_repeated_position_ends_the_round_with_each_row_to_its_owner() {
    let (before, _, trace, ending) = play_until_an_ending(40);
    assert_eq!(ending, Ending::Game(EndReason::Repetition));
    let round_end = trace.iter().find_map(|e| match *e {
        Event::RoundEnd {
            reason,
            collector,
            collected,
            totals,
        } => Some((reason, collector, collected, totals)),
        _ => None,
    });
    let (reason, collector, collected, totals) = round_end.expect("the round ended");
    assert_eq!(
        (reason, collector, collected),
        (EndReason::Repetition, None, 0)
    );
    // The captures just before the round's end take each hole's stones into its owner's store (the first of them
    // may be the sowing's own capture, which goes to the mover from either row).
    let end_at = trace
        .iter()
        .position(|e| matches!(e, Event::RoundEnd { .. }))
        .expect("the round ended");
    let block: Vec<(u8, Player)> = trace[..end_at]
        .iter()
        .rev()
        .map_while(|e| match *e {
            Event::Capture {
                pit, beneficiary, ..
            } => Some((pit, beneficiary)),
            _ => None,
        })
        .collect();
    assert!(!block.is_empty());
    for &(pit, owner) in &block[..block.len() - 1] {
        assert_eq!(
            row(owner) >> pit & 1,
            1,
            "hole {pit} goes to its row's owner"
        );
    }
    let AnyGame::Bosh(bosh) = before else {
        unreachable!()
    };
    assert_eq!(
        totals.iter().map(|&t| t as u32).sum::<u32>(),
        40,
        "no stone is lost"
    );
    assert_eq!(bosh.status, Status::InProgress);
}

/// Ended by the rules of endless play, the round is followed by the refill of §3.4 like any other.
#[test]
fn the_match_goes_on_after_a_round_ended_by_repetition() {
    let options = Options::default();
    let mut game = AnyGame::new_match(GameKind::Bosh, &options);
    let mut across = AcrossTurns::start(GameKind::Bosh, &options, &game);
    let mut rng = Rng::new(40);
    while game.status() == Status::InProgress {
        let moves = game.legal_moves();
        let mv = moves[rng.below(moves.len())];
        let seat = game.to_move().unwrap_or(S);
        let mut trace = Vec::new();
        game.play(&mv, &mut trace).unwrap();
        across.after_move(&mut game, seat, &mut trace);
    }
    assert_eq!(game.status(), Status::RoundOver);
    game.play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .expect("the next round starts");
    assert_eq!((game.status(), game.game_number()), (Status::InProgress, 2));
    assert_eq!(across.after_move(&mut game, N, &mut Vec::new()), None);
    assert_eq!(across.occurrences(&game), 1, "a new round counts afresh");
}
