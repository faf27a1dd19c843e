// The package against the real binary (MANCALA_BIN, else target/debug/mancala): a whole match between two players
// of a tenant, refusals decoded, a stream cut and resumed, a rate limit answered after its delay, a lost answer
// to a move retried with its request id.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Code, ConnectError, type Interceptor, type Transport } from "@connectrpc/connect";
import {
  apiKey,
  BadRequestError,
  createClient,
  GameKind,
  IllegalMoveError,
  Lobby,
  Matches,
  MatchStatus,
  Player,
  Players,
  playerToken,
  RateLimitedError,
  Rules,
  seatToken,
  submitMove,
  VersionConflictError,
  watchMatch,
  watchPlayerEvents,
  type Match,
  type Move,
  type ReconnectInfo,
} from "../src/index.js";
import { createNodeTransport } from "../src/node.js";
import { startProxy, startServer, type TestServer } from "./server.js";

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

/** Two players of acme, each with a player token minted by acme's backend (its API key). */
async function twoPlayers(url = server.url, ping: { pingIntervalMs?: number; pingTimeoutMs?: number } = {}) {
  const backend = createClient(Players, createNodeTransport({ baseUrl: server.url, credential: apiKey(server.acmeKey) }));
  const ann = (await backend.issuePlayerToken({ playerId: "ann", ttlSeconds: 600 })).token;
  const bob = (await backend.issuePlayerToken({ playerId: "bob", ttlSeconds: 600 })).token;
  const matchesOf = (token: string) =>
    createClient(Matches, createNodeTransport({ baseUrl: url, credential: playerToken(token), ...ping }));
  return { ann: matchesOf(ann), bob: matchesOf(bob), annToken: ann };
}

async function newMatch(matches: ReturnType<typeof createClient<typeof Matches>>): Promise<Match> {
  const created = await matches.createMatch({
    kind: GameKind.BA_AWA,
    options: { maxGames: 1 },
    players: [
      { player: Player.SOUTH, playerId: "ann" },
      { player: Player.NORTH, playerId: "bob" },
    ],
  });
  assert.ok(created.match);
  return created.match;
}

/** Plays the first legal move of the seat to move, at the match's version, each seat on its own client. */
function mover(players: Awaited<ReturnType<typeof twoPlayers>>, match: Match): () => Promise<void> {
  let current = match;
  return async () => {
    const seat = current.state?.toMove === Player.SOUTH ? players.ann : players.bob;
    await submitMove(seat, { matchId: match.matchId, move: current.legalMoves[0], expectedVersion: current.version });
    current = (await players.ann.getMatch({ matchId: match.matchId })).match!;
  };
}

test("a whole match: two players, each on his own token, watched to its end", async () => {
  const { ann, bob } = await twoPlayers();
  const match = await newMatch(ann);
  let version = match.version;
  let moves = 0;
  let finished = false;
  const play = async (legal: Move[], toMove: Player | undefined) => {
    if (legal.length === 0) return;
    const seat = toMove === Player.SOUTH ? ann : bob;
    const event = await submitMove(seat, { matchId: match.matchId, move: legal[0], expectedVersion: version });
    assert.equal(event.seq, version + 1n);
    moves++;
  };
  for await (const message of watchMatch(ann, match.matchId)) {
    if (message.kind.case === "snapshot") {
      const m = message.kind.value.match!;
      version = m.version;
      await play(m.legalMoves, m.state?.toMove);
    } else if (message.kind.case === "event") {
      const event = message.kind.value;
      assert.equal(event.seq, version + 1n, "events in seq order, no gap");
      version = event.seq;
      await play(event.legalMoves, event.state?.toMove);
    } else if (message.kind.case === "finished") {
      finished = true;
      assert.equal(message.kind.value.version, version);
    }
  }
  assert.ok(finished, "the stream ends with `finished`");
  const final = (await ann.getMatch({ matchId: match.matchId })).match;
  assert.equal(final?.status, MatchStatus.FINISHED);
  assert.equal(final?.version, version);
  assert.ok(moves > 5, `a played-out match (${moves} moves)`);
});

