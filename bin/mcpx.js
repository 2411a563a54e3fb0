#!/usr/bin/env node
// Entry point. The TypeScript sources are compiled to dist/ by `npm ci` (the `prepare` script).
import { existsSync } from "node:fs";

const main = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("mcpx: dist/ is missing; run `npm ci` (or `npm run build`) in the mcpx folder first\n");
  process.exit(2);
}
await import(main.href);
