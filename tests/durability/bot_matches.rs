//! Matches against the server's bot, through the real binary: a test client plays one seat through the gRPC
//! API, the server plays the other.
//!
//! - a whole match of each game on the embedded store, with the server killed (SIGKILL) twice: once while the
//!   person is to move, once while the bot is (its think delay set so long that it cannot have moved): the
//!   restarted server plays the pending bot move by itself, at start-up, and the match goes on to its end;
//! - two replicas over one Redis, one slow to answer for its bot and one sweeping often, so that both go for
//!   the same bot moves: every bot move is in the log exactly once, the loser drops its move.

use crate::matches_redis::{redis_url, Prefix};
use crate::support::bots::{self, next_event_after, Played, Until};
use crate::support::replica::{authed, history, within, Replica};
use mancala::api::pb;
use mancala::matches::notation;
use std::path::Path;
use tonic::Code;

/// The value of the series `name` (exact line prefix, labels included) in a scrape, or 0.
fn series(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .map_or(0.0, |value| value.parse().expect("a number"))
}

/// The binary on the embedded store in `data`, with a bot think delay of `delay_ms` and metrics.
async fn start(data: &Path, delay_ms: &str) -> Replica {
    let data = data.to_str().expect("a UTF-8 path");
    Replica::start(&[
        ("MANCALA__MATCHES__STORE", "embedded"),
        ("MANCALA__MATCHES__DATA_DIR", data),
        ("MANCALA__BOTS__THINK_DELAY_MS", delay_ms),
        ("MANCALA__METRICS__LISTEN", "127.0.0.1:0"),
    ])
    .await
}

/// A match of `kind` with South for a person (its token) and North for the bot at `level`.
async fn create_against_bot(
    client: &mut pb::matches_client::MatchesClient<tonic::transport::Channel>,
    kind: pb::GameKind,
    level: u32,
) -> (pb::Match, String) {
    let created = within(
        "create",
        client.create_match(pb::CreateMatchRequest {
            kind: kind as i32,
            options: None,
            players: vec![],
            bots: vec![pb::SeatBot {
                player: pb::Player::North as i32,
                level,
                seed: Some(7),
            }],
            time_control: None,
            start: None,
        }),
    )
    .await
    .expect("create")
    .into_inner();
    assert_eq!(created.tokens.len(), 1, "no token for the bot's seat");
    assert_eq!(created.tokens[0].player, pb::Player::South as i32);
    let m = created.r#match.expect("the match");
    assert_eq!(m.seats[0].bot_level, 0);
    assert_eq!(m.seats[1].bot_level, level);
    assert_eq!(m.seats[1].bot_seed, Some(7));
    (m, created.tokens[0].token.clone())
}

/// The log of a finished match checks out: seq 1, 2, 3 … with no gap or repeat, every event a move (nobody
/// resigned, nothing expired), the bot's seat with moves of its own, and the notation replays to the end.
fn check_log(log: &pb::GetHistoryResponse) -> usize {
    let m = log.r#match.as_ref().expect("the match");
    assert_eq!(m.status, pb::MatchStatus::Finished as i32);
    let result = m.result.as_ref().expect("a result");
    assert_eq!(result.reason, pb::MatchEndReason::PlayedOut as i32);
    for (i, event) in log.events.iter().enumerate() {
        assert_eq!(event.seq, i as u64 + 1, "no gap, no repeat");
        assert!(
            matches!(event.action, Some(pb::match_event::Action::Move(_))),
            "{event:?}"
        );
    }
    let bot_moves = log
        .events
        .iter()
        .filter(|e| e.player == pb::Player::North as i32)
        .count();
    assert!(bot_moves > 0, "the bot played");
    let replayed = notation::replay(&log.notation).expect("the notation replays");
    assert_eq!(replayed.events.len(), log.events.len());
    assert_eq!(
        Some(mancala::api::convert::state_to_pb(&replayed.game)),
        m.state
    );
    bot_moves
}

