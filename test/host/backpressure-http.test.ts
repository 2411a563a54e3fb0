/**
 * Issue 7, item 1, over Streamable HTTP: a host that stops reading its call's SSE stream does
 * not make mcpx buffer what the upstream floods it with. The log notifications beyond the
 * backlog are dropped and counted; the answer still arrives once the host reads again.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { RawHttpHost } from "../helpers/raw-http.js";
import { logRecords } from "../helpers/upstreams.js";

const MB = 1024 * 1024;
/** As for stdio: room for the garbage that parsing the flood's JSON leaves until V8 collects it. */
const GROWTH_BOUND = 96 * MB;

let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  mcpx = await startMcpxHttp(writeConfig({ mcpServers: { bulky: nodeServer("bulky-server.mjs") } }));
});
afterAll(async () => mcpx?.close());

function rss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : 0;
}

async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it.skipIf(process.platform !== "linux")(
  "keeps mcpx's memory bounded while the host does not read its call's stream, and delivers the answer after",
  async () => {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-11-25");
    await mcpx.waitForLog(/upstream ready/);
    const pid = mcpx.child.pid!;
    const baseline = rss(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
    try {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "bulky__flood", arguments: { count: 100_000, bytes: 1000 } },
      });
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const sent = httpRequest(
          mcpx.url,
          {
            method: "POST",
            headers: {
              ...host.headers(),
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "content-length": Buffer.byteLength(body),
            },
          },
          resolve,
        );
        sent.once("error", reject);
        sent.end(body);
      });
      // Not a byte read from here until the flood is over.
      response.pause();
      await until(() => mcpx.stderr().includes("bulky-server: flooded 100000"), "the upstream to finish its flood", 60_000);
      expect(peak - baseline).toBeLessThan(GROWTH_BOUND);

      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.resume();
      await new Promise((resolve) => response.once("end", resolve));
      const events = text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)) as { id?: number; method?: string; result?: { content: Array<{ text: string }> } });
      expect(events.find((event) => event.id === 7)?.result?.content[0]?.text).toBe("flooded");
      await until(() => mcpx.stderr().includes("notifications were dropped"), "the drop count logged", 10_000);
      const dropped = logRecords(mcpx.stderr()).find((record) => record.msg.includes("notifications were dropped"));
      const delivered = events.filter((event) => event.method === "notifications/message").length;
      expect(Number(dropped?.dropped)).toBeGreaterThan(50_000);
      expect(Number(dropped?.dropped) + delivered).toBe(100_000);
    } finally {
      clearInterval(sampler);
      host.close();
    }
  },
  90_000,
);
