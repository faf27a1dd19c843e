//! The embedded store's write-ahead log, `<data_dir>/mancala.wal`: what makes a batch of the writer's writes durable
//! before redb has it on disk. Each batch is one record written and fdatasync'ed (a page or a few, against the
//! fifty-odd pages and the fsync of a durable redb commit); redb commits it without an fsync, and every so often
//! commits durably (a checkpoint), after which the log starts again from its beginning. On opening, the records that
//! the last durable commit does not hold are replayed (`super::embedded_writer`).
//!
//! The file is written once with zeros to its full size and then overwritten, never grown: an fdatasync of a block
//! already allocated has no size or extent to commit, so it is the record's page and a cache flush, not a journal
//! commit (which, with ext4's ordered data, would also write back every page redb wrote since the last one).
//!
//! The file: a 12-byte head (`MNCLWLOG`, then the format's version, little-endian u32), then records, each
//!
//! ```text
//! length u32 | number u64 | checksum of the length and number u32 | payload (length bytes) | checksum of the payload u32
//! ```
//!
//! little-endian, the checksums CRC-32 (IEEE). The numbers of a round follow each other (n, n + 1, …) and only grow
//! from round to round, so the log ends at the first record that is unreadable, fails its checksum or does not follow
//! its predecessor: what lies beyond is zeros, the rest of an earlier round (whose records a durable commit holds), or
//! the last record torn by a crash (written but never answered). A record that fails its checksum although the next
//! one follows it in sequence is damage, not a crash: the store refuses to open rather than drop what follows.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"MNCLWLOG";
/// The format this build writes and reads.
pub const FORMAT: u32 = 1;
/// The head's length: the magic and the format.
const HEAD: u64 = 12;
/// A record's bytes around its payload: length, number and their checksum before it, the payload's checksum after.
const FRAME: usize = 4 + 8 + 4 + 4;
/// The largest payload a record may declare: far above any batch (a batch of a thousand moves is under 300 KiB), so
/// that a damaged length is caught before it is believed.
const MAX_PAYLOAD: u32 = 256 << 20;

/// Why the log could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The file is not a write log.
    #[error("{0} is not a mancala write log (its first bytes are not MNCLWLOG)")]
    NotALog(String),
    /// The file was written by a newer server, whose records this one cannot read.
    #[error(
        "{path} is a write log of format {format}, newer than this server's {FORMAT}: \
         open the data directory with the version of mancala that wrote it (it empties the log when it stops)"
    )]
    Newer {
        /// The file.
        path: String,
        /// The format it declares.
        format: u32,
    },
    /// A record inside the log is damaged: what follows it cannot be trusted, nor dropped.
    #[error("{path}: the record at byte {at} is damaged ({why}), and {after} bytes follow it")]
    Damaged {
        /// The file.
        path: String,
        /// The record's offset.
        at: u64,
        /// What is wrong with it.
        why: String,
        /// The bytes after it.
        after: u64,
    },
    /// Reading or writing the file failed.
    #[error("{0}")]
    Io(String),
}

/// A record read back: its number and payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Its number.
    pub number: u64,
    /// Its payload.
    pub payload: Vec<u8>,
}

/// What a log's records read: the sound records in order, and where they end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered {
    /// The records.
    pub records: Vec<Record>,
    /// The offset just past the last sound record.
    pub end: u64,
}

/// CRC-32 (IEEE, reflected), table-driven.
fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    !bytes.iter().fold(!0u32, |c, &b| {
        TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8)
    })
}

/// The bytes a log file begins with.
pub fn head() -> Vec<u8> {
    let mut head = MAGIC.to_vec();
    head.extend_from_slice(&FORMAT.to_le_bytes());
    head
}

