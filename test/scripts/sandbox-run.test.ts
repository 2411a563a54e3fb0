/**
 * A run as its caller holds it (issue 15 items 2-4): the deadline counts time spent waiting on
 * tool calls and aborts the calls in flight, sizes of one call both ways, stop(), and the script
 * side of onElicit (ELI-21): handlesQuestions, offer() answered, passed on, or bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { runScript, type ScriptTools, scriptTools, SERVER, start } from "./sandbox-peer.js";

let tools: ScriptTools;
beforeAll(async () => {
  tools = await scriptTools();
});
afterAll(async () => {
  await tools.close();
});

const QUESTION = { server: SERVER, tool: "echo", message: "Which colour?", requestedSchema: { type: "object", properties: { colour: { type: "string" } } } };

describe("a run's limits", () => {
  it("counts time spent waiting on a tool call against the deadline, and aborts the call in flight", async () => {
    const envelope = await runScript(tools, "console.log('asking');\nawait script_tools.hang({});", { timeoutMs: 1_500 });
    expect(envelope.error?.kind).toBe("timeout");
    expect(envelope.output).toBe("asking\n");
    expect(envelope.calls).toEqual([expect.objectContaining({ tool: "hang", outcome: "failed" })]);
    expect(tools.aborted).toContain("hang");
  });

  it("fails in the script a call whose arguments are bigger than one call may send; nothing reaches the tool", async () => {
    const before = tools.received.length;
    const envelope = await runScript(tools, "try { await script_tools.echo({ text: 'x'.repeat(5000) }); } catch (error) { return String(error); }", {
      callArgsBytes: 1_000,
    });
    expect(envelope.value).toMatch(/ToolError: script-tools\.echo: the arguments are \d+ bytes as JSON, more than one call may send \(1000\)/);
    expect(tools.received.length).toBe(before);
  });

  it("fails a call whose result is bigger than a script may take in, and the run goes on", async () => {
    const envelope = await runScript(
      tools,
      "try { await script_tools.big({ bytes: 50_000 }); } catch (error) { console.log(error.tool, error.message); }\nreturn textOf(await script_tools.big({ bytes: 10 }));",
      { callResultBytes: 10_000 },
    );
    expect(envelope.output).toMatch(/^big script-tools\.big: the result is \d+ bytes as JSON, more than a script may take in \(10000\)\n$/);
    expect(envelope.value).toBe("x".repeat(10));
  });

  it("leaves out a returned value bigger than the output limit, and says so on stderr", async () => {
    const envelope = await runScript(tools, "return 'y'.repeat(5_000);", { outputBytes: 1_000 });
    expect(envelope.ok).toBe(true);
    expect(envelope.value).toBeUndefined();
    expect(envelope.stderr).toContain("value was left out");
  });

  it("stops when its caller stops it, aborting its calls in flight", async () => {
    const run = await start(tools, "await script_tools.hang({});");
    await until(() => tools.received.at(-1)?.tool === "hang", "the script's call");
    run.stop("the host cancelled");
    const envelope = await run.done;
    expect(envelope.error).toEqual({ kind: "stopped", message: "the host cancelled" });
    await until(() => tools.aborted.filter((tool) => tool === "hang").length >= 2, "the call aborted");
  });
});

describe("onElicit (ELI-21, the script's side)", () => {
  it("handles questions once it registers a handler, and answers one with what the handler returns", async () => {
    const run = await start(
      tools,
      `onElicit(async (question) => {
  if (question.message.includes("colour")) return { action: "accept", content: { colour: "blue", sizes: ["s", "m"], count: 2, ok: true } };
  return undefined;
});
await script_tools.hang({});`,
      { timeoutMs: 20_000 },
    );
    expect(run.handlesQuestions).toBe(false);
    await until(() => run.handlesQuestions, "the handler registered");
    expect(await run.offer(QUESTION)).toEqual({ action: "accept", content: { colour: "blue", sizes: ["s", "m"], count: 2, ok: true } });
    expect(await run.offer({ ...QUESTION, message: "Something else?" })).toBeUndefined();
    run.stop("done");
    await run.done;
    expect(run.handlesQuestions).toBe(false);
    expect(await run.offer(QUESTION)).toBeUndefined();
  });

  it("passes a question on when the handler throws or answers with something that is not an answer", async () => {
    const run = await start(
      tools,
      `let n = 0;
onElicit((question) => {
  n++;
  if (n === 1) throw new Error("handler broke");
  if (n === 2) return { action: "accept", content: { nested: { no: 1 } } };
  if (n === 3) return { action: "maybe" };
  return { action: "decline", content: { dropped: true } };
});
await script_tools.hang({});`,
      { timeoutMs: 20_000 },
    );
    await until(() => run.handlesQuestions, "the handler registered");
    expect(await run.offer(QUESTION)).toBeUndefined();
    expect(await run.offer(QUESTION)).toBeUndefined();
    expect(await run.offer(QUESTION)).toBeUndefined();
    expect(await run.offer(QUESTION)).toEqual({ action: "decline" });
    run.stop("done");
    const envelope = await run.done;
    expect(envelope.stderr).toContain("handler broke");
    expect(envelope.stderr).toContain("not {action, content}");
  });

  it("gives up on a handler that does not answer by the run's end", async () => {
    const run = await start(tools, "onElicit(() => new Promise(() => {}));\nawait script_tools.hang({});", { timeoutMs: 2_000 });
    await until(() => run.handlesQuestions, "the handler registered");
    const started = Date.now();
    expect(await run.offer(QUESTION)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await run.done).error?.kind).toBe("timeout");
  });

  it("sees the question as {server, tool, message, requestedSchema}", async () => {
    const run = await start(
      tools,
      `onElicit((question) => ({ action: "accept", content: { seen: JSON.stringify(question) } }));
await script_tools.hang({});`,
      { timeoutMs: 20_000 },
    );
    await until(() => run.handlesQuestions, "the handler registered");
    const answer = await run.offer(QUESTION);
    run.stop("done");
    await run.done;
    expect(JSON.parse(String(answer?.content?.seen))).toEqual(QUESTION);
  });
});
