//! Why a move is illegal: a machine-readable reason and a message naming the pit and the rule.

use super::Status;
use std::fmt;

/// The reason a move is refused (the protocol's `IllegalMoveReason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The pit index is outside the board.
    NoSuchPit,
    /// The pit holds no seed.
    PitEmpty,
    /// The pit is not the mover's.
    NotYourPit,
    /// The game, round or match is over.
    GameOver,
    /// The sowing would never end (docs/common.md §1).
    NeverEndingMove,
    /// `NextGame` while the game is still being played.
    GameInProgress,
    /// The match is over.
    MatchOver,
    /// The `NextGame` choice does not fit the rules.
    InvalidChoice,
    /// Bosh: the hole is closed.
    HoleClosed,
    /// A choice the move needs is missing.
    ChoiceRequired,
    /// A choice was given that the move never asks for.
    ChoiceNotOffered,
    /// Bao la Kete: a capture must be played.
    CaptureIsMandatory,
    /// Bao la Kete: the living kuu must start the takata.
    KuuMustStartTakata,
    /// Bao la Kete: the kuu may not start while other front holes are occupied.
    KuuNotAllowedWhileOtherHolesOccupied,
    /// Bao la Kete: a singleton may not be sown here.
    SingletonNotAllowed,
    /// Bao la Kete: a lone kichwa must be sown toward the centre.
    MustSowTowardCentre,
    /// Bao la Kete: the hole is marked by hizi zetu.
    HoleMarkedHiziZetu,
    /// Bao la Kete: the marked hole must be captured first.
    MustCaptureMarkedHole,
    /// Bao la Kete: a capture must start from 2 to 15 seeds.
    TooManySeedsToCapture,
    /// Bao la Kete: the hole may not start a move now.
    HoleNotAllowed,
}

impl Reason {
    /// The reason code used in `google.rpc.ErrorInfo` ("PIT_EMPTY").
    pub fn code(self) -> &'static str {
        match self {
            Reason::NoSuchPit => "NO_SUCH_PIT",
            Reason::PitEmpty => "PIT_EMPTY",
            Reason::NotYourPit => "NOT_YOUR_PIT",
            Reason::GameOver => "GAME_OVER",
            Reason::NeverEndingMove => "NEVER_ENDING_MOVE",
            Reason::GameInProgress => "GAME_IN_PROGRESS",
            Reason::MatchOver => "MATCH_OVER",
            Reason::InvalidChoice => "INVALID_CHOICE",
            Reason::HoleClosed => "HOLE_CLOSED",
            Reason::ChoiceRequired => "CHOICE_REQUIRED",
            Reason::ChoiceNotOffered => "CHOICE_NOT_OFFERED",
            Reason::CaptureIsMandatory => "CAPTURE_IS_MANDATORY",
            Reason::KuuMustStartTakata => "KUU_MUST_START_TAKATA",
            Reason::KuuNotAllowedWhileOtherHolesOccupied => {
                "KUU_NOT_ALLOWED_WHILE_OTHER_HOLES_OCCUPIED"
            }
            Reason::SingletonNotAllowed => "SINGLETON_NOT_ALLOWED",
            Reason::MustSowTowardCentre => "MUST_SOW_TOWARD_CENTRE",
            Reason::HoleMarkedHiziZetu => "HOLE_MARKED_HIZI_ZETU",
            Reason::MustCaptureMarkedHole => "MUST_CAPTURE_MARKED_HOLE",
            Reason::TooManySeedsToCapture => "TOO_MANY_SEEDS_TO_CAPTURE",
            Reason::HoleNotAllowed => "HOLE_NOT_ALLOWED",
        }
    }
}

/// A refused move. `Copy` and heap-free, so move generation can try moves without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The machine-readable reason.
    pub reason: Reason,
    /// The pit the move names, when it names one.
    pub pit: Option<u8>,
    /// The readable explanation, naming the rule.
    pub detail: &'static str,
}

impl IllegalMove {
    /// A refusal of a move from `pit`.
    pub fn at(reason: Reason, pit: u8, detail: &'static str) -> IllegalMove {
        IllegalMove {
            reason,
            pit: Some(pit),
            detail,
        }
    }

    /// A refusal that names no pit.
    pub fn new(reason: Reason, detail: &'static str) -> IllegalMove {
        IllegalMove {
            reason,
            pit: None,
            detail,
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pit {
            Some(pit) => write!(f, "pit {pit}: {}", self.detail),
            None => f.write_str(self.detail),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Whether `NextGame` may be played in `status`: only once a game (or Bosh round) is over and the match is not
/// (docs/bao-la-kete.md §2.9, docs/bosh.md §3.4, docs/ba-awa.md §4.4). `still_playing` is the refusal's explanation.
pub(crate) fn check_between_games(
    status: Status,
    still_playing: &'static str,
) -> Result<(), IllegalMove> {
    match status {
        Status::InProgress => Err(IllegalMove::new(Reason::GameInProgress, still_playing)),
        Status::MatchOver => Err(IllegalMove::new(Reason::MatchOver, "the match is over")),
        Status::GameOver | Status::RoundOver => Ok(()),
    }
}
