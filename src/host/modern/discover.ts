/**
 * `server/discover`: what mcpx speaks (every revision it serves, the modern ones per request and
 * the legacy ones after `initialize`), what it offers, and who it is.
 */
import type { JsonObject } from "../../protocol/jsonrpc.js";
import { REVISIONS, SERVED_REVISIONS } from "../../protocol/revisions.js";
import { IMPLEMENTATION } from "../../version.js";
import type { Gateway } from "../gateway.js";
import { META } from "../../protocol/modern.js";
import { hostInstructions } from "../instructions.js";
import { servedUpstreams } from "../gateway-tools/answers.js";
import type { HostSession } from "../session.js";
import { modernTasksCapability } from "../tasks/modern-methods.js";

/** The same offer `initialize` makes, as 2026-07-28 states it (`resources.subscribe`: via subscriptions/listen). */
export function modernCapabilities(): JsonObject {
  return {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    logging: {},
    completions: {},
  };
}

export async function discover(gateway: Gateway, session: HostSession): Promise<JsonObject> {
  await gateway.start();
  const instructions = hostInstructions(gateway, session);
  return {
    // Newest first: the one a client should pick.
    supportedVersions: [...REVISIONS].reverse().filter((revision) => SERVED_REVISIONS.includes(revision)),
    capabilities: { ...modernCapabilities(), ...modernTasksCapability(servedUpstreams(gateway, gateway.viewFor(session))) },
    ...(instructions ? { instructions } : {}),
    _meta: { [META.serverInfo]: { ...IMPLEMENTATION } },
  };
}
