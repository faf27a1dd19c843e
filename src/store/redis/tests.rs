//! The Redis store against a real Redis (or cluster: `MANCALA_TEST_REDIS_URL`): the scripts' arguments, a read past
//! the log, `WAIT`, the indexes of an earlier version, the count of unfinished matches.

use super::*;

/// A new Ba-awa match of tenant `acme`, its id all `n`.
fn record(n: u8) -> MatchRecord {
    crate::store::tests::record(n, crate::engine::GameKind::BaAwa)
}

#[tokio::test]
async fn a_read_past_the_log_is_the_header_alone() {
    use crate::engine::{Move, Player, Sow};
    use crate::store::{Action, EventRecord};
    let url = crate::store::test_redis_url();
    let prefix = format!("mancala-test-read-past-{}:", std::process::id());
    let store = RedisStore::open(&url, &prefix, Some(Duration::from_secs(60)))
        .await
        .unwrap();
    let mut record = record(7);
    store.create(&record, None).await.unwrap();
    record.version = 1;
    let event = EventRecord {
        seq: 1,
        player: Player::South,
        action: Action::Move(Move::Sow(Sow::from(3))),
        request_id: String::new(),
        at_ms: 2,
    };
    store.append(&record, &event).await.unwrap();
    for after in [1, 2, u64::MAX] {
        let read = store
            .events_after(&record.id, after)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(read.record, record, "after {after}");
        assert!(read.events.is_empty(), "after {after}: {:?}", read.events);
    }
    assert_eq!(
        store
            .events_after(&record.id, 0)
            .await
            .unwrap()
            .unwrap()
            .events,
        [event]
    );
}

