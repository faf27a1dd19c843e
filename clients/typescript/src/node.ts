// Node.js: gRPC over HTTP/2 (`@connectrpc/connect-node`), the native protocol, with the same interceptors as the
// browser transport. Its own entry point (`@mancala/client/node`), so that browser bundles never pull in `node:http2`.
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";
import { mancalaInterceptors, type MancalaTransportOptions } from "./transport.js";

/**
 * A gRPC transport over HTTP/2 for Node.js (a game's backend, a bot, a test): `http://` speaks cleartext HTTP/2
 * (prior knowledge), `https://` TLS with ALPN `h2`.
 *
 * @example
 * const transport = createNodeTransport({ baseUrl: "http://127.0.0.1:50051", credential: apiKey(process.env.KEY!) });
 */
export function createNodeTransport(options: MancalaTransportOptions): Transport {
  return createGrpcTransport({
    baseUrl: options.baseUrl,
    defaultTimeoutMs: options.timeoutMs,
    interceptors: mancalaInterceptors(options),
  });
}
