/**
 * `--runtime node`: the person's own script run by Node, in their working directory with their
 * environment and Node's APIs: no sandbox. It has the same globals as in the sandbox, and its
 * tool calls still go through mcpx: each one is sent over the IPC channel to this command,
 * which makes it as `mcpx call` does (through the daemon, or `--no-daemon` with a gateway of
 * its own), so each is its own call in the store, attributed exactly, its questions asked on
 * the terminal or, off one, printed on stderr and waited for (the script lives in this
 * command, so it cannot exit 75 and go on later). TypeScript is made JavaScript by sucrase
 * into a temporary 0600 `.mjs` (beside the file for `mcpx run`, so its imports resolve as
 * written), removed after.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { transform } from "sucrase";
import { allTools } from "../discovery/cache-read.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { scriptServers } from "../scripts/script-servers.js";
import type { ScriptCallRecord, ScriptEnvelope, ScriptServer, ScriptSource } from "../scripts/types.js";
import { configFor } from "./context.js";
import { discoveryView } from "./discovery-view.js";
import { Exit } from "./exit.js";
import { printRun } from "./run-result.js";
import { nodePrelude } from "./run-node-prelude.js";
import type { RunFlags } from "./run-command.js";
import { scriptLimits } from "../scripts/limits.js";
import type { ToolCallMaker } from "./run-node-calls.js";

export async function runInNode(source: ScriptSource, flags: RunFlags): Promise<number> {
  const config = await configFor(flags.config);
  const view = await discoveryView(config, { cached: flags.cached === true, schemas: true });
  const servers = scriptServers(allTools(view));
  const { toolCallMaker } = await import("./run-node-calls.js");
  const maker = await toolCallMaker(config, flags);
  const file = scriptFile(source);
  const limits = scriptLimits(config.scripts);
  try {
    const json = flags.json === true;
    const child = spawn(
      process.execPath,
      ["--import", `data:text/javascript;base64,${Buffer.from(nodePrelude(servers)).toString("base64")}`, file.path, ...source.args],
      {
        stdio: json ? ["inherit", "pipe", "pipe", "ipc"] : ["inherit", "inherit", "inherit", "ipc"],
      },
    );
    const calls: ScriptCallRecord[] = [];
    child.on("message", (message: unknown) => void answer(child, message, servers, maker, calls));
    const output = json ? captured(child.stdout, limits.outputBytes) : undefined;
    const stderr = json ? captured(child.stderr, limits.outputBytes) : undefined;
    const stopChild = (signal: NodeJS.Signals): void => void child.kill(signal);
    process.on("SIGINT", stopChild);
    process.on("SIGTERM", stopChild);
    const code = await new Promise<number>((resolve) => child.once("close", (exit, signal) => resolve(exit ?? (signal ? 128 : Exit.Error)))).finally(() => {
      process.off("SIGINT", stopChild);
      process.off("SIGTERM", stopChild);
    });
    if (!json) return code;
    const envelope: ScriptEnvelope = {
      ok: code === 0,
      output: output!.text(),
      stderr: stderr!.text(),
      calls,
      ...(code === 0 ? {} : { error: { kind: "thrown" as const, message: `node exited with code ${code}` } }),
    };
    printRun(envelope as unknown as JsonObject, source.filename, true, process.stdout);
    return code;
  } finally {
    file.remove();
    await maker.close();
  }
}

/** One tool call the script asked for over IPC, made by mcpx and answered over IPC. */
async function answer(child: ChildProcess, message: unknown, servers: readonly ScriptServer[], maker: ToolCallMaker, calls: ScriptCallRecord[]): Promise<void> {
  if (!isObject(message) || typeof message.id !== "number" || typeof message.server !== "string" || typeof message.tool !== "string") return;
  const { id, server, tool } = message;
  const started = Date.now();
  const reply = (body: JsonObject, outcome: ScriptCallRecord["outcome"]): void => {
    calls.push({ server, tool, durationMs: Date.now() - started, outcome });
    if (child.connected) child.send({ id, ...body });
  };
  try {
    const result = await maker.call(server, tool, isObject(message.args) ? message.args : {});
    if (result.isError === true) return reply({ error: firstText(result) }, "tool error");
    const structured = servers.find((candidate) => candidate.server === server)?.tools.find((candidate) => candidate.tool === tool)?.structured === true;
    reply({ value: (structured && result.structuredContent !== undefined ? result.structuredContent : result.content) as JsonObject }, "ok");
  } catch (error) {
    reply({ error: (error as Error).message }, "failed");
  }
}

function firstText(result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.find((block): block is { type: "text"; text: string } => isObject(block) && block.type === "text" && typeof block.text === "string");
  return text?.text ?? "the tool reported an error";
}

/** The script as an `.mjs` Node runs: beside the file for `mcpx run` (its imports resolve as written), else in a private temp dir. */
function scriptFile(source: ScriptSource): { path: string; remove(): void } {
  const js = source.language === "ts" ? transformTs(source.code) : source.code;
  const beside = source.filename !== "exec.ts" && source.filename !== "stdin.ts";
  if (beside) {
    const path = join(dirname(source.filename), `.${basename(source.filename)}.mcpx-${process.pid}.mjs`);
    try {
      writeFileSync(path, js, { mode: 0o600, flag: "wx" });
      return { path, remove: () => rmSync(path, { force: true }) };
    } catch {
      // a folder we may not write to: the temp dir, where its relative imports do not resolve
    }
  }
  const dir = mkdtempSync(join(tmpdir(), "mcpx-run-"));
  const path = join(dir, "script.mjs");
  writeFileSync(path, js, { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function transformTs(code: string): string {
  return transform(code, { transforms: ["typescript"], disableESTransforms: true }).code;
}

/** What a stream printed, kept up to `limit` bytes; beyond it, cut with a marker saying how much was left out. */
function captured(stream: NodeJS.ReadableStream | null, limit: number): { text(): string } {
  const kept: Buffer[] = [];
  let size = 0;
  let left = 0;
  stream?.on("data", (chunk: Buffer) => {
    const room = limit - size;
    if (room > 0) {
      kept.push(chunk.subarray(0, room));
      size += Math.min(room, chunk.length);
    }
    left += Math.max(0, chunk.length - Math.max(0, room));
  });
  return { text: () => Buffer.concat(kept).toString("utf8") + (left > 0 ? `\n[mcpx: ${left} more bytes left out (scripts.outputKb)]\n` : "") };
}
