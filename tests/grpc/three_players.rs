//! Three-player Ba-awa (docs/ba-awa.md §4.7) over a real channel: the worked examples BA-7 and BA-8 through the
//! Rules service, whole matches with an elimination through the Rules service and through a server-held match
//! with three seats, and the options that ask for it (`DescribeGame`, refusals).

use crate::support::replica::authed;
use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::event::Kind;
use pb::matches_client::MatchesClient;
use pb::r#move::Action;
use pb::rules_client::RulesClient;
use tonic::transport::Channel;
use tonic::Code;

const S: i32 = pb::Player::South as i32;
const N: i32 = pb::Player::North as i32;
const E: i32 = pb::Player::East as i32;

fn three_players() -> pb::GameOptions {
    pb::GameOptions {
        ba_awa_players: 3,
        ..Default::default()
    }
}

/// The first state of a three-player match, from `NewGame`.
async fn new_three_player_game(rules: &mut RulesClient<Channel>) -> pb::GameState {
    within(rules.new_game(pb::NewGameRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: Some(three_players()),
    }))
    .await
    .expect("a new game")
    .into_inner()
    .state
    .expect("a state")
}

fn sow(pit: u32) -> pb::Move {
    pb::Move {
        action: Some(Action::Sow(pb::Sow {
            pit,
            ..Default::default()
        })),
    }
}

fn next_game() -> pb::Move {
    pb::Move {
        action: Some(Action::NextGame(pb::NextGame { pits: vec![] })),
    }
}

async fn apply(
    rules: &mut RulesClient<Channel>,
    state: pb::GameState,
    mv: pb::Move,
) -> pb::ApplyMoveResponse {
    within(rules.apply_move(pb::ApplyMoveRequest {
        state: Some(state),
        r#move: Some(mv),
        ..Default::default()
    }))
    .await
    .expect("a legal move")
    .into_inner()
}

fn ba_awa_state(response: &pb::ApplyMoveResponse) -> (&pb::GameState, &pb::BaAwaState) {
    let state = response.state.as_ref().expect("a state");
    let Some(pb::game_state::Variant::BaAwa(ba_awa)) = &state.variant else {
        panic!("a Ba-awa state")
    };
    (state, ba_awa)
}

/// The owners of game 1's blocks, or any other: `south`, then `east`, then `north` pits from pit 0.
fn blocks(south: usize, east: usize, north: usize) -> Vec<i32> {
    [(S, south), (E, east), (N, north)]
        .iter()
        .flat_map(|&(seat, n)| std::iter::repeat_n(seat, n))
        .collect()
}

/// A finished three-player game: the board empty, winnings `[South, North, East]`.
fn finished_game(
    stores: [u32; 3],
    starter: i32,
    game: u32,
    owners: Vec<i32>,
    out: [u32; 3],
) -> pb::GameState {
    let best = *stores.iter().max().unwrap();
    let leaders: Vec<usize> = (0..3).filter(|&i| stores[i] == best).collect();
    pb::GameState {
        kind: pb::GameKind::BaAwa as i32,
        rules_version: 1,
        pits: vec![0; 12],
        stores: stores.to_vec(),
        reserves: vec![0; 3],
        to_move: 0,
        status: pb::Status::GameOver as i32,
        winner: if leaders.len() == 1 {
            [S, N, E][leaders[0]]
        } else {
            0
        },
        ply: 40,
        game_number: game,
        match_score: stores.iter().map(|s| s / 4).collect(),
        position_key: 0,
        variant: Some(pb::game_state::Variant::BaAwa(pb::BaAwaState {
            owners,
            starter,
            target: 10,
            players: 3,
            eliminated_in_game: out.to_vec(),
        })),
    }
}

