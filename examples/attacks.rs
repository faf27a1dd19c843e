//! The attacks of issue 34, run from outside against a running server, each reporting what it got and what it
//! cost the callers it did not target. docs/guide/security-and-limits.md gives the figures of the release build.
//!
//! ```sh
//! cargo build --release && target/release/mancala &
//! cargo run --release --example attacks -- searches     # 4 max-cap searches + 4 bot-match creators vs a hint and a bot
//! cargo run --release --example attacks -- flood        # one address's matches and spectator streams vs another's
//! cargo run --release --example attacks -- seat-tokens  # made-up seat tokens from one address vs a real seat
//! cargo run --release --example attacks -- connections  # one address holding connections vs another
//! cargo run --release --example attacks -- guessing     # bad credentials from one address vs another
//! ```
//!
//! Two client addresses on one machine: the attacker connects from 127.0.0.2 (Linux routes all of 127/8 to the
//! loopback), the bystander from 127.0.0.1.

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use hyper_util::rt::TokioIo;
use mancala::api::pb;
use tokio::net::TcpSocket;
use tonic::transport::{Channel, Endpoint, Uri};
use tonic::{Code, Request};

const ATTACKER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
const BYSTANDER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1));

#[derive(Parser)]
struct Cli {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:50051")]
    target: SocketAddr,
    #[command(subcommand)]
    attack: Attack,
}

#[derive(Subcommand)]
enum Attack {
    /// Searches at the caps and bot matches created as fast as they come, against another client's level-3 hints
    /// and a server bot's replies in a Fischer 10 s + 0 match.
    Searches {
        /// Clients sending SuggestMove at the search caps.
        #[arg(long, default_value_t = 4)]
        searchers: usize,
        /// Clients creating bot-against-bot matches.
        #[arg(long, default_value_t = 4)]
        creators: usize,
        /// Hints measured in each phase.
        #[arg(long, default_value_t = 40)]
        hints: usize,
        /// Each attacking client from an address of its own (127.0.0.10, .11, …), so that no per-address cap
        /// holds them back and only the engine pool's fairness protects the bystander.
        #[arg(long)]
        spread: bool,
    },
    /// One address creates matches and opens spectator streams until refused; then another tries once each.
    Flood {
        /// Matches to try to create.
        #[arg(long, default_value_t = 20_000)]
        matches: usize,
        /// Spectator streams to try to open.
        #[arg(long, default_value_t = 2_000)]
        streams: usize,
    },
    /// One address floods SubmitMove with made-up seat tokens while another plays with a real one.
    SeatTokens {
        /// Calls with made-up tokens.
        #[arg(long, default_value_t = 20_000)]
        calls: usize,
    },
    /// One address opens idle connections until the server stops answering them; then another connects.
    Connections {
        /// Connections to try to open.
        #[arg(long, default_value_t = 12_000)]
        count: usize,
    },
    /// One address sends made-up API keys; then it, and another address, call without one.
    Guessing {
        /// Calls with made-up keys.
        #[arg(long, default_value_t = 2_000)]
        calls: usize,
    },
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let target = cli.target;
    match cli.attack {
        Attack::Searches {
            searchers,
            creators,
            hints,
            spread,
        } => searches(target, searchers, creators, hints, spread).await,
        Attack::Flood { matches, streams } => flood(target, matches, streams).await,
        Attack::SeatTokens { calls } => seat_tokens(target, calls).await,
        Attack::Connections { count } => connections(target, count).await,
        Attack::Guessing { calls } => guessing(target, calls).await,
    }
}

// Connections from a chosen local address.

/// Connects to `target` from `local` (port chosen by the system).
#[derive(Clone)]
struct From {
    target: SocketAddr,
    local: IpAddr,
}

impl tower_service::Service<Uri> for From {
    type Response = TokioIo<tokio::net::TcpStream>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<Self::Response>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: Uri) -> Self::Future {
        let From { target, local } = self.clone();
        Box::pin(async move {
            let socket = TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(local, 0))?;
            socket.set_nodelay(true)?;
            Ok(TokioIo::new(socket.connect(target).await?))
        })
    }
}

async fn channel(target: SocketAddr, local: IpAddr) -> Result<Channel, tonic::transport::Error> {
    Endpoint::from_shared(format!("http://{target}"))
        .expect("a URI")
        .connect_timeout(Duration::from_secs(5))
        .connect_with_connector(From { target, local })
        .await
}

fn rules(channel: &Channel) -> pb::rules_client::RulesClient<Channel> {
    pb::rules_client::RulesClient::new(channel.clone())
}

