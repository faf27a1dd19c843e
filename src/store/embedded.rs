//! [`EmbeddedStore`]: every match in one redb file, `<data_dir>/mancala.redb`.
//!
//! Why redb: pure Rust (no C toolchain, no system library, builds wherever the crate builds), ACID
//! with copy-on-write B-trees and checksummed commits, so a process killed at any instant (even
//! `kill -9` mid-commit) reopens at the last committed transaction; one file, nothing else to run;
//! actively maintained with a stable file format. Every commit is `Durability::Immediate` (fsync before commit
//! returns), which is what makes a move durable before its answer is sent. The frequent writes (a move's append, a
//! match's creation, the lobby's entries) go to the store's writer thread, which commits whatever waits at the
//! same moment in one transaction and one fsync (group commit: `super::group_commit`, `super::embedded_writes`).
//! The 2.x line is used because it keeps the crate's rust-version (1.85).
//!
//! Tables: `matches` (id → header) and `events` ((id, seq) → event), both in the shared codec, with `journal`, where
//! a match's newest appends wait to be moved into them (`super::journal`: a reader takes both);
//! `active_per_tenant` (tenant → unfinished matches); the tenants' (see `super::tenants`).

use super::embedded_writes::{Append, Create, Write, Writer};
use super::group_commit::GroupCommit;
use super::journal::{self, JOURNAL};
use super::reopen::{DataFile, Handle, Storage};
use super::{
    codec, EventRecord, ListQuery, MatchId, MatchRecord, MatchStore, StoreError, StoredMatch,
};
use crate::metrics::Metrics;
use redb::{Database, ReadableTable, TableDefinition};
use std::path::Path;
use std::sync::Arc;

pub(super) const MATCHES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("matches");
pub(super) const EVENTS: TableDefinition<(&[u8], u64), &[u8]> = TableDefinition::new("events");
/// Each tenant's unfinished matches, counted as they are created and finish (matches created before the
/// count existed are not in it, and a count never goes below zero).
pub(super) const ACTIVE: TableDefinition<&str, u64> = TableDefinition::new("active_per_tenant");

/// The file name inside the data directory.
pub const FILE_NAME: &str = "mancala.redb";

/// Matches in a redb file. A handle: clones share the one open database.
#[derive(Clone)]
pub struct EmbeddedStore(Arc<Redb>);

/// The open database, whose calls block (disk reads, an fsync per commit): the store's async methods run them on
/// tokio's blocking pool ([`EmbeddedStore::off_runtime`]), except the frequent writes, which its writer thread
/// commits ([`EmbeddedStore::write`]).
pub(super) struct Redb {
    handle: Arc<Handle>,
    writes: GroupCommit<Write>,
}

impl std::fmt::Debug for EmbeddedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddedStore")
            .field("path", &self.0.handle.path())
            .finish()
    }
}

/// A failure of the database (redb's errors, a record it holds that cannot be read), as the store reports it: for
/// this file and the modules that keep their tables in it (the writer, the journal, the tenants, the lobby).
pub(super) fn failed(error: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(error.to_string())
}

impl EmbeddedStore {
    /// Opens (creating if needed) `<data_dir>/mancala.redb`. After a crash redb recovers the last
    /// committed state here, which may take a moment on a large file.
    pub fn open(data_dir: &Path) -> Result<EmbeddedStore, StoreError> {
        EmbeddedStore::open_counted(data_dir, None)
    }

