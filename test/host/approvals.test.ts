/**
 * Approval gates, against the official filesystem server (`write_file` is annotated
 * destructive, `create_directory` not, the readers read-only): a call an `approvals` rule
 * matches is held and a person is asked first, inline in the calling host, with the arguments
 * in full. Declining refuses the call with an isError result and nothing is written; accepting
 * runs it; "allow for this session" lets the next calls through unasked. Nobody answering
 * refuses it (fail closed), and a policy rule that accepts everything of the server cannot
 * answer an approval.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT, writeConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { stdioHost, type RecordingHost } from "../relay/support.js";
import { storedQuestions } from "../broker-e2e/support.js";

const FILESYSTEM = join(ROOT, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

let host: (RecordingHost & { log(): string }) | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

function configFor(dir: string, rule: object): ReturnType<typeof writeConfig> {
  return writeConfig({
    mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM, dir] } },
    approvals: [{ match: { server: "fs", annotations: { destructiveHint: true } }, reason: "writes need a person", ...rule }],
    // A rule that would accept every question of fs: an approval is not one it may answer.
    elicitation: { ttlSeconds: 60, rules: [{ match: { server: "fs" }, action: "accept" }] },
  });
}

function textOf(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? []).map((block) => block.text ?? "").join("\n");
}

describe("approvals", () => {
  it("asks the calling host first: decline refuses, accept runs, allow-for-session lets the next through", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpx-approvals-"));
    const answers = [{ action: "decline" }, { action: "accept" }, { action: "accept", content: { allowForSession: true } }];
    host = await stdioHost(configFor(dir, { allowForSession: true }), {
      capabilities: { elicitation: { form: {} } },
      setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => answers.shift() ?? { action: "cancel" }),
    });
    const file = join(dir, "a.txt");
    const write = (content: string) => host!.client.callTool({ name: "fs__write_file", arguments: { path: file, content } });

    const refused = await write("one");
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("fs.write_file did not run: a person refused it");
    expect(existsSync(file)).toBe(false);
    const [asked] = host.requests("elicitation/create");
    expectValidToClient("2025-11-25", asked!);
    const params = asked!.params as { message: string; requestedSchema: { properties: Record<string, unknown> } };
    expect(params.message).toContain(`Allow fs.write_file ${JSON.stringify({ path: file, content: "one" })}?`);
    expect(params.message).toContain("writes need a person");
    expect(Object.keys(params.requestedSchema.properties)).toEqual(["allowForSession"]);

    expect((await write("two")).isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe("two");
    expect((await write("three")).isError).toBeFalsy();
    expect((await write("four")).isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe("four");
    // Asked for one, two and three; three allowed the rest of the session.
    expect(host.requests("elicitation/create")).toHaveLength(3);

    // Not destructive, or read-only: no approval.
    expect((await host.client.callTool({ name: "fs__create_directory", arguments: { path: join(dir, "sub") } })).isError).toBeFalsy();
    expect(textOf(await host.client.callTool({ name: "fs__list_allowed_directories", arguments: {} }))).toContain(dir);
    expect(host.requests("elicitation/create")).toHaveLength(3);
  }, 60_000);

  it("refuses the call when nobody answers in time, and no policy rule answers for a person", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpx-approvals-"));
    const config = configFor(dir, { ttlSeconds: 1 });
    // A host that takes no questions: the approval waits for a person, and nobody comes.
    host = await stdioHost(config, { capabilities: {} });
    const file = join(dir, "b.txt");
    const result = await host.client.callTool({ name: "fs__write_file", arguments: { path: file, content: "x" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("nobody allowed it in time");
    expect(existsSync(file)).toBe(false);
    const [question] = (await storedQuestions(config)).filter((view) => view.server === "fs");
    expect(question).toMatchObject({ audience: "person", state: "expired" });
  }, 60_000);
});