fn matches(channel: &Channel) -> pb::matches_client::MatchesClient<Channel> {
    pb::matches_client::MatchesClient::new(channel.clone()).max_decoding_message_size(16 << 20)
}

fn with_bearer<T>(message: T, credential: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {credential}").parse().expect("ASCII"),
    );
    request
}

/// Milliseconds at the given quantile of `samples` (sorted here).
fn quantile(samples: &mut [f64], q: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(f64::total_cmp);
    samples[((samples.len() - 1) as f64 * q).round() as usize]
}

fn millis(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

// Searches.

async fn searches(
    target: SocketAddr,
    searchers: usize,
    creators: usize,
    hints: usize,
    spread: bool,
) {
    let attacker = |i: usize| {
        if spread {
            IpAddr::V4(Ipv4Addr::new(127, 0, 0, 10 + i as u8))
        } else {
            ATTACKER
        }
    };
    let mine = channel(target, BYSTANDER).await.expect("connect");
    let position = mid_game(&mine).await;
    let (mut hint_ms, mut bot_ms, bot_lost) = bystander(&mine, &position, hints).await;
    println!(
        "quiet:  level-3 hint p50 {:.1} ms p99 {:.1} ms; bot reply p50 {:.1} ms max {:.1} ms; bot lost on time: {bot_lost}",
        quantile(&mut hint_ms, 0.5),
        quantile(&mut hint_ms, 0.99),
        quantile(&mut bot_ms, 0.5),
        quantile(&mut bot_ms, 1.0),
    );

    let stop = Arc::new(AtomicBool::new(false));
    let counts: Arc<[AtomicU64; 4]> = Arc::default();
    let mut tasks = Vec::new();
    for i in 0..searchers {
        let (stop, counts) = (stop.clone(), counts.clone());
        let channel = channel(target, attacker(i)).await.expect("connect");
        let position = position.clone();
        tasks.push(tokio::spawn(async move {
            let mut client = rules(&channel);
            while !stop.load(Ordering::Relaxed) {
                let request = pb::SuggestMoveRequest {
                    state: Some(position.clone()),
                    strength: Some(pb::suggest_move_request::Strength::Budget(
                        pb::SearchBudget {
                            algorithm: pb::SearchAlgorithm::Mcts as i32,
                            iterations: 200_000,
                            ..Default::default()
                        },
                    )),
                    ..Default::default()
                };
                let slot = match client.suggest_move(request).await {
                    Ok(_) => 0,
                    Err(status) if status.code() == Code::ResourceExhausted => 1,
                    Err(_) => 2,
                };
                counts[slot].fetch_add(1, Ordering::Relaxed);
                if slot != 0 {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
        }));
    }
    for i in 0..creators {
        let (stop, counts) = (stop.clone(), counts.clone());
        let channel = channel(target, attacker(searchers + i))
            .await
            .expect("connect");
        tasks.push(tokio::spawn(async move {
            let mut client = matches(&channel);
            while !stop.load(Ordering::Relaxed) {
                let bot = |player: pb::Player| pb::SeatBot {
                    player: player as i32,
                    level: 6,
                    seed: None,
                };
                let request = pb::CreateMatchRequest {
                    kind: pb::GameKind::BaAwa as i32,
                    bots: vec![bot(pb::Player::South), bot(pb::Player::North)],
                    ..Default::default()
                };
                match client.create_match(request).await {
                    Ok(_) => counts[3].fetch_add(1, Ordering::Relaxed),
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(5)).await;
                        0
                    }
                };
            }
        }));
    }
    // Let the attack fill the queues first.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (mut hint_ms, mut bot_ms, bot_lost) = bystander(&mine, &position, hints).await;
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.abort();
    }
    println!(
        "attack: level-3 hint p50 {:.1} ms p99 {:.1} ms; bot reply p50 {:.1} ms max {:.1} ms; bot lost on time: {bot_lost}",
        quantile(&mut hint_ms, 0.5),
        quantile(&mut hint_ms, 0.99),
        quantile(&mut bot_ms, 0.5),
        quantile(&mut bot_ms, 1.0),
    );
    println!(
        "        attackers' searches: {} answered, {} refused (RESOURCE_EXHAUSTED), {} other; bot matches created: {}",
        counts[0].load(Ordering::Relaxed),
        counts[1].load(Ordering::Relaxed),
        counts[2].load(Ordering::Relaxed),
        counts[3].load(Ordering::Relaxed),
    );
}

