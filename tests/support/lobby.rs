//! A lobby client's side, over any channel (an in-process server or a replica): the event streams of players
//! and of the tenant's backend read event by event (heartbeats kept apart), and a match of bound seats played
//! to its end with the players' tokens (a bot seat waited for).

use mancala::api::pb;
use pb::lobby_client::LobbyClient;
use pb::matches_client::MatchesClient;
use std::future::Future;
use std::time::Duration;
use tonic::transport::Channel;
use tonic::{Code, Request, Status, Streaming};

/// Every await here is bounded by this.
pub const STEP: Duration = Duration::from_secs(30);

pub async fn within<F: Future>(what: &str, f: F) -> F::Output {
    tokio::time::timeout(STEP, f)
        .await
        .unwrap_or_else(|_| panic!("timed out: {what}"))
}

pub fn authed<T>(message: T, credential: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {credential}").parse().unwrap(),
    );
    request
}

/// What the two streams' messages have in common.
pub trait LobbyMessage {
    /// The event id (0 for a heartbeat).
    fn id(&self) -> u64;
    /// A heartbeat's `last_event_id`.
    fn heartbeat(&self) -> Option<u64>;
}

impl LobbyMessage for pb::PlayerEvent {
    fn id(&self) -> u64 {
        self.event_id
    }
    fn heartbeat(&self) -> Option<u64> {
        match &self.event {
            Some(pb::player_event::Event::Heartbeat(h)) => Some(h.last_event_id),
            _ => None,
        }
    }
}

impl LobbyMessage for pb::FeedEvent {
    fn id(&self) -> u64 {
        self.event_id
    }
    fn heartbeat(&self) -> Option<u64> {
        match &self.event {
            Some(pb::feed_event::Event::Heartbeat(h)) => Some(h.last_event_id),
            _ => None,
        }
    }
}

impl LobbyMessage for pb::WatchTournamentResponse {
    fn id(&self) -> u64 {
        self.event_id
    }
    fn heartbeat(&self) -> Option<u64> {
        self.heartbeat.as_ref().map(|h| h.last_event_id)
    }
}

/// An open lobby stream: the events read so far (heartbeats not kept), and the latest heartbeat's mark.
pub struct Events<T> {
    pub stream: Streaming<T>,
    /// Every event read, in order.
    pub seen: Vec<T>,
    /// The last heartbeat's `last_event_id`.
    pub last_heartbeat: Option<u64>,
}

impl<T: LobbyMessage + Clone + std::fmt::Debug> Events<T> {
    /// The next event that is not a heartbeat (heartbeats do not extend the wait).
    pub async fn next(&mut self) -> T {
        within("a lobby event", self.next_unbounded()).await
    }

    async fn next_unbounded(&mut self) -> T {
        loop {
            let message = self
                .stream
                .message()
                .await
                .expect("the stream stays open")
                .expect("the stream goes on");
            if let Some(last) = message.heartbeat() {
                assert_eq!(message.id(), 0, "a heartbeat has no event id");
                self.last_heartbeat = Some(last);
                continue;
            }
            if let Some(previous) = self.seen.last() {
                assert!(
                    message.id() > previous.id(),
                    "event ids increase: {previous:?} then {message:?}"
                );
            }
            self.seen.push(message.clone());
            return message;
        }
    }

    /// The next heartbeat's `last_event_id` (events before it are read and kept).
    pub async fn heartbeat(&mut self) -> u64 {
        within("a heartbeat", async {
            loop {
                let message = self
                    .stream
                    .message()
                    .await
                    .expect("the stream stays open")
                    .expect("the stream goes on");
                if let Some(last) = message.heartbeat() {
                    self.last_heartbeat = Some(last);
                    return last;
                }
                self.seen.push(message);
            }
        })
        .await
    }

    /// Reads events until `pick` picks one; what it picked.
    pub async fn until<R>(&mut self, mut pick: impl FnMut(&T) -> Option<R>) -> R {
        within("the lobby event awaited", async {
            loop {
                let event = self.next_unbounded().await;
                if let Some(picked) = pick(&event) {
                    return picked;
                }
            }
        })
        .await
    }

    /// The ids of the events read.
    pub fn ids(&self) -> Vec<u64> {
        self.seen.iter().map(LobbyMessage::id).collect()
    }

    /// The last event id read (0: none).
    pub fn last_id(&self) -> u64 {
        self.seen.last().map_or(0, LobbyMessage::id)
    }
}

