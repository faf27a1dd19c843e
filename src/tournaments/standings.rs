//! The standings: points, and the tie-breaks Buchholz and Sonneborn-Berger, as docs/guide/tournaments.md defines
//! them. Points are counted in halves and Sonneborn-Berger in quarters, so that every figure is exact.
//!
//! - A win is 1 point, a draw 1/2, a loss 0, a match ended with no result 0 to both, a Swiss bye 1, a free round
//!   (idle) 0. Only boards with a recorded outcome count.
//! - Buchholz: the sum of the points of every opponent met on a board with an outcome (a no-result board too).
//! - Sonneborn-Berger: the points of every opponent beaten, plus half the points of every opponent drawn with.
//! - Order: points, Buchholz, Sonneborn-Berger (each higher first), then the seed (lower first).

use super::record::Outcome;
use super::state::Tournament;
use std::collections::HashMap;

/// One entrant's line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The entrant.
    pub entrant: String,
    /// His seed.
    pub seed: u32,
    /// Points, in halves.
    pub half_points: u32,
    /// Buchholz, in halves.
    pub buchholz_halves: u32,
    /// Sonneborn-Berger, in quarters.
    pub sonneborn_berger_quarters: u32,
    /// Boards won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost (or ended with no result).
    pub losses: u32,
    /// Byes.
    pub byes: u32,
    /// Boards at South (paired, whether played out yet or not).
    pub south: u32,
    /// At North.
    pub north: u32,
    /// Whether he has withdrawn.
    pub withdrawn: bool,
}

/// An entrant's half points from one board: his own and his opponent's.
fn halves(outcome: Outcome, at_south: bool) -> u32 {
    match (outcome, at_south) {
        (Outcome::SouthWon, true) | (Outcome::NorthWon, false) => 2,
        (Outcome::Draw, _) => 1,
        _ => 0,
    }
}

/// Every entrant's points, in halves.
pub fn half_points(t: &Tournament) -> HashMap<&str, u32> {
    let mut points: HashMap<&str, u32> = t.entrants.iter().map(|e| (e.id.as_str(), 0)).collect();
    for round in &t.rounds {
        for (board, outcome) in &round.boards {
            let Some(outcome) = outcome else { continue };
            *points.entry(&board.south).or_default() += halves(*outcome, true);
            *points.entry(&board.north).or_default() += halves(*outcome, false);
        }
        if let Some(bye) = &round.bye {
            *points.entry(bye).or_default() += 2;
        }
    }
    points
}

/// The standings, best first.
pub fn standings(t: &Tournament) -> Vec<Line> {
    let points = half_points(t);
    let mut lines: Vec<Line> = t
        .entrants
        .iter()
        .map(|e| Line {
            entrant: e.id.clone(),
            seed: e.seed,
            half_points: points.get(e.id.as_str()).copied().unwrap_or(0),
            withdrawn: e.withdrawn,
            ..Line::default()
        })
        .collect();
    let index: HashMap<String, usize> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| (l.entrant.clone(), i))
        .collect();
    for round in &t.rounds {
        if let Some(line) = round.bye.as_ref().and_then(|b| index.get(b)) {
            lines[*line].byes += 1;
        }
        for (board, outcome) in &round.boards {
            for (me, other, at_south) in [
                (&board.south, &board.north, true),
                (&board.north, &board.south, false),
            ] {
                let Some(&i) = index.get(me) else { continue };
                if at_south {
                    lines[i].south += 1;
                } else {
                    lines[i].north += 1;
                }
                let Some(outcome) = outcome else { continue };
                let theirs = points.get(other.as_str()).copied().unwrap_or(0);
                let line = &mut lines[i];
                line.buchholz_halves += theirs;
                match halves(*outcome, at_south) {
                    2 => {
                        line.wins += 1;
                        line.sonneborn_berger_quarters += 2 * theirs;
                    }
                    1 => {
                        line.draws += 1;
                        line.sonneborn_berger_quarters += theirs;
                    }
                    _ => line.losses += 1,
                }
            }
        }
    }
    lines.sort_by(|a, b| {
        b.half_points
            .cmp(&a.half_points)
            .then(b.buchholz_halves.cmp(&a.buchholz_halves))
            .then(
                b.sonneborn_berger_quarters
                    .cmp(&a.sonneborn_berger_quarters),
            )
            .then(a.seed.cmp(&b.seed))
    });
    lines
}
