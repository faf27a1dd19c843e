//! A Swiss tournament across two replicas (real binaries) over one Redis, with auth required: eight entrants, four
//! players the test plays for and four of the server's built-in opponents, play five rounds to the end while the
//! calls and the moves go to either replica and one replica is killed between rounds. Each round's pairing and
//! seats, and the final standings with their tie-breaks, must equal what the test computes itself from the rules
//! written in docs/guide/tournaments.md (the Monrad pairing, the seat rule, points, Buchholz and
//! Sonneborn-Berger), from the results the matches really had; every player's event stream must tell him of each
//! round's match and of his final rank, and every board's match must be made once. Needs `MANCALA_TEST_REDIS_URL`,
//! like `matches_redis`.

use crate::lobby_redis::{channel, replicas, tenant, token};
use crate::matches_redis::{redis_url, Prefix};
use crate::support::lobby::{
    authed, create_tournament, enter_tournament, get_match, play_out, player_events,
    short_tournament, start_tournament, started, tournament_updates, try_player_events, within,
    Events,
};
use mancala::api::pb;
use pb::tournaments_client::TournamentsClient;
use std::collections::{HashMap, HashSet};
use tonic::transport::Channel;

async fn get(channel: &Channel, key: &str, id: &str) -> pb::Tournament {
    within(
        "GetTournament",
        TournamentsClient::new(channel.clone()).get_tournament(authed(
            pb::GetTournamentRequest {
                tournament_id: id.into(),
            },
            key,
        )),
    )
    .await
    .expect("GetTournament")
    .into_inner()
    .tournament
    .expect("a tournament")
}

/// The tournament once its watcher has seen `done` hold (the updates read until then are kept).
async fn until(
    watcher: &mut Events<pb::WatchTournamentResponse>,
    done: impl Fn(&pb::Tournament) -> bool,
) -> pb::Tournament {
    watcher
        .until(|u| u.tournament.clone().filter(|t| done(t)))
        .await
}

// The reference: the rules of docs/guide/tournaments.md, written again here from the page.

#[derive(Default, Clone)]
struct Seats {
    south: i64,
    north: i64,
    last_south: Option<bool>,
}

/// Points in halves: a win 2, a draw 1, anything else 0; the boards of `rounds` with a result.
fn reference_points(rounds: &[pb::TournamentRound]) -> HashMap<String, i64> {
    let mut points = HashMap::new();
    for round in rounds {
        for b in &round.boards {
            let (s, n) = halves(b.result);
            *points.entry(b.south_entrant_id.clone()).or_default() += s;
            *points.entry(b.north_entrant_id.clone()).or_default() += n;
        }
        if !round.bye_entrant_id.is_empty() {
            *points.entry(round.bye_entrant_id.clone()).or_default() += 2;
        }
    }
    points
}

fn halves(result: i32) -> (i64, i64) {
    match pb::BoardResult::try_from(result).unwrap() {
        pb::BoardResult::SouthWon => (2, 0),
        pb::BoardResult::NorthWon => (0, 2),
        pb::BoardResult::Draw => (1, 1),
        pb::BoardResult::NoResult => (0, 0),
        pb::BoardResult::Unspecified => panic!("a board without a result"),
    }
}

