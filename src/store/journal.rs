//! The embedded store's journal: where a move's append is committed first, to be moved into the match's own tables
//! later, many moves at a time.
//!
//! Why: redb commits copy-on-write, and a durable commit writes every page its transaction dirtied. An append made
//! straight into `matches` (the header) and `events` dirties a leaf of each per match, so a batch of 64 moves of 64
//! matches wrote over a hundred pages (BENCHMARKS.md, "The embedded store"). Appended here under consecutive numbers,
//! a batch's records fill the journal's newest leaves: a few pages. A **checkpoint** moves the journal into the
//! tables in one transaction, each match's header and event leaves written once for all its moves since the last
//! checkpoint, and empties it: once the journal holds [`CHECKPOINT_AT`] records, when the writer is quiet, as the
//! store closes and as it opens.
//!
//! Both live in the one redb file and each step is one transaction, so a crash at any instant leaves every
//! committed append either in the journal or in the tables, never in both nor in neither. Readers take a match's
//! tables and then its journal records, in one read transaction ([`of_match`], [`newest_headers`]); only the
//! store's writer thread writes the journal, and it keeps the versions of the matches it holds ([`Journal`]) so
//! that an append's check reads no page. A file closed cleanly has an empty journal, so a build from before the
//! journal reads it whole.

use super::embedded::{EVENTS, MATCHES};
use super::{codec, MatchId, StoreError};
use redb::{ReadableTable, Table, TableDefinition, WriteTransaction};
use std::collections::HashMap;

/// Journal number → one append ([`Record`]).
pub(super) const JOURNAL: TableDefinition<u64, &[u8]> = TableDefinition::new("journal");

/// The journal length at which the writer checkpoints after a batch: long enough that a match's leaves are written
/// once for many of its moves, short enough that a reader's walk through it (every record's first bytes) stays
/// well under a millisecond.
pub(super) const CHECKPOINT_AT: u64 = 1024;

/// The first byte of every record: its layout.
const FORMAT: u8 = 1;
/// Format byte, match id, seq, header length.
const PREFIX: usize = 1 + 16 + 8 + 4;

fn failed(error: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(error.to_string())
}

/// One append as the journal keeps it: event `seq` of match `id`, and the header it leaves the match with.
#[derive(Debug, PartialEq)]
pub(super) struct Record<'a> {
    pub(super) id: MatchId,
    pub(super) seq: u64,
    pub(super) header: &'a [u8],
    pub(super) event: &'a [u8],
}

impl<'a> Record<'a> {
    /// The record's bytes: format, id, seq (little-endian), header length (little-endian u32), header, event.
    pub(super) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(PREFIX + self.header.len() + self.event.len());
        out.push(FORMAT);
        out.extend_from_slice(&self.id.0);
        out.extend_from_slice(&self.seq.to_le_bytes());
        out.extend_from_slice(&(self.header.len() as u32).to_le_bytes());
        out.extend_from_slice(self.header);
        out.extend_from_slice(self.event);
        out
    }

    /// The record held in `bytes`, journal entry `number`.
    pub(super) fn decode(number: u64, bytes: &'a [u8]) -> Result<Record<'a>, StoreError> {
        let damaged = |what: &str| failed(format!("journal record {number}: {what}"));
        if bytes.first() != Some(&FORMAT) {
            return Err(damaged("an unknown format (written by a newer build?)"));
        }
        let id = Self::id_in(bytes).ok_or_else(|| damaged("cut short"))?;
        let number_at = |at: usize, len: usize| bytes.get(at..at + len);
        let seq = number_at(17, 8)
            .and_then(|b| b.try_into().ok())
            .map(u64::from_le_bytes)
            .ok_or_else(|| damaged("cut short"))?;
        let header_len = number_at(25, 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
            .ok_or_else(|| damaged("cut short"))? as usize;
        let rest = &bytes[PREFIX..];
        if header_len > rest.len() {
            return Err(damaged("its header runs past its end"));
        }
        let (header, event) = rest.split_at(header_len);
        Ok(Record {
            id,
            seq,
            header,
            event,
        })
    }

    /// The match a record's bytes are about, read without the rest.
    fn id_in(bytes: &[u8]) -> Option<MatchId> {
        Some(MatchId(bytes.get(1..17)?.try_into().ok()?))
    }
}

/// Where a journaled match stands: what an append's check needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Progress {
    pub(super) version: u64,
    pub(super) finished: bool,
}

/// The writer thread's account of the journal: its next number, its length, and the progress of each match it
/// holds records of. Changed only once the transaction that wrote them committed ([`Journal::committed`]).
#[derive(Debug, Default)]
pub(super) struct Journal {
    next: u64,
    records: u64,
    progress: HashMap<MatchId, Progress>,
}

/// A batch's journal writes, until its transaction commits.
#[derive(Debug)]
pub(super) struct Pending {
    next: u64,
    records: u64,
    progress: HashMap<MatchId, Progress>,
}

impl Journal {
    /// The writes of a new batch, numbered on from the journal's.
    pub(super) fn pending(&self) -> Pending {
        Pending {
            next: self.next,
            records: 0,
            progress: HashMap::new(),
        }
    }

