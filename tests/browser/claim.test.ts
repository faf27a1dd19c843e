// Claim victory on the page: in a friend's timed match the seat to move closes its page; the other is offered
// "Claim victory", and once the server's abandonment time has passed (1 s here) the claim wins the match.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fastest, startChromium, startFromForm, startServer, type Chromium, type Server } from "./harness";

test("the opponent leaves while to move: Claim victory wins the match", async () => {
  const server: Server = await startServer({ MANCALA__CLOCK__ABANDON_AFTER_MS: "1000" });
  let browser: Chromium | undefined;
  try {
    browser = await startChromium();
    const south = await browser.page(server.url, { width: 1280, height: 800 });
    await south.selectOption("#time", { label: "1 minute" });
    await startFromForm(south, "Bosh", "friend");
    await fastest(south);
    const north = await browser.page(await south.locator("#share-north").inputValue(), { width: 390, height: 844 });
    await fastest(north);
    await south.locator(".pit.legal").first().click();
    await north.locator(".pit.legal").first().click();
    await south.locator(".pit.legal").first().click();
    await north.locator(".pit.legal").first().waitFor();
    assert.ok(await south.locator("#claim").isHidden(), "no claim while North is here");
    await north.close();
    await south.locator("#claim:not([hidden])").waitFor();
    await south.waitForTimeout(1200);
    await south.click("#claim");
    await south.locator("#end-text", { hasText: "North left the match: South claimed the win." }).waitFor();
  } finally {
    await browser?.close();
    await server.stop();
  }
});
