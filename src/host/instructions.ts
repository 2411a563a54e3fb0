/**
 * The `instructions` hosts get (initialize, server/discover). Expose "all": the upstreams' own,
 * each under its server's name. "discovery": how to find and call tools through the gateway
 * tools, and one line per server; each server's own instructions are one mcpx__servers call away.
 */
import type { Gateway } from "./gateway.js";
import type { HostView } from "./profile-view.js";
import type { HostSession } from "./session.js";
import type { Upstream } from "../upstream/upstream.js";
import { servedUpstreams } from "./gateway-tools/answers.js";
import { CALL_TOOL, DESCRIBE_TOOL, SEARCH_TOOL, SERVERS_TOOL } from "./gateway-tools/definitions.js";
import { pinnedTools } from "./gateway-tools/exposed-tools.js";
import { serverDescription } from "../discovery/tool-records.js";
import { EXEC_TOOL } from "./gateway-tools/exec.js";

/** The server lines stop here (about 600 tokens); mcpx__servers has them all, and whole. */
const SERVER_LINES_BUDGET = 2500;
const SERVER_LINE = 100;

/** What `session` is told: of its profile's servers only, when it has one. */
export function hostInstructions(gateway: Gateway, session: HostSession | undefined): string | undefined {
  const view = gateway.viewFor(session);
  const upstreams = servedUpstreams(gateway, view);
  return view.config.expose === "discovery" ? discoveryInstructions(view, upstreams) : upstreamInstructions(upstreams);
}

function upstreamInstructions(upstreams: readonly Upstream[]): string | undefined {
  const parts = upstreams
    .filter((upstream) => upstream.instructions)
    .map((upstream) => (upstreams.length === 1 ? upstream.instructions : `## ${upstream.name}\n${upstream.instructions}`));
  return parts.length ? parts.join("\n\n") : undefined;
}

function discoveryInstructions(view: HostView, upstreams: readonly Upstream[]): string {
  const servers = upstreams.filter((upstream) => upstream.state !== "disabled");
  const pinned = pinnedTools(view.config, view.catalogue).map((tool) => String(tool.name));
  const lines: string[] = [];
  let length = 0;
  for (const upstream of servers) {
    const line = `- ${upstream.name}${upstream.state === "ready" ? "" : ` (${upstream.state})`}: ${serverDescription(upstream.instructions, upstream.serverInfo, SERVER_LINE)}`;
    if (length + line.length > SERVER_LINES_BUDGET) {
      lines.push(`- and ${servers.length - lines.length} more: see ${SERVERS_TOOL}`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return [
    `mcpx connects you to ${servers.length} MCP server${servers.length === 1 ? "" : "s"}. Their tools are not listed: find them, then call them.`,
    `1. ${SEARCH_TOOL} {"query": "a few words for what you want done"}: tool names (SERVER__TOOL), best first.`,
    `2. ${DESCRIBE_TOOL} {"names": ["SERVER__TOOL"]}: their arguments and results, as TypeScript.`,
    `3. ${CALL_TOOL} {"name": "SERVER__TOOL", "arguments": {…}}: the tool's own answer. A question the tool asks reaches you as it would from a direct call.`,
    `4. Several calls whose results you would filter or join: one ${EXEC_TOOL} {"code": "…"}, a TypeScript program calling them as await SERVER.TOOL({…}); only what it prints and returns comes back.`,
    `${SERVERS_TOOL} says what each server is for; with {"server": NAME}, its own instructions.`,
    ...(pinned.length ? [`Listed directly as well: ${pinned.join(", ")}.`] : []),
    "",
    "Servers:",
    ...lines,
  ].join("\n");
}