    /// [`EmbeddedStore::open`], counting its journal and checkpoints in `metrics`.
    pub fn open_counted(
        data_dir: &Path,
        metrics: Option<Metrics>,
    ) -> Result<EmbeddedStore, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|e| {
            StoreError::Failed(format!(
                "cannot create data directory {}: {e}",
                data_dir.display()
            ))
        })?;
        let path = data_dir.join(FILE_NAME);
        EmbeddedStore::open_on(DataFile { path }, metrics)
    }

    /// The store on `storage`.
    pub(super) fn open_on(
        storage: impl Storage,
        metrics: Option<Metrics>,
    ) -> Result<EmbeddedStore, StoreError> {
        let handle = Arc::new(Handle::open(storage)?);
        let path = handle.path();
        // What a process stopped mid-run left in the journal goes to the match tables before anything else.
        let mut writer = Writer::new(handle.clone(), metrics);
        let moved = writer.checkpoint().map_err(|e| {
            StoreError::Failed(format!(
                "cannot checkpoint the journal of {}: {e}",
                path.display()
            ))
        })?;
        if moved > 0 {
            tracing::info!(moved, path = %path.display(), "moved the journal left by the last run into the match tables");
        }
        let writes = GroupCommit::start("mancala-commit", writer)
            .map_err(|e| StoreError::Failed(format!("cannot start the store's writer: {e}")))?;
        Ok(EmbeddedStore(Arc::new(Redb { handle, writes })))
    }

    /// Commits `write` on the store's writer thread, with whatever other writes wait at the same moment (one
    /// transaction, one fsync): its own result, once durable.
    pub(super) async fn write(&self, write: Write) -> Result<(), StoreError> {
        self.0.writes.submit(write).await
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        self.0.handle.path()
    }

    /// Runs `work` on the database on tokio's blocking pool, so that a disk read or a commit's fsync never holds
    /// an async worker; its answer.
    pub(super) async fn off_runtime<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Redb) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let redb = self.0.clone();
        tokio::task::spawn_blocking(move || work(&redb))
            .await
            .unwrap_or_else(|e| Err(StoreError::Failed(format!("a store task failed: {e}"))))
    }
}

/// Opens (creating if needed) the database at `path` with every table the store reads, so that readers never meet
/// a missing table.
pub(super) fn open_database(path: &Path) -> Result<Database, StoreError> {
    let db = Database::create(path)
        .map_err(|e| StoreError::Failed(format!("cannot open {}: {e}", path.display())))?;
    with_tables(db)
}

/// `db`, with every table the store reads made if it lacked them.
pub(super) fn with_tables(db: Database) -> Result<Database, StoreError> {
    let txn = db.begin_write().map_err(failed)?;
    txn.open_table(MATCHES).map_err(failed)?;
    txn.open_table(EVENTS).map_err(failed)?;
    txn.open_table(JOURNAL).map_err(failed)?;
    txn.open_table(ACTIVE).map_err(failed)?;
    super::tenants::create_embedded_tables(&txn)?;
    super::lobby::create_embedded_tables(&txn)?;
    txn.commit().map_err(failed)?;
    Ok(db)
}

impl Redb {
    /// The database, for one call (the tenants' and the lobby's tables too): an error while it is being reopened
    /// after a storage failure (`super::reopen`).
    pub(super) fn db(&self) -> Result<Arc<Database>, StoreError> {
        self.handle.database()
    }
}

// The match store's calls, as they block, on the database.

/// The unfinished matches counted for `tenant`.
fn unfinished_count(db: &Database, tenant: &str) -> Result<u64, StoreError> {
    let txn = db.begin_read().map_err(failed)?;
    let active = txn.open_table(ACTIVE).map_err(failed)?;
    Ok(active
        .get(tenant)
        .map_err(failed)?
        .map_or(0, |count| count.value()))
}

/// Match `id` with its events after `after` (none for `u64::MAX`: the header alone; all of them, checked whole,
/// for 0), from its tables and the journal, in one read transaction.
fn events_after(
    db: &Database,
    id: &MatchId,
    after: u64,
) -> Result<Option<StoredMatch>, StoreError> {
    let txn = db.begin_read().map_err(failed)?;
    let journaled = journal::of_match(&txn.open_table(JOURNAL).map_err(failed)?, id)?;
    let matches = txn.open_table(MATCHES).map_err(failed)?;
    let record = match journaled.last() {
        Some(newest) => codec::decode_match(*id, &newest.header)?,
        None => match matches.get(id.0.as_slice()).map_err(failed)? {
            Some(header) => codec::decode_match(*id, header.value())?,
            None => return Ok(None),
        },
    };
    let mut events = Vec::new();
    if after < record.version {
        let table = txn.open_table(EVENTS).map_err(failed)?;
        for entry in table
            .range((id.0.as_slice(), after + 1)..=(id.0.as_slice(), u64::MAX))
            .map_err(failed)?
        {
            let (_, value) = entry.map_err(failed)?;
            events.push(codec::decode_event(&record, value.value())?);
        }
        for journaled in journaled.iter().filter(|j| j.seq > after) {
            events.push(codec::decode_event(&record, &journaled.event)?);
        }
    }
    let stored = StoredMatch { record, events };
    if after == 0 {
        whole(id, &stored)?;
    }
    Ok(Some(stored))
}

