/**
 * What a `--runtime node` script has before its first line: the same globals as in the
 * sandbox (one object per server with one async method per tool, `args`, `ToolError`,
 * `textOf`), each tool call sent over the IPC channel to the mcpx command, which makes it.
 * Loaded with `node --import data:…`, so the script's own lines keep their numbers. Pure.
 */
import type { ScriptServer } from "../scripts/types.js";

export function nodePrelude(servers: readonly ScriptServer[]): string {
  const shape = servers.map((server) => ({ variable: server.variable, server: server.server, tools: server.tools.map((tool) => [tool.fn, tool.tool]) }));
  return `
const pending = new Map();
let next = 0;
class ToolError extends Error {
  constructor(server, tool, message) { super(server + "." + tool + ": " + message); this.name = "ToolError"; this.server = server; this.tool = tool; }
}
process.on("message", (answer) => {
  const waiting = pending.get(answer.id);
  if (!waiting) return;
  pending.delete(answer.id);
  // The channel keeps the script alive only while one of its calls is in flight.
  if (pending.size === 0) process.channel?.unref();
  if ("error" in answer) waiting.reject(new ToolError(waiting.server, waiting.tool, answer.error));
  else waiting.resolve(answer.value);
});
process.channel?.unref();
const toolOf = (server, tool) => (args = {}) =>
  new Promise((resolve, reject) => {
    const id = ++next;
    if (pending.size === 0) process.channel?.ref();
    pending.set(id, { resolve, reject, server, tool });
    process.send({ id, server, tool, args });
  });
for (const { variable, server, tools } of ${JSON.stringify(shape)}) {
  globalThis[variable] = Object.freeze(Object.fromEntries(tools.map(([fn, tool]) => [fn, toolOf(server, tool)])));
}
globalThis.ToolError = ToolError;
globalThis.args = process.argv.slice(2);
globalThis.textOf = (blocks) => (Array.isArray(blocks) ? blocks : []).filter((b) => b && b.type === "text").map((b) => b.text).join("\\n");
let warned = false;
globalThis.onElicit = () => {
  if (!warned) process.stderr.write("mcpx: onElicit is not offered questions under --runtime node: they go to the terminal, as mcpx call's do\\n");
  warned = true;
};
`;
}