/// BA-8 through `ApplyMove`: from the start, S S3, E S6, N N5, S S1, E N1, N N4; then South's S4 gives a four to
/// East (N2), one to North (N5) and the final four, in S5, to South.
#[tokio::test]
async fn ba_8_through_the_rules_service() {
    let server = TestServer::start().await;
    let mut rules = server.rules();
    let mut state = new_three_player_game(&mut rules).await;
    assert_eq!(state.stores, [0, 0, 0]);
    assert_eq!(state.match_score, [4, 4, 4]);
    for (seat, pit) in [(S, 2), (E, 5), (N, 10), (S, 0), (E, 6), (N, 9)] {
        assert_eq!(state.to_move, seat, "before pit {pit}");
        state = apply(&mut rules, state, sow(pit))
            .await
            .state
            .expect("a state");
    }
    assert_eq!(state.pits, [1, 2, 0, 13, 2, 1, 1, 3, 1, 0, 3, 1]);
    assert_eq!(state.stores, [8, 0, 12]);
    let listed = within(rules.list_legal_moves(pb::ListLegalMovesRequest {
        state: Some(state.clone()),
        skip_previews: true,
    }))
    .await
    .expect("legal moves")
    .into_inner();
    let labels: Vec<&str> = listed.moves.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(labels, ["S1", "S2", "S4"]);

    let response = apply(&mut rules, state, sow(3)).await;
    let captures: Vec<(u32, i32)> = response
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            Some(Kind::Capture(c)) => Some((c.pit, c.beneficiary)),
            _ => None,
        })
        .collect();
    assert_eq!(captures, [(7, E), (10, N), (4, S)]);
    let (state, _) = ba_awa_state(&response);
    assert_eq!(state.pits, [2, 3, 1, 1, 0, 2, 2, 0, 2, 1, 0, 2]);
    assert_eq!(state.stores, [12, 4, 16]);
    assert_eq!(state.to_move, E);
}

/// BA-7 through `ApplyMove`: winnings S 20, E 12, N 16 share out the pits in blocks; S 28, E 0, N 20 put East
/// out, and South and North go on with blocks 0–6 and 7–11.
#[tokio::test]
async fn ba_7_through_the_rules_service() {
    let server = TestServer::start().await;
    let mut rules = server.rules();
    let ended = finished_game([20, 16, 12], S, 1, blocks(4, 4, 4), [0; 3]);
    let response = apply(&mut rules, ended, next_game()).await;
    let (state, ba_awa) = ba_awa_state(&response);
    assert_eq!(ba_awa.owners, blocks(5, 3, 4));
    assert_eq!((state.to_move, ba_awa.starter), (E, E));
    assert_eq!(state.match_score, [5, 4, 3]);

    // A later game, begun by North, has just put East out.
    let ended = finished_game([28, 20, 0], N, 4, blocks(5, 3, 4), [0, 0, 4]);
    let response = apply(&mut rules, ended, next_game()).await;
    let (state, ba_awa) = ba_awa_state(&response);
    assert_eq!(ba_awa.owners, blocks(7, 0, 5));
    assert_eq!(
        state.to_move, S,
        "after North comes East, who is out, then South"
    );
    assert_eq!(state.match_score, [7, 5, 0]);
    assert_eq!(ba_awa.eliminated_in_game, [0, 0, 4]);

    // The same game without East's elimination recorded is refused, naming the field.
    let wrong = finished_game([28, 20, 0], N, 4, blocks(5, 3, 4), [0; 3]);
    let status = within(rules.apply_move(pb::ApplyMoveRequest {
        state: Some(wrong),
        r#move: Some(next_game()),
        ..Default::default()
    }))
    .await
    .expect_err("an inconsistent state");
    assert_eq!(status.code(), Code::InvalidArgument);
    let fields = crate::rules_api::bad_request_fields(&status);
    assert!(
        fields
            .iter()
            .any(|f| f == "state.ba_awa.eliminated_in_game[2]"),
        "{fields:?}"
    );
}

/// A few thousand deterministic "random" picks: the move at `(seed × ply) mod n`.
fn pick(seed: u64, step: u64, n: usize) -> usize {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ step.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 31;
    (z % n as u64) as usize
}

