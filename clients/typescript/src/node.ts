// Node.js: gRPC over HTTP/2 (`@connectrpc/connect-node`), the native protocol, with the same interceptors as the
// browser transport. Its own entry point (`@mancala/client/node`), so that browser bundles never pull in `node:http2`.
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";
import { mancalaInterceptors, type MancalaTransportOptions } from "./transport.js";

/** {@link MancalaTransportOptions}, and how the HTTP/2 connection is checked for life. */
export interface NodeTransportOptions extends MancalaTransportOptions {
  /**
   * A PING every this many milliseconds while calls are open, and before a call on a connection quiet for longer:
   * a connection that does not answer within `pingTimeoutMs` is closed and the next call opens a new one (without
   * it, a connection dropped without a word, as by a NAT, would carry the resumed streams into the void). Default
   * 15 000.
   */
  pingIntervalMs?: number;
  /** How long a PING may wait for its answer (default 10 000 ms). */
  pingTimeoutMs?: number;
}

/**
 * A gRPC transport over HTTP/2 for Node.js (a game's backend, a bot, a test): `http://` speaks cleartext HTTP/2
 * (prior knowledge), `https://` TLS with ALPN `h2`.
 *
 * @example
 * const transport = createNodeTransport({ baseUrl: "http://127.0.0.1:50051", credential: apiKey(process.env.KEY!) });
 */
export function createNodeTransport(options: NodeTransportOptions): Transport {
  return createGrpcTransport({
    baseUrl: options.baseUrl,
    defaultTimeoutMs: options.timeoutMs,
    pingIntervalMs: options.pingIntervalMs ?? 15_000,
    pingTimeoutMs: options.pingTimeoutMs ?? 10_000,
    interceptors: mancalaInterceptors(options),
  });
}
