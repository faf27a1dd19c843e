// A spectator's page follows a match live while a test client plays it (gRPC over HTTP/2, the seats' tokens), and a
// finished match is replayed step by step from its history.
import { test } from "node:test";
import assert from "node:assert/strict";
import { GameKind, Player } from "@mancala/client";
import { boardPits, fastest, screenshot, TIMEOUT, serverAndBrowser } from "./harness";

// Started before this file's tests, stopped after them.
const { server, chromium } = serverAndBrowser();

const seat = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** Waits until the page's board shows `pits`. */
async function boardShows(page: import("playwright-core").Page, pits: number[]): Promise<void> {
  await page.waitForFunction(
    (want) => {
      const groups = [...document.querySelectorAll(".pit")].sort(
        (a, b) => Number(a.getAttribute("data-pit")) - Number(b.getAttribute("data-pit")),
      );
      return groups.map((g) => g.querySelector(".count")?.textContent).join(",") === want.join(",");
    },
    pits,
    { timeout: TIMEOUT },
  );
}

test("a spectator watches a match live while a client plays it, to the resignation", async () => {
  const created = await server().matches.createMatch({ kind: GameKind.BOSH });
  const id = created.match!.matchId;
  const tokens = new Map(created.tokens.map((t) => [t.player, t.token]));
  const page = await chromium().page(`${server().url}/#watch=${id}`);
  await fastest(page);
  await page.locator(".pit").first().waitFor();
  assert.match(await page.locator("#title").innerText(), /Bosh: watching live/);
  // A spectator cannot move.
  assert.equal(await page.locator(".pit.legal").count(), 0);
  let match = created.match!;
  for (let move = 0; move < 6; move++) {
    const mover = match.state!.toMove;
    const answer = await server().matches.submitMove(
      { matchId: id, move: match.legalMoves[0], expectedVersion: match.version },
      seat(tokens.get(mover)!),
    );
    const event = answer.event!;
    await boardShows(page, event.state!.pits);
    assert.match(await page.locator("#log").innerText(), new RegExp(`${mover === Player.SOUTH ? "South" : "North"} plays`));
    match = { ...match, state: event.state, version: event.seq, legalMoves: event.legalMoves };
  }
  await page.locator("#skip:disabled").waitFor();
  await screenshot(page, "watching");
  await server().matches.resign({ matchId: id }, seat(tokens.get(Player.NORTH)!));
  await page.locator("#end-text", { hasText: "North resigned: South wins." }).waitFor();
});

test("a finished match is replayed step by step, forward and back", async () => {
  // Two of the server's bots play a Ba-awa match out; the stream ends when it is over.
  const created = await server().matches.createMatch({
    kind: GameKind.BA_AWA,
    bots: [
      { player: Player.SOUTH, level: 1, seed: 7n },
      { player: Player.NORTH, level: 1, seed: 8n },
    ],
  });
  const id = created.match!.matchId;
  for await (const message of server().matches.watchMatch({ matchId: id }, { timeoutMs: TIMEOUT * 4 })) {
    if (message.kind.case === "finished") break;
  }
  const history = await server().matches.getHistory({ matchId: id });
  const total = history.events.length;
  assert.ok(total > 3);

  const page = await chromium().page(`${server().url}/#replay=${id}`);
  await fastest(page);
  await page.locator("#step", { hasText: `step 0 of ${total}` }).waitFor();
  assert.deepEqual(await boardPits(page), new Array(12).fill(4));
  for (let step = 1; step <= 3; step++) {
    await page.click("#forward");
    await page.locator("#skip:enabled").click({ timeout: 200 }).catch(() => {});
    await page.locator("#step", { hasText: `step ${step} of ${total}` }).waitFor();
    await boardShows(page, history.events[step - 1].state!.pits);
  }
  await page.click("#back");
  await page.locator("#step", { hasText: `step 2 of ${total}` }).waitFor();
  await boardShows(page, history.events[1].state!.pits);
  await page.click("#last");
  await page.locator("#step", { hasText: `step ${total} of ${total}` }).waitFor();
  await boardShows(page, history.events[total - 1].state!.pits);
  assert.match(await page.locator("#end").innerText(), /The match is over: (South|North) wins\./);
  await page.locator("#skip:disabled").waitFor();
  await screenshot(page, "replay");
  await page.click("#first");
  await page.locator("#step", { hasText: `step 0 of ${total}` }).waitFor();
});
