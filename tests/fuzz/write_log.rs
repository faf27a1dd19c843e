//! Target `write_log`: the embedded store's write-ahead log (`mancala::store::write_log`), read back after a crash,
//! and its records' payloads (`mancala::store::logged_writes`). Reading arbitrary, torn or damaged bytes is an answer
//! or an error, never a panic; a log read back re-frames to exactly the bytes it read; a log cut anywhere reads as a
//! prefix of its records (a crash tears the last record only, and never costs an earlier one).

use crate::{config, corpus};
use mancala::store::logged_writes;
use mancala::store::write_log::{frame, head, read, Record};
use proptest::prelude::*;

/// An append of move `seq` to match `id`, as the writer logs it (tag 1, the id, seq, whether it finishes, then
/// tenant, header and event as length-prefixed bytes).
fn logged_append(id: u8, seq: u64) -> Vec<u8> {
    let mut out = vec![1];
    out.extend_from_slice(&[id; 16]);
    out.extend_from_slice(&seq.to_le_bytes());
    out.push(0);
    for field in [&b"acme"[..], &[7; 40], &[3; 12]] {
        out.extend_from_slice(&(field.len() as u32).to_le_bytes());
        out.extend_from_slice(field);
    }
    out
}

/// A log of `payloads`, numbered from `first`.
fn log_of(first: u64, payloads: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = head();
    for (number, payload) in (first..).zip(payloads) {
        bytes.extend(frame(number, payload));
    }
    bytes
}

/// The seed corpus: an empty log, logs of appends, one torn.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let appends: Vec<Vec<u8>> = (1..=3).map(|seq| logged_append(5, seq)).collect();
    let whole = log_of(7, &appends);
    vec![
        ("empty.wal".into(), head()),
        ("appends.wal".into(), whole.clone()),
        ("torn.wal".into(), whole[..whole.len() - 9].to_vec()),
    ]
}

/// Reads `bytes` as a log: an answer or an error, never a panic. What reads back re-frames to the bytes read, and
/// each payload decodes or is refused.
pub fn check_bytes(bytes: &[u8]) -> Result<Option<Vec<Record>>, TestCaseError> {
    let Ok(recovered) = read("fuzz.wal", bytes) else {
        return Ok(None);
    };
    prop_assert!(recovered.end as usize <= bytes.len().max(12));
    if bytes.len() >= 12 {
        let mut again = head();
        for record in &recovered.records {
            again.extend(frame(record.number, &record.payload));
            let _ = logged_writes::check(&record.payload);
        }
        prop_assert_eq!(&again[..], &bytes[..recovered.end as usize]);
    }
    Ok(Some(recovered.records))
}

#[test]
fn write_log_corpus_replays() {
    for (name, bytes) in corpus("write_log") {
        check_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

proptest! {
    #![proptest_config(config(5000))]

    #[test]
    fn write_log_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_bytes(&bytes)?;
        let mut framed = head();
        framed.extend_from_slice(&bytes);
        check_bytes(&framed)?;
        let _ = logged_writes::check(&bytes);
    }

    #[test]
    fn write_log_cut_anywhere_keeps_a_prefix(records in prop::collection::vec((any::<u8>(), 1u64..100), 1..6),
                                             first in any::<u64>(),
                                             cut in any::<usize>()) {
        let payloads: Vec<Vec<u8>> = records.iter().map(|&(id, seq)| logged_append(id, seq)).collect();
        let whole = log_of(first, &payloads);
        let read_whole = check_bytes(&whole)?.expect("a whole log reads");
        prop_assert_eq!(read_whole.len(), payloads.len());
        for record in &read_whole {
            prop_assert_eq!(logged_writes::check(&record.payload), Ok(1));
        }
        let cut = cut % (whole.len() + 1);
        let kept = check_bytes(&whole[..cut])?.expect("a cut log reads");
        prop_assert_eq!(&kept[..], &read_whole[..kept.len()]);
    }

    #[test]
    fn write_log_damage_is_an_answer_or_an_error(records in prop::collection::vec((any::<u8>(), 1u64..100), 1..4),
                                                 flips in prop::collection::vec((any::<usize>(), 0u8..8), 1..4)) {
        let payloads: Vec<Vec<u8>> = records.iter().map(|&(id, seq)| logged_append(id, seq)).collect();
        let mut bytes = log_of(1, &payloads);
        for &(at, bit) in &flips {
            let at = at % bytes.len();
            bytes[at] ^= 1 << bit;
        }
        check_bytes(&bytes)?;
    }
}
