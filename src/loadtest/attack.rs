//! `mancala loadtest --attackers N`: the measured load runs while N more connections send the worst request
//! known, so that what a long relay costs everybody else can be read beside the same load without it.
//!
//! The attack is a crafted Bao la Kete position (custom positions are accepted) whose takata enters the longest
//! never-ending relay known that the residue proof (docs/common.md §1) does not settle: deciding it means
//! watching 32,769 laps for a repeat. It is long engine work by the standard of a rules call (a few hundred
//! microseconds, against about one), which the server must meter and bound by its budget (docs/guide/
//! security-and-limits.md).

use crate::api::{convert, pb};
use crate::engine::{
    AnyGame, GameKind, Player, Setup, StarterRule, Status, VariantSetup, RULES_VERSION,
};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tonic::transport::Channel;
use tonic_types::StatusExt;

/// The board of `bao_la_kete_never_ending_by_repeat` in `benches/data/worst_relays.json`, in the protocol's pit
/// numbering: South's sixteen holes, then North's.
const BOARD: [u8; 32] = [
    5, 4, 3, 2, 0, 2, 3, 4, 1, 5, 4, 9, 6, 3, 4, 3, //
    0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 1, 1,
];

/// The takata of [`BOARD`] that never ends: South's pit 5 (f6), anticlockwise.
const PIT: u32 = 5;

/// The laps the engine watches before [`crafted_relay`]'s move repeats (the entry's `laps`).
pub const CRAFTED_LAPS: u64 = 32_769;

/// A Bao la Kete position in mtaji, both kuu gone, South to move, whose takata from f6 anticlockwise enters a
/// never-ending relay that is decided only after [`CRAFTED_LAPS`] laps.
pub fn crafted_relay() -> pb::GameState {
    let setup = Setup {
        kind: GameKind::BaoLaKete,
        rules_version: RULES_VERSION,
        pits: BOARD.iter().map(|&seeds| seeds.into()).collect(),
        stores: vec![0, 0].into(),
        reserves: vec![0, 0].into(),
        to_move: Some(Player::South),
        status: Some(Status::InProgress),
        winner: None,
        ply: 40,
        game_number: 1,
        match_score: vec![0, 0].into(),
        variant: VariantSetup::BaoLaKete {
            mtaji: Some(true),
            kuu_alive: vec![false, false].into(),
            mark: None,
            game_starter: Some(Player::South),
            starter_rule: StarterRule::Alternate,
        },
    };
    let game = AnyGame::from_setup(&setup).expect("the crafted position is a valid one");
    convert::state_to_pb(&game)
}

/// `ValidateMove` of the never-ending takata in [`crafted_relay`].
pub fn crafted_validate() -> pb::ValidateMoveRequest {
    pb::ValidateMoveRequest {
        state: Some(crafted_relay()),
        r#move: Some(pb::Move {
            action: Some(pb::r#move::Action::Sow(pb::Sow {
                pit: PIT,
                direction: pb::Direction::Anticlockwise as i32,
                ..Default::default()
            })),
        }),
    }
}

/// What the attackers' calls got.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AttackReport {
    /// Connections that attacked, one call in flight each.
    pub attackers: usize,
    /// Answered: the move decided (the server had budget enough).
    pub decided: u64,
    /// Refused with RESOURCE_EXHAUSTED, `WORK_BUDGET_EXHAUSTED`.
    pub budget_exhausted: u64,
    /// Refused with RESOURCE_EXHAUSTED, `ENGINE_BUSY`.
    pub engine_busy: u64,
    /// Anything else (deadline, transport).
    pub other: u64,
}

/// Attackers running in the background until [`Attack::stop`].
pub struct Attack {
    stop: Arc<AtomicBool>,
    counts: Arc<[AtomicU64; 4]>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    attackers: usize,
}

impl Attack {
    /// Starts one attacker on each channel, each call bounded by `timeout`.
    pub fn start(
        channels: Vec<Channel>,
        timeout: Duration,
        bearer: Option<tonic::metadata::AsciiMetadataValue>,
    ) -> Attack {
        let stop = Arc::new(AtomicBool::new(false));
        let counts: Arc<[AtomicU64; 4]> = Arc::new(Default::default());
        let attackers = channels.len();
        // Built once: making it asks the engine whether South can move, which decides the long relay here, in
        // the generator (seconds of its one runtime thread, and its latencies with them, if done per call).
        let attack = crafted_validate();
        let tasks = channels
            .into_iter()
            .map(|channel| {
                let (stop, counts, attack) = (stop.clone(), counts.clone(), attack.clone());
                let bearer = bearer.clone();
                tokio::spawn(async move {
                    let mut client = pb::rules_client::RulesClient::new(channel);
                    while !stop.load(Ordering::Relaxed) {
                        let mut request = tonic::Request::new(attack.clone());
                        request.set_timeout(timeout);
                        if let Some(bearer) = &bearer {
                            request
                                .metadata_mut()
                                .insert("authorization", bearer.clone());
                        }
                        let outcome = match client.validate_move(request).await {
                            Ok(_) => 0,
                            Err(status) => match status.get_details_error_info() {
                                Some(info) if info.reason == "WORK_BUDGET_EXHAUSTED" => 1,
                                Some(info) if info.reason == "ENGINE_BUSY" => 2,
                                _ => 3,
                            },
                        };
                        counts[outcome].fetch_add(1, Ordering::Relaxed);
                        if outcome == 3 {
                            // A transport error repeats at once; do not spin on it.
                            tokio::time::sleep(Duration::from_millis(10)).await;
                        }
                    }
                })
            })
            .collect();
        Attack {
            stop,
            counts,
            tasks,
            attackers,
        }
    }

    /// Stops the attackers (their calls in flight are abandoned) and reports what they got.
    pub fn stop(self) -> AttackReport {
        self.stop.store(true, Ordering::Relaxed);
        for task in &self.tasks {
            task.abort();
        }
        let count = |i: usize| self.counts[i].load(Ordering::Relaxed);
        AttackReport {
            attackers: self.attackers,
            decided: count(0),
            budget_exhausted: count(1),
            engine_busy: count(2),
            other: count(3),
        }
    }
}