/// `WatchPlayerEvents` with `token`, after `after`.
pub async fn try_player_events(
    channel: &Channel,
    token: &str,
    after: u64,
) -> Result<Events<pb::PlayerEvent>, Status> {
    let stream = within(
        "WatchPlayerEvents",
        LobbyClient::new(channel.clone()).watch_player_events(authed(
            pb::WatchPlayerEventsRequest {
                after_event_id: after,
            },
            token,
        )),
    )
    .await?
    .into_inner();
    Ok(Events {
        stream,
        seen: Vec::new(),
        last_heartbeat: None,
    })
}

pub async fn player_events(channel: &Channel, token: &str, after: u64) -> Events<pb::PlayerEvent> {
    try_player_events(channel, token, after)
        .await
        .expect("WatchPlayerEvents opens")
}

/// `WatchTenantFeed` with `credential`, after `after`.
pub async fn try_feed(
    channel: &Channel,
    credential: &str,
    after: u64,
) -> Result<Events<pb::FeedEvent>, Status> {
    let stream = within(
        "WatchTenantFeed",
        LobbyClient::new(channel.clone()).watch_tenant_feed(authed(
            pb::WatchTenantFeedRequest {
                after_event_id: after,
            },
            credential,
        )),
    )
    .await?
    .into_inner();
    Ok(Events {
        stream,
        seen: Vec::new(),
        last_heartbeat: None,
    })
}

pub async fn feed(channel: &Channel, credential: &str, after: u64) -> Events<pb::FeedEvent> {
    try_feed(channel, credential, after)
        .await
        .expect("WatchTenantFeed opens")
}

/// A tournament of one-game Bosh matches (quick to play), rated if `rated`.
pub fn short_tournament(
    system: pb::TournamentSystem,
    rounds: u32,
    rated: bool,
) -> pb::CreateTournamentRequest {
    pb::CreateTournamentRequest {
        name: "test cup".into(),
        system: system as i32,
        rounds,
        kind: pb::GameKind::Bosh as i32,
        options: Some(pb::GameOptions {
            max_games: Some(1),
            ..pb::GameOptions::default()
        }),
        time_control: None,
        rated,
    }
}

fn tournaments(channel: &Channel) -> pb::tournaments_client::TournamentsClient<Channel> {
    pb::tournaments_client::TournamentsClient::new(channel.clone())
}

/// `CreateTournament` with `credential`.
pub async fn create_tournament(
    channel: &Channel,
    credential: &str,
    request: pb::CreateTournamentRequest,
) -> Result<pb::Tournament, Status> {
    within(
        "CreateTournament",
        tournaments(channel).create_tournament(authed(request, credential)),
    )
    .await
    .map(|r| r.into_inner().tournament.expect("a tournament"))
}

/// `EnterTournament` with `credential` (a player himself, or with `bot_level` a built-in opponent): the entrant id.
pub async fn enter_tournament(
    channel: &Channel,
    credential: &str,
    id: &str,
    bot_level: u32,
) -> Result<String, Status> {
    within(
        "EnterTournament",
        tournaments(channel).enter_tournament(authed(
            pb::EnterTournamentRequest {
                tournament_id: id.into(),
                bot_level,
            },
            credential,
        )),
    )
    .await
    .map(|r| r.into_inner().entrant_id)
}

/// `StartTournament` with `credential`.
pub async fn start_tournament(
    channel: &Channel,
    credential: &str,
    id: &str,
) -> Result<pb::Tournament, Status> {
    within(
        "StartTournament",
        tournaments(channel).start_tournament(authed(
            pb::StartTournamentRequest {
                tournament_id: id.into(),
            },
            credential,
        )),
    )
    .await
    .map(|r| r.into_inner().tournament.expect("a tournament"))
}

/// `WatchTournament` of tournament `id` with `credential`, after `after`.
pub async fn tournament_updates(
    channel: &Channel,
    credential: &str,
    id: &str,
    after: u64,
) -> Events<pb::WatchTournamentResponse> {
    let stream = within(
        "WatchTournament",
        tournaments(channel).watch_tournament(authed(
            pb::WatchTournamentRequest {
                tournament_id: id.into(),
                after_event_id: after,
            },
            credential,
        )),
    )
    .await
    .expect("WatchTournament opens")
    .into_inner();
    Events {
        stream,
        seen: Vec::new(),
        last_heartbeat: None,
    }
}

/// A player event's `match_started`, if it is one.
pub fn started(event: &pb::PlayerEvent) -> Option<pb::PlayerMatchStarted> {
    match &event.event {
        Some(pb::player_event::Event::MatchStarted(started)) => Some(started.clone()),
        _ => None,
    }
}

/// A player event's `match_finished`, if it is one.
pub fn finished(event: &pb::PlayerEvent) -> Option<pb::PlayerMatchFinished> {
    match &event.event {
        Some(pb::player_event::Event::MatchFinished(finished)) => Some(finished.clone()),
        _ => None,
    }
}

