/**
 * The cross-era matrix (issue 9 item 4): host era × upstream era × question kind, in one
 * `mcpx serve --http` with a legacy upstream (test/fixtures/asking-server.mjs, SDK 1.x) and a
 * modern one (test/fixtures/modern-server.mjs --modern-only, SDK 2.x), and two hosts connected
 * at once: an SDK 1.x host (2025-11-25, url-capable) and an SDK 2.x host with
 * `versionNegotiation: {mode: "auto"}` (2026-07-28), and beside them a raw 2025-06-18 host. Each host answers in its own era's way
 * (legacy: a server→host request; modern: an `input_required` result and a retry); roots are
 * mcpx's from the config and never asked of a host (design rule 10). Every frame mcpx sends to
 * a host, and every frame it sends the modern upstream, is validated against its revision.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { postStreaming, RawHttpHost } from "../helpers/raw-http.js";
import { recording, type Received } from "../helpers/recording-transport.js";
import { expectValidToClient, validateToServer } from "../helpers/spec-validator.js";

type Era = "legacy" | "modern";
type Kind = "form" | "url" | "sampling" | "roots";
const REVISION = { legacy: "2025-11-25", modern: "2026-07-28" } as const;
const ROOTS = [{ uri: "file:///matrix/project", name: "matrix" }];
const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

/** What one host was asked, in its own era's shape (method and params). */
interface Asked {
  method: string;
  params: Record<string, unknown>;
}

interface Host {
  era: Era;
  frames: Received[];
  asked: Asked[];
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

let mcpx: RunningMcpx & { url: URL };
let upstreamFrames = "";
const hosts = {} as Record<Era, Host>;

/** Every host answers the same way, with its era in the answer so a misrouted one shows. */
const answers = (era: Era) => ({
  elicit: (params: Record<string, unknown>) =>
    params.mode === "url" ? { action: "accept" as const } : { action: "accept" as const, content: { name: `${era} host` } },
  sample: () => ({ role: "assistant" as const, content: { type: "text" as const, text: `hi from the ${era} host` }, model: "matrix-model" }),
  roots: () => ({ roots: [{ uri: `file:///${era}-host-roots` }] }),
});

async function legacyHost(url: URL): Promise<Host> {
  const asked: Asked[] = [];
  const frames: Received[] = [];
  const answer = answers("legacy");
  const client = new LegacyClient({ name: "legacy-host", version: "1.0.0" }, { capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } });
  const note = (method: string, params: unknown): void => void asked.push({ method, params: params as Record<string, unknown> });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    note(request.method, request.params);
    return answer.elicit(request.params);
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    note(request.method, request.params);
    return answer.sample();
  });
  client.setRequestHandler(ListRootsRequestSchema, async (request) => {
    note(request.method, request.params);
    return answer.roots();
  });
  await client.connect(recording(new LegacyHttp(url), frames));
  return { era: "legacy", frames, asked, callTool: (name, args) => client.callTool({ name, arguments: args }), close: () => client.close() };
}

async function modernHost(url: URL): Promise<Host> {
  const asked: Asked[] = [];
  const frames: Received[] = [];
  const answer = answers("modern");
  const client = new ModernClient(
    { name: "modern-host", version: "1.0.0" },
    { capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }, versionNegotiation: { mode: "auto" } },
  );
  const note = (method: string, params: unknown): void => void asked.push({ method, params: params as Record<string, unknown> });
  client.setRequestHandler("elicitation/create", async (request) => {
    note(request.method, request.params);
    return answer.elicit(request.params as Record<string, unknown>);
  });
  client.setRequestHandler("sampling/createMessage", async (request) => {
    note(request.method, request.params);
    return answer.sample();
  });
  client.setRequestHandler("roots/list", async (request) => {
    note(request.method, request.params);
    return answer.roots();
  });
  await client.connect(recording(new ModernHttp(url), frames));
  return { era: "modern", frames, asked, callTool: (name, args) => client.callTool({ name, arguments: args }), close: () => client.close() };
}

