// Streams that survive a dropped connection: each reconnects by itself and resumes exactly after the last event
// it handed out (WatchMatch `from_seq`, WatchPlayerEvents / WatchTenantFeed `after_event_id`), so that the app
// sees every event once, in order, whatever the network does.
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { Matches, WatchMatchResponse } from "./gen/mancala/v1/matches_pb.js";
import type { FeedEvent, Lobby, PlayerEvent } from "./gen/mancala/v1/lobby_pb.js";
import { toMancalaError, type MancalaError } from "./errors.js";
import { backoffMs, sleep } from "./backoff.js";

/** What a resumable stream does when its connection fails. */
export interface ResumeOptions {
  /** Ends the stream (the loop over it returns). */
  signal?: AbortSignal;
  /**
   * How many reconnects in a row may fail before the stream gives up and throws the last error (default 8; the
   * count starts again with each message received).
   */
  maxReconnects?: number;
  /**
   * A connection that brings nothing for this long is taken for dead (a NAT or a proxy that dropped it without a
   * word), and the stream resumes on a new one. The server sends a heartbeat every 15 s of silence by default
   * (`matches.heartbeat_interval_ms`, `lobby.heartbeat_ms`), so the default, 45 000 ms, is three missed heartbeats.
   * 0: never.
   */
  idleTimeoutMs?: number;
  /** Told of each reconnect before its pause: the error that ended the last stream and where it resumes. */
  onReconnect?: (info: ReconnectInfo) => void;
}

export interface ReconnectInfo {
  /** 1 for the first reconnect after a message, 2 for the next if that failed too … */
  attempt: number;
  error: MancalaError;
  /** The resume point sent: the last seq (or event id) handed out, undefined when nothing was yet. */
  resumeFrom: bigint | undefined;
  delayMs: number;
}

/** Options of {@link watchMatch}. */
export interface WatchMatchOptions extends ResumeOptions {
  /** Ask for the preview of every legal move with each snapshot and event. */
  previews?: boolean;
  /** Resume after this `seq` (an event already had); absent: start with a snapshot of the match. */
  fromSeq?: bigint;
}

/**
 * `Matches/WatchMatch`, resumed after a dropped connection from the last event's `seq` (no snapshot then, and no
 * event twice). Ends after the `finished` message, or when `signal` aborts. Throws a MancalaError for a refusal
 * (`NOT_FOUND` …) or after `maxReconnects` failed reconnects.
 *
 * @example
 * for await (const message of watchMatch(matches, matchId)) {
 *   if (message.kind.case === "event") render(message.kind.value.state);
 * }
 */
export async function* watchMatch(
  matches: Client<typeof Matches>,
  matchId: string,
  options: WatchMatchOptions = {},
): AsyncGenerator<WatchMatchResponse, void, undefined> {
  let last = options.fromSeq;
  yield* resumable(options, () => last, (signal) =>
    (async function* () {
      const request = { matchId, previews: options.previews ?? false, fromSeq: last };
      for await (const message of matches.watchMatch(request, { signal })) {
        if (message.kind.case === "snapshot") last = message.kind.value.match?.version ?? last;
        if (message.kind.case === "event") last = message.kind.value.seq;
        yield message;
        if (message.kind.case === "finished") return true;
      }
      return false;
    })(),
  );
}

/** Options of {@link watchPlayerEvents} and {@link watchTenantFeed}. */
export interface WatchEventsOptions extends ResumeOptions {
  /** Resume after this event id (0 or absent: from now, with what stands restated). */
  afterEventId?: bigint;
}

/**
 * `Lobby/WatchPlayerEvents` (a player token), resumed after a dropped connection from the last resume point:
 * the last heartbeat's `last_event_id` or the last new event's id, never a restated event's. Each (re)connect
 * restates what stands for the player (`restated` set): treat a `match_started` of a match already known as that
 * match. Runs until `signal` aborts.
 */
export function watchPlayerEvents(
  lobby: Client<typeof Lobby>,
  options: WatchEventsOptions = {},
): AsyncGenerator<PlayerEvent, void, undefined> {
  return eventStream(options, (afterEventId, signal) => lobby.watchPlayerEvents({ afterEventId }, { signal }));
}

/** `Lobby/WatchTenantFeed` (the tenant's API key, on its backend), resumed like {@link watchPlayerEvents}. */
export function watchTenantFeed(
  lobby: Client<typeof Lobby>,
  options: WatchEventsOptions = {},
): AsyncGenerator<FeedEvent, void, undefined> {
  return eventStream(options, (afterEventId, signal) => lobby.watchTenantFeed({ afterEventId }, { signal }));
}

/** A lobby stream (`after_event_id`), resumed from {@link resumePoint}. */
async function* eventStream<E extends PlayerEvent | FeedEvent>(
  options: WatchEventsOptions,
  open: (afterEventId: bigint, signal: AbortSignal) => AsyncIterable<E>,
): AsyncGenerator<E, void, undefined> {
  let last = options.afterEventId;
  yield* resumable(options, () => last, (signal) =>
    (async function* () {
      for await (const event of open(last ?? 0n, signal)) {
        last = resumePoint(event, last);
        yield event;
      }
      return false;
    })(),
  );
}

function resumePoint(event: PlayerEvent | FeedEvent, last: bigint | undefined): bigint | undefined {
  if (event.event.case === "heartbeat") return event.event.value.lastEventId;
  if ("restated" in event && event.restated) return last;
  return event.eventId;
}

/**
 * Runs `open` until one of its streams returns true (the stream's natural end) or the signal aborts; a stream
 * that fails with a transient error, or ends without its last message, is opened again after a pause.
 */
async function* resumable<T>(
  options: ResumeOptions,
  resumeFrom: () => bigint | undefined,
  open: (signal: AbortSignal) => AsyncGenerator<T, boolean, undefined>,
): AsyncGenerator<T, void, undefined> {
  const outer = options.signal;
  let failures = 0;
  for (;;) {
    if (outer?.aborted) return;
    const attempt = new AbortController();
    const stop = () => attempt.abort(outer?.reason);
    outer?.addEventListener("abort", stop, { once: true });
    let error: MancalaError;
    try {
      const stream = open(attempt.signal);
      for (;;) {
        const next = await unlessIdle(stream.next(), options.idleTimeoutMs ?? 45_000, attempt);
        if (next.done) {
          if (next.value) return;
          break;
        }
        failures = 0;
        yield next.value;
      }
      error = toMancalaError(new Error("the stream ended before its last message"));
    } catch (thrown) {
      if (outer?.aborted) return;
      error = toMancalaError(thrown);
      if (!error.transient) throw error;
    } finally {
      outer?.removeEventListener("abort", stop);
      attempt.abort();
    }
    failures++;
    if (failures > (options.maxReconnects ?? 8)) throw error;
    const delayMs = error.retryDelayMs ?? backoffMs(failures - 1);
    options.onReconnect?.({ attempt: failures, error, resumeFrom: resumeFrom(), delayMs });
    try {
      await sleep(delayMs, outer);
    } catch {
      return;
    }
  }
}

/** `next`, or a rejection (and the attempt aborted) when it takes longer than `idleMs`. */
function unlessIdle<R>(next: Promise<R>, idleMs: number, attempt: AbortController): Promise<R> {
  if (!(idleMs > 0)) return next;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ConnectError(`no message for ${idleMs} ms: the connection is taken for dead`, Code.Unavailable);
      attempt.abort(error);
      reject(error);
    }, idleMs);
  });
  return Promise.race([next, idle]).finally(() => clearTimeout(timer));
}
