/**
 * Many fake upstreams serving real catalogues (the shared LiveMCPTool data): one child process
 * (test/fixtures/catalogue-server.mjs) with one Streamable HTTP endpoint per server, and the
 * mcpx config entries that point at them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fixture } from "./mcpx.js";
import { dataFile } from "./tool-search-data.js";

export interface CatalogueServers {
  /** mcpx server name (the data's name made a valid config name) → its URL. */
  urls: Map<string, string>;
  /** mcpx server name → the server's name in the data. */
  original: Map<string, string>;
  /** `mcpServers` entries for an mcpx config. */
  entries(extra?: object): Record<string, object>;
  stop(): Promise<void>;
}

/** The data's server name as an mcpx server name: anything but letters, digits, `-` and `_` becomes `_`. */
export function configName(server: string): string {
  return server.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** Start the servers (all 70, or `only` those named as in the data). */
export async function startCatalogueServers(only?: readonly string[]): Promise<CatalogueServers> {
  const args = [fixture("catalogue-server.mjs"), dataFile("livemcptool_tools.json"), ...(only ? ["--only", only.join(",")] : [])];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const urls = new Map<string, string>();
  const original = new Map<string, string>();
  const expected = only?.length;
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error("catalogue-server did not start within 15 s")), 15_000);
    let base = "";
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line.startsWith("LISTENING ")) base = line.slice("LISTENING ".length);
      const server = /^SERVER (\d+) (.+)$/.exec(line);
      if (server) {
        const name = configName(server[2]!);
        urls.set(name, `${base}/${server[1]}/mcp`);
        original.set(name, server[2]!);
        if (expected === undefined ? urls.size === 70 : urls.size === expected) {
          clearTimeout(timer);
          resolveReady();
        }
      }
    });
    child.once("exit", (code) => reject(new Error(`catalogue-server exited (${code}) before it was ready`)));
  });
  return {
    urls,
    original,
    entries: (extra = {}) => Object.fromEntries([...urls].map(([name, url]) => [name, { url, ...extra }])),
    stop: () =>
      new Promise((resolveStop) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolveStop(); // stopped before (a signal leaves exitCode null)
        child.once("exit", () => resolveStop());
        child.kill("SIGTERM");
      }),
  };
}
