// Typed errors: every failed call of the client is a MancalaError (or one of its subclasses), with the server's
// google.rpc details decoded, so that an app branches on `reason` or `instanceof`, never on message text.
import { Code, ConnectError } from "@connectrpc/connect";
import {
  BadRequestSchema,
  ErrorInfoSchema,
  QuotaFailureSchema,
  RetryInfoSchema,
} from "./gen/google/rpc/error_details_pb.js";

/** One field of a request the server refused (`google.rpc.BadRequest`), e.g. `state.pits[3]`. */
export interface FieldViolation {
  /** The field's path in the request, as the server names it (`move.sow.pit`, `budget.iterations`). */
  readonly field: string;
  /** Why it was refused, as a sentence. */
  readonly description: string;
}

/** One quota the call went over (`google.rpc.QuotaFailure`), e.g. subject `tenant:acme`. */
export interface QuotaViolation {
  readonly subject: string;
  readonly description: string;
}

/**
 * A call the server (or the way to it) refused. `code` is the gRPC status; `reason`, `domain` and `metadata` come
 * from the status's `google.rpc.ErrorInfo` (reason `PIT_EMPTY`, `VERSION_MISMATCH`, `RATE_LIMITED` …, domain
 * `mancala.v1`), `fieldViolations` from its `google.rpc.BadRequest`, `retryDelayMs` from its `google.rpc.RetryInfo`.
 * The error Connect raised is kept as `cause`.
 */
export class MancalaError extends Error {
  override name = "MancalaError";
  /** The gRPC status code (`Code.FailedPrecondition` …). */
  readonly code: Code;
  /** The server's message, without the code in front. */
  readonly rawMessage: string;
  /** `ErrorInfo.reason`, or "" when the status carries none. */
  readonly reason: string;
  /** `ErrorInfo.domain` (`mancala.v1`), or "". */
  readonly domain: string;
  /** `ErrorInfo.metadata` (`pit`, `current_version`, `budget_laps` …). */
  readonly metadata: Readonly<Record<string, string>>;
  /** `BadRequest.field_violations`: every field the server refused, in its order. */
  readonly fieldViolations: readonly FieldViolation[];
  /** `QuotaFailure.violations`. */
  readonly quotaViolations: readonly QuotaViolation[];
  /** `RetryInfo.retry_delay` in milliseconds: how long to wait before trying again; undefined when not given. */
  readonly retryDelayMs: number | undefined;

  constructor(error: ConnectError) {
    super(error.message, { cause: error });
    this.code = error.code;
    this.rawMessage = error.rawMessage;
    const info = error.findDetails(ErrorInfoSchema)[0];
    this.reason = info?.reason ?? "";
    this.domain = info?.domain ?? "";
    this.metadata = { ...(info?.metadata ?? {}) };
    this.fieldViolations = error
      .findDetails(BadRequestSchema)
      .flatMap((bad) => bad.fieldViolations.map((v) => ({ field: v.field, description: v.description })));
    this.quotaViolations = error
      .findDetails(QuotaFailureSchema)
      .flatMap((q) => q.violations.map((v) => ({ subject: v.subject, description: v.description })));
    const delay = error.findDetails(RetryInfoSchema)[0]?.retryDelay;
    this.retryDelayMs = delay ? Number(delay.seconds) * 1000 + Math.ceil(delay.nanos / 1e6) : undefined;
  }

  /**
   * Whether the same call may be sent again as it is: the server is unreachable or was interrupted (the request
   * may or may not have been applied: send state-changing calls again only with the same `request_id`), or it
   * asked to come back later (`retryDelayMs`).
   */
  get transient(): boolean {
    return isTransportCode(this.code) || this.retryDelayMs !== undefined;
  }
}

/** `INVALID_ARGUMENT`: a malformed request; `fieldViolations` says which fields and why. */
export class BadRequestError extends MancalaError {
  override name = "BadRequestError";
}

/** `FAILED_PRECONDITION`: an illegal move or a call the match's state does not allow; `reason` says which rule. */
export class IllegalMoveError extends MancalaError {
  override name = "IllegalMoveError";
}

/**
 * `ABORTED` with reason `VERSION_MISMATCH`: the match moved on since `expected_version`. Re-read the match and
 * decide again; `currentVersion` is the match's version now.
 */
export class VersionConflictError extends MancalaError {
  override name = "VersionConflictError";
  /** The match's version when the move was refused (`ErrorInfo.metadata.current_version`). */
  get currentVersion(): bigint | undefined {
    const v = this.metadata["current_version"];
    return v === undefined ? undefined : BigInt(v);
  }
}

/** `RESOURCE_EXHAUSTED` with `RetryInfo`: over a rate limit; wait `retryDelayMs`, then try again. */
export class RateLimitedError extends MancalaError {
  override name = "RateLimitedError";
}

/** `UNAUTHENTICATED`: no credential where one is needed, or one the server does not accept (the message says why). */
export class UnauthenticatedError extends MancalaError {
  override name = "UnauthenticatedError";
}

/** `PERMISSION_DENIED`: the credential may not do this (not the seat to move, another player's challenge …). */
export class PermissionDeniedError extends MancalaError {
  override name = "PermissionDeniedError";
}

/** `NOT_FOUND`: no such match, player, challenge or seek in the caller's tenant. */
export class NotFoundError extends MancalaError {
  override name = "NotFoundError";
}

/** The server could not be reached or the call was cut off (`UNAVAILABLE`, a reset stream, a network error). */
export class TransportError extends MancalaError {
  override name = "TransportError";
}

/**
 * Codes that say the call did not get an answer, rather than the server's refusal. `Canceled` is one: Node's HTTP/2
 * client reports a connection that broke under a call as a cancelled stream. (A call the app cancelled itself is
 * cancelled too; the helpers of this package look at their own AbortSignal before retrying.)
 */
export function isTransportCode(code: Code): boolean {
  return code === Code.Unavailable || code === Code.Unknown || code === Code.Internal || code === Code.Canceled;
}

/**
 * Turns anything a call threw into the matching MancalaError subclass (a MancalaError is returned as it is).
 */
export function toMancalaError(error: unknown): MancalaError {
  if (error instanceof MancalaError) return error;
  const connect = ConnectError.from(error);
  switch (connect.code) {
    case Code.InvalidArgument:
      return new BadRequestError(connect);
    case Code.FailedPrecondition:
      return new IllegalMoveError(connect);
    case Code.Aborted:
      return new VersionConflictError(connect);
    case Code.ResourceExhausted: {
      const e = new MancalaError(connect);
      return e.retryDelayMs !== undefined ? new RateLimitedError(connect) : e;
    }
    case Code.Unauthenticated:
      return new UnauthenticatedError(connect);
    case Code.PermissionDenied:
      return new PermissionDeniedError(connect);
    case Code.NotFound:
      return new NotFoundError(connect);
    default:
      return isTransportCode(connect.code) ? new TransportError(connect) : new MancalaError(connect);
  }
}
