//! What the embedded store's writer thread commits (`super::group_commit`): the matches' appends and creations and
//! the lobby's appends, whichever arrive together, in one redb write transaction and so one fsync. Every frequent
//! write of the store goes this way: a creation or a lobby append committed on its own would take redb's one write
//! lock and an fsync of its own, and the appends would wait behind it. A match's appends go to the journal
//! (`super::journal`), which the writer moves into the match tables between batches.
//!
//! Each write is checked alone (a stale version, a missing match, a tenant at its limit, a lobby log that moved on)
//! and refused alone, having written nothing; a storage failure fails every write of the batch, since nothing is
//! committed. The bytes are encoded by the caller, on its own thread, so that the one writer thread spends its time
//! on the B-trees and the commit. A storage failure that leaves redb refusing every write (a full disk) makes the
//! writer refuse writes at once, with the cause, until a probe write succeeds and the database is reopened
//! (`super::reopen`), at most once a [`RETRY`].

use super::embedded::{failed, ACTIVE, MATCHES};
use super::group_commit::{Committer, Moment};
use super::journal::{self, Journal, Pending, Progress, Record, CHECKPOINT_AT};
use super::lobby::{LOBBY, LOBBY_LENGTHS};
use super::reopen::Handle;
use super::{codec, EventRecord, MatchId, MatchRecord, StoreError};
use crate::metrics::Metrics;
use redb::{ReadableTable, Table, WriteTransaction};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a writer whose file refuses writes tries to reopen it.
pub(super) const RETRY: Duration = Duration::from_secs(1);

/// One write for the writer thread.
pub(super) enum Write {
    /// A match's next event, with the header it leaves the match with.
    Append(Append),
    /// A new match.
    Create(Create),
    /// Entries of a tenant's lobby log.
    Lobby(LobbyAppend),
    /// The journal moved into the match tables once the batch is committed (before a purge, which leaves journaled
    /// matches alone).
    Checkpoint,
}

/// Event `seq` of match `id`, written only if the match stands at version `seq - 1`.
pub(super) struct Append {
    id: MatchId,
    seq: u64,
    tenant: String,
    /// Whether the header written ends the match (it then leaves its tenant's count of unfinished matches).
    finishes: bool,
    header: Vec<u8>,
    event: Vec<u8>,
}

impl Append {
    /// The append of `event` with `record`, encoded here.
    pub(super) fn new(record: &MatchRecord, event: &EventRecord) -> Append {
        Append {
            id: record.id,
            seq: event.seq,
            tenant: record.tenant.clone(),
            finishes: record.finished.is_some(),
            header: codec::encode_match(record),
            event: codec::encode_event(event),
        }
    }
}

/// A new match, written unless it exists (then nothing is written, and it succeeds: a creation retried), refused
/// when its tenant already has `max_active` unfinished matches.
pub(super) struct Create {
    id: MatchId,
    tenant: String,
    header: Vec<u8>,
    max_active: Option<u64>,
}

impl Create {
    /// The creation of `record`, encoded here.
    pub(super) fn new(record: &MatchRecord, max_active: Option<u64>) -> Create {
        Create {
            id: record.id,
            tenant: record.tenant.clone(),
            header: codec::encode_match(record),
            max_active,
        }
    }
}

/// `entries` appended to `tenant`'s lobby log as entries `first`, `first + 1` …, all or none, if the log holds
/// exactly `first - 1` entries.
pub(super) struct LobbyAppend {
    pub(super) tenant: String,
    pub(super) first: u64,
    pub(super) entries: Vec<Vec<u8>>,
}

/// The writer thread's side of the store: the database and its account of the journal.
pub(super) struct Writer {
    handle: Arc<Handle>,
    journal: Journal,
    /// The journal length at which the next checkpoint after a batch is due: [`CHECKPOINT_AT`], or further after a
    /// failed one (a full disk, say), so that a checkpoint that cannot succeed is not tried after every batch.
    checkpoint_at: u64,
    /// Where the journal's length and the checkpoints are counted, if anywhere.
    metrics: Option<Metrics>,
    /// Since when, and why, the file refuses writes, if it does.
    refused: Option<Refused>,
}

/// A database that refuses writes after a storage failure, until it is reopened.
struct Refused {
    since: Instant,
    cause: String,
    /// When the writer next tries to reopen it.
    next_try: Instant,
}

