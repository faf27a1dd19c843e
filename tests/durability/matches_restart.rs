//! Durability: the real `mancala` binary, killed with SIGKILL in the middle of a match while moves
//! are in flight, then restarted on the same data directory. Every acknowledged move is back, with
//! its history and version; a watcher resumes from its seq; play goes on.

use crate::support::replica::{
    authed, create, get, history, moved_on, next_event, next_request, within, Replica, STEP,
};
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use pb::watch_match_response::Kind;
use std::path::Path;
use tonic::transport::Channel;

/// The binary on the embedded store in `data_dir`.
async fn start(data_dir: &Path) -> Replica {
    let data = data_dir.to_str().expect("a UTF-8 path");
    Replica::start(&[
        ("MANCALA__MATCHES__STORE", "embedded"),
        ("MANCALA__MATCHES__DATA_DIR", data),
    ])
    .await
}

#[tokio::test]
async fn a_match_survives_sigkill_with_its_history_version_and_watchers() {
    let data = tempfile::tempdir().expect("a temporary data directory");
    let server = start(data.path()).await;
    let mut client = server.client().await;
    let (mut m, tokens) = create(&mut client).await;
    let id = m.match_id.clone();

    let mut watcher = within(
        "watch",
        client.watch_match(pb::WatchMatchRequest {
            match_id: id.clone(),
            from_seq: None,
            previews: false,
        }),
    )
    .await
    .expect("watch")
    .into_inner();

    // Moves acknowledged before the kill, in order.
    let mut acked: Vec<pb::MatchEvent> = Vec::new();
    for n in 0..12 {
        let (request, token) = next_request(&m, &tokens, n * 5 + 3);
        let event = within("submit", client.submit_move(authed(request, &token)))
            .await
            .expect("accepted")
            .into_inner()
            .event
            .unwrap();
        acked.push(event);
        m = get(&mut client, &id).await;
    }
    // The watcher has read up to seq 5 when it loses the server.
    let mut watched = 0;
    while watched < 5 {
        match within("watch message", watcher.message())
            .await
            .expect("open")
            .expect("more")
            .kind
            .unwrap()
        {
            Kind::Event(e) => {
                assert_eq!(e, acked[watched]);
                watched += 1;
            }
            Kind::Snapshot(_) | Kind::Presence(_) | Kind::Heartbeat(_) => {}
            Kind::Finished(_) => panic!("the match is not over"),
        }
    }

    // A second client keeps moving while the process is killed: the kill lands between or during
    // its requests. Only what was acknowledged counts.
    let mut mover = server.client().await;
    let in_flight = {
        let tokens = tokens.clone();
        let mut m = m.clone();
        let mut acked = acked.clone();
        let (ready_tx, ready) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let mut ready_tx = Some(ready_tx);
            for n in 0.. {
                let (request, token) = next_request(&m, &tokens, n * 5 + 3);
                let expected = request.clone();
                match tokio::time::timeout(STEP, mover.submit_move(authed(request, &token))).await {
                    Ok(Ok(answer)) => {
                        let event = answer.into_inner().event.unwrap();
                        // Build the next request from the answer, as a client without GetMatch would.
                        moved_on(&mut m, &event);
                        assert_eq!(expected.expected_version, Some(event.seq - 1));
                        acked.push(event);
                        if acked.len() >= 15 {
                            if let Some(ready) = ready_tx.take() {
                                let _ = ready.send(());
                            }
                        }
                    }
                    _ => break,
                }
            }
            acked
        });
        within("three more moves", ready)
            .await
            .expect("the mover moved");
        task
    };
    let mut server = server;
    server.kill();
    let acked = within("the mover stops", in_flight)
        .await
        .expect("no panic");
    drop(watcher);
    drop(client);

    // Restart on the same directory.
    let server = start(data.path()).await;
    let mut client = server.client().await;
    let after = get(&mut client, &id).await;
    let last = acked.last().unwrap();
    // Every acknowledged move is there; a move whose answer was lost to the kill may be too.
    assert!(
        after.version == last.seq || after.version == last.seq + 1,
        "version {} after the restart, {} acknowledged",
        after.version,
        last.seq
    );
    let restored = history(&mut client, &id).await;
    assert_eq!(restored.events.len() as u64, after.version);
    assert_eq!(
        &restored.events[..acked.len()],
        &acked[..],
        "the history of every acknowledged move is identical"
    );
    assert_eq!(restored.events.last().unwrap().state, after.state);
    let replayed = mancala::matches::notation::replay(&restored.notation).expect("replays");
    assert_eq!(
        Some(mancala::api::convert::state_to_pb(&replayed.game)),
        after.state
    );

    // An acknowledged request retried after the restart still applies once.
    let retry = pb::SubmitMoveRequest {
        match_id: id.clone(),
        r#move: match &last.action {
            Some(pb::match_event::Action::Move(mv)) => Some(mv.clone()),
            other => panic!("{other:?}"),
        },
        expected_version: Some(last.seq - 1),
        request_id: format!("move-{}", last.seq),
    };
    let seat = if last.player == pb::Player::North as i32 {
        1
    } else {
        0
    };
    let again = within("retry", client.submit_move(authed(retry, &tokens[seat])))
        .await
        .expect("the original answer")
        .into_inner()
        .event
        .unwrap();
    assert_eq!(&again, last);

    // The watcher resumes from seq 5: exactly the events it missed, then live ones.
    let mut resumed = within(
        "resume",
        client.watch_match(pb::WatchMatchRequest {
            match_id: id.clone(),
            from_seq: Some(watched as u64),
            previews: false,
        }),
    )
    .await
    .expect("resume")
    .into_inner();
    let mut expected = restored.events[watched..].to_vec();
    // Play goes on.
    let (request, token) = next_request(&after, &tokens, 1);
    let next = within(
        "a move after the restart",
        client.submit_move(authed(request, &token)),
    )
    .await
    .expect("accepted")
    .into_inner()
    .event
    .unwrap();
    assert_eq!(next.seq, after.version + 1);
    expected.push(next);
    // Only events after a resume (`next_event` panics on anything else).
    for event in &expected {
        assert_eq!(&next_event(&mut resumed).await, event);
    }
}

