// The lobby on the page with a player token (`#lobby&token=…`): Ann challenges Bob by his id, Bob's lobby shows the
// challenge live and he accepts; both pages open the match; after Bob resigns, Ann's Rematch offers one
// (`OfferRematch`) and her lobby lists it. And what anyone may take: Ann's seek and Cy's open challenge, listed in
// Bob's lobby (`ListChallenges` with `open`) with an Accept button each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Admin, createClient, GameKind, Lobby, Players } from "@mancala/client";
import { createNodeTransport } from "@mancala/client/node";
import { startChromium, startServer, type Chromium, type Server } from "./harness";

const OPERATOR_KEY = "mo_browser-lobby-operator";

/** What a lobby test runs in: a server, a browser, each player's token, and a client of the server. */
interface World {
  server: Server;
  browser: Chromium;
  tokens: string[];
  transport: ReturnType<typeof createNodeTransport>;
  bearer: (token: string) => { headers: { authorization: string } };
}

/** A server whose tenant has `names` as players: `body` runs in it with a browser, then both stop. */
async function inTenant(names: string[], body: (world: World) => Promise<void>): Promise<void> {
  const server: Server = await startServer({
    MANCALA__AUTH__OPERATOR_KEY_SHA256: createHash("sha256").update(OPERATOR_KEY).digest("hex"),
    MANCALA__AUTH__PLAYER_TOKEN_SECRET: "a-browser-test-secret-of-at-least-thirty-two-bytes",
  });
  let browser: Chromium | undefined;
  try {
    const transport = createNodeTransport({ baseUrl: server.url });
    const admin = createClient(Admin, transport);
    const players = createClient(Players, transport);
    const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
    const key = (await admin.createTenant({ tenantId: "acme", name: "Acme games" }, bearer(OPERATOR_KEY))).apiKey;
    const tokens = [];
    for (const player of names) {
      tokens.push((await players.issuePlayerToken({ playerId: player, ttlSeconds: 600 }, bearer(key))).token);
    }
    browser = await startChromium();
    await body({ server, browser, tokens, transport, bearer });
  } finally {
    await browser?.close();
    await server.stop();
  }
}

test("a challenge from one lobby to another opens the match on both pages; a rematch is offered", async () => {
  await inTenant(["ann", "bob"], async ({ server, browser, tokens: [ann, bob] }) => {
    const annPage = await browser.page(`${server.url}/#lobby&token=${ann}`, { width: 1280, height: 800 });
    const bobPage = await browser.page(`${server.url}/#lobby&token=${bob}`, { width: 390, height: 844 });
    await annPage.locator("#lobby:not([hidden])").waitFor();
    await bobPage.locator("#lobby:not([hidden])").waitFor();
    await annPage.selectOption("#game", { label: "Bosh" });
    await annPage.selectOption("#time", { label: "5 min + 3 s" });
    await annPage.fill(".lobby-form input[name=to]", "bob");
    await annPage.click(".lobby-form button[type=submit]");
    await annPage.locator(".lobby-list", { hasText: "You challenge bob: Bosh, casual, timed" }).waitFor();
    await bobPage.locator(".lobby-list", { hasText: "ann challenges you: Bosh" }).waitFor();
    await bobPage.getByRole("button", { name: "Accept" }).click();
    for (const page of [annPage, bobPage]) {
      await page.locator("#play:not([hidden]) .pit").first().waitFor();
      assert.match(await page.locator("#title").innerText(), /^Bosh: you play (South|North)$/);
      await page.locator("#clocks .clock").first().waitFor();
    }
    // The resignation asks to confirm: the dialog is accepted.
    bobPage.on("dialog", (d) => void d.accept());
    await bobPage.click("#resign");
    await annPage.locator("#end:not([hidden])").waitFor();
    assert.match(await annPage.locator("#end-text").innerText(), /resigned: (South|North) wins\./);
    await annPage.click("#rematch");
    await annPage.locator(".lobby-list", { hasText: "You challenge bob: Bosh" }).waitFor();
  });
});

test("another player's seek and open challenge are listed in the lobby and taken with Accept", async () => {
  await inTenant(["ann", "bob", "cy"], async ({ server, browser, tokens: [ann, bob, cy], transport, bearer }) => {
    const annPage = await browser.page(`${server.url}/#lobby&token=${ann}`, { width: 1280, height: 800 });
    const bobPage = await browser.page(`${server.url}/#lobby&token=${bob}`, { width: 390, height: 844 });
    await annPage.locator("#lobby:not([hidden])").waitFor();
    await bobPage.locator("#lobby:not([hidden])").waitFor();
    // Ann seeks from her form; Bob's lobby lists her seek (not his to cancel: to accept) and he takes it.
    await annPage.selectOption("#game", { label: "Ba-awa" });
    await annPage.selectOption("#time", { label: "5 min + 3 s" });
    await annPage.click(".lobby-form button[type=submit]");
    await annPage.locator(".lobby-list", { hasText: "Your seek: Ba-awa, timed" }).waitFor();
    const seek = bobPage.locator(".lobby-list li", { hasText: "ann seeks: Ba-awa, casual, timed" });
    await seek.waitFor();
    await seek.getByRole("button", { name: "Accept" }).click();
    for (const page of [annPage, bobPage]) {
      await page.locator("#play:not([hidden]) .pit").first().waitFor();
      assert.match(await page.locator("#title").innerText(), /^Ba-awa: you play (South|North)$/);
    }
    // Cy's open challenge (made by his own client): listed for Bob, back in his lobby, and taken there.
    await createClient(Lobby, transport).createChallenge({ kind: GameKind.BOSH }, bearer(cy));
    const bobLobby = await browser.page(`${server.url}/#lobby&token=${bob}`, { width: 390, height: 844 });
    const open = bobLobby.locator(".lobby-list li", { hasText: "cy challenges anyone: Bosh, casual, untimed" });
    await open.waitFor();
    await open.getByRole("button", { name: "Accept" }).click();
    await bobLobby.locator("#play:not([hidden]) .pit").first().waitFor();
    assert.match(await bobLobby.locator("#title").innerText(), /^Bosh: you play (South|North)$/);
  });
});
