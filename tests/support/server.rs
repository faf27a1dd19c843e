//! Starts the real server in-process on 127.0.0.1:0 and hands out clients over a real channel.

use mancala::api::pb;
use mancala::config::Settings;
use std::future::Future;
use std::time::Duration;
use tokio::sync::oneshot;
use tonic::transport::{Channel, ClientTlsConfig};

/// Every await in a test is bounded by this.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A running server; dropping it shuts the server down.
pub struct TestServer {
    pub addr: std::net::SocketAddr,
    pub channel: Channel,
    shutdown: Option<oneshot::Sender<()>>,
}

impl TestServer {
    /// Starts the server with the built-in defaults.
    pub async fn start() -> TestServer {
        TestServer::start_with(|_| {}).await
    }

    /// Starts the server with the built-in defaults as changed by `configure`.
    pub async fn start_with(configure: impl FnOnce(&mut Settings)) -> TestServer {
        TestServer::start_as(configure, None).await
    }

    /// Starts the server as [`TestServer::start_with`] does, its own channel connecting with `tls`
    /// (to `https://127.0.0.1:PORT`) when given, or in plaintext.
    pub async fn start_as(
        configure: impl FnOnce(&mut Settings),
        tls: Option<ClientTlsConfig>,
    ) -> TestServer {
        let mut settings = Settings::load_from(None, Vec::new()).expect("defaults load");
        // Tests play whole matches through the Rules calls as fast as the server answers, all from 127.0.0.1:
        // faster than one address's share of the anonymous tenant's calls. That share has tests of its own
        // (tests/grpc/caller_limits.rs), which set it; every other test runs without it.
        settings.addresses.calls_per_second = 0;
        configure(&mut settings);
        // Tests share the working directory: no database file in it.
        settings.matches.store = mancala::config::StoreKind::Memory;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            mancala::server::run(listener, settings, async {
                let _ = rx.await;
            })
            .await
            .expect("server runs");
        });
        let endpoint = match tls {
            None => Channel::from_shared(format!("http://{addr}")).expect("uri"),
            Some(tls) => Channel::from_shared(format!("https://{addr}"))
                .expect("uri")
                .tls_config(tls)
                .expect("client TLS"),
        };
        let channel = within(endpoint.connect()).await.expect("connect");
        TestServer {
            addr,
            channel,
            shutdown: Some(tx),
        }
    }

    /// A client of the Rules service.
    pub fn rules(&self) -> pb::rules_client::RulesClient<Channel> {
        pb::rules_client::RulesClient::new(self.channel.clone())
    }

    /// The first state of a new match of `kind`, with the default options.
    pub async fn new_game(&self, kind: pb::GameKind) -> pb::GameState {
        within(self.rules().new_game(pb::NewGameRequest {
            kind: kind as i32,
            options: None,
        }))
        .await
        .expect("NewGame answers")
        .into_inner()
        .state
        .expect("NewGame gives a state")
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Awaits `f`, failing the test if it takes longer than [`TIMEOUT`].
pub async fn within<F: Future>(f: F) -> F::Output {
    tokio::time::timeout(TIMEOUT, f).await.expect("timed out")
}
