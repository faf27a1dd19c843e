//! Hizi zetu, the Lamu name of Zanzibar takasia: docs/bao-la-kete.md §2.8 "When a mark is set". Its effects live where
//! they act: the blockee's start and lap ends in `moves` and `execute` (step E), the setter's obligation in
//! `moves`, the clearing in `execute` and `finish_move`.

use super::{front_row, kuu, BaoLaKete, HiziZetuMark};
use crate::engine::event::{Event, Trace};
use crate::engine::Player;

impl BaoLaKete {
    /// §2.8: after a takata by `setter` with both reserves empty, a lone threatened hole of the opponent is
    /// marked when the opponent threatens nothing (he must takata too), unless it is his living kuu, his only
    /// occupied front hole or his only front hole holding more than one seed. Threats are the first captures of
    /// M-1 moves, whether or not those moves would end.
    pub(crate) fn set_hizi_zetu<T: Trace>(&mut self, setter: Player, trace: &mut T) {
        let blockee = setter.opponent();
        let threatened = self.threatened_holes(setter);
        if threatened.len() != 1 || !self.threatened_holes(blockee).is_empty() {
            return;
        }
        let Some(pit) = threatened.iter().next().map(|p| p as u8) else {
            return;
        };
        if self.is_exempt_from_hizi_zetu(blockee, pit) {
            return;
        }
        self.mark = Some(HiziZetuMark {
            blockee,
            pit,
            setter,
        });
        trace.record(Event::MarkSet {
            blockee,
            pit,
            setter,
        });
    }

    /// §2.8 exceptions (S-2; the reading of §0.3): a living kuu, the only occupied front hole, the only front
    /// hole holding more than one seed.
    fn is_exempt_from_hizi_zetu(&self, blockee: Player, pit: u8) -> bool {
        let seeds = |p: u8| self.pits[p as usize];
        let others = || front_row(blockee).filter(move |&p| p != pit);
        let living_kuu = pit == kuu(blockee) && self.kuu_alive[blockee.index()];
        let only_occupied = others().all(|p| seeds(p) == 0);
        let only_with_more_than_one = seeds(pit) > 1 && others().all(|p| seeds(p) <= 1);
        living_kuu || only_occupied || only_with_more_than_one
    }
}
