// `npm run test:browser`: bundles tests/browser/*.test.ts (with the @mancala/client package they import, from its
// sources) for Node, then runs them one file at a time with node's test runner. The bundles go under node_modules/,
// so that their import of playwright-core resolves here. With BROWSER_AUDITS=1 it runs tests/browser/*.audit.ts instead
// (Lighthouse: .ci/lighthouse).
import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const tests = join(web, "..", "..", "tests", "browser");
const out = join(web, "node_modules", ".browser-tests");
rmSync(out, { recursive: true, force: true });
const only = process.argv.slice(2);
const suffix = process.env.BROWSER_AUDITS === "1" ? ".audit.ts" : ".test.ts";
const files = readdirSync(tests)
  .filter((f) => f.endsWith(suffix))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
await build({
  entryPoints: files.map((f) => join(tests, f)),
  outdir: out,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["playwright-core"],
  conditions: ["mancala-source"],
  nodePaths: [join(web, "node_modules")],
  logLevel: "warning",
});
const bundles = files.map((f) => join(out, f.replace(/\.ts$/, ".mjs")));
const run = spawnSync(process.execPath, ["--test", "--test-concurrency=1", ...bundles], { stdio: "inherit" });
process.exit(run.status ?? 1);
