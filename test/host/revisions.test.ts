/**
 * Each host gets the revision it asked for (or the newest mcpx serves), and everything mcpx sends
 * it is valid for that revision, strictly, per the official schema, even though the upstream
 * (test/fixtures/rich-server.mjs) speaks 2025-11-25 and uses all of it. What an older revision
 * lacks is downgraded, and the data still reaches the host in some form.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { EventStream, RawHttpHost, type Frame } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import type { Revision } from "../../src/protocol/revisions.js";

const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const satisfies readonly Revision[];
const README = "rich://doc/readme";

/** What a test needs of a host, whatever its transport. */
interface Driven {
  request(id: number, method: string, params?: object): Promise<Frame>;
  /** Wait for a message mcpx sent outside any answer (on HTTP: the GET stream). */
  waitFor(predicate: (frame: Frame) => boolean): Promise<Frame>;
  /** Every message mcpx sent, with the method of the request an answer belongs to. */
  sent(): Array<{ frame: Frame; requestMethod?: string }>;
}

function stdioDriven(host: RawStdioHost): Driven {
  const methods = new Map<unknown, string>([["init", "initialize"]]);
  return {
    request: (id, method, params) => {
      methods.set(id, method);
      return host.request(id, method, params);
    },
    waitFor: (predicate) => host.waitFor(predicate),
    sent: () =>
      host.frames.map((frame) => {
        const requestMethod = "method" in frame ? undefined : methods.get(frame.id);
        return requestMethod ? { frame, requestMethod } : { frame };
      }),
  };
}

function httpDriven(host: RawHttpHost, stream: EventStream): Driven {
  return {
    request: (id, method, params) => host.request(id, method, params),
    waitFor: (predicate) => stream.waitFor(predicate),
    sent: () => host.received,
  };
}

/** What one host saw of a session that used every kind of message mcpx relays. */
interface Transcript {
  init: Frame;
  tools: Frame;
  richCall: Frame;
  notifyCall: Frame;
  progress: Frame;
  log: Frame;
  updated: Frame;
  resources: Frame;
  templates: Frame;
  read: Frame;
  prompts: Frame;
  prompt: Frame;
  completion: Frame;
  sent: Array<{ frame: Frame; requestMethod?: string }>;
}

async function exercise(host: Driven, init: Frame): Promise<Transcript> {
  const tools = await host.request(1, "tools/list");
  const richCall = await host.request(2, "tools/call", { name: "rich__rich_tool", arguments: {} });
  await host.request(3, "logging/setLevel", { level: "debug" });
  const notifyCall = await host.request(4, "tools/call", { name: "rich__rich_notify", arguments: {}, _meta: { progressToken: "tok" } });
  const resources = await host.request(5, "resources/list");
  const templates = await host.request(6, "resources/templates/list");
  const read = await host.request(7, "resources/read", { uri: README });
  const prompts = await host.request(8, "prompts/list");
  const prompt = await host.request(9, "prompts/get", { name: "rich__rich_prompt", arguments: { topic: "gateways" } });
  const completion = await host.request(10, "completion/complete", {
    ref: { type: "ref/prompt", name: "rich__rich_prompt" },
    argument: { name: "topic", value: "ga" },
  });
  await host.request(11, "resources/subscribe", { uri: README });
  const updated = await host.waitFor((frame) => frame.method === "notifications/resources/updated");
  await host.request(12, "ping");
  const sent = host.sent();
  const progress = sent.find(({ frame }) => frame.method === "notifications/progress")?.frame;
  const log = sent.find(({ frame }) => frame.method === "notifications/message")?.frame;
  expect(progress, "a progress notification reached the host").toBeDefined();
  expect(log, "a log message reached the host").toBeDefined();
  return { init, tools, richCall, notifyCall, progress: progress!, log: log!, updated, resources, templates, read, prompts, prompt, completion, sent };
}

// ---------------------------------------------------------------------------------------------

let config: TempConfig;
const stdioHosts: RawStdioHost[] = [];
const stdio = new Map<Revision, Transcript>();
let http: RunningMcpx & { url: URL };
const httpHosts: RawHttpHost[] = [];