impl Writer {
    /// The writer of the database in `handle`, whose journal is empty (checkpointed on opening:
    /// [`Writer::checkpoint`]), counting in `metrics`.
    pub(super) fn new(handle: Arc<Handle>, metrics: Option<Metrics>) -> Writer {
        Writer {
            handle,
            journal: Journal::default(),
            checkpoint_at: CHECKPOINT_AT,
            metrics,
            refused: None,
        }
    }

    /// `Ok` if the database takes writes, reopening it first if it refused them and a try is due; else why not.
    fn writable(&mut self) -> Result<(), StoreError> {
        let Some(refused) = &self.refused else {
            return Ok(());
        };
        let now = Instant::now();
        if now < refused.next_try {
            return Err(refusing(&refused.cause));
        }
        let since = refused.since;
        match self.reopen() {
            Ok(moved) => {
                let refused_ms = since.elapsed().as_millis() as u64;
                tracing::warn!(refused_ms, moved, "the store's database was reopened after a storage failure; it takes writes again");
                self.refused = None;
                if let Some(metrics) = &self.metrics {
                    metrics.store_refusing_writes(false);
                    metrics.store_reopened();
                }
                Ok(())
            }
            Err(error) => {
                let refused = self.refused.as_mut().expect("refused above");
                refused.next_try = now + RETRY;
                tracing::debug!(%error, "the store's database cannot be reopened yet");
                Err(refusing(&refused.cause))
            }
        }
    }

    /// Reopens the database, then moves its journal into the tables, which rebuilds the writer's account of it from
    /// the file: a commit that failed may have reached the file or not. How many records moved.
    fn reopen(&mut self) -> Result<u64, StoreError> {
        self.handle.reopen()?;
        self.journal = Journal::default();
        self.checkpoint()
    }

    /// After a failed write or checkpoint: if the database now refuses every write (redb does after a storage
    /// failure), the writer refuses writes too, with `error` as the cause, until a reopen succeeds.
    fn notice(&mut self, error: &StoreError) {
        if self.refused.is_some() || !self.handle.refuses_writes() {
            return;
        }
        tracing::error!(%error, "the store's file refused a write: moves and new matches are refused until a probe write succeeds and the database is reopened (tried every second)");
        let now = Instant::now();
        self.refused = Some(Refused {
            since: now,
            cause: error.to_string(),
            next_try: now + RETRY,
        });
        if let Some(metrics) = &self.metrics {
            metrics.store_refusing_writes(true);
        }
    }

    /// Moves the journal into the match tables, in a transaction of its own: how many records moved.
    pub(super) fn checkpoint(&mut self) -> Result<u64, StoreError> {
        let started = std::time::Instant::now();
        let moved = self.checkpoint_once().inspect_err(|_| {
            if let Some(metrics) = &self.metrics {
                metrics.store_checkpoint_failed();
            }
        })?;
        self.journal.checkpointed();
        self.checkpoint_at = CHECKPOINT_AT;
        if let Some(metrics) = &self.metrics {
            metrics.store_checkpointed(started.elapsed());
            metrics.store_journal_set(0);
        }
        Ok(moved)
    }

    /// One checkpoint's transaction: how many records it moved.
    fn checkpoint_once(&self) -> Result<u64, StoreError> {
        let db = self.handle.database()?;
        let txn = db.begin_write().map_err(failed)?;
        let moved = journal::checkpoint(&txn)?;
        txn.commit().map_err(failed)?;
        Ok(moved)
    }

    /// Commits `batch` in one write transaction: one result per write, in order; every one failed, with the cause,
    /// if the storage failed or refuses writes.
    fn commit_batch(&mut self, batch: &[Write]) -> Vec<Result<(), StoreError>> {
        let committed = self.writable().and_then(|()| self.try_commit(batch));
        committed.unwrap_or_else(|error| {
            self.notice(&error);
            batch.iter().map(|_| Err(error.clone())).collect()
        })
    }

