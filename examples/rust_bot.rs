//! An example bot for the mancala lobby, in Rust with the crate's own generated client (`mancala::api::pb`).
//!
//! It waits for challenges and plays random legal moves in every match they start, as
//! `examples/python_bot/bot.py` does; or, with `--challenge`, it challenges another player to matches and plays
//! its own side of each.
//!
//! ```sh
//! # answer challenges (a player token from the tenant's backend: Players.IssuePlayerToken)
//! cargo run --example rust_bot -- --server http://127.0.0.1:50051 --token "$TOKEN"
//! # challenge the player "py-bot" to 2 rated matches of Bosh, then 2 of Ba-awa, and play them
//! cargo run --example rust_bot -- --token "$TOKEN" --challenge py-bot --game bosh,ba-awa --matches 2 --rated
//! # enter a tournament (Tournaments service), play its rounds, stop at its end
//! cargo run --example rust_bot -- --token "$TOKEN" --tournament "$TOURNAMENT"
//! ```
//!
//! `serve` and `challenge` below are the bot; everything under them is plumbing.

use clap::Parser;
use mancala::api::pb;
use mancala::api::pb::lobby_client::LobbyClient;
use mancala::api::pb::matches_client::MatchesClient;
use mancala::api::pb::player_event::Event;
use mancala::api::pb::players_client::PlayersClient;
use mancala::api::pb::tournaments_client::TournamentsClient;
use mancala::api::pb::watch_match_response::Kind as Update;
use std::process::ExitCode;
use std::time::Duration;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Certificate, Channel, ClientTlsConfig};
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

/// Waits for challenges addressed to the bot, accepts them, and plays every match that starts; with a
/// `tournament`, enters it first and stops when it is over.
async fn serve(bot: Bot, max_matches: Option<u32>, tournament: Option<&str>) -> Result<(), String> {
    if let Some(id) = tournament {
        bot.enter(id).await?; // its matches then arrive as any other: `match_started`, round by round
    }
    let mut events = bot.events().await?; // Lobby.WatchPlayerEvents, resumed after a dropped connection
    let mut playing = tokio::task::JoinSet::new();
    // Every (re)connect restates the unfinished matches: one task per match, whoever announced it.
    let mut played = std::collections::HashSet::new();
    let mut finished = 0;
    loop {
        let event = tokio::select! {
            event = events.next() => event?,
            // A match's task ended: an error of its stops the bot.
            Some(played) = playing.join_next() => { played.map_err(|e| e.to_string())??; continue }
        };
        match event {
            None => break,
            Some(Event::Challenge(c)) if c.status == PENDING && c.to_player_id == bot.me => {
                bot.accept(&c).await?
            }
            Some(Event::MatchStarted(started)) if played.insert(started.match_id.clone()) => {
                playing.spawn(bot.clone().play(started)); // WatchMatch + SubmitMove until the match is over
            }
            Some(Event::MatchFinished(done)) => {
                bot.report(&done);
                finished += 1;
                if max_matches.is_some_and(|n| finished >= n) {
                    break;
                }
            }
            Some(Event::Tournament(news)) => {
                let over = news.kind == pb::TournamentEventKind::Finished as i32;
                if over {
                    log(&format!(
                        "tournament {} over: rank {} with {} points",
                        news.tournament_id, news.rank, news.points
                    ));
                }
                if over && tournament == Some(news.tournament_id.as_str()) {
                    break;
                }
            }
            Some(_) => {} // our own challenges, seeks
        }
    }
    while let Some(played) = playing.join_next().await {
        played.map_err(|e| e.to_string())??;
    }
    Ok(())
}

