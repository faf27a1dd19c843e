// Three-player Ba-awa (docs/ba-awa.md §4.7) on the page: South against the server's bots East and North, a seat's
// link for East, and the replay of a three-player match played out by bots, to its placing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { GameKind, Player } from "@mancala/client";
import { boardPits, fastest, screenshot, TIMEOUT, waitForTurn, serverAndBrowser } from "./harness";

// Started before this file's tests, stopped after them.
const { server, chromium } = serverAndBrowser();

test("three-player Ba-awa against the computer: East's pits and standing shown, every seat moves", async () => {
  const page = await chromium().page(server().url);
  // Every line the log shows, kept (the page clears the log at each move).
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) seen.push(n.textContent ?? "");
    }).observe(document.getElementById("log")!, { childList: true });
  });
  await page.selectOption("#game", { label: "Ba-awa" });
  await page.selectOption("#mode", "computer");
  // The choice of players comes from DescribeGame (`players`: [2, 3]).
  await page.locator("#players-field").waitFor();
  assert.deepEqual(await page.locator("#players option").evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)), ["2", "3"]);
  await page.selectOption("#players", "3");
  await page.selectOption("#level", "1");
  await page.click("#start");
  await page.locator(".pit").first().waitFor();
  await fastest(page);
  assert.match(
    await page.locator("#title").innerText(),
    /^Ba-awa for three: you are South, the computer \(level 1\) is East and North/,
  );
  assert.match(await page.locator("#links").innerHTML(), /seat=south/);
  assert.equal(await page.locator(".pit").count(), 12);
  // Game 1: East owns S5, S6, N1, N2 (pits 4–7), coloured as East's and labelled so.
  const eastPits = await page.locator(".pit.east").evaluateAll((g) => g.map((x) => Number(x.getAttribute("data-pit"))));
  assert.deepEqual(eastPits.sort((a, b) => a - b), [4, 5, 6, 7]);
  assert.match((await page.locator('.pit[data-pit="5"]').getAttribute("aria-label")) ?? "", /owned by East/);
  assert.match((await page.locator('.pit[data-pit="0"]').getAttribute("aria-label")) ?? "", /owned by South/);
  // East's standing in its panel; South's and North's on their lines.
  const panel = page.locator(".east-panel");
  assert.match(await panel.textContent() ?? "", /East.*store 0.*4 pits/);
  assert.match(await panel.getAttribute("aria-label") ?? "", /^East: store 0, 4 pits$/);
  const south = page.locator(".side-info").nth(1);
  assert.match(await south.textContent() ?? "", /^South ▶ to move · store 0 · 4 pits$/);
  const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen.join("\n"));
  let moves = 0;
  for (;;) {
    const next = await waitForTurn(page, "#end:not([hidden])");
    if (next !== "turn") break;
    const log = await seen();
    if (moves >= 2 && /East plays/.test(log) && /North plays/.test(log)) {
      // South to move again, after a move by each seat shown: the page's picture of three players.
      await page.locator("#skip:disabled").waitFor();
      assert.match(await page.locator("#status").innerText(), /^South to move/);
      assert.match(await panel.textContent() ?? "", /East.*(store \d+.*\d+ pits?|out)/);
      await screenshot(page, "ba-awa-three");
      break;
    }
    const legal = page.locator(".pit.legal");
    const count = await legal.count();
    if (count === 0) continue;
    await legal.nth(moves % count).click();
    moves++;
    assert.ok(moves < 100, "each seat gets to move");
  }
  const log = await seen();
  assert.match(log, /South plays [SN]\d/);
  assert.match(log, /East plays [SN]\d/);
  assert.match(log, /North plays [SN]\d/);
  console.log(`three-player Ba-awa: ${moves} moves from South`);
});

test("three on one screen: South, East and North move in turn on their own pits", async () => {
  const page = await chromium().page(server().url);
  await page.selectOption("#game", { label: "Ba-awa" });
  await page.selectOption("#mode", "local");
  await page.selectOption("#players", "3");
  assert.equal(await page.locator('#mode option[value="local"]').innerText(), "three players on this screen");
  await page.click("#start");
  await page.locator(".pit").first().waitFor();
  await fastest(page);
  assert.match(await page.locator("#title").innerText(), /^Ba-awa for three: three players on this screen$/);
  for (const seat of ["South", "East", "North"]) {
    await page.locator("#status", { hasText: new RegExp(`^${seat} to move`) }).waitFor();
    const legal = await page.locator(".pit.legal").evaluateAll((g) => g.map((x) => x.getAttribute("aria-label") ?? ""));
    assert.ok(legal.length > 0 && legal.every((label) => label.includes(`owned by ${seat}`)), legal.join("; "));
    await page.locator(".pit.legal").first().click();
    await page.locator("#log", { hasText: `${seat} plays` }).waitFor();
  }
});