beforeAll(async () => {
  upstreamFrames = join(mkdtempSync(join(tmpdir(), "mcpx-matrix-")), "frames.jsonl");
  const config = writeConfig({
    mcpServers: {
      legacy: nodeServer("asking-server.mjs", ["--stdio"]),
      modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"], { env: { MODERN_FRAMES: upstreamFrames } }),
    },
    roots: ROOTS,
  });
  mcpx = await startMcpxHttp(config);
  [hosts.legacy, hosts.modern] = await Promise.all([legacyHost(mcpx.url), modernHost(mcpx.url)]);
}, 30_000);

afterEach(() => {
  for (const host of Object.values(hosts)) {
    for (const { frame, requestMethod } of host.frames.splice(0)) expectValidToClient(REVISION[host.era], frame, requestMethod);
    host.asked.splice(0);
  }
});

afterAll(async () => {
  await Promise.all(Object.values(hosts).map((host) => host.close().catch(() => {})));
  await mcpx?.close();
});

function textOf(result: unknown): string {
  return (result as { content: Array<{ text?: string }> }).content.map((block) => block.text ?? "").join("");
}

/** The answer the upstream's tool got, as its tool reports it. */
function answerSeen(upstream: Era, result: unknown): Record<string, unknown> {
  const text = textOf(result);
  if (upstream === "modern" && text.startsWith("Hello, ")) return JSON.parse(/^Hello, (.*) after \d+ round\(s\)$/.exec(text)![1]!) as Record<string, unknown>;
  return JSON.parse(text) as Record<string, unknown>;
}

/** The tool of each upstream that asks one question of each kind. */
const TOOLS: Record<Era, Record<Kind, [string, Record<string, unknown>]>> = {
  legacy: {
    form: ["legacy__ask_form", { message: "Who are you?", schema: FORM }],
    url: ["legacy__ask_url", { complete: true }],
    sampling: ["legacy__sample", { prompt: "Say hello" }],
    roots: ["legacy__roots", {}],
  },
  modern: {
    form: ["modern__ask_name", { rounds: 1 }],
    url: ["modern__ask_url", {}],
    sampling: ["modern__sample", {}],
    roots: ["modern__list_roots", {}],
  },
};

/** How the host was asked, seen on its own wire: a request to it, or an input_required result. */
function questionsOnTheWire(host: Host): Asked[] {
  if (host.era === "legacy") {
    return host.frames
      .filter(({ frame }) => typeof frame.method === "string" && frame.id !== undefined)
      .map(({ frame }) => ({ method: String(frame.method), params: frame.params as Record<string, unknown> }));
  }
  return host.frames.flatMap(({ frame }) => {
    const result = frame.result as { resultType?: string; inputRequests?: Record<string, Asked> } | undefined;
    return result?.resultType === "input_required" ? Object.values(result.inputRequests ?? {}) : [];
  });
}

const CELLS = (["legacy", "modern"] as const).flatMap((hostEra) =>
  (["legacy", "modern"] as const).flatMap((upstreamEra) => (["form", "url", "sampling", "roots"] as const).map((kind) => ({ hostEra, upstreamEra, kind }))),
);

describe("host era × upstream era × question kind, in one mcpx", () => {
  it.each(CELLS)("$hostEra host, $upstreamEra upstream: $kind", async ({ hostEra, upstreamEra, kind }) => {
    const host = hosts[hostEra];
    const [tool, args] = TOOLS[upstreamEra][kind];
    const seen = answerSeen(upstreamEra, await host.callTool(tool, args));
    const wire = questionsOnTheWire(host);
    if (kind === "roots") {
      // The gateway's roots, from the config; the host is never asked (rule 10).
      expect(seen).toEqual({ roots: ROOTS });
      expect(host.asked).toEqual([]);
      expect(wire).toEqual([]);
      return;
    }
    const method = kind === "sampling" ? "sampling/createMessage" : "elicitation/create";
    expect(host.asked.map((ask) => ask.method)).toEqual([method]);
    expect(wire.map((ask) => ask.method)).toEqual([method]);
    const params = wire[0]!.params;
    if (kind === "form") {
      expect(seen).toEqual({ action: "accept", content: { name: `${hostEra} host` } });
      expect(params.mode ?? "form").toBe("form");
    }
    if (kind === "url") {
      expect(seen).toMatchObject({ action: "accept" });
      expect(params.mode).toBe("url");
      if (hostEra === "modern") expect(params).not.toHaveProperty("elicitationId");
      else expect(params.elicitationId).toEqual(expect.any(String));
    }
    if (kind === "sampling") expect(seen).toMatchObject({ role: "assistant", content: { type: "text", text: `hi from the ${hostEra} host` } });
    // Rule 3: a question for a person names the upstream that asked.
    if (kind !== "sampling") expect(JSON.stringify(params)).toContain(upstreamEra);
  });

  it("a legacy upstream's URL completion reaches the legacy host that was asked", async () => {
    const host = hosts.legacy;
    await host.callTool(...TOOLS.legacy.url);
    const [asked] = questionsOnTheWire(host);
    const completion = host.frames.find(({ frame }) => frame.method === "notifications/elicitation/complete");
    expect(completion?.frame.params).toEqual({ elicitationId: asked?.params.elicitationId });
  });
});

