// The three credentials a client sends, as `authorization: Bearer …` (docs/guide/tenants.md). Each constructor
// checks the credential's shape, so that a key passed where a token was meant fails here, not as UNAUTHENTICATED
// at the first call.

/** Which credential it is: they differ in what they may do, not in how they are sent. */
export type CredentialKind = "apiKey" | "playerToken" | "seatToken" | "operatorKey";

/**
 * A credential for `authorization: Bearer`. Make one with {@link apiKey}, {@link playerToken} or {@link seatToken}.
 */
export interface Credential {
  readonly kind: CredentialKind;
  readonly secret: string;
}

/**
 * Where the client gets its credential before each call: a fixed one, none, or a function (called before every
 * call and every reconnect of a stream) for a player token the app renews as it expires.
 */
export type CredentialSource = Credential | undefined | (() => Credential | undefined | Promise<Credential | undefined>);

/**
 * A tenant's API key (`mk_<8 hex>_<48 hex>`): everything of the tenant. Keep it on the app's backend, never in a
 * browser: the backend uses it to mint player tokens (`players.issuePlayerToken`).
 */
export function apiKey(key: string): Credential {
  if (!/^mk_[0-9a-f]{8}_[0-9a-f]{48}$/.test(key)) {
    throw new TypeError("apiKey: an API key looks like mk_<8 hex digits>_<48 hex digits> (tenants create / add-key)");
  }
  return { kind: "apiKey", secret: key };
}

/**
 * A player token (a JWT, `eyJ…`), minted by the tenant's backend with `Players/IssuePlayerToken`: acts for one
 * player of the tenant (the seats bound to him, his lobby) until it expires.
 */
export function playerToken(token: string): Credential {
  if (!/^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) {
    throw new TypeError("playerToken: a player token is a JWT (eyJ….….…) from Players/IssuePlayerToken");
  }
  return { kind: "playerToken", secret: token };
}

/** A seat token (64 hex digits) from `CreateMatch`: reads, watches and plays that one seat of that one match. */
export function seatToken(token: string): Credential {
  if (!/^[0-9a-f]{64}$/.test(token)) {
    throw new TypeError("seatToken: a seat token is 64 hex digits, from CreateMatchResponse.tokens");
  }
  return { kind: "seatToken", secret: token };
}

/** The operator's key (`mo_…`): the `Admin` service only (creating tenants, their keys and limits). */
export function operatorKey(key: string): Credential {
  if (!/^mo_\S+$/.test(key)) throw new TypeError("operatorKey: an operator key looks like mo_… (mancala operator-key)");
  return { kind: "operatorKey", secret: key };
}

/**
 * Any of the three, told apart by its shape (for a credential pasted into a link or a config file); throws a
 * TypeError naming the three shapes when it is none of them.
 */
export function anyCredential(secret: string): Credential {
  if (secret.startsWith("mk_")) return apiKey(secret);
  if (secret.startsWith("eyJ")) return playerToken(secret);
  if (/^[0-9a-f]{64}$/.test(secret)) return seatToken(secret);
  throw new TypeError("credential: neither an API key (mk_…), a player token (eyJ…) nor a seat token (64 hex digits)");
}

export async function resolveCredential(source: CredentialSource): Promise<Credential | undefined> {
  return typeof source === "function" ? await source() : source;
}