/// Whole three-player matches through `ListLegalMoves` and `ApplyMove`, until one has had an elimination: the
/// eliminated seat never moves again, and the match ends with a placing.
#[tokio::test]
async fn a_whole_three_player_match_with_an_elimination_through_the_rules_service() {
    let server = TestServer::start().await;
    let mut rules = server.rules();
    for seed in 1..=20u64 {
        let mut state = new_three_player_game(&mut rules).await;
        let mut out: Vec<i32> = Vec::new();
        let mut placing = Vec::new();
        for step in 0..50_000u64 {
            let moves = within(rules.list_legal_moves(pb::ListLegalMovesRequest {
                state: Some(state.clone()),
                skip_previews: true,
            }))
            .await
            .expect("legal moves")
            .into_inner()
            .moves;
            if moves.is_empty() {
                break;
            }
            assert!(
                !out.contains(&state.to_move),
                "an eliminated seat never moves"
            );
            let mv = moves[pick(seed, step, moves.len())]
                .r#move
                .clone()
                .expect("a move");
            let response = apply(&mut rules, state, mv).await;
            for event in &response.events {
                match &event.kind {
                    Some(Kind::Elimination(e)) => out.push(e.player),
                    Some(Kind::MatchEnd(end)) => placing = end.placing.clone(),
                    _ => {}
                }
            }
            state = response.state.expect("a state");
        }
        assert_eq!(state.status, pb::Status::MatchOver as i32, "seed {seed}");
        assert_eq!(placing.len(), 3, "a placing for every seat");
        let winner = [S, N, E]
            .iter()
            .position(|&p| p == state.winner)
            .expect("a winner");
        assert_eq!(placing[winner], 1);
        if !out.is_empty() {
            for seat in &out {
                let i = [S, N, E].iter().position(|p| p == seat).unwrap();
                assert!(placing[i] >= 2, "an eliminated seat is not first");
            }
            return;
        }
    }
    panic!("no match of 20 had an elimination");
}

/// A server-held three-player match with a token for each seat, from `CreateMatch`.
async fn create_three_player_match(client: &mut MatchesClient<Channel>) -> pb::CreateMatchResponse {
    // Played to its end by the rules alone: first-move play can hold a standing for ever, which repetition and
    // the match length (§1, tests/grpc/endless.rs) would end otherwise.
    within(client.create_match(pb::CreateMatchRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: Some(pb::GameOptions {
            repetition: Some(false),
            max_games: Some(1000),
            ..three_players()
        }),
        ..Default::default()
    }))
    .await
    .expect("created")
    .into_inner()
}

