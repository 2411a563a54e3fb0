/** An unknown tool or prompt is answered with the exposed names nearest to it. */
import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { editDistance, nearest } from "../../src/util/nearest.js";

describe("did you mean", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("suggests the nearest exposed tool and prompt names", async () => {
    host = new RawStdioHost(writeConfig({ mcpServers: { gate: nodeServer("gate-server.mjs"), rich: nodeServer("rich-server.mjs") } }));
    await host.initialize("2025-11-25");
    const typo = await host.request(1, "tools/call", { name: "gate__opne", arguments: {} });
    expect(typo.error).toMatchObject({ code: -32602, data: { suggestions: ["gate__open"] } });
    expect((typo.error as { message: string }).message).toBe('Invalid params: unknown tool "gate__opne"; did you mean "gate__open"?');
    // The upstream's own name, or the CLI's server.tool spelling, finds the name hosts see.
    const bare = await host.request(2, "tools/call", { name: "wait", arguments: {} });
    expect((bare.error as { message: string }).message).toContain('did you mean "gate__wait"?');
    const dotted = await host.request(3, "tools/call", { name: "gate.wait", arguments: {} });
    expect((dotted.error as { message: string }).message).toContain('did you mean "gate__wait"?');
    const prompt = await host.request(4, "prompts/get", { name: "rich__rich_promt" });
    expect((prompt.error as { message: string }).message).toContain('did you mean "rich__rich_prompt"?');
    // Nothing near: the plain message, no data.
    const far = await host.request(5, "tools/call", { name: "completely_different_thing", arguments: {} });
    expect(far.error).toEqual({ code: -32602, message: 'Invalid params: unknown tool "completely_different_thing"' });
  });
});

describe("nearest", () => {
  it("ranks exact-but-prefix first, then by edits, and leaves far names out", () => {
    const known = ["files__read", "files__write", "desk__read_file", "everything__echo"];
    expect(nearest("read", known)).toEqual(["files__read", "desk__read_file"]);
    expect(nearest("files__raed", known)).toEqual(["files__read"]);
    expect(nearest("ECHO", known)).toEqual(["everything__echo"]);
    expect(nearest("zzz", known)).toEqual([]);
    expect(editDistance("abcd", "abdc")).toBe(1);
  });
});
