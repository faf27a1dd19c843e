// Bosh on one screen, two players, until the round ends; then the refill between rounds, animated and explained.
import { test } from "node:test";
import assert from "node:assert/strict";
import { boardPits, fastest, screenshot, startFromForm, serverAndBrowser } from "./harness";

// Started before this file's tests, stopped after them.
const { server, chromium } = serverAndBrowser();

test("a Bosh round ends and the next one starts with a refill", async () => {
  const page = await chromium().page(server().url);
  await startFromForm(page, "Bosh", "local");
  await fastest(page);
  assert.equal(await page.locator(".pit").count(), 10);
  assert.deepEqual(await boardPits(page), [4, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
  const refill = page.locator("#next-game:not([hidden])");
  let moves = 0;
  while (!(await refill.count())) {
    const legal = page.locator(".pit.legal");
    await Promise.race([legal.first().waitFor(), refill.waitFor()]);
    if (await refill.count()) break;
    // Each side plays its last legal hole: a different line from the first, and a round that ends.
    await legal.last().click();
    moves++;
    await page.locator("#skip:enabled").click({ timeout: 200 }).catch(() => {});
    assert.ok(moves < 400, "the round ends");
  }
  assert.match(await refill.innerText(), /Refill and play the next round/);
  assert.match(await page.locator("#status").innerText(), /Round 1 is over/);
  const sheet = await page.locator("#games li").first().innerText();
  assert.match(sheet, /^Round 1: The round is over \(the player to move had no stones\)/);

  await refill.click();
  await page.locator("#skip:enabled").click({ timeout: 200 }).catch(() => {});
  await page.locator(".pit.legal").first().waitFor();
  const log = await page.locator("#log").innerText();
  assert.match(log, /Refill: (South|North) opens/);
  assert.match(await page.locator("#status").innerText(), /round 2/);
  // Every open hole starts the round with 4; closed ones show as closed.
  const pits = await boardPits(page);
  assert.ok(pits.every((p) => p === 4 || p === -1), pits.join(","));
  await screenshot(page, "bosh");
  console.log(`Bosh: round 1 in ${moves} moves; ${sheet}; round 2 board ${pits.join(",")}`);
});
