//! The server in-process with a clock the test moves by hand ([`ManualTime`]): flags fall, unstarted matches
//! are aborted and seats become claimable when the test says so, never by sleeping. Unlike
//! [`super::server::TestServer`], the store is the one `configure` chooses (the embedded store of a test's own
//! directory, Redis), and [`TimedServer::stop`] waits for the server to let go of it.

use super::replica::{authed, moved_on, next_request, within};
use mancala::api::pb;
use mancala::clock::ManualTime;
use mancala::config::Settings;
use pb::matches_client::MatchesClient;
use std::sync::Arc;
use tokio::sync::oneshot;
use tonic::transport::Channel;

/// A running server on a manual clock.
pub struct TimedServer {
    pub channel: Channel,
    shutdown: Option<oneshot::Sender<()>>,
    served: Option<tokio::task::JoinHandle<()>>,
}

/// A moment to start manual clocks at (2026-12-01, so that times look like times).
pub const START_MS: u64 = 1_796_083_200_000;

impl TimedServer {
    /// Starts the server on 127.0.0.1:0 with the built-in defaults as changed by `configure`, its clocks read
    /// from `time`.
    pub async fn start(time: &ManualTime, configure: impl FnOnce(&mut Settings)) -> TimedServer {
        let mut settings = Settings::load_from(None, Vec::new()).expect("defaults load");
        settings.matches.store = mancala::config::StoreKind::Memory;
        settings.server.shutdown_grace = std::time::Duration::from_secs(2);
        configure(&mut settings);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (tx, rx) = oneshot::channel::<()>();
        let time = Arc::new(time.clone());
        let served = tokio::spawn(async move {
            mancala::server::run_with_time(
                listener,
                settings,
                async {
                    let _ = rx.await;
                },
                time,
            )
            .await
            .expect("server runs");
        });
        let channel = super::server::within(
            Channel::from_shared(format!("http://{addr}"))
                .expect("uri")
                .connect(),
        )
        .await
        .expect("connect");
        TimedServer {
            channel,
            shutdown: Some(tx),
            served: Some(served),
        }
    }

    /// A client of the Matches service.
    pub fn matches(&self) -> MatchesClient<Channel> {
        MatchesClient::new(self.channel.clone())
    }

    /// Shuts the server down and waits until it has returned (its store closed).
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        drop(self.channel.clone());
        if let Some(served) = self.served.take() {
            super::server::within(served)
                .await
                .expect("the server stops");
        }
    }
}

impl Drop for TimedServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// A new Bosh match with `control`: the match and its `[South, North]` tokens.
pub async fn create(
    client: &mut MatchesClient<Channel>,
    control: Option<pb::TimeControl>,
) -> (pb::Match, Vec<String>) {
    let created = within(
        "create",
        client.create_match(pb::CreateMatchRequest {
            kind: pb::GameKind::Bosh as i32,
            options: None,
            players: vec![],
            bots: vec![],
            time_control: control,
            start: None,
        }),
    )
    .await
    .expect("created")
    .into_inner();
    let tokens = created.tokens.into_iter().map(|t| t.token).collect();
    (created.r#match.unwrap(), tokens)
}

/// The seat to move sows its first legal move; the event, and `m` moved on.
pub async fn sow(
    client: &mut MatchesClient<Channel>,
    m: &mut pb::Match,
    tokens: &[String],
) -> pb::MatchEvent {
    let (request, token) = next_request(m, tokens, 0);
    let event = within("sow", client.submit_move(authed(request, &token)))
        .await
        .expect("accepted")
        .into_inner()
        .event
        .unwrap();
    moved_on(m, &event);
    event
}

/// Reads `stream` until it tells that a seat's last stream closed (the server has counted the departure).
pub async fn departure(stream: &mut tonic::Streaming<pb::WatchMatchResponse>) {
    use pb::watch_match_response::Kind;
    loop {
        match within("a departure", stream.message())
            .await
            .expect("the stream is open")
            .expect("more messages")
            .kind
            .expect("a kind")
        {
            Kind::Presence(presence) if !presence.connected => return,
            _ => continue,
        }
    }
}

pub async fn watch(
    client: &mut MatchesClient<Channel>,
    m: &pb::Match,
    token: Option<&str>,
) -> tonic::Streaming<pb::WatchMatchResponse> {
    let request = pb::WatchMatchRequest {
        match_id: m.match_id.clone(),
        from_seq: Some(m.version),
        previews: false,
    };
    let request = match token {
        Some(token) => authed(request, token),
        None => tonic::Request::new(request),
    };
    within("watch", client.watch_match(request))
        .await
        .expect("watching")
        .into_inner()
}
