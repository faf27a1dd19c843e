//! A move's events written as `convert::events_to_pb` builds them: laps with their drops, captures, and every
//! other event of a move, a round or a game.

use super::writer::{Writer, LEN};
use crate::api::convert::{
    direction_to_pb as direction, end_reason_to_pb as end_reason, kichwa_to_pb as kichwa, pits_of,
    player_to_pb as player,
};
use crate::api::pb;
use crate::engine::{Event, LapSource, Player};

impl Writer {
    /// Repeated `Event` field `field`, as `convert::events_to_pb` builds it: each lap with the drops that
    /// follow it (up to the next lap, whatever comes between), drops before any lap left out, a capture's
    /// `after_drop` counting the drops of its lap so far.
    pub(super) fn events(&mut self, field: u32, events: &[Event]) {
        let mut drops_so_far: Option<u32> = None;
        for (i, event) in events.iter().enumerate() {
            if let Event::Drop { .. } = event {
                if let Some(n) = drops_so_far.as_mut() {
                    *n += 1;
                }
                continue;
            }
            if let Event::Lap { .. } = event {
                drops_so_far = Some(0);
            }
            self.message(field, |w| w.event(event, &events[i + 1..], drops_so_far));
        }
    }

    /// One `Event` (its oneof); `after` are the events that follow it, where a lap finds its drops.
    pub(super) fn event(&mut self, event: &Event, after: &[Event], drops_so_far: Option<u32>) {
        match *event {
            Event::Lap {
                player: p,
                origin,
                seeds,
                source,
            } => self.message(1, |w| {
                w.int32(1, player(Some(p)));
                w.uint32(2, u32::from(origin));
                w.uint32(3, u32::from(seeds));
                w.drops(4, after);
                w.int32(
                    5,
                    match source {
                        LapSource::Pit => pb::LapSource::Pit,
                        LapSource::Reserve => pb::LapSource::Reserve,
                        LapSource::Capture => pb::LapSource::Capture,
                    } as i32,
                );
            }),
            Event::Drop { .. } => {}
            Event::Capture {
                pit,
                seeds,
                beneficiary,
                kichwa: k,
                direction: d,
            } => self.message(2, |w| {
                w.uint32(1, u32::from(pit));
                w.uint32(2, u32::from(seeds));
                w.int32(3, player(Some(beneficiary)));
                w.uint32(4, drops_so_far.unwrap_or(0));
                w.int32(5, kichwa(k));
                w.int32(6, direction(d));
            }),
            Event::NoCapture {
                empty_pit,
                beyond_pit,
            } => self.message(3, |w| {
                w.uint32(1, u32::from(empty_pit));
                w.uint32(2, u32::from(beyond_pit));
            }),
            Event::Pass { player: p } => self.message(4, |w| w.int32(1, player(Some(p)))),
            Event::GameEnd {
                reason,
                winner,
                collector,
                collected,
                stores,
            } => self.message(5, |w| {
                w.int32(1, end_reason(reason));
                w.int32(2, player(winner));
                w.int32(3, player(collector));
                w.uint32(4, u32::from(collected));
                w.packed_bytes(5, stores.as_slice());
            }),
            Event::MatchEnd {
                winner,
                score,
                placing,
            } => self.message(6, |w| {
                w.int32(1, player(winner));
                w.packed_bytes(2, score.as_slice());
                w.packed_bytes(3, placing.as_slice());
            }),
            Event::Allocation {
                north_owned,
                east_owned,
                pits_owned,
                starter,
            } => self.message(7, |w| {
                w.packed_bytes(1, pits_owned.as_slice());
                w.packed(
                    2,
                    (0..12).map(|p| {
                        player(Some(if north_owned >> p & 1 == 1 {
                            Player::North
                        } else if east_owned >> p & 1 == 1 {
                            Player::East
                        } else {
                            Player::South
                        })) as u32
                    }),
                );
                w.int32(3, player(Some(starter)));
            }),
            Event::Refill {
                player: p,
                opened,
                closed,
                reserve,
            } => self.message(8, |w| {
                w.int32(1, player(Some(p)));
                w.packed(2, pits_of(opened));
                w.packed(3, pits_of(closed));
                w.uint32(4, u32::from(reserve));
            }),
            Event::Taxation {
                pit,
                seeds,
                six_seed_rule,
            } => self.message(9, |w| {
                w.uint32(1, u32::from(pit));
                w.uint32(2, u32::from(seeds));
                w.bool(3, six_seed_rule);
            }),
            Event::KuuDestroyed { owner, pit } => self.message(10, |w| {
                w.int32(1, player(Some(owner)));
                w.uint32(2, u32::from(pit));
            }),
            Event::KuuStop { pit } => self.message(11, |w| w.uint32(1, u32::from(pit))),
            Event::Safari { pit, seeds } => self.message(12, |w| {
                w.uint32(1, u32::from(pit));
                w.uint32(2, u32::from(seeds));
            }),
            Event::MarkSet {
                blockee,
                pit,
                setter,
            } => self.message(13, |w| w.mark(blockee, pit, setter)),
            Event::MarkCleared {
                blockee,
                pit,
                setter,
            } => self.message(14, |w| w.mark(blockee, pit, setter)),
            Event::RoundEnd {
                reason,
                collector,
                collected,
                totals,
            } => self.message(15, |w| {
                w.int32(1, end_reason(reason));
                w.int32(2, player(collector));
                w.uint32(3, u32::from(collected));
                w.packed_bytes(4, &totals);
            }),
            Event::Elimination { player: p } => self.message(16, |w| w.int32(1, player(Some(p)))),
        }
    }

    /// A lap's drops, packed: the pits of the `Drop` events in `after` up to the next lap. A pit number is below
    /// 128, so each takes one byte, pushed as it is found (one pass, no varint loop); nothing when there are none.
    pub(super) fn drops(&mut self, field: u32, after: &[Event]) {
        let start = self.buf.len();
        self.key_varint(field, LEN, 0);
        let at = self.buf.len() - 1;
        for event in after {
            match *event {
                Event::Drop { pit } if pit < 0x80 => self.buf.push(pit),
                Event::Drop { pit } => self.varint(u64::from(pit)),
                Event::Lap { .. } => break,
                _ => {}
            }
        }
        if self.close(at) == 0 {
            self.buf.truncate(start);
        }
    }

    /// `MarkSet.mark` / `MarkCleared.mark`: a `HiziZetuMark`, always set.
    pub(super) fn mark(&mut self, blockee: Player, pit: u8, setter: Player) {
        self.message(1, |w| {
            w.int32(1, player(Some(blockee)));
            w.uint32(2, u32::from(pit));
            w.int32(3, player(Some(setter)));
        });
    }
}
