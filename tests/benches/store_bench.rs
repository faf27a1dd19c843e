//! The embedded store's layouts against a durable move's cost, on redb alone (issue 43; ignored: a measurement,
//! not a test). One thread commits batches of `STORE_BENCH_BATCH` moves (64: the scale bench's clients, each its own
//! match, in lock-step), a header (~190 bytes) rewritten and an event (~30 bytes) added per move, a match replaced
//! by a new one after 80 moves, for `STORE_BENCH_BATCHES` batches, in each layout:
//!
//! - `two tables, immediate`: the store as it was: `matches` (id → header) and `events` ((id, seq) → event), one
//!   durable redb commit (fsync) a batch;
//! - `one table, immediate`: lever (a), a match's header at (id, 0) and its events at (id, seq) in one table;
//! - `two tables, log`: lever (b), the batch appended to a log file and fdatasync'ed, the redb commit non-durable,
//!   with a durable one every `STORE_BENCH_CHECKPOINT` batches (the log then emptied);
//! - `two tables, prealloc log`: the same, the log a file of zeros written once and overwritten from its start after
//!   each checkpoint, so that an append's fdatasync commits no size or extent change;
//! - `journal, checkpointed`: the store today (`src/store/journal.rs`): a batch's moves one entry of a `journal`
//!   table under consecutive numbers, one durable commit a batch, the journal moved into the two tables once it
//!   holds `STORE_BENCH_JOURNAL_MOVES` moves (1,024, as the store);
//! - `log alone (the floor)`: no redb, each batch written at the end of a preallocated file and fdatasync'ed: what a
//!   log of our own would cost before its checkpoints into redb.
//!
//! Each row: the committing thread's CPU µs a move (utime + stime from /proc/thread-self), the bytes it wrote a
//! batch (`/proc/thread-self/io`, so 4 KiB pages), and the batches a second.
//!
//! ```sh
//! cargo test --release --test benches store_bench -- --ignored --nocapture
//! ```

use redb::{Database, Durability, ReadableTable, TableDefinition};
use std::io::Write as _;
use std::time::Instant;

const MATCHES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("matches");
const EVENTS: TableDefinition<(&[u8], u64), &[u8]> = TableDefinition::new("events");
const JOURNAL: TableDefinition<u64, &[u8]> = TableDefinition::new("journal");

fn env_or(name: &str, default: u64) -> u64 {
    crate::scale_bench::env_or(name, default)
}