#[tokio::test]
async fn a_write_is_acknowledged_once_it_reached_the_replicas_asked_for() {
    let url = crate::store::test_redis_url();
    let prefix = format!("mancala-test-wait-{}:", std::process::id());
    // More replicas than any primary here has: refused, saying how many it reached of how many.
    let store = RedisStore::open(&url, &prefix, None)
        .await
        .unwrap()
        .require_replicas(9, Duration::from_millis(50));
    match store.create(&record(1), None).await {
        Err(StoreError::Unavailable(why)) => {
            assert!(why.contains("of the 9 Redis replicas"), "{why}");
            assert!(why.contains("within 50 ms"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // Written all the same (WAIT does not undo it), and a retry finds it.
    assert!(store.load(&MatchId([1; 16])).await.unwrap().is_some());
    // As many as the primary has: acknowledged.
    let slot = keys::slot(store.keys.header(&MatchId([2; 16])).as_bytes());
    let replicas = store
        .with(|mut con| async move { con.wait(slot, 0, Duration::from_millis(1)).await })
        .await
        .unwrap();
    let store = store.require_replicas(replicas, Duration::from_secs(5));
    store.create(&record(2), None).await.unwrap();
    assert!(store.load(&MatchId([2; 16])).await.unwrap().is_some());
}

#[tokio::test]
async fn the_single_indexes_of_an_earlier_version_move_into_their_buckets() {
    let url = crate::store::test_redis_url();
    let prefix = format!("mancala-test-legacy-{}:", std::process::id());
    let store = RedisStore::open(&url, &prefix, None).await.unwrap();
    // Two matches as an earlier version left them: indexed in `P ids` and `P finished` only, the finished one's
    // header without `f`.
    let (active, done) = (record(0x11), record(0xee));
    for m in [&active, &done] {
        store.create(m, None).await.unwrap();
    }
    let keys = store.keys.clone();
    let _: () = store
        .with(|mut con| async move {
            for id in [MatchId([0x11; 16]), MatchId([0xee; 16])] {
                redis::cmd("ZREM")
                    .arg(keys.ids(Keys::bucket(&id)))
                    .arg(id.to_string())
                    .query_async::<()>(&mut con)
                    .await?;
                redis::cmd("ZADD")
                    .arg(keys.legacy_ids())
                    .arg(0)
                    .arg(id.to_string())
                    .query_async::<()>(&mut con)
                    .await?;
            }
            redis::cmd("ZADD")
                .arg(keys.legacy_finished())
                .arg(5)
                .arg(MatchId([0xee; 16]).to_string())
                .query_async(&mut con)
                .await
        })
        .await
        .unwrap();
    let all = ListQuery {
        limit: 10,
        ..ListQuery::default()
    };
    assert!(store.list(&all).await.unwrap().is_empty(), "not yet moved");
    // The next server to start moves them.
    let store = RedisStore::open(&url, &prefix, None).await.unwrap();
    let listed: Vec<MatchId> = store
        .list(&all)
        .await
        .unwrap()
        .iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(listed, [active.id, done.id], "in id order, across buckets");
    assert_eq!(store.purge_finished_before(6).await.unwrap(), [done.id]);
    assert!(store.load(&done.id).await.unwrap().is_none());
    assert!(store.load(&active.id).await.unwrap().is_some());
    let keys = store.keys.clone();
    let left: (bool, bool) = store
        .with(|mut con| async move {
            let ids = redis::cmd("EXISTS")
                .arg(keys.legacy_ids())
                .query_async(&mut con)
                .await?;
            let done = redis::cmd("EXISTS")
                .arg(keys.legacy_finished())
                .query_async(&mut con)
                .await?;
            Ok((ids, done))
        })
        .await
        .unwrap();
    assert_eq!(left, (false, false), "the old keys are gone");
}

#[tokio::test]
async fn a_finished_match_a_killed_server_left_counted_is_pruned_when_the_limit_refuses() {
    use crate::engine::Player;
    use crate::store::{Action, EndReason, EventRecord, Finished};
    let url = crate::store::test_redis_url();
    let prefix = format!("mancala-test-prune-{}:", std::process::id());
    let store = RedisStore::open(&url, &prefix, None).await.unwrap();
    let mut first = record(0x21);
    store.create(&first, Some(1)).await.unwrap();
    assert!(matches!(
        store.create(&record(0x22), Some(1)).await,
        Err(StoreError::TooManyActive { active: 1 })
    ));
    // It ends by resignation; the server dies before taking it off its tenant's count (put back here).
    first.version = 1;
    first.finished = Some(Finished {
        at_ms: 9,
        winner: Some(Player::North),
        resigned: Some(Player::South),
        reason: EndReason::Resignation,
    });
    let resign = EventRecord {
        seq: 1,
        player: Player::South,
        action: Action::Resign,
        request_id: "r-1".into(),
        at_ms: 9,
    };
    store.append(&first, &resign).await.unwrap();
    assert_eq!(store.unfinished_count("acme").await.unwrap(), 0);
    let active = store.keys.active("acme");
    let _: () = store
        .with(|mut con| async move {
            redis::cmd("SADD")
                .arg(active)
                .arg(MatchId([0x21; 16]).to_string())
                .query_async(&mut con)
                .await
        })
        .await
        .unwrap();
    assert_eq!(store.unfinished_count("acme").await.unwrap(), 1);
    // The next creation the limit would refuse prunes it, and goes through.
    store.create(&record(0x22), Some(1)).await.unwrap();
    assert_eq!(store.unfinished_count("acme").await.unwrap(), 1);
    assert!(matches!(
        store.create(&record(0x23), Some(1)).await,
        Err(StoreError::TooManyActive { active: 1 })
    ));
}

#[test]
fn scripts_name_their_keys_and_arguments_as_append_passes_them() {
    // A guard against editing one side only: the script reads ARGV[1]..ARGV[7], KEYS[1]..KEYS[3].
    for n in 1..=7 {
        assert!(APPEND.contains(&format!("ARGV[{n}]")), "ARGV[{n}]");
    }
    assert!(!APPEND.contains("ARGV[8]"));
    for n in 1..=3 {
        assert!(APPEND.contains(&format!("KEYS[{n}]")), "KEYS[{n}]");
    }
    assert!(!APPEND.contains("KEYS[4]"));
    assert!(RESERVE.contains("ARGV[2]") && !RESERVE.contains("KEYS[2]"));
    assert!(CREATE.contains("ARGV[2]") && !CREATE.contains("KEYS[2]"));
    assert!(PURGE.contains("KEYS[3]") && !PURGE.contains("ARGV[2]"));
}