    /// Takes in `pending`, committed.
    pub(super) fn committed(&mut self, pending: Pending) {
        self.next = pending.next;
        self.records += pending.records;
        self.progress.extend(pending.progress);
    }

    /// The journal was moved into the tables (committed): it is empty.
    pub(super) fn checkpointed(&mut self) {
        self.records = 0;
        self.progress.clear();
    }

    /// How many records it holds.
    pub(super) fn records(&self) -> u64 {
        self.records
    }
}

impl Pending {
    /// Where `id` stands after this batch's records and the journal's, if either holds any of it.
    pub(super) fn progress(&self, journal: &Journal, id: &MatchId) -> Option<Progress> {
        self.progress
            .get(id)
            .or_else(|| journal.progress.get(id))
            .copied()
    }

    /// Appends `record` to `journal` (the table, opened in the batch's transaction), leaving its match at
    /// `progress`.
    pub(super) fn append(
        &mut self,
        journal: &mut Table<u64, &'static [u8]>,
        record: &Record,
        progress: Progress,
    ) -> Result<(), StoreError> {
        journal
            .insert(self.next, record.encode().as_slice())
            .map_err(failed)?;
        self.next += 1;
        self.records += 1;
        self.progress.insert(record.id, progress);
        Ok(())
    }
}

/// Moves every journal record into `matches` and `events` inside `txn` and empties the journal: how many records
/// moved. Each match's newest header is written once.
pub(super) fn checkpoint(txn: &WriteTransaction) -> Result<u64, StoreError> {
    let mut moved = 0;
    {
        let journal = txn.open_table(JOURNAL).map_err(failed)?;
        let mut events = txn.open_table(EVENTS).map_err(failed)?;
        let mut newest: HashMap<MatchId, Vec<u8>> = HashMap::new();
        for entry in journal.iter().map_err(failed)? {
            let (number, bytes) = entry.map_err(failed)?;
            let record = Record::decode(number.value(), bytes.value())?;
            events
                .insert((record.id.0.as_slice(), record.seq), record.event)
                .map_err(failed)?;
            newest.insert(record.id, record.header.to_vec());
            moved += 1;
        }
        let mut matches = txn.open_table(MATCHES).map_err(failed)?;
        for (id, header) in &newest {
            matches
                .insert(id.0.as_slice(), header.as_slice())
                .map_err(failed)?;
        }
    }
    // Dropping the table frees its pages at once; it is made again empty, so that a reader always finds it.
    txn.delete_table(JOURNAL).map_err(failed)?;
    txn.open_table(JOURNAL).map_err(failed)?;
    Ok(moved)
}

/// The journal's records of `id` in `journal` (a read or write transaction's), oldest first: (seq, header, event).
pub(super) fn of_match(
    journal: &impl ReadableTable<u64, &'static [u8]>,
    id: &MatchId,
) -> Result<Vec<(u64, Vec<u8>, Vec<u8>)>, StoreError> {
    let mut out = Vec::new();
    for entry in journal.iter().map_err(failed)? {
        let (number, bytes) = entry.map_err(failed)?;
        let bytes = bytes.value();
        if Record::id_in(bytes).as_ref() != Some(id) {
            continue;
        }
        let record = Record::decode(number.value(), bytes)?;
        out.push((record.seq, record.header.to_vec(), record.event.to_vec()));
    }
    Ok(out)
}

/// The newest journaled header of each match the journal holds records of.
pub(super) fn newest_headers(
    journal: &impl ReadableTable<u64, &'static [u8]>,
) -> Result<HashMap<MatchId, Vec<u8>>, StoreError> {
    let mut out = HashMap::new();
    for entry in journal.iter().map_err(failed)? {
        let (number, bytes) = entry.map_err(failed)?;
        let record = Record::decode(number.value(), bytes.value())?;
        out.insert(record.id, record.header.to_vec());
    }
    Ok(out)
}

/// The progress `header` (a journaled or stored header of `id`) records.
pub(super) fn progress_of(id: MatchId, header: &[u8]) -> Result<Progress, StoreError> {
    let (version, finished) = codec::decode_progress(id, header)?;
    Ok(Progress { version, finished })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_and_a_damaged_one_is_refused_by_number() {
        let record = Record {
            id: MatchId([9; 16]),
            seq: 300,
            header: b"header",
            event: b"event",
        };
        let bytes = record.encode();
        assert_eq!(Record::decode(4, &bytes).unwrap(), record);
        assert_eq!(Record::id_in(&bytes), Some(record.id));
        let refused = |bytes: &[u8]| Record::decode(4, bytes).unwrap_err().to_string();
        assert!(refused(&bytes[..20]).contains("journal record 4: cut short"));
        let mut newer = bytes.clone();
        newer[0] = 2;
        assert!(refused(&newer).contains("unknown format"));
        let mut overlong = bytes.clone();
        overlong[25..29].copy_from_slice(&1000u32.to_le_bytes());
        assert!(refused(&overlong).contains("runs past its end"));
        // An empty event and header are records too.
        let empty = Record {
            header: b"",
            event: b"",
            ..record
        };
        assert_eq!(Record::decode(0, &empty.encode()).unwrap(), empty);
    }
}
