//! The right seat chooses between games (docs/guide/matches.md, "Who chooses between games"), over a real channel:
//! Ba-awa's surplus allocation only from the player who won more than six pits (§4.4 step 3), Bosh's holes only
//! from their own row's player (§3.4 step 4), the default `NextGame` from any seat, and three-player Ba-awa's
//! `NextGame` without pits (§4.7 step 4).

use crate::support::replica::authed;
use crate::support::server::{within, TestServer};
use mancala::api::pb;
use pb::matches_client::MatchesClient;
use pb::r#move::Action;
use tonic::transport::Channel;
use tonic::Code;
use tonic_types::StatusExt;

const S: i32 = pb::Player::South as i32;
const N: i32 = pb::Player::North as i32;

/// A created match and its seat tokens, by `Player` value.
struct Held {
    client: MatchesClient<Channel>,
    id: String,
    tokens: Vec<(i32, String)>,
    state: pb::GameState,
    legal: Vec<pb::Move>,
    version: u64,
}

impl Held {
    async fn create(server: &TestServer, kind: pb::GameKind, options: pb::GameOptions) -> Held {
        let mut client = MatchesClient::new(server.channel.clone());
        let created = within(client.create_match(pb::CreateMatchRequest {
            kind: kind as i32,
            options: Some(options),
            ..Default::default()
        }))
        .await
        .expect("created")
        .into_inner();
        let m = created.r#match.expect("a match");
        Held {
            client,
            id: m.match_id,
            tokens: created
                .tokens
                .into_iter()
                .map(|t| (t.player, t.token))
                .collect(),
            state: m.state.expect("a state"),
            legal: m.legal_moves,
            version: m.version,
        }
    }

    fn token(&self, seat: i32) -> String {
        let (_, token) = self
            .tokens
            .iter()
            .find(|(p, _)| *p == seat)
            .expect("a seat token");
        token.clone()
    }

    async fn submit(&mut self, seat: i32, mv: pb::Move) -> Result<(), tonic::Status> {
        let request = pb::SubmitMoveRequest {
            match_id: self.id.clone(),
            r#move: Some(mv),
            expected_version: Some(self.version),
            request_id: String::new(),
        };
        let token = self.token(seat);
        let event = within(self.client.submit_move(authed(request, &token)))
            .await?
            .into_inner()
            .event
            .expect("an event");
        self.version = event.seq;
        self.state = event.state.expect("a state");
        self.legal = event.legal_moves;
        Ok(())
    }

    /// Sows legal moves picked by `seed` for the seat to move until the game or round is over.
    async fn play_out(&mut self, seed: u64) {
        for step in 0..20_000u64 {
            if self.state.status != pb::Status::InProgress as i32 {
                return;
            }
            let n = (seed.wrapping_mul(6_364_136_223_846_793_005)
                ^ step.wrapping_mul(1_442_695_040_888_963_407))
                >> 33;
            let mv = self.legal[n as usize % self.legal.len()].clone();
            let seat = self.state.to_move;
            self.submit(seat, mv)
                .await
                .expect("a legal sowing by the seat to move");
        }
        panic!("the game did not end within 20,000 moves");
    }
}

fn next_game(pits: &[u32]) -> pb::Move {
    pb::Move {
        action: Some(Action::NextGame(pb::NextGame {
            pits: pits.to_vec(),
        })),
    }
}

/// The `ErrorInfo` of a refusal: its reason and metadata.
fn error_info(status: &tonic::Status) -> (String, std::collections::HashMap<String, String>) {
    let info = status
        .get_error_details()
        .error_info()
        .cloned()
        .expect("an ErrorInfo");
    (info.reason, info.metadata)
}

fn assert_not_your_choice(refused: tonic::Status, sender: &str, chooser: &str, rule: &str) {
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    let (reason, metadata) = error_info(&refused);
    assert_eq!(reason, "NOT_YOUR_CHOICE");
    assert_eq!(metadata["seat"], sender);
    assert_eq!(metadata["chooser"], chooser);
    assert_eq!(metadata["rule"], rule);
    assert!(refused.message().contains(rule), "{}", refused.message());
}

