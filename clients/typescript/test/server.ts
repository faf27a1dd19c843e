// The real binary for the tests: `mancala serve --dev` on a free port with the memory store, two tenants made
// through the Admin service (acme with the default limits, tight with one call per second), and a TCP proxy in
// front of it whose connections a test can cut.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, connect, type Server as NetServer, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "../src/typed-client.js";
import { createNodeTransport } from "../src/node.js";
import { operatorKey } from "../src/credentials.js";
import { Admin } from "../src/gen/mancala/v1/admin_pb.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

export interface TestServer {
  url: string;
  /** acme's API key (default limits). */
  acmeKey: string;
  /** tight's API key: one call per second, bursts of one. */
  tightKey: string;
  stop(): Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const bin = process.env.MANCALA_BIN ?? join(ROOT, "target", "debug", "mancala");
  const child: ChildProcess = spawn(bin, ["serve", "--dev"], {
    env: {
      ...process.env,
      MANCALA__SERVER__LISTEN: "127.0.0.1:0",
      MANCALA__MATCHES__STORE: "memory",
      MANCALA__BOTS__THINK_DELAY_MS: "0",
      MANCALA__LOG__FORMAT: "plain",
      NO_COLOR: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const addr = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not say it listens:\n${log}`)), 30_000);
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
  const admin = createClient(Admin, createNodeTransport({ baseUrl: url, credential: operatorKey("mo_dev-loopback-only") }));
  const acme = await admin.createTenant({ tenantId: "acme", name: "Acme Games" });
  const tight = await admin.createTenant({ tenantId: "tight", name: "Tight", limits: { callsPerSecond: 1, burst: 1 } });
  return {
    url,
    acmeKey: acme.apiKey,
    tightKey: tight.apiKey,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** A TCP proxy to `target` whose open connections {@link Proxy.cut} destroys, as a network failure would. */
export interface Proxy {
  url: string;
  /** Destroys every open connection (both sides); new ones are accepted as before. Returns how many were cut. */
  cut(): number;
  /**
   * Stops forwarding on every open connection without closing it (what a dead NAT does: bytes go nowhere, no reset);
   * new connections work as before. Returns how many were frozen.
   */
  freeze(): number;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const frozen = new Set<Socket>();
  const server: NetServer = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      open.add(a);
      a.on("data", (chunk) => {
        if (!frozen.has(a)) b.write(chunk);
      });
      a.on("error", () => b.destroy());
      a.on("close", () => {
        open.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut() {
      const n = open.size / 2;
      for (const socket of open) socket.destroy();
      return n;
    },
    freeze() {
      for (const socket of open) frozen.add(socket);
      return open.size / 2;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
