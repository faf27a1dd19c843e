//! The back-off after accept errors: a connection's own error is skipped, a want of resources (out of file
//! descriptors, buffers or memory) pauses accepting from 10 ms doubling to 1 s, and each episode is logged once.

use std::{io, time::Duration};

/// The first pause after an accept error that only a closing connection can clear.
const FIRST_PAUSE: Duration = Duration::from_millis(10);
/// The longest pause: long enough not to burn CPU, short enough to notice a freed descriptor soon.
const LONGEST_PAUSE: Duration = Duration::from_secs(1);

/// What to do after an error from `accept`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AcceptAction {
    /// The error belonged to one connection (reset before it was accepted): accept the next.
    Retry,
    /// The process or system is out of something (EMFILE, ENFILE, ENOBUFS, ENOMEM): the next
    /// accept would fail the same way at once, so wait `pause`. `first`: the first error of the
    /// episode, the one to log.
    Pause { pause: Duration, first: bool },
}

/// A run of accept errors, reported when accepting succeeds again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Episode {
    pub(super) errors: u32,
    pub(super) paused: Duration,
}

/// The back-off policy for accept errors: 10 ms doubling to 1 s, reset by a successful accept.
#[derive(Debug, Default)]
pub(super) struct AcceptBackoff {
    /// Consecutive resource errors so far.
    errors: u32,
    /// The total pause of this episode.
    paused: Duration,
}

impl AcceptBackoff {
    pub(super) fn on_error(&mut self, error: &io::Error) -> AcceptAction {
        if is_per_connection(error) {
            return AcceptAction::Retry;
        }
        let pause = pause_after(self.errors);
        self.errors = self.errors.saturating_add(1);
        self.paused += pause;
        AcceptAction::Pause {
            pause,
            first: self.errors == 1,
        }
    }

    /// A connection was accepted: the episode of errors, if there was one, is over.
    pub(super) fn on_accept(&mut self) -> Option<Episode> {
        if self.errors == 0 {
            return None;
        }
        let episode = Episode {
            errors: self.errors,
            paused: self.paused,
        };
        *self = AcceptBackoff::default();
        Some(episode)
    }
}

/// The pause after `earlier` consecutive resource errors.
fn pause_after(earlier: u32) -> Duration {
    FIRST_PAUSE
        .saturating_mul(1u32.checked_shl(earlier).unwrap_or(u32::MAX))
        .min(LONGEST_PAUSE)
}

/// Whether `accept` failed because of the one connection it was taking (the peer reset it, or
/// the network reported an error Linux passes on through accept), rather than for want of a
/// resource. Anything unknown counts as a resource error: a needless pause of 10 ms is harmless,
/// a busy loop is not.
fn is_per_connection(error: &io::Error) -> bool {
    use io::ErrorKind::*;
    matches!(
        error.kind(),
        ConnectionAborted
            | ConnectionReset
            | ConnectionRefused
            | Interrupted
            | WouldBlock
            | TimedOut
            | HostUnreachable
            | NetworkUnreachable
            | NetworkDown
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emfile() -> io::Error {
        // EMFILE on Linux and the BSDs.
        io::Error::from_raw_os_error(24)
    }

    #[test]
    fn resource_errors_back_off_from_10ms_doubling_to_1s_and_log_once() {
        let mut backoff = AcceptBackoff::default();
        let pauses: Vec<AcceptAction> = (0..10).map(|_| backoff.on_error(&emfile())).collect();
        let ms = |ms| Duration::from_millis(ms);
        let expected = [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000];
        for (i, (action, want)) in pauses.iter().zip(expected).enumerate() {
            assert_eq!(
                *action,
                AcceptAction::Pause {
                    pause: ms(want),
                    first: i == 0
                }
            );
        }
        assert_eq!(
            backoff.on_accept(),
            Some(Episode {
                errors: 10,
                paused: ms(expected.iter().sum())
            })
        );
        // The next episode starts again at 10 ms, and is logged again.
        assert_eq!(backoff.on_accept(), None);
        assert_eq!(
            backoff.on_error(&emfile()),
            AcceptAction::Pause {
                pause: ms(10),
                first: true
            }
        );
    }

    #[test]
    fn the_pause_never_overflows() {
        assert_eq!(pause_after(u32::MAX), LONGEST_PAUSE);
        assert_eq!(pause_after(40), LONGEST_PAUSE);
        assert_eq!(pause_after(0), FIRST_PAUSE);
    }

    #[test]
    fn a_connection_reset_before_accept_is_skipped_without_pause() {
        let mut backoff = AcceptBackoff::default();
        for kind in [
            io::ErrorKind::ConnectionAborted,
            io::ErrorKind::ConnectionReset,
            io::ErrorKind::Interrupted,
        ] {
            assert_eq!(backoff.on_error(&kind.into()), AcceptAction::Retry);
        }
        assert_eq!(backoff.on_accept(), None, "no episode to report");
        // ENFILE, ENOBUFS and ENOMEM (Linux numbers) pause like EMFILE; so does anything unknown.
        for errno in [23, 105, 12] {
            assert!(matches!(
                backoff.on_error(&io::Error::from_raw_os_error(errno)),
                AcceptAction::Pause { .. }
            ));
        }
        assert!(matches!(
            backoff.on_error(&io::Error::other("unheard of")),
            AcceptAction::Pause { .. }
        ));
    }
}
