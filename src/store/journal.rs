//! The embedded store's journal: where a move's append is committed first, to be moved into the match's own tables
//! later, many moves at a time.
//!
//! Why: redb commits copy-on-write, and a durable commit writes every page its transaction dirtied. An append made
//! straight into `matches` (the header) and `events` dirties a leaf of each per match, so a batch of 64 moves of 64
//! matches wrote over a hundred pages (BENCHMARKS.md, "The embedded store"). Here a batch's appends are one entry
//! under the next number, in the journal's newest leaf: a few pages a commit. A **checkpoint** moves the journal
//! into the tables in one transaction, each match's header and event leaves written once for all its moves since the
//! last checkpoint, and empties it: once the journal holds [`CHECKPOINT_AT`] appends, when the writer is quiet
//! (`super::group_commit::QUIET`), as the store closes and as it opens. It refuses a journal whose first move of a
//! match does not follow the match's stored version, rather than overwrite what another build wrote.
//!
//! Both live in the one redb file and each step is one transaction, so a crash at any instant leaves every
//! committed append either in the journal or in the tables, never in both nor in neither. Readers take a match's
//! tables and then its journal records, in one read transaction ([`of_match`], [`newest_headers`]); only the
//! store's writer thread writes the journal, and it keeps the versions of the matches it holds ([`Journal`]) so
//! that an append's check reads no page. A file closed cleanly has an empty journal, so a build from before the
//! journal reads it whole.

use super::embedded::{failed, EVENTS, MATCHES};
use super::{codec, MatchId, StoreError};
use redb::{ReadableTable, TableDefinition, WriteTransaction};
use std::collections::HashMap;

/// Journal number → one committed batch's appends ([`Entry`]).
pub(super) const JOURNAL: TableDefinition<u64, &[u8]> = TableDefinition::new("journal");

/// The journal length, in appends, at which the writer checkpoints after a batch: long enough that a match's leaves
/// are written once for many of its moves, short enough that a reader's walk through it (every record's first
/// bytes) stays well under a millisecond.
pub(super) const CHECKPOINT_AT: u64 = 1024;

/// The first byte of every entry: its layout.
const FORMAT: u8 = 1;
/// A record's fixed part: match id, seq, header length, event length.
const FIXED: usize = 16 + 8 + 4 + 4;

/// One append as the journal keeps it: event `seq` of match `id`, and the header it leaves the match with.
#[derive(Debug, PartialEq)]
pub(super) struct Record<'a> {
    pub(super) id: MatchId,
    pub(super) seq: u64,
    pub(super) header: &'a [u8],
    pub(super) event: &'a [u8],
}

impl Record<'_> {
    /// Appends the record's bytes to `out`: id, seq, header length, event length (the numbers little-endian, the
    /// lengths u32), header, event.
    fn encode_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.id.0);
        out.extend_from_slice(&self.seq.to_le_bytes());
        out.extend_from_slice(&(self.header.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.event.len() as u32).to_le_bytes());
        out.extend_from_slice(self.header);
        out.extend_from_slice(self.event);
    }
}

/// A journal entry: the appends one batch committed, in order, as one value (one B-tree insert a batch, however
/// many moves it holds): the format byte, then each [`Record`]'s bytes.
pub(super) struct Entry<'a> {
    number: u64,
    rest: &'a [u8],
}

impl<'a> Entry<'a> {
    /// Entry `number`, held in `bytes`: its records, read one at a time.
    pub(super) fn read(number: u64, bytes: &'a [u8]) -> Result<Entry<'a>, StoreError> {
        match bytes.split_first() {
            Some((&FORMAT, rest)) => Ok(Entry { number, rest }),
            _ => Err(failed(format!(
                "journal entry {number}: an unknown format (written by a newer build?)"
            ))),
        }
    }

    /// The next record whose match passes `wanted` (its header and event left unread otherwise), or `None` at the
    /// end.
    fn next_of(
        &mut self,
        wanted: impl Fn(&MatchId) -> bool,
    ) -> Option<Result<Record<'a>, StoreError>> {
        loop {
            if self.rest.is_empty() {
                return None;
            }
            let damaged = |what: &str| failed(format!("journal entry {}: {what}", self.number));
            let Some((fixed, tail)) = self.rest.split_at_checked(FIXED) else {
                self.rest = &[];
                return Some(Err(damaged("a record cut short")));
            };
            let number = |at: usize| u32::from_le_bytes(fixed[at..at + 4].try_into().expect("4"));
            let (header_len, event_len) = (number(24) as usize, number(28) as usize);
            let Some((body, after)) = tail.split_at_checked(header_len + event_len) else {
                self.rest = &[];
                return Some(Err(damaged("a record runs past its end")));
            };
            self.rest = after;
            let id = MatchId(fixed[..16].try_into().expect("16"));
            if !wanted(&id) {
                continue;
            }
            let (header, event) = body.split_at(header_len);
            return Some(Ok(Record {
                id,
                seq: u64::from_le_bytes(fixed[16..24].try_into().expect("8")),
                header,
                event,
            }));
        }
    }
}

