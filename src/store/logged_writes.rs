//! A batch's accepted writes as the payload of a write-log record (`super::write_log`), and back for the replay.
//! Only what the writer thread committed is logged, so that replaying a record onto the state its batch found
//! applies every write of it again, in the same order.
//!
//! Each write: a tag byte (1 an append, 2 a creation, 3 lobby entries), then its fields, numbers little-endian and
//! byte strings as a u32 length and the bytes. A creation is logged without its tenant's limit: it passed it once.

use super::embedded_writes::{Append, Create, LobbyAppend, Write};
use super::{MatchId, StoreError};

const APPEND: u8 = 1;
const CREATE: u8 = 2;
const LOBBY: u8 = 3;

fn bytes(out: &mut Vec<u8>, value: &[u8]) {
    out.extend_from_slice(&(value.len() as u32).to_le_bytes());
    out.extend_from_slice(value);
}

/// Adds `write` to the payload `out`.
pub(super) fn encode(write: &Write, out: &mut Vec<u8>) {
    match write {
        Write::Append(append) => {
            out.push(APPEND);
            out.extend_from_slice(&append.id.0);
            out.extend_from_slice(&append.seq.to_le_bytes());
            out.push(u8::from(append.finishes));
            bytes(out, append.tenant.as_bytes());
            bytes(out, &append.header);
            bytes(out, &append.event);
        }
        Write::Create(create) => {
            out.push(CREATE);
            out.extend_from_slice(&create.id.0);
            bytes(out, create.tenant.as_bytes());
            bytes(out, &create.header);
        }
        Write::Lobby(lobby) => {
            out.push(LOBBY);
            bytes(out, lobby.tenant.as_bytes());
            out.extend_from_slice(&lobby.first.to_le_bytes());
            out.extend_from_slice(&(lobby.entries.len() as u32).to_le_bytes());
            for entry in &lobby.entries {
                bytes(out, entry);
            }
        }
    }
}

/// A payload being read.
struct Reader<'a>(&'a [u8]);

fn damaged(what: &str) -> StoreError {
    StoreError::Failed(format!("a write-log record is damaged: {what}"))
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], StoreError> {
        if self.0.len() < n {
            return Err(damaged("it ends inside a write"));
        }
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(taken)
    }

    fn u8(&mut self) -> Result<u8, StoreError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, StoreError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("four")))
    }

    fn u64(&mut self) -> Result<u64, StoreError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("eight")))
    }

    fn id(&mut self) -> Result<MatchId, StoreError> {
        Ok(MatchId(self.take(16)?.try_into().expect("sixteen")))
    }

    fn bytes(&mut self) -> Result<Vec<u8>, StoreError> {
        let length = self.u32()? as usize;
        Ok(self.take(length)?.to_vec())
    }

    fn text(&mut self) -> Result<String, StoreError> {
        String::from_utf8(self.bytes()?).map_err(|_| damaged("a tenant is not UTF-8"))
    }
}

/// The writes of a payload, in order. Never panics, whatever the bytes.
pub(super) fn decode(payload: &[u8]) -> Result<Vec<Write>, StoreError> {
    let mut reader = Reader(payload);
    let mut writes = Vec::new();
    while !reader.0.is_empty() {
        writes.push(match reader.u8()? {
            APPEND => Write::Append(Append {
                id: reader.id()?,
                seq: reader.u64()?,
                finishes: reader.u8()? != 0,
                tenant: reader.text()?,
                header: reader.bytes()?,
                event: reader.bytes()?,
            }),
            CREATE => Write::Create(Create {
                id: reader.id()?,
                tenant: reader.text()?,
                header: reader.bytes()?,
                max_active: None,
            }),
            LOBBY => {
                let tenant = reader.text()?;
                let first = reader.u64()?;
                let count = reader.u32()?;
                // Each entry takes at least its length's four bytes: a count the payload cannot hold is damage.
                if count as usize > reader.0.len() / 4 {
                    return Err(damaged("it counts more lobby entries than it holds"));
                }
                let entries = (0..count)
                    .map(|_| reader.bytes())
                    .collect::<Result<_, _>>()?;
                Write::Lobby(LobbyAppend {
                    tenant,
                    first,
                    entries,
                })
            }
            tag => return Err(damaged(&format!("unknown write {tag}"))),
        });
    }
    Ok(writes)
}

/// Decodes arbitrary bytes as a payload, for the fuzz target: `Ok` with how many writes, or the error's text.
pub fn check(payload: &[u8]) -> Result<usize, String> {
    decode(payload).map(|w| w.len()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameKind;
    use crate::store::tests::record;
    use crate::store::{Action, EventRecord, MatchRecord};

    #[test]
    fn every_write_reads_back_as_it_was_logged() {
        let finished = MatchRecord {
            version: 3,
            finished: Some(crate::store::Finished {
                at_ms: 9,
                winner: None,
                resigned: None,
                reason: crate::store::EndReason::Resignation,
            }),
            ..record(1, GameKind::BaAwa)
        };
        let event = EventRecord {
            seq: 3,
            player: crate::engine::Player::North,
            action: Action::Resign,
            request_id: "r".into(),
            at_ms: 9,
        };
        let writes = vec![
            Write::Create(Create::new(&record(2, GameKind::Bosh), Some(4))),
            Write::Append(Append::new(&finished, &event)),
            Write::Lobby(LobbyAppend {
                tenant: "acme".into(),
                first: 5,
                entries: vec![b"one".to_vec(), Vec::new()],
            }),
        ];
        let mut payload = Vec::new();
        for write in &writes {
            encode(write, &mut payload);
        }
        let decoded = decode(&payload).unwrap();
        let mut again = Vec::new();
        for write in &decoded {
            encode(write, &mut again);
        }
        assert_eq!(again, payload);
        assert!(matches!(&decoded[0], Write::Create(c) if c.max_active.is_none()));
        assert!(matches!(&decoded[1], Write::Append(a) if a.finishes && a.seq == 3));
        // A cut of it is an error, or (at a write's end) the writes before the cut: never a panic.
        for cut in 1..payload.len() {
            assert!(
                decode(&payload[..cut]).map_or(true, |w| w.len() < 3),
                "cut at {cut}"
            );
        }
        assert!(decode(&[3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255]).is_err());
    }
}
