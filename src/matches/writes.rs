//! A match's writes: a seat's action or what its clocks decided, checked against the match as it stands and
//! appended with the store's check-and-append, then applied and published (`Inner::submit`, `Inner::settle`). It
//! holds the one call of `MatchStore::append` outside `store/`. Apart from `slots.rs` because this is the rules of
//! a write (turns, versions, clocks, claims, the engine's budget), where `slots.rs` holds the match in memory.

use super::error::{store_failed, MatchError};
use super::replay::{finished_by, match_event, replay_all, Advance, Position};
use super::slots::{lock, next_deadline, Inner, Slot};
use super::view::{Encoder, MatchEvent, Update};
use crate::clock::{Clocks, Due};
use crate::engine::across_turns::AcrossTurns;
use crate::engine::{self, notation, AnyGame, Budget, Event, Player, Status};
use crate::store::{Action, EndReason, EventRecord, Finished, MatchRecord, StoreError};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::Ordering;

/// A boxed future, for the one write that calls itself.
type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How many times a move is checked again after losing the store's race to another server.
const MAX_ATTEMPTS: usize = 4;
/// The refusal of `seat`'s sowing at `at_ms`, its flag having fallen at `flag_at_ms`.
fn out_of_time(seat: Player, at_ms: u64, flag_at_ms: u64) -> MatchError {
    MatchError::Timing {
        reason: "OUT_OF_TIME",
        message: format!(
            "{seat}'s time ran out {} ms before this sowing arrived: the match is lost on time",
            at_ms.saturating_sub(flag_at_ms)
        ),
        metadata: vec![("flag_at_ms", flag_at_ms)],
    }
}

impl<E: Encoder> Inner<E> {
    /// The answer of the earlier request that produced event `seq`.
    async fn earlier_answer(
        &self,
        slot: &Slot<E::Message>,
        seq: u64,
    ) -> Result<MatchEvent, MatchError> {
        let stored = self.history(slot).await?;
        let (mut events, _) = replay_all(&stored, self.abort_after_ms())
            .map_err(|e| store_failed("replaying a stored match", Some(slot.id), e))?;
        events.truncate(seq as usize);
        events
            .pop()
            .ok_or_else(|| MatchError::Internal(format!("event {seq} is missing from the log")))
    }

    /// The body of a seat's action, under the match's writer lock: the checks and the append, again after
    /// each race lost to another server sharing the store.
    pub(super) async fn submit(
        &self,
        slot: &Slot<E::Message>,
        seat: Player,
        action: Action,
        expected_version: Option<u64>,
        request_id: String,
        at_ms: u64,
    ) -> Result<MatchEvent, MatchError> {
        let _writer = slot.write.lock().await;
        if self.store.shared() {
            self.catch_up(slot).await?;
        }
        // Stamped once the match is this request's alone: a sowing that waited for the writer lock behind the
        // keeper's flag is judged at the moment it is decided, and the log's times never go backwards.
        let at_ms = at_ms
            .max(self.time.now_ms())
            .max(lock(&slot.live).active_ms);
        let mut current = 0;
        for _ in 0..MAX_ATTEMPTS {
            match self
                .try_submit(slot, seat, action, expected_version, &request_id, at_ms)
                .await?
            {
                Ok(answer) => return Ok(answer),
                Err(stored) => {
                    self.metrics.store_conflict();
                    current = self.catch_up(slot).await?.max(stored);
                }
            }
        }
        Err(MatchError::VersionMismatch {
            expected: expected_version.unwrap_or(current.saturating_sub(1)),
            current,
        })
    }

    /// Appends what the clocks of `slot` have made due by `now_ms` (a flag, an abort), unless the match moved on
    /// or another server appended it first; the event appended here, if any. The timers' and the sweep's work.
    pub(super) async fn settle(
        &self,
        slot: &Slot<E::Message>,
        now_ms: u64,
    ) -> Result<Option<MatchEvent>, MatchError> {
        let _writer = slot.write.lock().await;
        if self.store.shared() {
            self.catch_up(slot).await?;
        }
        for _ in 0..MAX_ATTEMPTS {
            let Some(due) = self.due(slot, now_ms) else {
                return Ok(None);
            };
            match self
                .try_submit(slot, due.seat(), due.action(), None, "", due.at_ms())
                .await?
            {
                Ok(event) => return Ok(Some(event)),
                Err(_) => {
                    self.metrics.store_conflict();
                    self.catch_up(slot).await?;
                }
            }
        }
        Ok(None)
    }

