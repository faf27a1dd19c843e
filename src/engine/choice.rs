//! Which seat makes each between-games choice, and the check that a `NextGame` carries only its sender's own
//! choices. The engine plays a `NextGame` without knowing who sent it (a stateless client may hold every seat),
//! so the seat is checked here, by whoever knows it: the server-held match before it appends a `NextGame`, and the
//! notation's replay of a text log.
//!
//! - Bosh, §3.4 step 4: each player chooses which of his own holes open; nobody chooses for the other.
//! - Ba-awa, §4.4 step 3: the player who won more than six pits chooses which of the opponent's pits he
//!   takes; with six each there is nothing to choose.
//! - Three-player Ba-awa, §4.7 step 4, and Bao la Kete: no choice at all (the engine refuses any pits).
//!
//! A `NextGame` with no pits is the rules' default and not a choice: any seated player may send it.

use super::{AnyGame, Move, PitSet, Player, Status};

/// Who may choose between the game or round that has just ended and the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chooser {
    /// Nothing to choose: the game is in progress, the match is over, or the rules give no choice.
    Nobody,
    /// Ba-awa: this seat, the one that won more than six pits, chooses the opponent's pits it takes (§4.4 step 3).
    Seat(Player),
    /// Bosh: every player chooses his own row's holes (§3.4 step 4).
    EachOwnRow,
}

/// A `NextGame` that chooses for a seat other than its sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotYourChoice {
    /// The seat that sent it.
    pub sender: Player,
    /// The seat whose choice it made.
    pub chooser: Player,
    /// The rule that names the chooser, as RULES.md cites it.
    pub rule: &'static str,
    /// What was wrong and what to send instead, in a sentence.
    pub message: String,
}

impl std::fmt::Display for NotYourChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl AnyGame {
    /// Who may choose the next game's opening now (see [`Chooser`]).
    pub fn chooser(&self) -> Chooser {
        match (self, self.status()) {
            (AnyGame::Bosh(_), Status::RoundOver) => Chooser::EachOwnRow,
            (AnyGame::BaAwa(game), Status::GameOver) if game.seats() == 2 => {
                let stores = game.stores();
                Player::BOTH
                    .into_iter()
                    .find(|&seat| stores.get(seat) / 4 > 6)
                    .map_or(Chooser::Nobody, Chooser::Seat)
            }
            _ => Chooser::Nobody,
        }
    }

    /// Refuses a `NextGame` from `sender` that chooses for another seat. Everything else passes, for the
    /// engine's own checks: a sowing, a `NextGame` with no pits, and a choice where the rules give none (which the
    /// engine refuses as `INVALID_CHOICE`, whoever sends it).
    pub fn check_chooser(&self, sender: Player, mv: &Move) -> Result<(), NotYourChoice> {
        let Move::NextGame(choice) = *mv else {
            return Ok(());
        };
        if choice.is_empty() {
            return Ok(());
        }
        match self.chooser() {
            Chooser::Nobody => Ok(()),
            Chooser::Seat(chooser) if chooser == sender => Ok(()),
            Chooser::Seat(chooser) => Err(NotYourChoice {
                sender,
                chooser,
                rule: "§4.4 step 3",
                message: format!(
                    "{chooser} won more than six pits, so {chooser} chooses which of {sender}'s pits he takes \
                     (§4.4 step 3, R-4.3); {sender} may start the next game only with the default (no pits)"
                ),
            }),
            Chooser::EachOwnRow => {
                let foreign = PitSet(choice.0 & !bosh_row(sender));
                match foreign.iter().next() {
                    None => Ok(()),
                    Some(hole) => {
                        let chooser = if hole < 5 {
                            Player::South
                        } else {
                            Player::North
                        };
                        Err(NotYourChoice {
                            sender,
                            chooser,
                            rule: "§3.4 step 4",
                            message: format!(
                                "hole {hole} is {chooser}'s: each player chooses only his own holes (§3.4 step 4, \
                                 R-3.3), so {sender}'s NextGame may list holes of his row alone; {chooser}'s \
                                 holes not chosen by him get the default right-to-left fill"
                            ),
                        })
                    }
                }
            }
        }
    }
}

