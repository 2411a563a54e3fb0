/** mcpx's own name and version, as it introduces itself to hosts and upstreams. */
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

export const IMPLEMENTATION = { name: "mcpx", version: manifest.version } as const;
