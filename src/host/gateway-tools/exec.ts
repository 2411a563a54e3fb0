/**
 * `mcpx__exec {"code": "…"}`: a host runs a short TypeScript program against the servers behind
 * mcpx (issue 15), offered in both expose modes. What is pure here: the tool's definition (its
 * words name the servers and the limits, never what the servers list, so the host's list stays
 * put) and the host's result (what the script printed and returned, never its source). The run
 * itself is the host's call (host/dispatch.ts).
 */
import type { Config } from "../../config/types.js";
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { ScriptCallRecord, ScriptEnvelope, ScriptFailure } from "../../scripts/types.js";
import { serverVariables } from "../../scripts/script-servers.js";
import { DESCRIBE_TOOL, serverList } from "./definitions.js";

export const EXEC_TOOL = "mcpx__exec";

/** Its script's name in errors ("exec.ts:3"). */
export const EXEC_FILENAME = "exec.ts";

/** structuredContent lists this many calls; the rest are counted (a script may make a thousand). */
export const LISTED_CALLS = 50;

/** Each server, and the global a program reaches it by where that is another name (`my-server as my_server`). */
function asGlobals(servers: readonly string[]): string[] {
  const globals = serverVariables(servers);
  return servers.map((server) => {
    const global = globals.get(server);
    return global === undefined || global === server ? server : `${server} as ${global}`;
  });
}

/** In discovery mode the servers are named in mcpx__search's words already: here, fewer of them. */
const DISCOVERY_NAMES_BUDGET = 300;

export function execToolDefinition(servers: readonly string[], scripts: Config["scripts"], discovery: boolean): JsonObject {
  const typed = discovery
    ? `Types: ${DESCRIBE_TOOL}'s TypeScript, where a tool with an outputSchema returns ToolResult<Out>: in a program it resolves to Out (its structuredContent), any other tool to its content blocks.`
    : "A tool with an outputSchema resolves to its structuredContent, any other to its content blocks.";
  return {
    name: EXEC_TOOL,
    description:
      `Run a short TypeScript program against the MCP servers behind mcpx (${serverList(asGlobals(servers), discovery ? DISCOVERY_NAMES_BUDGET : undefined)}) instead of many tool calls. ` +
      "One object per server, one async method per tool: `const r = await server.tool({...})` (other characters become _: my-server.get-file is my_server.get_file). " +
      `${typed} A tool's error throws ToolError (server, tool, message); textOf(blocks) joins text blocks. ` +
      "Only what it prints (console.log) and returns (top-level return) comes back, never the code: filter and join inside it. " +
      "A tool's question reaches you as from a direct call. " +
      `Sandboxed (no files, network or processes; setTimeout only within the deadline); at most ${scripts.timeoutSeconds} s, ${scripts.memoryMb} MB, ${scripts.maxCalls} calls, ${scripts.outputKb} KB printed.`,
    inputSchema: {
      type: "object",
      properties: { code: { type: "string", description: "TypeScript (types are stripped, not checked) or JavaScript" } },
      required: ["code"],
    },
    annotations: { openWorldHint: true },
  };
}

/**
 * The host's result: the text is what the program printed, then what it returned, its
 * stderr-like output and its failure, each marked; `isError` when it failed. structuredContent
 * is the envelope without the printed output (the text has it: a host that shows both would
 * pay for it twice) and with at most `LISTED_CALLS` calls. Nothing of it is secret: the source
 * is never in it, and the calls carry no arguments or results.
 */
export function execResult(envelope: ScriptEnvelope): JsonObject {
  const parts: string[] = [];
  if (envelope.output !== "") parts.push(envelope.output.replace(/\n$/, ""));
  if (envelope.value !== undefined) parts.push(`returned: ${JSON.stringify(envelope.value)}`);
  if (envelope.stderr !== "") parts.push(`stderr:\n${envelope.stderr.replace(/\n$/, "")}`);
  if (envelope.error) parts.push(failureLine(envelope.error));
  if (parts.length === 0) parts.push("(the program printed nothing and returned nothing)");
  const listed: ScriptCallRecord[] = envelope.calls.slice(0, LISTED_CALLS);
  const structured: JsonObject = {
    ok: envelope.ok,
    ...(envelope.value !== undefined ? { value: envelope.value as JsonObject } : {}),
    ...(envelope.error ? { error: { ...envelope.error } } : {}),
    calls: listed.map((call) => ({ ...call })),
    ...(envelope.calls.length > listed.length ? { callsLeftOut: envelope.calls.length - listed.length } : {}),
  };
  return {
    content: [{ type: "text", text: parts.join("\n") }],
    structuredContent: structured,
    ...(envelope.ok ? {} : { isError: true }),
  };
}

/** `script failed (timeout): …`, with where: `at line 3`, `in github.search_issues`. */
export function failureLine(failure: ScriptFailure): string {
  const where = [
    failure.line !== undefined ? `at ${EXEC_FILENAME}:${failure.line}` : "",
    failure.server !== undefined ? `in ${failure.server}${failure.tool !== undefined ? `.${failure.tool}` : ""}` : "",
  ].filter((part) => part !== "");
  return `the program failed (${failure.kind}${where.length ? `, ${where.join(", ")}` : ""}): ${failure.message}`;
}
