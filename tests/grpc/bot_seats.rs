//! Bot seats of server-held matches over a real channel (the server in-process, matches in memory): what
//! `CreateMatch` accepts and answers, that a person cannot play for the bot, that a bot against a bot plays a
//! whole match by itself, and that a seed replays the same match.

use crate::support::bots::{self, Played, Until};
use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use std::time::Duration;
use tonic::transport::Channel;
use tonic::{Code, Request};

fn matches(server: &TestServer) -> MatchesClient<Channel> {
    MatchesClient::new(server.channel.clone())
}

fn bot(player: pb::Player, level: u32, seed: Option<u64>) -> pb::SeatBot {
    pb::SeatBot {
        player: player as i32,
        level,
        seed,
    }
}

fn request(
    kind: pb::GameKind,
    first: pb::Player,
    bots: Vec<pb::SeatBot>,
) -> pb::CreateMatchRequest {
    pb::CreateMatchRequest {
        kind: kind as i32,
        options: Some(pb::GameOptions {
            first_player: first as i32,
            ba_awa_target: 0,
            ..Default::default()
        }),
        players: vec![],
        bots,
        time_control: None,
        start: None,
    }
}

/// Plays match `id` (every seat the server's) to its end, as a spectator waiting on `WatchMatch`.
async fn watch_to_the_end(client: &mut MatchesClient<Channel>, id: &str) -> pb::GetHistoryResponse {
    loop {
        let m = bots::get(client, id).await;
        if bots::finished(&m) {
            break;
        }
        bots::next_event_after(client, id, m.version).await;
    }
    within(client.get_history(pb::GetHistoryRequest {
        match_id: id.into(),
    }))
    .await
    .expect("history")
    .into_inner()
}

#[tokio::test]
async fn a_bot_seat_gets_no_token_and_a_person_cannot_move_for_it() {
    // The bot waits a minute before it moves: it is still the bot's turn when the person tries.
    let server = TestServer::start_with(|s| s.bots.think_delay = Duration::from_secs(60)).await;
    let mut client = matches(&server);
    let created = within(client.create_match(request(
        pb::GameKind::BaAwa,
        pb::Player::North,
        vec![bot(pb::Player::North, 2, None)],
    )))
    .await
    .expect("created")
    .into_inner();
    assert_eq!(created.tokens.len(), 1);
    assert_eq!(created.tokens[0].player, pb::Player::South as i32);
    let m = created.r#match.expect("the match");
    assert_eq!((m.seats[0].bot_level, m.seats[1].bot_level), (0, 2));
    assert_eq!(m.seats[1].bot_seed, None, "no seed was given");
    assert_eq!(m.seats[1].player_id, "");

    // North, the bot, opens: South's token cannot sow for it, whichever pit.
    let mut submit = Request::new(pb::SubmitMoveRequest {
        match_id: m.match_id.clone(),
        r#move: Some(m.legal_moves[0].clone()),
        expected_version: Some(0),
        request_id: String::new(),
    });
    submit.metadata_mut().insert(
        "authorization",
        format!("Bearer {}", created.tokens[0].token)
            .parse()
            .unwrap(),
    );
    let refused = within(client.submit_move(submit))
        .await
        .expect_err("refused");
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    assert!(
        refused
            .message()
            .contains("North is the server's opponent (level 2)"),
        "{refused:?}"
    );
    // Nor can anyone without a token.
    let anonymous = within(client.submit_move(pb::SubmitMoveRequest {
        match_id: m.match_id.clone(),
        r#move: Some(m.legal_moves[0].clone()),
        expected_version: Some(0),
        request_id: String::new(),
    }))
    .await
    .expect_err("refused");
    assert_eq!(anonymous.code(), Code::Unauthenticated, "{anonymous:?}");
    assert_eq!(bots::get(&mut client, &m.match_id).await.version, 0);
}

#[tokio::test]
async fn create_match_refuses_bad_bot_seats_naming_the_field() {
    let server = TestServer::start_with(|s| s.bots.max_level = 4).await;
    let mut client = matches(&server);
    for (bots, field) in [
        (vec![bot(pb::Player::North, 0, None)], "bots[0].level"),
        (vec![bot(pb::Player::North, 5, None)], "bots[0].level"),
        (
            vec![bot(pb::Player::Unspecified, 1, None)],
            "bots[0].player",
        ),
        (
            vec![
                bot(pb::Player::South, 1, None),
                bot(pb::Player::South, 2, None),
            ],
            "bots[1].player",
        ),
    ] {
        let status =
            within(client.create_match(request(pb::GameKind::Bosh, pb::Player::South, bots)))
                .await
                .expect_err("refused");
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        use tonic_types::StatusExt;
        let violations = status
            .get_details_bad_request()
            .expect("a BadRequest")
            .field_violations;
        assert!(
            violations.iter().any(|v| v.field == field),
            "{field} in {violations:?}"
        );
    }
}

#[tokio::test]
async fn a_bot_plays_a_bot_to_the_end_and_a_seed_replays_the_same_match() {
    let server = TestServer::start_with(|s| s.bots.think_delay = Duration::ZERO).await;
    let mut client = matches(&server);
    let mut notations = Vec::new();
    for _ in 0..2 {
        let created = within(client.create_match(request(
            pb::GameKind::BaAwa,
            pb::Player::South,
            vec![
                bot(pb::Player::South, 2, Some(11)),
                bot(pb::Player::North, 1, Some(12)),
            ],
        )))
        .await
        .expect("created")
        .into_inner();
        assert!(created.tokens.is_empty(), "nobody but the server plays");
        let id = created.r#match.expect("the match").match_id;
        let log = watch_to_the_end(&mut client, &id).await;
        let m = log.r#match.expect("the match");
        assert_eq!(
            m.result.expect("a result").reason,
            pb::MatchEndReason::PlayedOut as i32
        );
        notations.push(log.notation);
    }
    assert_eq!(notations[0], notations[1], "the same seeds, the same match");
}

#[tokio::test]
async fn a_person_plays_a_whole_bosh_match_against_the_bot() {
    let server = TestServer::start_with(|s| s.bots.think_delay = Duration::ZERO).await;
    let mut client = matches(&server);
    let created = within(client.create_match(request(
        pb::GameKind::Bosh,
        pb::Player::South,
        vec![bot(pb::Player::North, 2, Some(3))],
    )))
    .await
    .expect("created")
    .into_inner();
    let id = created.r#match.expect("the match").match_id;
    let token = created.tokens[0].token.clone();
    let mut played = Played::default();
    let end = bots::play(
        &mut client,
        &id,
        pb::Player::South,
        &token,
        Until::End,
        &mut 0,
        &mut played,
    )
    .await;
    assert!(bots::finished(&end));
    assert!(played.moves > 0);
}
