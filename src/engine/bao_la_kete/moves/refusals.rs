//! The texts of a refused move, one per rule it breaks (static, so refusing a move never allocates), and the
//! refusal of a move that could not be played to its end.

use super::super::execute::Halt;
use crate::engine::{IllegalMove, Reason};

macro_rules! per_hole {
    ($before:literal, $after:literal) => {
        [
            concat!($before, "f1", $after),
            concat!($before, "f2", $after),
            concat!($before, "f3", $after),
            concat!($before, "f4", $after),
            concat!($before, "f5", $after),
            concat!($before, "f6", $after),
            concat!($before, "f7", $after),
            concat!($before, "f8", $after),
            concat!($before, "b1", $after),
            concat!($before, "b2", $after),
            concat!($before, "b3", $after),
            concat!($before, "b4", $after),
            concat!($before, "b5", $after),
            concat!($before, "b6", $after),
            concat!($before, "b7", $after),
            concat!($before, "b8", $after),
        ]
    };
}

pub(super) const CAPTURE_AVAILABLE: [&str; 16] = per_hole!(
    "a capture is available at ",
    ", so a takata is not allowed: captures are mandatory (§2.4)"
);
pub(super) const MARKED_HOLE_FIRST: [&str; 16] = per_hole!(
    "your last takata reserved the opponent's ",
    " by hizi zetu, so this move must capture it first (§2.8, R-2.9)"
);
pub(super) const TOO_MANY_TO_CAPTURE: &str =
    "a hole with 16 or more seeds cannot capture (16-seed rule, §2.4), and a capture is \
                                   available, so this takata is not allowed";
pub(super) const NO_SUCH_PIT: &str = "Bao la Kete has holes 0 to 31";
pub(super) const NOT_YOUR_PIT: &str =
    "the hole is the opponent's; a player sows only round his own two rows (§2.2)";
pub(super) const NEMO_FRONT_ONLY: &str =
    "in the nemo stage the reserve seed goes into a hole of the front row (§2.5)";
pub(super) const NEMO_EMPTY: &str =
    "in the nemo stage the reserve seed goes into an occupied front hole (§2.5)";
pub(super) const EMPTY: &str = "the hole is empty";
pub(super) const NEMO_KUU_NOT_ALONE: &str =
    "while the kuu lives, the takata seed goes into the kuu only when it is the only \
                                  occupied front hole (§2.5 N-2)";
pub(super) const NEMO_SINGLETON: &str =
    "with the kuu gone, a takata starts from a front hole holding 2 or more seeds while \
                              there is one (§2.5 N-2)";
pub(super) const MTAJI_SINGLETON: &str =
    "single seeds are never sown in the mtaji stage (§2.6 M-2)";
pub(super) const KUU_MUST_START: &str =
    "while the kuu lives, a mtaji takata must start from it (§2.6 M-2, the Lamu rule)";
pub(super) const MTAJI_BACK_ROW: &str =
    "a takata starts from the back row only when the front row holds nothing but single \
                              seeds (§2.6 M-2)";
pub(super) const MARKED: &str =
    "the hole is reserved by hizi zetu: no move may start from it (§2.8)";
pub(super) const TOWARD_CENTRE: &str =
    "a lone kichwa must be sown toward the centre: f1 clockwise, f8 anticlockwise (§2.5 \
                             N-2, R-2.7)";
pub(super) const NEMO_CAPTURE_DIRECTION: &str =
    "a nemo capture move's direction is set by the capture; leave the direction \
                                      unspecified (§2.7 B3)";
pub(super) const KICHWA_REQUIRED: &str =
    "a capture at a central hole (f3–f6) is sown from the kichwa the mover chooses: give \
                               the kichwa (§2.7 B3)";
pub(super) const KICHWA_FIXED: &str =
    "a capture at f1, f2, f7 or f8 is sown from the kichwa on its own side; leave the kichwa \
                            unspecified (§2.7 B3)";
pub(super) const KICHWA_NOT_OFFERED: &str =
    "only a nemo capture move at a central hole chooses a kichwa; leave it unspecified";
pub(super) const TAKATA_DIRECTION: &str =
    "a takata needs a direction: clockwise or anticlockwise (§2.5 N-2)";
pub(super) const MTAJI_DIRECTION: &str =
    "a mtaji move needs a direction: clockwise or anticlockwise (§2.6)";
pub(super) const DECISION_NOT_OFFERED: &str =
    "only a nemo capture move decides between stop and safari (§2.7 D); leave it \
                                    unspecified";
pub(crate) const DECISION_NOT_REACHED: &str = "no lap of this move ends in the living kuu without capturing, so there \
                                               is no stop-or-safari decision; leave it unspecified (§2.7 D)";
pub(super) const DECISION_REQUIRED: &str =
    "a lap of this capture move ends in the living kuu: choose stop or safari (§2.7 D)";
pub(super) const NEVER_ENDS: &str =
    "the sowing would never end, so the move is illegal (§1, R-2.14)";

/// The refusal of a move that could not be played to its end.
pub(crate) fn refusal(halt: Halt, pit: u8) -> IllegalMove {
    match halt {
        Halt::NeverEnds => IllegalMove::at(Reason::NeverEndingMove, pit, NEVER_ENDS),
        Halt::KichwaRequired => IllegalMove::at(Reason::ChoiceRequired, pit, KICHWA_REQUIRED),
        Halt::DecisionRequired => IllegalMove::at(Reason::ChoiceRequired, pit, DECISION_REQUIRED),
    }
}
