// Lighthouse (mobile) on the board page with a game in progress: accessibility at least 0.95, performance at least
// 0.9. Run by .ci/lighthouse (BROWSER_AUDITS=1 npm run test:browser), with the Lighthouse of .ci/lighthouse-npm and
// Debian's Chromium, offline (the harness's no-network flags).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { GameKind, Player } from "@mancala/client";
import { CHROMIUM_FLAGS, ROOT, startServer, TIMEOUT } from "./harness";

const modules = process.env.LIGHTHOUSE_MODULES ?? join(ROOT, ".ci", "lighthouse-npm", "node_modules");

test("Lighthouse (mobile): accessibility ≥ 0.95 and performance ≥ 0.9 with a game in progress", { timeout: TIMEOUT * 6 }, async () => {
  const server = await startServer();
  // Specifiers built at run time: the bundler leaves them to Node, which loads .ci/lighthouse's packages.
  const load = (path: string) => import(pathToFileURL(join(modules, path)).href);
  const { default: lighthouse } = await load("lighthouse/core/index.js");
  const { launch } = await load("chrome-launcher/dist/index.js");
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
  });
  try {
    const created = await server.matches.createMatch({
      kind: GameKind.BA_AWA,
      bots: [{ player: Player.NORTH, level: 1 }],
      timeControl: { control: { case: "fischer", value: { initialMs: 600_000n, incrementMs: 5_000n } } },
    });
    const match = created.match!;
    const token = created.tokens.find((t) => t.player === Player.SOUTH)!.token;
    // A game in progress: South has sown and the computer has answered.
    await server.matches.submitMove(
      { matchId: match.matchId, move: match.legalMoves[0], expectedVersion: match.version },
      { headers: { authorization: `Bearer ${token}` } },
    );
    const url = `${server.url}/#match=${match.matchId}&seat=south&token=${token}`;
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["accessibility", "performance"],
      // The match's stream stays open: the page is loaded when the board is drawn, not when the network is quiet.
      maxWaitForLoad: 15_000,
    });
    const categories = result.lhr.categories as Record<string, { score: number }>;
    const audits = result.lhr.audits as Record<string, { score: number | null; title: string; scoreDisplayMode: string }>;
    const failing = Object.entries(audits)
      .filter(([, a]) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "manual")
      .map(([id, a]) => `${id} (${a.score}): ${a.title}`);
    console.log(`Lighthouse mobile: accessibility ${categories.accessibility.score}, performance ${categories.performance.score}`);
    if (failing.length) console.log(`below 0.9: ${failing.join("; ")}`);
    assert.ok(categories.accessibility.score >= 0.95, `accessibility ${categories.accessibility.score}`);
    assert.ok(categories.performance.score >= 0.9, `performance ${categories.performance.score}`);
  } finally {
    await chrome.kill();
    await server.stop();
  }
});