beforeAll(async () => {
  config = writeConfig({ mcpServers: { rich: nodeServer("rich-server.mjs") } });
  http = await startMcpxHttp(config);
  // One mcpx per stdio host; they start side by side to keep the file quick.
  await Promise.all(
    REVISIONS.map(async (revision) => {
      const host = new RawStdioHost(config);
      stdioHosts.push(host);
      const init = await host.initialize(revision);
      stdio.set(revision, await exercise(stdioDriven(host), init));
    }),
  );
}, 60_000);

afterAll(async () => {
  for (const host of httpHosts) host.close();
  await Promise.all([...stdioHosts.map((host) => host.close()), http?.close()]);
});

async function overHttp(revision: string): Promise<Transcript & { host: RawHttpHost }> {
  const host = new RawHttpHost(http.url);
  httpHosts.push(host);
  const init = await host.initialize(revision);
  const stream = await host.openStream();
  if (!(stream instanceof EventStream)) throw new Error(`GET stream refused: HTTP ${stream.status}`);
  return { ...(await exercise(httpDriven(host, stream), init)), host };
}

function revisionOf(init: Frame): unknown {
  return (init.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
}

function contentTypes(answer: Frame): string[] {
  return ((answer.result as { content: Array<{ type: string }> }).content ?? []).map((block) => block.type);
}

function texts(answer: Frame): string {
  return (answer.result as { content: Array<{ type: string; text?: string }> }).content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

function richTool(transcript: Transcript): Record<string, unknown> {
  const tools = (transcript.tools.result as { tools: Array<Record<string, unknown>> }).tools;
  return tools.find((tool) => tool.name === "rich__rich_tool")!;
}

// ---------------------------------------------------------------------------------------------

describe.each(REVISIONS)("a %s host over stdio", (revision) => {
  const transcript = (): Transcript => stdio.get(revision)!;

  it("gets the revision it asked for", () => {
    expect(revisionOf(transcript().init)).toBe(revision);
  });

  it("is sent only frames valid for its revision, strictly", () => {
    const { sent } = transcript();
    expect(sent.length).toBeGreaterThan(14);
    for (const { frame, requestMethod } of sent) expectValidToClient(revision, frame, requestMethod);
  });

  it("is offered completions only if its revision has them", () => {
    const capabilities = (transcript().init.result as { capabilities: Record<string, unknown> }).capabilities;
    expect("completions" in capabilities).toBe(revision !== "2024-11-05");
    expect(capabilities.tools).toBeDefined();
  });

  it("gets every request answered, none with an error", () => {
    for (const { frame } of transcript().sent) expect(frame.error, JSON.stringify(frame)).toBeUndefined();
  });

  it("still gets the tool's text, image, embedded resource and structured data", () => {
    const { richCall } = transcript();
    expect(contentTypes(richCall)).toEqual(expect.arrayContaining(["text", "image", "resource"]));
    const structured = (richCall.result as { structuredContent?: unknown }).structuredContent;
    if (structured !== undefined) expect(structured).toEqual({ answer: 42 });
    else expect(texts(richCall)).toContain('{"answer":42}');
  });
});

describe("what each revision gets of the newer features", () => {
  it("2024-11-05: audio, resource links and structured content become text; no titles, icons or annotations", () => {
    const t = stdio.get("2024-11-05")!;
    const everything = JSON.stringify(t.sent.map(({ frame }) => frame));
    for (const absent of ['"title":', '"icons":', '"structuredContent":', '"outputSchema":', '"execution":', '"lastModified":', '"audio"', '"resource_link"']) {
      expect(everything, absent).not.toContain(absent);
    }
    expect(richTool(t).annotations).toBeUndefined();
    expect(contentTypes(t.richCall)).toEqual(["text", "image", "text", "text", "resource", "text"]);
    expect(texts(t.richCall)).toMatch(/audio omitted: audio\/wav/);
    expect(texts(t.richCall)).toContain("rich://doc/linked");
    expect((t.progress.params as Record<string, unknown>).message).toBeUndefined();
    // Prompt messages carry one block each; audio and the link became text there too.
    const messages = (t.prompt.result as { messages: Array<{ content: { type: string } }> }).messages;
    expect(messages.map((message) => message.content.type)).toEqual(["text", "image", "text", "text", "resource"]);
  });

  it("2025-03-26: audio and tool annotations arrive; links and structured content become text; no titles", () => {
    const t = stdio.get("2025-03-26")!;
    expect(contentTypes(t.richCall)).toEqual(["text", "image", "audio", "text", "resource", "text"]);
    expect(richTool(t).annotations).toMatchObject({ readOnlyHint: true });
    expect(richTool(t).title).toBeUndefined();
    expect((t.richCall.result as Record<string, unknown>).structuredContent).toBeUndefined();
    expect((t.progress.params as Record<string, unknown>).message).toBe("half way");
  });

  it("2025-06-18: titles, output schemas, links and structured content arrive; icons and execution do not", () => {
    const t = stdio.get("2025-06-18")!;
    expect(contentTypes(t.richCall)).toEqual(["text", "image", "audio", "resource_link", "resource"]);
    expect((t.richCall.result as Record<string, unknown>).structuredContent).toEqual({ answer: 42 });
    expect(richTool(t)).toMatchObject({ title: "Rich Tool", outputSchema: { type: "object" } });
    expect(richTool(t).icons).toBeUndefined();
    expect(richTool(t).execution).toBeUndefined();
    const resource = (t.resources.result as { resources: Array<Record<string, unknown>> }).resources[0]!;
    expect(resource.title).toBe("Read Me");
    expect(resource.icons).toBeUndefined();
    // Notification params gained `_meta` only in 2025-11-25.
    expect((t.log.params as Record<string, unknown>)._meta).toBeUndefined();
  });

  it("2025-11-25: everything arrives as the upstream sent it", () => {
    const t = stdio.get("2025-11-25")!;
    expect(richTool(t)).toMatchObject({ title: "Rich Tool", icons: [{ src: "https://example.com/icon.png" }], execution: { taskSupport: "forbidden" } });
    const blocks = (t.richCall.result as { content: Array<Record<string, unknown>> }).content;
    expect(blocks.find((block) => block.type === "resource_link")).toMatchObject({ icons: [{ sizes: ["48x48"] }], title: "Linked Document" });
    expect(blocks[0]).toMatchObject({ annotations: { lastModified: "2025-01-01T00:00:00Z" }, _meta: { "example.com/origin": "rich-server" } });
    const prompt = (t.prompts.result as { prompts: Array<Record<string, unknown>> }).prompts[0]!;
    expect(prompt).toMatchObject({ title: "Rich Prompt", icons: [{ mimeType: "image/png" }] });
    expect(t.updated.params).toMatchObject({ uri: README, _meta: { "example.com/origin": "rich-server" } });
  });
});

describe("revisions over HTTP", () => {
  it.each(["2025-03-26", "2025-06-18"] as const)("a %s host gets its revision and only valid frames", async (revision) => {
    const t = await overHttp(revision);
    expect(revisionOf(t.init)).toBe(revision);
    expect(t.sent.length).toBeGreaterThan(14);
    for (const { frame, requestMethod } of t.sent) expectValidToClient(revision, frame, requestMethod);
    // The same downgrade as over stdio.
    expect(contentTypes(t.richCall)).toEqual(contentTypes(stdio.get(revision)!.richCall));
  });

  it.each(["2099-01-01", "2024-10-07", "not-a-date"])("a host asking for %s gets 2025-11-25", async (asked) => {
    const host = new RawHttpHost(http.url);
    httpHosts.push(host);
    const init = await host.initialize(asked);
    expect(revisionOf(init)).toBe("2025-11-25");
    expectValidToClient("2025-11-25", init, "initialize");
    expect((init.result as { capabilities: Record<string, unknown> }).capabilities.completions).toEqual({});
  });
});