    /// What the clocks of `slot` have made due by `now_ms`, unless the match is over.
    pub(super) fn due(&self, slot: &Slot<E::Message>, now_ms: u64) -> Option<Due> {
        let live = lock(&slot.live);
        live.finished
            .is_none()
            .then(|| live.clocks.due_at(now_ms))?
    }

    /// Why `seat` may not claim the match at `at_ms` (`ClaimVictory`), if it may not: the seat to sow must be
    /// another seat, a person's, with no stream open here and none seen anywhere (over a shared store) for
    /// `clock.abandon_after_ms`, counted from the start of its turn at the earliest.
    async fn claim_refusal(
        &self,
        slot: &Slot<E::Message>,
        seat: Player,
        game: &AnyGame,
        clocks: &Clocks,
        at_ms: u64,
    ) -> Result<(), MatchError> {
        let refuse = |message: String, claimable_at_ms: Option<u64>| MatchError::Timing {
            reason: "NOT_ABANDONED",
            message,
            metadata: claimable_at_ms
                .map(|at| ("claimable_at_ms", at))
                .into_iter()
                .collect(),
        };
        if game.status() != Status::InProgress {
            return Err(refuse(
                "between games either seat may start the next game (NextGame); there is nobody to claim against"
                    .into(),
                None,
            ));
        }
        let Some(absent) = game.to_move() else {
            return Err(refuse("no seat is to move".into(), None));
        };
        if absent == seat {
            return Err(refuse(
                format!("it is {seat}'s own turn; only the seat waiting for it may claim"),
                None,
            ));
        }
        if !clocks.started() {
            return Err(refuse(
                "the clocks have not started (each seat has not sown once yet): abort the match instead".into(),
                None,
            ));
        }
        if let Some(bot) = slot.bots[absent.index()] {
            return Err(refuse(
                format!(
                    "{absent} is the server's opponent (level {}), which never leaves",
                    bot.level
                ),
                None,
            ));
        }
        let (present, turn_ms) = {
            let live = lock(&slot.live);
            (live.presence[absent.index()] > 0, live.active_ms)
        };
        if present {
            return Err(refuse(
                format!("{absent} has a stream open on the match"),
                None,
            ));
        }
        let mut seen = slot.seen_ms[absent.index()].load(Ordering::Acquire);
        if self.store.shared() {
            let elsewhere = self
                .store
                .seats_seen(&slot.id)
                .await
                .map_err(|e| store_failed("reading the seats' presence", Some(slot.id), e))?;
            seen = seen.max(elsewhere[absent.index()]);
        }
        let since = seen.max(turn_ms);
        let claimable_at = since.saturating_add(self.clock.abandon_after.as_millis() as u64);
        if at_ms < claimable_at {
            return Err(refuse(
                format!(
                    "{absent} has been away (no stream, no move) for {} ms; a claim needs {} ms (clock.abandon_after_ms)",
                    at_ms.saturating_sub(since),
                    self.clock.abandon_after.as_millis()
                ),
                Some(claimable_at),
            ));
        }
        Ok(())
    }

