//! Ending a game by agreement (§1 "By agreement"): a seat offers, the others accept (or one declines), the
//! maker may withdraw, and an offer lapses when its maker moves. With three players every seat still in must
//! agree. Like lichess's draw offers, an offer made while another stands accepts it.

use crate::engine::{AnyGame, Player, Status};

/// What a seat does about ending the game being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgreementAction {
    /// Proposes to end the game (or accepts a standing proposal).
    Offer,
    /// Agrees to the standing proposal of another seat.
    Accept,
    /// Refuses the standing proposal: it is gone, for every seat.
    Decline,
    /// Takes back this seat's own offer or acceptance.
    Withdraw,
}

/// Why an agreement action is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgreementRefusal {
    /// No game is being played (between games, or the match is over).
    NoGameInPlay,
    /// The seat is not in the game (eliminated in three-player Ba-awa, or not seated).
    NotInGame,
    /// Accept or decline with no proposal of another seat standing.
    NothingToAnswer,
    /// Offer or accept from a seat that already agrees.
    AlreadyAgreed,
    /// Withdraw from a seat that does not agree.
    NothingToWithdraw,
}

impl AgreementRefusal {
    /// A stable name for error details (`NO_GAME_IN_PLAY` …).
    pub fn code(self) -> &'static str {
        match self {
            AgreementRefusal::NoGameInPlay => "NO_GAME_IN_PLAY",
            AgreementRefusal::NotInGame => "NOT_IN_GAME",
            AgreementRefusal::NothingToAnswer => "NO_OFFER_STANDING",
            AgreementRefusal::AlreadyAgreed => "ALREADY_AGREED",
            AgreementRefusal::NothingToWithdraw => "NO_OFFER_TO_WITHDRAW",
        }
    }

    /// The readable explanation.
    pub fn detail(self) -> &'static str {
        match self {
            AgreementRefusal::NoGameInPlay => {
                "no game is being played: an end can be agreed only during a game (§1 \"By agreement\")"
            }
            AgreementRefusal::NotInGame => "this seat is not in the game, so it has no say in ending it",
            AgreementRefusal::NothingToAnswer => {
                "no other seat has offered to end the game: there is nothing to accept or decline"
            }
            AgreementRefusal::AlreadyAgreed => "this seat already agrees to end the game",
            AgreementRefusal::NothingToWithdraw => {
                "this seat has not offered or accepted an end of the game: there is nothing to withdraw"
            }
        }
    }
}

impl std::fmt::Display for AgreementRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.detail())
    }
}

/// The seats that agree to end the game being played, one bit per seat index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Agreement(u8);

impl Agreement {
    /// Whether `seat` agrees.
    pub fn agrees(self, seat: Player) -> bool {
        self.0 >> seat.index() & 1 == 1
    }

    /// Whether any seat has offered.
    pub fn is_open(self) -> bool {
        self.0 != 0
    }

    /// The seats that agree, in index order.
    pub fn seats(self) -> impl Iterator<Item = Player> {
        Player::ALL
            .into_iter()
            .filter(move |&seat| self.agrees(seat))
    }

    /// Why `seat` may not take `action` on `game` now, if he may not.
    pub fn check(
        self,
        game: &AnyGame,
        seat: Player,
        action: AgreementAction,
    ) -> Result<(), AgreementRefusal> {
        if game.status() != Status::InProgress {
            return Err(AgreementRefusal::NoGameInPlay);
        }
        if !game.in_match(seat) {
            return Err(AgreementRefusal::NotInGame);
        }
        let others = self.0 & !(1 << seat.index()) != 0;
        match action {
            AgreementAction::Offer if self.agrees(seat) => Err(AgreementRefusal::AlreadyAgreed),
            AgreementAction::Accept if self.agrees(seat) => Err(AgreementRefusal::AlreadyAgreed),
            AgreementAction::Accept | AgreementAction::Decline if !others => {
                Err(AgreementRefusal::NothingToAnswer)
            }
            AgreementAction::Decline if self.agrees(seat) => Err(AgreementRefusal::AlreadyAgreed),
            AgreementAction::Withdraw if !self.agrees(seat) => {
                Err(AgreementRefusal::NothingToWithdraw)
            }
            _ => Ok(()),
        }
    }

    /// Applies a checked action; whether every seat still in now agrees (the game ends by agreement).
    pub(super) fn apply(&mut self, game: &AnyGame, seat: Player, action: AgreementAction) -> bool {
        match action {
            AgreementAction::Offer | AgreementAction::Accept => self.0 |= 1 << seat.index(),
            AgreementAction::Decline => self.0 = 0,
            AgreementAction::Withdraw => self.0 &= !(1 << seat.index()),
        }
        Player::seated(game.seats())
            .iter()
            .filter(|&&s| game.in_match(s))
            .all(|&s| self.agrees(s))
    }

    /// `seat` moved: his offer or acceptance lapses.
    pub(super) fn lapse(&mut self, seat: Player) {
        self.0 &= !(1 << seat.index());
    }
}
