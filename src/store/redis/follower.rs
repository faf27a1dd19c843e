//! A classic channel (the lobby's and the tenants' announcements) followed on a thread of its own, with a blocking
//! subscription that waits for messages and nothing else. On a cluster, which forwards `PUBLISH` to every node, any
//! seed will do: the next is tried when one fails.

use super::connection::IO_TIMEOUT;
use redis::{Client, RedisError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often the follower thread wakes to see whether it should stop.
const FOLLOW_POLL: Duration = Duration::from_millis(250);
/// The longest wait between attempts to reconnect the follower.
const FOLLOW_BACKOFF_MAX: Duration = Duration::from_secs(2);

/// What a followed channel's messages go to: each payload, and `None` when the subscription (re)starts.
pub(in crate::store) type ChannelSink = Box<dyn FnMut(Option<&[u8]>) + Send>;

/// Reads one classic channel and hands each message to its sink.
pub(super) struct Follower {
    /// The servers it can be read on, tried in turn.
    pub(super) clients: Vec<Client>,
    pub(super) channel: String,
    pub(super) what: &'static str,
    pub(super) server: String,
    pub(super) sink: ChannelSink,
    pub(super) stop: Arc<AtomicBool>,
}

impl Follower {
    pub(super) fn run(mut self) {
        let mut backoff = Duration::from_millis(50);
        let mut connected_before = false;
        let mut attempt = 0usize;
        while !self.stop.load(Ordering::Acquire) {
            let Some(client) = self
                .clients
                .get(attempt % self.clients.len().max(1))
                .cloned()
            else {
                return;
            };
            match self.follow(&client, &mut connected_before) {
                Ok(()) => return,
                Err(error) => {
                    tracing::warn!(
                        server = %self.server,
                        channel = self.what,
                        error = %error,
                        retry_ms = backoff.as_millis() as u64,
                        "lost a Redis channel; what it missed is read again once it is back"
                    );
                    attempt += 1;
                    std::thread::sleep(backoff);
                    backoff = (backoff * 2).min(FOLLOW_BACKOFF_MAX);
                }
            }
        }
    }

    /// One subscription, until `stop` (`Ok`) or a connection error.
    fn follow(&mut self, client: &Client, connected_before: &mut bool) -> Result<(), RedisError> {
        let mut con = client.get_connection_with_timeout(IO_TIMEOUT)?;
        con.set_write_timeout(Some(IO_TIMEOUT))?;
        let mut pubsub = con.as_pubsub();
        pubsub.subscribe(&self.channel)?;
        pubsub.set_read_timeout(Some(FOLLOW_POLL))?;
        if std::mem::replace(connected_before, true) {
            tracing::info!(server = %self.server, channel = self.what, "following a Redis channel again");
        }
        (self.sink)(None);
        loop {
            if self.stop.load(Ordering::Acquire) {
                return Ok(());
            }
            let message = match pubsub.get_message() {
                Ok(message) => message,
                Err(error) if error.is_timeout() => continue,
                Err(error) => return Err(error),
            };
            (self.sink)(Some(message.get_payload_bytes()));
        }
    }
}