/// §4.4 step 3: after a game one player won more than six pits, his opponent's choice of pits is refused, his own
/// is taken; the default from the opponent is accepted too (in another match), and six each leaves nothing to choose.
#[tokio::test]
async fn ba_awa_pits_are_chosen_by_the_player_who_won_more_than_six() {
    let server = TestServer::start().await;
    let mut surplus_seen = false;
    let mut default_by_other_seen = false;
    for seed in 1..=40u64 {
        let mut held = Held::create(&server, pb::GameKind::BaAwa, pb::GameOptions::default()).await;
        held.play_out(seed).await;
        if held.state.status == pb::Status::MatchOver as i32 {
            // Ten pits or more in one game ends the match: nothing to choose.
            continue;
        }
        assert_eq!(held.state.status, pb::Status::GameOver as i32);
        let pits = [held.state.stores[0] / 4, held.state.stores[1] / 4];
        let Some(surplus) = (0..2).find(|&i| pits[i] > 6) else {
            // Six each: each keeps his row, and nobody may take a pit (the engine's own refusal).
            let refused = held.submit(N, next_game(&[0])).await.unwrap_err();
            assert_eq!(error_info(&refused).0, "INVALID_CHOICE");
            continue;
        };
        let (chooser, other) = if surplus == 0 { (S, N) } else { (N, S) };
        let names = |seat: i32| {
            if seat == S {
                "PLAYER_SOUTH"
            } else {
                "PLAYER_NORTH"
            }
        };
        // The pits taken lie in the other's row: the last ones of it, not the default's first ones.
        let extra = pits[surplus] - 6;
        let row_start = if surplus == 0 { 6 } else { 0 };
        let chosen: Vec<u32> = (row_start + 6 - extra..row_start + 6).collect();
        let version = held.version;
        let refused = held.submit(other, next_game(&chosen)).await.unwrap_err();
        assert_not_your_choice(refused, names(other), names(chooser), "§4.4 step 3");
        assert_eq!(held.version, version, "nothing was played");
        if seed % 2 == 0 {
            // The default is the continuation, not a choice: the other seat may send it.
            held.submit(other, next_game(&[]))
                .await
                .expect("the default from any seat");
            default_by_other_seen = true;
        } else {
            held.submit(chooser, next_game(&chosen))
                .await
                .expect("the chooser's own choice");
            let Some(pb::game_state::Variant::BaAwa(ba_awa)) = &held.state.variant else {
                panic!("a Ba-awa state")
            };
            for pit in chosen {
                assert_eq!(
                    ba_awa.owners[pit as usize], chooser,
                    "pit {pit} went to the chooser"
                );
            }
            surplus_seen = true;
        }
        if surplus_seen && default_by_other_seen {
            return;
        }
    }
    panic!("40 games gave no surplus both ways (chosen {surplus_seen}, default {default_by_other_seen})");
}

/// §3.4 step 4: each Bosh player chooses only his own holes. A seat's `NextGame` naming a hole of the other row is
/// refused, naming the row's owner; a seat's own holes are taken, and the other row gets the default fill.
#[tokio::test]
async fn bosh_players_choose_only_their_own_holes() {
    let server = TestServer::start().await;
    let mut held = Held::create(&server, pb::GameKind::Bosh, pb::GameOptions::default()).await;
    held.play_out(7).await;
    assert_eq!(
        held.state.status,
        pb::Status::RoundOver as i32,
        "a Bosh round ends as ROUND_OVER"
    );
    let total = |i: usize| held.state.stores[i] + held.state.reserves[i];
    let holes = [(total(0) / 4).min(5), (total(1) / 4).min(5)];
    // South lists his leftmost holes (not the default) and one of North's: refused, North chooses those.
    let south_holes: Vec<u32> = (0..holes[0]).collect();
    let mut with_north = south_holes.clone();
    with_north.push(5);
    let version = held.version;
    let refused = held.submit(S, next_game(&with_north)).await.unwrap_err();
    assert_not_your_choice(refused, "PLAYER_SOUTH", "PLAYER_NORTH", "§3.4 step 4");
    // North may not choose South's holes either.
    let refused = held.submit(N, next_game(&south_holes)).await.unwrap_err();
    assert_not_your_choice(refused, "PLAYER_NORTH", "PLAYER_SOUTH", "§3.4 step 4");
    assert_eq!(held.version, version, "nothing was played");
    // South's own holes alone: taken; North's row gets the default right-to-left fill (N5, N4, …).
    held.submit(S, next_game(&south_holes))
        .await
        .expect("South's own holes");
    let Some(pb::game_state::Variant::Bosh(bosh)) = &held.state.variant else {
        panic!("a Bosh state")
    };
    let open: Vec<u32> = (0..10).filter(|&h| !bosh.closed[h as usize]).collect();
    let north_default: Vec<u32> = (10 - holes[1]..10).collect();
    assert_eq!(open, [south_holes, north_default].concat());
}

/// §4.7 step 4: three players choose nothing; `NextGame` with pits is refused by the rules (`INVALID_CHOICE`)
/// whoever sends it, and the default is accepted from any seat still in.
#[tokio::test]
async fn three_player_ba_awa_next_game_takes_no_pits_from_anyone() {
    let server = TestServer::start().await;
    let options = pb::GameOptions {
        ba_awa_players: 3,
        ..Default::default()
    };
    let mut held = Held::create(&server, pb::GameKind::BaAwa, options).await;
    held.play_out(3).await;
    assert_eq!(held.state.status, pb::Status::GameOver as i32);
    let Some(pb::game_state::Variant::BaAwa(ba_awa)) = held.state.variant.clone() else {
        panic!("a Ba-awa state")
    };
    let seats = [S, N, pb::Player::East as i32];
    let still_in: Vec<i32> = (0..3)
        .filter(|&i| ba_awa.eliminated_in_game.get(i).is_none_or(|&g| g == 0))
        .map(|i| seats[i])
        .collect();
    for &seat in &still_in {
        let refused = held.submit(seat, next_game(&[0])).await.unwrap_err();
        assert_eq!(error_info(&refused).0, "INVALID_CHOICE", "{refused:?}");
    }
    let last = *still_in.last().expect("someone is in");
    held.submit(last, next_game(&[]))
        .await
        .expect("the default from a seat still in");
}
