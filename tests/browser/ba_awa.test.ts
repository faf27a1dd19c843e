// A whole Ba-awa game against the server's built-in opponent, played on the page to its end screen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fastest, screenshot, startFromForm, waitForTurn, serverAndBrowser } from "./harness";

// Started before this file's tests, stopped after them.
const { server, chromium } = serverAndBrowser();

test("a whole Ba-awa game against the computer ends on the end screen", async () => {
  const page = await chromium().page(server().url);
  await startFromForm(page, "Ba-awa", "computer", "1");
  await fastest(page);
  assert.match(await page.locator("#title").innerText(), /Ba-awa: you are South, the computer \(level 1\) is North/);
  assert.equal(await page.locator(".pit").count(), 12);
  let moves = 0;
  // Until the first game ends: its line on the score sheet stays (the computer may start the next game at once).
  for (;;) {
    const next = await waitForTurn(page, "#games li");
    if (next === "until") break;
    if (next === "next") break;
    const legal = page.locator(".pit.legal");
    const count = await legal.count();
    if (count === 0) continue;
    const pit = legal.nth(moves % count);
    if (moves < 3) {
      // The preview of a move shows on hover (the board after it, and what it does).
      await pit.hover();
      await page.locator("svg.previewing").waitFor();
      assert.match(await page.locator("#status").innerText(), /^If you play [SN]\d/);
    }
    if (moves === 3) await screenshot(page, "ba-awa");
    // Played with the keyboard.
    await pit.focus();
    await page.keyboard.press("Enter");
    moves++;
    await page.locator("#skip:enabled").click({ timeout: 200 }).catch(() => {});
    assert.ok(moves < 300, "the game ends");
  }
  const sheet = await page.locator("#games li").first().innerText();
  assert.match(sheet, /^Game 1: The game is over \((eight or fewer seeds were left|neither player could move)\): (South wins|North wins|a draw)\./);
  const end = page.locator("#end");
  if (await end.isVisible()) assert.match(await end.innerText(), /Game 1 is over|The match is over/);
  console.log(`Ba-awa: ${moves} moves from South; ${sheet}`);
});
