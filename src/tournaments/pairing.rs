//! Who plays whom in the next round, and who sits where: the Monrad Swiss with no rematches, the round robin's
//! circle, and the seat rule both share (docs/guide/tournaments.md). Pure: entrant ids in, pairs out.

use std::collections::{HashMap, HashSet};

/// The most steps the Swiss search takes before it gives up (the tournament then ends early): far more than any
/// pairing with a few dozen entrants needs, small enough to answer at once.
const SEARCH_STEPS: u32 = 200_000;

/// What the rounds so far say about the entrants: who has met whom, who has had the bye, who sat where.
#[derive(Clone, Debug, Default)]
pub struct History {
    met: HashSet<(String, String)>,
    byes: HashSet<String>,
    /// Per entrant: boards at South, boards at North, and whether his last board was at South.
    seats: HashMap<String, (u32, u32, Option<bool>)>,
}

impl History {
    /// Records a board: `south` met `north`.
    pub fn board(&mut self, south: &str, north: &str) {
        self.met.insert((south.to_string(), north.to_string()));
        self.met.insert((north.to_string(), south.to_string()));
        for (who, at_south) in [(south, true), (north, false)] {
            let seats = self.seats.entry(who.to_string()).or_default();
            if at_south {
                seats.0 += 1;
            } else {
                seats.1 += 1;
            }
            seats.2 = Some(at_south);
        }
    }

    /// Records a bye.
    pub fn bye(&mut self, who: &str) {
        self.byes.insert(who.to_string());
    }

    /// Whether `a` and `b` have met.
    pub fn met(&self, a: &str, b: &str) -> bool {
        self.met.contains(&(a.to_string(), b.to_string()))
    }

    /// How often `who` has sat South and North.
    pub fn seats_of(&self, who: &str) -> (u32, u32) {
        self.seats
            .get(who)
            .map_or((0, 0), |&(south, north, _)| (south, north))
    }

    /// Whether `who` has had a bye.
    pub fn had_bye(&self, who: &str) -> bool {
        self.byes.contains(who)
    }

    /// `(higher, lower)` as `(South, North)`: South to the one who has sat South less often (South minus North),
    /// then to the one who sat North on his last board, then to `higher`.
    pub fn seat(&self, higher: &str, lower: &str) -> (String, String) {
        let of = |who: &str| self.seats.get(who).copied().unwrap_or_default();
        let (hs, hn, h_last) = of(higher);
        let (ls, ln, l_last) = of(lower);
        let balance = |s: u32, n: u32| i64::from(s) - i64::from(n);
        let lower_first = match balance(hs, hn).cmp(&balance(ls, ln)) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => h_last == Some(true) && l_last != Some(true),
        };
        if lower_first {
            (lower.to_string(), higher.to_string())
        } else {
            (higher.to_string(), lower.to_string())
        }
    }
}

/// A Swiss round's pairing: the boards (South, North) and the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The boards, in the order of their higher-ranked entrant.
    pub boards: Vec<(String, String)>,
    /// Who has the bye, with an odd number.
    pub bye: Option<String>,
}

/// The Monrad pairing of `ranked` (the active entrants, best first: points, then seed): with an odd number the
/// lowest ranked who has not had a bye gets it; then top down, each unpaired entrant meets the next one below him
/// he has not met, backtracking when the rest cannot be paired so. `None` when no pairing without a rematch (or
/// without a second bye) exists, or none was found within the search's steps.
pub fn swiss(ranked: &[String], history: &History) -> Option<Pairing> {
    let mut steps = SEARCH_STEPS;
    if ranked.len() % 2 == 0 {
        let boards = pair_all(ranked, history, &mut steps)?;
        return Some(Pairing { boards, bye: None });
    }
    for (at, candidate) in ranked.iter().enumerate().rev() {
        if history.had_bye(candidate) {
            continue;
        }
        let rest: Vec<String> = ranked
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != at)
            .map(|(_, e)| e.clone())
            .collect();
        if let Some(boards) = pair_all(&rest, history, &mut steps) {
            return Some(Pairing {
                boards,
                bye: Some(candidate.clone()),
            });
        }
    }
    None
}

fn pair_all(
    ranked: &[String],
    history: &History,
    steps: &mut u32,
) -> Option<Vec<(String, String)>> {
    let mut used = vec![false; ranked.len()];
    let mut pairs = Vec::with_capacity(ranked.len() / 2);
    if !pair_rest(ranked, history, &mut used, &mut pairs, steps) {
        return None;
    }
    Some(
        pairs
            .into_iter()
            .map(|(a, b)| history.seat(&ranked[a], &ranked[b]))
            .collect(),
    )
}

fn pair_rest(
    ranked: &[String],
    history: &History,
    used: &mut [bool],
    pairs: &mut Vec<(usize, usize)>,
    steps: &mut u32,
) -> bool {
    let Some(first) = used.iter().position(|u| !u) else {
        return true;
    };
    used[first] = true;
    for other in first + 1..ranked.len() {
        if used[other] || history.met(&ranked[first], &ranked[other]) {
            continue;
        }
        if *steps == 0 {
            break;
        }
        *steps -= 1;
        used[other] = true;
        pairs.push((first, other));
        if pair_rest(ranked, history, used, pairs, steps) {
            return true;
        }
        pairs.pop();
        used[other] = false;
    }
    used[first] = false;
    false
}

/// Round `round` (from 1) of the round robin of `participants` (seed order) by the circle method: the last
/// participant (a "nobody" with an odd number) stays put while the others turn one place a round. Each pair is
/// `(South, North)`, `None` for the nobody; `round` past the schedule gives none.
///
/// The seats follow the principle of Berger's tables: the one who stays put sits South in odd rounds and North in
/// even ones; on every other board the one ahead on the circle sits South. Each participant who turns is so ahead
/// as often as behind, so every participant's Souths and Norths differ by one at most (by none with an odd number,
/// the nobody being the one who stays put).
pub fn round_robin(participants: &[String], round: u32) -> Vec<(Option<String>, Option<String>)> {
    let mut all: Vec<Option<String>> = participants.iter().cloned().map(Some).collect();
    if all.len() % 2 == 1 {
        all.push(None);
    }
    let m = all.len();
    let k = round.saturating_sub(1) as usize;
    if m < 2 || k >= m - 1 {
        return Vec::new();
    }
    let ring: Vec<&Option<String>> = (0..m - 1).map(|i| &all[(i + k) % (m - 1)]).collect();
    let fixed = all[m - 1].clone();
    let mut pairs = vec![if k % 2 == 0 {
        (fixed, ring[0].clone())
    } else {
        (ring[0].clone(), fixed)
    }];
    for i in 1..m / 2 {
        pairs.push((ring[i].clone(), ring[m - 1 - i].clone()));
    }
    pairs
}