/// Checks that `stored`, read whole, holds events 1 to its version.
fn whole(id: &MatchId, stored: &StoredMatch) -> Result<(), StoreError> {
    let version = stored.record.version;
    if stored.events.len() as u64 != version
        || stored.events.iter().zip(1..).any(|(e, seq)| e.seq != seq)
    {
        return Err(StoreError::Failed(format!(
            "match {id}: the log holds {} events for version {version}",
            stored.events.len(),
        )));
    }
    Ok(())
}

fn list(db: &Database, query: &ListQuery) -> Result<Vec<MatchRecord>, StoreError> {
    let txn = db.begin_read().map_err(failed)?;
    // A match with journaled moves is listed as its newest header says.
    let newest = journal::newest_headers(&txn.open_table(JOURNAL).map_err(failed)?)?;
    let matches = txn.open_table(MATCHES).map_err(failed)?;
    let mut out = Vec::new();
    let after = query.after.map(|id| id.0);
    let range = match &after {
        Some(after) => matches.range::<&[u8]>(after.as_slice()..).map_err(failed)?,
        None => matches.range::<&[u8]>(..).map_err(failed)?,
    };
    for entry in range {
        if out.len() >= query.limit {
            break;
        }
        let (key, value) = entry.map_err(failed)?;
        let id = MatchId(
            key.value()
                .try_into()
                .map_err(|_| failed("a match key is not 16 bytes"))?,
        );
        if Some(id) == query.after {
            continue;
        }
        let header = newest.get(&id).map_or(value.value(), Vec::as_slice);
        let record = codec::decode_match(id, header)?;
        if query.matches(&record) {
            out.push(record);
        }
    }
    Ok(out)
}

fn purge_finished_before(db: &Database, cutoff_ms: u64) -> Result<Vec<MatchId>, StoreError> {
    let txn = db.begin_write().map_err(failed)?;
    let mut expired = Vec::new();
    {
        // A match with journaled moves is left for a later purge, after the writer's checkpoint: the writer
        // counts on its journaled matches being there.
        let journaled = journal::newest_headers(&txn.open_table(JOURNAL).map_err(failed)?)?;
        let mut matches = txn.open_table(MATCHES).map_err(failed)?;
        for entry in matches.iter().map_err(failed)? {
            let (key, value) = entry.map_err(failed)?;
            let id = MatchId(
                key.value()
                    .try_into()
                    .map_err(|_| failed("a match key is not 16 bytes"))?,
            );
            let record = codec::decode_match(id, value.value())?;
            if record.finished.is_some_and(|f| f.at_ms < cutoff_ms) && !journaled.contains_key(&id)
            {
                expired.push(id);
            }
        }
        let mut events = txn.open_table(EVENTS).map_err(failed)?;
        for id in &expired {
            let key = id.0.as_slice();
            matches.remove(key).map_err(failed)?;
            events
                .retain_in((key, 0)..=(key, u64::MAX), |_, _| false)
                .map_err(failed)?;
        }
    }
    txn.commit().map_err(failed)?;
    Ok(expired)
}

#[async_trait::async_trait]
impl MatchStore for EmbeddedStore {
    async fn create(
        &self,
        record: &MatchRecord,
        max_active: Option<u64>,
    ) -> Result<(), StoreError> {
        // Encoded here, committed by the writer thread with the appends of the moment.
        self.write(Write::Create(Create::new(record, max_active)))
            .await
    }

    async fn unfinished_count(&self, tenant: &str) -> Result<u64, StoreError> {
        let tenant = tenant.to_string();
        self.off_runtime(move |redb| unfinished_count(&*redb.db()?, &tenant))
            .await
    }