/// Challenges `opponent` to `matches` matches of each game in turn, and plays the bot's side of each.
async fn challenge(
    bot: Bot,
    opponent: &str,
    games: &[pb::GameKind],
    matches: u32,
    rated: bool,
) -> Result<(), String> {
    let mut events = bot.events().await?; // opened first, so that no answer can be missed
    for &kind in games {
        for _ in 0..matches {
            let challenge = bot.challenge(opponent, kind, rated).await?;
            let started = loop {
                match events.next().await?.ok_or("the event stream ended")? {
                    Event::MatchStarted(started)
                        if started.challenge_id == challenge.challenge_id =>
                    {
                        break started
                    }
                    // Declined, cancelled or expired: the opponent does not want to play.
                    Event::Challenge(c)
                        if c.challenge_id == challenge.challenge_id && c.status != PENDING =>
                    {
                        return Err(format!("{opponent} did not take the challenge: {c:?}"));
                    }
                    _ => {}
                }
            };
            let match_id = started.match_id.clone();
            bot.clone().play(started).await?; // to the end (meanwhile the stream's events wait for us)
            loop {
                if let Event::MatchFinished(done) =
                    events.next().await?.ok_or("the event stream ended")?
                {
                    if done.match_id == match_id {
                        bot.report(&done);
                        break;
                    }
                }
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------------
// The plumbing.

const PENDING: i32 = pb::ChallengeStatus::Pending as i32;

#[derive(Debug, Parser)]
#[command(
    about = "An example mancala bot: accepts challenges (or makes them) and plays random legal moves"
)]
struct Args {
    /// The server: `HOST:PORT`, `http://HOST:PORT`, or `https://…` with --ca for TLS.
    #[arg(long, env = "MANCALA_SERVER", default_value = "http://127.0.0.1:50051")]
    server: String,
    /// The bot's player token, from the tenant's backend (Players.IssuePlayerToken).
    #[arg(long, env = "MANCALA_PLAYER_TOKEN", hide_env_values = true)]
    token: String,
    /// Trust this CA certificate (PEM) for an `https://` server.
    #[arg(long, value_name = "FILE")]
    ca: Option<std::path::PathBuf>,
    /// Challenge this player (a player id of the tenant) instead of waiting for challenges.
    #[arg(long, value_name = "PLAYER")]
    challenge: Option<String>,
    /// With --challenge: the games, in order (bao-la-kete, bosh, ba-awa; repeat or separate with commas).
    #[arg(long, value_delimiter = ',', default_value = "ba-awa", value_parser = game)]
    game: Vec<pb::GameKind>,
    /// With --challenge: how many matches of each game.
    #[arg(long, default_value_t = 1)]
    matches: u32,
    /// With --challenge: rated matches (both players' ratings move).
    #[arg(long)]
    rated: bool,
    /// Without --challenge: exit after this many finished matches.
    #[arg(long, value_name = "N")]
    max_matches: Option<u32>,
    /// Without --challenge: enter this tournament (Tournaments.EnterTournament), play it, and exit at its end.
    #[arg(long, value_name = "ID")]
    tournament: Option<String>,
    /// The seed of the random moves (default: from the OS).
    #[arg(long)]
    seed: Option<u64>,
}

fn game(name: &str) -> Result<pb::GameKind, String> {
    match name {
        "bao-la-kete" => Ok(pb::GameKind::BaoLaKete),
        "bosh" => Ok(pb::GameKind::Bosh),
        "ba-awa" => Ok(pb::GameKind::BaAwa),
        other => Err(format!(
            "{other:?} is not a game: bao-la-kete, bosh or ba-awa"
        )),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let outcome = async {
        let bot = Bot::connect(&args).await?;
        log(&format!("{} on {}", bot.me, args.server));
        match &args.challenge {
            Some(opponent) => challenge(bot, opponent, &args.game, args.matches, args.rated).await,
            None => serve(bot, args.max_matches, args.tournament.as_deref()).await,
        }
    };
    match outcome.await {
        Ok(()) => {
            log("done");
            ExitCode::SUCCESS
        }
        Err(error) => {
            log(&format!("FAILED: {error}"));
            ExitCode::FAILURE
        }
    }
}

fn log(line: &str) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    println!(
        "{:02}:{:02}:{:02} {line}",
        now / 3600 % 24,
        now / 60 % 60,
        now % 60
    );
}

fn status(what: &str) -> impl Fn(Status) -> String + '_ {
    move |e| format!("{what}: {:?}: {}", e.code(), e.message())
}

/// Sends the player token with every call.
#[derive(Clone)]
struct Bearer(MetadataValue<Ascii>);

impl tonic::service::Interceptor for Bearer {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        request
            .metadata_mut()
            .insert("authorization", self.0.clone());
        Ok(request)
    }
}

