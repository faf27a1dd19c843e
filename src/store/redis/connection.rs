//! The Redis store's connections: one Redis (redis-rs' [`ConnectionManager`]: one multiplexed connection that
//! reconnects by itself) or a Redis Cluster (redis-rs' async cluster client: a multiplexed connection per node, the
//! slot map, MOVED and ASK followed, the map refreshed and the command retried after a failover). The store's code
//! is the same over both: [`Connection`] is either, and every script and transaction it runs keeps to one hash slot
//! (`keys.rs`).
//!
//! A cluster is named by `redis+cluster://[user:password@]host:port,host:port,…` (`rediss+cluster://` with TLS):
//! the seed nodes, any of which tells the client the rest.

use crate::config::RedisAt;
use redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use redis::cluster::ClusterClientBuilder;
use redis::cluster_async::ClusterConnection;
use redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};
use redis::{
    Client, Cmd, ConnectionInfo, FromRedisValue, Pipeline, PushInfo, RedisFuture, RedisResult,
    Value,
};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// How long connecting, and each command, may take before the store reports a failure.
pub(super) const IO_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest wait between two attempts of the connection manager to reconnect.
const RECONNECT_BACKOFF_MAX: Duration = Duration::from_secs(2);
/// How often the cluster client retries a command that met a moved slot, a failover or a lost node: with its
/// backoff (from 100 ms, doubling, at most 2 s) long enough to cover a replica's promotion (a few seconds with the
/// default `cluster-node-timeout` of 15 s lowered, as operators do, to a few seconds).
const CLUSTER_RETRIES: u32 = 8;

/// Where the store's Redis is: one server, or the seed nodes of a cluster.
#[derive(Clone, Debug)]
pub(super) enum Target {
    /// One Redis.
    Single(Box<Client>),
    /// A Redis Cluster, by its seed nodes.
    Cluster(Vec<ConnectionInfo>),
}

impl Target {
    /// `matches.redis_url` (its forms are `crate::config::RedisAt`'s). The error never repeats the URL, which may
    /// hold a password.
    pub(super) fn parse(url: &str) -> Result<Target, String> {
        Ok(match RedisAt::parse(url)? {
            RedisAt::Single(info) => {
                Target::Single(Box::new(Client::open(*info).map_err(|e| e.to_string())?))
            }
            RedisAt::Cluster(seeds) => Target::Cluster(seeds),
        })
    }

    /// `host:port` of the server, or of the cluster's seeds, for logs and errors (never a password).
    pub(super) fn servers(&self) -> String {
        match self {
            Target::Single(client) => client.get_connection_info().addr().to_string(),
            Target::Cluster(seeds) => seeds
                .iter()
                .map(|seed| seed.addr().to_string())
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    /// A client of each server a classic channel can be followed on: the one Redis, or every seed (a cluster
    /// forwards `PUBLISH` to all its nodes, so any one will do; the next is tried when one fails).
    pub(super) fn followable(&self) -> Vec<Client> {
        match self {
            Target::Single(client) => vec![(**client).clone()],
            Target::Cluster(seeds) => seeds
                .iter()
                .filter_map(|seed| Client::open(seed.clone()).ok())
                .collect(),
        }
    }

    /// Connects for commands.
    pub(super) async fn connect(&self) -> RedisResult<Connection> {
        self.connect_with(None).await
    }

    /// Connects for sharded subscriptions: RESP3, whose pushes (messages, and the library's own notice of a lost
    /// connection) go to `pushes`.
    pub(super) async fn subscriber(
        &self,
        pushes: UnboundedSender<PushInfo>,
    ) -> RedisResult<Connection> {
        self.connect_with(Some(pushes)).await
    }

    async fn connect_with(
        &self,
        pushes: Option<UnboundedSender<PushInfo>>,
    ) -> RedisResult<Connection> {
        let resp3 = |info: &ConnectionInfo| {
            info.clone().set_redis_settings(
                info.redis_settings()
                    .clone()
                    .set_protocol(redis::ProtocolVersion::RESP3),
            )
        };
        match self {
            Target::Single(client) => {
                let mut config = ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(IO_TIMEOUT))
                    .set_response_timeout(Some(IO_TIMEOUT))
                    .set_max_delay(RECONNECT_BACKOFF_MAX);
                let client = match pushes {
                    Some(pushes) => {
                        config = config.set_push_sender(pushes);
                        Client::open(resp3(client.get_connection_info()))?
                    }
                    None => (**client).clone(),
                };
                Ok(Connection::Single(
                    ConnectionManager::new_with_config(client, config).await?,
                ))
            }
            Target::Cluster(seeds) => {
                let mut builder = ClusterClientBuilder::new(match pushes {
                    Some(_) => seeds.iter().map(resp3).collect(),
                    None => seeds.clone(),
                })
                .connection_timeout(IO_TIMEOUT)
                .response_timeout(IO_TIMEOUT)
                .retries(CLUSTER_RETRIES)
                .min_retry_wait(100)
                .max_retry_wait(2000);
                if let Some(pushes) = pushes {
                    builder = builder
                        .use_protocol(redis::ProtocolVersion::RESP3)
                        .push_sender(pushes);
                }
                Ok(Connection::Cluster(
                    builder.build()?.get_async_connection().await?,
                ))
            }
        }
    }
}

/// A connection to the store's Redis or cluster; clones share it.
#[derive(Clone)]
pub(in crate::store) enum Connection {
    /// One Redis.
    Single(ConnectionManager),
    /// A Redis Cluster.
    Cluster(ClusterConnection),
}

impl ConnectionLike for Connection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Connection::Single(con) => con.req_packed_command(cmd),
            Connection::Cluster(con) => con.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        cmd: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Connection::Single(con) => con.req_packed_commands(cmd, offset, count),
            Connection::Cluster(con) => con.req_packed_commands(cmd, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Connection::Single(con) => con.get_db(),
            Connection::Cluster(con) => con.get_db(),
        }
    }
}

