/**
 * The search index built off the event loop (src/discovery/index-async.ts, and the serving
 * gateway's one-build-at-a-time holder, src/host/gateway-tools/search-indexes.ts): the very
 * index `buildIndex` makes, the event loop free meanwhile, a bounded build that falls back to an
 * index without WordNet, a build given up for a newer catalogue, and no worker thread left once
 * a build is given up or the holder stopped. Runs the built worker (dist/, as mcpx does).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { buildIndexAsync } from "../../src/discovery/index-async.js";
import { discoveryName, type ToolRecord } from "../../src/discovery/records.js";
import { buildIndex } from "../../src/discovery/search-build.js";
import type { SearchIndex } from "../../src/discovery/search.js";
import { SearchIndexes } from "../../src/host/gateway-tools/search-indexes.js";
import { fixture, ROOT } from "../helpers/mcpx.js";
import { liveMcpTools, TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";

const worker = pathToFileURL(join(ROOT, "dist", "discovery", "index-worker.js"));

/** This process's threads (Linux): a worker thread is one of them while it lives. */
function threads(): number {
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
}

describe.skipIf(!TOOL_SEARCH_DATA)("building the search index on a worker thread", () => {
  let tools: ToolRecord[];
  let few: ToolRecord[];
  let synchronous: SearchIndex;

  beforeAll(() => {
    tools = liveMcpTools().map((tool) => ({ ...tool, name: discoveryName(tool.server, tool.tool) }));
    few = tools.slice(0, 20);
    synchronous = buildIndex({ tools, serverDescriptions: { weather: "Weather forecasts." } });
  }, 60_000);

  it("makes the index buildIndex makes, while the event loop stays free", async () => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const built = await buildIndexAsync({ tools, serverDescriptions: { weather: "Weather forecasts." } }, { worker });
    delay.disable();
    expect(built).toEqual(synchronous);
    // A synchronous build holds the loop for seconds; starting the worker and receiving the index
    // cost tens of ms (more on a machine whose cores are all busy).
    expect(delay.max / 1e6).toBeLessThan(500);
  }, 60_000);

  it("gives up a build when asked, and its worker is gone once the promise settles", async () => {
    const before = threads();
    const abort = new AbortController();
    const building = buildIndexAsync({ tools }, { worker, signal: abort.signal });
    await expect.poll(threads, { timeout: 5_000 }).toBeGreaterThan(before);
    abort.abort(new Error("no longer wanted"));
    await expect(building).rejects.toThrow("no longer wanted");
    expect(threads()).toBe(before);
  }, 60_000);

  it.skipIf(process.platform !== "linux")(
    "runs the build at a lower priority than the thread serving hosts, which keeps its own",
    async () => {
      const nice = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
      const main = nice(String(process.pid));
      const abort = new AbortController();
      const building = buildIndexAsync({ tools }, { worker, signal: abort.signal });
      await expect.poll(() => readdirSync("/proc/self/task").some((task) => nice(task) > main), { timeout: 10_000 }).toBe(true);
      expect(nice(String(process.pid))).toBe(main);
      abort.abort(new Error("seen enough"));
      await expect(building).rejects.toThrow("seen enough");
    },
    60_000,
  );

  it("falls back to an index without related words when the build takes too long", async () => {
    const reasons: string[] = [];
    const built = await buildIndexAsync({ tools: few }, { worker, timeoutMs: 1, onFallback: (reason) => reasons.push(reason) });
    expect(built).toEqual(buildIndex({ tools: few, lexicon: null }));
    expect(reasons[0]).toContain("took more than");
  });

  it("builds here, without related words, when no worker can run", async () => {
    const reasons: string[] = [];
    const missing = pathToFileURL(join(ROOT, "dist", "discovery", "no-such-worker.js"));
    const built = await buildIndexAsync({ tools: few }, { worker: missing, onFallback: (reason) => reasons.push(reason) });
    expect(built).toEqual(buildIndex({ tools: few, lexicon: null }));
    expect(reasons.at(-1)).toContain("no worker thread could build the search index");
  });
});

describe("the index worker's output", () => {
  it("never reaches this process's stdout (a stdio host's channel)", async () => {
    const written = vi.spyOn(process.stdout, "write");
    try {
      const built = await buildIndexAsync({ tools: [] }, { worker: pathToFileURL(fixture("noisy-index-worker.mjs")) });
      expect(built).toEqual({ stand_in: true });
      expect(written.mock.calls.map(([chunk]) => String(chunk)).join("")).not.toContain("noise from the index worker");
    } finally {
      written.mockRestore();
    }
  });
});

describe.skipIf(!TOOL_SEARCH_DATA)("the serving gateway's search indexes", () => {
  let tools: ToolRecord[];
  beforeAll(() => {
    tools = liveMcpTools().map((tool) => ({ ...tool, name: discoveryName(tool.server, tool.tool) }));
  });

  it("build once per catalogue: the same tools get the same index", async () => {
    const indexes = new SearchIndexes({ worker });
    const input = { tools: tools.slice(0, 30) };
    const first = await indexes.of("a", () => input);
    expect(await indexes.of("a", () => ({ tools: [] }))).toBe(first);
    await indexes.stop();
  }, 60_000);

  it("give up a build for a newer catalogue: whoever waited gets the newer catalogue's index", async () => {
    const indexes = new SearchIndexes({ worker });
    const older = indexes.of("older", () => ({ tools }));
    const newer = { tools: [...tools.slice(0, 40), { server: "added", tool: "fresh_tool", name: "added__fresh_tool", description: "Made later." }] };
    const latest = indexes.of("newer", () => newer);
    const expected = buildIndex(newer);
    expect(await older).toEqual(expected);
    expect(await latest).toEqual(expected);
    await indexes.stop();
    expect(indexes.building).toBe(false);
  }, 60_000);

  it("end their worker when stopped, refuse the waiting search and any later one", async () => {
    const before = threads();
    const indexes = new SearchIndexes({ worker });
    const waiting = indexes.of("all", () => ({ tools }));
    await expect.poll(() => indexes.building && threads() > before, { timeout: 5_000 }).toBe(true);
    await indexes.stop();
    await expect(waiting).rejects.toThrow("the gateway is stopping");
    expect(indexes.building).toBe(false);
    expect(threads()).toBe(before);
    await expect(indexes.of("later", () => ({ tools }))).rejects.toThrow("the gateway is stopping");
  }, 60_000);
});
