//! Steering for or away from a repetition (§1 "Repetition"): a bot in a match knows the positions of the game so
//! far, which a search from one position does not. A root move that brings a position about for the third time
//! ends the game there, as the game's rule for such an ending says; it is valued by that ending instead of by the
//! search, so that a bot repeats when the ending is better for it than playing on and avoids it when worse.

use super::{Judge, MoveValue, Suggestion};
use crate::engine::across_turns::AcrossTurns;
use crate::engine::{AnyGame, EndReason, NoTrace, Player, Status};

/// The value for `side` of `game` once play has stopped.
fn outcome(game: &AnyGame, side: Player) -> f64 {
    match game {
        AnyGame::BaoLaKete(g) => g.outcome(side),
        AnyGame::BaAwa(g) => g.outcome(side),
        AnyGame::Bosh(g) => g.outcome(side),
    }
}

/// The value for `side` of playing `mv` in `game` when it ends the game by repetition, `None` when it does not.
fn repetition_value(
    game: &AnyGame,
    mv: &MoveValue,
    side: Player,
    across: &AcrossTurns,
) -> Option<f64> {
    let mut next = game.clone();
    next.play(&mv.mv, &mut NoTrace).ok()?;
    if next.status() != Status::InProgress || across.occurrences(&next) < 2 {
        return None;
    }
    next.end_across_turns(EndReason::Repetition, &mut NoTrace);
    Some(outcome(&next, side))
}

/// Revalues the moves of `suggestion` (made for a position of `game`) that would end the game by repetition in
/// the match `across` keeps, and puts the best first. Nothing changes when the match's rule is off or no move
/// repeats a position twice seen.
pub fn steer(suggestion: &mut Suggestion, game: &AnyGame, across: &AcrossTurns) {
    if !across.repetition() || game.status() != Status::InProgress {
        return;
    }
    let side = suggestion.side;
    let mut changed = false;
    for mv in &mut suggestion.moves {
        if let Some(value) = repetition_value(game, mv, side, across) {
            mv.value = value;
            changed = true;
        }
    }
    if !changed {
        return;
    }
    // Stable: among equal values the search's own order (its choice first) stands.
    suggestion.moves.sort_by(|a, b| b.value.total_cmp(&a.value));
    let (best, value) = (suggestion.moves[0].mv, suggestion.moves[0].value);
    if best != suggestion.best {
        suggestion.pv = vec![best];
    }
    suggestion.best = best;
    suggestion.value = value;
}
