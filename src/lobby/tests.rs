//! Tests of the lobby's record of matches and of its commit against a store that misbehaves (they share the
//! rated match they set up).

use super::record::missing_steps;
use super::*;
use crate::engine::{GameKind, Options, Player};
use crate::store::{Finished, MatchRecord};

fn record(id: u8, players: [&str; 2], version: u64, winner: Option<Player>) -> MatchRecord {
    MatchRecord {
        id: MatchId([id; 16]),
        kind: GameKind::Bosh,
        options: Options::default(),
        start: None,
        created_ms: 1,
        token_hashes: [[0; 32]; 3],
        tenant: "acme".into(),
        players: {
            let [south, north] = players.map(|p| Some(p.to_string()));
            [south, north, None]
        },
        bots: [None, None, None],
        active_ms: 1,
        version,
        finished: winner.map(|winner| Finished {
            at_ms: 9,
            winner: Some(winner),
            resigned: None,
            reason: crate::store::EndReason::PlayedOut,
        }),
        time_control: Default::default(),
        deadline_ms: None,
    }
}

fn rated_match(state: &mut TenantState, id: u8, players: [&str; 2]) {
    let seats = players
        .map(|p| state.seat_record(p, GameKind::Bosh))
        .to_vec();
    state.apply(&Logged {
        seq: state.seq + 1,
        at_ms: 1,
        entry: Entry::MatchCreated {
            id: MatchId([id; 16]),
            kind: GameKind::Bosh,
            options: Options::default(),
            time_control: Default::default(),
            rated: true,
            seats,
            origin: Origin::Challenge(MatchId([id + 100; 16])),
        },
    });
}

#[test]
fn a_batch_records_every_missing_step_once_and_rates_in_order() {
    let mut state = TenantState::default();
    rated_match(&mut state, 1, ["ann", "bob"]);
    rated_match(&mut state, 2, ["ann", "cy"]);
    // Both matches start and end in one batch (and the end of the first is told twice).
    let records = vec![
        record(1, ["ann", "bob"], 1, None),
        record(1, ["ann", "bob"], 9, Some(Player::South)),
        record(1, ["ann", "bob"], 9, Some(Player::South)),
        record(2, ["ann", "cy"], 7, Some(Player::South)),
        // A match made with CreateMatch, started and unfinished.
        record(3, ["dee", "eve"], 2, None),
    ];
    let steps = missing_steps(&state, &records, true);
    let kinds: Vec<&str> = steps
        .iter()
        .map(|step| match step {
            Entry::MatchCreated { .. } => "created",
            Entry::MatchStarted { .. } => "started",
            Entry::MatchFinished { .. } => "finished",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["started", "finished", "started", "finished", "created", "started"]
    );
    let Entry::MatchFinished {
        ratings: Some(first),
        ..
    } = &steps[1]
    else {
        panic!("a rated end: {:?}", steps[1]);
    };
    let Entry::MatchFinished {
        ratings: Some(second),
        ..
    } = &steps[3]
    else {
        panic!("a rated end: {:?}", steps[3]);
    };
    assert_eq!(
        second[0].before, first[0].after,
        "Ann's second match starts from the rating her first one gave her"
    );
    for (seq, entry) in (state.seq + 1..).zip(steps) {
        state.apply(&Logged {
            seq,
            at_ms: 2,
            entry,
        });
    }
    assert!(
        missing_steps(&state, &records, true).is_empty(),
        "nothing twice"
    );
    let ann = state.profile("ann");
    assert_eq!(ann.standing(GameKind::Bosh).rated_matches, 2);
    assert_eq!(ann.standing(GameKind::Bosh).wins, 2);
    // The repair leaves alone a finished match it never heard of.
    assert!(missing_steps(
        &state,
        &[record(4, ["x", "y"], 3, Some(Player::North))],
        false
    )
    .is_empty());
}

/// A lobby store whose log always holds `held` entries: appends always lose, as when its data was lost
/// (`held` below what a server has read) or under another server writing for ever.
struct Stuck {
    held: u64,
}

#[async_trait::async_trait]
impl LobbyStore for Stuck {
    async fn lobby_append(&self, _: &str, _: u64, _: &[Vec<u8>]) -> Result<(), StoreError> {
        Err(StoreError::Conflict { current: self.held })
    }
    async fn lobby_read(
        &self,
        _: &str,
        _: u64,
        _: usize,
    ) -> Result<Vec<crate::store::LobbyEntry>, StoreError> {
        Ok(Vec::new())
    }
    async fn lobby_tenants(&self) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }
}

/// An encoder for a lobby whose matches nobody watches.
struct Silent;

impl Encoder for Silent {
    type Message = ();
    fn encode(&self, _: crate::matches::Update<'_>) {}
}

fn profile_change(_: &TenantState) -> Result<(Option<Entry>, ()), LobbyError> {
    let entry = Entry::Profile {
        player: "ann".into(),
        display_name: "Ann".into(),
        bot: None,
    };
    Ok((Some(entry), ()))
}

#[tokio::test]
async fn a_store_that_lost_the_log_fails_the_call_instead_of_racing_it_for_ever() {
    let tenant = TenantLobby {
        id: "acme".into(),
        state: tokio::sync::Mutex::new(TenantState::default()),
        latest: watch::channel(0).0,
    };
    rated_match(&mut tenant.state.try_lock().unwrap(), 1, ["ann", "bob"]);
    let metrics = Metrics::new();
    // The server has read one entry; the store (a Redis restarted empty) holds none.
    let lost = Lobby::<Silent>::commit(&Stuck { held: 0 }, &metrics, &tenant, profile_change).await;
    assert!(matches!(&lost, Err(LobbyError::Internal(_))), "{lost:?}");
    // A store always one entry ahead (another server winning every race) is tried a bounded number of times.
    let racing =
        Lobby::<Silent>::commit(&Stuck { held: 5 }, &metrics, &tenant, profile_change).await;
    assert!(
        matches!(&racing, Err(LobbyError::Internal(_))),
        "{racing:?}"
    );
}
