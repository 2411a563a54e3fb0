/**
 * Open a channel to an upstream as its config says: spawn a process, or reach a URL over
 * Streamable HTTP, falling back to the 2024-11-05 HTTP+SSE transport when the server
 * refuses Streamable HTTP (`transport: "auto"`).
 */
import type { ServerConfig } from "../config/types.js";
import type { Channel } from "../rpc/channel.js";
import type { Logger } from "../util/log.js";
import { StdioChannel } from "./stdio-channel.js";
import { StreamableHttpChannel } from "./http-channel.js";
import { LegacySseChannel } from "./sse-channel.js";

/** `onStderr` hears each line the process writes to stderr. */
export function stdioChannel(config: ServerConfig, log: Logger, maxMessageBytes: number, onStderr?: (line: string) => void): Channel {
  const channel = new StdioChannel(
    { command: config.command ?? "", args: config.args, env: config.env, cwd: config.cwd },
    log,
    maxMessageBytes,
  );
  if (onStderr) channel.onstderr = onStderr;
  return channel;
}

export function streamableHttpChannel(config: ServerConfig, log: Logger): StreamableHttpChannel {
  return new StreamableHttpChannel(new URL(config.url ?? ""), config.headers, log);
}

export function legacySseChannel(config: ServerConfig, log: Logger): LegacySseChannel {
  return new LegacySseChannel(new URL(config.url ?? ""), config.headers, log);
}
