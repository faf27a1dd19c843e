//! A round robin of four built-in opponents on the embedded store, the server killed (SIGKILL) between rounds and
//! started again on the same data directory: the tournament goes on where it was, its watcher resumed from its
//! last event, and ends with every pair met once and each round's matches made once.

use crate::lobby_redis::{channel, tenant, OPERATOR_KEY};
use crate::support::lobby::{
    create_tournament, enter_tournament, short_tournament, start_tournament, tournament_updates,
};
use crate::support::replica::Replica;
use mancala::api::pb;
use mancala::identity::keys;
use std::collections::HashSet;

async fn server(data_dir: &str) -> Replica {
    let hash = keys::hex(&keys::hash(OPERATOR_KEY));
    Replica::start(&[
        ("MANCALA__MATCHES__STORE", "embedded"),
        ("MANCALA__MATCHES__DATA_DIR", data_dir),
        ("MANCALA__AUTH__REQUIRED", "true"),
        ("MANCALA__AUTH__OPERATOR_KEY_SHA256", hash.as_str()),
        ("MANCALA__BOTS__THINK_DELAY_MS", "0"),
        ("MANCALA__LOBBY__SWEEP_INTERVAL_MS", "20"),
        ("MANCALA__LOBBY__HEARTBEAT_MS", "200"),
    ])
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_goes_on_after_its_server_is_killed_between_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().to_str().unwrap().to_string();
    let mut first = server(&data_dir).await;
    let on_first = channel(&first).await;
    let key = tenant(&on_first).await;
    let request = short_tournament(pb::TournamentSystem::RoundRobin, 0, false);
    let id = create_tournament(&on_first, &key, request)
        .await
        .expect("CreateTournament")
        .tournament_id;
    for level in [1, 2, 1, 2] {
        enter_tournament(&on_first, &key, &id, level)
            .await
            .expect("a built-in opponent enters");
    }
    let mut watcher = tournament_updates(&on_first, &key, &id, 0).await;
    start_tournament(&on_first, &key, &id)
        .await
        .expect("StartTournament");
    // Round 2 paired: the server goes, with round 2's matches just made (and perhaps begun).
    watcher
        .until(|u| {
            u.tournament
                .as_ref()
                .filter(|t| t.current_round == 2)
                .map(|_| ())
        })
        .await;
    let last = watcher.last_id();
    drop(watcher);
    first.kill();

    let second = server(&data_dir).await;
    let on_second = channel(&second).await;
    let mut watcher = tournament_updates(&on_second, &key, &id, last).await;
    let done = watcher
        .until(|u| {
            u.tournament
                .clone()
                .filter(|t| t.status == pb::TournamentStatus::Finished as i32)
        })
        .await;
    assert_eq!(done.round_pairings.len(), 3);
    let mut met = HashSet::new();
    let mut matches = HashSet::new();
    for board in done.round_pairings.iter().flat_map(|r| &r.boards) {
        let mut pair = [
            board.south_entrant_id.clone(),
            board.north_entrant_id.clone(),
        ];
        pair.sort();
        assert!(met.insert(pair), "each pair once: {done:?}");
        assert!(matches.insert(board.match_id.clone()));
        assert_ne!(board.result, pb::BoardResult::Unspecified as i32);
    }
    assert_eq!(met.len(), 6);
    let total: f64 = done.standings.iter().map(|s| s.points).sum();
    assert_eq!(total, 6.0);
    // The resumed watcher saw round 2's results, round 3 and the end, and nothing before its resume point.
    assert!(watcher.ids().iter().all(|&event| event > last));
}
