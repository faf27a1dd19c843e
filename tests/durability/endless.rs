//! §1 "Endless play across turns" through whole processes: a game ends by repetition exactly at the third
//! occurrence of a position, counted from the match's log, also when the server restarted in between (the count
//! is replayed from the log) and when the moves came through two replicas over one Redis. Bosh meets one from its
//! opening; Ba-awa and Bao la Kete (equal seeds: a draw; unequal: more seeds wins) from sparse positions built
//! here, each match created from its position (`CreateMatchRequest.start`).

use crate::matches_redis::{redis_url, Prefix};
use crate::support::replica::{authed, get, within, Replica};
use mancala::api::pb;
use mancala::engine::across_turns::{AcrossTurns, Ending};
use mancala::engine::{AnyGame, EndReason, GameKind, Move, Options, Player, Rng, Status};
use pb::matches_client::MatchesClient;
use tonic::transport::Channel;

/// A line of seeded random play that ends a game (Bosh: a round) by repetition: the position it starts from, the
/// moves (each with the seat that sends it), the last being the one whose position occurs for the third time, and
/// how that game ended (its winner, `None` for a draw).
pub struct RepetitionLine {
    pub start: AnyGame,
    pub moves: Vec<(Player, Move)>,
    pub winner: Option<Player>,
}

/// Bosh from its opening: random play meets a repetition within a few hundred moves.
pub fn bosh_line() -> RepetitionLine {
    (1..10_000)
        .find_map(|seed| {
            line_from(
                AnyGame::new_match(GameKind::Bosh, &Options::default()),
                seed,
            )
        })
        .expect("a Bosh line of random play ends by repetition")
}

/// Ba-awa from a sparse position (twelve seeds on the board, the fewest a game goes on with, R-4.2; the rest
/// already won): the first whose seeds can go round a cycle of moves without a capture.
pub fn ba_awa_line() -> RepetitionLine {
    (1..1_000)
        .find_map(|seed| {
            let mut rng = Rng::new(seed);
            let mut setup = AnyGame::new_match(GameKind::BaAwa, &Options::default()).to_setup();
            setup.pits = [0; 12].into();
            for _ in 0..12 {
                setup.pits[rng.below(12)] += 1;
            }
            setup.stores = [20, 16].into();
            cycle_from(AnyGame::from_setup(&setup).ok()?, 16)
        })
        .expect("a sparse Ba-awa position has a cycle")
}

/// The position of `game` as repetition compares it: everything but the move count.
fn position(game: &AnyGame) -> mancala::engine::Setup {
    let mut setup = game.to_setup();
    setup.ply = 0;
    setup
}

/// A line from `start` that goes round a cycle of positions twice, found by a depth-first search of at most
/// `depth` moves (none ending the game): the way to the cycle, then the cycle twice, so that the cycle's first
/// position occurs for the third time at its end, and no other position more than twice.
fn cycle_from(start: AnyGame, depth: usize) -> Option<RepetitionLine> {
    fn search(
        game: &AnyGame,
        path: &mut Vec<(Player, Move)>,
        seen: &mut Vec<mancala::engine::Setup>,
        depth: usize,
    ) -> Option<usize> {
        if path.len() == depth {
            return None;
        }
        let seat = game.to_move()?;
        for mv in game.legal_moves().iter() {
            let mut next = game.clone();
            next.play(mv, &mut Vec::new()).ok()?;
            if next.status() != Status::InProgress {
                continue;
            }
            path.push((seat, *mv));
            let key = position(&next);
            if let Some(entry) = seen.iter().position(|seen| *seen == key) {
                return Some(entry);
            }
            seen.push(key);
            if let Some(entry) = search(&next, path, seen, depth) {
                return Some(entry);
            }
            seen.pop();
            path.pop();
        }
        None
    }
    let mut path = Vec::new();
    let entry = search(&start, &mut path, &mut vec![position(&start)], depth)?;
    let (lead, cycle) = path.split_at(entry);
    let moves = [lead, cycle, cycle].concat();
    let kind = start.kind();
    let options = mancala::engine::position_line::match_options(Options::default(), &start).ok()?;
    let mut game = start.clone();
    let mut across = AcrossTurns::start(kind, &options, &game);
    for (i, (seat, mv)) in moves.iter().enumerate() {
        let mut trace = Vec::new();
        game.play(mv, &mut trace).expect("a move of the cycle");
        let ending = across.after_move(&mut game, *seat, &mut trace);
        assert_eq!(
            ending.is_some(),
            i + 1 == moves.len(),
            "{kind:?}: the cycle's end, and only it, ends the game"
        );
    }
    Some(RepetitionLine {
        start,
        moves,
        winner: game.winner(),
    })
}