/// A Ba-awa position a few moves in (the built-in opponent plays both seats).
async fn mid_game(channel: &Channel) -> pb::GameState {
    let mut client = rules(channel);
    let mut state = client
        .new_game(pb::NewGameRequest {
            kind: pb::GameKind::BaAwa as i32,
            options: None,
        })
        .await
        .expect("NewGame")
        .into_inner()
        .state
        .expect("a state");
    for seed in 0..6 {
        let answer = client
            .suggest_move(pb::SuggestMoveRequest {
                state: Some(state.clone()),
                strength: Some(pb::suggest_move_request::Strength::Level(2)),
                seed,
                ..Default::default()
            })
            .await
            .expect("SuggestMove")
            .into_inner();
        state = client
            .apply_move(pb::ApplyMoveRequest {
                state: Some(state),
                r#move: answer.r#move,
                skip_events: true,
            })
            .await
            .expect("ApplyMove")
            .into_inner()
            .state
            .expect("a state");
    }
    state
}

/// The bystander: `hints` level-3 hints, each after a move of its match against a level-3 bot with Fischer
/// 10 s + 0, timing the bot's reply. Returns the hints' and the replies' milliseconds, and whether the bot lost on
/// time.
async fn bystander(
    channel: &Channel,
    position: &pb::GameState,
    hints: usize,
) -> (Vec<f64>, Vec<f64>, bool) {
    let mut rules_client = rules(channel);
    let mut hint_ms = Vec::new();
    let mut bot_ms = Vec::new();
    let mut bot_lost = false;
    let mut game = match BotGame::start(channel).await {
        Ok(game) => Some(game),
        Err(status) => {
            println!(
                "  the bystander cannot create its match: {}",
                status.message()
            );
            None
        }
    };
    for seed in 0..hints as u64 {
        let started = Instant::now();
        let hint = rules_client
            .suggest_move(pb::SuggestMoveRequest {
                state: Some(position.clone()),
                strength: Some(pb::suggest_move_request::Strength::Level(3)),
                seed,
                ..Default::default()
            })
            .await;
        if hint.is_ok() {
            hint_ms.push(millis(started));
        }
        let Some(playing) = game.as_mut() else {
            continue;
        };
        match playing.play_and_wait().await {
            Reply::Bot(ms) => bot_ms.push(ms),
            Reply::Over { bot_flagged } => {
                bot_lost |= bot_flagged;
                game = match BotGame::start(channel).await {
                    Ok(game) => Some(game),
                    Err(status) => {
                        println!(
                            "  the bystander cannot create its next match: {}",
                            status.message()
                        );
                        None
                    }
                };
            }
        }
    }
    (hint_ms, bot_ms, bot_lost)
}

/// A Ba-awa match: South is ours (its seat token), North the server's level-3 bot, Fischer 10 s + 0.
struct BotGame {
    client: pb::matches_client::MatchesClient<Channel>,
    id: String,
    token: String,
    events: tonic::Streaming<pb::WatchMatchResponse>,
    legal: Vec<pb::Move>,
}

enum Reply {
    /// The bot answered after this many milliseconds.
    Bot(f64),
    /// The match ended; whether by the bot's flag.
    Over { bot_flagged: bool },
}

impl BotGame {
    async fn start(channel: &Channel) -> Result<BotGame, tonic::Status> {
        let mut client = matches(channel);
        let created = client
            .create_match(pb::CreateMatchRequest {
                kind: pb::GameKind::BaAwa as i32,
                bots: vec![pb::SeatBot {
                    player: pb::Player::North as i32,
                    level: 3,
                    seed: None,
                }],
                time_control: Some(pb::TimeControl {
                    control: Some(pb::time_control::Control::Fischer(pb::FischerTime {
                        initial_ms: 10_000,
                        increment_ms: 0,
                    })),
                }),
                ..Default::default()
            })
            .await?
            .into_inner();
        let game = created.r#match.expect("a match");
        let token = created.tokens[0].token.clone();
        let events = client
            .watch_match(pb::WatchMatchRequest {
                match_id: game.match_id.clone(),
                from_seq: Some(0),
                previews: false,
            })
            .await?
            .into_inner();
        Ok(BotGame {
            client,
            id: game.match_id,
            token,
            events,
            legal: game.legal_moves,
        })
    }

