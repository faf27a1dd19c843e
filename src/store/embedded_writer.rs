//! The embedded store's writer thread's own state (`super::group_commit` runs it): how a batch of writes
//! (`super::embedded_writes`) becomes durable. The batch's accepted writes are appended to the write-ahead log
//! (`super::write_log`, `<data_dir>/mancala.wal`) and fdatasync'ed, then redb commits them without an fsync
//! (`Durability::None`); every [`CHECKPOINT_BATCHES`] batches, or once the log holds [`CHECKPOINT_BYTES`], the
//! batch's commit is a durable one instead (a checkpoint), after which the log is emptied. A move is thus on disk
//! before its answer either way: in the log, or in redb's durable commit.
//!
//! Why: a durable redb commit writes back and fsyncs the fifty-odd pages a batch dirties (copy-on-write B-trees,
//! two tables), which was half of the writer's time and most of a batch's wait (BENCHMARKS.md, "The embedded store:
//! where a durable move's time goes"); the log's fdatasync is of one page or a few. The file's layout does not
//! change, so a file of an earlier version opens as it is.
//!
//! Every batch's transaction records its number in the `write_log` table (key `applied`), so any durable commit,
//! the writer's or another's (the tenants', a purge), says which log records it holds. Opening the store replays
//! the records after that number, in order, through the same checks, in one durable commit, and empties the log.
//! A process killed at any instant loses no acknowledged write: before the log's fdatasync returned nothing was
//! answered; after it, the record is replayed unless a durable commit already holds it; a torn last record was never
//! answered and is dropped.

use super::embedded_writes::{self, Write};
use super::logged_writes;
use super::write_log::WriteLog;
use super::StoreError;
use redb::{Database, Durability, TableDefinition, WriteTransaction};
use std::path::Path;
use std::sync::Arc;

/// The number of the last log record that redb's state holds (key [`APPLIED`]).
pub(super) const WRITE_LOG: TableDefinition<&str, u64> = TableDefinition::new("write_log");
const APPLIED: &str = "applied";

/// The log's file name inside the data directory.
pub const LOG_FILE_NAME: &str = "mancala.wal";

/// Batches logged between two durable commits. Non-durable commits free no page, so the file grows by each batch's
/// pages until the next durable commit; the checkpoint then writes them back in one fsync, which the appends wait
/// for. A few dozen batches keep that pause a few milliseconds and the growth a few MiB.
pub(super) const CHECKPOINT_BATCHES: u64 = 32;
/// The log's bytes past which the next batch is a checkpoint, whatever the count (large lobby entries).
pub(super) const CHECKPOINT_BYTES: u64 = 4 << 20;
/// The log file's size, written with zeros once: what the log can hold before a checkpoint, so that it never grows.
const LOG_SIZE: u64 = CHECKPOINT_BYTES + 4096;

fn failed(error: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(error.to_string())
}

/// The writer thread's log, and the number of the next record.
pub(super) struct Writer {
    db: Arc<Database>,
    log: WriteLog,
    /// The number the next batch takes (its log record's, and its `applied`).
    next: u64,
    /// Batches logged since the last durable commit.
    logged: u64,
}

/// Records in `txn` that redb's state holds every log record up to `number`.
fn set_applied(txn: &WriteTransaction, number: u64) -> Result<(), StoreError> {
    txn.open_table(WRITE_LOG)
        .map_err(failed)?
        .insert(APPLIED, number)
        .map_err(failed)?;
    Ok(())
}

