/**
 * Open a channel to an upstream as its config says: spawn a process, or reach a URL over
 * Streamable HTTP, falling back to the 2024-11-05 HTTP+SSE transport when the server
 * refuses Streamable HTTP (`transport: "auto"`).
 */
import type { ServerConfig } from "../config/types.js";
import type { Logger } from "../util/log.js";
import type { UpstreamAuthorizer } from "./oauth/authorizer.js";
import type { ReadLimits } from "./read-limits.js";
import { StdioChannel } from "./stdio-channel.js";
import { StreamableHttpChannel } from "./http-channel.js";
import { LegacySseChannel } from "./sse-channel.js";

/** `onStderr` hears each line the process writes to stderr. */
export function stdioChannel(config: ServerConfig, log: Logger, limits: ReadLimits, onStderr?: (line: string) => void): StdioChannel {
  const channel = new StdioChannel({ command: config.command ?? "", args: config.args, env: config.env, cwd: config.cwd }, log, limits);
  if (onStderr) channel.onstderr = onStderr;
  return channel;
}

/** `authorizer`: the server's OAuth sign-in, when it may need one (oauth/authorizer.ts). */
export function streamableHttpChannel(config: ServerConfig, log: Logger, limits: ReadLimits, authorizer?: UpstreamAuthorizer): StreamableHttpChannel {
  return new StreamableHttpChannel(new URL(config.url ?? ""), config.headers, log, limits, authorizer);
}

export function legacySseChannel(config: ServerConfig, log: Logger, limits: ReadLimits, authorizer?: UpstreamAuthorizer): LegacySseChannel {
  return new LegacySseChannel(new URL(config.url ?? ""), config.headers, log, limits, authorizer);
}