impl Connection {
    /// Waits until the writes this connection sent to the primary of `slot` reached `replicas` of its replicas, or
    /// `timeout` passed: how many it reached (Redis's `WAIT`, on the connection the writes went by, so that it
    /// counts them).
    pub(super) async fn wait(
        &mut self,
        slot: u16,
        replicas: u32,
        timeout: Duration,
    ) -> RedisResult<u32> {
        let mut wait = redis::cmd("WAIT");
        wait.arg(replicas).arg(timeout.as_millis().max(1) as u64);
        match self {
            Connection::Single(con) => wait.query_async(con).await,
            Connection::Cluster(con) => {
                let route = SingleNodeRoutingInfo::SpecificNode(Route::new(slot, SlotAddr::Master));
                let reached = con
                    .route_command(wait, RoutingInfo::SingleNode(route))
                    .await?;
                Ok(u32::from_redis_value(reached)?)
            }
        }
    }

    /// Commands whose keys may lie in different slots, answered in order: one pipeline on one Redis (one round
    /// trip); on a cluster, where a pipeline must keep to one slot, each command by itself, all at once.
    pub(super) async fn each<T: FromRedisValue + Send + 'static>(
        &self,
        commands: Vec<Cmd>,
    ) -> RedisResult<Vec<T>> {
        match self {
            Connection::Single(con) => {
                let mut pipe = redis::pipe();
                for command in commands {
                    pipe.add_command(command);
                }
                pipe.query_async(&mut con.clone()).await
            }
            Connection::Cluster(con) => {
                let mut tasks = tokio::task::JoinSet::new();
                for (n, command) in commands.into_iter().enumerate() {
                    let mut con = con.clone();
                    tasks.spawn(async move { (n, command.query_async::<T>(&mut con).await) });
                }
                let mut answers: Vec<Option<T>> =
                    std::iter::repeat_with(|| None).take(tasks.len()).collect();
                while let Some(done) = tasks.join_next().await {
                    let (n, answer) = done.map_err(|e| {
                        redis::RedisError::from((
                            redis::ErrorKind::Client,
                            "a cluster command's task failed",
                            e.to_string(),
                        ))
                    })?;
                    answers[n] = Some(answer?);
                }
                Ok(answers.into_iter().flatten().collect())
            }
        }
    }
}

/// The store's connection, made again when a cluster's topology changed under it in a way the cluster client does
/// not see by itself: a command answered by a node that became a replica (`READONLY`, `WAIT` refused), a transaction
/// redirected (`MOVED` inside `MULTI`), the cluster down meanwhile, or no answer at all (a client left waiting on a
/// node that died). The client follows a plain `MOVED` by itself; these it reports as errors, and a new connection
/// reads the slot map afresh.
pub(super) struct Shared {
    target: Target,
    current: std::sync::RwLock<Connection>,
    /// When the connection was last made again (never more often than [`REMAKE_EVERY`]).
    remade: std::sync::Mutex<Option<std::time::Instant>>,
}

/// The shortest time between two remakes of the connection.
const REMAKE_EVERY: Duration = Duration::from_millis(500);

impl Shared {
    pub(super) fn new(target: Target, connection: Connection) -> Shared {
        Shared {
            target,
            current: std::sync::RwLock::new(connection),
            remade: std::sync::Mutex::new(None),
        }
    }

    /// The connection (a clone: they share the connections to the servers).
    pub(super) fn get(&self) -> Connection {
        self.current
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Looks at a failed command's error: on a cluster, one that says the topology changed has the connection made
    /// again, on `runtime`, in the background.
    pub(super) fn noticed(
        self: &std::sync::Arc<Self>,
        error: &redis::RedisError,
        runtime: &tokio::runtime::Handle,
    ) {
        if !matches!(self.target, Target::Cluster(_)) {
            return;
        }
        let text = error.to_string();
        let moved = [
            "ReadOnly",
            "Moved",
            "replica instances",
            "ClusterDown",
            "TryAgain",
        ];
        let unanswered = error.is_timeout() || error.is_io_error() || error.is_connection_refusal();
        if !unanswered && !moved.iter().any(|sign| text.contains(sign)) {
            return;
        }
        {
            let mut remade = self
                .remade
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if remade.is_some_and(|at| at.elapsed() < REMAKE_EVERY) {
                return;
            }
            *remade = Some(std::time::Instant::now());
        }
        let shared = self.clone();
        runtime.spawn(async move {
            match shared.target.connect().await {
                Ok(connection) => {
                    *shared
                        .current
                        .write()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = connection;
                    tracing::info!(servers = %shared.target.servers(), "the Redis Cluster's topology changed: connected again");
                }
                Err(error) => {
                    tracing::warn!(servers = %shared.target.servers(), error = %error, "cannot connect to the Redis Cluster again");
                }
            }
        });
    }
}