async fn whole_match_with_restarts(kind: pb::GameKind, level: u32) {
    let data = tempfile::tempdir().expect("a temporary data directory");
    let (mut turn, mut played) = (0, Played::default());
    let south = pb::Player::South;

    // Some play, then a kill while the person is to move.
    let mut server = start(data.path(), "0").await;
    let mut client = server.client().await;
    let (m, token) = create_against_bot(&mut client, kind, level).await;
    let id = m.match_id.clone();
    let m = bots::play(
        &mut client,
        &id,
        south,
        &token,
        Until::PersonToSowAt(10),
        &mut turn,
        &mut played,
    )
    .await;
    assert!(!bots::finished(&m), "the match goes past ten events");
    server.kill();

    // On a server whose bot waits a minute: the person moves, and the server dies with the bot to act.
    let mut server = start(data.path(), "60000").await;
    let mut client = server.client().await;
    let pending = bots::play(
        &mut client,
        &id,
        south,
        &token,
        Until::BotToAct,
        &mut turn,
        &mut played,
    )
    .await;
    assert!(pending.version > m.version, "the person moved");
    assert_eq!(bots::get(&mut client, &id).await.version, pending.version);
    server.kill();

    // The next server plays the bot's move by itself, at start-up.
    let server = start(data.path(), "0").await;
    let mut client = server.client().await;
    next_event_after(&mut client, &id, pending.version).await;
    let log = history(&mut client, &id).await;
    let answer = &log.events[pending.version as usize];
    assert_eq!(answer.player, pb::Player::North as i32, "the bot's move");
    let (status, text) = server.scrape("/metrics");
    assert!(status.contains("200"), "{status}");
    let game = mancala::api::convert::game_kind("kind", kind as i32)
        .expect("a game")
        .slug();
    assert!(
        series(
            &text,
            &format!(r#"mancala_bot_moves_total{{game="{game}"}}"#)
        ) >= 1.0,
        "{text}"
    );
    assert!(text.contains("mancala_bot_think_seconds_bucket"), "{text}");

    // And so to the end.
    let end = bots::play(
        &mut client,
        &id,
        south,
        &token,
        Until::End,
        &mut turn,
        &mut played,
    )
    .await;
    assert!(bots::finished(&end));
    let log = history(&mut client, &id).await;
    let bot_moves = check_log(&log);
    assert_eq!(
        bot_moves + played.moves,
        log.events.len(),
        "every event is the person's accepted move or the bot's"
    );
}

#[tokio::test]
async fn a_whole_ba_awa_match_against_the_bot_survives_restarts_while_the_bot_is_to_move() {
    whole_match_with_restarts(pb::GameKind::BaAwa, 2).await;
}

#[tokio::test]
async fn a_whole_bosh_match_against_the_bot_survives_restarts_while_the_bot_is_to_move() {
    whole_match_with_restarts(pb::GameKind::Bosh, 3).await;
}

#[tokio::test]
async fn a_whole_bao_la_kete_match_against_the_bot_survives_restarts_while_the_bot_is_to_move() {
    whole_match_with_restarts(pb::GameKind::BaoLaKete, 2).await;
}

#[tokio::test]
async fn the_person_cannot_move_for_the_bot_after_a_restart_either() {
    let data = tempfile::tempdir().expect("a temporary data directory");
    let server = start(data.path(), "60000").await;
    let mut client = server.client().await;
    let (m, token) = create_against_bot(&mut client, pb::GameKind::BaAwa, 1).await;
    let mut turn = 0;
    let m = bots::play(
        &mut client,
        &m.match_id,
        pb::Player::South,
        &token,
        Until::BotToAct,
        &mut turn,
        &mut Played::default(),
    )
    .await;
    let north_pit = m.legal_moves[0].clone();
    let refused = within(
        "submit for the bot",
        client.submit_move(authed(
            pb::SubmitMoveRequest {
                match_id: m.match_id.clone(),
                r#move: Some(north_pit),
                expected_version: Some(m.version),
                request_id: String::new(),
            },
            &token,
        )),
    )
    .await
    .expect_err("refused");
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    assert!(
        refused.message().contains("server's opponent"),
        "{refused:?}"
    );
}

#[tokio::test]
async fn over_redis_two_replicas_apply_each_bot_move_exactly_once() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "bots");
    // A, which the person plays on, waits 400 ms before its bot answers; B sweeps every 50 ms and answers at
    // once: B takes most of A's bot moves, and A's own tries lose the store's race.
    let slow = prefix
        .replica_with(&[
            ("MANCALA__BOTS__THINK_DELAY_MS", "400"),
            ("MANCALA__BOTS__SWEEP_INTERVAL_MS", "60000"),
        ])
        .await;
    let sweeping = prefix
        .replica_with(&[
            ("MANCALA__BOTS__THINK_DELAY_MS", "0"),
            ("MANCALA__BOTS__SWEEP_INTERVAL_MS", "50"),
        ])
        .await;
    let (mut on_a, mut on_b) = (slow.client().await, sweeping.client().await);
    let (m, token) = create_against_bot(&mut on_a, pb::GameKind::BaAwa, 1).await;
    let id = m.match_id.clone();
    let (mut turn, mut played) = (0, Played::default());
    let end = bots::play(
        &mut on_a,
        &id,
        pb::Player::South,
        &token,
        Until::End,
        &mut turn,
        &mut played,
    )
    .await;
    assert!(bots::finished(&end));
    let log = history(&mut on_a, &id).await;
    assert_eq!(history(&mut on_b, &id).await.events, log.events, "one log");
    let bot_events = check_log(&log);
    assert_eq!(bot_events + played.moves, log.events.len());

    let scrape = |replica: &Replica| {
        let (status, text) = replica.scrape("/metrics");
        assert!(status.contains("200"), "{status}");
        let played = series(&text, r#"mancala_bot_moves_total{game="ba-awa"}"#);
        let lost = series(
            &text,
            r#"mancala_bot_moves_dropped_total{reason="lost_race"}"#,
        );
        let failed = series(&text, r#"mancala_bot_moves_dropped_total{reason="store"}"#);
        (played, lost, failed)
    };
    let (played_a, lost_a, failed_a) = scrape(&slow);
    let (played_b, lost_b, failed_b) = scrape(&sweeping);
    assert_eq!(
        (played_a + played_b) as usize,
        bot_events,
        "every bot move in the log was played once, by one replica"
    );
    assert_eq!((failed_a, failed_b), (0.0, 0.0), "no failure, only races");
    assert!(played_b > 0.0, "the sweeping replica played A's bot moves");
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "bot moves: A played {played_a} (lost {lost_a} races), B played {played_b} (lost {lost_b})"
    );
}
