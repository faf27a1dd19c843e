// A Bao la Kete opening on one screen, up to a move whose captured seeds may go from either kichwa, then on to a
// lap ending in the mover's kuu, where he stops or goes on safari: every choice offered in words, never as enums.
import { test } from "node:test";
import assert from "node:assert/strict";
import { GameKind, Kichwa, KuuDecision, type GameState, type Move } from "@mancala/client";
import type { LegalMove } from "@mancala/client";
import { choiceWords } from "../../src/web/src/words";
import { boardPits, fastest, screenshot, startFromForm, serverAndBrowser } from "./harness";

// Started before this file's tests, stopped after them.
const { server, chromium } = serverAndBrowser();

/** The shortest line of moves (at most `depth`) from `state` to a position where some move satisfies `wanted`. */
async function lineTo(
  state: GameState,
  wanted: (move: LegalMove) => boolean,
  depth: number,
): Promise<{ line: LegalMove[]; at: GameState } | null> {
  let frontier: { line: LegalMove[]; at: GameState }[] = [{ line: [], at: state }];
  for (let d = 0; d <= depth; d++) {
    const next: typeof frontier = [];
    for (const node of frontier) {
      const moves = (await server().rules.listLegalMoves({ state: node.at })).moves;
      if (moves.some(wanted)) return node;
      // The first few moves of each position: enough to find a line, bounded in calls.
      for (const move of moves.slice(0, 6)) {
        if (move.result) next.push({ line: [...node.line, move], at: move.result });
      }
    }
    frontier = next.slice(0, 200);
  }
  return null;
}

const sowOf = (move: Move) => (move.action.case === "sow" ? move.action.value : null);

/** Plays `move` on the page: its pit, then, when the pit offers several, the choice in its words. */
async function playOnPage(page: import("playwright-core").Page, move: Move): Promise<void> {
  const sow = sowOf(move);
  assert.ok(sow, "a sowing");
  await page.locator(`.pit.legal[data-pit="${sow.pit}"]`).click();
  const words = choiceWords(move);
  if (words && (await page.locator("#choices:not([hidden])").count())) {
    await page.locator("#choices button.choice", { hasText: words }).click();
  }
  await page.locator("#skip:enabled").click({ timeout: 200 }).catch(() => {});
}

test("a Bao la Kete opening offers the kichwa, then stop or safari, in plain words", async () => {
  const start = (await server().rules.newGame({ kind: GameKind.BAO_LA_KETE })).state!;
  const kichwa = await lineTo(start, (m) => sowOf(m.move!)?.kichwa !== Kichwa.UNSPECIFIED, 6);
  assert.ok(kichwa, "a line of openings reaches a kichwa choice");
  const page = await chromium().page(server().url);
  await startFromForm(page, "Bao la Kete", "local");
  await fastest(page);
  assert.equal(await page.locator(".pit").count(), 32);
  assert.equal(await page.locator('.pit[data-pit="4"] .label').textContent(), "S.f5");
  assert.match((await page.locator('.pit[data-pit="4"]').getAttribute("aria-label")) ?? "", /S\.f5.*, kuu$/);
  for (const legal of kichwa.line) {
    await playOnPage(page, legal.move!);
    await page.locator(".pit.legal").first().waitFor();
  }
  assert.deepEqual(await boardPits(page), kichwa.at.pits);

  // The move with the kichwa choice: the page asks which end, in words.
  const withKichwa = (await server().rules.listLegalMoves({ state: kichwa.at })).moves.find(
    (m) => sowOf(m.move!)?.kichwa !== Kichwa.UNSPECIFIED,
  )!;
  const pit = sowOf(withKichwa.move!)!.pit;
  await page.locator(`.pit.legal[data-pit="${pit}"]`).click();
  const choices = page.locator("#choices button.choice");
  await choices.first().waitFor();
  const offered = await choices.allInnerTexts();
  assert.ok(offered.some((t) => /left end \(f1\)/.test(t)) && offered.some((t) => /right end \(f8\)/.test(t)), offered.join(" | "));
  assert.ok(offered.every((t) => !/KICHWA|DIRECTION|KUU_DECISION|_/.test(t)), "no enum names");
  // Hovering a choice previews it.
  await choices.first().hover();
  await page.locator("svg.previewing").waitFor();
  await screenshot(page, "bao-la-kete");
  await page.locator("#choices button.choice", { hasText: choiceWords(withKichwa.move!) }).click();
  await page.locator("#skip:enabled").click({ timeout: 200 }).catch(() => {});
  await page.locator(".pit.legal").first().waitFor();
  assert.deepEqual(await boardPits(page), withKichwa.result!.pits);

  // On to a lap that ends in the mover's living kuu: stop or safari.
  const safari = await lineTo(withKichwa.result!, (m) => sowOf(m.move!)?.kuuDecision === KuuDecision.SAFARI, 6);
  assert.ok(safari, "a line reaches a stop-or-safari choice");
  for (const legal of safari.line) {
    await playOnPage(page, legal.move!);
    await page.locator(".pit.legal").first().waitFor();
  }
  const withSafari = (await server().rules.listLegalMoves({ state: safari.at })).moves.find(
    (m) => sowOf(m.move!)?.kuuDecision === KuuDecision.SAFARI,
  )!;
  await page.locator(`.pit.legal[data-pit="${sowOf(withSafari.move!)!.pit}"]`).click();
  await choices.first().waitFor();
  const kuuChoices = await choices.allInnerTexts();
  assert.ok(kuuChoices.some((t) => /[Ss]top in your kuu/.test(t)), kuuChoices.join(" | "));
  assert.ok(kuuChoices.some((t) => /[Ss]afari: lift your kuu/.test(t)), kuuChoices.join(" | "));
  await page.locator("#choices button.choice", { hasText: choiceWords(withSafari.move!) }).click();
  await page.locator("#skip:enabled").click({ timeout: 200 }).catch(() => {});
  await page.locator(".pit.legal").first().waitFor();
  assert.deepEqual(await boardPits(page), withSafari.result!.pits);
  const log = await page.locator("#log").innerText();
  assert.match(log, /Safari: the kuu/);
});