    /// One attempt of `submit`: the answer, or `Ok(Err(version))` when the store holds a newer
    /// version than this server did (or the request already). Boxed: it calls itself once, to append what the
    /// clocks decided before the request came.
    fn try_submit<'a>(
        &'a self,
        slot: &'a Slot<E::Message>,
        seat: Player,
        action: Action,
        expected_version: Option<u64>,
        request_id: &'a str,
        at_ms: u64,
    ) -> BoxFuture<'a, Result<Result<MatchEvent, u64>, MatchError>> {
        Box::pin(self.try_submit_once(slot, seat, action, expected_version, request_id, at_ms))
    }

    /// The attempt in its steps: a retried request answered again, the checks that the match still takes this
    /// action, what the clocks decided first, the action's own checks (a move played), then the store's
    /// check-and-append, what the event tells beyond the match, and the event applied and published.
    async fn try_submit_once(
        &self,
        slot: &Slot<E::Message>,
        seat: Player,
        action: Action,
        expected_version: Option<u64>,
        request_id: &str,
        at_ms: u64,
    ) -> Result<Result<MatchEvent, u64>, MatchError> {
        let (earlier, (game, mut clocks, mut across, version, finished)) = {
            let live = lock(&slot.live);
            (
                live.requests.get(request_id).copied(),
                (
                    live.game.clone(),
                    live.clocks,
                    live.across.clone(),
                    live.version,
                    live.finished,
                ),
            )
        };
        if let Some((seq, player, earlier)) = earlier {
            if (player, earlier) != (seat, action) {
                return Err(MatchError::invalid(
                    "request_id",
                    format!("request_id {request_id:?} was used for another request (event {seq})"),
                ));
            }
            return self.earlier_answer(slot, seq).await.map(Ok);
        }
        check_still_open(
            seat,
            action,
            expected_version,
            (&game, version, finished),
            at_ms,
        )?;
        if let Some(due) = clocks.due_at(at_ms) {
            if (seat, action) != (due.seat(), due.action()) {
                return self.due_first(slot, due, seat, action, at_ms).await;
            }
        }
        let Some((mut game, mut trace)) = self
            .carry_out(slot, seat, action, game, (&clocks, &across), at_ms)
            .await?
        else {
            // Only the server writes a flag, from clocks it has just read: another server's event moved the
            // match on meanwhile (the store's feed applies it without this lock). Read again and decide again.
            return Ok(Err(version + 1));
        };
        // §1's rules of endless play, exactly as the log's replay applies them (`notation::play_event`).
        let ending = match action {
            Action::Move(_) => across.after_move(&mut game, seat, &mut trace),
            Action::Agreement(agreement) => across.agree(&mut game, seat, agreement, &mut trace),
            _ => None,
        };
        clocks.after(seat, &action, at_ms, &game);
        let event = EventRecord {
            seq: version + 1,
            player: seat,
            action,
            request_id: request_id.to_string(),
            at_ms,
        };
        let finished = finished_by(&event, &game, ending);
        let record = match self.append_checked(slot, &event, &clocks, finished).await? {
            Ok(record) => record,
            // Another server sharing the store got there first.
            Err(current) => return Ok(Err(current)),
        };
        self.announce(slot, &event, record, finished);
        Ok(Ok(self.publish(
            slot,
            event,
            &trace,
            (game, clocks, across),
            finished,
        )))
    }

    /// The clocks decided before this request came (`due`): what they decided is appended first, and the request
    /// is refused (a sowing after its seat's flag, with its own reason); `Ok(Err(version))` when the store held a
    /// newer version.
    async fn due_first(
        &self,
        slot: &Slot<E::Message>,
        due: Due,
        seat: Player,
        action: Action,
        at_ms: u64,
    ) -> Result<Result<MatchEvent, u64>, MatchError> {
        if let Err(stored) = self
            .try_submit(slot, due.seat(), due.action(), None, "", due.at_ms())
            .await?
        {
            return Ok(Err(stored));
        }
        Err(match (due, action) {
            (
                Due::Flag {
                    seat: flagged,
                    at_ms: flag_at,
                },
                Action::Move(engine::Move::Sow(_)),
            ) if flagged == seat => out_of_time(seat, at_ms, flag_at),
            _ => MatchError::match_over(),
        })
    }

    /// The checks of `action` itself, and a move played: the state after it and the engine's trace (empty but for
    /// a move); `None` when the flag it writes is no longer due.
    async fn carry_out(
        &self,
        slot: &Slot<E::Message>,
        seat: Player,
        action: Action,
        game: AnyGame,
        (clocks, across): (&Clocks, &AcrossTurns),
        at_ms: u64,
    ) -> Result<Option<(AnyGame, Vec<Event>)>, MatchError> {
        match action {
            Action::Agreement(agreement) => {
                across
                    .check_agreement(&game, seat, agreement)
                    .map_err(MatchError::Agreement)?;
                Ok(Some((game, Vec::new())))
            }
            Action::Expire if !self.idle_at(slot, at_ms) => {
                // Played on meanwhile (here or on another replica): nothing to expire.
                Err(MatchError::invalid("action", "the match is not idle"))
            }
            Action::Flag if clocks.due_at(at_ms) != Some(Due::Flag { seat, at_ms }) => Ok(None),
            Action::Abort if clocks.started() => Err(MatchError::Timing {
                reason: "ABORT_TOO_LATE",
                message:
                    "each seat has sown once: the match can no longer be aborted (resign instead)"
                        .into(),
                metadata: Vec::new(),
            }),
            Action::Claim => {
                self.claim_refusal(slot, seat, &game, clocks, at_ms).await?;
                Ok(Some((game, Vec::new())))
            }
            Action::Move(mv) => {
                self.check_turn(slot, seat, mv, &game)?;
                self.play(slot, game, mv).await.map(Some)
            }
            _ => Ok(Some((game, Vec::new()))),
        }
    }

    /// Appends `event` with the header it leaves the match with (`finished`, the clocks' next deadline), through
    /// the store's check-and-append: the one call of `MatchStore::append` outside `store/`. The header written, or
    /// `Ok(Err(version))` when another server sharing the store got there first.
    async fn append_checked(
        &self,
        slot: &Slot<E::Message>,
        event: &EventRecord,
        clocks: &Clocks,
        finished: Option<Finished>,
    ) -> Result<Result<MatchRecord, u64>, MatchError> {
        let mut record = slot.record(event.seq, finished);
        record.active_ms = event.at_ms;
        record.deadline_ms = next_deadline(clocks, finished);
        let started = std::time::Instant::now();
        let appended = self.store.append(&record, event).await;
        self.metrics.store_appended(started.elapsed());
        match appended {
            Ok(()) => Ok(Ok(record)),
            Err(StoreError::Conflict { current }) => Ok(Err(current)),
            Err(StoreError::NotFound) => Err(MatchError::NotFound(slot.id.to_string())),
            Err(e) => Err(store_failed("appending a move", Some(slot.id), e)),
        }
    }

    /// What an appended event tells beyond the match's watchers: the metrics, the log of a match's end (once, by
    /// the replica that appended its last event), and the follower of lifecycles (a start, an end).
    fn announce(
        &self,
        slot: &Slot<E::Message>,
        event: &EventRecord,
        record: MatchRecord,
        finished: Option<Finished>,
    ) {
        let (seat, action) = (event.player, event.action);
        if let Action::Move(_) = action {
            self.metrics.move_applied(slot.kind.slug());
        }
        if event.seq == 1 {
            self.tell(super::Lifecycle::Started(record.clone()));
        }
        if let Some(finished) = finished {
            // Logged here, where the replica that wrote the last event learns it ended: once per match, with the
            // reason's own name, whatever the reason.
            tracing::info!(match_id = %slot.id, reason = finished.reason.name(), seq = event.seq, event = notation::event_line(seat, &action), "match ended");
            self.metrics.match_ended(finished.reason.name());
            self.tell(super::Lifecycle::Finished(record));
        }
    }

    /// Applies the appended `event` here and publishes it to the watchers, encoded here, outside the match's
    /// locks, once for every watcher: the answer.
    fn publish(
        &self,
        slot: &Slot<E::Message>,
        event: EventRecord,
        trace: &[Event],
        (game, clocks, across): Position,
        finished: Option<Finished>,
    ) -> MatchEvent {
        let answer = match_event(&event, trace, (&game, &clocks, &across), finished);
        let message = self.encoder.encode(Update::Event(&answer));
        self.advance(
            slot,
            Advance {
                events: vec![(event, message)],
                game,
                clocks,
                across,
                version: answer.seq,
                finished,
            },
        );
        answer
    }

    /// Plays `mv` on `game` within the move budget (a move is never accepted undecided): inline while it stays
    /// within `inline_laps` laps, as nearly every move does, else again from the start on the engine pool's long
    /// lane (for the match's tenant, the match as its caller), so that a long relay never holds an async worker
    /// and takes its fair turn with the callers' long work. The state after it, and the engine's trace.
    async fn play(
        &self,
        slot: &Slot<E::Message>,
        game: AnyGame,
        mv: engine::Move,
    ) -> Result<(AnyGame, Vec<Event>), MatchError> {
        let full = self.move_budget.limit();
        let mut trace = Vec::new();
        let mut after = game.clone();
        match Budget::laps(self.inline_laps.min(full)).run(|| after.play(&mv, &mut trace)) {
            Ok((played, _)) => return played.map(|()| (after, trace)).map_err(MatchError::Illegal),
            Err(engine::Unfinished::Exhausted { .. }) if full > self.inline_laps => {}
            Err(unfinished) => return Err(unfinished.into()),
        }
        let budget = self.move_budget.clone();
        let long_move = move || {
            let (mut game, mut trace) = (game, Vec::new());
            budget
                .run(|| game.play(&mv, &mut trace))
                .map(|(played, _)| played.map(|()| (game, trace)))
        };
        let played = match &self.engine {
            Some(pool) => {
                let owner = crate::pool::Owner::new(&slot.tenant, &format!("match {}", slot.id));
                pool.run_move(owner, long_move)
                    .await
                    .map_err(|e| match e {
                        crate::pool::WorkError::Unfinished(unfinished) => unfinished,
                        // Only the server's stop refuses a move's turn.
                        _ => engine::Unfinished::Cancelled,
                    })
                    .and_then(|ran| ran)
            }
            None => tokio::task::spawn_blocking(long_move)
                .await
                .map_err(|e| MatchError::Internal(format!("a move's engine work failed: {e}")))?,
        };
        played?.map_err(MatchError::Illegal)
    }

    /// Refuses a move `seat` may not make now: a sowing out of turn, or a bot's choice between games.
    fn check_turn(
        &self,
        slot: &Slot<E::Message>,
        seat: Player,
        mv: engine::Move,
        game: &AnyGame,
    ) -> Result<(), MatchError> {
        if let (engine::Move::Sow(_), Some(to_move)) = (mv, game.to_move()) {
            if to_move != seat {
                if let Some(bot) = slot.bots[to_move.index()] {
                    return Err(MatchError::PermissionDenied(format!(
                        "it is {to_move}'s turn, and {to_move} is the server's opponent (level {}): \
                         the server plays its moves; wait for its event",
                        bot.level
                    )));
                }
                return Err(MatchError::PermissionDenied(format!(
                    "it is {to_move}'s turn; {seat} may not sow now"
                )));
            }
        }
        // A between-games choice is its chooser's alone (§3.4 step 4, §4.4 step 3); the default is anyone's.
        game.check_chooser(seat, &mv)
            .map_err(MatchError::NotYourChoice)?;
        let has_bot = slot.bots.iter().any(Option::is_some);
        if let (engine::Move::NextGame(_), true) = (mv, has_bot) {
            // Either seat may start the next game, except that a bot's choice is the bot's to make.
            let chooser = super::bots::actor(game).filter(|_| game.status() != Status::InProgress);
            if let Some(chooser) = chooser.filter(|&chooser| chooser != seat) {
                if let Some(bot) = slot.bots[chooser.index()] {
                    return Err(MatchError::PermissionDenied(format!(
                        "between games {chooser} chooses, and {chooser} is the server's opponent (level {}): \
                         the server sends its NextGame; wait for its event",
                        bot.level
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Refuses an action the match as it stands no longer takes: a sowing after its seat's flag fell (whatever version
/// it expected), a stale `expected_version`, any action once the match is over, an eliminated seat's.
fn check_still_open(
    seat: Player,
    action: Action,
    expected_version: Option<u64>,
    (game, version, finished): (&AnyGame, u64, Option<Finished>),
    at_ms: u64,
) -> Result<(), MatchError> {
    if let (Some(ended), Action::Move(engine::Move::Sow(_))) = (finished, action) {
        // The flag falls on the seat to move, which the flag event leaves as it was.
        if ended.reason == EndReason::TimeForfeit && game.to_move() == Some(seat) {
            // The flag fell (and was written) before this sowing came: say so, whatever version it expected.
            return Err(out_of_time(seat, at_ms, ended.at_ms));
        }
    }
    if let Some(expected) = expected_version {
        if expected != version {
            return Err(MatchError::VersionMismatch {
                expected,
                current: version,
            });
        }
    }
    if finished.is_some() {
        return Err(MatchError::match_over());
    }
    let by_a_seat = matches!(
        action,
        Action::Move(_) | Action::Resign | Action::Abort | Action::Claim | Action::Agreement(_)
    );
    if by_a_seat && !game.in_match(seat) {
        // An eliminated player of three-player Ba-awa neither plays nor ends the others' match.
        return Err(MatchError::PermissionDenied(format!(
            "{seat} is out of the match (eliminated, docs/ba-awa.md §4.7) and no longer acts in it"
        )));
    }
    Ok(())
}
