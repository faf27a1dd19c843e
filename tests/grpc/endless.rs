//! §1 "Endless play across turns" over a real channel: ending a game by agreement (`AgreeToEnd`) in each game,
//! its refusals, three players all agreeing, the match length ending a match with its leader, and the options as
//! `CreateMatch` and `DescribeGame` take and show them. (Repetition through whole processes, across a restart
//! and two replicas: tests/durability/endless.rs.)

use crate::support::replica::{authed, get};
use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use pb::rules_client::RulesClient;
use tonic::transport::Channel;
use tonic::Code;

const S: i32 = pb::Player::South as i32;
const N: i32 = pb::Player::North as i32;
const E: i32 = pb::Player::East as i32;

/// A new match and its tokens by seat (`[South, North, East]`, East empty for two players).
async fn create(
    client: &mut MatchesClient<Channel>,
    kind: pb::GameKind,
    options: pb::GameOptions,
) -> (pb::Match, [String; 3]) {
    let created = within(client.create_match(pb::CreateMatchRequest {
        kind: kind as i32,
        options: Some(options),
        ..Default::default()
    }))
    .await
    .expect("a match")
    .into_inner();
    let mut tokens: [String; 3] = Default::default();
    for token in created.tokens {
        tokens[(token.player - 1) as usize] = token.token;
    }
    (created.r#match.expect("a match"), tokens)
}

async fn agree(
    client: &mut MatchesClient<Channel>,
    id: &str,
    token: &str,
    action: pb::AgreementAction,
) -> Result<pb::MatchEvent, tonic::Status> {
    within(client.agree_to_end(authed(
        pb::AgreeToEndRequest {
            match_id: id.into(),
            action: action as i32,
            ..Default::default()
        },
        token,
    )))
    .await
    .map(|answer| answer.into_inner().event.expect("an event"))
}

async fn sow_first(
    client: &mut MatchesClient<Channel>,
    m: &pb::Match,
    token: &str,
) -> pb::MatchEvent {
    let m = get(client, &m.match_id).await;
    within(client.submit_move(authed(
        pb::SubmitMoveRequest {
            match_id: m.match_id.clone(),
            r#move: Some(m.legal_moves[0].clone()),
            ..Default::default()
        },
        token,
    )))
    .await
    .expect("a legal move")
    .into_inner()
    .event
    .expect("an event")
}

fn reason_of(status: &tonic::Status) -> String {
    use tonic_types::StatusExt;
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

fn game_end(event: &pb::MatchEvent) -> Option<(i32, i32, i32)> {
    event.events.iter().find_map(|e| match &e.kind {
        Some(pb::event::Kind::GameEnd(end)) => Some((end.reason, end.winner, end.collector)),
        Some(pb::event::Kind::RoundEnd(end)) => Some((end.reason, 0, end.collector)),
        _ => None,
    })
}

/// An offer, its refusals, a decline, and an acceptance that ends a Ba-awa game as §4.3 ends one: the starter
/// takes what is left.
#[tokio::test]
async fn an_accepted_offer_ends_the_game_by_agreement() {
    let server = TestServer::start().await;
    let mut client = MatchesClient::new(server.channel.clone());
    let (m, [south, north, _]) = create(&mut client, pb::GameKind::BaAwa, Default::default()).await;
    let id = m.match_id.as_str();
    // Nothing to answer yet.
    let refused = agree(&mut client, id, &north, pb::AgreementAction::Accept)
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), reason_of(&refused)),
        (Code::FailedPrecondition, "NO_OFFER_STANDING".into())
    );
    let unset = agree(&mut client, id, &north, pb::AgreementAction::Unspecified)
        .await
        .unwrap_err();
    assert_eq!(unset.code(), Code::InvalidArgument);

    let offered = agree(&mut client, id, &south, pb::AgreementAction::Offer)
        .await
        .unwrap();
    assert_eq!(offered.agreeing, vec![S]);
    assert!(matches!(
        offered.action,
        Some(pb::match_event::Action::EndAgreement(_))
    ));
    let again = agree(&mut client, id, &south, pb::AgreementAction::Offer)
        .await
        .unwrap_err();
    assert_eq!(reason_of(&again), "ALREADY_AGREED");
    let declined = agree(&mut client, id, &north, pb::AgreementAction::Decline)
        .await
        .unwrap();
    assert!(declined.agreeing.is_empty());

    // An offer lapses when its maker sows.
    agree(&mut client, id, &south, pb::AgreementAction::Offer)
        .await
        .unwrap();
    let sown = sow_first(&mut client, &m, &south).await;
    assert!(
        sown.agreeing.is_empty(),
        "South's offer lapsed when he sowed"
    );
    assert_eq!(sown.position_occurrences, 1);

    agree(&mut client, id, &north, pb::AgreementAction::Offer)
        .await
        .unwrap();
    let ended = agree(&mut client, id, &south, pb::AgreementAction::Accept)
        .await
        .unwrap();
    let (reason, _, collector) = game_end(&ended).expect("the game ended");
    assert_eq!(
        (reason, collector),
        (pb::EndReason::Agreement as i32, S),
        "South began the game"
    );
    let state = ended.state.expect("a state");
    // South took all 48 seeds but those North captured: at least 10 pits, the match is his.
    assert_eq!(state.status, pb::Status::MatchOver as i32);
    let m = get(&mut client, id).await;
    let result = m.result.expect("finished");
    assert_eq!(
        (result.reason, result.winner),
        (pb::MatchEndReason::Agreement as i32, S)
    );
    let history = within(client.get_history(pb::GetHistoryRequest {
        match_id: id.into(),
    }))
    .await
    .unwrap()
    .into_inner();
    assert!(
        history.notation.contains("\nN offer\nS accept\n"),
        "{}",
        history.notation
    );
    assert!(
        history
            .notation
            .starts_with("mancala 1 ba-awa first=s target=10 games=60"),
        "{}",
        history.notation
    );
}

