//! The embedded store's database, reopened in place after a storage failure.
//!
//! Why: once a write to its file has failed (a full disk, an I/O error), redb refuses every later transaction
//! ("Previous I/O error occurred") until the database is closed and opened again. Without this, a disk that filled
//! up for a minute would leave the server refusing every move and every new match until someone restarted it. The
//! store's writer thread notices the failure (`super::embedded_writes`), and once a probe write to the data
//! directory succeeds again, closes the database and opens it anew: redb finds its last commit, as after a crash,
//! and the writer moves whatever the journal holds into the match tables before it takes writes again.
//!
//! A write refused meanwhile was not acknowledged; one whose commit failed after its bytes reached the file may still
//! be found there after the reopen, as after a crash: its caller was told it failed, not that it did not happen (the
//! matches' version checks and request ids sort that out, as for any failed call).

use super::embedded::{failed, open_database};
use super::StoreError;
use redb::{Database, StorageError, TransactionError};
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

/// How long a reopen waits for the readers still holding the old database to finish.
const READERS_WAIT: Duration = Duration::from_secs(1);

/// The bytes a probe writes and syncs: enough that a disk with no room refuses them.
const PROBE_BYTES: usize = 1 << 20;

/// Where the database lives: how to open it, and whether it takes writes.
pub(super) trait Storage: Send + Sync + 'static {
    /// Opens the database, creating it and its tables if needed.
    fn open(&self) -> Result<Database, StoreError>;

    /// Whether writes can succeed again: `Ok` once a probe write and its sync did.
    fn probe(&self) -> Result<(), StoreError>;

    /// The database file, as errors and logs name it.
    fn path(&self) -> &Path;
}

/// The database file `path` (`<data_dir>/mancala.redb`).
pub(super) struct DataFile {
    pub(super) path: PathBuf,
}

impl Storage for DataFile {
    fn open(&self) -> Result<Database, StoreError> {
        open_database(&self.path)
    }

    fn probe(&self) -> Result<(), StoreError> {
        use std::io::Write as _;
        let probe = self.path.with_extension("redb.probe");
        let written = std::fs::File::create(&probe).and_then(|mut file| {
            file.write_all(&vec![0; PROBE_BYTES])?;
            file.sync_data()
        });
        let _ = std::fs::remove_file(&probe);
        written.map_err(|e| failed(format!("{} cannot be written: {e}", probe.display())))
    }

    fn path(&self) -> &Path {
        &self.path
    }
}

/// The open database, shared by the store's readers and its writer thread, which alone replaces it ([`Handle::reopen`]).
pub(super) struct Handle {
    current: RwLock<Option<Arc<Database>>>,
    storage: Box<dyn Storage>,
}

/// The answer of a read or write that comes while the database is closed for a reopen.
fn reopening() -> StoreError {
    failed("the database is being reopened after a storage failure")
}

impl Handle {
    /// Opens the database of `storage`.
    pub(super) fn open(storage: impl Storage) -> Result<Handle, StoreError> {
        let db = storage.open()?;
        Ok(Handle {
            current: RwLock::new(Some(Arc::new(db))),
            storage: Box::new(storage),
        })
    }

    /// The database file.
    pub(super) fn path(&self) -> &Path {
        self.storage.path()
    }

    /// The database, for one call: dropped when it is done, so that a reopen never waits long.
    pub(super) fn database(&self) -> Result<Arc<Database>, StoreError> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .ok_or_else(reopening)
    }

    /// Whether the database refuses writes for an earlier storage failure (so that only a reopen helps), rather than
    /// for a cause of one transaction's own. Closed for a reopen counts too.
    pub(super) fn refuses_writes(&self) -> bool {
        let Ok(db) = self.database() else {
            return true;
        };
        let refused = matches!(
            db.begin_write(),
            Err(TransactionError::Storage(StorageError::PreviousIo))
        );
        refused
    }

    /// Closes the database and opens it again, once the storage takes writes ([`Storage::probe`]): an error, the
    /// database left as it was, if the probe fails or a reader holds the old one longer than [`READERS_WAIT`]; an
    /// error, the database closed until the next try, if opening it fails.
    pub(super) fn reopen(&self) -> Result<(), StoreError> {
        self.storage.probe()?;
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(old) = current.take() {
            match alone(old) {
                // redb closes the file (and lets go of its lock) when the last handle is dropped.
                Ok(old) => drop(old),
                Err(old) => {
                    *current = Some(old);
                    return Err(failed(
                        "a reader held the database too long to reopen it; tried again later",
                    ));
                }
            }
        }
        *current = Some(Arc::new(self.storage.open()?));
        Ok(())
    }
}

