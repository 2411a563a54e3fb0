#!/usr/bin/env node
// Entry point. The TypeScript sources are compiled to dist/ by `npm ci` (the `prepare` script).
// CommonJS (bin/package.json says so): with the build's CommonJS entry, dist/cli/main.cjs, no
// ES module loader starts for `mcpx --version`, `ls` and `search`, which must cost about one
// Node start (issue 14). Without it (a build without esbuild), or when tsc has written main.js
// since (the bundle would be stale), main.js as tsc wrote it.
"use strict";
const { statSync } = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const cli = path.join(__dirname, "..", "dist", "cli");
const modified = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs;
const built = modified(path.join(cli, "main.js"));
const bundled = modified(path.join(cli, "main.cjs"));
if (built === undefined) {
  process.stderr.write("mcpx: dist/ is missing; run `npm ci` (or `npm run build`) in the mcpx folder first\n");
  process.exit(2);
}
if (bundled !== undefined && bundled >= built) require(path.join(cli, "main.cjs"));
else void import(pathToFileURL(path.join(cli, "main.js")).href);