test("refusals arrive typed, with their google.rpc details decoded", async () => {
  const { ann, bob } = await twoPlayers();
  const match = await newMatch(ann);

  // An illegal move (South sowing North's N1): FAILED_PRECONDITION with ErrorInfo reason and metadata.
  const illegal = await submitMove(ann, { matchId: match.matchId, move: { action: { case: "sow", value: { pit: 6 } } } }).catch((e) => e);
  assert.ok(illegal instanceof IllegalMoveError, String(illegal));
  assert.equal(illegal.code, Code.FailedPrecondition);
  assert.equal(illegal.domain, "mancala.v1");
  assert.equal(illegal.reason, "NOT_YOUR_PIT");
  assert.equal(illegal.metadata["pit"], "6");

  // A stale version: ABORTED, reason VERSION_MISMATCH, the current version in its metadata.
  await submitMove(ann, { matchId: match.matchId, move: match.legalMoves[0], expectedVersion: 0n });
  const stale = await submitMove(bob, { matchId: match.matchId, move: { action: { case: "sow", value: { pit: 6 } } }, expectedVersion: 0n }).catch((e) => e);
  assert.ok(stale instanceof VersionConflictError, String(stale));
  assert.equal(stale.code, Code.Aborted);
  assert.equal(stale.reason, "VERSION_MISMATCH");
  assert.equal(stale.currentVersion, 1n);

  // A malformed request: INVALID_ARGUMENT with BadRequest naming the field.
  const rules = createClient(Rules, createNodeTransport({ baseUrl: server.url }));
  const bad = await rules.newGame({ kind: GameKind.BA_AWA, options: { baAwaTarget: 13 } }).catch((e) => e);
  assert.ok(bad instanceof BadRequestError, String(bad));
  assert.ok(bad.fieldViolations.some((v) => v.field.includes("ba_awa_target")), JSON.stringify(bad.fieldViolations));

  // A credential of the wrong shape fails before any call.
  assert.throws(() => seatToken(server.acmeKey), /seat token is 64 hex digits/);
  assert.throws(() => apiKey("eyJhbGciOi.x.y"), /API key looks like mk_/);
});

test("a watch whose connection is cut resumes after its last event, missing and repeating nothing", async () => {
  const proxy = await startProxy(server.url);
  try {
    const direct = await twoPlayers();
    const viaProxy = await twoPlayers(proxy.url);
    const match = await newMatch(direct.ann);
    const reconnects: ReconnectInfo[] = [];
    const seen: bigint[] = [];
    // From seq 0: every event from the first, with no snapshot.
    const stream = watchMatch(viaProxy.ann, match.matchId, { fromSeq: 0n, onReconnect: (info) => reconnects.push(info) });
    const playOne = mover(direct, match);
    await playOne();
    for await (const message of stream) {
      if (message.kind.case !== "event") continue;
      seen.push(message.kind.value.seq);
      if (seen.length === 2) {
        assert.ok(proxy.cut() >= 1, "the watch's connection was cut");
        // Moves made while the watcher is away must reach it after the reconnect.
        await playOne();
        await playOne();
      } else if (seen.length < 5) {
        await playOne();
      } else {
        break;
      }
    }
    assert.deepEqual(seen, [1n, 2n, 3n, 4n, 5n]);
    assert.ok(reconnects.length >= 1, "the stream reconnected");
    assert.equal(reconnects[0].resumeFrom, 2n, "and resumed after seq 2");
  } finally {
    await proxy.close();
  }
});

test("a watch whose connection goes silent is taken for dead after idleTimeoutMs and resumed", async () => {
  const proxy = await startProxy(server.url);
  try {
    const direct = await twoPlayers();
    // The stream's idle timeout (1 s) notices first; a PING every 1.5 s (the transport's check, 15 s by default)
    // then finds the connection dead, so that a reconnect gets a new one.
    const viaProxy = await twoPlayers(proxy.url, { pingIntervalMs: 1500, pingTimeoutMs: 300 });
    const match = await newMatch(direct.ann);
    const reconnects: ReconnectInfo[] = [];
    const seen: bigint[] = [];
    const playOne = mover(direct, match);
    await playOne();
    const options = { fromSeq: 0n, idleTimeoutMs: 1000, onReconnect: (info: ReconnectInfo) => reconnects.push(info) };
    for await (const message of watchMatch(viaProxy.ann, match.matchId, options)) {
      if (message.kind.case !== "event") continue;
      seen.push(message.kind.value.seq);
      if (seen.length === 1) {
        assert.ok(proxy.freeze() >= 1, "the watch's connection went silent");
        await playOne();
        await playOne();
      } else if (seen.length === 3) {
        break;
      }
    }
    assert.deepEqual(seen, [1n, 2n, 3n]);
    const idle = reconnects.find((r) => r.error.rawMessage.includes("taken for dead"));
    assert.ok(idle, JSON.stringify(reconnects.map((r) => r.error.message)));
    assert.equal(idle.resumeFrom, 1n);
  } finally {
    await proxy.close();
  }
});

