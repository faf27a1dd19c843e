//! The one replay of a match's log through the engine: loading a match, catching up with the store,
//! `GetHistory` and a resumed watcher all go through it, and so does the end of a match an event decides. Apart from
//! `slots.rs` because it is pure: it reads a log and the engine, and touches no lock, store or task.

use super::view::{Encoder, MatchEvent, Update};
use crate::clock::Clocks;
use crate::engine::across_turns::{AcrossTurns, Ending};
use crate::engine::{notation, AnyGame, Event, Status};
use crate::store::{Action, EndReason, EventRecord, Finished, MatchRecord, StoredMatch};

/// How `event` leaves the match, `game` being the state after it and `ending` what the rules of endless play made
/// of it (§1): a resignation ends it, a move ends it when the rules say the match is over (by the game's own
/// rules, or a game ended by repetition or agreement that decided it) or when it was the match's last game.
pub(super) fn finished_by(
    event: &EventRecord,
    game: &AnyGame,
    ending: Option<Ending>,
) -> Option<Finished> {
    let end = |winner, reason| Finished {
        at_ms: event.at_ms,
        winner,
        resigned: (reason == EndReason::Resignation).then_some(event.player),
        reason,
    };
    match event.action {
        Action::Resign => Some(end(
            super::view::winner_without(game, event.player),
            EndReason::Resignation,
        )),
        Action::Expire => Some(end(None, EndReason::Expired)),
        Action::Flag => Some(end(
            super::view::winner_without(game, event.player),
            EndReason::TimeForfeit,
        )),
        Action::Abort => Some(end(None, EndReason::Aborted)),
        // The claimant wins a two-player match; in three-player Ba-awa the absent seat (the one to move) is out
        // and the others are placed by how they stand.
        Action::Claim => Some(end(
            match (game.seats(), game.to_move()) {
                (3, Some(absent)) => super::view::winner_without(game, absent),
                _ => Some(event.player),
            },
            EndReason::Abandoned,
        )),
        Action::Move(_) | Action::Agreement(_) => match ending {
            Some(Ending::MatchLength) => Some(end(game.match_leader(), EndReason::MatchLength)),
            _ if game.status() != Status::MatchOver => None,
            Some(Ending::Game(crate::engine::EndReason::Agreement)) => {
                Some(end(game.winner(), EndReason::Agreement))
            }
            Some(Ending::Game(_)) => Some(end(game.winner(), EndReason::Repetition)),
            None => Some(end(game.winner(), EndReason::PlayedOut)),
        },
    }
}

/// Plays `events` (which follow `version`) on `game`, as they were played when accepted, handing
/// each to `each` with its trace and the state and outcome after it; the outcome after the last.
/// The one replay of a log: loading a match, catching up with the store, `GetHistory` and a
/// resumed watcher all go through it.
pub(super) fn replay<'a>(
    (game, clocks, across): (&mut AnyGame, &mut Clocks, &mut AcrossTurns),
    version: u64,
    events: impl IntoIterator<Item = &'a EventRecord>,
    mut each: impl FnMut(&EventRecord, &[Event], (&AnyGame, &Clocks, &AcrossTurns), Option<Finished>),
) -> Result<Option<Finished>, String> {
    let mut trace = Vec::new();
    let mut finished = None;
    for (event, seq) in events.into_iter().zip(version + 1..) {
        if event.seq != seq {
            return Err(format!("event {} where {seq} was expected", event.seq));
        }
        trace.clear();
        let ending = notation::play_event(
            game,
            across,
            event.player,
            &event.action,
            notation::Choices::AsLogged,
            &mut trace,
        )
        .map_err(|e| format!("event {seq} does not replay: {e}"))?;
        clocks.after(event.player, &event.action, event.at_ms, game);
        finished = finished_by(event, game, ending);
        each(event, &trace, (game, clocks, across), finished);
    }
    Ok(finished)
}

/// An accepted event with what replaying it showed.
pub(super) fn match_event(
    event: &EventRecord,
    trace: &[Event],
    (game, clocks, across): (&AnyGame, &Clocks, &AcrossTurns),
    finished: Option<Finished>,
) -> MatchEvent {
    MatchEvent {
        agreement: across.agreement(),
        occurrences: across.occurrences(game) as u32,
        seq: event.seq,
        player: event.player,
        action: event.action,
        trace: trace.to_vec(),
        game: game.clone(),
        clocks: *clocks,
        finished,
        at_ms: event.at_ms,
    }
}

/// Where a match stands after some events: the game, the clocks, and what the rules of endless play keep.
pub(super) type Position = (AnyGame, Clocks, AcrossTurns);

/// A new match's position, clocks and rules of endless play, before its first event.
pub(super) fn beginning(record: &MatchRecord, abort_after_ms: u64) -> Position {
    let game = match &record.start {
        Some(start) => AnyGame::clone(start),
        None => AnyGame::new_match(record.kind, &record.options),
    };
    let clocks = Clocks::new(
        record.time_control,
        abort_after_ms,
        record.created_ms,
        &game,
    );
    let across = AcrossTurns::start(record.kind, &record.options, &game);
    (game, clocks, across)
}

/// Every event of a stored match, replayed, and the state and clocks the log leads to.
pub(super) fn replay_all(
    stored: &StoredMatch,
    abort_after_ms: u64,
) -> Result<(Vec<MatchEvent>, Position), String> {
    let (mut game, mut clocks, mut across) = beginning(&stored.record, abort_after_ms);
    let mut out = Vec::with_capacity(stored.events.len());
    replay(
        (&mut game, &mut clocks, &mut across),
        0,
        &stored.events,
        |event, trace, position, finished| out.push(match_event(event, trace, position, finished)),
    )?;
    Ok((out, (game, clocks, across)))
}

/// A match moved on from some version: the new events, each with its message for watchers, and
/// where they leave the match. Computed outside the match's locks, applied by `Inner::advance`.
pub(super) struct Advance<M> {
    pub(super) events: Vec<(EventRecord, M)>,
    pub(super) game: AnyGame,
    pub(super) clocks: Clocks,
    pub(super) across: AcrossTurns,
    pub(super) version: u64,
    pub(super) finished: Option<Finished>,
}

impl<M> Advance<M> {
    /// Plays `events` (which follow `version`) on `game` and `clocks`, encoding each for the watchers.
    pub(super) fn replay<E: Encoder<Message = M>>(
        encoder: &E,
        (mut game, mut clocks, mut across): Position,
        version: u64,
        events: Vec<EventRecord>,
    ) -> Result<Advance<M>, String> {
        let mut encoded = Vec::with_capacity(events.len());
        let finished = replay(
            (&mut game, &mut clocks, &mut across),
            version,
            &events,
            |event, trace, position, finished| {
                let event = match_event(event, trace, position, finished);
                encoded.push(encoder.encode(Update::Event(&event)));
            },
        )?;
        Ok(Advance {
            version: version + events.len() as u64,
            events: events.into_iter().zip(encoded).collect(),
            game,
            clocks,
            across,
            finished,
        })
    }
}
