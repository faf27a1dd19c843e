//! Clocks over two replicas sharing one Redis, both in this process on one manual clock (`support::timed`): a flag
//! that both replicas see fall is written once, and a seat connected to one replica cannot be claimed on the other.
//! Needs a Redis, as the other Redis tests (`matches_redis::redis_url`).

use crate::matches_redis::{redis_connection, redis_url, Prefix};
use crate::support::replica::{authed, history, next_event, seat_to_move, within};
use crate::support::timed::{create, departure, sow, watch, TimedServer, START_MS};
use mancala::api::pb;
use mancala::clock::{ManualTime, Time};
use mancala::config::{Settings, StoreKind};
use pb::watch_match_response::Kind;
use tonic_types::StatusExt;

fn over(prefix: &Prefix) -> impl Fn(&mut Settings) + '_ {
    move |settings| {
        settings.matches.store = StoreKind::Redis;
        settings.matches.redis_url = prefix.url().to_string();
        settings.matches.redis_key_prefix = prefix.name().to_string();
    }
}

fn fischer(initial_ms: u64) -> Option<pb::TimeControl> {
    Some(pb::TimeControl {
        control: Some(pb::time_control::Control::Fischer(pb::FischerTime {
            initial_ms,
            increment_ms: 0,
        })),
    })
}

#[tokio::test]
async fn a_flag_both_replicas_see_fall_is_written_once() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "clock-flag");
    let time = ManualTime::new(START_MS);
    let a = TimedServer::start(&time, over(&prefix)).await;
    let b = TimedServer::start(&time, over(&prefix)).await;
    let (mut on_a, mut on_b) = (a.matches(), b.matches());
    let (mut m, tokens) = create(&mut on_a, fischer(30_000)).await;
    sow(&mut on_a, &mut m, &tokens).await;
    sow(&mut on_b, &mut m, &tokens).await;
    // Both replicas hold the match, each with a watcher.
    let mut watch_a = watch(&mut on_a, &m, None).await;
    let mut watch_b = watch(&mut on_b, &m, None).await;
    time.advance(30_000);
    for stream in [&mut watch_a, &mut watch_b] {
        let flag = next_event(stream).await;
        assert_eq!(flag.seq, 3);
        assert!(matches!(
            flag.action,
            Some(pb::match_event::Action::Flag(_))
        ));
        match within("the end", stream.message())
            .await
            .unwrap()
            .unwrap()
            .kind
            .unwrap()
        {
            Kind::Finished(f) => {
                assert_eq!(f.version, 3);
                assert_eq!(
                    f.result.unwrap().reason,
                    pb::MatchEndReason::TimeForfeit as i32
                );
            }
            other => panic!("expected the end, got {other:?}"),
        }
    }
    for client in [&mut on_a, &mut on_b] {
        let log = history(client, &m.match_id).await;
        assert_eq!(log.events.len(), 3, "one flag, whoever settled it");
        assert!(
            log.notation.trim_end().ends_with("flag"),
            "{}",
            log.notation
        );
    }
}

#[tokio::test]
async fn a_seat_connected_to_one_replica_cannot_be_claimed_on_the_other() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "clock-claim");
    let time = ManualTime::new(START_MS);
    let a = TimedServer::start(&time, over(&prefix)).await;
    let b = TimedServer::start(&time, over(&prefix)).await;
    let (mut on_a, mut on_b) = (a.matches(), b.matches());
    // Clocks long enough that nobody's flag falls here.
    let (mut m, tokens) = create(&mut on_a, fischer(3_600_000)).await;
    sow(&mut on_a, &mut m, &tokens).await;
    sow(&mut on_a, &mut m, &tokens).await;
    let absent = seat_to_move(&m);
    let claimant = 1 - absent;
    // The seat to move watches on A; its opponent claims on B.
    let stream = watch(&mut on_a, &m, Some(&tokens[absent])).await;
    let mut spectator = watch(&mut on_a, &m, None).await;
    let mut redis = redis_connection(&url);
    let key = format!("{}seen:{{{}}}", prefix.name(), m.match_id);
    let field = ["S", "N"][absent];
    let seen_since = |redis: &mut dyn redis::ConnectionLike, at: u64| {
        let seen: Option<u64> = redis::cmd("HGET")
            .arg(&key)
            .arg(field)
            .query(redis)
            .unwrap();
        seen.is_some_and(|seen| seen >= at)
    };
    within("A records the seat's stream", async {
        while !seen_since(&mut *redis, START_MS) {
            // A short sleep, not a spin: the server's tasks and its blocking writes need the CPU more than this loop.
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await;
    let claim = |token: &str| {
        authed(
            pb::ClaimVictoryRequest {
                match_id: m.match_id.clone(),
                expected_version: None,
                request_id: String::new(),
            },
            token,
        )
    };
    // Twice the abandonment time later: B alone would see nothing of the seat since its turn began, but A's keeper
    // has recorded the open stream again.
    time.advance(120_000);
    let now = time.now_ms();
    within("A refreshes the seat's presence", async {
        while !seen_since(&mut *redis, now) {
            // A short sleep, not a spin: the server's tasks and its blocking writes need the CPU more than this loop.
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await;
    let refused = within("claim on B", on_b.claim_victory(claim(&tokens[claimant])))
        .await
        .unwrap_err();
    assert_eq!(
        refused.get_details_error_info().unwrap().reason,
        "NOT_ABANDONED",
        "{refused:?}"
    );
    // The seat leaves A: once the abandonment time has passed since, B grants the claim.
    drop(stream);
    departure(&mut spectator).await;
    time.advance(60_000);
    let event = within("claim on B", on_b.claim_victory(claim(&tokens[claimant])))
        .await
        .expect("granted")
        .into_inner()
        .event
        .unwrap();
    assert!(matches!(
        event.action,
        Some(pb::match_event::Action::Claim(_))
    ));
}
