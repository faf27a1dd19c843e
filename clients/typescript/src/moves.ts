// Acting on a match safely: every call carries a request id, so that a retry after a lost answer is answered
// from the server's memory instead of being applied twice, and may carry the version it was decided on, so that
// a move decided on a stale board is refused (VersionConflictError) instead of played.
import type { CallOptions, Client } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Move, MoveSchema } from "./gen/mancala/v1/game_pb.js";
import type { MatchEvent, Matches } from "./gen/mancala/v1/matches_pb.js";
import { toMancalaError } from "./errors.js";
import { backoffMs, sleep } from "./backoff.js";

/** What {@link submitMove} sends. */
export interface SubmitMoveInput {
  matchId: string;
  move: Move | MessageInitShape<typeof MoveSchema>;
  /**
   * The match's version the move was decided on (the last event's `seq`, or `Match.version`): if the match has
   * moved on, the move is refused with a VersionConflictError rather than played on another board. Absent: the
   * move applies to whatever the state is.
   */
  expectedVersion?: bigint;
  /** The idempotency key (at most 128 bytes); absent: a random one, the same for every retry of this call. */
  requestId?: string;
}

/** Options of the calls that change a match. */
export interface ActOptions extends Pick<CallOptions, "signal" | "timeoutMs"> {
  /** How many times the call is sent again, with the same request id, when the connection fails (default 4). */
  retries?: number;
}

/**
 * `Matches/SubmitMove` with a request id, sent again with that same id when the connection fails (the answer
 * may have been lost after the server applied the move: the retry gets the original answer, and the move is
 * applied once). Resolves to the accepted event; throws a MancalaError for a refusal: IllegalMoveError (`reason`
 * `PIT_EMPTY` …), VersionConflictError (`currentVersion`), PermissionDeniedError (not this seat's turn) ….
 *
 * @example
 * const move = { action: { case: "sow", value: { pit: 2 } } } as const;
 * const event = await submitMove(matches, { matchId, move, expectedVersion: match.version });
 */
export async function submitMove(
  matches: Client<typeof Matches>,
  input: SubmitMoveInput,
  options: ActOptions = {},
): Promise<MatchEvent> {
  const requestId = input.requestId ?? newRequestId();
  return withRetries(options, async (call) => {
    const answer = await matches.submitMove(
      { matchId: input.matchId, move: input.move, expectedVersion: input.expectedVersion, requestId },
      call,
    );
    return required(answer.event, "SubmitMove");
  });
}

/** `Matches/Resign`, with a request id and retries as {@link submitMove}. */
export async function resign(
  matches: Client<typeof Matches>,
  input: { matchId: string; expectedVersion?: bigint; requestId?: string },
  options: ActOptions = {},
): Promise<MatchEvent> {
  const requestId = input.requestId ?? newRequestId();
  return withRetries(options, async (call) => {
    const request = { matchId: input.matchId, expectedVersion: input.expectedVersion, requestId };
    const answer = await matches.resign(request, call);
    return required(answer.event, "Resign");
  });
}

/** A random request id: 128 bits in hex (crypto.getRandomValues, which browsers offer on plain http too). */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function withRetries<T>(options: ActOptions, call: (options: CallOptions) => Promise<T>): Promise<T> {
  const retries = options.retries ?? 4;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call({ signal: options.signal, timeoutMs: options.timeoutMs });
    } catch (error) {
      const typed = toMancalaError(error);
      if (options.signal?.aborted || !typed.transient || attempt >= retries) throw typed;
      await sleep(typed.retryDelayMs ?? backoffMs(attempt), options.signal);
    }
  }
}

function required(event: MatchEvent | undefined, method: string): MatchEvent {
  if (!event) throw new Error(`${method}: the server's answer has no event`);
  return event;
}