    /// [`Writer::commit_batch`]'s transaction: each write's result, or the storage failure that fails them all.
    fn try_commit(&mut self, batch: &[Write]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let db = self.handle.database()?;
        let txn = db.begin_write().map_err(failed)?;
        let mut pending = self.journal.pending();
        // On an error, dropping the transaction aborts it (and `pending` with it).
        let results = apply(&txn, &self.journal, &mut pending, batch)?;
        pending.write(&txn)?;
        txn.commit().map_err(failed)?;
        self.journal.committed(pending);
        if let Some(metrics) = &self.metrics {
            metrics.store_journal_set(self.journal.records());
        }
        Ok(results)
    }
}

impl Committer<Write> for Writer {
    /// Commits `batch`: one result per write, in order.
    fn commit(&mut self, batch: &[Write]) -> Vec<Result<(), StoreError>> {
        let mut results = self.commit_batch(batch);
        // Asked for (before a purge): in a transaction of its own once the batch is durable, so that its failure is
        // the asker's alone.
        if batch.iter().any(|w| matches!(w, Write::Checkpoint)) {
            let checkpointed = self.checkpoint().map_err(|e| {
                self.notice(&e);
                e.to_string()
            });
            for (result, write) in results.iter_mut().zip(batch) {
                if let (Write::Checkpoint, Ok(()), Err(message)) = (write, &result, &checkpointed) {
                    *result = Err(StoreError::Failed(message.clone()));
                }
            }
        }
        results
    }

    /// Checkpoints once the journal is long, when the writer is quiet, and as it stops: no caller waits for it (a
    /// batch arriving meanwhile waits, and is the larger for it). A failed checkpoint changes nothing; the next
    /// quiet spell tries again, and so does the batch that takes the journal [`CHECKPOINT_AT`] appends further.
    fn tidy(&mut self, moment: Moment) {
        if self.refused.is_some() {
            // A quiet writer reopens the database as soon as it can, not only when the next write comes (the reopen
            // checkpoints too).
            if moment != Moment::AfterBatch {
                let _ = self.writable();
            }
            return;
        }
        let records = self.journal.records();
        let due = match moment {
            Moment::AfterBatch => records >= self.checkpoint_at,
            Moment::Quiet | Moment::Closing => records > 0,
        };
        if due {
            if let Err(error) = self.checkpoint() {
                self.checkpoint_at = records + CHECKPOINT_AT;
                tracing::error!(%error, ?moment, records, "the store's journal could not be checkpointed; it stays, and is read");
                self.notice(&error);
            }
        }
    }
}

/// The answer to a write while the database refuses writes after `cause`: unavailable, as nothing was written and
/// the write may be sent again.
fn refusing(cause: &str) -> StoreError {
    StoreError::Unavailable(format!(
        "the store's file refuses writes since a storage failure ({cause}); they are taken again once it can be \
         written (tried every second)"
    ))
}

/// An open table keyed by `K` with values `V`.
type Open<'t, K, V> = Option<Table<'t, K, V>>;

/// The tables a batch writes, each opened when a write first needs it, and the journal it appends to.
struct Tables<'t> {
    txn: &'t WriteTransaction,
    journal: &'t Journal,
    pending: &'t mut Pending,
    matches: Open<'t, &'static [u8], &'static [u8]>,
    active: Open<'t, &'static str, u64>,
    /// A tenant's lobby entries, by (tenant, seq).
    lobby: Open<'t, (&'static str, u64), &'static [u8]>,
    lobby_lengths: Open<'t, &'static str, u64>,
}

/// Opens `definition` in `slot` unless it is open: the table.
macro_rules! opened {
    ($tables:ident . $slot:ident, $definition:expr) => {{
        if $tables.$slot.is_none() {
            $tables.$slot = Some($tables.txn.open_table($definition).map_err(failed)?);
        }
        $tables.$slot.as_mut().expect("opened above")
    }};
}

/// Applies each write of `batch` that its check allows, inside `txn`: the results, or the storage failure that
/// fails them all.
fn apply(
    txn: &WriteTransaction,
    journal: &Journal,
    pending: &mut Pending,
    batch: &[Write],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut tables = Tables {
        txn,
        journal,
        pending,
        matches: None,
        active: None,
        lobby: None,
        lobby_lengths: None,
    };
    batch
        .iter()
        .map(|write| match write {
            Write::Append(append) => tables.append(append),
            Write::Create(create) => tables.create(create),
            Write::Lobby(lobby) => tables.lobby_append(lobby),
            Write::Checkpoint => Ok(Ok(())),
        })
        .collect()
}

