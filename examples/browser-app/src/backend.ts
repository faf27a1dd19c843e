// The app's backend. It alone holds the tenant's API key (MANCALA_API_KEY), and gives each signed-in user a
// short-lived player token for his own player id: the browser talks to the mancala server directly with that
// token, never with the key. It also serves the page. A real app puts its own login in front of /api/token; this
// example trusts the `player` the page names.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { apiKey, createClient, Players } from "@mancala/client";
import { createNodeTransport } from "@mancala/client/node";

const mancala = process.env.MANCALA_URL ?? "http://127.0.0.1:50051";
const port = Number(process.env.PORT ?? 5173);
const players = createClient(
  Players,
  createNodeTransport({ baseUrl: mancala, credential: apiKey(process.env.MANCALA_API_KEY ?? "") }),
);

const files: Record<string, [string, string]> = {
  "/": ["index.html", "text/html; charset=utf-8"],
  "/app.js": ["app.js", "text/javascript; charset=utf-8"],
};

createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  try {
    if (req.method === "POST" && url.pathname === "/api/token") {
      const player = url.searchParams.get("player") ?? "";
      if (!/^[a-z0-9-]{1,32}$/.test(player)) {
        res.writeHead(400).end("player: 1 to 32 of a-z, 0-9 and -");
        return;
      }
      const issued = await players.issuePlayerToken({ playerId: player, ttlSeconds: 900 });
      res.writeHead(200, { "content-type": "application/json" });
      // The page calls the mancala server itself: tell it where (the server must list this page's origin in
      // server.cors_allowed_origins).
      res.end(JSON.stringify({ token: issued.token, expiresAtMs: String(issued.expiresAtMs), server: mancala }));
      return;
    }
    const file = files[url.pathname];
    if (req.method !== "GET" || !file) {
      res.writeHead(404).end();
      return;
    }
    const body = await readFile(new URL(file[0], import.meta.url));
    res.writeHead(200, { "content-type": file[1] }).end(body);
  } catch (error) {
    res.writeHead(502).end(String(error));
  }
}).listen(port, "127.0.0.1", () => console.log(`the example app on http://127.0.0.1:${port}/ (mancala at ${mancala})`));
