//! [`MemoryStore`]: matches in a map, gone when the process ends. For tests, demos and throwaway
//! servers (`[matches] store = "memory"`).

use super::{EventRecord, ListQuery, MatchId, MatchRecord, MatchStore, StoreError, StoredMatch};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Keeps every match in memory, ordered by id.
#[derive(Debug, Default)]
pub struct MemoryStore {
    matches: Mutex<BTreeMap<MatchId, StoredMatch>>,
    pub(super) tenants: super::tenants::MemoryTenants,
    pub(super) lobby: super::lobby::MemoryLobby,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn matches(&self) -> MutexGuard<'_, BTreeMap<MatchId, StoredMatch>> {
        // Every critical section leaves the map consistent, so a panic elsewhere cannot corrupt it.
        self.matches.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// `tenant`'s unfinished matches: a scan, as this store serves tests and demos, not many matches.
fn unfinished_of(matches: &BTreeMap<MatchId, StoredMatch>, tenant: &str) -> u64 {
    matches
        .values()
        .filter(|m| m.record.tenant == tenant && m.record.finished.is_none())
        .count() as u64
}

// Nothing here waits: each call is a moment under the map's lock, so the futures are ready at once.
#[async_trait::async_trait]
impl MatchStore for MemoryStore {
    async fn create(
        &self,
        record: &MatchRecord,
        max_active: Option<u64>,
    ) -> Result<(), StoreError> {
        let mut matches = self.matches();
        if matches.contains_key(&record.id) {
            return Ok(());
        }
        if let Some(max) = max_active {
            let active = unfinished_of(&matches, &record.tenant);
            if active >= max {
                return Err(StoreError::TooManyActive { active });
            }
        }
        matches.insert(
            record.id,
            StoredMatch {
                record: record.clone(),
                events: Vec::new(),
            },
        );
        Ok(())
    }

    async fn unfinished_count(&self, tenant: &str) -> Result<u64, StoreError> {
        Ok(unfinished_of(&self.matches(), tenant))
    }

    async fn load(&self, id: &MatchId) -> Result<Option<StoredMatch>, StoreError> {
        Ok(self.matches().get(id).cloned())
    }

    async fn append(&self, record: &MatchRecord, event: &EventRecord) -> Result<(), StoreError> {
        let mut matches = self.matches();
        let stored = matches.get_mut(&record.id).ok_or(StoreError::NotFound)?;
        if stored.record.version + 1 != event.seq {
            return Err(StoreError::Conflict {
                current: stored.record.version,
            });
        }
        stored.events.push(event.clone());
        stored.record = record.clone();
        Ok(())
    }

    async fn list(&self, query: &ListQuery) -> Result<Vec<MatchRecord>, StoreError> {
        use std::ops::Bound::{Excluded, Unbounded};
        let matches = self.matches();
        let start = query.after.map_or(Unbounded, Excluded);
        Ok(matches
            .range((start, Unbounded))
            .map(|(_, stored)| &stored.record)
            .filter(|record| query.matches(record))
            .take(query.limit)
            .cloned()
            .collect())
    }

    async fn purge_finished_before(&self, cutoff_ms: u64) -> Result<Vec<MatchId>, StoreError> {
        let mut matches = self.matches();
        let expired: Vec<MatchId> = matches
            .values()
            .filter(|stored| stored.record.finished.is_some_and(|f| f.at_ms < cutoff_ms))
            .map(|stored| stored.record.id)
            .collect();
        for id in &expired {
            matches.remove(id);
        }
        Ok(expired)
    }
}