/// The next round's boards (South, North) by the Monrad system: ranked by points then seed, each from the top
/// meets the next he has not met, backtracking; the one who sat South less often (South minus North) sits South,
/// then the one who sat North last, then the higher ranked.
fn reference_pairing(
    seeds: &HashMap<String, u32>,
    rounds: &[pb::TournamentRound],
) -> Vec<(String, String)> {
    let points = reference_points(rounds);
    let mut met: HashSet<(String, String)> = HashSet::new();
    let mut seats: HashMap<String, Seats> = HashMap::new();
    for round in rounds {
        for b in &round.boards {
            met.insert((b.south_entrant_id.clone(), b.north_entrant_id.clone()));
            met.insert((b.north_entrant_id.clone(), b.south_entrant_id.clone()));
            let s = seats.entry(b.south_entrant_id.clone()).or_default();
            s.south += 1;
            s.last_south = Some(true);
            let n = seats.entry(b.north_entrant_id.clone()).or_default();
            n.north += 1;
            n.last_south = Some(false);
        }
    }
    let mut ranked: Vec<String> = seeds.keys().cloned().collect();
    ranked.sort_by_key(|e| (-points.get(e).copied().unwrap_or(0), seeds[e]));
    fn search(
        ranked: &[String],
        met: &HashSet<(String, String)>,
        free: &mut Vec<bool>,
        out: &mut Vec<(usize, usize)>,
    ) -> bool {
        let Some(top) = free.iter().position(|f| *f) else {
            return true;
        };
        free[top] = false;
        for other in top + 1..ranked.len() {
            if free[other] && !met.contains(&(ranked[top].clone(), ranked[other].clone())) {
                free[other] = false;
                out.push((top, other));
                if search(ranked, met, free, out) {
                    return true;
                }
                out.pop();
                free[other] = true;
            }
        }
        free[top] = true;
        false
    }
    let mut free = vec![true; ranked.len()];
    let mut pairs = Vec::new();
    assert!(
        search(&ranked, &met, &mut free, &mut pairs),
        "a pairing exists"
    );
    pairs
        .into_iter()
        .map(|(hi, lo)| {
            let (h, l) = (&ranked[hi], &ranked[lo]);
            let sh = seats.get(h).cloned().unwrap_or_default();
            let sl = seats.get(l).cloned().unwrap_or_default();
            let (bh, bl) = (sh.south - sh.north, sl.south - sl.north);
            let lower_south =
                bl < bh || (bl == bh && sh.last_south == Some(true) && sl.last_south != Some(true));
            if lower_south {
                (l.clone(), h.clone())
            } else {
                (h.clone(), l.clone())
            }
        })
        .collect()
}

/// The standings as (entrant, points, Buchholz, Sonneborn-Berger), best first.
fn reference_standings(
    seeds: &HashMap<String, u32>,
    rounds: &[pb::TournamentRound],
) -> Vec<(String, f64, f64, f64)> {
    let points = reference_points(rounds);
    let p = |e: &str| points.get(e).copied().unwrap_or(0) as f64 / 2.0;
    let mut lines: Vec<(String, f64, f64, f64)> = seeds
        .keys()
        .map(|e| {
            let (mut buchholz, mut sb) = (0.0, 0.0);
            for b in rounds.iter().flat_map(|r| &r.boards) {
                let (mine, theirs, opponent) = if b.south_entrant_id == *e {
                    let (s, n) = halves(b.result);
                    (s, n, &b.north_entrant_id)
                } else if b.north_entrant_id == *e {
                    let (s, n) = halves(b.result);
                    (n, s, &b.south_entrant_id)
                } else {
                    continue;
                };
                buchholz += p(opponent);
                match (mine, theirs) {
                    (2, _) => sb += p(opponent),
                    (1, 1) => sb += p(opponent) / 2.0,
                    _ => {}
                }
            }
            (e.clone(), p(e), buchholz, sb)
        })
        .collect();
    lines.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then(b.2.total_cmp(&a.2))
            .then(b.3.total_cmp(&a.3))
            .then(seeds[&a.0].cmp(&seeds[&b.0]))
    });
    lines
}

