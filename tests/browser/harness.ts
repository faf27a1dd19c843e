// What every browser test needs: the real binary on a free port with the in-memory store, headless Chromium
// (Debian's), the page, and a gRPC client of its own (the project's generated one, over HTTP/2) to play or set up.
import { spawn, type ChildProcess } from "node:child_process";
import { after, before } from "node:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createClient, Matches, Rules, type GameState } from "@mancala/client";
import { createNodeTransport } from "@mancala/client/node";
import { chromium, type Browser, type Page } from "playwright-core";

export const ROOT = join(import.meta.dirname ?? process.cwd(), "..", "..", "..", "..");

/** Every wait of a test is bounded by this. */
export const TIMEOUT = 30_000;

export interface Server {
  url: string;
  rules: ReturnType<typeof createClient<typeof Rules>>;
  matches: ReturnType<typeof createClient<typeof Matches>>;
  stop(): Promise<void>;
}

/** Starts `MANCALA_BIN` (the debug binary) on 127.0.0.1:0 with the memory store; resolves once it logs its address. */
export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const bin = process.env.MANCALA_BIN ?? join(ROOT, "target", "debug", "mancala");
  const child: ChildProcess = spawn(bin, ["serve"], {
    env: {
      ...process.env,
      MANCALA__SERVER__LISTEN: "127.0.0.1:0",
      MANCALA__MATCHES__STORE: "memory",
      MANCALA__BOTS__THINK_DELAY_MS: "0",
      MANCALA__LOG__FORMAT: "plain",
      NO_COLOR: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const addr = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not say it listens:\n${log}`)), TIMEOUT);
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      const found = /listening addr=([0-9.:]+)/.exec(log.replace(/\x1b\[[0-9;]*m/g, ""));
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("exit", (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
  });
  const url = `http://${addr}`;
  const transport = createNodeTransport({ baseUrl: url });
  return {
    url,
    rules: createClient(Rules, transport),
    matches: createClient(Matches, transport),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export interface Chromium {
  browser: Browser;
  /** A page at `viewport`; `reducedMotion` as the system's setting (reduced: every sowing shown at once). */
  page(url: string, viewport?: { width: number; height: number }, reducedMotion?: "reduce" | "no-preference"): Promise<Page>;
  close(): Promise<void>;
}

/** Debian's Chromium, headless (playwright gives each launch a fresh profile directory, removed on close). */
/** Chromium's flags on this closed network: without the background-networking ones it keeps trying to call out. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function startChromium(): Promise<Chromium> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  const errors: string[] = [];
  return {
    browser,
    async page(url, viewport = { width: 1000, height: 900 }, reducedMotion = "no-preference") {
      const page = await browser.newPage({ viewport, reducedMotion });
      page.setDefaultTimeout(TIMEOUT);
      // A script error on the page fails the test that meets it.
      page.on("pageerror", (error) => errors.push(String(error)));
      await page.goto(url);
      return page;
    },
    async close() {
      await browser.close();
      if (errors.length) throw new Error(`errors on the page:\n${errors.join("\n")}`);
    },
  };
}

/** Writes the page's screenshot to docs/screenshots/NAME.png (shown in docs/guide/browser.md). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = join(ROOT, "docs", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** The seeds the board shows, in pit order (a closed hole shows "×": -1). */
export async function boardPits(page: Page): Promise<number[]> {
  return page.$$eval(".pit", (groups) =>
    groups
      .sort((a, b) => Number(a.getAttribute("data-pit")) - Number(b.getAttribute("data-pit")))
      .map((g) => {
        const text = g.querySelector(".count")?.textContent ?? "";
        return text === "×" ? -1 : Number(text);
      }),
  );
}

/** What the board should show for `state`, as `boardPits` reads it (Bosh's closed holes: -1). */
export function pitsShown(state: GameState): number[] {
  const closed = state.variant.case === "bosh" ? state.variant.value.closed : [];
  return state.pits.map((seeds, pit) => (closed[pit] ? -1 : seeds));
}

/** Animations as fast as they go (the speed control at its top), so tests spend their time on the rules. */
export async function fastest(page: Page): Promise<void> {
  await page.locator("#speed").fill("10");
}

/** Starts a game from the form. */
export async function startFromForm(page: Page, game: string, mode: string, level?: string): Promise<void> {
  await page.selectOption("#game", { label: game });
  await page.selectOption("#mode", mode);
  if (level) await page.selectOption("#level", level);
  await page.click("#start");
  await page.locator("#play").waitFor();
  await page.locator(".pit").first().waitFor();
}

/** Waits until the board takes a move (legal pits shown) or `until` holds; false if `until` came first. */
export async function waitForTurn(page: Page, until: string): Promise<"turn" | "next" | "until"> {
  const found = await Promise.race([
    page.locator(".pit.legal").first().waitFor({ timeout: TIMEOUT * 2 }).then(() => "turn" as const),
    page.locator("#next-game:not([hidden])").waitFor({ timeout: TIMEOUT * 2 }).then(() => "next" as const),
    page.locator(until).first().waitFor({ timeout: TIMEOUT * 2 }).then(() => "until" as const),
  ]);
  return found;
}

/** A server and a browser for the tests of one file: started before them and stopped after them (a file's tests
 * call the getters once they run). */
export function serverAndBrowser(): { server: () => Server; chromium: () => Chromium } {
  let server: Server | undefined;
  let browser: Chromium | undefined;
  before(async () => {
    server = await startServer();
    browser = await startChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = <T>(what: T | undefined, name: string): T => {
    if (what === undefined) throw new Error(`${name} is not started: use it inside a test`);
    return what;
  };
  return { server: () => started(server, "the server"), chromium: () => started(browser, "chromium") };
}
