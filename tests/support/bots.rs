//! A person's side of a match against the server's bot, through the real gRPC API: read the match, sow when it
//! is the person's turn (the legal moves in turn, varied by a counter), send `NextGame` between games unless the
//! bot is the one to choose, and otherwise wait on `WatchMatch` for the bot's event.

use mancala::api::pb;
use pb::matches_client::MatchesClient;
use pb::watch_match_response::Kind;
use std::future::Future;
use std::time::Duration;
use tonic::transport::Channel;
use tonic::{Code, Request};

/// Every await here is bounded by this.
const STEP: Duration = Duration::from_secs(60);

async fn within<F: Future>(what: &str, f: F) -> F::Output {
    tokio::time::timeout(STEP, f)
        .await
        .unwrap_or_else(|_| panic!("timed out: {what}"))
}

/// When [`play`] hands the match back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// The person is to sow and the match is at least at this version.
    PersonToSowAt(u64),
    /// The match waits for the bot: its seat to sow, or between games its `NextGame` (a person's is refused).
    BotToAct,
    /// The match is over.
    End,
}

/// What [`play`] did.
#[derive(Debug, Default)]
pub struct Played {
    /// Moves the person's side submitted and had accepted.
    pub moves: usize,
    /// `NextGame`s refused because the bot chooses (PERMISSION_DENIED).
    pub refused_next_games: usize,
}

fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

pub async fn get(client: &mut MatchesClient<Channel>, id: &str) -> pb::Match {
    within(
        "get",
        client.get_match(pb::GetMatchRequest {
            match_id: id.into(),
        }),
    )
    .await
    .expect("get")
    .into_inner()
    .r#match
    .expect("a match")
}

/// Whether `m` is between games (or Bosh rounds).
pub fn between_games(m: &pb::Match) -> bool {
    let status = m.state.as_ref().map_or(0, |s| s.status);
    status == pb::Status::GameOver as i32 || status == pb::Status::RoundOver as i32
}

/// Whether `m` waits for `seat` to sow.
pub fn to_sow(m: &pb::Match, seat: pb::Player) -> bool {
    m.state
        .as_ref()
        .is_some_and(|s| s.status == pb::Status::InProgress as i32 && s.to_move == seat as i32)
}

pub fn finished(m: &pb::Match) -> bool {
    m.status == pb::MatchStatus::Finished as i32
}

/// Waits on `WatchMatch` for the first event after `version` (or the end of the match).
pub async fn next_event_after(client: &mut MatchesClient<Channel>, id: &str, version: u64) {
    let mut stream = within(
        "watch",
        client.watch_match(pb::WatchMatchRequest {
            match_id: id.into(),
            from_seq: Some(version),
            previews: false,
        }),
    )
    .await
    .expect("watch")
    .into_inner();
    loop {
        let message = within("the bot's event", stream.message())
            .await
            .expect("the stream stays open")
            .expect("more messages");
        match message.kind.expect("a kind") {
            Kind::Event(_) | Kind::Finished(_) | Kind::Snapshot(_) => return,
            Kind::Heartbeat(_) | Kind::Presence(_) => continue,
        }
    }
}

/// Plays `seat` (with its `token`) in match `id` until `until`; the match as last read. `turn` varies the
/// moves chosen and is carried from call to call.
pub async fn play(
    client: &mut MatchesClient<Channel>,
    id: &str,
    seat: pb::Player,
    token: &str,
    until: Until,
    turn: &mut usize,
    played: &mut Played,
) -> pb::Match {
    loop {
        let m = get(client, id).await;
        if finished(&m) {
            return m;
        }
        let bot_to_sow = m
            .state
            .as_ref()
            .is_some_and(|s| s.status == pb::Status::InProgress as i32 && s.to_move != seat as i32);
        match until {
            Until::PersonToSowAt(version) if to_sow(&m, seat) && m.version >= version => return m,
            Until::BotToAct if bot_to_sow => return m,
            _ => {}
        }
        if bot_to_sow {
            next_event_after(client, id, m.version).await;
            continue;
        }
        let mv = if between_games(&m) {
            m.legal_moves[0].clone()
        } else {
            *turn += 1;
            m.legal_moves[(*turn * 7 + 3) % m.legal_moves.len()].clone()
        };
        let request = pb::SubmitMoveRequest {
            match_id: id.into(),
            r#move: Some(mv),
            expected_version: Some(m.version),
            request_id: String::new(),
        };
        match within("submit", client.submit_move(authed(request, token))).await {
            Ok(_) => played.moves += 1,
            // The bot chooses between these games: its NextGame is the server's to send.
            Err(status) if status.code() == Code::PermissionDenied && between_games(&m) => {
                assert!(status.message().contains("server's opponent"), "{status:?}");
                played.refused_next_games += 1;
                if until == Until::BotToAct {
                    return m;
                }
                next_event_after(client, id, m.version).await;
            }
            // The bot got there first (between games, or a resignation): read again.
            Err(status) if status.code() == Code::Aborted => {}
            Err(status) => panic!("the person's move was refused: {status:?}"),
        }
    }
}