/// A server-held match with three seats: three tokens, turns South → East → North, a seat out of turn refused,
/// and a whole match with an elimination played to its end by the three tokens, with the placing in the result.
#[tokio::test]
async fn a_server_held_match_with_three_seats() {
    let server = TestServer::start().await;
    let mut client = MatchesClient::new(server.channel.clone());
    for seed in 1..=20u64 {
        let created = create_three_player_match(&mut client).await;
        let seats: Vec<i32> = created.tokens.iter().map(|t| t.player).collect();
        assert_eq!(
            seats,
            [S, N, E],
            "a token per seat, in the Player enum's order"
        );
        let token = |seat: i32| {
            created
                .tokens
                .iter()
                .find(|t| t.player == seat)
                .map(|t| t.token.clone())
                .expect("a token")
        };
        let m = created.r#match.expect("the match");
        assert_eq!(m.seats.len(), 3);
        let id = m.match_id.clone();
        let (mut state, mut legal) = (m.state.expect("a state"), m.legal_moves);
        let mut eliminated = false;
        for step in 0..50_000u64 {
            if legal.is_empty() {
                break;
            }
            let mv = legal[pick(seed, step, legal.len())].clone();
            // Between games any seat may start the next one; in a game only the seat to move.
            let actor = match (state.to_move, &state.variant) {
                (0, Some(pb::game_state::Variant::BaAwa(b))) => {
                    let still_in = |i: usize| b.eliminated_in_game.get(i).is_none_or(|&g| g == 0);
                    [S, N, E][(0..3).find(|&i| still_in(i)).expect("someone is in")]
                }
                (to_move, _) => to_move,
            };
            if step == 0 {
                let status = within(client.submit_move(authed(
                    pb::SubmitMoveRequest {
                        match_id: id.clone(),
                        r#move: Some(mv.clone()),
                        ..Default::default()
                    },
                    &token(E),
                )))
                .await
                .expect_err("East sows out of turn");
                assert_eq!(status.code(), Code::PermissionDenied);
            }
            let response = within(client.submit_move(authed(
                pb::SubmitMoveRequest {
                    match_id: id.clone(),
                    r#move: Some(mv),
                    ..Default::default()
                },
                &token(actor),
            )))
            .await
            .expect("a legal move by the seat to move")
            .into_inner()
            .event
            .expect("the event");
            let out = response.events.iter().find_map(|e| match &e.kind {
                Some(Kind::Elimination(out)) => Some(out.player),
                _ => None,
            });
            if let (Some(out), false) = (out, eliminated) {
                eliminated = true;
                // An eliminated player neither plays nor ends the others' match.
                let status = within(client.resign(authed(
                    pb::ResignRequest {
                        match_id: id.clone(),
                        ..Default::default()
                    },
                    &token(out),
                )))
                .await
                .expect_err("an eliminated seat cannot resign");
                assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
            }
            (state, legal) = (response.state.expect("a state"), response.legal_moves);
        }
        assert_eq!(state.status, pb::Status::MatchOver as i32, "seed {seed}");
        let result = within(client.get_match(authed(
            pb::GetMatchRequest {
                match_id: id.clone(),
            },
            &token(S),
        )))
        .await
        .expect("the match")
        .into_inner()
        .r#match
        .and_then(|m| m.result)
        .expect("the match ended");
        assert_eq!(result.reason, pb::MatchEndReason::PlayedOut as i32);
        assert_eq!(result.placing.len(), 3);
        let winner = [S, N, E]
            .iter()
            .position(|&p| p == result.winner)
            .expect("a winner");
        assert_eq!(result.placing[winner], 1);
        if eliminated {
            return;
        }
    }
    panic!("no server-held match of 20 had an elimination");
}

/// A three-player match that one seat resigns ends there: that seat third, the other two placed by the pits
/// they hold (at the start, level: both first, no winner).
#[tokio::test]
async fn a_resignation_ends_a_three_player_match() {
    let server = TestServer::start().await;
    let mut client = MatchesClient::new(server.channel.clone());
    let created = create_three_player_match(&mut client).await;
    let east = created
        .tokens
        .iter()
        .find(|t| t.player == E)
        .expect("East's token");
    let id = created.r#match.expect("the match").match_id;
    within(client.resign(authed(
        pb::ResignRequest {
            match_id: id.clone(),
            ..Default::default()
        },
        &east.token,
    )))
    .await
    .expect("resigned");
    let result = within(client.get_match(authed(
        pb::GetMatchRequest {
            match_id: id.clone(),
        },
        &east.token,
    )))
    .await
    .expect("the match")
    .into_inner()
    .r#match
    .and_then(|m| m.result)
    .expect("a result");
    assert_eq!(result.resigned, E);
    assert_eq!(result.winner, 0, "South and North hold four pits each");
    assert_eq!(result.placing, [1, 1, 3]);
}

