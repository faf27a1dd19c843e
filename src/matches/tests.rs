//! The match manager without the network: what is easier to pin down here than over a channel
//! (a watcher that is never polled, two servers sharing one store, the retention purge).

use super::*;
use crate::config::{Settings, StoreKind};
use crate::engine::{AnyGame, Move, Options};
use crate::store::MemoryStore;
use std::future::Future;
use std::time::Duration;
use tokio_stream::StreamExt;

/// What a watcher was sent, in domain terms: enough to follow its cursor.
#[derive(Debug, Clone)]
enum Kind {
    Snapshot {
        version: u64,
        reason: SnapshotReason,
    },
    Event {
        seq: u64,
    },
    Presence,
    Finished,
    Heartbeat,
}

/// The encoder of these tests: it keeps what the assertions read.
#[derive(Debug, Clone, Copy)]
struct Plain;

impl Encoder for Plain {
    type Message = Kind;

    fn encode(&self, update: Update<'_>) -> Kind {
        match update {
            Update::Snapshot(view, reason) => Kind::Snapshot {
                version: view.version,
                reason,
            },
            Update::Event(event) => Kind::Event { seq: event.seq },
            Update::Presence { .. } => Kind::Presence,
            Update::Finished { .. } => Kind::Finished,
            Update::Heartbeat { .. } => Kind::Heartbeat,
        }
    }
}

fn manager(store: Arc<dyn MatchStore>, settings: MatchSettings) -> Matches<Plain> {
    Matches::with_store(store, settings, Plain)
}

async fn within<F: Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(20), f)
        .await
        .expect("timed out")
}

fn settings(buffer: usize) -> MatchSettings {
    let mut settings = Settings::default().matches;
    settings.store = StoreKind::Memory;
    settings.watcher_buffer = buffer;
    settings.heartbeat_interval = None;
    settings
}

/// Plays the first legal move for the seat whose turn it is (South for `NextGame`).
async fn play_first(
    matches: &Matches<Plain>,
    id: &str,
    tokens: &[Option<String>; crate::store::SEATS],
) -> Result<MatchEvent, MatchError> {
    play_nth(matches, id, tokens, 0).await
}

/// Plays legal move `n` (modulo their number) for the seat whose turn it is (South for `NextGame`).
async fn play_nth(
    matches: &Matches<Plain>,
    id: &str,
    tokens: &[Option<String>; crate::store::SEATS],
    n: usize,
) -> Result<MatchEvent, MatchError> {
    let state = matches.get(&Access::anonymous(None), id).await?;
    let legal_moves = state.legal_moves();
    let mv = legal_moves[n % legal_moves.len()];
    let seat = match state.game.to_move() {
        Some(Player::North) => 1,
        _ => 0,
    };
    matches
        .submit(
            &Access::anonymous(tokens[seat].as_deref()),
            id,
            Action::Move(mv),
            None,
            String::new(),
        )
        .await
}

