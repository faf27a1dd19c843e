//! The messages of `mancala.v1.Matches`, built from the match manager's values, and [`Wire`], the
//! [`Encoder`] that makes each watcher message once for every watcher of a match.

use super::convert;
use super::pb;
use crate::engine::{Move, Player};
use crate::matches::{Encoder, MatchEvent, MatchSummary, MatchView, SnapshotReason, Update};
use crate::store::{Action, Finished};
use pb::watch_match_response::Kind;

/// The protobuf encoder of watcher messages (`WatchMatchResponse`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Wire;

impl Encoder for Wire {
    type Message = pb::WatchMatchResponse;

    fn encode(&self, update: Update<'_>) -> pb::WatchMatchResponse {
        let kind = match update {
            Update::Snapshot(view, reason) => Kind::Snapshot(pb::MatchSnapshot {
                r#match: Some(match_pb(view)),
                reason: match reason {
                    SnapshotReason::Initial => pb::SnapshotReason::Initial,
                    SnapshotReason::Resync => pb::SnapshotReason::Resync,
                } as i32,
            }),
            Update::Event(event) => Kind::Event(event_pb(event)),
            Update::Presence { seat, connected } => Kind::Presence(pb::Presence {
                player: convert::player_to_pb(Some(seat)),
                connected,
            }),
            Update::Finished { version, finished } => Kind::Finished(pb::MatchFinished {
                version,
                result: Some(result_pb(finished)),
            }),
            Update::Heartbeat { version } => Kind::Heartbeat(pb::Heartbeat { version }),
        };
        pb::WatchMatchResponse { kind: Some(kind) }
    }
}

/// A finished match's result.
pub fn result_pb(finished: &Finished) -> pb::MatchResult {
    pb::MatchResult {
        winner: convert::player_to_pb(finished.winner),
        reason: if finished.expired {
            pb::MatchEndReason::Expired
        } else if finished.resigned.is_some() {
            pb::MatchEndReason::Resignation
        } else {
            pb::MatchEndReason::PlayedOut
        } as i32,
        resigned: convert::player_to_pb(finished.resigned),
        finished_at_ms: finished.at_ms,
    }
}

fn status_pb(finished: Option<&Finished>) -> i32 {
    if finished.is_some() {
        pb::MatchStatus::Finished as i32
    } else {
        pb::MatchStatus::Active as i32
    }
}

fn moves_pb(moves: &[Move]) -> Vec<pb::Move> {
    moves.iter().map(convert::move_to_pb).collect()
}

/// A match as it stands.
pub fn match_pb(view: &MatchView) -> pb::Match {
    pb::Match {
        match_id: view.id.to_string(),
        kind: convert::kind_to_pb(view.kind) as i32,
        options: Some(convert::options_to_pb(&view.options)),
        state: Some(convert::state_to_pb(&view.game)),
        version: view.version,
        status: status_pb(view.finished.as_ref()),
        seats: Player::BOTH
            .into_iter()
            .map(|p| pb::Seat {
                player: convert::player_to_pb(Some(p)),
                connected: view.connected[p.index()],
                player_id: view.players[p.index()].clone().unwrap_or_default(),
                bot_level: view.bots[p.index()].map_or(0, |bot| bot.level),
                bot_seed: view.bots[p.index()].and_then(|bot| bot.seed),
            })
            .collect(),
        legal_moves: moves_pb(&view.legal_moves()),
        result: view.finished.as_ref().map(result_pb),
        created_at_ms: view.created_ms,
        previews: Vec::new(),
    }
}

/// An accepted event with its trace, the state after it and the next moves.
pub fn event_pb(event: &MatchEvent) -> pb::MatchEvent {
    pb::MatchEvent {
        seq: event.seq,
        player: convert::player_to_pb(Some(event.player)),
        action: Some(match &event.action {
            Action::Move(mv) => pb::match_event::Action::Move(convert::move_to_pb(mv)),
            Action::Resign => pb::match_event::Action::Resignation(pb::Resignation {}),
            Action::Expire => pb::match_event::Action::Expiry(pb::Expiry {}),
        }),
        events: convert::events_to_pb(&event.trace),
        state: Some(convert::state_to_pb(&event.game)),
        legal_moves: moves_pb(&event.legal_moves()),
        accepted_at_ms: event.at_ms,
        previews: Vec::new(),
    }
}

/// One line of `ListMatches`.
pub fn summary_pb(summary: &MatchSummary) -> pb::MatchSummary {
    pb::MatchSummary {
        match_id: summary.id.to_string(),
        kind: convert::kind_to_pb(summary.kind) as i32,
        status: status_pb(summary.finished.as_ref()),
        version: summary.version,
        created_at_ms: summary.created_ms,
        result: summary.finished.as_ref().map(result_pb),
    }
}