/// A one-game Bao la Kete match drawn by agreement at the opening: equal seeds, a drawn game, and the match length
/// ends the match with nobody ahead.
#[tokio::test]
async fn the_match_length_ends_a_match_with_its_leader_or_none() {
    let server = TestServer::start().await;
    let mut client = MatchesClient::new(server.channel.clone());
    let options = pb::GameOptions {
        max_games: Some(1),
        ..Default::default()
    };
    let (m, [south, north, _]) = create(&mut client, pb::GameKind::BaoLaKete, options).await;
    assert_eq!(m.options.as_ref().and_then(|o| o.max_games), Some(1));
    agree(&mut client, &m.match_id, &north, pb::AgreementAction::Offer)
        .await
        .unwrap();
    let ended = agree(
        &mut client,
        &m.match_id,
        &south,
        pb::AgreementAction::Accept,
    )
    .await
    .unwrap();
    assert_eq!(
        game_end(&ended),
        Some((pb::EndReason::Agreement as i32, 0, 0)),
        "a drawn game"
    );
    let state = ended.state.expect("a state");
    assert_eq!(
        state.status,
        pb::Status::GameOver as i32,
        "the state stays as the game left it"
    );
    assert!(ended.legal_moves.is_empty(), "the match is over");
    let m = get(&mut client, &m.match_id).await;
    let result = m.result.expect("finished");
    assert_eq!(
        (result.reason, result.winner),
        (pb::MatchEndReason::MatchLength as i32, 0)
    );
}

/// Three players: the end needs every seat still in; a Bosh round ended by agreement gives each row to its owner.
#[tokio::test]
async fn three_players_all_agree_and_bosh_rows_go_to_their_owners() {
    let server = TestServer::start().await;
    let mut client = MatchesClient::new(server.channel.clone());
    let three = pb::GameOptions {
        ba_awa_players: 3,
        ..Default::default()
    };
    let (m, [south, north, east]) = create(&mut client, pb::GameKind::BaAwa, three).await;
    agree(&mut client, &m.match_id, &south, pb::AgreementAction::Offer)
        .await
        .unwrap();
    let two = agree(&mut client, &m.match_id, &east, pb::AgreementAction::Accept)
        .await
        .unwrap();
    assert_eq!(two.agreeing, vec![S, E]);
    assert_eq!(game_end(&two), None, "North has not agreed");
    let all = agree(
        &mut client,
        &m.match_id,
        &north,
        pb::AgreementAction::Accept,
    )
    .await
    .unwrap();
    assert_eq!(
        game_end(&all).map(|(reason, ..)| reason),
        Some(pb::EndReason::Agreement as i32)
    );

    let (m, [south, north, _]) = create(&mut client, pb::GameKind::Bosh, Default::default()).await;
    sow_first(&mut client, &m, &south).await;
    agree(&mut client, &m.match_id, &south, pb::AgreementAction::Offer)
        .await
        .unwrap();
    let ended = agree(
        &mut client,
        &m.match_id,
        &north,
        pb::AgreementAction::Accept,
    )
    .await
    .unwrap();
    assert_eq!(
        game_end(&ended),
        Some((pb::EndReason::Agreement as i32, 0, 0))
    );
    let state = ended.state.expect("a state");
    assert_eq!(state.status, pb::Status::RoundOver as i32);
    assert!(state.pits.iter().all(|&p| p == 0), "every stone taken");
    let captured: u32 = ended
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            Some(pb::event::Kind::Capture(c)) => Some(c.seeds),
            _ => None,
        })
        .sum();
    assert!(captured > 0);
    assert_eq!(
        state.stores.iter().sum::<u32>() + state.reserves.iter().sum::<u32>(),
        40
    );
}