#[tokio::test]
async fn a_watcher_that_is_never_read_is_resynchronised_and_never_delays_a_move() {
    let matches = manager(Arc::new(MemoryStore::new()), settings(2));
    let created = matches
        .create(GameKind::BaAwa, Options::default(), Owner::default())
        .await
        .unwrap();
    let id = created.view.id.to_string();
    let mut slow = matches
        .watch(&Access::anonymous(None), &id, None)
        .await
        .unwrap();
    // Take the initial snapshot first, so the watcher is known to be running and subscribed at version 0
    // before the moves (otherwise its first snapshot may already be at version 30, with nothing to resync).
    let first = within(slow.next()).await.expect("a snapshot").unwrap();
    let Kind::Snapshot { version, .. } = first else {
        panic!("the stream opens with a snapshot: {first:?}")
    };
    assert_eq!(version, 0);
    // Far more moves than the outgoing queue and the broadcast buffer hold together.
    for _ in 0..30 {
        within(play_first(&matches, &id, &created.tokens))
            .await
            .unwrap();
    }
    let mut cursor = Some(0);
    let mut resynced = false;
    while cursor != Some(30) {
        let message = within(slow.next())
            .await
            .expect("the stream goes on")
            .unwrap();
        match message {
            Kind::Snapshot { version, reason } => {
                resynced |= reason == SnapshotReason::Resync;
                cursor = Some(version);
            }
            Kind::Event { seq } => {
                // Never a gap, never a duplicate, whatever was skipped by a snapshot.
                assert_eq!(Some(seq), cursor.map(|c| c + 1), "events follow the cursor");
                cursor = Some(seq);
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(
        resynced,
        "a watcher 30 events behind a buffer of 2 is resynchronised"
    );
}

#[tokio::test]
async fn two_servers_sharing_a_store_never_both_accept_the_same_version() {
    let store: Arc<dyn MatchStore> = Arc::new(MemoryStore::new());
    let a = manager(store.clone(), settings(8));
    let b = manager(store, settings(8));
    let created = a
        .create(GameKind::BaAwa, Options::default(), Owner::default())
        .await
        .unwrap();
    let id = created.view.id.to_string();
    // b loads the match at version 0, then a moves it on.
    assert_eq!(
        b.get(&Access::anonymous(None), &id).await.unwrap().version,
        0
    );
    let mut b_watcher = b
        .watch(&Access::anonymous(None), &id, Some(0))
        .await
        .unwrap();
    let stale = b.get(&Access::anonymous(None), &id).await.unwrap();
    play_first(&a, &id, &created.tokens).await.unwrap();
    // b still believes version 0: the store's check-and-append refuses its move, b catches up,
    // and the client's expected version 0 is now stale.
    let refused = b
        .submit(
            &Access::anonymous(created.tokens[0].as_deref()),
            &id,
            Action::Move(stale.legal_moves()[0]),
            Some(0),
            String::new(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(
            refused,
            MatchError::VersionMismatch {
                expected: 0,
                current: 1
            }
        ),
        "{refused:?}"
    );
    assert_eq!(
        b.get(&Access::anonymous(None), &id).await.unwrap().version,
        1
    );
    assert_eq!(play_first(&b, &id, &created.tokens).await.unwrap().seq, 2);
    // Now a is behind (at version 1): a resignation sent there without an expected version is
    // refused by the store, a catches up, checks it again, and it applies to version 2.
    let resigned = a
        .submit(
            &Access::anonymous(created.tokens[1].as_deref()),
            &id,
            Action::Resign,
            None,
            String::new(),
        )
        .await
        .unwrap();
    assert_eq!(
        resigned.seq, 3,
        "checked again after catching up, not refused"
    );
    // b's watcher saw a's move (published by b's catch-up) and b's, in order.
    for expected in 1..=2 {
        match within(b_watcher.next()).await.unwrap().unwrap() {
            Kind::Event { seq } => assert_eq!(seq, expected),
            other => panic!("{other:?}"),
        }
    }
}

#[tokio::test]
async fn finished_matches_are_purged_after_their_retention_and_active_ones_never() {
    let mut settings = settings(8);
    settings.retention = Some(Duration::from_secs(60));
    let matches = manager(Arc::new(MemoryStore::new()), settings);
    let done = matches
        .create(GameKind::BaAwa, Options::default(), Owner::default())
        .await
        .unwrap();
    let active = matches
        .create(GameKind::BaAwa, Options::default(), Owner::default())
        .await
        .unwrap();
    let done_id = done.view.id.to_string();
    matches
        .submit(
            &Access::anonymous(done.tokens[1].as_deref()),
            &done_id,
            Action::Resign,
            None,
            String::new(),
        )
        .await
        .unwrap();
    assert_eq!(
        matches
            .purge_expired_at(crate::clock::Time::now_ms(&crate::clock::SystemTime))
            .await
            .unwrap(),
        0,
        "within the retention"
    );
    assert_eq!(
        matches
            .purge_expired_at(crate::clock::Time::now_ms(&crate::clock::SystemTime) + 61_000)
            .await
            .unwrap(),
        1
    );
    assert!(matches!(
        matches.get(&Access::anonymous(None), &done_id).await,
        Err(MatchError::NotFound(_))
    ));
    assert_eq!(
        matches
            .get(&Access::anonymous(None), &active.view.id.to_string())
            .await
            .unwrap()
            .version,
        0
    );
}

#[tokio::test]
async fn every_implemented_game_plays_a_whole_match_with_next_game_steps() {
    for kind in GameKind::ALL {
        let matches = manager(Arc::new(MemoryStore::new()), settings(8));
        let created = matches
            .create(kind, Options::default(), Owner::default())
            .await
            .unwrap();
        let id = created.view.id.to_string();
        let mut next_games = 0;
        let mut finished = false;
        let mut n = 0usize;
        for _ in 0..3_000 {
            // Vary the moves: always the first one can go round in circles.
            n = n.wrapping_mul(31).wrapping_add(7);
            let event = play_nth(&matches, &id, &created.tokens, n).await.unwrap();
            if let Action::Move(Move::NextGame(_)) = event.action {
                next_games += 1;
            }
            if event.legal_moves().is_empty() {
                finished = true;
                break;
            }
        }
        let state = matches.get(&Access::anonymous(None), &id).await.unwrap();
        // A Ba-awa match always ends, after several games; the others may go on for long under
        // arbitrary play, so only what was played is checked for them.
        if kind == GameKind::BaAwa {
            assert!(
                finished && next_games > 0,
                "{kind:?}: {next_games} NextGame steps"
            );
        }
        if finished {
            assert!(state.finished.is_some(), "{kind:?}: finished");
            assert_eq!(
                state.finished.unwrap().resigned,
                None,
                "{kind:?}: played out"
            );
        }
        let history = matches
            .history(&Access::anonymous(None), &id)
            .await
            .unwrap();
        let replayed = notation::replay(&history.notation).unwrap();
        assert_eq!(replayed.game, history.events.last().unwrap().game);
    }
}

/// A manager on a manual clock with no keeper running: time passes only when a test says, and nothing is settled
/// unless a request (or the test) comes.
fn manual_manager(time: &crate::clock::ManualTime) -> Matches<Plain> {
    manager(Arc::new(MemoryStore::new()), settings(64))
        .with_clock(DEFAULT_CLOCK, Arc::new(time.clone()))
}

fn fischer(initial_ms: u64, increment_ms: u64) -> TimeControl {
    TimeControl::Fischer {
        initial_ms,
        increment_ms,
    }
}

async fn create_timed(
    matches: &Matches<Plain>,
    control: TimeControl,
) -> (String, [Option<String>; crate::store::SEATS]) {
    let created = matches
        .create(
            GameKind::Bosh,
            Options::default(),
            Owner {
                time_control: control,
                ..Owner::default()
            },
        )
        .await
        .unwrap();
    (created.view.id.to_string(), created.tokens)
}

#[tokio::test]
async fn a_sowing_after_the_flag_is_refused_as_out_of_time_and_the_flag_is_written_first() {
    let time = crate::clock::ManualTime::new(1_000_000);
    let matches = manual_manager(&time);
    let (id, tokens) = create_timed(&matches, fischer(10_000, 0)).await;
    play_first(&matches, &id, &tokens).await.unwrap();
    play_first(&matches, &id, &tokens).await.unwrap();
    let view = matches.get(&Access::anonymous(None), &id).await.unwrap();
    let flagged = view.game.to_move().unwrap();
    assert_eq!(view.clocks.running, Some(flagged));
    time.advance(10_001);
    let refused = play_first(&matches, &id, &tokens).await.unwrap_err();
    assert_eq!(refused.code(), "OUT_OF_TIME", "{refused:?}");
    let MatchError::Timing { metadata, .. } = &refused else {
        unreachable!()
    };
    assert_eq!(metadata, &vec![("flag_at_ms", 1_010_000)]);
    let view = matches.get(&Access::anonymous(None), &id).await.unwrap();
    let finished = view.finished.expect("lost on time");
    assert_eq!(finished.reason, crate::store::EndReason::TimeForfeit);
    assert_eq!(finished.winner, Some(flagged.opponent()));
    assert_eq!(finished.at_ms, 1_010_000, "the moment the flag fell");
    assert_eq!(view.version, 3);
    assert_eq!(view.clocks.remaining_ms[flagged.index()], 0);
    // Anything else after it: the match is over.
    let again = matches
        .submit(
            &Access::anonymous(tokens[0].as_deref()),
            &id,
            Action::Resign,
            None,
            String::new(),
        )
        .await
        .unwrap_err();
    assert_eq!(again.code(), "MATCH_OVER");
}

#[tokio::test]
async fn a_move_in_time_is_charged_and_earns_its_increment() {
    let time = crate::clock::ManualTime::new(0);
    let matches = manual_manager(&time);
    let (id, tokens) = create_timed(&matches, fischer(10_000, 3_000)).await;
    play_first(&matches, &id, &tokens).await.unwrap();
    time.advance(500);
    play_first(&matches, &id, &tokens).await.unwrap();
    time.advance(9_999);
    let event = play_first(&matches, &id, &tokens).await.unwrap();
    assert_eq!(event.clocks.remaining_ms[event.player.index()], 3_001);
    assert_eq!(event.clocks.running, Some(event.player.opponent()));
    // Not due yet for the other seat: settling finds nothing.
    assert!(matches
        .settle_clocks_at(MatchId::parse(&id).unwrap(), 500 + 9_999 + 9_999)
        .await
        .unwrap()
        .is_none());
    let settled = matches
        .settle_clocks_at(MatchId::parse(&id).unwrap(), 500 + 9_999 + 10_000)
        .await
        .unwrap()
        .expect("the flag falls");
    assert_eq!(settled.action, Action::Flag);
    assert_eq!(settled.player, event.player.opponent());
}

#[tokio::test]
async fn a_restarted_manager_settles_an_overdue_match_at_once_from_the_stored_deadline() {
    let time = crate::clock::ManualTime::new(5_000);
    let store: Arc<dyn MatchStore> = Arc::new(MemoryStore::new());
    let first =
        manager(store.clone(), settings(64)).with_clock(DEFAULT_CLOCK, Arc::new(time.clone()));
    let created = first
        .create(
            GameKind::Bosh,
            Options::default(),
            Owner {
                time_control: fischer(20_000, 0),
                ..Owner::default()
            },
        )
        .await
        .unwrap();
    let id = created.view.id.to_string();
    play_first(&first, &id, &created.tokens).await.unwrap();
    play_first(&first, &id, &created.tokens).await.unwrap();
    drop(first);
    time.advance(3_600_000);
    // A new manager over the same store knows nothing of the match until its keeper's first sweep reads the
    // header's deadline.
    let second = manager(store, settings(64)).with_clock(DEFAULT_CLOCK, Arc::new(time.clone()));
    let _keeper = second.spawn_clock_keeper();
    let finished = within(async {
        loop {
            let view = second.get(&Access::anonymous(None), &id).await.unwrap();
            if let Some(finished) = view.finished {
                return finished;
            }
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert_eq!(finished.reason, crate::store::EndReason::TimeForfeit);
    assert_eq!(
        finished.at_ms,
        5_000 + 20_000,
        "settled as of the flag, not of the restart"
    );
}

#[tokio::test]
async fn aborts_are_allowed_until_each_seat_has_sown_and_claims_need_the_absence() {
    let time = crate::clock::ManualTime::new(0);
    let matches = manual_manager(&time);
    // Aborted by North before North's first sowing.
    let (id, tokens) = create_timed(&matches, TimeControl::Untimed).await;
    play_first(&matches, &id, &tokens).await.unwrap();
    let north = Access::anonymous(tokens[1].as_deref());
    let aborted = matches
        .submit(&north, &id, Action::Abort, None, String::new())
        .await
        .unwrap();
    let finished = aborted.finished.unwrap();
    assert_eq!(finished.reason, crate::store::EndReason::Aborted);
    assert_eq!(finished.winner, None);
    // Too late once each seat has sown.
    let (id, tokens) = create_timed(&matches, TimeControl::Untimed).await;
    play_first(&matches, &id, &tokens).await.unwrap();
    play_first(&matches, &id, &tokens).await.unwrap();
    let south = Access::anonymous(tokens[0].as_deref());
    let late = matches
        .submit(&south, &id, Action::Abort, None, String::new())
        .await
        .unwrap_err();
    assert_eq!(late.code(), "ABORT_TOO_LATE");
    // A claim: only against the seat to move, only after its absence.
    let view = matches.get(&Access::anonymous(None), &id).await.unwrap();
    let absent = view.game.to_move().unwrap();
    let claimant = Access::anonymous(tokens[absent.opponent().index()].as_deref());
    let own = Access::anonymous(tokens[absent.index()].as_deref());
    let early = matches
        .submit(&claimant, &id, Action::Claim, None, String::new())
        .await
        .unwrap_err();
    assert_eq!(early.code(), "NOT_ABANDONED");
    let MatchError::Timing { metadata, .. } = &early else {
        unreachable!()
    };
    assert_eq!(metadata, &vec![("claimable_at_ms", 60_000)]);
    let own_turn = matches
        .submit(&own, &id, Action::Claim, None, String::new())
        .await
        .unwrap_err();
    assert_eq!(own_turn.code(), "NOT_ABANDONED");
    time.advance(60_000);
    let claimed = matches
        .submit(&claimant, &id, Action::Claim, None, String::new())
        .await
        .unwrap();
    let finished = claimed.finished.unwrap();
    assert_eq!(finished.reason, crate::store::EndReason::Abandoned);
    assert_eq!(finished.winner, Some(absent.opponent()));
    // Clients never write a flag themselves.
    let (id, tokens) = create_timed(&matches, fischer(1_000, 0)).await;
    let forged = matches
        .submit(
            &Access::anonymous(tokens[0].as_deref()),
            &id,
            Action::Flag,
            None,
            String::new(),
        )
        .await
        .unwrap_err();
    assert_eq!(forged.code(), "INVALID_ARGUMENT");
}

#[tokio::test]
async fn an_unstarted_timed_match_is_aborted_when_its_first_sowing_does_not_come() {
    let time = crate::clock::ManualTime::new(0);
    let matches = manual_manager(&time);
    let (id, _) = create_timed(&matches, fischer(300_000, 0)).await;
    let id = MatchId::parse(&id).unwrap();
    assert!(matches
        .settle_clocks_at(id, 59_999)
        .await
        .unwrap()
        .is_none());
    assert_eq!(matches.inner.timers.deadline_of(&id), Some(60_000));
    let aborted = matches
        .settle_clocks_at(id, 60_000)
        .await
        .unwrap()
        .expect("aborted");
    assert_eq!(aborted.action, Action::Abort);
    assert_eq!(aborted.player, Player::South);
    assert_eq!(
        aborted.finished.unwrap().reason,
        crate::store::EndReason::Aborted
    );
    assert_eq!(matches.inner.timers.deadline_of(&id), None);
}

#[test]
fn a_manager_without_clock_settings_keeps_the_built_in_defaults_of_clock() {
    assert_eq!(DEFAULT_CLOCK, Settings::default().clock);
}

/// The moves of a seeded random `kind` match up to the first one that spends laps (a relay past its sixteenth lap,
/// docs/common.md §1): the moves before it, and it.
fn up_to_a_metered_move(kind: GameKind) -> (Vec<Move>, Move) {
    let mut rng = crate::engine::Rng::new(7);
    let mut game = AnyGame::new_match(kind, &Options::default());
    let mut before = Vec::new();
    for _ in 0..100_000 {
        let moves = game.legal_moves();
        let mv = moves[rng.below(moves.len())];
        let mut trial = game.clone();
        if Budget::laps(0)
            .run(|| trial.play(&mv, &mut Vec::new()))
            .is_err()
        {
            return (before, mv);
        }
        game.play(&mv, &mut Vec::new()).expect("a listed move");
        before.push(mv);
        if game.status() == crate::engine::Status::MatchOver {
            game = AnyGame::new_match(kind, &Options::default());
            before.clear();
        }
    }
    panic!("no move of {kind:?} spent a lap in 100,000");
}

#[tokio::test]
async fn a_move_past_the_inline_laps_is_played_again_off_the_async_worker_under_the_move_budget() {
    let (before, long) = up_to_a_metered_move(GameKind::BaoLaKete);
    // (the move budget, the inline laps, whether the long move is accepted)
    for (budget, inline_laps, accepted) in [
        (u64::MAX, u64::MAX, true),
        (u64::MAX, 0, true),
        (1, 0, false),
    ] {
        let matches = manager(Arc::new(MemoryStore::new()), settings(64))
            .with_move_budget(Budget::laps(budget), inline_laps);
        let created = matches
            .create(GameKind::BaoLaKete, Options::default(), Owner::default())
            .await
            .unwrap();
        let id = created.view.id.to_string();
        for mv in before.iter().copied().chain([long]) {
            let state = matches.get(&Access::anonymous(None), &id).await.unwrap();
            let seat = state.game.to_move().unwrap_or(Player::South);
            let token = created.tokens[seat.index()].as_deref();
            let played = matches
                .submit(
                    &Access::anonymous(token),
                    &id,
                    Action::Move(mv),
                    None,
                    String::new(),
                )
                .await;
            match (mv == long, accepted, played) {
                (false, _, Ok(_)) | (true, true, Ok(_)) => {}
                (
                    true,
                    false,
                    Err(MatchError::Unfinished(crate::engine::Unfinished::Exhausted { budget: 1 })),
                ) => {}
                (_, _, other) => {
                    panic!("budget {budget}, inline {inline_laps}: {mv:?} gave {other:?}")
                }
            }
        }
        let version = matches
            .get(&Access::anonymous(None), &id)
            .await
            .unwrap()
            .version;
        let expected = before.len() as u64 + u64::from(accepted);
        assert_eq!(version, expected, "budget {budget}, inline {inline_laps}");
    }
}

/// A store whose next append, once armed, is committed but answered as failed: a commit whose fsync failed, found in
/// the file after the embedded store reopened it (`store::reopen`).
struct CommittedButFailed {
    inner: MemoryStore,
    armed: std::sync::atomic::AtomicBool,
}

#[async_trait::async_trait]
impl MatchStore for CommittedButFailed {
    async fn create(
        &self,
        record: &crate::store::MatchRecord,
        max_active: Option<u64>,
    ) -> Result<(), crate::store::StoreError> {
        self.inner.create(record, max_active).await
    }

    async fn unfinished_count(&self, tenant: &str) -> Result<u64, crate::store::StoreError> {
        self.inner.unfinished_count(tenant).await
    }

    async fn load(
        &self,
        id: &crate::store::MatchId,
    ) -> Result<Option<crate::store::StoredMatch>, crate::store::StoreError> {
        self.inner.load(id).await
    }

    async fn append(
        &self,
        record: &crate::store::MatchRecord,
        event: &crate::store::EventRecord,
    ) -> Result<(), crate::store::StoreError> {
        self.inner.append(record, event).await?;
        match self.armed.swap(false, std::sync::atomic::Ordering::SeqCst) {
            true => Err(crate::store::StoreError::Failed(
                "the commit's fsync failed".into(),
            )),
            false => Ok(()),
        }
    }

    async fn list(
        &self,
        query: &crate::store::ListQuery,
    ) -> Result<Vec<crate::store::MatchRecord>, crate::store::StoreError> {
        self.inner.list(query).await
    }

    async fn purge_finished_before(
        &self,
        cutoff_ms: u64,
    ) -> Result<Vec<crate::store::MatchId>, crate::store::StoreError> {
        self.inner.purge_finished_before(cutoff_ms).await
    }
}

#[tokio::test]
async fn a_move_reported_failed_but_committed_is_answered_once_when_sent_again_with_its_request_id()
{
    let store = Arc::new(CommittedButFailed {
        inner: MemoryStore::new(),
        armed: std::sync::atomic::AtomicBool::new(false),
    });
    let matches = manager(store.clone(), settings(8));
    let created = matches
        .create(GameKind::BaAwa, Options::default(), Owner::default())
        .await
        .unwrap();
    let id = created.view.id.to_string();
    let south = Access::anonymous(created.tokens[0].as_deref());
    let first = matches
        .get(&Access::anonymous(None), &id)
        .await
        .unwrap()
        .legal_moves()[0];
    let send = || {
        matches.submit(
            &south,
            &id,
            Action::Move(first),
            Some(0),
            "move-1".to_string(),
        )
    };
    store.armed.store(true, std::sync::atomic::Ordering::SeqCst);
    let failed = send().await.unwrap_err();
    assert!(matches!(failed, MatchError::Internal(_)), "{failed:?}");
    // Sent again as a client library does after a failure: the store's copy is found, not played a second time.
    let again = send().await.unwrap();
    assert_eq!(again.seq, 1);
    assert_eq!(
        matches
            .get(&Access::anonymous(None), &id)
            .await
            .unwrap()
            .version,
        1
    );
}
