//! The messages of `mancala.v1.Matches`, built from the match manager's values, and [`Wire`], the
//! [`Encoder`] that makes each watcher message once for every watcher of a match.

use super::convert;
use super::pb;
use crate::clock::{Clocks, Due, TimeControl};
use crate::engine::across_turns::{Agreement, AgreementAction};
use crate::engine::{Move, PerSeat};
use crate::matches::{Encoder, MatchEvent, MatchSummary, MatchView, SnapshotReason, Update};
use crate::store::{Action, EndReason, Finished};
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
            Update::Finished {
                version,
                finished,
                placing,
            } => Kind::Finished(pb::MatchFinished {
                version,
                result: Some(result_pb(finished, placing)),
            }),
            Update::Heartbeat { version } => Kind::Heartbeat(pb::Heartbeat { version }),
        };
        pb::WatchMatchResponse { kind: Some(kind) }
    }
}

/// A finished match's result, with the placing of a three-player match (`PerSeat::NONE` otherwise).
pub fn result_pb(finished: &Finished, placing: PerSeat) -> pb::MatchResult {
    pb::MatchResult {
        winner: convert::player_to_pb(finished.winner),
        reason: match finished.reason {
            EndReason::PlayedOut => pb::MatchEndReason::PlayedOut,
            EndReason::Resignation => pb::MatchEndReason::Resignation,
            EndReason::Expired => pb::MatchEndReason::Expired,
            EndReason::TimeForfeit => pb::MatchEndReason::TimeForfeit,
            EndReason::Aborted => pb::MatchEndReason::Aborted,
            EndReason::Abandoned => pb::MatchEndReason::Abandoned,
            EndReason::Repetition => pb::MatchEndReason::Repetition,
            EndReason::Agreement => pb::MatchEndReason::Agreement,
            EndReason::MatchLength => pb::MatchEndReason::MatchLength,
        } as i32,
        resigned: convert::player_to_pb(finished.resigned),
        finished_at_ms: finished.at_ms,
        placing: placing.as_slice().iter().map(|&p| p as u32).collect(),
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
        seats: view
            .seats()
            .iter()
            .map(|&p| pb::Seat {
                player: convert::player_to_pb(Some(p)),
                connected: view.connected[p.index()],
                player_id: view.players[p.index()].clone().unwrap_or_default(),
                bot_level: view.bots[p.index()].map_or(0, |bot| bot.level),
                bot_seed: view.bots[p.index()].and_then(|bot| bot.seed),
            })
            .collect(),
        legal_moves: moves_pb(&view.legal_moves()),
        result: view
            .finished
            .as_ref()
            .map(|finished| result_pb(finished, view.placing())),
        created_at_ms: view.created_ms,
        previews: Vec::new(),
        time_control: time_control_pb(view.clocks.control),
        clocks: clocks_pb(&view.clocks, view.as_of_ms),
        agreeing: agreeing_pb(view.agreement),
        position_occurrences: view.occurrences,
    }
}

/// The seats agreeing to end the game, as the protocol lists them.
fn agreeing_pb(agreement: Agreement) -> Vec<i32> {
    agreement
        .seats()
        .map(|seat| convert::player_to_pb(Some(seat)))
        .collect()
}

/// An agreement action on the wire.
fn agreement_action_pb(action: AgreementAction) -> pb::AgreementAction {
    match action {
        AgreementAction::Offer => pb::AgreementAction::Offer,
        AgreementAction::Accept => pb::AgreementAction::Accept,
        AgreementAction::Decline => pb::AgreementAction::Decline,
        AgreementAction::Withdraw => pb::AgreementAction::Withdraw,
    }
}

/// The agreement action a request asks for; `None` for an unset or unknown value.
pub fn agreement_action(value: i32) -> Option<AgreementAction> {
    match pb::AgreementAction::try_from(value).ok()? {
        pb::AgreementAction::Unspecified => None,
        pb::AgreementAction::Offer => Some(AgreementAction::Offer),
        pb::AgreementAction::Accept => Some(AgreementAction::Accept),
        pb::AgreementAction::Decline => Some(AgreementAction::Decline),
        pb::AgreementAction::Withdraw => Some(AgreementAction::Withdraw),
    }
}

/// The time control a request asks for (absent, or none of its three set: untimed). Its values are checked by the
/// match manager against the server's limits.
pub fn time_control(control: Option<&pb::TimeControl>) -> TimeControl {
    use pb::time_control::Control;
    match control.and_then(|c| c.control.as_ref()) {
        None => TimeControl::Untimed,
        Some(Control::Fischer(f)) => TimeControl::Fischer {
            initial_ms: f.initial_ms,
            increment_ms: f.increment_ms,
        },
        Some(Control::Delay(d)) => TimeControl::Delay {
            initial_ms: d.initial_ms,
            delay_ms: d.delay_ms,
        },
        Some(Control::Correspondence(c)) => TimeControl::Correspondence {
            days: c.days_per_move,
        },
    }
}

/// A time control on the wire (`None`: untimed).
pub fn time_control_pb(control: TimeControl) -> Option<pb::TimeControl> {
    use pb::time_control::Control;
    let control = match control {
        TimeControl::Untimed => return None,
        TimeControl::Fischer {
            initial_ms,
            increment_ms,
        } => Control::Fischer(pb::FischerTime {
            initial_ms,
            increment_ms,
        }),
        TimeControl::Delay {
            initial_ms,
            delay_ms,
        } => Control::Delay(pb::DelayTime {
            initial_ms,
            delay_ms,
        }),
        TimeControl::Correspondence { days } => Control::Correspondence(pb::CorrespondenceTime {
            days_per_move: days,
        }),
    };
    Some(pb::TimeControl {
        control: Some(control),
    })
}

/// A timed match's clocks as they read at `as_of_ms` (`None` for an untimed match).
fn clocks_pb(clocks: &Clocks, as_of_ms: u64) -> Option<pb::Clocks> {
    if !clocks.control.timed() {
        return None;
    }
    let deadline = clocks.deadline();
    Some(pb::Clocks {
        remaining_ms: clocks.remaining_at(as_of_ms)[..clocks.seats as usize].to_vec(),
        running: convert::player_to_pb(clocks.running),
        as_of_ms,
        flag_at_ms: match deadline {
            Some(Due::Flag { at_ms, .. }) => at_ms,
            _ => 0,
        },
        started: clocks.started(),
        abort_at_ms: match deadline {
            Some(Due::Abort { at_ms, .. }) => at_ms,
            _ => 0,
        },
    })
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
            Action::Flag => pb::match_event::Action::Flag(pb::Flag {}),
            Action::Abort => pb::match_event::Action::Abort(pb::Abort {}),
            Action::Claim => pb::match_event::Action::Claim(pb::Claim {}),
            Action::Agreement(a) => pb::match_event::Action::EndAgreement(pb::EndAgreement {
                action: agreement_action_pb(*a) as i32,
            }),
        }),
        events: convert::events_to_pb(&event.trace),
        state: Some(convert::state_to_pb(&event.game)),
        legal_moves: moves_pb(&event.legal_moves()),
        accepted_at_ms: event.at_ms,
        previews: Vec::new(),
        clocks: clocks_pb(&event.clocks, event.at_ms),
        agreeing: agreeing_pb(event.agreement),
        position_occurrences: event.occurrences,
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
        // A summary is read without the board: no placing (`GetMatch` has it).
        result: summary
            .finished
            .as_ref()
            .map(|finished| result_pb(finished, PerSeat::NONE)),
    }
}