impl<'a> Iterator for Entry<'a> {
    type Item = Result<Record<'a>, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_of(|_| true)
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

/// A batch's journal writes, until its transaction commits: its entry's bytes, written by [`Pending::write`].
#[derive(Debug)]
pub(super) struct Pending {
    next: u64,
    records: u64,
    entry: Vec<u8>,
    progress: HashMap<MatchId, Progress>,
}

impl Journal {
    /// The writes of a new batch, numbered on from the journal's.
    pub(super) fn pending(&self) -> Pending {
        Pending {
            next: self.next,
            records: 0,
            entry: vec![FORMAT],
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

    /// How many appends it holds.
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

    /// Adds `record` to the batch's entry, leaving its match at `progress`.
    pub(super) fn append(&mut self, record: &Record, progress: Progress) {
        record.encode_into(&mut self.entry);
        self.records += 1;
        self.progress.insert(record.id, progress);
    }

    /// Inserts the batch's entry in `txn`'s journal, if it holds any record.
    pub(super) fn write(&mut self, txn: &WriteTransaction) -> Result<(), StoreError> {
        if self.records == 0 {
            return Ok(());
        }
        txn.open_table(JOURNAL)
            .map_err(failed)?
            .insert(self.next, self.entry.as_slice())
            .map_err(failed)?;
        self.next += 1;
        Ok(())
    }
}

/// Moves every journal record into `matches` and `events` inside `txn` and empties the journal: how many records
/// moved. The records go in key order, (match, seq), so that each leaf is found once and filled in turn rather than
/// revisited across the journal; each match's newest header is written once.
pub(super) fn checkpoint(txn: &WriteTransaction) -> Result<u64, StoreError> {
    let moved;
    {
        let journal = txn.open_table(JOURNAL).map_err(failed)?;
        let mut events = txn.open_table(EVENTS).map_err(failed)?;
        let mut matches = txn.open_table(MATCHES).map_err(failed)?;
        let entries = journal
            .iter()
            .map_err(failed)?
            .map(|entry| entry.map_err(failed))
            .collect::<Result<Vec<_>, _>>()?;
        let mut records = Vec::new();
        for (number, bytes) in &entries {
            for record in Entry::read(number.value(), bytes.value())? {
                records.push((record?, number.value()));
            }
        }
        // Stable: a match's records stay in journal order, which is seq order.
        records.sort_by_key(|(record, _)| record.id.0);
        moved = records.len() as u64;
        for (i, (record, number)) in records.iter().enumerate() {
            let first = i == 0 || records[i - 1].0.id != record.id;
            if first {
                follows_stored(&matches, *number, record)?;
            }
            events
                .insert((record.id.0.as_slice(), record.seq), record.event)
                .map_err(failed)?;
            let last = records
                .get(i + 1)
                .is_none_or(|(next, _)| next.id != record.id);
            if last {
                matches
                    .insert(record.id.0.as_slice(), record.header)
                    .map_err(failed)?;
            }
        }
    }
    // Dropping the table frees its pages at once; it is made again empty, so that a reader always finds it.
    txn.delete_table(JOURNAL).map_err(failed)?;
    txn.open_table(JOURNAL).map_err(failed)?;
    Ok(moved)
}

/// Checks that `record`, the first the journal holds of its match (in journal entry `number`), follows the match's
/// stored header: anything else means the tables moved on without the journal (an older build wrote the file
/// after a crash left moves here), and moving it would overwrite their events.
fn follows_stored(
    matches: &impl ReadableTable<&'static [u8], &'static [u8]>,
    number: u64,
    record: &Record,
) -> Result<(), StoreError> {
    let stored = match matches.get(record.id.0.as_slice()).map_err(failed)? {
        Some(header) => progress_of(record.id, header.value())?.version,
        None => {
            return Err(failed(format!(
                "journal entry {number}: match {} is not stored",
                record.id
            )))
        }
    };
    if stored + 1 != record.seq {
        return Err(failed(format!(
            "journal entry {number}: match {} event {} does not follow its stored version {stored} (was the \
             file written by an older build after a crash?); the file is left as it is",
            record.id, record.seq
        )));
    }
    Ok(())
}

/// A journaled append of one match, read out: event `seq` and the header it left the match with.
pub(super) struct Journaled {
    pub(super) seq: u64,
    pub(super) header: Vec<u8>,
    pub(super) event: Vec<u8>,
}

/// The journal's records of `id` in `journal` (a read or write transaction's), oldest first.
pub(super) fn of_match(
    journal: &impl ReadableTable<u64, &'static [u8]>,
    id: &MatchId,
) -> Result<Vec<Journaled>, StoreError> {
    let mut out = Vec::new();
    for entry in journal.iter().map_err(failed)? {
        let (number, bytes) = entry.map_err(failed)?;
        let mut entry = Entry::read(number.value(), bytes.value())?;
        while let Some(record) = entry.next_of(|of| of == id) {
            let record = record?;
            out.push(Journaled {
                seq: record.seq,
                header: record.header.to_vec(),
                event: record.event.to_vec(),
            });
        }
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
        for record in Entry::read(number.value(), bytes.value())? {
            let record = record?;
            out.insert(record.id, record.header.to_vec());
        }
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

    /// An entry of `records`, as a batch writes it.
    fn entry(records: &[Record]) -> Vec<u8> {
        let mut pending = Journal::default().pending();
        for record in records {
            pending.append(
                record,
                Progress {
                    version: record.seq,
                    finished: false,
                },
            );
        }
        pending.entry
    }

    #[test]
    fn an_entry_reads_back_and_a_damaged_one_is_refused_by_number() {
        let one = Record {
            id: MatchId([9; 16]),
            seq: 300,
            header: b"header",
            event: b"event",
        };
        // An empty event and header are records too.
        let other = Record {
            id: MatchId([4; 16]),
            seq: 1,
            header: b"",
            event: b"",
        };
        let bytes = entry(&[one, other]);
        type Read = Vec<(MatchId, u64, Vec<u8>, Vec<u8>)>;
        let read = |bytes: &[u8]| -> Result<Read, StoreError> {
            Entry::read(4, bytes)?
                .map(|r| r.map(|r| (r.id, r.seq, r.header.to_vec(), r.event.to_vec())))
                .collect()
        };
        assert_eq!(
            read(&bytes).unwrap(),
            vec![
                (MatchId([9; 16]), 300, b"header".to_vec(), b"event".to_vec()),
                (MatchId([4; 16]), 1, vec![], vec![]),
            ]
        );
        let mut only = Entry::read(4, &bytes).unwrap();
        let found = only.next_of(|id| *id == MatchId([4; 16])).unwrap().unwrap();
        assert_eq!(found.seq, 1);
        assert!(only.next().is_none());
        let refused = |bytes: &[u8]| read(bytes).unwrap_err().to_string();
        assert!(refused(&bytes[..20]).contains("journal entry 4: a record cut short"));
        assert!(refused(&bytes[..1 + FIXED + 3]).contains("runs past its end"));
        let mut newer = bytes.clone();
        newer[0] = 2;
        assert!(refused(&newer).contains("unknown format"));
        assert_eq!(read(&[FORMAT]).unwrap(), vec![]);
    }

    proptest::proptest! {
        /// Whatever follows the format byte, reading an entry ends (each record consumes its bytes, or stops the
        /// entry) with records or a refusal, never a panic.
        #[test]
        fn any_bytes_read_as_records_or_a_refusal(rest in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            let bytes = [&[FORMAT][..], &rest].concat();
            let read: Vec<_> = Entry::read(0, &bytes).unwrap().collect();
            proptest::prop_assert!(read.len() <= rest.len() / FIXED + 1);
        }

        /// An entry cut anywhere reads as the records it still holds whole, then one refusal.
        #[test]
        fn a_cut_entry_reads_its_whole_records_then_refuses(
            records in proptest::collection::vec(
                (0u8..4, 1u64..1000, proptest::collection::vec(proptest::num::u8::ANY, 0..40), proptest::collection::vec(proptest::num::u8::ANY, 0..20)),
                1..6,
            ),
            cut in 0usize..1000,
        ) {
            let records: Vec<Record> = records
                .iter()
                .map(|(id, seq, header, event)| Record { id: MatchId([*id; 16]), seq: *seq, header, event })
                .collect();
            let bytes = entry(&records);
            let cut = 1 + cut % bytes.len();
            let read: Vec<_> = Entry::read(0, &bytes[..cut]).unwrap().collect();
            let whole = read.iter().take_while(|r| r.is_ok()).count();
            proptest::prop_assert!(read.len() <= whole + 1);
            for (got, want) in read.iter().zip(&records) {
                if let Ok(got) = got {
                    proptest::prop_assert_eq!(got, want);
                }
            }
            if cut == bytes.len() {
                proptest::prop_assert_eq!(whole, records.len());
            }
        }
    }
}
