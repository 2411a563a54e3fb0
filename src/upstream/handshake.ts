/**
 * Opening a connection to an upstream and shaking hands on it: the transport the config asks
 * for (stdio, Streamable HTTP, or the 2024-11-05 HTTP+SSE one it falls back to), the era probe
 * where it applies, and otherwise the legacy `initialize`. The peer given back is ready for the
 * catalogue to be read; one that failed on the way is closed.
 */
import type { Channel } from "../rpc/channel.js";
import type { Peer } from "../rpc/peer.js";
import type { ReportsOversized } from "../rpc/oversized.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { GatewayError, RpcError } from "../protocol/errors.js";
import { isModernErrorCode } from "../protocol/modern.js";
import { acceptableFromUpstream, LATEST_LEGACY } from "../protocol/revisions.js";
import { IMPLEMENTATION } from "../version.js";
import { legacyClientCapabilities } from "./client-capabilities.js";
import { legacySseChannel, stdioChannel, streamableHttpChannel } from "./connect.js";
import { discover, pinnedEra, probesFirst, type HandshakeContext } from "./era-probe.js";
import { eraKey, forgetEra, rememberEra } from "./era-cache.js";
import { NotStreamableHttp, StreamableHttpChannel } from "./http-channel.js";
import type { UpstreamAuthorizer } from "./oauth/authorizer.js";
import type { ReadLimits } from "./read-limits.js";
import { StdioChannel } from "./stdio-channel.js";

export type Transport = "stdio" | "streamable-http" | "sse";

export interface OpenContext extends HandshakeContext {
  readLimits: ReadLimits;
  /** The peer that reads a channel (the upstream's handlers on it). */
  peerOn(channel: Channel & ReportsOversized): Peer;
  /** Each line a stdio server writes to stderr. */
  onStderr(line: string): void;
  /** The tool a modern `tools/call` names, for its `Mcp-Param-*` headers. */
  toolFor(name: string): JsonObject | undefined;
  /** The transport being tried now (the last one tried stays, for a start that failed). */
  trying(transport: Transport): void;
  /** The server's OAuth sign-in (HTTP servers that may need one). */
  authorizer?: UpstreamAuthorizer;
}

export async function openConnection(context: OpenContext): Promise<Peer> {
  const { config, log, readLimits: limits, authorizer } = context;
  if (config.kind === "stdio") {
    context.trying("stdio");
    return handshake(stdioChannel(config, log, limits, context.onStderr), context);
  }
  if (config.transport === "sse") {
    if (pinnedEra(config) === "modern") {
      throw new GatewayError(
        "UPSTREAM_PROTOCOL",
        `protocol ${config.protocol} is configured, but the 2024-11-05 HTTP+SSE transport has no 2026-07-28 era; set transport to "streamable-http" or "auto"`,
      );
    }
    context.trying("sse");
    return handshake(legacySseChannel(config, log, limits, authorizer), context);
  }
  context.trying("streamable-http");
  if (probesFirst(config)) {
    // The modern attempt has a channel of its own: a legacy session starts afresh on another.
    const channel = streamableHttpChannel(config, log, limits, authorizer);
    channel.modern = true;
    channel.toolFor = context.toolFor;
    const peer = context.peerOn(channel);
    try {
      await peer.start();
      if (await discover(peer, context)) return peer;
    } catch (error) {
      await peer.close().catch(() => {});
      throw error;
    }
    await peer.close().catch(() => {});
  }
  try {
    return await handshake(streamableHttpChannel(config, log, limits, authorizer), context);
  } catch (error) {
    if (!(error instanceof NotStreamableHttp) || config.transport !== "auto") throw error;
    log.info("server refused Streamable HTTP; trying the 2024-11-05 HTTP+SSE transport", { status: error.status });
    context.trying("sse");
    return handshake(legacySseChannel(config, log, limits, authorizer), context);
  }
}

/** The handshake on one channel: on stdio the probe first where it applies, then `initialize`. */
async function handshake(channel: Channel & ReportsOversized, context: HandshakeContext & Pick<OpenContext, "peerOn">): Promise<Peer> {
  const { config } = context;
  const peer = context.peerOn(channel);
  const pinned = config.protocol === "auto" ? undefined : config.protocol;
  const offered = pinned ?? LATEST_LEGACY;
  const key = eraKey(config);
  try {
    await peer.start();
    // On stdio the probe and the legacy handshake share the process, as the spec has it.
    if (channel instanceof StdioChannel && probesFirst(config) && (await discover(peer, context))) return peer;
    const result = await peer
      .request(
        "initialize",
        { protocolVersion: offered, capabilities: legacyClientCapabilities(offered), clientInfo: { ...IMPLEMENTATION } },
        { timeoutMs: context.startupTimeoutMs, signal: context.signal },
      )
      .catch((error: unknown) => {
        // A server taken for legacy that answers like a modern one: probe again next time.
        if (error instanceof RpcError && isModernErrorCode(error.code)) forgetEra(key);
        throw error;
      });
    if (!acceptableFromUpstream(result.protocolVersion)) {
      throw new GatewayError("UPSTREAM_PROTOCOL", `the server answered protocol revision ${JSON.stringify(result.protocolVersion)}, which mcpx does not speak`);
    }
    if (pinned && result.protocolVersion !== pinned) {
      throw new GatewayError("UPSTREAM_PROTOCOL", `protocol ${pinned} is configured, but the server answered ${result.protocolVersion}`);
    }
    const revision = result.protocolVersion;
    context.heard({
      era: "legacy",
      revision,
      capabilities: isObject(result.capabilities) ? result.capabilities : {},
      serverInfo: isObject(result.serverInfo) ? result.serverInfo : undefined,
      instructions: typeof result.instructions === "string" ? result.instructions : undefined,
    });
    if (channel instanceof StreamableHttpChannel) channel.protocolVersion = revision;
    if (!pinned) rememberEra(key, "legacy");
    await peer.notify("notifications/initialized");
    if (channel instanceof StreamableHttpChannel) channel.openListeningStream();
    return peer;
  } catch (error) {
    await peer.close().catch(() => {});
    throw error;
  }
}
