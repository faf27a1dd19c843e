//! The client's opening that ends the handshake timeout: the HTTP/2 preface and its first frame, or an
//! HTTP/1.1 request head, counted however the bytes are split.

/// The HTTP/2 client preface (RFC 9113 §3.4).
const CLIENT_PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const PREFACE_LEN: usize = CLIENT_PREFACE.len();
/// A frame header: 24-bit length, type, flags, stream id (RFC 9113 §4.1).
const FRAME_HEADER_LEN: usize = 9;
/// The end of an HTTP/1.1 request head (RFC 9112 §2.1): the last four bytes of an empty line.
const END_OF_HEAD: u32 = u32::from_be_bytes(*b"\r\n\r\n");

/// How much of the client's opening has arrived: the HTTP/2 preface and its first frame (its SETTINGS), or,
/// for an HTTP/1.1 client (a browser's grpc-web or the board page), the head of its first request.
///
/// Only the bytes are counted, not checked: hyper refuses a wrong preface, frame or request itself. What
/// matters here is that a client cannot hold a connection by sending them slowly, or part of them. A client is
/// taken for HTTP/1.1 from its first byte that departs from the HTTP/2 preface (`POST`, `GET` … depart by the
/// second or third byte).
#[derive(Debug, Default)]
pub(super) struct Preface {
    seen: usize,
    header: [u8; FRAME_HEADER_LEN],
    /// Once the client is known to speak HTTP/1.1: its last four bytes.
    http1: Option<u32>,
}

impl Preface {
    /// Notes `bytes`, the next ones the client sent; true once the opening is complete.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> bool {
        for (offset, &byte) in bytes.iter().enumerate() {
            let at = self.seen + offset;
            if self.http1.is_none() && at < PREFACE_LEN && byte != CLIENT_PREFACE[at] {
                // The bytes so far matched the preface: they are its first `at`.
                let mut tail = 0;
                for &earlier in &CLIENT_PREFACE[..at] {
                    tail = (tail << 8) | u32::from(earlier);
                }
                self.http1 = Some(tail);
            }
            if let Some(tail) = &mut self.http1 {
                *tail = (*tail << 8) | u32::from(byte);
                if *tail == END_OF_HEAD {
                    self.seen = self.seen.saturating_add(offset + 1);
                    return true;
                }
                continue;
            }
            match at.checked_sub(PREFACE_LEN) {
                Some(i) if i < FRAME_HEADER_LEN => self.header[i] = byte,
                Some(_) => break,
                None => {}
            }
        }
        self.seen = self.seen.saturating_add(bytes.len());
        if self.http1.is_some() {
            return false;
        }
        let [a, b, c, ..] = self.header;
        let first_frame = u32::from_be_bytes([0, a, b, c]) as usize;
        self.seen >= PREFACE_LEN + FRAME_HEADER_LEN + first_frame
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SETTINGS frame header announcing `len` bytes of payload.
    fn settings_header(len: u32) -> Vec<u8> {
        let [_, a, b, c] = len.to_be_bytes();
        vec![a, b, c, 0x4, 0, 0, 0, 0, 0]
    }

    #[test]
    fn the_handshake_ends_with_the_first_frame_however_it_is_split() {
        let mut bytes = CLIENT_PREFACE.to_vec();
        bytes.extend(settings_header(12));
        bytes.extend([0u8; 12]);
        for split in 0..=bytes.len() {
            let mut preface = Preface::default();
            let (a, b) = bytes.split_at(split);
            let done_early = preface.feed(a);
            assert_eq!(done_early, split == bytes.len(), "split at {split}");
            assert!(preface.feed(b), "split at {split}");
        }
        let mut preface = Preface::default();
        for (i, byte) in bytes.iter().enumerate() {
            assert_eq!(preface.feed(&[*byte]), i + 1 == bytes.len());
        }
    }

    #[test]
    fn an_http1_request_head_ends_the_handshake_however_it_is_split() {
        for head in [
            &b"POST /mancala.v1.Rules/NewGame HTTP/1.1\r\nhost: a\r\n\r\n"[..],
            b"GET / HTTP/1.1\r\n\r\n",
            b"PRIX / HTTP/1.1\r\n\r\n",
        ] {
            for split in 0..head.len() {
                let (a, b) = head.split_at(split);
                let mut preface = Preface::default();
                assert!(!preface.feed(a), "{head:?} split at {split}");
                assert!(preface.feed(b), "{head:?} split at {split}");
            }
        }
        // A request line without the empty line after its headers is not a handshake.
        let mut preface = Preface::default();
        assert!(!preface.feed(b"GET / HTTP/1.1\r\nhost: a\r\n"));
        assert!(!preface.feed(b"x-more: b\r\n"));
        assert!(preface.feed(b"\r\n"));
    }

    #[test]
    fn half_a_preface_or_a_frame_header_without_its_payload_is_not_a_handshake() {
        let mut preface = Preface::default();
        assert!(!preface.feed(&CLIENT_PREFACE[..12]));
        assert!(!preface.feed(&CLIENT_PREFACE[12..]));
        assert!(!preface.feed(&settings_header(6)));
        assert!(!preface.feed(&[0; 5]));
        assert!(preface.feed(&[0]));
        // An empty SETTINGS frame completes with its header.
        let mut preface = Preface::default();
        let mut bytes = CLIENT_PREFACE.to_vec();
        bytes.extend(settings_header(0));
        assert!(preface.feed(&bytes));
    }
}
