//! §1 "Endless play across turns" through whole processes: a game ends by repetition exactly at the third
//! occurrence of a position, counted from the match's log, also when the server restarted in between (the count
//! is replayed from the log) and when the moves came through two replicas over one Redis.

use crate::matches_redis::{redis_url, Prefix};
use crate::support::replica::{authed, get, within, Replica};
use mancala::api::pb;
use mancala::engine::across_turns::{AcrossTurns, Ending};
use mancala::engine::{AnyGame, EndReason, GameKind, Move, Options, Player, Rng, Status};
use pb::matches_client::MatchesClient;
use tonic::transport::Channel;

/// A line of seeded random play from the standard start that ends a game (Bosh: a round) by repetition: the
/// moves, each with the seat that sends it, the last being the one whose position occurs for the third time.
/// Random play meets one in Bosh within a few hundred moves (Ba-awa's and Bao la Kete's captures rarely let a
/// position come back: their repetitions are tested from constructed positions in the engine's tests).
pub fn repetition_line(kind: GameKind) -> Vec<(Player, Move)> {
    for seed in 1..10_000u64 {
        let options = Options::default();
        let mut game = AnyGame::new_match(kind, &options);
        let mut across = AcrossTurns::start(kind, &options, &game);
        let mut rng = Rng::new(seed);
        let mut line = Vec::new();
        while line.len() < 3_000 && game.status() != Status::MatchOver {
            let moves = game.legal_moves();
            let mv = moves[rng.below(moves.len())];
            let seat = game.to_move().unwrap_or(Player::South);
            let mut trace = Vec::new();
            game.play(&mv, &mut trace).expect("a listed move");
            line.push((seat, mv));
            match across.after_move(&mut game, seat, &mut trace) {
                Some(Ending::Game(EndReason::Repetition)) => return line,
                Some(_) => break,
                None => {}
            }
        }
    }
    panic!("no {kind:?} line of random play ends by repetition");
}

/// How many times the position after `moves` from the standard start has occurred in its game, as the engine counts.
fn occurrences_after(kind: GameKind, moves: &[(Player, Move)]) -> u32 {
    let options = Options::default();
    let mut game = AnyGame::new_match(kind, &options);
    let mut across = AcrossTurns::start(kind, &options, &game);
    for (seat, mv) in moves {
        let mut trace = Vec::new();
        game.play(mv, &mut trace).expect("a move of the line");
        across.after_move(&mut game, *seat, &mut trace);
    }
    across.occurrences(&game) as u32
}

fn move_pb(mv: &Move) -> pb::Move {
    mancala::api::convert::move_to_pb(mv)
}

fn seat_index(seat: Player) -> usize {
    seat.index()
}

/// A new match of `kind` and its seat tokens, `[South, North]`.
async fn create(client: &mut MatchesClient<Channel>, kind: GameKind) -> (String, Vec<String>) {
    let created = within(
        "create",
        client.create_match(pb::CreateMatchRequest {
            kind: mancala::api::convert::kind_to_pb(kind) as i32,
            ..Default::default()
        }),
    )
    .await
    .expect("create")
    .into_inner();
    let id = created.r#match.expect("a match").match_id;
    (id, created.tokens.into_iter().map(|t| t.token).collect())
}

/// Submits `moves` (which follow `version`) through the clients in turn, one after the other; the events.
async fn submit(
    clients: &mut [MatchesClient<Channel>],
    id: &str,
    tokens: &[String],
    moves: &[(Player, Move)],
    version: u64,
) -> Vec<pb::MatchEvent> {
    let mut events = Vec::new();
    for (i, (seat, mv)) in moves.iter().enumerate() {
        let seq = version + i as u64;
        let client = &mut clients[i % clients.len()];
        let answer = within(
            "a move",
            client.submit_move(authed(
                pb::SubmitMoveRequest {
                    match_id: id.into(),
                    r#move: Some(move_pb(mv)),
                    expected_version: Some(seq),
                    request_id: format!("move-{}", seq + 1),
                },
                &tokens[seat_index(*seat)],
            )),
        )
        .await
        .unwrap_or_else(|e| panic!("move {} ({seat} {mv:?}) refused: {e:?}", seq + 1))
        .into_inner();
        events.push(answer.event.expect("an event"));
    }
    events
}

/// The reason of the game or round end among an event's engine events, if it has one.
fn end_reason(event: &pb::MatchEvent) -> Option<i32> {
    event.events.iter().find_map(|e| match &e.kind {
        Some(pb::event::Kind::GameEnd(end)) => Some(end.reason),
        Some(pb::event::Kind::RoundEnd(end)) => Some(end.reason),
        _ => None,
    })
}

/// Checks that the last event ended its game by repetition, and no event before it did; the position after each
/// earlier event occurred at most twice.
fn ends_exactly_at_the_last(events: &[pb::MatchEvent]) {
    let (last, before) = events.split_last().expect("events");
    assert_eq!(end_reason(last), Some(pb::EndReason::Repetition as i32));
    for event in before {
        assert_ne!(
            end_reason(event),
            Some(pb::EndReason::Repetition as i32),
            "seq {}",
            event.seq
        );
        assert!(event.position_occurrences <= 2, "seq {}", event.seq);
    }
    assert_eq!(last.position_occurrences, 0, "the game is over");
}

#[tokio::test]
async fn repetition_ends_the_game_at_the_third_occurrence_across_a_restart() {
    for kind in [GameKind::Bosh] {
        let line = repetition_line(kind);
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().to_str().unwrap().to_string();
        let env = [
            ("MANCALA__MATCHES__STORE", "embedded"),
            ("MANCALA__MATCHES__DATA_DIR", data.as_str()),
        ];
        let mut first = Replica::start(&env).await;
        let mut client = first.client().await;
        let (id, tokens) = create(&mut client, kind).await;
        let (early, last) = line.split_at(line.len() - 1);
        let mut events = submit(&mut [client], &id, &tokens, early, 0).await;
        first.kill();
        // The restarted server knows the positions only from the log it replays.
        let second = Replica::start(&env).await;
        let mut client = second.client().await;
        let before = get(&mut client, &id).await;
        assert_eq!(
            before.position_occurrences,
            occurrences_after(kind, early),
            "{kind:?}: the restarted server counted the positions from the log"
        );
        events.extend(
            submit(
                &mut [client.clone()],
                &id,
                &tokens,
                last,
                early.len() as u64,
            )
            .await,
        );
        ends_exactly_at_the_last(&events);
        let after = get(&mut client, &id).await;
        let state = after.state.expect("a state");
        assert_ne!(state.status, pb::Status::InProgress as i32, "{kind:?}");
    }
}

#[tokio::test]
async fn repetition_ends_the_game_the_same_through_two_replicas() {
    let prefix = Prefix::new(&redis_url(), "endless");
    let (a, b) = prefix.replicas().await;
    let line = repetition_line(GameKind::Bosh);
    let mut clients = [a.client().await, b.client().await];
    let (id, tokens) = create(&mut clients[0], GameKind::Bosh).await;
    let events = submit(&mut clients, &id, &tokens, &line, 0).await;
    ends_exactly_at_the_last(&events);
}