impl Writer {
    /// Opens the log at `path` beside `db` (whose tables exist), replays the records the last durable commit lacks,
    /// and commits them durably: the writer, its log empty.
    pub(super) fn open(db: Arc<Database>, path: &Path) -> Result<Writer, StoreError> {
        let (log, records) = WriteLog::open(path, LOG_SIZE).map_err(failed)?;
        let applied = {
            let txn = db.begin_read().map_err(failed)?;
            let table = txn.open_table(WRITE_LOG).map_err(failed)?;
            let applied = table.get(APPLIED).map_err(failed)?;
            applied.map_or(0, |number| number.value())
        };
        let txn = db.begin_write().map_err(failed)?;
        let mut next = applied + 1;
        let mut replayed = 0;
        for record in records.iter().filter(|r| r.number > applied) {
            if record.number != next {
                return Err(StoreError::Failed(format!(
                    "{}: the log goes on at record {} but the store holds records up to {applied}: \
                     a record is missing",
                    path.display(),
                    record.number
                )));
            }
            let writes = logged_writes::decode(&record.payload)?;
            let results = embedded_writes::apply(&txn, &writes)?;
            if let Some(refusal) = results.iter().find_map(|r| r.as_ref().err()) {
                return Err(StoreError::Failed(format!(
                    "{}: replaying record {next}, a write was refused ({refusal}): the log and the store disagree",
                    path.display()
                )));
            }
            replayed += writes.len();
            next += 1;
        }
        set_applied(&txn, next - 1)?;
        txn.commit().map_err(failed)?;
        if replayed > 0 {
            tracing::info!(
                writes = replayed,
                records = next - 1 - applied,
                "replayed the write log after an unclean stop"
            );
        }
        let mut writer = Writer {
            db,
            log,
            next,
            logged: 0,
        };
        writer.log.empty();
        Ok(writer)
    }

    /// Commits `batch`: each write checked alone and refused alone; the accepted ones durable (in the log, or in a
    /// durable commit) before this returns. One result per write, in order; a storage failure fails them all.
    pub(super) fn commit(&mut self, batch: &[Write]) -> Vec<Result<(), StoreError>> {
        match self.try_commit(batch) {
            Ok(results) => results,
            Err(error) => {
                let message = error.to_string();
                batch
                    .iter()
                    .map(|_| Err(StoreError::Failed(message.clone())))
                    .collect()
            }
        }
    }

    fn try_commit(&mut self, batch: &[Write]) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let mut txn = self.db.begin_write().map_err(failed)?;
        // A failure drops the transaction, which aborts it.
        let results = embedded_writes::apply(&txn, batch)?;
        let mut payload = Vec::new();
        for (write, result) in batch.iter().zip(&results) {
            if result.is_ok() {
                logged_writes::encode(write, &mut payload);
            }
        }
        if payload.is_empty() {
            // Every write refused: nothing to commit.
            return Ok(results);
        }
        let number = self.next;
        set_applied(&txn, number)?;
        if self.logged + 1 >= CHECKPOINT_BATCHES
            || self.log.len() + payload.len() as u64 >= CHECKPOINT_BYTES
        {
            self.checkpoint(txn)?;
        } else {
            self.log.append(number, &payload).map_err(failed)?;
            txn.set_durability(Durability::None);
            if let Err(e) = txn.commit() {
                // The record must not be replayed: its batch is answered with a failure.
                self.log.take_back(payload.len()).map_err(|back| {
                    StoreError::Failed(format!(
                        "{e}; and taking its log record back failed: {back}"
                    ))
                })?;
                return Err(failed(e));
            }
            self.logged += 1;
        }
        self.next += 1;
        Ok(results)
    }

    /// Commits `txn` durably, then empties the log, whose records that commit holds.
    fn checkpoint(&mut self, txn: WriteTransaction) -> Result<(), StoreError> {
        txn.commit().map_err(failed)?;
        self.logged = 0;
        self.log.empty();
        Ok(())
    }
}

impl Drop for Writer {
    /// A clean stop leaves every write in redb's durable state and the log empty, so that the file alone is the
    /// store (an earlier version can open it).
    fn drop(&mut self) {
        if self.logged == 0 {
            return;
        }
        let stopped = self
            .db
            .begin_write()
            .map_err(failed)
            .and_then(|txn| {
                set_applied(&txn, self.next - 1)?;
                Ok(txn)
            })
            .and_then(|txn| self.checkpoint(txn));
        if let Err(e) = stopped {
            tracing::error!(error = %e, "the last checkpoint failed: the write log will be replayed on opening");
        }
    }
}