    /// Plays South's first legal move (between games, whatever is legal) and waits for North's reply.
    async fn play_and_wait(&mut self) -> Reply {
        let Some(mv) = self.legal.first().cloned() else {
            return Reply::Over { bot_flagged: false };
        };
        let submitted = self
            .client
            .submit_move(with_bearer(
                pb::SubmitMoveRequest {
                    match_id: self.id.clone(),
                    r#move: Some(mv),
                    ..Default::default()
                },
                &self.token,
            ))
            .await;
        let Ok(submitted) = submitted else {
            return Reply::Over { bot_flagged: false };
        };
        let event = submitted.into_inner().event.expect("an event");
        let mine = event.seq;
        self.legal = event.legal_moves;
        if event
            .state
            .as_ref()
            .and_then(|s| pb::Player::try_from(s.to_move).ok())
            != Some(pb::Player::North)
        {
            // The match (or game) ended, or it is South's turn again: nothing to wait for.
            return if self.legal.is_empty() {
                Reply::Over { bot_flagged: false }
            } else {
                Reply::Bot(0.0)
            };
        }
        let started = Instant::now();
        loop {
            let Ok(Ok(Some(message))) =
                tokio::time::timeout(Duration::from_secs(60), self.events.message()).await
            else {
                return Reply::Over { bot_flagged: false };
            };
            let Some(pb::watch_match_response::Kind::Event(event)) = message.kind else {
                continue;
            };
            if event.seq <= mine {
                continue;
            }
            if matches!(event.action, Some(pb::match_event::Action::Flag(_))) {
                return Reply::Over {
                    bot_flagged: event.player == pb::Player::North as i32,
                };
            }
            self.legal = event.legal_moves;
            return Reply::Bot(millis(started));
        }
    }
}

// Floods from one address.

