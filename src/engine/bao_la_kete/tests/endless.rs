//! §1 "How such a game ends", Bao la Kete: a game ended by repetition or agreement is won by the player
//! with more seeds in his sixteen holes and his reserve, and drawn with equal seeds (a drawn game counts for
//! neither and the next game is begun by the other player).

use super::*;
use crate::engine::Game;

/// More seeds (holes and reserve) wins the game; the match goes on at 1–0.
#[test]
fn repetition_gives_the_game_to_the_player_with_more_seeds() {
    // South: 6 + 2 in holes and 3 in reserve (11); North: 9 in holes and no reserve (9).
    let south = side([0, 0, 0, 0, 6, 2, 0, 0], EMPTY_ROW, 3, true);
    let north = side([0, 0, 0, 4, 5, 0, 0, 0], EMPTY_ROW, 0, true);
    let mut g = game(south, north, N);
    let mut events = Vec::new();
    g.end_across_turns(EndReason::Repetition, &mut events);
    assert_eq!(game_end(&events), Some((EndReason::Repetition, Some(S))));
    assert_eq!(
        (g.status, g.winner, g.match_score),
        (Status::GameOver, Some(S), [1, 0])
    );
    assert_eq!(g.pits.iter().sum::<u8>(), 17, "the board stays as it was");
}

/// A back-row seed counts as much as a front-row one; equal seeds draw the game, which counts for neither, and
/// the other player begins the next (the starter rule names a loser or winner, and a draw has neither).
#[test]
fn agreement_with_equal_seeds_draws_the_game_and_the_other_player_begins_the_next() {
    let south = side([0, 0, 0, 0, 6, 2, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0], 0, false);
    let north = side([0, 0, 0, 4, 5, 0, 0, 0], EMPTY_ROW, 0, false);
    let mut g = game(south, north, N);
    g.starter_rule = StarterRule::LoserStarts;
    let mut events = Vec::new();
    g.end_across_turns(EndReason::Agreement, &mut events);
    assert_eq!(game_end(&events), Some((EndReason::Agreement, None)));
    assert_eq!(
        (g.status, g.winner, g.match_score),
        (Status::GameOver, None, [0, 0])
    );
    // The drawn game is valid as a state: the stateless calls accept it and start game 2.
    let again = BaoLaKete::from_setup(&g.to_setup()).expect("a drawn game is a valid state");
    assert_eq!(again, g);
    g.play(&Move::NextGame(PitSet::EMPTY), &mut NoTrace)
        .expect("the next game starts");
    assert_eq!(
        (g.game_number, g.game_starter, g.match_score),
        (2, N, [0, 0])
    );
}

/// A game ending by repetition that gives a player his second win ends the match.
#[test]
fn a_second_win_by_repetition_ends_the_match() {
    let south = side([0, 0, 0, 0, 6, 2, 0, 0], EMPTY_ROW, 0, false);
    let north = side([0, 0, 0, 1, 0, 0, 0, 0], EMPTY_ROW, 0, false);
    let mut g = game(south, north, S);
    (g.game_number, g.match_score, g.game_starter) = (3, [1, 1], S);
    let mut events = Vec::new();
    g.end_across_turns(EndReason::Repetition, &mut events);
    assert_eq!(
        (g.status, g.winner, g.match_score),
        (Status::MatchOver, Some(S), [2, 1])
    );
    assert!(matches!(
        events.last(),
        Some(Event::MatchEnd {
            winner: Some(S),
            ..
        })
    ));
}

/// Nothing happens between games: only a game in progress ends so.
#[test]
fn an_ended_game_is_not_ended_again() {
    let south = side([0, 0, 0, 0, 6, 2, 0, 0], EMPTY_ROW, 0, false);
    let mut g = game(south, side(EMPTY_ROW, EMPTY_ROW, 0, false), S);
    g.end_across_turns(EndReason::Repetition, &mut NoTrace);
    let before = g.clone();
    let mut events = Vec::new();
    g.end_across_turns(EndReason::Agreement, &mut events);
    assert_eq!((g, events), (before, Vec::new()));
}