impl Tables<'_> {
    /// The unfinished matches counted for `tenant`.
    fn active_count(&mut self, tenant: &str) -> Result<u64, StoreError> {
        let active = opened!(self.active, ACTIVE);
        Ok(active
            .get(tenant)
            .map_err(failed)?
            .map_or(0, |count| count.value()))
    }

    /// Where match `id` stands: by the journal if it holds the match's newest events, else by its stored header
    /// (`None`: no such match).
    fn progress(&mut self, id: &MatchId) -> Result<Option<Progress>, StoreError> {
        if let Some(progress) = self.pending.progress(self.journal, id) {
            return Ok(Some(progress));
        }
        let matches = opened!(self.matches, MATCHES);
        let header = matches.get(id.0.as_slice()).map_err(failed)?;
        header
            .map(|header| journal::progress_of(*id, header.value()))
            .transpose()
    }

    fn append(&mut self, append: &Append) -> Result<Result<(), StoreError>, StoreError> {
        // Only the version and whether the match is over: the rest of the stored header is not needed here.
        let Some(Progress { version, finished }) = self.progress(&append.id)? else {
            return Ok(Err(StoreError::NotFound));
        };
        if version + 1 != append.seq {
            return Ok(Err(StoreError::Conflict { current: version }));
        }
        if !finished && append.finishes {
            let count = self.active_count(&append.tenant)?;
            opened!(self.active, ACTIVE)
                .insert(append.tenant.as_str(), count.saturating_sub(1))
                .map_err(failed)?;
        }
        let record = Record {
            id: append.id,
            seq: append.seq,
            header: &append.header,
            event: &append.event,
        };
        let progress = Progress {
            version: append.seq,
            finished: finished || append.finishes,
        };
        self.pending.append(&record, progress);
        Ok(Ok(()))
    }

    fn create(&mut self, create: &Create) -> Result<Result<(), StoreError>, StoreError> {
        let key = create.id.0.as_slice();
        if opened!(self.matches, MATCHES)
            .get(key)
            .map_err(failed)?
            .is_some()
        {
            return Ok(Ok(()));
        }
        let count = self.active_count(&create.tenant)?;
        if create.max_active.is_some_and(|max| count >= max) {
            return Ok(Err(StoreError::TooManyActive { active: count }));
        }
        opened!(self.active, ACTIVE)
            .insert(create.tenant.as_str(), count + 1)
            .map_err(failed)?;
        opened!(self.matches, MATCHES)
            .insert(key, create.header.as_slice())
            .map_err(failed)?;
        Ok(Ok(()))
    }

    fn lobby_append(&mut self, append: &LobbyAppend) -> Result<Result<(), StoreError>, StoreError> {
        let tenant = append.tenant.as_str();
        let lengths = opened!(self.lobby_lengths, LOBBY_LENGTHS);
        let length = lengths
            .get(tenant)
            .map_err(failed)?
            .map_or(0, |length| length.value());
        if length + 1 != append.first {
            return Ok(Err(StoreError::Conflict { current: length }));
        }
        lengths
            .insert(tenant, length + append.entries.len() as u64)
            .map_err(failed)?;
        let log = opened!(self.lobby, LOBBY);
        for (seq, bytes) in (append.first..).zip(&append.entries) {
            log.insert((tenant, seq), bytes.as_slice())
                .map_err(failed)?;
        }
        Ok(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameKind;
    use crate::store::tests::{record, sow};
    use crate::store::{EmbeddedStore, LobbyStore, MatchStore};

    /// `record` of `id` at `version`, as the append of event `version` leaves it.
    fn at(id: u8, version: u64) -> MatchRecord {
        MatchRecord {
            version,
            ..record(id, GameKind::BaAwa)
        }
    }

    fn lobby(first: u64, entry: &str) -> Write {
        Write::Lobby(LobbyAppend {
            tenant: "acme".into(),
            first,
            entries: vec![entry.as_bytes().to_vec()],
        })
    }

    /// A writer on a new database in `dir`, as the store's writer thread has it, without the store: each
    /// `commit` one batch, one transaction.
    fn writer(dir: &std::path::Path) -> Writer {
        counted_writer(dir, None)
    }

    /// [`writer`], counting in `metrics`.
    fn counted_writer(dir: &std::path::Path, metrics: Option<Metrics>) -> Writer {
        let path = dir.join(crate::store::embedded::FILE_NAME);
        let handle = Handle::open(super::super::reopen::DataFile { path }).unwrap();
        Writer::new(Arc::new(handle), metrics)
    }

    /// Writes `header` as match `id`'s stored header, straight into `matches` (as another build, or a damaged page,
    /// would leave it).
    fn put_header(writer: &Writer, id: &MatchId, header: &[u8]) {
        let db = writer.handle.database().unwrap();
        let txn = db.begin_write().unwrap();
        txn.open_table(MATCHES)
            .unwrap()
            .insert(id.0.as_slice(), header)
            .unwrap();
        txn.commit().unwrap();
    }

    /// The value of the series `name` in `metrics`' text.
    fn series(metrics: &Metrics, name: &str) -> f64 {
        let text = metrics.render();
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no {name} in {text}"))
            .parse()
            .unwrap()
    }

    #[test]
    fn the_journal_and_its_checkpoints_are_counted() {
        let dir = tempfile::tempdir().unwrap();
        let metrics = Metrics::new();
        let mut writer = counted_writer(dir.path(), Some(metrics.clone()));
        let results = writer.commit(&[
            Write::Create(Create::new(&record(1, GameKind::BaAwa), None)),
            Write::Append(Append::new(&at(1, 1), &sow(1))),
            Write::Append(Append::new(&at(1, 2), &sow(2))),
        ]);
        assert!(results.iter().all(Result::is_ok), "{results:?}");
        assert_eq!(series(&metrics, "mancala_store_journal_moves"), 2.0);
        writer.tidy(Moment::Quiet);
        assert_eq!(series(&metrics, "mancala_store_journal_moves"), 0.0);
        assert_eq!(
            series(&metrics, "mancala_store_checkpoint_seconds_count"),
            1.0
        );
        // The tables moved past the journal: the checkpoint fails, and is counted.
        let next = writer.commit(&[Write::Append(Append::new(&at(1, 3), &sow(3)))]);
        assert!(next[0].is_ok());
        put_header(&writer, &MatchId([1; 16]), &codec::encode_match(&at(1, 3)));
        writer.tidy(Moment::Quiet);
        assert_eq!(
            series(&metrics, "mancala_store_checkpoint_failures_total"),
            1.0
        );
        assert_eq!(series(&metrics, "mancala_store_journal_moves"), 1.0);
    }

    #[tokio::test]
    async fn one_batch_holds_creations_appends_and_lobby_entries_each_refused_alone() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = writer(dir.path());
        let results = writer.commit(&[
            Write::Create(Create::new(&record(1, GameKind::BaAwa), Some(2))),
            // The same creation again (retried) changes nothing and succeeds.
            Write::Create(Create::new(&record(1, GameKind::BaAwa), Some(2))),
            // An append sees the creation and the appends before it in its batch.
            Write::Append(Append::new(&at(1, 1), &sow(1))),
            Write::Append(Append::new(&at(1, 1), &sow(1))),
            Write::Append(Append::new(&at(1, 2), &sow(2))),
            Write::Append(Append::new(&at(9, 1), &sow(1))),
            Write::Create(Create::new(&record(2, GameKind::Bosh), Some(2))),
            Write::Create(Create::new(&record(3, GameKind::Bosh), Some(2))),
            lobby(1, "first"),
            lobby(1, "again"),
            lobby(2, "second"),
        ]);
        let refusals: Vec<_> = results.iter().map(|r| r.as_ref().err()).collect();
        assert!(matches!(
            refusals[..],
            [
                None,
                None,
                None,
                Some(StoreError::Conflict { current: 1 }),
                None,
                Some(StoreError::NotFound),
                None,
                Some(StoreError::TooManyActive { active: 2 }),
                None,
                Some(StoreError::Conflict { current: 1 }),
                None,
            ]
        ));
        // The next batch checks against the journal: match 1 stands at 2.
        let again = writer.commit(&[Write::Append(Append::new(&at(1, 2), &sow(2)))]);
        assert!(matches!(
            again[..],
            [Err(StoreError::Conflict { current: 2 })]
        ));
        // Stopped without a checkpoint, as a killed process: the appends wait in the journal, and the store's
        // opening moves them.
        drop(writer);
        // What was accepted was committed; nothing that was refused was written.
        let store = EmbeddedStore::open(dir.path()).unwrap();
        let first = store.load(&MatchId([1; 16])).await.unwrap().unwrap();
        assert_eq!(
            (first.record.version, first.events),
            (2, vec![sow(1), sow(2)])
        );
        assert!(store.load(&MatchId([2; 16])).await.unwrap().is_some());
        assert_eq!(store.load(&MatchId([3; 16])).await.unwrap(), None);
        assert_eq!(store.load(&MatchId([9; 16])).await.unwrap(), None);
        assert_eq!(store.unfinished_count("acme").await.unwrap(), 2);
        let entries = store.lobby_read("acme", 0, 10).await.unwrap();
        let bytes: Vec<_> = entries
            .iter()
            .map(|e| (e.seq, e.bytes.as_slice()))
            .collect();
        assert_eq!(bytes, vec![(1, &b"first"[..]), (2, &b"second"[..])]);
    }

    #[tokio::test]
    async fn a_storage_failure_fails_every_write_of_its_batch_and_commits_none() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = writer(dir.path());
        let setup = writer.commit(&[
            Write::Create(Create::new(&record(1, GameKind::BaAwa), None)),
            Write::Append(Append::new(&at(1, 1), &sow(1))),
            lobby(1, "kept"),
        ]);
        assert!(setup.iter().all(Result::is_ok), "{setup:?}");
        // A header the codec cannot read: reading it fails the transaction, as a damaged page would.
        put_header(&writer, &MatchId([5; 16]), &[0xff, 0xff, 0xff]);
        let results = writer.commit(&[
            Write::Create(Create::new(&record(2, GameKind::Bosh), None)),
            Write::Append(Append::new(&at(1, 2), &sow(2))),
            lobby(2, "lost"),
            Write::Append(Append::new(&at(5, 1), &sow(1))),
            Write::Append(Append::new(&at(1, 3), &sow(3))),
        ]);
        assert_eq!(results.len(), 5);
        for result in &results {
            assert!(
                matches!(result, Err(StoreError::Failed(message)) if message.contains("match 0505")),
                "{result:?}"
            );
        }
        // The writer goes on, its journal as before the failed batch: match 1 stands at 1, so 2 is next.
        let next = writer.commit(&[Write::Append(Append::new(&at(1, 2), &sow(2)))]);
        assert!(next[0].is_ok(), "{next:?}");
        drop(writer);
        let store = EmbeddedStore::open(dir.path()).unwrap();
        let first = store.load(&MatchId([1; 16])).await.unwrap().unwrap();
        assert_eq!(first.events, vec![sow(1), sow(2)]);
        assert_eq!(store.load(&MatchId([2; 16])).await.unwrap(), None);
        assert_eq!(store.lobby_read("acme", 0, 10).await.unwrap().len(), 1);
    }

    #[test]
    fn a_checkpoint_that_fails_fails_alone() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = writer(dir.path());
        let setup = writer.commit(&[
            Write::Create(Create::new(&record(1, GameKind::BaAwa), None)),
            Write::Create(Create::new(&record(2, GameKind::BaAwa), None)),
            Write::Append(Append::new(&at(1, 1), &sow(1))),
        ]);
        assert!(setup.iter().all(Result::is_ok), "{setup:?}");
        // Match 1's stored header moved past its journaled move 1 (as another build would leave it).
        put_header(&writer, &MatchId([1; 16]), &codec::encode_match(&at(1, 1)));
        let results = writer.commit(&[
            Write::Checkpoint,
            Write::Append(Append::new(&at(2, 1), &sow(1))),
        ]);
        assert!(
            matches!(&results[0], Err(StoreError::Failed(m)) if m.contains("does not follow")),
            "{results:?}"
        );
        assert!(results[1].is_ok(), "{results:?}");
        // The append was committed, to the journal, and the writer goes on.
        let next = writer.commit(&[Write::Append(Append::new(&at(2, 2), &sow(2)))]);
        assert!(next[0].is_ok(), "{next:?}");
        // A quiet spell's checkpoint fails too, and puts the next one after a batch a whole journal further.
        writer.tidy(Moment::Quiet);
        assert_eq!(writer.journal.records(), 3);
        assert_eq!(writer.checkpoint_at, 3 + CHECKPOINT_AT);
    }
}