async fn flood(target: SocketAddr, tries: usize, streams: usize) {
    let attacker = channel(target, ATTACKER).await.expect("connect");
    let bystander = channel(target, BYSTANDER).await.expect("connect");
    let started = Instant::now();
    let (mut created, mut first_refusal) = (0, None);
    let mut some_match = None;
    for _ in 0..tries {
        match matches(&attacker).create_match(vs_computer()).await {
            Ok(answer) => {
                created += 1;
                some_match.get_or_insert(answer.into_inner().r#match.expect("a match").match_id);
            }
            Err(status) => {
                first_refusal.get_or_insert(status.message().to_string());
                break;
            }
        }
    }
    println!(
        "attacker (127.0.0.2): {created} matches in {:.1} s, then: {}",
        started.elapsed().as_secs_f64(),
        first_refusal.as_deref().unwrap_or("never refused")
    );
    let theirs = matches(&bystander).create_match(vs_computer()).await;
    println!(
        "bystander (127.0.0.1) creates a match against the computer: {}",
        outcome(&theirs)
    );
    let Some(id) = some_match else { return };
    let mut held = Vec::new();
    let mut refusal = None;
    for _ in 0..streams {
        match matches(&attacker)
            .watch_match(pb::WatchMatchRequest {
                match_id: id.clone(),
                ..Default::default()
            })
            .await
        {
            Ok(stream) => held.push(stream.into_inner()),
            Err(status) => {
                refusal = Some(status.message().to_string());
                break;
            }
        }
    }
    println!(
        "attacker holds {} spectator streams, then: {}",
        held.len(),
        refusal.as_deref().unwrap_or("never refused")
    );
    let watch = matches(&bystander)
        .watch_match(pb::WatchMatchRequest {
            match_id: id,
            ..Default::default()
        })
        .await;
    println!("bystander watches the same match: {}", outcome(&watch));
}

fn vs_computer() -> pb::CreateMatchRequest {
    pb::CreateMatchRequest {
        kind: pb::GameKind::Bosh as i32,
        bots: vec![pb::SeatBot {
            player: pb::Player::North as i32,
            level: 1,
            seed: None,
        }],
        ..Default::default()
    }
}

fn outcome<T>(answer: &Result<T, tonic::Status>) -> String {
    match answer {
        Ok(_) => "accepted".into(),
        Err(status) => format!("{:?}: {}", status.code(), status.message()),
    }
}

// Made-up seat tokens.

async fn seat_tokens(target: SocketAddr, calls: usize) {
    let attacker = channel(target, ATTACKER).await.expect("connect");
    let bystander = channel(target, BYSTANDER).await.expect("connect");
    let mut game = BotGame::start(&bystander)
        .await
        .expect("the real seat's match is created");
    let stop = Arc::new(AtomicBool::new(false));
    let flood = {
        let stop = stop.clone();
        let id = game.id.clone();
        tokio::spawn(async move {
            let mut counts = [0u64; 3];
            let mut client = matches(&attacker);
            for i in 0..calls {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let made_up = format!("{i:064x}");
                let request = with_bearer(
                    pb::SubmitMoveRequest {
                        match_id: id.clone(),
                        ..Default::default()
                    },
                    &made_up,
                );
                let slot = match client.submit_move(request).await {
                    Err(s) if s.code() == Code::ResourceExhausted => 1,
                    Err(s)
                        if s.code() == Code::PermissionDenied
                            || s.code() == Code::Unauthenticated =>
                    {
                        0
                    }
                    _ => 2,
                };
                counts[slot] += 1;
            }
            counts
        })
    };
    let (mut played, mut throttled) = (0, 0);
    for _ in 0..30 {
        match game.play_and_wait().await {
            Reply::Bot(_) => played += 1,
            Reply::Over { .. } => {
                game = BotGame::start(&bystander)
                    .await
                    .expect("the real seat's next match is created");
            }
        }
        // A real seat's call after each reply: GetMatch with the token, as a client polling would.
        let mut request = with_bearer(
            pb::GetMatchRequest {
                match_id: game.id.clone(),
            },
            &game.token,
        );
        request.set_timeout(Duration::from_secs(5));
        if let Err(status) = matches(&bystander).get_match(request).await {
            if status.code() == Code::ResourceExhausted {
                throttled += 1;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let counts = flood.await.expect("the flood ends");
    println!(
        "attacker (127.0.0.2): made-up tokens refused {} (denied), {} (RESOURCE_EXHAUSTED), {} other",
        counts[0], counts[1], counts[2]
    );
    println!("real seat (127.0.0.1): {played} moves answered by the bot, {throttled} calls RESOURCE_EXHAUSTED");
}

// Connections.

async fn connections(target: SocketAddr, count: usize) {
    let started = Instant::now();
    let mut held = Vec::new();
    let mut failure = None;
    for _ in 0..count {
        match tokio::time::timeout(Duration::from_secs(2), channel(target, ATTACKER)).await {
            Ok(Ok(channel)) => {
                // A connection the server has taken: one call on it.
                let mut client = pb::diagnostics_client::DiagnosticsClient::new(channel.clone());
                let mut request = Request::new(pb::EchoRequest::default());
                request.set_timeout(Duration::from_secs(2));
                match client.echo(request).await {
                    Ok(_) => held.push(channel),
                    Err(status) => {
                        failure = Some(format!("{:?}: {}", status.code(), status.message()));
                        break;
                    }
                }
            }
            Ok(Err(error)) => {
                failure = Some(error.to_string());
                break;
            }
            Err(_) => {
                failure = Some("no answer within 2 s".into());
                break;
            }
        }
    }
    println!(
        "attacker (127.0.0.2): {} connections answered in {:.1} s, then: {}",
        held.len(),
        started.elapsed().as_secs_f64(),
        failure.as_deref().unwrap_or("never refused")
    );
    let started = Instant::now();
    let answer =
        match tokio::time::timeout(Duration::from_secs(5), channel(target, BYSTANDER)).await {
            Ok(Ok(channel)) => {
                let mut request = Request::new(pb::EchoRequest::default());
                request.set_timeout(Duration::from_secs(5));
                outcome(
                    &pb::diagnostics_client::DiagnosticsClient::new(channel)
                        .echo(request)
                        .await,
                )
            }
            Ok(Err(error)) => error.to_string(),
            Err(_) => "no connection within 5 s".into(),
        };
    println!(
        "bystander (127.0.0.1) connects and calls Echo: {answer} ({:.1} ms)",
        millis(started)
    );
}

// Guessing credentials.

async fn guessing(target: SocketAddr, calls: usize) {
    let attacker = channel(target, ATTACKER).await.expect("connect");
    let bystander = channel(target, BYSTANDER).await.expect("connect");
    let mut codes = std::collections::BTreeMap::<String, u64>::new();
    let started = Instant::now();
    for i in 0..calls {
        let made_up = format!("mk_guess{i:040}");
        let answer = rules(&attacker)
            .describe_game(with_bearer(
                pb::DescribeGameRequest {
                    kind: pb::GameKind::Bosh as i32,
                },
                &made_up,
            ))
            .await;
        let code = match answer {
            Ok(_) => "OK".to_string(),
            Err(status) => format!("{:?}", status.code()),
        };
        *codes.entry(code).or_default() += 1;
    }
    println!(
        "attacker (127.0.0.2): {calls} made-up keys in {:.1} s: {codes:?}",
        started.elapsed().as_secs_f64()
    );
    let describe = || pb::DescribeGameRequest {
        kind: pb::GameKind::Bosh as i32,
    };
    println!(
        "attacker without a credential: {}",
        outcome(&rules(&attacker).describe_game(describe()).await)
    );
    println!(
        "bystander (127.0.0.1) without a credential: {}",
        outcome(&rules(&bystander).describe_game(describe()).await)
    );
}