describe("the -32042 seam toward a modern host", () => {
  it("a legacy upstream's -32042 comes back to a modern host as an input_required URL request, and its retry completes the call", async () => {
    const host = hosts.modern;
    const result = await host.callTool("legacy__needs_url", { key: "matrix-modern" });
    expect(host.asked.map((ask) => ask.params.mode)).toEqual(["url"]);
    const [request, ...more] = questionsOnTheWire(host);
    expect(more).toEqual([]);
    expect(request).toMatchObject({ method: "elicitation/create", params: { mode: "url", url: "https://example.com/connect?id=matrix-modern-1" } });
    expect(request!.params).not.toHaveProperty("elicitationId");
    expect(JSON.stringify(host.asked[0]!.params)).toContain("https://example.com/connect?id=matrix-modern-1");
    expect(textOf(result)).toContain("matrix-modern");
    const errors = host.frames.filter(({ frame }) => frame.error !== undefined);
    expect(errors).toEqual([]);
    expect(JSON.stringify(host.frames)).not.toContain("-32042");
  }, 10_000);
});

describe("frames mcpx sent the modern upstream", () => {
  it("every one is valid 2026-07-28 (but the one initialize that asks for a legacy lane)", () => {
    expect(existsSync(upstreamFrames)).toBe(true);
    const lines = readFileSync(upstreamFrames, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(0);
    // A legacy host's first call asks once whether the server also serves a legacy connection of
    // its own (following the caller's era, docs/protocol.md); this --modern-only server refuses it.
    const messages = lines.map((line) => (JSON.parse(line) as { message: { method?: unknown } }).message);
    expect(messages.filter((message) => message.method === "initialize").length).toBeLessThanOrEqual(1);
    for (const message of messages.filter((candidate) => candidate.method !== "initialize")) {
      const verdict = validateToServer("2026-07-28", message);
      expect(verdict, JSON.stringify(message)).toMatchObject({ valid: true });
    }
  });
});

describe("a 2025-06-18 host on the same mcpx, at the same time", () => {
  it("answers a form from the legacy and from the modern upstream as an ordinary elicitation/create", async () => {
    const host = new RawHttpHost(mcpx.url);
    try {
      await host.initialize("2025-06-18", { elicitation: {} });
      for (const [id, upstreamEra] of [
        [50, "legacy"],
        [51, "modern"],
      ] as const) {
        const [tool, args] = TOOLS[upstreamEra].form;
        const { stream } = await postStreaming(mcpx.url, { jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } }, host.headers());
        const asked = await stream.waitFor((frame) => frame.method === "elicitation/create");
        expectValidToClient("2025-06-18", asked);
        const params = asked.params as Record<string, unknown>;
        expect(params).not.toHaveProperty("mode");
        expect(JSON.stringify(params)).toContain(upstreamEra);
        const reply = await host.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "2025-06-18 host" } } });
        expect(reply.status).toBe(202);
        const answer = await stream.waitFor((frame) => frame.id === id);
        expectValidToClient("2025-06-18", answer, "tools/call");
        expect(answerSeen(upstreamEra, answer.result)).toEqual({ action: "accept", content: { name: "2025-06-18 host" } });
      }
    } finally {
      host.close();
    }
  });
});
