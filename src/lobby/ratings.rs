//! Ratings: Glicko-2 (Glickman's system, as lichess uses it), one rating per player and game, updated after
//! each rated match as a rating period of one match (skillratings' `glicko2`). The new ratings are computed once,
//! by the server that records the match's end, and stored in the lobby entry, so that every replica replaying the
//! log agrees to the last bit.

use crate::engine::Player;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A Glicko-2 rating on the familiar scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    /// The rating (1500 to begin with).
    pub rating: f64,
    /// How uncertain it is (350 to begin with).
    pub deviation: f64,
    /// How erratic the player's results are (0.06 to begin with).
    pub volatility: f64,
}

/// A deviation above this marks a rating as provisional (lichess shows it with a "?").
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

impl Default for Glicko {
    fn default() -> Self {
        let start = Glicko2Rating::new();
        Glicko {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
        }
    }
}

impl Glicko {
    /// Whether the rating is still a first guess.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn skill(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn of(skill: Glicko2Rating) -> Glicko {
        Glicko {
            rating: skill.rating,
            deviation: skill.deviation,
            volatility: skill.volatility,
        }
    }
}

/// South's and North's ratings after a match between them that `winner` won (`None`: a draw).
pub fn after_match(south: Glicko, north: Glicko, winner: Option<Player>) -> [Glicko; 2] {
    let outcome = match winner {
        Some(Player::South) => Outcomes::WIN,
        // The lobby pairs two players only.
        Some(Player::North | Player::East) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (s, n) = glicko2(
        &south.skill(),
        &north.skill(),
        &outcome,
        &Glicko2Config::new(),
    );
    [Glicko::of(s), Glicko::of(n)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_between_newcomers_moves_both_by_the_same_amount() {
        let [s, n] = after_match(Glicko::default(), Glicko::default(), Some(Player::South));
        assert!(s.rating > 1500.0 && n.rating < 1500.0);
        assert!((s.rating - 1500.0 - (1500.0 - n.rating)).abs() < 1e-9);
        // A newcomer's first result moves him a long way (about 160 points) and narrows his deviation.
        assert!((150.0..200.0).contains(&(s.rating - 1500.0)), "{s:?}");
        assert!(s.deviation < 350.0 && s.provisional());
    }

    #[test]
    fn a_draw_moves_the_stronger_player_down() {
        let strong = Glicko {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        let [s, n] = after_match(strong, Glicko::default(), None);
        assert!(s.rating < 1800.0 && n.rating > 1500.0);
        assert!(!s.provisional());
    }

    #[test]
    fn an_upset_moves_more_than_an_expected_result() {
        let strong = Glicko {
            rating: 1900.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let weak = Glicko {
            rating: 1500.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let expected = after_match(strong, weak, Some(Player::South));
        let upset = after_match(strong, weak, Some(Player::North));
        assert!((upset[1].rating - 1500.0) > (expected[0].rating - 1900.0) * 3.0);
    }
}