/// The bytes of record `number` holding `payload`.
pub fn frame(number: u64, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(FRAME + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&number.to_le_bytes());
    out.extend_from_slice(&crc32(&out).to_le_bytes());
    out.extend_from_slice(payload);
    out.extend_from_slice(&crc32(payload).to_le_bytes());
    out
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

/// The length and number in the head of the record `bytes` begin with, if its head is whole and sound.
fn record_head(bytes: &[u8]) -> Option<(u32, u64)> {
    if bytes.len() < 16 || crc32(&bytes[..12]) != u32_at(bytes, 12) {
        return None;
    }
    let number = u64::from_le_bytes(bytes[4..12].try_into().expect("eight bytes"));
    Some((u32_at(bytes, 0), number))
}

/// Reads the records of a whole log file's bytes (`name` for the errors). Never panics, whatever the bytes.
pub fn read(name: &str, bytes: &[u8]) -> Result<Recovered, LogError> {
    if bytes.len() < HEAD as usize {
        // A file whose head was never written whole: created by a crash, it holds nothing.
        if MAGIC.starts_with(&bytes[..bytes.len().min(MAGIC.len())]) {
            return Ok(Recovered {
                records: Vec::new(),
                end: HEAD,
            });
        }
        return Err(LogError::NotALog(name.to_string()));
    }
    if &bytes[..8] != MAGIC {
        return Err(LogError::NotALog(name.to_string()));
    }
    let format = u32_at(bytes, 8);
    if format != FORMAT {
        return Err(LogError::Newer {
            path: name.to_string(),
            format,
        });
    }
    let mut records: Vec<Record> = Vec::new();
    let mut at = HEAD as usize;
    while let Some((length, number)) = record_head(&bytes[at..]) {
        let rest = &bytes[at..];
        // Another round's record, or a length no record has: the log ended before it.
        let follows = records
            .last()
            .is_none_or(|last| number == last.number.wrapping_add(1));
        if !follows || length > MAX_PAYLOAD {
            break;
        }
        let end = FRAME + length as usize;
        if rest.len() < end {
            break;
        }
        let payload = &rest[16..16 + length as usize];
        if crc32(payload) != u32_at(rest, end - 4) {
            if record_head(&rest[end..]).is_some_and(|(_, next)| next == number.wrapping_add(1)) {
                return Err(LogError::Damaged {
                    path: name.to_string(),
                    at: at as u64,
                    why: "its payload fails its checksum".into(),
                    after: (rest.len() - end) as u64,
                });
            }
            // The last record, torn.
            break;
        }
        records.push(Record {
            number,
            payload: payload.to_vec(),
        });
        at += end;
    }
    Ok(Recovered {
        records,
        end: at as u64,
    })
}

/// The open log, written by the store's writer thread alone.
#[derive(Debug)]
pub(super) struct WriteLog {
    file: File,
    path: PathBuf,
    /// Where the next record goes.
    end: u64,
    /// Why the log must not be written to again (a record could not be taken back: what the file holds after the
    /// log's end is no longer known), once that happened.
    unusable: Option<String>,
}

fn io(path: &Path, what: &str, error: std::io::Error) -> LogError {
    LogError::Io(format!("cannot {what} {}: {error}", path.display()))
}

impl WriteLog {
    /// Opens (creating if needed) the log at `path`, written with zeros to at least `size` bytes: the log, and the
    /// records it holds. It is written from its end until [`WriteLog::empty`].
    pub(super) fn open(path: &Path, size: u64) -> Result<(WriteLog, Vec<Record>), LogError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| io(path, "open", e))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| io(path, "read", e))?;
        let recovered = read(&path.display().to_string(), &bytes)?;
        let log = WriteLog {
            file,
            path: path.to_path_buf(),
            end: recovered.end,
            unusable: None,
        };
        if bytes.len() < HEAD as usize {
            log.write_head()?;
        }
        log.fill_to(bytes.len().max(HEAD as usize) as u64, size)?;
        Ok((log, recovered.records))
    }

    /// Writes the head of a new log, durably, with the directory entry of the file.
    fn write_head(&self) -> Result<(), LogError> {
        self.file
            .set_len(0)
            .and_then(|()| self.file.write_all_at(&head(), 0))
            .and_then(|()| self.file.sync_all())
            .map_err(|e| io(&self.path, "write the head of", e))?;
        if let Some(dir) = self.path.parent() {
            File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(|e| io(dir, "sync the directory", e))?;
        }
        Ok(())
    }

    /// Writes zeros from `from` to `size`, durably, so that the records written there later allocate nothing.
    fn fill_to(&self, from: u64, size: u64) -> Result<(), LogError> {
        if from >= size {
            return Ok(());
        }
        let zeros = vec![0u8; 1 << 20];
        let mut at = from;
        while at < size {
            let n = (size - at).min(zeros.len() as u64);
            self.file
                .write_all_at(&zeros[..n as usize], at)
                .map_err(|e| io(&self.path, "fill", e))?;
            at += n;
        }
        self.file.sync_all().map_err(|e| io(&self.path, "fill", e))
    }

    /// Writes record `number` at the log's end and waits until it is on disk. On failure the log is as it was (what
    /// was written is made unreadable), or, if even that failed, the error says so and the log is not written again.
    pub(super) fn append(&mut self, number: u64, payload: &[u8]) -> Result<(), LogError> {
        self.usable()?;
        let bytes = frame(number, payload);
        let written = self
            .file
            .write_all_at(&bytes, self.end)
            .and_then(|()| self.file.sync_data());
        match written {
            Ok(()) => {
                self.end += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                let error = io(&self.path, "append to", e);
                self.unwrite(self.end, bytes.len()).map_err(|undo| {
                    LogError::Io(format!(
                        "{error}, and making the record unreadable failed: {undo}"
                    ))
                })?;
                Err(error)
            }
        }
    }

    /// Takes back the last record written, of `length` payload bytes (its batch was not committed after all).
    pub(super) fn take_back(&mut self, length: usize) -> Result<(), LogError> {
        self.usable()?;
        let at = self.end - (FRAME + length) as u64;
        self.unwrite(at, FRAME + length)?;
        self.end = at;
        Ok(())
    }

    /// Zeros the `length` bytes of the record at `at`, durably, so that the log ends there and no later record torn
    /// over it can borrow its bytes. If that fails, what the file holds there is unknown, and the log is not written
    /// again.
    fn unwrite(&mut self, at: u64, length: usize) -> Result<(), LogError> {
        let zeroed = self
            .file
            .write_all_at(&vec![0; length], at)
            .and_then(|()| self.file.sync_data());
        if let Err(e) = zeroed {
            let error = io(&self.path, "take a record back from", e);
            self.unusable = Some(error.to_string());
            return Err(error);
        }
        Ok(())
    }

    /// An error if the log must not be written to again.
    fn usable(&self) -> Result<(), LogError> {
        match &self.unusable {
            None => Ok(()),
            Some(why) => Err(LogError::Io(format!(
                "the write log is not written to since this failure (restart the server): {why}"
            ))),
        }
    }

    /// Starts the log again from its beginning: every record it holds is in redb's last durable commit. Nothing is
    /// written: the records left in the file are numbered below any written next, so none continues their sequence.
    pub(super) fn empty(&mut self) {
        self.end = HEAD;
    }

    /// The bytes of records the log holds.
    pub(super) fn len(&self) -> u64 {
        self.end - HEAD
    }

    /// Writes `bytes` at the log's end without moving it: a record torn by a crash.
    #[cfg(test)]
    pub(super) fn tear(&self, bytes: &[u8]) {
        self.file.write_all_at(bytes, self.end).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_of(records: &[(u64, &[u8])]) -> Vec<u8> {
        let mut bytes = head();
        for (number, payload) in records {
            bytes.extend(frame(*number, payload));
        }
        bytes
    }

    fn numbers(recovered: &Recovered) -> Vec<u64> {
        recovered.records.iter().map(|r| r.number).collect()
    }

    #[test]
    fn crc32_is_the_ieee_one() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn records_read_back_in_order() {
        let bytes = log_of(&[(7, b"seven"), (8, b""), (9, b"nine")]);
        let recovered = read("log", &bytes).unwrap();
        assert_eq!(numbers(&recovered), vec![7, 8, 9]);
        assert_eq!(recovered.records[2].payload, b"nine");
        assert_eq!(recovered.end, bytes.len() as u64);
    }

    #[test]
    fn a_torn_last_record_ends_the_log_wherever_it_was_cut() {
        let whole = log_of(&[(1, b"first"), (2, b"the second record")]);
        let first_end = log_of(&[(1, b"first")]).len();
        for cut in first_end..whole.len() {
            let recovered = read("log", &whole[..cut]).unwrap();
            assert_eq!(numbers(&recovered), vec![1], "cut at {cut}");
            assert_eq!(recovered.end, first_end as u64);
        }
        // Zeros where the last record's pages never reached the disk.
        let mut zeroed = whole.clone();
        zeroed[first_end..].fill(0);
        assert_eq!(numbers(&read("log", &zeroed).unwrap()), vec![1]);
        // Its payload written only in part, the file's length already there.
        let mut partial = whole.clone();
        let last = partial.len() - 3;
        partial[last] ^= 0xff;
        assert_eq!(numbers(&read("log", &partial).unwrap()), vec![1]);
    }

    #[test]
    fn damage_before_the_end_is_refused_not_dropped() {
        let mut bytes = log_of(&[(1, b"first"), (2, b"second")]);
        bytes[HEAD as usize + 17] ^= 0xff;
        assert!(matches!(
            read("log", &bytes),
            Err(LogError::Damaged { at: 12, .. })
        ));
        // A record out of sequence is an earlier round's: the log ended before it.
        let bytes = log_of(&[(1, b"first"), (3, b"third")]);
        assert_eq!(numbers(&read("log", &bytes).unwrap()), vec![1]);
    }

    #[test]
    fn a_log_of_a_newer_format_or_another_file_is_refused_clearly() {
        let mut bytes = log_of(&[(1, b"first")]);
        bytes[8] = 2;
        let error = read("mancala.wal", &bytes).unwrap_err();
        assert!(matches!(error, LogError::Newer { format: 2, .. }));
        assert!(error
            .to_string()
            .contains("format 2, newer than this server's 1"));
        assert!(matches!(
            read("x", b"SQLite format 3\0"),
            Err(LogError::NotALog(_))
        ));
        // A head cut short by a crash at creation is an empty log.
        assert_eq!(read("x", b"MNCL").unwrap().records, vec![]);
    }

    #[test]
    fn the_file_is_filled_once_then_written_over_round_after_round() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mancala.wal");
        let (mut log, records) = WriteLog::open(&path, 4096).unwrap();
        assert!(records.is_empty());
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 4096);
        log.append(1, b"one").unwrap();
        log.append(2, b"two").unwrap();
        log.append(3, b"three").unwrap();
        log.take_back(5).unwrap();
        // A crash in the middle of record 3's append.
        log.tear(&frame(3, b"three")[..20]);
        drop(log);
        let (mut log, records) = WriteLog::open(&path, 4096).unwrap();
        assert_eq!(
            records.iter().map(|r| r.number).collect::<Vec<_>>(),
            vec![1, 2]
        );
        // Opened, the log goes on after its last sound record.
        log.append(3, b"three").unwrap();
        assert_eq!(log.len(), (3 * FRAME + 11) as u64);
        // A second round, shorter than the first: what is left of the first is not read as part of it.
        log.empty();
        assert_eq!(log.len(), 0);
        log.append(4, b"four, longer than one").unwrap();
        drop(log);
        let (_, records) = WriteLog::open(&path, 4096).unwrap();
        assert_eq!(
            records.iter().map(|r| r.number).collect::<Vec<_>>(),
            vec![4]
        );
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 4096);
    }
}
