//! Where "now" comes from, and how the server waits for a moment: the system clock, or a clock that tests move
//! by hand (no test sleeps to see a flag fall).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A source of wall-clock time, in milliseconds since the Unix epoch, that can be waited on.
pub trait Time: Send + Sync + std::fmt::Debug + 'static {
    /// Now.
    fn now_ms(&self) -> u64;

    /// Completes once [`Time::now_ms`] has reached `at_ms`.
    fn sleep_until(&self, at_ms: u64) -> Pin<Box<dyn Future<Output = ()> + Send + 'static>>;
}

/// Now on the system's clock, in milliseconds since the Unix epoch: the one source of wall-clock time for code
/// that is not handed a [`Time`] (a tenant's or a lobby entry's timestamps, which tests need not move).
pub fn now_ms() -> u64 {
    SystemTime.now_ms()
}

/// The system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemTime;

impl Time for SystemTime {
    fn now_ms(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }

    fn sleep_until(&self, at_ms: u64) -> Pin<Box<dyn Future<Output = ()> + Send + 'static>> {
        let wait = at_ms.saturating_sub(self.now_ms());
        Box::pin(async move {
            // The system clock may be set back meanwhile: a timer that wakes early finds nothing due and waits
            // again (see `crate::matches`'s timers), so sleeping on the monotonic clock is enough.
            tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
        })
    }
}

/// A clock that only moves when told to ([`ManualTime::advance`]); waiters wake as it passes their moment.
#[derive(Debug, Clone)]
pub struct ManualTime {
    now: Arc<AtomicU64>,
    moved: Arc<tokio::sync::watch::Sender<u64>>,
}

impl ManualTime {
    /// A clock reading `start_ms`.
    pub fn new(start_ms: u64) -> ManualTime {
        ManualTime {
            now: Arc::new(AtomicU64::new(start_ms)),
            moved: Arc::new(tokio::sync::watch::channel(start_ms).0),
        }
    }

    /// Moves the clock on by `ms`, waking whoever waits for a moment now passed.
    pub fn advance(&self, ms: u64) {
        let now = self.now.fetch_add(ms, Ordering::SeqCst) + ms;
        self.moved.send_replace(now);
    }

    /// Sets the clock to `at_ms` (never backwards).
    pub fn set(&self, at_ms: u64) {
        let now = self.now.fetch_max(at_ms, Ordering::SeqCst).max(at_ms);
        self.moved.send_replace(now);
    }
}

impl Time for ManualTime {
    fn now_ms(&self) -> u64 {
        self.now.load(Ordering::SeqCst)
    }

    fn sleep_until(&self, at_ms: u64) -> Pin<Box<dyn Future<Output = ()> + Send + 'static>> {
        let mut moved = self.moved.subscribe();
        let now = self.now.clone();
        Box::pin(async move {
            while now.load(Ordering::SeqCst) < at_ms {
                if moved.changed().await.is_err() {
                    // The clock is gone: nothing will ever move it again.
                    std::future::pending::<()>().await;
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_sleep_ends_when_the_clock_passes_its_moment() {
        let time = ManualTime::new(1_000);
        let sleeping = tokio::spawn(time.sleep_until(1_500));
        time.advance(200);
        tokio::task::yield_now().await;
        assert!(!sleeping.is_finished(), "1 200 is before 1 500");
        time.advance(300);
        tokio::time::timeout(std::time::Duration::from_secs(5), sleeping)
            .await
            .expect("woken at 1 500")
            .expect("no panic");
        assert_eq!(time.now_ms(), 1_500);
        // A moment already past does not wait.
        time.sleep_until(10).await;
        time.set(1_000);
        assert_eq!(time.now_ms(), 1_500, "never backwards");
    }
}