#[cfg(test)]
impl Writer {
    /// The writer of the store in `dir`, as `EmbeddedStore::open` makes it, for committing batches by hand.
    pub(super) fn open_in(dir: &Path) -> Writer {
        let db = super::embedded::open_database(&dir.join(super::embedded::FILE_NAME)).unwrap();
        Writer::open(db, &dir.join(LOG_FILE_NAME)).unwrap()
    }

    /// Its database.
    pub(super) fn db(&self) -> &Database {
        &self.db
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{GameKind, Move, Player, Sow};
    use crate::store::embedded::{EVENTS, FILE_NAME, MATCHES};
    use crate::store::embedded_writes::{Append, Create, LobbyAppend};
    use crate::store::tests::record;
    use crate::store::{
        codec, Action, EmbeddedStore, EventRecord, LobbyStore, MatchId, MatchRecord, MatchStore,
    };

    fn sow(seq: u64) -> EventRecord {
        EventRecord {
            seq,
            player: Player::South,
            action: Action::Move(Move::Sow(Sow::from(2))),
            request_id: format!("r{seq}"),
            at_ms: seq,
        }
    }

    fn at(version: u64) -> MatchRecord {
        MatchRecord {
            version,
            ..record(1, GameKind::BaAwa)
        }
    }

    fn append(seq: u64) -> Write {
        Write::Append(Append::new(&at(seq), &sow(seq)))
    }

    fn payload(writes: &[Write]) -> Vec<u8> {
        let mut out = Vec::new();
        for write in writes {
            logged_writes::encode(write, &mut out);
        }
        out
    }

    fn all_ok(results: Vec<Result<(), StoreError>>) {
        assert!(results.iter().all(Result::is_ok), "{results:?}");
    }

    /// Match 1 created and moved once, in batch 1, stopped cleanly: the file holds records up to 1.
    fn stopped_store(dir: &Path) {
        let mut writer = Writer::open_in(dir);
        all_ok(writer.commit(&[
            Write::Create(Create::new(&record(1, GameKind::BaAwa), None)),
            append(1),
        ]));
    }

    async fn version_and_events(store: &EmbeddedStore) -> (u64, Vec<EventRecord>) {
        let stored = store.load(&MatchId([1; 16])).await.unwrap().unwrap();
        (stored.record.version, stored.events)
    }

    #[tokio::test]
    async fn the_records_after_the_last_durable_commit_are_replayed_once_and_a_torn_one_dropped() {
        let dir = tempfile::tempdir().unwrap();
        stopped_store(dir.path());
        // What a kill leaves: record 1 (held by the file already: the checkpoint's commit happened, emptying the
        // log did not), records 2 and 3 (fdatasync'ed and answered, redb's commits of them not durable), and record
        // 4 torn in the middle of its append (never answered).
        let path = dir.path().join(LOG_FILE_NAME);
        let (mut log, _) = WriteLog::open(&path, LOG_SIZE).unwrap();
        log.empty();
        log.append(
            1,
            &payload(&[
                Write::Create(Create::new(&record(1, GameKind::BaAwa), None)),
                append(1),
            ]),
        )
        .unwrap();
        log.append(2, &payload(&[append(2)])).unwrap();
        let lobby = Write::Lobby(LobbyAppend {
            tenant: "acme".into(),
            first: 1,
            entries: vec![b"entry".to_vec()],
        });
        log.append(3, &payload(&[append(3), lobby])).unwrap();
        let torn = crate::store::write_log::frame(4, &payload(&[append(4)]));
        log.tear(&torn[..torn.len() - 7]);
        drop(log);

        let store = EmbeddedStore::open(dir.path()).unwrap();
        assert_eq!(
            version_and_events(&store).await,
            (3, vec![sow(1), sow(2), sow(3)])
        );
        assert_eq!(store.lobby_read("acme", 0, 10).await.unwrap().len(), 1);
        // The next move is record 4's number again, and lands.
        store.append(&at(4), &sow(4)).await.unwrap();
        drop(store);
        let store = EmbeddedStore::open(dir.path()).unwrap();
        assert_eq!(version_and_events(&store).await.0, 4);
    }

    #[tokio::test]
    async fn a_log_missing_a_record_or_of_a_newer_format_is_refused_clearly() {
        let dir = tempfile::tempdir().unwrap();
        stopped_store(dir.path());
        let path = dir.path().join(LOG_FILE_NAME);
        let (mut log, _) = WriteLog::open(&path, LOG_SIZE).unwrap();
        log.empty();
        log.append(3, &payload(&[append(3)])).unwrap();
        drop(log);
        let error = EmbeddedStore::open(dir.path()).unwrap_err().to_string();
        assert!(error.contains("a record is missing"), "{error}");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[8] = 9;
        std::fs::write(&path, &bytes).unwrap();
        let error = EmbeddedStore::open(dir.path()).unwrap_err().to_string();
        assert!(
            error.contains("format 9, newer than this server's 1"),
            "{error}"
        );
    }

    #[tokio::test]
    async fn a_file_of_the_layout_before_the_log_opens_with_every_match() {
        // What the store wrote before the log existed: the same tables, no `write_log`, no mancala.wal.
        let dir = tempfile::tempdir().unwrap();
        {
            let db = Database::create(dir.path().join(FILE_NAME)).unwrap();
            let txn = db.begin_write().unwrap();
            let header = at(2);
            txn.open_table(MATCHES)
                .unwrap()
                .insert(
                    [1u8; 16].as_slice(),
                    codec::encode_match(&header).as_slice(),
                )
                .unwrap();
            let mut events = txn.open_table(EVENTS).unwrap();
            for seq in 1..=2 {
                events
                    .insert(
                        ([1u8; 16].as_slice(), seq),
                        codec::encode_event(&sow(seq)).as_slice(),
                    )
                    .unwrap();
            }
            drop(events);
            txn.commit().unwrap();
        }
        let store = EmbeddedStore::open(dir.path()).unwrap();
        assert_eq!(version_and_events(&store).await, (2, vec![sow(1), sow(2)]));
        store.append(&at(3), &sow(3)).await.unwrap();
        drop(store);
        let store = EmbeddedStore::open(dir.path()).unwrap();
        assert_eq!(version_and_events(&store).await.0, 3);
    }

    #[tokio::test]
    async fn checkpoints_empty_the_log_and_every_batch_survives_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOG_FILE_NAME);
        let mut writer = Writer::open_in(dir.path());
        all_ok(writer.commit(&[Write::Create(Create::new(
            &record(1, GameKind::BaAwa),
            None,
        ))]));
        let mut longest = 0;
        for seq in 1..=CHECKPOINT_BATCHES * 2 + 3 {
            all_ok(writer.commit(&[append(seq)]));
            longest = longest.max(writer.log.len());
            if (seq + 1) % CHECKPOINT_BATCHES == 0 {
                assert_eq!(writer.log.len(), 0, "after {seq}");
            }
        }
        assert!(longest > 0);
        // A refused write is not logged.
        let before = writer.log.len();
        assert!(writer.commit(&[append(1)])[0].is_err());
        assert_eq!(writer.log.len(), before);
        // The file never grows.
        assert_eq!(std::fs::metadata(&path).unwrap().len(), LOG_SIZE);
        drop(writer);
        let store = EmbeddedStore::open(dir.path()).unwrap();
        let (version, events) = version_and_events(&store).await;
        assert_eq!(version, CHECKPOINT_BATCHES * 2 + 3);
        assert_eq!(events.len() as u64, version);
    }
}
