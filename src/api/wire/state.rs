//! A `GameState` and a `Move` written as `convert::state_to_pb` and `convert::game_move_to_pb` build them.

use super::writer::Writer;
use crate::api::convert::{
    self, direction_to_pb as direction, kichwa_to_pb as kichwa, player_to_pb as player,
    stage_to_pb as stage,
};
use crate::api::pb;
use crate::engine::across_turns::key_of_view;
use crate::engine::{AnyGame, KuuDecision, Move, Status, VariantView, RULES_VERSION};

impl Writer {
    /// `GameState`, as `convert::state_to_pb` builds it: written from the game's own view of itself, its counts
    /// the bytes it keeps them in (building its `Setup` first widened every count to 32 bits, only for them to be
    /// narrowed again here).
    pub(super) fn state(&mut self, game: &AnyGame) {
        let v = game.view();
        self.int32(1, convert::kind_to_pb(v.kind) as i32);
        self.uint32(2, RULES_VERSION);
        self.packed_bytes(3, v.pits);
        self.packed_bytes(4, v.stores);
        self.packed_bytes(5, v.reserves);
        self.int32(6, player(v.to_move));
        self.int32(7, status(v.status));
        self.int32(8, player(v.winner));
        self.uint32(9, v.ply);
        self.uint32(10, v.game_number);
        self.packed_bytes(11, v.match_score.as_slice());
        self.fixed64(12, key_of_view(&v));
        match v.variant {
            VariantView::BaAwa {
                owners,
                starter,
                target,
                players,
                eliminated_in,
            } => self.message(20, |w| {
                // A seat's number (1 to 3) takes one byte.
                w.packed_small(1, owners.iter().map(|&o| player(Some(o)) as u8));
                w.int32(2, player(Some(starter)));
                w.uint32(3, target);
                w.uint32(4, players);
                w.packed_slice(5, eliminated_in);
            }),
            VariantView::Bosh {
                closed,
                round_starter,
            } => self.message(21, |w| {
                w.packed_bools(1, &closed);
                w.int32(2, player(Some(round_starter)));
            }),
            VariantView::BaoLaKete {
                mtaji,
                kuu_alive,
                mark,
                game_starter,
                starter_rule,
            } => self.message(22, |w| {
                w.int32(1, stage(Some(mtaji)) as i32);
                w.packed_bools(2, &kuu_alive);
                if let Some((blockee, pit, setter)) = mark {
                    w.message(3, |w| {
                        w.int32(1, player(Some(blockee)));
                        w.uint32(2, pit);
                        w.int32(3, player(Some(setter)));
                    });
                }
                w.int32(4, player(Some(game_starter)));
                w.int32(5, convert::starter_rule_to_pb(starter_rule) as i32);
            }),
        }
    }

    /// A `Setup` of any values, written as [`Writer::state`] writes a game's: the test of the writer's long varints
    /// and lengths, which no game's state reaches (`states_of_any_values_are_prosts_bytes`).
    #[cfg(test)]
    pub(super) fn setup(&mut self, s: &crate::engine::Setup) {
        use crate::engine::VariantSetup;
        self.int32(1, convert::kind_to_pb(s.kind) as i32);
        self.uint32(2, s.rules_version);
        self.packed_slice(3, &s.pits);
        self.packed_slice(4, &s.stores);
        self.packed_slice(5, &s.reserves);
        self.int32(6, player(s.to_move));
        self.int32(7, s.status.map_or(0, status));
        self.int32(8, player(s.winner));
        self.uint32(9, s.ply);
        self.uint32(10, s.game_number);
        self.packed_slice(11, &s.match_score);
        match &s.variant {
            VariantSetup::Missing => {}
            VariantSetup::BaAwa {
                owners,
                starter,
                target,
                players,
                eliminated_in,
            } => self.message(20, |w| {
                // A seat's number (0 to 3) takes one byte.
                w.packed_small(1, owners.iter().map(|&o| player(o) as u8));
                w.int32(2, player(*starter));
                w.uint32(3, *target);
                w.uint32(4, *players);
                w.packed_slice(5, eliminated_in);
            }),
            VariantSetup::Bosh {
                closed,
                round_starter,
            } => self.message(21, |w| {
                w.packed_bools(1, closed);
                w.int32(2, player(*round_starter));
            }),
            VariantSetup::BaoLaKete {
                mtaji,
                kuu_alive,
                mark,
                game_starter,
                starter_rule,
            } => self.message(22, |w| {
                w.int32(1, stage(*mtaji) as i32);
                w.packed_bools(2, kuu_alive);
                if let Some((blockee, pit, setter)) = *mark {
                    w.message(3, |w| {
                        w.int32(1, player(blockee));
                        w.uint32(2, pit);
                        w.int32(3, player(setter));
                    });
                }
                w.int32(4, player(*game_starter));
                w.int32(5, convert::starter_rule_to_pb(*starter_rule) as i32);
            }),
        }
    }

    /// `Move`, as `convert::move_to_pb` builds it.
    pub(super) fn game_move(&mut self, mv: &Move) {
        match *mv {
            Move::Sow(sow) => self.message(1, |w| {
                w.uint32(1, u32::from(sow.pit));
                w.int32(2, direction(sow.direction));
                w.int32(3, kichwa(sow.kichwa));
                w.int32(
                    4,
                    match sow.kuu_decision {
                        None => pb::KuuDecision::Unspecified,
                        Some(KuuDecision::Stop) => pb::KuuDecision::Stop,
                        Some(KuuDecision::Safari) => pb::KuuDecision::Safari,
                    } as i32,
                );
            }),
            Move::NextGame(set) => self.message(2, |w| {
                // The set's pits in increasing order, as `PitSet::iter` lists them.
                let mask = set.0;
                w.packed(1, (0..32).filter(move |p| mask >> p & 1 == 1));
            }),
        }
    }
}

fn status(status: Status) -> i32 {
    convert::status_to_pb(status) as i32
}