/// Bao la Kete from a sparse mtaji position built round a "glider": a hole of two seeds with one seed after it on
/// its owner's circuit. Sown clockwise, the pair moves on by one hole (two seeds after a single one: the last lands
/// in an empty hole), and it passes over a lone seed by relaying through it, so each side's seeds go round and
/// round, its front row never empty, while a few lone seeds wait (they are never sown in mtaji, §2.6). With no
/// capture on the way, the whole board comes back: a line ending by repetition, with the seeds on each side equal
/// (a draw) or not (more seeds wins), as `equal` says.
pub fn bao_la_kete_line(equal: bool) -> RepetitionLine {
    (0..100_000)
        .find_map(|seed| {
            let start = glider_position(seed)?;
            let line = glider_line(start)?;
            let pits = line.start.to_setup().pits;
            let (south, north) = (
                pits[..16].iter().sum::<u32>(),
                pits[16..].iter().sum::<u32>(),
            );
            ((south == north) == equal).then_some(line)
        })
        .expect("a Bao la Kete glider position comes back")
}

/// A seeded Bao la Kete mtaji position: a glider on each side and one to six lone seeds, mostly in the front row.
fn glider_position(seed: u64) -> Option<AnyGame> {
    // Circuit position k of the side whose holes begin at `base` (§2.2: f1..f8, then b8..b1).
    let hole = |base: usize, k: usize| base + if k % 16 < 8 { k % 16 } else { 23 - k % 16 };
    let mut rng = Rng::new(seed);
    let mut setup = AnyGame::new_match(GameKind::BaoLaKete, &Options::default()).to_setup();
    setup.pits = [0; 32].into();
    for base in [0, 16] {
        let glider = rng.below(16);
        setup.pits[hole(base, glider)] = 2;
        setup.pits[hole(base, glider + 1)] = 1;
        for _ in 0..1 + rng.below(6) {
            let k = if rng.below(3) == 0 {
                8 + rng.below(8)
            } else {
                rng.below(8)
            };
            if setup.pits[hole(base, k)] == 0 {
                setup.pits[hole(base, k)] = 1;
            }
        }
    }
    setup.reserves = [0, 0].into();
    if let mancala::engine::VariantSetup::BaoLaKete {
        mtaji, kuu_alive, ..
    } = &mut setup.variant
    {
        *mtaji = Some(true);
        *kuu_alive = [false, false].into();
    }
    if rng.below(2) == 1 {
        setup.to_move = Some(Player::North);
    }
    AnyGame::from_setup(&setup).ok()
}

/// Each side sowing its two-seed hole clockwise, while it may and captures nothing, until the game ends by
/// repetition (within 700 moves).
fn glider_line(start: AnyGame) -> Option<RepetitionLine> {
    let glide = |game: &AnyGame| {
        let pits = game.to_setup().pits;
        game.legal_moves().into_iter().find(|mv| {
            matches!(mv, Move::Sow(sow) if pits[sow.pit as usize] == 2
                && sow.direction == Some(mancala::engine::Direction::Clockwise))
        })
    };
    let captures = |trace: &[mancala::engine::Event]| {
        trace
            .iter()
            .any(|e| matches!(e, mancala::engine::Event::Capture { .. }))
    };
    play_line(start, 700, glide, captures)
}

/// Random play from `start` with `seed`, if it ends the game by repetition within 400 moves.
fn line_from(start: AnyGame, seed: u64) -> Option<RepetitionLine> {
    let mut rng = Rng::new(seed);
    let random = |game: &AnyGame| {
        let legal = game.legal_moves();
        Some(legal[rng.below(legal.len())])
    };
    play_line(start, 400, random, |_| false)
}

/// Plays the moves `choose` picks from `start` until the game ends: the line, if it ended by repetition within
/// `limit` moves and no move's events were ones `spoils` rejects.
fn play_line(
    start: AnyGame,
    limit: usize,
    mut choose: impl FnMut(&AnyGame) -> Option<Move>,
    spoils: impl Fn(&[mancala::engine::Event]) -> bool,
) -> Option<RepetitionLine> {
    let options = mancala::engine::position_line::match_options(Options::default(), &start).ok()?;
    let mut game = start.clone();
    let mut across = AcrossTurns::start(start.kind(), &options, &game);
    let mut moves = Vec::new();
    while moves.len() < limit && game.status() == Status::InProgress {
        let mv = choose(&game)?;
        let seat = game.to_move()?;
        let mut trace = Vec::new();
        game.play(&mv, &mut trace).expect("a listed move");
        moves.push((seat, mv));
        if spoils(&trace) {
            return None;
        }
        match across.after_move(&mut game, seat, &mut trace) {
            Some(Ending::Game(EndReason::Repetition)) => {
                return Some(RepetitionLine {
                    start,
                    moves,
                    winner: game.winner(),
                })
            }
            Some(_) => return None,
            None => {}
        }
    }
    None
}

