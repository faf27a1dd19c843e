// Pauses between attempts: a growing, jittered pause after a broken connection (so that many clients cut off at
// once do not all come back in the same instant), and a sleep that an AbortSignal ends early.

/** The pause before attempt `attempt + 1` after a transport failure: 250 ms doubling to 8 s, ±25 % jitter. */
export function backoffMs(attempt: number): number {
  const base = Math.min(8000, 250 * 2 ** attempt);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/** Waits `ms` milliseconds; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
