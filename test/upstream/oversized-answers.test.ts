/**
 * Issue 7, item 2: an upstream answer over the size limit fails its call at once, naming the
 * limit, and the stream goes on with the next message; HTTP bodies and SSE events have the same
 * limit; the default fits a catalogue of 10,000 tools; `mcpx servers` names a limit that was hit.
 */
import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { firstText, parseServers, runMcpx, startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";

const MiB = 1024 * 1024;
/** Just over the default `limits.maxUpstreamMessageBytes` (64 MiB). */
const OVER_DEFAULT = 64 * MiB + 1000;
/** Long enough that waiting for the timeout would fail the test's own bound. */
const TIMEOUT_SECONDS = 60;

type Frame = Record<string, unknown>;
const errorOf = (frame: Frame): { code: number; message: string; data?: Record<string, unknown> } =>
  frame.error as { code: number; message: string; data?: Record<string, unknown> };

describe("an upstream answer over the size limit", () => {
  let host: RawStdioHost | undefined;
  let http: HttpFixture | undefined;
  afterEach(async () => {
    await host?.close();
    await http?.close();
    host = undefined;
    http = undefined;
  });

  async function stdioHost(extra: object = {}): Promise<RawStdioHost> {
    const config = writeConfig({ mcpServers: { bulky: nodeServer("bulky-server.mjs", [], { timeoutSeconds: TIMEOUT_SECONDS }) }, ...extra });
    host = new RawStdioHost(config);
    await host.initialize();
    return host;
  }

  it("fails its call at once with an error naming the limit, when the id is last (TypeScript SDK order)", async () => {
    const host = await stdioHost();
    const started = Date.now();
    const answer = await host.request(1, "tools/call", { name: "bulky__blob", arguments: { bytes: OVER_DEFAULT } });
    expect(Date.now() - started).toBeLessThan(10_000);
    const error = errorOf(answer);
    expect(error.message).toMatch(/upstream "bulky" answered tools\/call with a message of \d+ bytes, over limits\.maxUpstreamMessageBytes \(67108864 bytes\)/);
    expect(error.data).toMatchObject({ limit: "limits.maxUpstreamMessageBytes", limitBytes: 64 * MiB });
    // mcpx and the upstream are fine afterwards.
    expect(firstText(await host.request(2, "tools/call", { name: "bulky__blob", arguments: { bytes: 5 } }))).toBe("bbbbb");
  });

  it("fails its call as soon as the limit is crossed when the id comes first, even if the line never ends", async () => {
    const host = await stdioHost();
    const started = Date.now();
    const answer = await host.request(1, "tools/call", { name: "bulky__endless", arguments: { bytes: OVER_DEFAULT } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(errorOf(answer).message).toMatch(/a message of more than 67108864 bytes, over limits\.maxUpstreamMessageBytes/);
  });

  it("resynchronises at the next newline: the answer on the next line is delivered", async () => {
    const host = await stdioHost();
    // The held answer (over the limit, id first) and the releasing one go out in one write.
    host.send({
      jsonrpc: "2.0",
      id: "big",
      method: "tools/call",
      params: { name: "bulky__blob", arguments: { bytes: OVER_DEFAULT, idFirst: true, hold: true } },
    });
    const small = await host.request("small", "tools/call", { name: "bulky__blob", arguments: { bytes: 3, release: true } });
    expect(firstText(small)).toBe("bbb");
    const big = await host.waitFor((frame) => frame.id === "big", 10_000);
    expect(errorOf(big).message).toMatch(/over limits\.maxUpstreamMessageBytes/);
  });

  it("lets a catalogue of 10,000 tools in one page (4.5 MB) start with the default limits", async () => {
    const config = writeConfig({ mcpServers: { many: nodeServer("bulky-server.mjs", ["--tools", "10000", "--tool-bytes", "450"]) } });
    const run = await runMcpx(["servers", "--json", "--config", config.file], config);
    const many = parseServers(run.stdout).get("many");
    expect(many).toMatchObject({ state: "ready", tools: 10_004, limitsHit: [] });
  });

  it("is named in `mcpx servers` when a catalogue went over it", async () => {
    const config = writeConfig({
      mcpServers: { many: nodeServer("bulky-server.mjs", ["--tools", "1000", "--tool-bytes", "450"]) },
      limits: { maxUpstreamMessageBytes: 100_000 },
    });
    const json = await runMcpx(["servers", "--json", "--config", config.file], config);
    const many = parseServers(json.stdout).get("many")!;
    expect(many.state).toBe("down");
    expect(many.reason).toMatch(/answered tools\/list with a message of \d+ bytes, over limits\.maxUpstreamMessageBytes \(100000 bytes\)/);
    expect(many.limitsHit).toEqual([expect.objectContaining({ limit: "limits.maxUpstreamMessageBytes", limitBytes: 100_000, dropped: 1 })]);
    // From the schema cache, the failed read is still named, with its reason.
    const cached = parseServers((await runMcpx(["servers", "--json", "--cached", "--config", config.file], config)).stdout).get("many")!;
    expect(cached).toMatchObject({ state: "down", reason: many.reason });
    const human = await runMcpx(["servers", "--live", "--config", config.file], config);
    expect(human.stdout).toMatch(/many: dropped a message over limits\.maxUpstreamMessageBytes \(100000 bytes\), the largest \d+ bytes/);
  });

  it("applies to HTTP upstreams' JSON bodies and SSE events, and the connection goes on", async () => {
    http = await startHttpFixture("bulky-server.mjs", {}, ["--http"]);
    const config = writeConfig({
      mcpServers: { web: { url: http.url, timeoutSeconds: TIMEOUT_SECONDS } },
      limits: { maxUpstreamMessageBytes: 100_000 },
    });
    host = new RawStdioHost(config);
    await host.initialize();
    const started = Date.now();
    const json = await host.request(1, "tools/call", { name: "web__blob", arguments: { bytes: 200_000 } });
    expect(errorOf(json).message).toMatch(
      /answered tools\/call with a message of (more than )?\d+ bytes, over limits\.maxUpstreamMessageBytes \(100000 bytes\)/,
    );
    const sse = await host.request(2, "tools/call", { name: "web__sse_blob", arguments: { bytes: 200_000 } });
    expect(errorOf(sse).message).toMatch(/answered tools\/call with a message of \d+ bytes, over limits\.maxUpstreamMessageBytes/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(firstText(await host.request(3, "tools/call", { name: "web__sse_blob", arguments: { bytes: 4 } }))).toBe("bbbb");
    expect(firstText(await host.request(4, "tools/call", { name: "web__blob", arguments: { bytes: 4 } }))).toBe("bbbb");
  });

  // Issue 13, item 19: only a message that can be tied to a request may fail it.
  it("fails nothing for an oversized line that is no JSON: the answer on the next line comes through", async () => {
    const host = await stdioHost({ limits: { maxUpstreamMessageBytes: 100_000 } });
    const answer = await host.request(1, "tools/call", { name: "bulky__blob", arguments: { bytes: 5, junk: 300_000 } });
    expect(answer.error).toBeUndefined();
    expect(firstText(answer)).toBe("bbbbb");
    expect(firstText(await host.request(2, "tools/call", { name: "bulky__blob", arguments: { bytes: 3 } }))).toBe("bbb");
  });

  it("fails nothing for an oversized SSE event that is no JSON: the answer in the next event comes through", async () => {
    http = await startHttpFixture("bulky-server.mjs", {}, ["--http"]);
    const config = writeConfig({
      mcpServers: { web: { url: http.url, timeoutSeconds: TIMEOUT_SECONDS } },
      limits: { maxUpstreamMessageBytes: 100_000 },
    });
    host = new RawStdioHost(config);
    await host.initialize();
    const answer = await host.request(1, "tools/call", { name: "web__sse_blob", arguments: { bytes: 4, junk: 300_000 } });
    expect(answer.error).toBeUndefined();
    expect(firstText(answer)).toBe("bbbb");
  });
});
