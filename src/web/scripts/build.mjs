// `npm run build`: bundles src/main.ts into dist/app.js and copies the page and its style next to it.
// Deterministic (no timestamps, no hashes of the machine): .ci/web rebuilds and compares with the committed dist/.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: [join(root, "src/main.ts")],
  outfile: join(dist, "app.js"),
  bundle: true,
  // The client package from its TypeScript sources (its exports' "mancala-source" condition): no build of it first.
  conditions: ["mancala-source"],
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
});
copyFileSync(join(root, "index.html"), join(dist, "index.html"));
copyFileSync(join(root, "src/style.css"), join(dist, "app.css"));