/// The options as `CreateMatch` refuses and `DescribeGame` lists them.
#[tokio::test]
async fn match_options_are_checked_and_described() {
    let server = TestServer::start().await;
    let mut client = MatchesClient::new(server.channel.clone());
    for bad in [0, 1001] {
        let refused = within(client.create_match(pb::CreateMatchRequest {
            kind: pb::GameKind::Bosh as i32,
            options: Some(pb::GameOptions {
                max_games: Some(bad),
                ..Default::default()
            }),
            ..Default::default()
        }))
        .await
        .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        assert!(
            refused.message().contains("max_games") || format!("{refused:?}").contains("max_games")
        );
    }
    let mut rules = RulesClient::new(server.channel.clone());
    for (kind, default) in [
        (pb::GameKind::BaoLaKete, "5"),
        (pb::GameKind::Bosh, "60"),
        (pb::GameKind::BaAwa, "60"),
    ] {
        let described = within(rules.describe_game(pb::DescribeGameRequest { kind: kind as i32 }))
            .await
            .unwrap()
            .into_inner();
        let options = described.options;
        let length = options
            .iter()
            .find(|o| o.name == "max_games")
            .expect("max_games");
        assert_eq!(length.default_value, default);
        assert!(options
            .iter()
            .any(|o| o.name == "repetition" && o.default_value == "true"));
    }
    let _ = N;
}

