// The page as a player's product (issue 41), at a desktop's 1280×800 and a phone's 390×844: a game against the
// computer with clocks whose result stays until dismissed; a friend's match by link that ends on a flag fall; a
// spectator in step with the player; a replay stepped with the arrow keys; and what a phone needs (touch targets,
// label sizes, the player's row nearest).
import { test } from "node:test";
import assert from "node:assert/strict";
import { GameKind, Player, Status } from "@mancala/client";
import type { Page } from "playwright-core";
import { boardPits, fastest, pitsShown, screenshot, startFromForm, TIMEOUT, serverAndBrowser } from "./harness";

const { server, chromium } = serverAndBrowser();

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Plays South's first legal pit (and the first of its choices) until `done` holds; returns the moves made. */
async function playUntil(page: Page, done: () => Promise<boolean>, limit = 300): Promise<number> {
  let moves = 0;
  let missed = 0;
  while (!(await done())) {
    const legal = page.locator(".pit.legal");
    const ready = await Promise.race([
      legal.first().waitFor({ timeout: TIMEOUT * 2 }).then(() => true),
      page.locator("#result:not([hidden]), #end:not([hidden])").first().waitFor({ timeout: TIMEOUT * 2 }).then(() => false),
    ]);
    if (!ready) continue;
    // A click that cannot land (the board changed under it) is tried again, but not for ever.
    const landed = await legal.nth(moves % (await legal.count() || 1)).click({ timeout: 5000 }).then(() => true, () => false);
    if (!landed && ++missed > 5) {
      await page.screenshot({ path: "/tmp/play-until-stuck.png" });
      assert.fail(`no legal pit takes a click; the page says: ${await page.locator("#status").innerText()}`);
    }
    if (landed) missed = 0;
    if (await page.locator("#choices:not([hidden])").count()) await page.locator("#choices button.choice").first().click();
    moves++;
    await page.locator("#skip:enabled").click({ timeout: 200 }).catch(() => {});
    assert.ok(moves < limit, "the game ends");
  }
  return moves;
}

/** The smallest rendered size of the pits' touch targets and of their labels, in CSS pixels. */
async function phoneSizes(page: Page): Promise<{ target: number; label: number }> {
  return page.evaluate(() => {
    const targets = [...document.querySelectorAll(".pit .hit")].map((r) => r.getBoundingClientRect());
    const labels = [...document.querySelectorAll(".pit .label")].map((t) => {
      const svg = t.closest("svg") as SVGSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return parseFloat(getComputedStyle(t).fontSize) * scale;
    });
    return {
      target: Math.min(...targets.map((r) => Math.min(r.width, r.height))),
      label: Math.min(...labels),
    };
  });
}

const GAMES = ["Bosh", "Ba-awa", "Bao la Kete"] as const;