    async fn events_after(
        &self,
        id: &MatchId,
        after: u64,
    ) -> Result<Option<StoredMatch>, StoreError> {
        let id = *id;
        self.off_runtime(move |redb| events_after(&*redb.db()?, &id, after))
            .await
    }

    async fn load(&self, id: &MatchId) -> Result<Option<StoredMatch>, StoreError> {
        let id = *id;
        self.off_runtime(move |redb| events_after(&*redb.db()?, &id, 0))
            .await
    }

    async fn append(&self, record: &MatchRecord, event: &EventRecord) -> Result<(), StoreError> {
        // Encoded here, on the caller's thread; appends made at the same time share one transaction and one fsync,
        // on the store's writer thread, and each returns once its own is durable, or with its own refusal.
        self.write(Write::Append(Append::new(record, event))).await
    }

    async fn list(&self, query: &ListQuery) -> Result<Vec<MatchRecord>, StoreError> {
        let query = query.clone();
        self.off_runtime(move |redb| list(&*redb.db()?, &query))
            .await
    }

    async fn purge_finished_before(&self, cutoff_ms: u64) -> Result<Vec<MatchId>, StoreError> {
        // The journal first, so that the matches that finished before the cutoff are all in the tables.
        self.write(Write::Checkpoint).await?;
        self.off_runtime(move |redb| purge_finished_before(&*redb.db()?, cutoff_ms))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GameKind, Move, Player, Sow};
    use crate::store::{Action, Finished};

    use crate::store::tests::record;
    use redb::ReadableTableMetadata as _;

    fn sow(seq: u64, pit: u8) -> EventRecord {
        EventRecord {
            seq,
            player: Player::South,
            action: Action::Move(Move::Sow(Sow::from(pit))),
            request_id: format!("r{seq}"),
            at_ms: seq,
        }
    }

    /// The end of a match South resigned at 50 ms.
    fn south_resigned_at_50() -> Option<Finished> {
        Some(Finished {
            at_ms: 50,
            winner: Some(Player::North),
            resigned: Some(Player::South),
            reason: crate::store::EndReason::Resignation,
        })
    }

    /// The same contract, checked on both stores.
    async fn contract(store: &dyn MatchStore) {
        let mut a = record(1, GameKind::BaAwa);
        store.create(&a, Some(2)).await.unwrap();
        store
            .create(&record(2, GameKind::Bosh), Some(2))
            .await
            .unwrap();
        // The tenant's two unfinished matches are its limit; another tenant's count is its own.
        assert!(matches!(
            store.create(&record(4, GameKind::Bosh), Some(2)).await,
            Err(StoreError::TooManyActive { active: 2 })
        ));
        let other = MatchRecord {
            tenant: "other".into(),
            ..record(5, GameKind::Bosh)
        };
        store.create(&other, Some(1)).await.unwrap();
        assert_eq!(
            store
                .list(&ListQuery {
                    tenant: Some("other".into()),
                    limit: 10,
                    ..Default::default()
                })
                .await
                .unwrap(),
            vec![other.clone()]
        );
        a.version = 1;
        store.append(&a, &sow(1, 3)).await.unwrap();
        // A second append of seq 1 is a conflict and changes nothing.
        assert!(matches!(
            store.append(&a, &sow(1, 4)).await,
            Err(StoreError::Conflict { current: 1 })
        ));
        assert!(matches!(
            store.append(&record(9, GameKind::BaAwa), &sow(1, 4)).await,
            Err(StoreError::NotFound)
        ));
        let loaded = store.load(&a.id).await.unwrap().unwrap();
        assert_eq!(loaded.record, a);
        assert_eq!(loaded.events, vec![sow(1, 3)]);
        assert_eq!(store.load(&MatchId([3; 16])).await.unwrap(), None);

        let all = |query: ListQuery| async move {
            store
                .list(&ListQuery {
                    limit: 10,
                    tenant: Some("acme".into()),
                    ..query
                })
                .await
                .unwrap()
        };
        assert_eq!(all(ListQuery::default()).await.len(), 2);
        assert_eq!(
            all(ListQuery {
                kind: Some(GameKind::Bosh),
                ..Default::default()
            })
            .await[0]
                .id,
            MatchId([2; 16])
        );
        assert_eq!(
            all(ListQuery {
                after: Some(a.id),
                ..Default::default()
            })
            .await
            .len(),
            1
        );
        assert_eq!(
            store
                .list(&ListQuery {
                    limit: 1,
                    tenant: Some("acme".into()),
                    ..Default::default()
                })
                .await
                .unwrap()[0]
                .id,
            a.id
        );

        a.version = 2;
        a.finished = south_resigned_at_50();
        store
            .append(
                &a,
                &EventRecord {
                    action: Action::Resign,
                    ..sow(2, 0)
                },
            )
            .await
            .unwrap();
        assert_eq!(
            all(ListQuery {
                finished: Some(true),
                ..Default::default()
            })
            .await,
            vec![a.clone()]
        );
        // Finished, it no longer counts against the tenant's limit.
        store
            .create(&record(4, GameKind::Bosh), Some(2))
            .await
            .unwrap();
        assert!(store.purge_finished_before(50).await.unwrap().is_empty());
        assert_eq!(store.purge_finished_before(51).await.unwrap(), vec![a.id]);
        assert_eq!(store.load(&a.id).await.unwrap(), None);
        assert_eq!(all(ListQuery::default()).await.len(), 2);
    }