fn tournament_event(event: &pb::PlayerEvent) -> Option<pb::PlayerTournamentEvent> {
    match &event.event {
        Some(pb::player_event::Event::Tournament(t)) => Some(t.clone()),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_entrants_play_a_five_round_swiss_across_replicas_one_killed_between_rounds() {
    let url = redis_url();
    let prefix = Prefix::new(&url, "tournament-swiss");
    let (mut a, b) = replicas(&prefix).await;
    let (on_a, on_b) = (channel(&a).await, channel(&b).await);
    let key = tenant(&on_a).await;
    let players = ["ann", "bob", "cy", "dee"];
    let mut tokens: HashMap<String, String> = HashMap::new();
    for p in players {
        tokens.insert(p.to_string(), token(&on_a, &key, p).await);
    }
    // B hears of the tenant made on A through the store's feed, a moment later: its first stream waits for that.
    let mut streams: HashMap<&str, Events<pb::PlayerEvent>> = HashMap::new();
    for attempt in 0.. {
        match try_player_events(&on_b, &tokens["ann"], 0).await {
            Ok(events) => {
                streams.insert("ann", events);
                break;
            }
            Err(status) if status.code() == tonic::Code::Unauthenticated && attempt < 200 => {
                tokio::time::sleep(std::time::Duration::from_millis(25)).await
            }
            Err(status) => panic!("B never knew the tenant: {status:?}"),
        }
    }
    for p in &players[1..] {
        streams.insert(p, player_events(&on_b, &tokens[*p], 0).await);
    }

    let request = short_tournament(pb::TournamentSystem::Swiss, 5, true);
    let created = create_tournament(&on_a, &key, request)
        .await
        .expect("CreateTournament");
    let id = created.tournament_id.clone();
    let mut watcher = tournament_updates(&on_a, &key, &id, 0).await;

    // Players and built-in opponents in turn, on either replica: seeds 1 to 8.
    let mut seeds: HashMap<String, u32> = HashMap::new();
    for (i, p) in players.iter().enumerate() {
        let channels = [&on_a, &on_b];
        let entered = enter_tournament(channels[i % 2], &tokens[*p], &id, 0)
            .await
            .expect("a player enters");
        assert_eq!(entered, *p);
        seeds.insert(entered, 2 * i as u32 + 1);
        let bot = enter_tournament(channels[(i + 1) % 2], &key, &id, 1 + (i as u32 % 2))
            .await
            .expect("a bot enters");
        seeds.insert(bot, 2 * i as u32 + 2);
    }
    let standing = get(&on_b, &key, &id).await;
    let entered: HashMap<String, u32> = standing
        .entrants
        .iter()
        .map(|e| (e.entrant_id.clone(), e.seed))
        .collect();
    assert_eq!(entered, seeds);

    start_tournament(&on_b, &key, &id)
        .await
        .expect("StartTournament");

    let mut alive = vec![on_a.clone(), on_b.clone()];
    let mut t = until(&mut watcher, |t| t.current_round == 1).await;
    for round in 1..=5u32 {
        if round == 3 {
            // Between rounds: A goes, its watcher is resumed on B from the last event it saw.
            let last = watcher.last_id();
            drop(watcher);
            a.kill();
            alive = vec![on_b.clone()];
            watcher = tournament_updates(&on_b, &key, &id, last).await;
        }
        let pairing = &t.round_pairings[round as usize - 1];
        let boards: Vec<(String, String)> = pairing
            .boards
            .iter()
            .map(|b| (b.south_entrant_id.clone(), b.north_entrant_id.clone()))
            .collect();
        assert_eq!(
            boards,
            reference_pairing(&seeds, &t.round_pairings[..round as usize - 1]),
            "round {round}"
        );
        assert!(pairing.bye_entrant_id.is_empty() && pairing.idle_entrant_ids.is_empty());
        for board in &pairing.boards {
            let south = tokens.get(&board.south_entrant_id).map(String::as_str);
            let north = tokens.get(&board.north_entrant_id).map(String::as_str);
            if south.is_some() || north.is_some() {
                play_out(&alive, &board.match_id, [south, north]).await;
            }
        }
        t = until(&mut watcher, |t| {
            t.current_round > round || t.status == pb::TournamentStatus::Finished as i32
        })
        .await;
    }
    assert_eq!(t.status, pb::TournamentStatus::Finished as i32);
    assert_eq!(t.round_pairings.len(), 5);
    let t = get(&on_b, &key, &id).await;

    // Every board's result is its match's.
    for board in t.round_pairings.iter().flat_map(|r| &r.boards) {
        let reader = tokens
            .get(&board.south_entrant_id)
            .or_else(|| tokens.get(&board.north_entrant_id))
            .unwrap_or(&key);
        let m = get_match(&on_b, reader, &board.match_id).await;
        let winner = m.result.as_ref().map(|r| r.winner);
        let expected = match pb::BoardResult::try_from(board.result).unwrap() {
            pb::BoardResult::SouthWon => Some(pb::Player::South as i32),
            pb::BoardResult::NorthWon => Some(pb::Player::North as i32),
            pb::BoardResult::Draw => Some(pb::Player::Unspecified as i32),
            other => panic!("board {board:?} ended {other:?}"),
        };
        assert_eq!(winner, expected, "board {board:?}");
    }

    // The standings and tie-breaks are the reference's.
    let reference = reference_standings(&seeds, &t.round_pairings);
    let got: Vec<(String, f64, f64, f64)> = t
        .standings
        .iter()
        .map(|s| {
            (
                s.entrant_id.clone(),
                s.points,
                s.buchholz,
                s.sonneborn_berger,
            )
        })
        .collect();
    assert_eq!(got, reference);
    assert_eq!(
        t.standings.iter().map(|s| s.rank).collect::<Vec<_>>(),
        (1..=8).collect::<Vec<u32>>()
    );
    let total: f64 = t.standings.iter().map(|s| s.points).sum();
    assert_eq!(total, 20.0, "twenty boards, a point each");

    // Rated: each player's Bosh rating moved once per match against another player, never against a built-in one;
    // every match he finished counts in his record.
    for p in players {
        let profile = within(
            "GetPlayer",
            pb::players_client::PlayersClient::new(on_b.clone()).get_player(authed(
                pb::GetPlayerRequest {
                    player_id: p.into(),
                },
                &key,
            )),
        )
        .await
        .expect("GetPlayer")
        .into_inner()
        .profile
        .expect("a profile");
        let bosh = profile
            .ratings
            .iter()
            .find(|r| r.kind == pb::GameKind::Bosh as i32)
            .expect("a Bosh rating");
        let boards: Vec<&pb::TournamentBoard> = t
            .round_pairings
            .iter()
            .flat_map(|r| &r.boards)
            .filter(|b| b.south_entrant_id == p || b.north_entrant_id == p)
            .collect();
        let against_players = boards
            .iter()
            .filter(|b| {
                tokens.contains_key(&b.south_entrant_id) && tokens.contains_key(&b.north_entrant_id)
            })
            .count();
        assert_eq!(bosh.rated_matches as usize, against_players, "{p}");
        assert_eq!(
            (bosh.wins + bosh.losses + bosh.draws) as usize,
            boards.len(),
            "{p}"
        );
    }

    // Each player heard of each of his rounds once, with his match, of that match starting once, and of his rank.
    for p in players {
        let events = streams.get_mut(p).unwrap();
        let finished = events
            .until(|e| {
                tournament_event(e).filter(|t| t.kind == pb::TournamentEventKind::Finished as i32)
            })
            .await;
        let rank = t
            .standings
            .iter()
            .find(|s| s.entrant_id == p)
            .map(|s| (s.rank, s.points))
            .unwrap();
        assert_eq!((finished.rank, finished.points), rank, "{p}");
        let paired: Vec<(u32, String)> = events
            .seen
            .iter()
            .filter_map(tournament_event)
            .filter(|t| t.kind == pb::TournamentEventKind::RoundPaired as i32)
            .map(|t| (t.round, t.match_id))
            .collect();
        let mine: Vec<(u32, String)> = t
            .round_pairings
            .iter()
            .flat_map(|r| {
                r.boards
                    .iter()
                    .filter(|b| b.south_entrant_id == p || b.north_entrant_id == p)
                    .map(|b| (r.round, b.match_id.clone()))
            })
            .collect();
        assert_eq!(paired, mine, "{p}");
        let mut starts: Vec<(u32, String)> = events
            .seen
            .iter()
            .filter_map(started)
            .filter(|s| s.tournament_id == id)
            .map(|s| (s.tournament_round, s.match_id))
            .collect();
        starts.sort();
        assert_eq!(starts, mine, "{p}: each match started once");
    }
}