test("East plays by its seat's link", async () => {
  const created = await server().matches.createMatch({
    kind: GameKind.BA_AWA,
    options: { baAwaPlayers: 3 },
    bots: [
      { player: Player.SOUTH, level: 1, seed: 3n },
      { player: Player.NORTH, level: 1, seed: 4n },
    ],
  });
  const id = created.match!.matchId;
  const token = created.tokens.find((t) => t.player === Player.EAST)?.token;
  assert.ok(token, "East gets a token");
  const page = await chromium().page(`${server().url}/#match=${id}&seat=east&token=${token}`);
  await fastest(page);
  await page.locator(".pit").first().waitFor();
  assert.match(await page.locator("#title").innerText(), /^Ba-awa for three: you play East$/);
  // South (a bot) moves first; then it is East's turn here, on East's own pits.
  await page.locator(".pit.legal").first().waitFor({ timeout: TIMEOUT });
  const legal = await page.locator(".pit.legal").evaluateAll((g) => g.map((x) => x.getAttribute("aria-label") ?? ""));
  assert.ok(legal.length > 0 && legal.every((label) => /owned by East/.test(label)), legal.join("; "));
  assert.match(await page.locator(".east-panel").textContent() ?? "", /▶ to move/);
  await page.locator(".pit.legal").first().click();
  // The move is East's in the match's log (the page's narration may already have moved on to a bot's reply).
  for (let tries = 0; ; tries++) {
    const { notation } = await server().matches.getHistory({ matchId: id });
    if (notation.split("\n").some((line) => line.startsWith("E "))) break;
    assert.ok(tries < 100, `no move of East in the log:\n${notation}`);
    await page.waitForTimeout(100);
  }
});

test("a three-player match played out by bots is replayed to its elimination and placing", async () => {
  const created = await server().matches.createMatch({
    kind: GameKind.BA_AWA,
    options: { baAwaPlayers: 3 },
    bots: [
      // Seeds with which a player is eliminated on the way (East, after game 19, at the time of writing).
      { player: Player.SOUTH, level: 1, seed: 14n },
      { player: Player.EAST, level: 1, seed: 15n },
      { player: Player.NORTH, level: 1, seed: 16n },
    ],
  });
  const id = created.match!.matchId;
  for await (const message of server().matches.watchMatch({ matchId: id }, { timeoutMs: TIMEOUT * 4 })) {
    if (message.kind.case === "finished") break;
  }
  const history = await server().matches.getHistory({ matchId: id });
  const total = history.events.length;
  const page = await chromium().page(`${server().url}/#replay=${id}`);
  await fastest(page);
  await page.locator("#step", { hasText: `step 0 of ${total}` }).waitFor();
  assert.match(await page.locator("#title").innerText(), /^Ba-awa for three: replay$/);
  assert.deepEqual(await boardPits(page), new Array(12).fill(4));
  assert.equal(await page.locator(".pit.east").count(), 4);
  await page.click("#last");
  await page.locator("#step", { hasText: `step ${total} of ${total}` }).waitFor();
  const end = await page.locator("#end").innerText();
  assert.match(end, /^The match is over: (South|East|North) wins\. Pits: South \d+, East \d+, North \d+\./);
  assert.match(end, /Placing: 1st (South|East|North); /);
  // Whoever was eliminated is said to be out, on the end screen and on the board (East's panel, or a line).
  const out = /(South|East|North) is out \(eliminated after game (\d+)\)/.exec(end);
  assert.ok(out, `an elimination: ${end}`);
  if (out[1] === "East") {
    assert.match(await page.locator(".east-panel").textContent() ?? "", /out.*after game \d+/);
    assert.equal(await page.locator(".east-panel.out").count(), 1);
  } else {
    assert.match(await page.locator(".side-info").allTextContents().then((t) => t.join("\n")), /out after game \d+/);
  }
  console.log(`three-player replay: ${total} events; ${end}`);
});