/// A player event's challenge, if it is one.
pub fn challenge(event: &pb::PlayerEvent) -> Option<pb::Challenge> {
    match &event.event {
        Some(pb::player_event::Event::Challenge(challenge)) => Some(challenge.clone()),
        _ => None,
    }
}

/// A player event's seek, if it is one.
pub fn seek(event: &pb::PlayerEvent) -> Option<pb::Seek> {
    match &event.event {
        Some(pb::player_event::Event::Seek(seek)) => Some(seek.clone()),
        _ => None,
    }
}

pub async fn get_match(channel: &Channel, credential: &str, id: &str) -> pb::Match {
    within(
        "GetMatch",
        MatchesClient::new(channel.clone()).get_match(authed(
            pb::GetMatchRequest {
                match_id: id.into(),
            },
            credential,
        )),
    )
    .await
    .expect("GetMatch")
    .into_inner()
    .r#match
    .expect("a match")
}

fn is_finished(m: &pb::Match) -> bool {
    m.status == pb::MatchStatus::Finished as i32
}

fn between_games(m: &pb::Match) -> bool {
    let status = m.state.as_ref().map_or(0, |s| s.status);
    status == pb::Status::GameOver as i32 || status == pb::Status::RoundOver as i32
}

/// Waits on `WatchMatch` for the first event after `version` (or the end).
async fn next_event_after(channel: &Channel, credential: &str, id: &str, version: u64) {
    use pb::watch_match_response::Kind;
    let mut stream = within(
        "WatchMatch",
        MatchesClient::new(channel.clone()).watch_match(authed(
            pb::WatchMatchRequest {
                match_id: id.into(),
                from_seq: Some(version),
                previews: false,
            },
            credential,
        )),
    )
    .await
    .expect("WatchMatch")
    .into_inner();
    loop {
        let message = within("the next match event", stream.message())
            .await
            .expect("the stream stays open")
            .expect("more messages");
        match message.kind.expect("a kind") {
            Kind::Event(_) | Kind::Finished(_) | Kind::Snapshot(_) => return,
            Kind::Heartbeat(_) | Kind::Presence(_) => continue,
        }
    }
}

/// Plays match `id` to its end: `tokens` are South's and North's player tokens (`None`: the server's bot plays
/// that seat, and is waited for). Move `n` is sent to `channels[n % len]` and picks among the legal moves by a
/// counter. The finished match.
pub async fn play_out(channels: &[Channel], id: &str, tokens: [Option<&str>; 2]) -> pb::Match {
    let reader = tokens.iter().flatten().next().expect("a person plays");
    let mut n = 0usize;
    let mut pick = 0usize;
    loop {
        let channel = &channels[n % channels.len()];
        let m = get_match(channel, reader, id).await;
        if is_finished(&m) {
            return m;
        }
        assert!(n < 20_000, "match {id} ends");
        let to_move = m.state.as_ref().map_or(0, |s| s.to_move);
        let seat = if between_games(&m) {
            // Either seat may ask for the next game (unless the bot chooses): a person's.
            usize::from(tokens[0].is_none())
        } else if to_move == pb::Player::North as i32 {
            1
        } else {
            0
        };
        let Some(token) = tokens[seat] else {
            next_event_after(channel, reader, id, m.version).await;
            continue;
        };
        pick = pick.wrapping_mul(31).wrapping_add(7);
        let mv = if between_games(&m) {
            m.legal_moves[0].clone()
        } else {
            m.legal_moves[pick % m.legal_moves.len()].clone()
        };
        let request = pb::SubmitMoveRequest {
            match_id: id.into(),
            r#move: Some(mv),
            expected_version: Some(m.version),
            request_id: String::new(),
        };
        match within(
            "SubmitMove",
            MatchesClient::new(channel.clone()).submit_move(authed(request, token)),
        )
        .await
        {
            Ok(_) => n += 1,
            // The bot chooses between these games: wait for its NextGame.
            Err(status) if status.code() == Code::PermissionDenied && between_games(&m) => {
                next_event_after(channel, reader, id, m.version).await;
            }
            // Someone (the bot, another replica's view) got there first: read again.
            Err(status) if status.code() == Code::Aborted => {}
            Err(status) => panic!("a move of match {id} was refused: {status:?}"),
        }
    }
}

/// `token`'s seat resigns match `id`.
pub async fn resign(channel: &Channel, token: &str, id: &str) {
    within(
        "Resign",
        MatchesClient::new(channel.clone()).resign(authed(
            pb::ResignRequest {
                match_id: id.into(),
                expected_version: None,
                request_id: String::new(),
            },
            token,
        )),
    )
    .await
    .expect("Resign");
}