/// Bosh's holes of `player`'s row as pit bits: South 0–4, North 5–9 (§3.1).
fn bosh_row(player: Player) -> u32 {
    match player {
        Player::South => 0b11111,
        Player::North | Player::East => 0b11111 << 5,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::{GameKind, Options, Setup};

    /// A two-player Ba-awa game just ended with South on `south_pits` fours and North on the rest (§4.4).
    pub(crate) fn ba_awa_over(south_pits: u8) -> AnyGame {
        let mut setup = AnyGame::new_match(GameKind::BaAwa, &Options::default()).to_setup();
        setup.pits = vec![0; 12].into();
        let pits = [u32::from(south_pits), 12 - u32::from(south_pits)];
        setup.stores = pits.map(|p| 4 * p).to_vec().into();
        setup.match_score = pits.to_vec().into();
        let winner = match pits[0].cmp(&pits[1]) {
            std::cmp::Ordering::Greater => Some(Player::South),
            std::cmp::Ordering::Less => Some(Player::North),
            std::cmp::Ordering::Equal => None,
        };
        finished(setup, Status::GameOver, winner)
    }

    fn next(pits: &[usize]) -> Move {
        Move::NextGame(pits.iter().fold(PitSet::EMPTY, |set, &p| set.with(p)))
    }

    /// `setup` with an empty board, at the end of its game or round, won by `winner`.
    fn finished(mut setup: Setup, status: Status, winner: Option<Player>) -> AnyGame {
        setup.status = Some(status);
        setup.to_move = None;
        setup.winner = winner;
        AnyGame::from_setup(&setup).expect("a valid finished state")
    }

    #[test]
    fn ba_awa_surplus_player_alone_chooses_the_pits_he_takes() {
        // §4.4 step 3: South won 8 pits, so he takes two of North's, and only he picks which.
        let game = ba_awa_over(8);
        assert_eq!(game.chooser(), Chooser::Seat(Player::South));
        assert!(game.check_chooser(Player::South, &next(&[9, 11])).is_ok());
        let refused = game
            .check_chooser(Player::North, &next(&[9, 11]))
            .unwrap_err();
        assert_eq!(refused.chooser, Player::South);
        assert_eq!(refused.rule, "§4.4 step 3");
        // The default is the continuation, not a choice: either seat sends it.
        assert!(game.check_chooser(Player::North, &next(&[])).is_ok());
    }

    #[test]
    fn ba_awa_six_each_has_no_chooser() {
        // §4.4 step 3: with six each nobody takes any pit; the engine refuses pits from anyone.
        let game = ba_awa_over(6);
        assert_eq!(game.chooser(), Chooser::Nobody);
        assert!(game.check_chooser(Player::North, &next(&[0])).is_ok());
        assert!(game.check(&next(&[0])).is_err());
    }

    #[test]
    fn bosh_each_player_chooses_only_his_own_holes() {
        // §3.4 step 4: a Bosh round played out; South may list S holes, North N holes, neither the other's.
        let mut setup = AnyGame::new_match(GameKind::Bosh, &Options::default()).to_setup();
        setup.pits = vec![0; 10].into();
        setup.stores = vec![12, 28].into();
        let game = finished(setup, Status::RoundOver, Some(Player::North));
        assert_eq!(game.chooser(), Chooser::EachOwnRow);
        assert!(game.check_chooser(Player::South, &next(&[0, 1])).is_ok());
        assert!(game.check_chooser(Player::North, &next(&[5])).is_ok());
        let refused = game
            .check_chooser(Player::South, &next(&[0, 7]))
            .unwrap_err();
        assert_eq!(
            (refused.sender, refused.chooser),
            (Player::South, Player::North)
        );
        let refused = game.check_chooser(Player::North, &next(&[2])).unwrap_err();
        assert_eq!(refused.chooser, Player::South);
    }

    #[test]
    fn a_sowing_and_a_game_in_progress_have_no_chooser() {
        let game = AnyGame::new_match(GameKind::Bosh, &Options::default());
        assert_eq!(game.chooser(), Chooser::Nobody);
        assert!(game.check_chooser(Player::North, &next(&[0])).is_ok());
    }
}
