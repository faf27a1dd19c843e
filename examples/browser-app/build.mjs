// `npm run build`: the page's script for browsers (dist/app.js) and the backend for Node (dist/backend.mjs), each
// bundled with the @mancala/client package from its sources.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";

mkdirSync("dist", { recursive: true });
const common = { bundle: true, format: "esm", target: "es2022", conditions: ["mancala-source"], logLevel: "warning" };
await build({ ...common, entryPoints: ["src/app.ts"], outfile: "dist/app.js", platform: "browser", minify: true });
await build({ ...common, entryPoints: ["src/backend.ts"], outfile: "dist/backend.mjs", platform: "node" });
copyFileSync("src/index.html", "dist/index.html");
