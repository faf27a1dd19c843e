//! What the modules above the lobby write in its log and read of it (`crate::tournaments`): their decisions are
//! made against the tenant's state caught up with the store and written with its check-and-append, as the
//! lobby's own are, and the matches among the entries written are created in the match store as an accepted
//! challenge's is.

use super::entry::Entry;
use super::state::TenantState;
use super::{Lobby, LobbyError};
use crate::matches::Encoder;

impl<E: Encoder> Lobby<E> {
    /// Decides against `tenant`'s state and writes the entries `decide` returns, all together or (after losing
    /// the store's race to another server, deciding again) not at all; then creates the matches whose
    /// `MatchCreated` is among them. A creation that fails is logged and left to the repair, as the lobby's own.
    pub async fn write<T: Send + 'static>(
        &self,
        tenant: &str,
        mut decide: impl FnMut(&TenantState) -> Result<(Vec<Entry>, T), LobbyError> + Send + 'static,
    ) -> Result<T, LobbyError> {
        let (answer, created) = self
            .decide(tenant, move |state| {
                let (entries, answer) = decide(state)?;
                let created: Vec<Entry> = entries
                    .iter()
                    .filter(|e| matches!(e, Entry::MatchCreated { .. }))
                    .cloned()
                    .collect();
                Ok((entries, (answer, created)))
            })
            .await?;
        for entry in &created {
            let _ = self.create_match(tenant, entry).await;
        }
        Ok(answer)
    }

    /// What `read` makes of `tenant`'s state, caught up with the store.
    pub async fn read_state<T: Send + 'static>(
        &self,
        tenant: &str,
        read: impl FnOnce(&TenantState) -> T + Send + 'static,
    ) -> Result<T, LobbyError> {
        self.read(tenant, read).await
    }

    /// Makes sure the match `id` the lobby's log arranged exists in the match store (see `ensure_created`): for a
    /// module above that names such matches, so that a caller told of one never finds it missing.
    pub async fn ensure_match(&self, tenant: &str, id: crate::store::MatchId) {
        self.ensure_created(tenant, id).await;
    }

    /// The tenants with a lobby log in the store or held here (the ones the background work looks at).
    pub async fn known_tenants(&self) -> Result<Vec<String>, LobbyError> {
        self.tenants().await
    }
}
