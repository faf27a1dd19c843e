// The interceptors every transport of this package carries: the credential on each attempt, calls refused for a
// rate limit sent again after the server's delay, and safe calls retried over a broken connection. (Errors are
// typed by the client, typed-client.ts: Connect re-wraps whatever an interceptor throws.)
import { ConnectError, type Interceptor } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import type { Transport } from "@connectrpc/connect";
import { resolveCredential, type CredentialSource } from "./credentials.js";
import { isTransportCode, toMancalaError } from "./errors.js";
import { backoffMs, sleep } from "./backoff.js";

/** What every transport factory of this package takes, besides where the server is. */
export interface MancalaTransportOptions {
  /** The server's URL, e.g. `https://api.example.com` or `http://127.0.0.1:50051`. */
  baseUrl: string;
  /** Sent as `authorization: Bearer …` with every call (a function is asked again before each attempt). */
  credential?: CredentialSource;
  /**
   * How many times a unary call refused for a rate limit (`RESOURCE_EXHAUSTED` with `RetryInfo`) is sent again,
   * each after the delay the server asked for. Default 3; 0 hands the `RateLimitedError` to the caller at once.
   */
  rateLimitRetries?: number;
  /**
   * How many times a call that is safe to repeat (the stateless Rules calls, reads: `Get…`, `List…`, `WhoAmI`) is
   * sent again when the connection fails, with a growing pause. Default 3. Calls that change a match are retried by
   * {@link submitMove} and the other helpers, with their request id.
   */
  transportRetries?: number;
  /** A deadline for each unary call, in milliseconds (default: none). */
  timeoutMs?: number;
  /** More interceptors, run inside this package's (they see each attempt). */
  interceptors?: Interceptor[];
}

/**
 * A grpc-web transport (binary format), for browsers and any runtime with `fetch`: what the board page uses. The
 * server answers grpc-web on its gRPC port; a page served from another origin needs that origin in the server's
 * `server.cors_allowed_origins`.
 */
export function createWebTransport(options: MancalaTransportOptions): Transport {
  return createGrpcWebTransport({
    baseUrl: options.baseUrl,
    useBinaryFormat: true,
    defaultTimeoutMs: options.timeoutMs,
    interceptors: mancalaInterceptors(options),
  });
}

/** The interceptors of {@link createWebTransport}, for a transport made otherwise (outermost first). */
export function mancalaInterceptors(options: Omit<MancalaTransportOptions, "baseUrl">): Interceptor[] {
  return [
    retries(options.rateLimitRetries ?? 3, options.transportRetries ?? 3),
    bearer(options.credential),
    ...(options.interceptors ?? []),
  ];
}

function bearer(source: CredentialSource): Interceptor {
  return (next) => async (request) => {
    const credential = await resolveCredential(source);
    if (credential) request.header.set("authorization", `Bearer ${credential.secret}`);
    return next(request);
  };
}

/** Methods whose repetition changes nothing: every Rules call and the reads of the other services. */
function safeToRepeat(service: string, method: string): boolean {
  return service === "mancala.v1.Rules" || /^(Get|List|Describe|WhoAmI)/.test(method);
}

function retries(rateLimited: number, transport: number): Interceptor {
  return (next) => async (request) => {
    if (request.stream) return next(request);
    const repeatable = safeToRepeat(request.service.typeName, request.method.name);
    for (let attempt = 0; ; attempt++) {
      try {
        return await next(request);
      } catch (error) {
        if (request.signal.aborted) throw error;
        const typed = toMancalaError(error);
        if (typed.retryDelayMs !== undefined && attempt < rateLimited) {
          await sleep(typed.retryDelayMs, request.signal);
        } else if (repeatable && error instanceof ConnectError && isTransportCode(error.code) && attempt < transport) {
          await sleep(backoffMs(attempt), request.signal);
        } else {
          throw error;
        }
      }
    }
  };
}