type Authed = InterceptedService<Channel, Bearer>;

/// The bot's connection, its player id, and its random moves. Cheap to clone (one channel underneath).
#[derive(Clone)]
struct Bot {
    lobby: LobbyClient<Authed>,
    tournaments: TournamentsClient<Authed>,
    matches: MatchesClient<Authed>,
    me: String,
    random: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Bot {
    async fn connect(args: &Args) -> Result<Bot, String> {
        // `HOST:PORT` is plaintext HTTP/2, as `http://HOST:PORT`.
        let server = match args.server.contains("://") {
            true => args.server.clone(),
            false => format!("http://{}", args.server),
        };
        let mut endpoint =
            Channel::from_shared(server).map_err(|e| format!("--server {:?}: {e}", args.server))?;
        if let Some(ca) = &args.ca {
            let pem =
                std::fs::read(ca).map_err(|e| format!("cannot read --ca {}: {e}", ca.display()))?;
            endpoint = endpoint
                .tls_config(ClientTlsConfig::new().ca_certificate(Certificate::from_pem(pem)))
                .map_err(|e| format!("--ca {}: {e}", ca.display()))?;
        }
        let channel = endpoint
            .connect_timeout(Duration::from_secs(10))
            .connect()
            .await
            .map_err(|e| format!("cannot connect to {}: {e}", args.server))?;
        let bearer = Bearer(
            format!("Bearer {}", args.token)
                .parse()
                .map_err(|_| "the token is not valid metadata".to_string())?,
        );
        let seed = match args.seed {
            Some(seed) => seed,
            None => getrandom::u64().map_err(|e| format!("no OS random generator: {e}"))?,
        };
        // Who the token speaks for, as the server reads it (Players.WhoAmI).
        let me = PlayersClient::with_interceptor(channel.clone(), bearer.clone())
            .who_am_i(pb::WhoAmIRequest {})
            .await
            .map_err(status("WhoAmI"))?
            .into_inner();
        if me.player_id.is_empty() {
            return Err("--token is not a player token (Players.IssuePlayerToken)".into());
        }
        Ok(Bot {
            lobby: LobbyClient::with_interceptor(channel.clone(), bearer.clone()),
            tournaments: TournamentsClient::with_interceptor(channel.clone(), bearer.clone()),
            matches: MatchesClient::with_interceptor(channel, bearer),
            me: me.player_id,
            random: std::sync::Arc::new(std::sync::atomic::AtomicU64::new(seed | 1)),
        })
    }

    /// Enters tournament `id` (a restarted bot that entered before plays on).
    async fn enter(&self, id: &str) -> Result<(), String> {
        let request = pb::EnterTournamentRequest {
            tournament_id: id.to_string(),
            bot_level: 0,
        };
        match self.tournaments.clone().enter_tournament(request).await {
            Ok(_) => log(&format!("entered tournament {id}")),
            Err(e)
                if e.get_details_error_info()
                    .is_some_and(|i| i.reason == "ALREADY_ENTERED") =>
            {
                log(&format!("tournament {id}: entered already"))
            }
            Err(e) => return Err(status("EnterTournament")(e)),
        }
        Ok(())
    }

    async fn events(&self) -> Result<Events, String> {
        let mut events = Events {
            lobby: self.lobby.clone(),
            stream: None,
            last_event_id: 0,
        };
        events.open().await?;
        Ok(events)
    }

    async fn challenge(
        &self,
        opponent: &str,
        kind: pb::GameKind,
        rated: bool,
    ) -> Result<pb::Challenge, String> {
        let request = pb::CreateChallengeRequest {
            to_player_id: opponent.to_string(),
            kind: kind.into(),
            rated,
            ..Default::default()
        };
        let answer = self
            .lobby
            .clone()
            .create_challenge(request)
            .await
            .map_err(status("CreateChallenge"))?;
        let challenge = answer
            .into_inner()
            .challenge
            .ok_or("CreateChallenge answered no challenge")?;
        log(&format!(
            "challenged {opponent} to {}{} ({})",
            kind.as_str_name(),
            if rated { ", rated" } else { "" },
            challenge.challenge_id
        ));
        Ok(challenge)
    }

    async fn accept(&self, challenge: &pb::Challenge) -> Result<(), String> {
        log(&format!(
            "challenge {} from {}: accepting",
            challenge.challenge_id, challenge.from_player_id
        ));
        let request = pb::AcceptChallengeRequest {
            challenge_id: challenge.challenge_id.clone(),
        };
        match self.lobby.clone().accept_challenge(request).await {
            Ok(_) => Ok(()),
            // Cancelled, expired or answered already (a replayed event): nothing to do.
            Err(e) if matches!(e.code(), Code::FailedPrecondition | Code::NotFound) => Ok(()),
            Err(e) => Err(status("AcceptChallenge")(e)),
        }
    }

    /// Follows the match and plays the bot's seat whenever it is due, until the match is over.
    async fn play(self, started: pb::PlayerMatchStarted) -> Result<(), String> {
        let opponent = started.opponent.clone().unwrap_or_default();
        log(&format!(
            "match {}: {} as {} against {}{}",
            started.match_id,
            started.kind().as_str_name(),
            started.seat().as_str_name(),
            opponent.player_id,
            if opponent.is_bot_account {
                " (a bot account)"
            } else {
                ""
            }
        ));
        let mut matches = self.matches.clone();
        // Without `from_seq` the stream starts with a snapshot of the match: where it stands, its legal moves.
        let request = pb::WatchMatchRequest {
            match_id: started.match_id.clone(),
            from_seq: None,
            previews: false,
        };
        let mut stream = match matches.watch_match(request).await {
            Ok(stream) => stream.into_inner(),
            // A finished match deleted after its retention (an old event replayed): nothing to play.
            Err(e) if e.code() == Code::NotFound => return Ok(()),
            Err(e) => return Err(status("WatchMatch")(e)),
        };
        while let Some(update) = stream.message().await.map_err(status("WatchMatch"))? {
            let (version, state, moves) = match update.kind {
                Some(Update::Snapshot(s)) => {
                    let m = s.r#match.unwrap_or_default();
                    (m.version, m.state.unwrap_or_default(), m.legal_moves)
                }
                Some(Update::Event(e)) => (e.seq, e.state.unwrap_or_default(), e.legal_moves),
                Some(Update::Finished(_)) => return Ok(()),
                _ => continue, // heartbeats, presence
            };
            let between_games =
                matches!(state.status(), pb::Status::GameOver | pb::Status::RoundOver);
            if !moves.is_empty() && (state.to_move == started.seat || between_games) {
                self.submit(
                    &started.match_id,
                    started.seat(),
                    version,
                    self.pick(&moves),
                )
                .await?;
            }
        }
        Err(format!(
            "match {}: the stream ended before the match did",
            started.match_id
        ))
    }

    async fn submit(
        &self,
        match_id: &str,
        seat: pb::Player,
        version: u64,
        mv: pb::Move,
    ) -> Result<(), String> {
        let next_game = matches!(mv.action, Some(pb::r#move::Action::NextGame(_)));
        let request = pb::SubmitMoveRequest {
            match_id: match_id.to_string(),
            r#move: Some(mv),
            expected_version: Some(version),
            // A retry with the same id is applied once; ids are the match's, hence the seat in it.
            request_id: format!("{}-{version}", seat.as_str_name()),
        };
        // A bot that moves the moment it may can go past its share of calls per second
        // (`limits.calls_per_second_per_player`): RESOURCE_EXHAUSTED says how long to wait (RetryInfo), and the
        // same request id makes the retry safe.
        let answer = loop {
            match self.matches.clone().submit_move(request.clone()).await {
                Err(e) if e.code() == Code::ResourceExhausted => {
                    let wait = e
                        .get_details_retry_info()
                        .and_then(|retry| retry.retry_delay)
                        .unwrap_or(Duration::from_millis(100));
                    tokio::time::sleep(wait).await;
                }
                answer => break answer,
            }
        };
        match answer {
            Ok(_) => Ok(()),
            // ABORTED: the opponent's `NextGame` came first; FAILED_PRECONDITION: the match just ended.
            // PERMISSION_DENIED for `NextGame`: the server's own opponent (a seek's fallback) chooses; wait for it.
            Err(e)
                if matches!(e.code(), Code::Aborted | Code::FailedPrecondition)
                    || (next_game && e.code() == Code::PermissionDenied) =>
            {
                if e.code() != Code::Aborted {
                    // (ABORTED is the usual race for `NextGame`.)
                    log(&format!(
                        "match {match_id}: move at version {version} not taken: {}",
                        e.message()
                    ));
                }
                Ok(())
            }
            Err(e) => Err(status("SubmitMove")(e)),
        }
    }

    /// A uniformly random legal move (xorshift64: enough for an example).
    fn pick(&self, moves: &[pb::Move]) -> pb::Move {
        use std::sync::atomic::Ordering;
        let mut x = self.random.load(Ordering::Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.random.store(x, Ordering::Relaxed);
        moves[(x % moves.len() as u64) as usize].clone()
    }

    fn report(&self, done: &pb::PlayerMatchFinished) {
        let result = done.result.clone().unwrap_or_default();
        let outcome = match result.winner() {
            pb::Player::Unspecified => "a draw",
            winner if winner == done.seat() => "won",
            _ => "lost",
        };
        let ratings: Vec<String> = done
            .rating_changes
            .iter()
            .map(|c| format!("{} {:.0} -> {:.0}", c.player_id, c.before, c.after))
            .collect();
        log(&format!(
            "match {} over: {outcome} ({}){}",
            done.match_id,
            result.reason().as_str_name(),
            if ratings.is_empty() {
                String::new()
            } else {
                format!("; ratings {}", ratings.join(", "))
            }
        ));
    }
}

/// The player's event stream, without heartbeats, opened again after the last event when the connection drops.
/// Each opening begins with what stands for the bot (`restated`: its unfinished matches, pending challenges, open
/// seeks), whose ids are older than the resume point and so are not kept as one.
struct Events {
    lobby: LobbyClient<Authed>,
    stream: Option<tonic::Streaming<pb::PlayerEvent>>,
    last_event_id: u64,
}

impl Events {
    async fn open(&mut self) -> Result<(), String> {
        let request = pb::WatchPlayerEventsRequest {
            after_event_id: self.last_event_id,
        };
        let stream = self
            .lobby
            .watch_player_events(request)
            .await
            .map_err(status("WatchPlayerEvents"))?;
        self.stream = Some(stream.into_inner());
        Ok(())
    }

    async fn next(&mut self) -> Result<Option<Event>, String> {
        let mut pause = Duration::from_secs(1);
        loop {
            let Some(stream) = self.stream.as_mut() else {
                self.open().await?;
                continue;
            };
            match stream.message().await {
                Ok(Some(pb::PlayerEvent {
                    event: Some(Event::Heartbeat(beat)),
                    ..
                })) => self.last_event_id = self.last_event_id.max(beat.last_event_id),
                Ok(Some(event)) => {
                    if !event.restated {
                        self.last_event_id = event.event_id;
                    }
                    return Ok(event.event);
                }
                Ok(None) => return Ok(None),
                Err(e)
                    if matches!(e.code(), Code::Unavailable | Code::Internal | Code::Unknown) =>
                {
                    log(&format!(
                        "event stream: {:?} ({}); resuming after {}",
                        e.code(),
                        e.message(),
                        self.last_event_id
                    ));
                    self.stream = None;
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(30));
                }
                Err(e) => return Err(status("WatchPlayerEvents")(e)),
            }
        }
    }
}