/// The documented position key: FNV-1a over `bytes` padded to whole little-endian 64-bit words
/// (docs/guide/endless-play.md#position-key), computed here as a client would.
fn documented_key(mut bytes: Vec<u8>) -> u64 {
    bytes.resize(bytes.len().div_ceil(8) * 8, 0);
    bytes.chunks(8).fold(0xcbf2_9ce4_8422_2325u64, |h, word| {
        (h ^ u64::from_le_bytes(word.try_into().unwrap())).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Every state the Rules API returns carries its position key, the one a client computes from the documented
/// bytes; a state sent back with any key (its own, a wrong one) is read as the same state.
#[tokio::test]
async fn rules_states_carry_the_documented_position_key() {
    let server = TestServer::start().await;
    let mut rules = server.rules();
    let state = within(rules.new_game(pb::NewGameRequest {
        kind: pb::GameKind::Bosh as i32,
        options: None,
    }))
    .await
    .expect("new game")
    .into_inner()
    .state
    .expect("a state");
    // Bosh's opening: kind 2; ten holes of 4; no stores, no reserves (each list's length, then its counts);
    // South (1) to move; no hole closed; South starts the round.
    let mut bytes = vec![2u8, 10];
    bytes.extend([4u8; 10]);
    bytes.extend([2, 0, 0, 2, 0, 0, 1]);
    bytes.extend([0u8; 10]);
    bytes.push(1);
    assert_eq!(state.position_key, documented_key(bytes));

    // The previews' states and the state after a move carry theirs; the same position, the same key.
    let listed = within(rules.list_legal_moves(pb::ListLegalMovesRequest {
        state: Some(state.clone()),
        skip_previews: false,
    }))
    .await
    .expect("moves")
    .into_inner()
    .moves;
    let sow = listed[0].r#move.clone().expect("a move");
    let preview = listed[0].result.clone().expect("a preview");
    assert_ne!(preview.position_key, 0);
    assert_ne!(preview.position_key, state.position_key);
    let applied = within(rules.apply_move(pb::ApplyMoveRequest {
        state: Some(state.clone()),
        r#move: Some(sow.clone()),
        skip_events: true,
    }))
    .await
    .expect("applied")
    .into_inner()
    .state
    .expect("a state");
    assert_eq!(applied.position_key, preview.position_key);

    // A key in a request is the server's to compute: a wrong one changes nothing.
    for key in [state.position_key, 0x1234_5678_9abc_def0] {
        let again = within(rules.apply_move(pb::ApplyMoveRequest {
            state: Some(pb::GameState {
                position_key: key,
                ..state.clone()
            }),
            r#move: Some(sow.clone()),
            skip_events: true,
        }))
        .await
        .expect("applied")
        .into_inner();
        assert_eq!(again.state.as_ref(), Some(&applied));
    }
}

/// A match begun from a position (`CreateMatchRequest.start`): played on from it, its notation writing it, and
/// every kind of bad start refused naming the field.
#[tokio::test]
async fn a_match_begins_from_a_chosen_position() {
    use crate::rules_api::{apply, bad_request_fields, sow};
    let server = TestServer::start().await;
    let mut client = MatchesClient::new(server.channel.clone());
    let mut rules = RulesClient::new(server.channel.clone());
    // A Ba-awa game to 11 pits, three sowings in.
    let mut state = within(rules.new_game(pb::NewGameRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: Some(pb::GameOptions {
            ba_awa_target: 11,
            ..Default::default()
        }),
    }))
    .await
    .unwrap()
    .into_inner()
    .state
    .unwrap();
    for pit in [2, 8, 3] {
        state = apply(&server, &state, sow(pit))
            .await
            .unwrap()
            .state
            .unwrap();
    }
    let request = |start: pb::GameState, options: Option<pb::GameOptions>| pb::CreateMatchRequest {
        kind: pb::GameKind::BaAwa as i32,
        options,
        start: Some(start),
        ..Default::default()
    };
    let created = within(client.create_match(request(state.clone(), None)))
        .await
        .expect("a match from the position")
        .into_inner();
    let m = created.r#match.unwrap();
    let shown = m.state.clone().unwrap();
    assert_eq!(shown.pits, state.pits);
    assert_eq!(shown.to_move, state.to_move);
    assert_eq!(shown.position_key, state.position_key);
    assert_eq!(
        m.options.as_ref().unwrap().ba_awa_target,
        11,
        "the position's target"
    );
    assert_eq!(m.position_occurrences, 1);
    // North, to move, plays on from it; the notation begins with the position.
    let north = &created.tokens.iter().find(|t| t.player == N).unwrap().token;
    let legal = m.legal_moves[0].clone();
    within(client.submit_move(authed(
        pb::SubmitMoveRequest {
            match_id: m.match_id.clone(),
            r#move: Some(legal),
            expected_version: Some(0),
            ..Default::default()
        },
        north,
    )))
    .await
    .expect("North plays on from the position");
    let history = within(client.get_history(pb::GetHistoryRequest {
        match_id: m.match_id.clone(),
    }))
    .await
    .unwrap()
    .into_inner();
    let second = history.notation.lines().nth(1).unwrap();
    assert!(
        second.starts_with("start to=n ply=3 "),
        "{}",
        history.notation
    );
    let replayed = mancala::matches::notation::replay(&history.notation).expect("replays");
    assert_eq!(replayed.events.len(), 1);

    // Refusals, each naming its field.
    let mut broken = state.clone();
    broken.pits[0] = 60;
    let finished = {
        let mut s = state.clone();
        s.status = pb::Status::GameOver as i32;
        s
    };
    let cases = [
        (request(broken, None), "start.pits[0]"),
        (
            pb::CreateMatchRequest {
                kind: pb::GameKind::Bosh as i32,
                ..request(state.clone(), None)
            },
            "start.kind",
        ),
        (
            request(
                state.clone(),
                Some(pb::GameOptions {
                    ba_awa_target: 10,
                    ..Default::default()
                }),
            ),
            "options.ba_awa_target",
        ),
        (
            request(
                state.clone(),
                Some(pb::GameOptions {
                    ba_awa_players: 3,
                    ..Default::default()
                }),
            ),
            "options.ba_awa_players",
        ),
        (request(finished, None), "start.to_move"),
    ];
    for (bad, field) in cases {
        let refused = within(client.create_match(bad)).await.unwrap_err();
        assert_eq!(
            refused.code(),
            Code::InvalidArgument,
            "{field}: {refused:?}"
        );
        let fields = bad_request_fields(&refused);
        assert!(fields.iter().any(|f| f == field), "{field}: {fields:?}");
    }
}
