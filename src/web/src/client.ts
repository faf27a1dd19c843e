// The service, over grpc-web from the page's own origin (the server that served it), through the @mancala/client
// package (clients/typescript): its transport sends the caller's credential and types every error. What stays
// here is the page's own: turning an error into a sentence for a person.
import {
  Code,
  anyCredential,
  createClient,
  createWebTransport,
  Lobby,
  Matches,
  MancalaError,
  Rules,
  type Credential,
} from "@mancala/client";

/** The credential from the link: a seat token, a player token or an API key. */
let credential: Credential | undefined;

/** Sets the credential of every later call; throws a TypeError naming the three shapes for anything else. */
export function setCredential(token: string): void {
  credential = token ? anyCredential(token) : undefined;
}

const transport = createWebTransport({ baseUrl: location.origin, credential: () => credential });

export const rules = createClient(Rules, transport);
export const matches = createClient(Matches, transport);
export const lobby = createClient(Lobby, transport);

/** What went wrong, as a sentence for a person: the server's message, its field violations and reason. */
export function explain(error: unknown): string {
  if (!(error instanceof MancalaError)) {
    return `Something went wrong in the page: ${error instanceof Error ? error.message : String(error)}.`;
  }
  const parts: string[] = [];
  const message = error.rawMessage.trim();
  parts.push(`${lead(error.code)}${message ? `: ${message}` : ""}.`);
  for (const v of error.fieldViolations) parts.push(`${v.field}: ${v.description}.`);
  const reason = error.reason.toLowerCase().replaceAll("_", " ");
  if (reason && !message.toLowerCase().includes(reason)) parts.push(`(Reason: ${reason}.)`);
  for (const v of error.quotaViolations) parts.push(`${v.description}.`);
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