/// (CPU seconds, bytes written) of the calling thread so far.
fn thread_costs() -> (f64, u64) {
    let cpu = crate::scale_bench::cpu_in(
        &std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default(),
    );
    let io = std::fs::read_to_string("/proc/thread-self/io").unwrap_or_default();
    let written = io
        .lines()
        .find_map(|l| l.strip_prefix("write_bytes: "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    (cpu, written)
}

#[derive(Clone, Copy, PartialEq)]
enum Layout {
    TwoTablesImmediate,
    OneTableImmediate,
    TwoTablesLog,
    TwoTablesPreallocatedLog,
    Journal,
    LogAlone,
}

/// A pseudo-random 16-byte id.
fn id(n: u64) -> [u8; 16] {
    let mut x = n.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xdead_beef;
    let mut out = [0; 16];
    for chunk in out.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        chunk.copy_from_slice(&x.to_le_bytes());
    }
    out
}

/// The floor of a log of our own: each batch's records written at the end of a preallocated file and fdatasync'ed,
/// no B-tree at all (what a store would still add: its checkpoints into redb).
fn log_alone(file: &std::fs::File, batch: u64, batches: u64) {
    use std::os::unix::fs::FileExt;
    let header = vec![7u8; 190];
    let event = vec![3u8; 30];
    let mut slots = Slots::new(batch);
    let mut at = 0u64;
    for _ in 0..batches {
        let mut record = Vec::new();
        for _ in 0..batch {
            let (key, seq) = slots.next_move();
            record.extend_from_slice(&key);
            record.extend_from_slice(&seq.to_le_bytes());
            record.extend_from_slice(&header);
            record.extend_from_slice(&event);
        }
        if at + record.len() as u64 > 64 << 20 {
            at = 0;
        }
        file.write_all_at(&record, at).unwrap();
        file.sync_data().unwrap();
        at += record.len() as u64;
    }
}

/// `batch` matches moving in turn, each replaced by a new one after 80 moves: the scale bench's clients.
struct Slots {
    ids: Vec<u64>,
    seqs: Vec<u64>,
    next_id: u64,
    turn: usize,
}

impl Slots {
    fn new(batch: u64) -> Slots {
        Slots {
            ids: (0..batch).collect(),
            seqs: vec![0; batch as usize],
            next_id: batch,
            turn: 0,
        }
    }

    /// The next slot's match and the seq of its next move.
    fn next_move(&mut self) -> ([u8; 16], u64) {
        let slot = self.turn;
        self.turn = (self.turn + 1) % self.ids.len();
        if self.seqs[slot] == 80 {
            self.ids[slot] = self.next_id;
            self.next_id += 1;
            self.seqs[slot] = 0;
        }
        self.seqs[slot] += 1;
        (id(self.ids[slot]), self.seqs[slot])
    }
}

/// The journal layout, as the store has it (`src/store/journal.rs`): a batch's moves one entry of `journal` under
/// the next number (its rightmost leaf), the versions of journaled matches kept by the writer; every `checkpoint`
/// moves, one transaction moves the journal into `matches` (each match's newest header once) and `events`, and
/// empties it.
fn journal(db: &Database, batch: u64, batches: u64, checkpoint: u64) {
    let header = vec![7u8; 190];
    let event = vec![3u8; 30];
    let mut slots = Slots::new(batch);
    let mut versions = std::collections::HashMap::<[u8; 16], u64>::new();
    let mut moves = 0u64;
    for number in 0..batches {
        let txn = db.begin_write().unwrap();
        {
            let matches = txn.open_table(MATCHES).unwrap();
            let mut journal = txn.open_table(JOURNAL).unwrap();
            let mut entry = vec![1u8];
            for _ in 0..batch {
                let (key, seq) = slots.next_move();
                if !versions.contains_key(&key) {
                    let _ = matches.get(key.as_slice()).unwrap().map(|v| v.value()[0]);
                }
                versions.insert(key, seq);
                entry.extend_from_slice(&key);
                entry.extend_from_slice(&seq.to_le_bytes());
                entry.extend_from_slice(&(header.len() as u32).to_le_bytes());
                entry.extend_from_slice(&(event.len() as u32).to_le_bytes());
                entry.extend_from_slice(&header);
                entry.extend_from_slice(&event);
            }
            journal.insert(number, entry.as_slice()).unwrap();
        }
        txn.commit().unwrap();
        moves += batch;
        if moves >= checkpoint {
            moves = 0;
            checkpoint_journal(db, header.len());
            versions.clear();
        }
    }
}

/// Moves the journal's entries (records with headers of `header_len` bytes) into `matches` and `events`.
fn checkpoint_journal(db: &Database, header_len: usize) {
    let txn = db.begin_write().unwrap();
    {
        let journal = txn.open_table(JOURNAL).unwrap();
        let mut matches = txn.open_table(MATCHES).unwrap();
        let mut events = txn.open_table(EVENTS).unwrap();
        let mut newest = std::collections::HashMap::<[u8; 16], Vec<u8>>::new();
        for entry in journal.iter().unwrap() {
            let (_, value) = entry.unwrap();
            let mut rest = &value.value()[1..];
            while !rest.is_empty() {
                let key: [u8; 16] = rest[..16].try_into().unwrap();
                let seq = u64::from_le_bytes(rest[16..24].try_into().unwrap());
                let event_len = u32::from_le_bytes(rest[28..32].try_into().unwrap()) as usize;
                let (header, tail) = rest[32..].split_at(header_len);
                events
                    .insert((key.as_slice(), seq), &tail[..event_len])
                    .unwrap();
                newest.insert(key, header.to_vec());
                rest = &tail[event_len..];
            }
        }
        for (key, header) in &newest {
            matches.insert(key.as_slice(), header.as_slice()).unwrap();
        }
    }
    txn.delete_table(JOURNAL).unwrap();
    txn.commit().unwrap();
}

fn run(layout: Layout, batch: u64, batches: u64, checkpoint: u64) {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path().join("bench.redb")).unwrap();
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.path().join("bench.log"))
        .unwrap();
    // A log written once with zeros and then overwritten from its start: its appends change no file size or extent,
    // so their fdatasync has no metadata to commit.
    let preallocated = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(dir.path().join("bench.prealloc"))
        .unwrap();
    let mut at = 0u64;
    if matches!(layout, Layout::TwoTablesPreallocatedLog | Layout::LogAlone) {
        use std::os::unix::fs::FileExt;
        let zeros = vec![0u8; 1 << 20];
        for mib in 0..64 {
            preallocated.write_all_at(&zeros, mib << 20).unwrap();
        }
        preallocated.sync_all().unwrap();
    }
    let header = vec![7u8; 190];
    let event = vec![3u8; 30];
    let mut slots = Slots::new(batch);
    let (cpu0, written0) = thread_costs();
    let start = Instant::now();
    if layout == Layout::LogAlone {
        log_alone(&preallocated, batch, batches);
    }
    if layout == Layout::Journal {
        journal(
            &db,
            batch,
            batches,
            env_or("STORE_BENCH_JOURNAL_MOVES", 1024),
        );
    }
    for b in (0..batches).filter(|_| !matches!(layout, Layout::Journal | Layout::LogAlone)) {
        let mut txn = db.begin_write().unwrap();
        let with_log = matches!(
            layout,
            Layout::TwoTablesLog | Layout::TwoTablesPreallocatedLog
        );
        let logged = with_log && (b + 1) % checkpoint != 0;
        if logged {
            txn.set_durability(Durability::None);
        }
        let mut record = Vec::new();
        {
            let mut matches = txn.open_table(MATCHES).unwrap();
            let mut events = txn.open_table(EVENTS).unwrap();
            for _ in 0..batch {
                let (key, seq) = slots.next_move();
                match layout {
                    Layout::OneTableImmediate => {
                        // The header at seq 0, read for its version first as the store does.
                        let _ = events
                            .get((key.as_slice(), 0))
                            .unwrap()
                            .map(|v| v.value()[0]);
                        events
                            .insert((key.as_slice(), 0), header.as_slice())
                            .unwrap();
                    }
                    _ => {
                        let _ = matches.get(key.as_slice()).unwrap().map(|v| v.value()[0]);
                        matches.insert(key.as_slice(), header.as_slice()).unwrap();
                    }
                }
                events
                    .insert((key.as_slice(), seq), event.as_slice())
                    .unwrap();
                if logged {
                    record.extend_from_slice(&key);
                    record.extend_from_slice(&seq.to_le_bytes());
                    record.extend_from_slice(&header);
                    record.extend_from_slice(&event);
                }
            }
        }
        if logged && layout == Layout::TwoTablesPreallocatedLog {
            use std::os::unix::fs::FileExt;
            preallocated.write_all_at(&record, at).unwrap();
            preallocated.sync_data().unwrap();
            at += record.len() as u64;
        } else if logged {
            log.write_all(&record).unwrap();
            log.sync_data().unwrap();
        }
        txn.commit().unwrap();
        if with_log && !logged {
            log.set_len(0).unwrap();
            at = 0;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let (cpu1, written1) = thread_costs();
    let moves = (batch * batches) as f64;
    let name = match layout {
        Layout::TwoTablesImmediate => "two tables, immediate",
        Layout::OneTableImmediate => "one table, immediate",
        Layout::TwoTablesLog => "two tables, log",
        Layout::TwoTablesPreallocatedLog => "two tables, prealloc log",
        Layout::Journal => "journal, checkpointed",
        Layout::LogAlone => "log alone (the floor)",
    };
    println!(
        "{name:<24} {:>6.1} µs CPU/move  {:>6.1} KiB written/batch  {:>7.0} batches/s  {:>8.0} moves/s  file {} KiB",
        (cpu1 - cpu0) / moves * 1e6,
        (written1 - written0) as f64 / batches as f64 / 1024.0,
        batches as f64 / seconds,
        moves / seconds,
        std::fs::metadata(dir.path().join("bench.redb")).unwrap().len() / 1024,
    );
}

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn store_bench() {
    let batch = env_or("STORE_BENCH_BATCH", 64);
    let batches = env_or("STORE_BENCH_BATCHES", 1000);
    let checkpoint = env_or("STORE_BENCH_CHECKPOINT", 64);
    for round in 0..env_or("STORE_BENCH_ROUNDS", 2) {
        println!("round {round}: {batch} moves a batch, {batches} batches, a checkpoint every {checkpoint}");
        for layout in [
            Layout::LogAlone,
            Layout::Journal,
            Layout::TwoTablesImmediate,
            Layout::OneTableImmediate,
            Layout::TwoTablesLog,
            Layout::TwoTablesPreallocatedLog,
        ] {
            run(layout, batch, batches, checkpoint);
        }
    }
}
