// @mancala/client: the mancala.v1 protocol for browsers and Node.js. The generated messages and service
// descriptors (protobuf-es), a grpc-web transport (Node's HTTP/2 one is in `@mancala/client/node`), and the layer
// every app needs around them: credentials, typed errors, resumable streams and safe moves. Everything is a named
// export of an ES module without side effects, so a bundler keeps only what the app uses.
export {
  Code,
  ConnectError,
  type CallOptions,
  type Client,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
export { create, toJson, fromJson, type MessageInitShape } from "@bufbuild/protobuf";

export { createClient } from "./typed-client.js";
export * from "./credentials.js";
export * from "./errors.js";
export { createWebTransport, mancalaInterceptors, type MancalaTransportOptions } from "./transport.js";
export * from "./streams.js";
export * from "./moves.js";
export * from "./proto.js";

/** The protocol this package speaks: its major version is the package's. */
export const PROTOCOL = "mancala.v1";
