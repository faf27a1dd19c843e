//! The background work: every `lobby.sweep_interval_ms`, on every replica, each running tournament of each tenant
//! is taken as far as it can go ([`advance::advance`]): the results of its ended matches recorded, the next round
//! paired or the tournament finished. Decided against the lobby's log and written with its check-and-append, so
//! replicas sweeping at once write each step once, and a replica that died leaves nothing undone.

use super::advance;
use super::state::Tournament;
use super::{TournamentError, Tournaments};
use crate::lobby::entry::Entry;
use crate::matches::Encoder;
use crate::sync::TaskGuard;

impl<E: Encoder> Tournaments<E> {
    /// Starts the background work; dropping the guard stops it.
    pub fn spawn_advancer(&self) -> TaskGuard {
        let tournaments = self.clone();
        let every = self.lobby.settings().sweep_interval;
        TaskGuard::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(error) = tournaments.advance_all().await {
                    tracing::warn!(error = %error, "advancing the tournaments failed; it runs again");
                }
            }
        })
    }

    /// Takes every running tournament of every tenant as far as it can go now.
    pub async fn advance_all(&self) -> Result<(), TournamentError> {
        for tenant in self.lobby.known_tenants().await? {
            let running = self
                .lobby
                .read_state(&tenant, |state| state.open_tournaments().next().is_some())
                .await?;
            if !running {
                continue;
            }
            if let Err(error) = self.advance_tenant(&tenant).await {
                tracing::warn!(tenant, error = %error, "advancing a tenant's tournaments failed; it runs again");
            }
        }
        Ok(())
    }

    /// Takes every running tournament of `tenant` as far as it can go now, in one write.
    pub async fn advance_tenant(&self, tenant: &str) -> Result<(), TournamentError> {
        self.lobby
            .write(tenant, |state| {
                let mut entries: Vec<Entry> = Vec::new();
                for (id, log) in state.open_tournaments() {
                    match Tournament::replay(*id, &log.steps) {
                        Ok(Some(mut t)) => entries.extend(advance::advance(&mut t, state)),
                        Ok(None) => {}
                        Err(error) => {
                            tracing::error!(tournament = %id, error = %error, "a tournament's steps do not decode")
                        }
                    }
                }
                Ok((entries, ()))
            })
            .await?;
        Ok(())
    }
}