for (const size of SIZES) {
  for (const game of GAMES) {
    test(`${size.name}: ${game} against the computer, with clocks; the result stays until dismissed`, async () => {
      // Bao la Kete is played with reduced motion: each sowing is shown at once, as the system's setting asks.
      const bao = game === "Bao la Kete";
      const page = await chromium().page(server().url, size, bao ? "reduce" : "no-preference");
      await page.selectOption("#time", { label: "10 min + 5 s" });
      await startFromForm(page, game, "computer", "1");
      await fastest(page);
      const clocks = page.locator("#clocks .clock");
      await clocks.first().waitFor();
      assert.equal(await clocks.count(), 2);
      assert.match(await clocks.first().innerText(), /^South \(you\) 10:00$/);
      if (size.name === "phone") {
        const sizes = await phoneSizes(page);
        assert.ok(sizes.target >= 44, `touch targets ${sizes.target.toFixed(1)} px`);
        assert.ok(sizes.label >= 12, `labels ${sizes.label.toFixed(1)} px`);
      }
      // Two moves each: the clocks have started and one runs.
      await playUntil(page, async () => (await page.locator("#clocks .clock.running").count()) > 0, 10);
      await screenshot(page, `${game.toLowerCase().replaceAll(" ", "-")}-${size.name}`);
      assert.ok(await page.locator("#abort").isHidden(), "no abort once the clocks run");
      const started = Date.now();
      const moves = await playUntil(page, async () => (await page.locator("#result:not([hidden]), #end:not([hidden])").count()) > 0);
      const result = page.locator("#result");
      if (await result.isVisible()) {
        const text = await page.locator("#result-text").innerText();
        assert.match(text, /(Game|Round) 1 is over/);
        assert.match(text, /Match standing \((pits|open holes|games won)\): South \d+, North \d+/);
        // Still there a second later, although the computer may already have started the next game.
        await page.waitForTimeout(1200);
        assert.ok(await result.isVisible(), "the result stays");
        assert.match(await page.locator("#score").innerText(), /^Match \(.*\): South \d+, North \d+ · (game|round) 1$/);
        await page.click("#next-game");
        await page.locator("#result").waitFor({ state: "hidden" });
        await page.locator("#score", { hasText: / (game|round) 2$/ }).waitFor();
      } else {
        assert.match(await page.locator("#end-text").innerText(), /The match is over/);
      }
      console.log(`${size.name} ${game}: game 1 in ${moves} moves of South, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    });
  }
}

/** Sows from the page's first legal pit, making the first choice offered (Bao la Kete's direction, kichwa…). */
async function sowFirst(page: Page): Promise<void> {
  await page.locator(".pit.legal").first().click();
  if (await page.locator("#choices:not([hidden])").count()) await page.locator("#choices button.choice").first().click();
}

/** The last pit's index, North's: drawn at the bottom for a player sitting North. */
const LAST_PIT = { Bosh: 9, "Ba-awa": 11, "Bao la Kete": 31 } as const;

for (const game of GAMES) test(`${game}: a friend's match by link, timed: the flag falls and both pages say so`, async () => {
  const south = await chromium().page(server().url, SIZES[0]);
  await south.selectOption("#time", { label: "15 seconds" });
  await startFromForm(south, game, "friend");
  await fastest(south);
  const link = await south.locator("#share-north").inputValue();
  assert.match(link, /#match=[0-9a-f]{32}&seat=north&token=[0-9a-f]{64}$/);
  const north = await chromium().page(link, SIZES[1]);
  await fastest(north);
  await north.locator(".pit").first().waitFor();
  assert.match(await north.locator("#title").innerText(), new RegExp(`${game}: you play North`));
  // The phone's player sits North: his row is drawn nearest (at the bottom).
  const rows = await north.evaluate((last) => {
    const y = (pit: number) => document.querySelector(`.pit[data-pit="${pit}"]`)!.getBoundingClientRect().y;
    return { south: y(0), north: y(last) };
  }, LAST_PIT[game]);
  assert.ok(rows.north > rows.south, JSON.stringify(rows));
  assert.ok(await south.locator("#abort").isVisible(), "abort before each has sown");
  // Each sows once: the clocks start, North's runs after South's second sowing... South waits and loses on time.
  await sowFirst(south);
  await sowFirst(north);
  await south.locator("#clocks .clock.running").waitFor();
  assert.ok(await south.locator("#abort").isHidden(), "no abort once the clocks run");
  if (game === "Bosh") await screenshot(north, "friend-phone");
  await south.locator("#clocks .clock.low").waitFor({ timeout: TIMEOUT });
  await south.locator("#end:not([hidden])").waitFor({ timeout: TIMEOUT });
  assert.match(await south.locator("#end-text").innerText(), /South ran out of time: North wins on time\./);
  await north.locator("#end-text", { hasText: "North wins on time" }).waitFor();
  assert.ok(await south.locator("#rematch").isVisible());
  assert.match((await south.locator("#end-replay").getAttribute("href")) ?? "", /^#replay=[0-9a-f]{32}$/);
  if (game === "Bosh") await screenshot(south, "flag-fall-desktop");
});

/** Records, in the page, when the board starts showing each stream seq (the page's `data-showing`), on the
 * browser's clock: both pages share it, so the comparison does not depend on when the test's process gets to look. */
async function recordShowing(page: Page): Promise<void> {
  await page.evaluate(() => {
    const board = document.getElementById("board")!;
    const times: Record<string, number> = {};
    (window as unknown as { showing: Record<string, number> }).showing = times;
    const note = () => {
      const seq = board.dataset.showing;
      if (seq && !(seq in times)) times[seq] = performance.timeOrigin + performance.now();
    };
    note();
    new MutationObserver(note).observe(board, { attributes: true, attributeFilter: ["data-showing"] });
  });
}

const showingTimes = (page: Page) =>
  page.evaluate(() => (window as unknown as { showing: Record<string, number> }).showing);

for (const size of SIZES) for (const game of GAMES) test(`${size.name}: a ${game} spectator sees each move within a second of the player`, async () => {
  const player = await chromium().page(server().url, size);
  await startFromForm(player, game, "computer", "1");
  const id = /match=([0-9a-f]{32})/.exec(player.url())?.[1];
  assert.ok(id);
  const spectator = await chromium().page(`${server().url}/#watch=${id}`, size);
  await spectator.locator(".pit").first().waitFor();
  await Promise.all([recordShowing(player), recordShowing(spectator)]);
  // Four sowings of South's and the computer's answers, each animated at the pages' (default) speed; a game that
  // ends meanwhile is moved on from its result, so its end and the next game's start are compared too.
  const turn = () =>
    Promise.race([
      player.locator(".pit.legal").first().waitFor().then(() => true),
      player.locator("#result:not([hidden])").waitFor().then(() => false),
    ]);
  for (let sown = 0; sown < 4; ) {
    if (await turn()) {
      await sowFirst(player);
      sown++;
    } else {
      // (Against the computer the page moves on by itself after a pause: the button may be gone already.)
      await player.click("#next-game", { timeout: 5000 }).catch(() => {});
    }
  }
  // The computer's answer to the last (or the game's result).
  await turn();
  const match = (await server().matches.getMatch({ matchId: id })).match!;
  const version = match.version;
  // Both pages draw the server's board once its last move is shown (the pointer taken off the player's pits, whose
  // hover shows a preview instead).
  await player.mouse.move(0, 0);
  await player.locator("svg.previewing").waitFor({ state: "detached" });
  for (const page of [player, spectator]) {
    await page.waitForFunction((v) => Number(document.getElementById("board")!.dataset.shown) >= v, Number(version));
  }
  if (match.state!.status === Status.IN_PROGRESS) {
    assert.deepEqual(await boardPits(player), pitsShown(match.state!));
    assert.deepEqual(await boardPits(spectator), pitsShown(match.state!));
  }
  const [mine, theirs] = await Promise.all([showingTimes(player), showingTimes(spectator)]);
  const gaps: number[] = [];
  for (let seq = 1n; seq <= version; seq++) {
    const key = String(seq);
    assert.ok(key in theirs, `the spectator showed move ${key}`);
    if (key in mine) gaps.push(theirs[key] - mine[key]);
  }
  assert.ok(gaps.length >= 8, `the player's page showed ${gaps.length} of ${version} moves`);
  const worst = Math.max(...gaps.map(Math.abs));
  console.log(`${size.name} ${game}: ${gaps.length} moves, spectator minus player (ms): ${gaps.map((g) => g.toFixed(0)).join(" ")}`);
  assert.ok(worst <= 1000, `the spectator showed a move ${worst.toFixed(0)} ms from the player`);
  if (game === "Ba-awa" && size.name === "phone") await screenshot(spectator, "watching-phone");
});

const KINDS = { Bosh: GameKind.BOSH, "Ba-awa": GameKind.BA_AWA, "Bao la Kete": GameKind.BAO_LA_KETE } as const;

for (const size of SIZES) for (const game of GAMES) test(`${size.name}: a ${game} replay steps with the arrow keys, Home and End, and ends without anybody to move`, async () => {
  const created = await server().matches.createMatch({
    kind: KINDS[game],
    bots: [
      { player: Player.SOUTH, level: 1, seed: 3n },
      { player: Player.NORTH, level: 1, seed: 4n },
    ],
    options: { maxGames: 1 },
  });
  const id = created.match!.matchId;
  for await (const message of server().matches.watchMatch({ matchId: id }, { timeoutMs: TIMEOUT * 4 })) {
    if (message.kind.case === "finished") break;
  }
  const history = await server().matches.getHistory({ matchId: id });
  const total = history.events.length;
  const page = await chromium().page(`${server().url}/#replay=${id}`, size);
  await fastest(page);
  await page.locator("#step", { hasText: `step 0 of ${total}` }).waitFor();
  // The keys step the replay wherever the focus is, but in a field (the speed slider, just used).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("ArrowRight");
  await page.locator("#step", { hasText: `step 1 of ${total}` }).waitFor();
  await page.keyboard.press("ArrowRight");
  await page.locator("#step", { hasText: `step 2 of ${total}` }).waitFor();
  await page.keyboard.press("ArrowLeft");
  await page.locator("#step", { hasText: `step 1 of ${total}` }).waitFor();
  await page.keyboard.press("End");
  await page.locator("#step", { hasText: `step ${total} of ${total}` }).waitFor();
  assert.deepEqual(await boardPits(page), pitsShown(history.events[total - 1].state!));
  const sides = (await page.locator(".side-info").allTextContents()).join(" ");
  assert.doesNotMatch(sides, /to move/);
  assert.match(await page.locator("#end-text").innerText(), /^The match (is over|reached its most games)/);
  if (game === "Bosh" && size.name === "phone") await screenshot(page, "replay-phone");
  await page.keyboard.press("Home");
  await page.locator("#step", { hasText: `step 0 of ${total}` }).waitFor();
});

test("an end by agreement: offered, declined, withdrawn, then accepted; the result says so on both pages", async () => {
  const south = await chromium().page(server().url, SIZES[0]);
  await page0(south);
  const link = await south.locator("#share-north").inputValue();
  const north = await chromium().page(link, SIZES[1]);
  await fastest(north);
  await south.locator(".pit.legal").first().click();
  await north.locator(".pit.legal").first().waitFor();
  await south.click("#offer-end");
  await north.locator("#offer", { hasText: "South offers to end this game by agreement" }).waitFor();
  await north.click("#decline-end");
  await south.locator("#offer-end:not([hidden])").waitFor();
  assert.ok(await south.locator("#offer").isHidden());
  await south.click("#offer-end");
  await south.locator("#withdraw-end:not([hidden])").waitFor();
  await south.click("#withdraw-end");
  await north.locator("#offer-end:not([hidden])").waitFor();
  await north.click("#offer-end");
  await south.locator("#accept-end:not([hidden])").waitFor();
  await south.click("#accept-end");
  for (const page of [south, north]) {
    await page.locator("#result:not([hidden])").waitFor();
    assert.match(await page.locator("#result-text").innerText(), /^Round 1 is over: the round is drawn|^Round 1 is over/);
    assert.match(await page.locator("#games").innerText(), /the players agreed to end it/);
  }
});

/** A friend's untimed Bosh match, South's page. */
async function page0(page: Page): Promise<void> {
  await page.selectOption("#time", { label: "untimed" });
  await startFromForm(page, "Bosh", "friend");
  await fastest(page);
  assert.ok(await page.locator("#clocks").isHidden(), "no clocks when untimed");
}

test("the narrowest phone, 360 px: Bao la Kete's eight columns keep 44 px cells and 12 px labels", async () => {
  const page = await chromium().page(server().url, { width: 360, height: 740 });
  await startFromForm(page, "Bao la Kete", "local");
  const sizes = await phoneSizes(page);
  assert.ok(sizes.target >= 44, `touch targets ${sizes.target.toFixed(2)} px`);
  assert.ok(sizes.label >= 12, `labels ${sizes.label.toFixed(2)} px`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360, "no sideways scrolling");
});