/// `DescribeGame` lists every option with its values, default and clause, and how many may play; options that
/// do not fit the game are refused with the field named.
#[tokio::test]
async fn options_are_described_and_checked() {
    let server = TestServer::start().await;
    let mut rules = server.rules();
    let described = within(rules.describe_game(pb::DescribeGameRequest {
        kind: pb::GameKind::BaAwa as i32,
    }))
    .await
    .expect("described")
    .into_inner();
    assert_eq!(described.players, [2, 3]);
    let players = described
        .options
        .iter()
        .find(|o| o.name == "ba_awa_players")
        .expect("the players option");
    assert_eq!(
        (players.values.clone(), players.default_value.as_str()),
        (vec!["2".to_string(), "3".into()], "2")
    );
    assert_eq!(players.clause, "docs/ba-awa.md#s4.7");
    let bao = within(rules.describe_game(pb::DescribeGameRequest {
        kind: pb::GameKind::BaoLaKete as i32,
    }))
    .await
    .expect("described")
    .into_inner();
    let names: Vec<&str> = bao.options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "first_player",
            "bao_la_kete_starter",
            "repetition",
            "max_games"
        ]
    );
    assert_eq!(bao.options[1].clause, "docs/bao-la-kete.md#r-2.12");

    for (kind, options, field) in [
        (
            pb::GameKind::Bosh,
            three_players(),
            "options.ba_awa_players",
        ),
        (
            pb::GameKind::BaAwa,
            pb::GameOptions {
                first_player: E,
                ..Default::default()
            },
            "options.first_player",
        ),
        (
            pb::GameKind::BaAwa,
            pb::GameOptions {
                ba_awa_players: 4,
                ..Default::default()
            },
            "options.ba_awa_players",
        ),
        (
            pb::GameKind::Bosh,
            pb::GameOptions {
                bao_la_kete_starter: pb::StarterRule::LoserStarts as i32,
                ..Default::default()
            },
            "options.bao_la_kete_starter",
        ),
    ] {
        let status = within(rules.new_game(pb::NewGameRequest {
            kind: kind as i32,
            options: Some(options),
        }))
        .await
        .expect_err("refused");
        assert_eq!(status.code(), Code::InvalidArgument);
        let fields = crate::rules_api::bad_request_fields(&status);
        assert!(fields.iter().any(|f| f == field), "{field}: {fields:?}");
    }
}

/// Three of the server's own opponents play a three-player match to its end by themselves (alpha-beta, each
/// against the other two together), and the search answers for a three-player state; Monte Carlo is refused.
#[tokio::test]
async fn built_in_opponents_play_three_player_ba_awa() {
    let server = TestServer::start_with(|s| s.bots.think_delay = std::time::Duration::ZERO).await;
    let mut client = MatchesClient::new(server.channel.clone());
    let bot = |player: i32, level: u32| pb::SeatBot {
        player,
        level,
        seed: Some(7),
    };
    let created = within(client.create_match(pb::CreateMatchRequest {
        kind: pb::GameKind::BaAwa as i32,
        options: Some(three_players()),
        bots: vec![bot(S, 2), bot(E, 3), bot(N, 1)],
        ..Default::default()
    }))
    .await
    .expect("created")
    .into_inner();
    assert!(created.tokens.is_empty(), "bot seats get no token");
    let id = created.r#match.expect("the match").match_id;
    let mut finished = None;
    for _ in 0..600 {
        let m = within(client.get_match(pb::GetMatchRequest {
            match_id: id.clone(),
        }))
        .await
        .expect("the match")
        .into_inner()
        .r#match
        .expect("the match");
        if let Some(result) = m.result {
            finished = Some(result);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let result = finished.expect("the bots finished their match within a minute");
    assert_eq!(result.reason, pb::MatchEndReason::PlayedOut as i32);
    assert_eq!(result.placing.len(), 3);

    let mut rules = server.rules();
    let state = Some(new_three_player_game(&mut rules).await);
    let suggested = within(rules.suggest_move(pb::SuggestMoveRequest {
        state: state.clone(),
        strength: Some(pb::suggest_move_request::Strength::Level(4)),
        ..Default::default()
    }))
    .await
    .expect("a suggestion")
    .into_inner();
    let Some(Action::Sow(sow)) = suggested.r#move.and_then(|m| m.action) else {
        panic!("a sowing")
    };
    assert!(sow.pit < 4, "one of South's pits");
    let status = within(rules.suggest_move(pb::SuggestMoveRequest {
        state,
        strength: Some(pb::suggest_move_request::Strength::Budget(
            pb::SearchBudget {
                algorithm: pb::SearchAlgorithm::Mcts as i32,
                iterations: 100,
                ..Default::default()
            },
        )),
        ..Default::default()
    }))
    .await
    .expect_err("Monte Carlo is refused for three players");
    let fields = crate::rules_api::bad_request_fields(&status);
    assert_eq!(fields, ["budget.algorithm"]);
}
