//! Who is online: a player with his event stream open on this server is held in the presence store
//! ([`crate::store::PresenceStore`]) for as long as it stays open, so that every replica sharing the store sees him
//! online; and what a profile says of it (online, last seen). Apart from the streams because it outlives none of
//! them and reads no log: it only says which players have one open.

use super::error::store_failed;
use super::{now_ms, Lobby, LobbyError, Profile};
use crate::matches::Encoder;
use crate::sync::Held;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// The shortest time between two refreshes of the holds (a tiny `lobby.heartbeat_ms` in tests).
const MIN_REFRESH: Duration = Duration::from_millis(50);

/// One of a player's open streams, counted in the players present here until dropped.
pub(super) struct Present {
    _held: Held<(String, String)>,
    changed: Arc<Notify>,
}

impl Drop for Present {
    fn drop(&mut self) {
        // The keeper lets go of the player once his last stream here has closed.
        self.changed.notify_one();
    }
}

impl<E: Encoder> Lobby<E> {
    /// Counts a stream of `player` as his presence, held in the store before this returns (so that whoever
    /// asks once the stream is open sees him online), until the returned guard is dropped.
    pub(super) async fn present(&self, tenant: &str, player: &str) -> Present {
        let key = (tenant.to_string(), player.to_string());
        let held = self
            .inner
            .present
            .take(&key, 0)
            .expect("no limit refuses nothing");
        let now = now_ms();
        if let Err(error) = self
            .inner
            .presence
            .presence_hold(
                tenant,
                player,
                &self.inner.holder,
                now,
                now + self.lapse_ms(),
            )
            .await
        {
            // The stream works without it; the keeper holds him again at its next refresh.
            tracing::warn!(error = %error, "holding a player's presence failed");
        }
        self.inner.presence_changed.notify_one();
        Present {
            _held: held,
            changed: self.inner.presence_changed.clone(),
        }
    }

    /// How often this server says again that it holds its players.
    fn refresh_every(&self) -> Duration {
        self.inner.settings.heartbeat.max(MIN_REFRESH)
    }

    /// How long a hold lasts unrefreshed: three refreshes, so that one slow one does not take a player offline.
    fn lapse_ms(&self) -> u64 {
        3 * self.refresh_every().as_millis() as u64
    }

    /// Keeps this server's holds: each refresh says again that it holds every player with a stream open here,
    /// and a change (a player's first stream here opened, his last one closed) is written at once.
    pub(super) async fn keep_presence(&self) {
        let mut tick = tokio::time::interval(self.refresh_every());
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut held: HashSet<(String, String)> = HashSet::new();
        loop {
            let refresh = tokio::select! {
                _ = tick.tick() => true,
                () = self.inner.presence_changed.notified() => false,
            };
            let now = now_ms();
            let present: HashSet<(String, String)> =
                self.inner.present.keys().into_iter().collect();
            let store = &self.inner.presence;
            let holder = self.inner.holder.as_str();
            for (tenant, player) in &present {
                if refresh || !held.contains(&(tenant.clone(), player.clone())) {
                    if let Err(error) = store
                        .presence_hold(tenant, player, holder, now, now + self.lapse_ms())
                        .await
                    {
                        tracing::warn!(error = %error, "refreshing a player's presence failed");
                    }
                }
            }
            for (tenant, player) in held.difference(&present) {
                if let Err(error) = store.presence_release(tenant, player, holder, now).await {
                    // Its hold lapses by itself.
                    tracing::warn!(error = %error, "letting go of a player's presence failed");
                }
            }
            held = present;
        }
    }

    /// `profiles` with their players' presence: online now on any replica, and last seen the latest of the log's
    /// sight of them and their streams (now, while online).
    pub(super) async fn seen_now(
        &self,
        tenant: &str,
        mut profiles: Vec<Profile>,
    ) -> Result<Vec<Profile>, LobbyError> {
        let players: Vec<String> = profiles.iter().map(|p| p.player.clone()).collect();
        let now = now_ms();
        let presence = self
            .inner
            .presence
            .presence_of(tenant, &players, now)
            .await
            .map_err(|e| store_failed("reading who is online", e))?;
        for (profile, presence) in profiles.iter_mut().zip(presence) {
            profile.online = presence.online;
            let streamed = if presence.online {
                now
            } else {
                presence.last_seen_ms
            };
            profile.last_seen_ms = profile.last_seen_ms.max(streamed);
        }
        Ok(profiles)
    }
}