    #[tokio::test]
    async fn memory_store_keeps_the_contract() {
        contract(&crate::store::MemoryStore::new()).await;
    }

    #[tokio::test]
    async fn embedded_store_keeps_the_contract_and_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let store = EmbeddedStore::open(dir.path()).unwrap();
        contract(&store).await;
        drop(store);
        let reopened = EmbeddedStore::open(dir.path()).unwrap();
        assert_eq!(
            reopened
                .list(&ListQuery {
                    limit: 10,
                    ..Default::default()
                })
                .await
                .unwrap()
                .len(),
            3,
            "acme's two and the other tenant's one"
        );
        assert_eq!(
            reopened
                .load(&MatchId([2; 16]))
                .await
                .unwrap()
                .unwrap()
                .record
                .kind,
            GameKind::Bosh
        );
    }

    /// The journal's length now, read from the file.
    fn journal_length(db: &Database) -> u64 {
        let txn = db.begin_read().unwrap();
        txn.open_table(JOURNAL).unwrap().len().unwrap()
    }

    #[test]
    fn reads_take_journaled_appends_before_and_after_their_checkpoint() {
        use crate::store::group_commit::Committer as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let handle = Arc::new(Handle::open(DataFile { path }).unwrap());
        let db = handle.database().unwrap();
        let mut writer = Writer::new(handle, None);
        let mut a = record(1, GameKind::BaAwa);
        let b = record(2, GameKind::Bosh);
        let mut batch = vec![
            Write::Create(Create::new(&a, None)),
            Write::Create(Create::new(&b, None)),
        ];
        a.version = 1;
        batch.push(Write::Append(Append::new(&a, &sow(1, 3))));
        a.version = 2;
        a.finished = south_resigned_at_50();
        batch.push(Write::Append(Append::new(&a, &sow(2, 4))));
        assert!(writer.commit(&batch).iter().all(Result::is_ok));
        let everything = ListQuery {
            limit: 10,
            ..Default::default()
        };
        let reads = || {
            (
                events_after(&db, &a.id, 0).unwrap(),
                events_after(&db, &a.id, 1).unwrap(),
                events_after(&db, &a.id, u64::MAX).unwrap(),
                events_after(&db, &b.id, 0).unwrap(),
                list(&db, &everything).unwrap(),
                unfinished_count(&db, "acme").unwrap(),
            )
        };
        let journaled = reads();
        // The appends wait in the journal (one entry: the batch); the stored header of `a` is still the new match's.
        assert_eq!(journal_length(&db), 1);
        let txn = db.begin_read().unwrap();
        let stored = txn.open_table(MATCHES).unwrap();
        let header = stored.get(a.id.0.as_slice()).unwrap().unwrap();
        assert_eq!(
            codec::decode_match(a.id, header.value()).unwrap().version,
            0
        );
        drop((header, stored, txn));
        // Read as one: the newest header, every event, the finished match out of the tenant's count.
        let (loaded, after_one, header_only, other, listed, unfinished) = &journaled;
        assert_eq!(loaded.as_ref().unwrap().record, a);
        assert_eq!(loaded.as_ref().unwrap().events, vec![sow(1, 3), sow(2, 4)]);
        assert_eq!(after_one.as_ref().unwrap().events, vec![sow(2, 4)]);
        assert_eq!(header_only.as_ref().unwrap().events, vec![]);
        assert_eq!(other.as_ref().unwrap().record, b);
        assert_eq!(listed, &vec![a.clone(), b.clone()]);
        assert_eq!(*unfinished, 1);
        // A purge leaves a journaled match alone (the store checkpoints first).
        assert!(purge_finished_before(&db, 51).unwrap().is_empty());
        assert_eq!(writer.checkpoint().unwrap(), 2);
        assert_eq!(journal_length(&db), 0);
        assert_eq!(reads(), journaled);
        assert_eq!(purge_finished_before(&db, 51).unwrap(), vec![a.id]);
    }

    #[tokio::test]
    async fn a_store_closed_leaves_an_empty_journal_for_any_build() {
        let dir = tempfile::tempdir().unwrap();
        let store = EmbeddedStore::open(dir.path()).unwrap();
        let mut a = record(1, GameKind::BaAwa);
        store.create(&a, None).await.unwrap();
        for seq in 1..=3 {
            a.version = seq;
            store.append(&a, &sow(seq, 2)).await.unwrap();
        }
        drop(store);
        let db = Database::open(dir.path().join(FILE_NAME)).unwrap();
        assert_eq!(journal_length(&db), 0);
        // Read as a build without the journal reads: the tables alone.
        let txn = db.begin_read().unwrap();
        let events = txn.open_table(EVENTS).unwrap();
        assert_eq!(events.len().unwrap(), 3);
        let stored = txn.open_table(MATCHES).unwrap();
        let header = stored.get(a.id.0.as_slice()).unwrap().unwrap();
        assert_eq!(codec::decode_match(a.id, header.value()).unwrap(), a);
    }

    #[test]
    fn a_journal_the_tables_moved_past_is_refused_and_left_as_it_is() {
        use crate::store::group_commit::Committer as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let mut a = record(1, GameKind::BaAwa);
        let handle = Handle::open(DataFile { path: path.clone() }).unwrap();
        let mut writer = Writer::new(Arc::new(handle), None);
        let created = writer.commit(&[Write::Create(Create::new(&a, None))]);
        assert!(created[0].is_ok());
        a.version = 1;
        let appended = writer.commit(&[Write::Append(Append::new(&a, &sow(1, 3)))]);
        assert!(appended[0].is_ok());
        // Killed with move 1 in the journal; a build without the journal then stored a move 1 of its own.
        drop(writer);
        let db = Database::create(&path).unwrap();
        let txn = db.begin_write().unwrap();
        txn.open_table(MATCHES)
            .unwrap()
            .insert(a.id.0.as_slice(), codec::encode_match(&a).as_slice())
            .unwrap();
        txn.open_table(EVENTS)
            .unwrap()
            .insert(
                (a.id.0.as_slice(), 1),
                codec::encode_event(&sow(1, 4)).as_slice(),
            )
            .unwrap();
        txn.commit().unwrap();
        drop(db);
        let refused = EmbeddedStore::open(dir.path()).unwrap_err().to_string();
        assert!(
            refused.contains("event 1 does not follow its stored version 1"),
            "{refused}"
        );
        // Nothing was overwritten: the other build's move and the journal's are both still there.
        let db = Database::open(&path).unwrap();
        assert_eq!(journal_length(&db), 1);
        let txn = db.begin_read().unwrap();
        let events = txn.open_table(EVENTS).unwrap();
        let kept = events.get((a.id.0.as_slice(), 1)).unwrap().unwrap();
        assert_eq!(kept.value(), codec::encode_event(&sow(1, 4)).as_slice());
    }
}