/// Plays `m` on `client` until the server goes away (or the match ends), sending the seq of each acknowledged move
/// to `acked`; the last one acknowledged.
async fn play_until_killed(
    mut client: MatchesClient<Channel>,
    mut m: pb::Match,
    tokens: Vec<String>,
    acked: tokio::sync::mpsc::UnboundedSender<()>,
) -> u64 {
    let mut last = m.version;
    for n in 0.. {
        if m.legal_moves.is_empty() {
            break;
        }
        let (request, token) = next_request(&m, &tokens, n * 3 + 1);
        match tokio::time::timeout(STEP, client.submit_move(authed(request, &token))).await {
            Ok(Ok(answer)) => {
                let event = answer.into_inner().event.unwrap();
                moved_on(&mut m, &event);
                last = event.seq;
                let _ = acked.send(());
            }
            _ => break,
        }
    }
    last
}

/// Several matches moving at once, the server killed three times while they move: after each restart every
/// acknowledged move of every match is there, its history whole (the group commit's batches hold several matches'
/// moves, and a kill can land in any of them), and play goes on.
#[tokio::test]
async fn matches_moving_together_survive_repeated_sigkills() {
    const MATCHES: usize = 6;
    let data = tempfile::tempdir().expect("a temporary data directory");
    let mut server = start(data.path()).await;
    let mut client = server.client().await;
    let mut matches = Vec::new();
    for _ in 0..MATCHES {
        let (m, tokens) = create(&mut client).await;
        matches.push((m.match_id, tokens));
    }
    for round in 0..3 {
        let (acked, mut acks) = tokio::sync::mpsc::unbounded_channel();
        let mut players = Vec::new();
        for (id, tokens) in &matches {
            let m = get(&mut client, id).await;
            players.push(tokio::spawn(play_until_killed(
                server.client().await,
                m,
                tokens.clone(),
                acked.clone(),
            )));
        }
        drop(acked);
        // Killed once the matches together have had some forty moves acknowledged (or all have ended).
        for _ in 0..40 {
            if within("a move", acks.recv()).await.is_none() {
                break;
            }
        }
        server.kill();
        let mut last = Vec::new();
        for player in players {
            last.push(within("the player stops", player).await.expect("no panic"));
        }
        drop(client);
        server = start(data.path()).await;
        client = server.client().await;
        for ((id, _), last) in matches.iter().zip(last) {
            let after = get(&mut client, id).await;
            assert!(
                after.version == last || after.version == last + 1,
                "round {round}: match {id} at version {} after the restart, {last} acknowledged",
                after.version
            );
            let restored = history(&mut client, id).await;
            assert_eq!(restored.events.len() as u64, after.version);
            if let Some(event) = restored.events.last() {
                assert_eq!(event.state, after.state, "round {round}: match {id}");
            }
        }
    }
}
