// The service, over grpc-web from the page's own origin (the server that served it), with the caller's credential.
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { Rules } from "./gen/mancala/v1/rules_pb";
import { Matches } from "./gen/mancala/v1/matches_pb";
import { BadRequestSchema, ErrorInfoSchema, QuotaFailureSchema } from "./gen/google/rpc/error_details_pb";

/** The credential sent as `authorization: Bearer …`: a seat token, a player token or an API key (from the link). */
let credential = "";

export function setCredential(token: string): void {
  credential = token;
}

const bearer: Interceptor = (next) => (request) => {
  if (credential) request.header.set("authorization", `Bearer ${credential}`);
  return next(request);
};

const transport = createGrpcWebTransport({
  baseUrl: location.origin,
  useBinaryFormat: true,
  interceptors: [bearer],
});

export const rules = createClient(Rules, transport);
export const matches = createClient(Matches, transport);

/** What went wrong, as a sentence for a person: the server's message, its field violations and reason. */
export function explain(error: unknown): string {
  if (!(error instanceof ConnectError)) {
    return `Something went wrong in the page: ${error instanceof Error ? error.message : String(error)}.`;
  }
  const parts: string[] = [];
  const message = error.rawMessage.trim();
  parts.push(`${lead(error.code)}${message ? `: ${message}` : ""}.`);
  for (const bad of error.findDetails(BadRequestSchema)) {
    for (const v of bad.fieldViolations) parts.push(`${v.field}: ${v.description}.`);
  }
  for (const info of error.findDetails(ErrorInfoSchema)) {
    const reason = info.reason.toLowerCase().replaceAll("_", " ");
    if (reason && !message.toLowerCase().includes(reason)) parts.push(`(Reason: ${reason}.)`);
  }
  for (const quota of error.findDetails(QuotaFailureSchema)) {
    for (const v of quota.violations) parts.push(`${v.description}.`);
  }
  return parts.join(" ").replaceAll("..", ".");
}

function lead(code: Code): string {
  switch (code) {
    case Code.InvalidArgument:
      return "The server could not accept the request";
    case Code.FailedPrecondition:
      return "That move is not allowed";
    case Code.NotFound:
      return "No such match on this server";
    case Code.PermissionDenied:
      return "You may not do that";
    case Code.Unauthenticated:
      return "The server did not accept the credential";
    case Code.ResourceExhausted:
      return "The server is busy or a limit was reached";
    case Code.Aborted:
      return "The match moved on meanwhile";
    case Code.Unavailable:
      return "The server cannot be reached";
    case Code.DeadlineExceeded:
      return "The server took too long";
    case Code.Unimplemented:
      return "This server does not offer that";
    case Code.OutOfRange:
      return "That is beyond the match's history";
    default:
      return "The server answered with an error";
  }
}