/// Every line the tests play: Bosh from its opening, then from constructed positions Ba-awa and Bao la Kete with
/// equal and with unequal seeds.
pub fn repetition_lines() -> Vec<(&'static str, RepetitionLine)> {
    vec![
        ("Bosh", bosh_line()),
        ("Ba-awa", ba_awa_line()),
        ("Bao la Kete, equal seeds", bao_la_kete_line(true)),
        ("Bao la Kete, unequal seeds", bao_la_kete_line(false)),
    ]
}

/// How many times the position after `moves` from `start` has occurred in its game, as the engine counts.
fn occurrences_after(start: &AnyGame, moves: &[(Player, Move)]) -> u32 {
    let options = mancala::engine::position_line::match_options(Options::default(), start).unwrap();
    let mut game = start.clone();
    let mut across = AcrossTurns::start(start.kind(), &options, &game);
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

/// A new match from `start` and its seat tokens, `[South, North]`.
async fn create(client: &mut MatchesClient<Channel>, start: &AnyGame) -> (String, Vec<String>) {
    let created = within(
        "create",
        client.create_match(pb::CreateMatchRequest {
            kind: mancala::api::convert::kind_to_pb(start.kind()) as i32,
            start: Some(mancala::api::convert::state_to_pb(start)),
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

/// The reason of the game or round end among an event's engine events, if it has one, with the game's winner (a
/// Bosh round has none: each player keeps what he holds).
fn game_end(event: &pb::MatchEvent) -> Option<(i32, Option<i32>)> {
    event.events.iter().find_map(|e| match &e.kind {
        Some(pb::event::Kind::GameEnd(end)) => Some((end.reason, Some(end.winner))),
        Some(pb::event::Kind::RoundEnd(end)) => Some((end.reason, None)),
        _ => None,
    })
}

/// Checks that the last event ended its game by repetition with `winner` (`None`: a draw), and no event before it
/// did; the position after each earlier event occurred at most twice.
fn ends_exactly_at_the_last(events: &[pb::MatchEvent], winner: Option<Player>, name: &str) {
    let (last, before) = events.split_last().expect("events");
    let (reason, game_winner) = game_end(last).unwrap_or_else(|| panic!("{name}: no end"));
    assert_eq!(reason, pb::EndReason::Repetition as i32, "{name}");
    if let Some(game_winner) = game_winner {
        assert_eq!(
            game_winner,
            mancala::api::convert::player_to_pb(winner),
            "{name}"
        );
    }
    for event in before {
        assert!(game_end(event).is_none(), "{name}: seq {}", event.seq);
        assert!(event.position_occurrences <= 2, "{name}: seq {}", event.seq);
    }
    assert_eq!(last.position_occurrences, 0, "{name}: the game is over");
}

#[tokio::test]
async fn repetition_ends_the_game_at_the_third_occurrence_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_string();
    let env = [
        ("MANCALA__MATCHES__STORE", "embedded"),
        ("MANCALA__MATCHES__DATA_DIR", data.as_str()),
    ];
    let mut server = Replica::start(&env).await;
    for (name, line) in repetition_lines() {
        let mut client = server.client().await;
        let (id, tokens) = create(&mut client, &line.start).await;
        let (early, last) = line.moves.split_at(line.moves.len() - 1);
        let mut events = submit(&mut [client], &id, &tokens, early, 0).await;
        server.kill();
        // The restarted server knows the positions only from the log it replays, from the stored start.
        server = Replica::start(&env).await;
        let mut client = server.client().await;
        let before = get(&mut client, &id).await;
        assert_eq!(
            before.position_occurrences,
            occurrences_after(&line.start, early),
            "{name}: the restarted server counted the positions from the log"
        );
        assert_eq!(before.position_occurrences, 2, "{name}");
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
        ends_exactly_at_the_last(&events, line.winner, name);
        let after = get(&mut client, &id).await;
        let state = after.state.expect("a state");
        assert_ne!(state.status, pb::Status::InProgress as i32, "{name}");
    }
}

#[tokio::test]
async fn repetition_ends_the_game_the_same_through_two_replicas() {
    let prefix = Prefix::new(&redis_url(), "endless");
    let (a, b) = prefix.replicas().await;
    let mut clients = [a.client().await, b.client().await];
    for (name, line) in repetition_lines() {
        let (id, tokens) = create(&mut clients[0], &line.start).await;
        let events = submit(&mut clients, &id, &tokens, &line.moves, 0).await;
        ends_exactly_at_the_last(&events, line.winner, name);
        // The other replica tells the same position, the start's, in the match's notation.
        let history = within(
            "history",
            clients[1].get_history(pb::GetHistoryRequest {
                match_id: id.clone(),
            }),
        )
        .await
        .expect("history")
        .into_inner();
        let replayed = mancala::matches::notation::replay(&history.notation).expect("replays");
        assert_eq!(replayed.start.as_ref(), Some(&line.start), "{name}");
    }
}