/// `db` once no reader holds it any more, or back if one still does after [`READERS_WAIT`].
fn alone(mut db: Arc<Database>) -> Result<Database, Arc<Database>> {
    let deadline = Instant::now() + READERS_WAIT;
    loop {
        match Arc::try_unwrap(db) {
            Ok(db) => return Ok(db),
            Err(shared) if Instant::now() < deadline => {
                db = shared;
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(shared) => return Err(shared),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameKind;
    use crate::store::embedded::{with_tables, FILE_NAME};
    use crate::store::tests::{record, sow};
    use crate::store::{EmbeddedStore, MatchRecord, MatchStore};
    use redb::backends::FileBackend;
    use redb::StorageBackend;
    use std::io;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// What the disk does: refuse every write and sync (`full`), or only the syncs (`syncs_fail`: the bytes reach
    /// the file, their durability is unknown).
    #[derive(Clone, Debug, Default)]
    struct Disk {
        full: Arc<AtomicBool>,
        syncs_fail: Arc<AtomicBool>,
    }

    /// A full disk's refusal while `flag` is set.
    fn refused_while(flag: &AtomicBool) -> io::Result<()> {
        match flag.load(Ordering::SeqCst) {
            true => Err(io::Error::from(io::ErrorKind::StorageFull)),
            false => Ok(()),
        }
    }

    impl Disk {
        fn write(&self) -> io::Result<()> {
            refused_while(&self.full)
        }

        fn sync(&self) -> io::Result<()> {
            refused_while(&self.full)?;
            refused_while(&self.syncs_fail)
        }
    }

    /// The database file on `disk`.
    #[derive(Debug)]
    struct OnDisk {
        file: FileBackend,
        disk: Disk,
    }

    impl StorageBackend for OnDisk {
        fn len(&self) -> io::Result<u64> {
            self.file.len()
        }

        fn read(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
            self.file.read(offset, len)
        }

        fn set_len(&self, len: u64) -> io::Result<()> {
            self.disk.write()?;
            self.file.set_len(len)
        }

        fn sync_data(&self, eventual: bool) -> io::Result<()> {
            self.disk.sync()?;
            self.file.sync_data(eventual)
        }

        fn write(&self, offset: u64, data: &[u8]) -> io::Result<()> {
            self.disk.write()?;
            self.file.write(offset, data)
        }
    }

    struct Flaky {
        path: PathBuf,
        disk: Disk,
    }

    impl Storage for Flaky {
        fn open(&self) -> Result<Database, StoreError> {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&self.path)
                .map_err(failed)?;
            let backend = OnDisk {
                file: FileBackend::new(file).map_err(failed)?,
                disk: self.disk.clone(),
            };
            with_tables(
                redb::Builder::new()
                    .create_with_backend(backend)
                    .map_err(failed)?,
            )
        }

        fn probe(&self) -> Result<(), StoreError> {
            self.disk.write().map_err(failed)
        }

        fn path(&self) -> &Path {
            &self.path
        }
    }

    /// A store on `disk` in `dir`, holding a Ba-awa match at version 1.
    async fn store_with_a_match(
        dir: &std::path::Path,
        disk: &Disk,
    ) -> (EmbeddedStore, MatchRecord) {
        let storage = Flaky {
            path: dir.join(FILE_NAME),
            disk: disk.clone(),
        };
        let store = EmbeddedStore::open_on(storage, None).unwrap();
        let mut a = record(1, GameKind::BaAwa);
        store.create(&a, None).await.unwrap();
        a.version = 1;
        store.append(&a, &sow(1)).await.unwrap();
        (store, a)
    }

    /// What `error` says.
    fn said(error: StoreError) -> String {
        error.to_string()
    }

    #[tokio::test]
    async fn a_full_disk_refuses_writes_with_its_cause_until_it_has_room_then_the_store_takes_them_again(
    ) {
        let dir = tempfile::tempdir().unwrap();
        let disk = Disk::default();
        let (store, mut a) = store_with_a_match(dir.path(), &disk).await;
        disk.full.store(true, Ordering::SeqCst);
        a.version = 2;
        let failed = said(store.append(&a, &sow(2)).await.unwrap_err());
        assert!(failed.contains("storage"), "{failed}");
        // Refused at once now, naming the cause, without touching the file (redb would refuse anyway): unavailable,
        // as nothing was written and the write may be sent again.
        let refused = store.append(&a, &sow(2)).await.unwrap_err();
        assert!(matches!(refused, StoreError::Unavailable(_)), "{refused:?}");
        let refused = said(refused);
        assert!(
            refused.contains("refuses writes since a storage failure"),
            "{refused}"
        );
        assert!(refused.contains("no storage space"), "{refused}");
        let b = record(2, GameKind::Bosh);
        let creation = said(store.create(&b, None).await.unwrap_err());
        assert!(creation.contains("refuses writes"), "{creation}");
        // Room again: the next write after the retry interval reopens the database and is taken.
        disk.full.store(false, Ordering::SeqCst);
        std::thread::sleep(crate::store::embedded_writes::RETRY);
        store.append(&a, &sow(2)).await.unwrap();
        store.create(&b, None).await.unwrap();
        let stored = store.load(&a.id).await.unwrap().unwrap();
        assert_eq!((stored.record.version, stored.events.len()), (2, 2));
        // And it is all on disk, for a store opened on the file as the server opens it.
        drop(store);
        let again = EmbeddedStore::open(dir.path()).unwrap();
        assert_eq!(again.load(&a.id).await.unwrap().unwrap().record.version, 2);
        assert!(again.load(&b.id).await.unwrap().is_some());
    }

    #[tokio::test]
    async fn a_commit_whose_sync_failed_is_found_or_not_after_the_reopen_never_half() {
        let dir = tempfile::tempdir().unwrap();
        let disk = Disk::default();
        let (store, mut a) = store_with_a_match(dir.path(), &disk).await;
        disk.syncs_fail.store(true, Ordering::SeqCst);
        a.version = 2;
        assert!(store.append(&a, &sow(2)).await.is_err());
        disk.syncs_fail.store(false, Ordering::SeqCst);
        std::thread::sleep(crate::store::embedded_writes::RETRY);
        // Its caller was told it failed; the file may hold it (its bytes reached it) or not. Either way the match
        // reads whole, and the move sent again is taken or found there already.
        let retried = store.append(&a, &sow(2)).await;
        assert!(
            matches!(retried, Ok(()) | Err(StoreError::Conflict { current: 2 })),
            "{retried:?}"
        );
        let stored = store.load(&a.id).await.unwrap().unwrap();
        assert_eq!((stored.record.version, stored.events.len()), (2, 2));
    }

    #[tokio::test]
    async fn a_disk_still_full_leaves_the_database_open_for_the_next_try() {
        let dir = tempfile::tempdir().unwrap();
        let disk = Disk::default();
        let (store, mut a) = store_with_a_match(dir.path(), &disk).await;
        disk.full.store(true, Ordering::SeqCst);
        a.version = 2;
        assert!(store.append(&a, &sow(2)).await.is_err());
        // A try while the probe still fails changes nothing: the same refusal, and the old database kept.
        std::thread::sleep(crate::store::embedded_writes::RETRY);
        let refused = said(store.append(&a, &sow(2)).await.unwrap_err());
        assert!(refused.contains("refuses writes"), "{refused}");
        disk.full.store(false, Ordering::SeqCst);
        std::thread::sleep(crate::store::embedded_writes::RETRY);
        store.append(&a, &sow(2)).await.unwrap();
    }
}
