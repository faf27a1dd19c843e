//! §2.9: match play, the games of a match and their starters.

use super::*;

pub(super) fn won_game(winner: Player) -> BaoLaKete {
    let mut game = BaoLaKete::new_match(&Options::default());
    game.end_game(winner, EndReason::NoLegalMove, &mut NoTrace);
    game
}

/// §2.9, R-2.12: a game won leaves the match on GAME_OVER; NextGame (with no pits) starts the next game from
/// the opening, begun by the other player.
#[test]
fn the_next_game_starts_from_the_opening_with_the_other_starter() {
    let mut game = won_game(S);
    assert_eq!(
        (game.status, game.winner, game.match_score),
        (Status::GameOver, Some(S), [1, 0])
    );
    assert_eq!(legal(&game), vec![Move::NextGame(PitSet::EMPTY)]);
    assert_eq!(
        refuse(&game, Move::NextGame(PitSet(1))).reason,
        Reason::InvalidChoice
    );
    assert_eq!(refuse(&game, sow(f(S, 6), CW)).reason, Reason::GameOver);
    play(&mut game, Move::NextGame(PitSet::EMPTY));
    assert_eq!(game.status, Status::InProgress);
    assert_eq!(
        (game.game_number, game.game_starter, game.to_move),
        (2, N, Some(N))
    );
    assert_eq!(game.match_score, [1, 0]);
    assert_eq!(game.reserves, [22, 22]);
    assert_eq!(front(&game, N), [0, 0, 0, 0, 6, 2, 2, 0]);
    assert_eq!(
        refuse(&game, Move::NextGame(PitSet::EMPTY)).reason,
        Reason::GameInProgress
    );
}

/// §2.9: the match ends as soon as a player has won two games.
#[test]
fn the_match_ends_at_two_games_won() {
    let mut game = won_game(N);
    play(&mut game, Move::NextGame(PitSet::EMPTY));
    let mut events = Vec::new();
    game.end_game(N, EndReason::BaoHamna, &mut events);
    assert_eq!(game.status, Status::MatchOver);
    assert_eq!(game.winner, Some(N));
    assert_eq!(
        events.last(),
        Some(&Event::MatchEnd {
            winner: Some(N),
            score: PerSeat::two([0, 2]),
            placing: PerSeat::NONE,
        })
    );
    assert!(legal(&game).is_empty());
    assert_eq!(
        refuse(&game, Move::NextGame(PitSet::EMPTY)).reason,
        Reason::MatchOver
    );
    assert_eq!(refuse(&game, sow(f(S, 6), CW)).reason, Reason::MatchOver);
    assert!(BaoLaKete::from_setup(&game.to_setup()).is_ok());
}

/// who begins games 2 and 3 is a match option: alternately (the default), the loser, or the winner. The
/// state carries it, so a stateless caller's `NextGame` follows it too.
#[test]
fn the_starter_of_later_games_follows_the_match_option() {
    let cases = [
        (StarterRule::Alternate, S, N),
        (StarterRule::Alternate, N, N),
        (StarterRule::LoserStarts, S, N),
        (StarterRule::LoserStarts, N, S),
        (StarterRule::WinnerStarts, S, S),
        (StarterRule::WinnerStarts, N, N),
    ];
    for (rule, winner, next) in cases {
        let mut game = BaoLaKete::new_match(&Options {
            bao_la_kete_starter: rule,
            ..Options::default()
        });
        game.end_game(winner, EndReason::NoLegalMove, &mut NoTrace);
        let game = BaoLaKete::from_setup(&game.to_setup()).expect("a finished game");
        let mut next_game = game.clone();
        play(&mut next_game, Move::NextGame(PitSet::EMPTY));
        assert_eq!(
            (next_game.game_starter, next_game.to_move),
            (next, Some(next)),
            "{rule:?}, {winner} won game 1 (begun by South)"
        );
        assert_eq!(next_game.starter_rule, rule, "kept for game 3");
    }
}

/// the options choose who begins game 1.
#[test]
fn the_first_player_is_configurable() {
    let game = BaoLaKete::new_match(&Options {
        first_player: N,
        ..Options::default()
    });
    assert_eq!((game.to_move, game.game_starter), (Some(N), N));
    assert_eq!(legal(&game).len(), 4);
}