test("a player's event stream, cut, resumes after its last event and restates his match", async () => {
  const proxy = await startProxy(server.url);
  try {
    const { ann, annToken } = await twoPlayers();
    const lobby = createClient(Lobby, createNodeTransport({ baseUrl: proxy.url, credential: playerToken(annToken) }));
    const reconnects: ReconnectInfo[] = [];
    const events = watchPlayerEvents(lobby, { onReconnect: (info) => reconnects.push(info) });
    let match: Match | undefined;
    let startedId = 0n;
    for await (const event of events) {
      if (event.event.case === "heartbeat" && match === undefined) match = await newMatch(ann);
      if (event.event.case !== "matchStarted" || event.event.value.matchId !== match?.matchId) continue;
      if (!event.restated) {
        startedId = event.eventId;
        assert.ok(proxy.cut() >= 1, "the stream's connection was cut");
      } else {
        break;
      }
    }
    assert.equal(reconnects.length, 1);
    assert.ok(startedId > 0n);
    assert.equal(reconnects[0].resumeFrom, startedId, "resumed after the last new event");
  } finally {
    await proxy.close();
  }
});

test("a rate limit is answered with its delay: the error carries it, the transport waits it out", async () => {
  // Without retries the refusal reaches the caller with RetryInfo, QuotaFailure and ErrorInfo decoded.
  const impatient = createClient(Rules, createNodeTransport({ baseUrl: server.url, credential: apiKey(server.tightKey), rateLimitRetries: 0 }));
  let refused: unknown;
  for (let i = 0; i < 5 && refused === undefined; i++) {
    await impatient.newGame({ kind: GameKind.BOSH }).catch((e) => (refused = e));
  }
  assert.ok(refused instanceof RateLimitedError, String(refused));
  assert.equal(refused.code, Code.ResourceExhausted);
  assert.equal(refused.reason, "RATE_LIMITED");
  assert.ok(refused.retryDelayMs !== undefined && refused.retryDelayMs > 0 && refused.retryDelayMs <= 1000, `${refused.retryDelayMs}`);
  assert.ok(refused.quotaViolations.some((q) => q.subject === "tenant:tight"));

  // With the default, each call is sent again after the server's delay and succeeds; an inner interceptor counts
  // the attempts.
  let attempts = 0;
  let limited = 0;
  const counting: Interceptor = (next) => async (request) => {
    attempts++;
    try {
      return await next(request);
    } catch (error) {
      if (error instanceof ConnectError && error.code === Code.ResourceExhausted) limited++;
      throw error;
    }
  };
  const patient = createClient(Rules, createNodeTransport({ baseUrl: server.url, credential: apiKey(server.tightKey), interceptors: [counting] }));
  for (let i = 0; i < 3; i++) {
    const answer = await patient.newGame({ kind: GameKind.BOSH });
    assert.ok(answer.state);
  }
  assert.ok(limited >= 1, "at least one call was refused for the rate");
  assert.equal(attempts, 3 + limited, "each refused attempt was sent again, and every call succeeded");
});

test("submitMove sends a move whose answer was lost again with the same request id: applied once", async () => {
  const { ann } = await twoPlayers();
  const match = await newMatch(ann);
  // A transport that delivers the first SubmitMove to the server, then loses its answer.
  const real = createNodeTransport({ baseUrl: server.url, credential: playerToken((await twoPlayers()).annToken) });
  const sent: string[] = [];
  let lose = true;
  const lossy: Transport = {
    unary: async (method, signal, timeoutMs, header, input, contextValues) => {
      const answer = await real.unary(method, signal, timeoutMs, header, input, contextValues);
      if (method.name === "SubmitMove") {
        sent.push((input as { requestId: string }).requestId);
        if (lose) {
          lose = false;
          throw new ConnectError("the connection dropped before the answer", Code.Unavailable);
        }
      }
      return answer;
    },
    stream: (...args) => real.stream(...args),
  };
  const event = await submitMove(createClient(Matches, lossy), {
    matchId: match.matchId,
    move: match.legalMoves[0],
    expectedVersion: match.version,
  });
  assert.equal(sent.length, 2, "sent twice");
  assert.equal(sent[0], sent[1], "with the same request id");
  assert.ok(sent[0].length >= 16);
  assert.equal(event.seq, 1n, "the retry got the original answer");
  const after = (await ann.getMatch({ matchId: match.matchId })).match;
  assert.equal(after?.version, 1n, "and the move was applied once");
});
