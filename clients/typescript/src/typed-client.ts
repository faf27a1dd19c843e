// A service client whose every failure is a typed MancalaError. Connect turns whatever an interceptor throws back
// into a plain ConnectError, so the typing happens here, around each method, rather than in the transport.
import { createClient as createConnectClient, type Client, type Transport } from "@connectrpc/connect";
import type { DescService } from "@bufbuild/protobuf";
import { toMancalaError } from "./errors.js";

type AnyMethod = (...args: unknown[]) => unknown;

/**
 * `createClient` of `@connectrpc/connect` (the same methods, requests and answers), except that each method's
 * failure, a stream's included, is thrown as a {@link MancalaError} subclass with its google.rpc details decoded.
 *
 * @example
 * const matches = createClient(Matches, createWebTransport({ baseUrl, credential: playerToken(token) }));
 */
export function createClient<T extends DescService>(service: T, transport: Transport): Client<T> {
  const inner = createConnectClient(service, transport) as unknown as Record<string, AnyMethod>;
  const typed: Record<string, AnyMethod> = {};
  for (const method of service.methods) {
    const call = inner[method.localName];
    typed[method.localName] =
      method.methodKind === "unary"
        ? async (...args) => {
            try {
              return await call(...args);
            } catch (error) {
              throw toMancalaError(error);
            }
          }
        : (...args) => typedStream(call(...args) as AsyncIterable<unknown>);
  }
  return typed as unknown as Client<T>;
}

async function* typedStream<M>(messages: AsyncIterable<M>): AsyncGenerator<M, void, undefined> {
  try {
    yield* messages;
  } catch (error) {
    throw toMancalaError(error);
  }
}
