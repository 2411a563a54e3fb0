/**
 * Which era an upstream speaks, found out the way the spec asks of a dual-era client: forced by
 * `protocol` in the config, else probed with `server/discover` unless the server is already
 * known to be legacy (the era cache). A server that answers the probe is 2026-07-28 and needs
 * no other handshake; one that does not is offered the legacy `initialize` (handshake.ts).
 */
import type { ServerConfig } from "../config/types.js";
import type { Peer } from "../rpc/peer.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import { GatewayError, RpcError } from "../protocol/errors.js";
import { isModernErrorCode, MODERN_ERROR, readDiscover, supportedFromError } from "../protocol/modern.js";
import { MODERN_REVISIONS, modernFromUpstream, type Revision } from "../protocol/revisions.js";
import type { Logger } from "../util/log.js";
import { modernEnvelope } from "./client-capabilities.js";
import { eraKey, knownEra, rememberEra, type Era } from "./era-cache.js";

/** A stdio server that has not answered `server/discover` by then is taken for a legacy one (the spec's "reasonable timeout"). */
const DISCOVER_PROBE_MS = 5_000;

/** What the server said of itself in the handshake of either era. */
export interface ServerHello {
  era: Era;
  revision: Revision;
  capabilities: JsonObject;
  serverInfo: JsonObject | undefined;
  instructions: string | undefined;
}

export interface HandshakeContext {
  config: ServerConfig;
  log: Logger;
  startupTimeoutMs: number;
  /** Stops the handshake's requests when the upstream is stopped. */
  signal: AbortSignal;
  /** The server is known, as soon as it is (its messages are read by era from then on). */
  heard(hello: ServerHello): void;
}

/** The era the config forces, if it forces one. */
export function pinnedEra(config: ServerConfig): Era | undefined {
  const protocol = config.protocol;
  if (protocol === "auto") return undefined;
  return MODERN_REVISIONS.includes(protocol) ? "modern" : "legacy";
}

/** Try `server/discover` first: forced modern, or `auto` unless this server is known to be legacy. */
export function probesFirst(config: ServerConfig): boolean {
  const pinned = pinnedEra(config);
  if (pinned) return pinned === "modern";
  return knownEra(eraKey(config)) !== "legacy";
}

/**
 * The era probe, and the modern handshake when it succeeds: true once the connection speaks
 * 2026-07-28; false when the server is a legacy one (`auto` only). A recognised modern error
 * proves the server modern: no fallback then, the start fails with what it said. On stdio
 * anything else, a timeout included, means legacy; on HTTP so does any answer (an error
 * status, a JSON-RPC error that is not a modern one), but not a server that cannot be reached
 * or does not answer at all.
 */
export async function discover(peer: Peer, context: HandshakeContext): Promise<boolean> {
  const { config, log, startupTimeoutMs } = context;
  const pinned = pinnedEra(config) === "modern";
  const stdio = config.kind === "stdio";
  const timeoutMs = pinned || !stdio ? startupTimeoutMs : Math.min(startupTimeoutMs, DISCOVER_PROBE_MS);
  const ask = (revision: Revision): Promise<JsonObject> =>
    peer.request("server/discover", modernEnvelope(undefined, revision), { timeoutMs, signal: context.signal });
  let result: JsonObject;
  try {
    result = await ask(offeredModern(config)).catch((error: unknown) => {
      // -32022 names what the server supports: a client retries once in one of those it speaks.
      const retry = error instanceof RpcError ? retryRevision(config, error) : undefined;
      if (!retry) throw error;
      log.info("the server refused the offered revision; asking again in one it supports", { revision: retry });
      return ask(retry);
    });
  } catch (error) {
    if (error instanceof RpcError && isModernErrorCode(error.code)) throw modernRefusal(error);
    const reached = error instanceof RpcError || (error instanceof GatewayError && error.details?.status !== undefined);
    const legacy = stdio ? !peer.closed : reached;
    if (pinned || !legacy) {
      const why = error instanceof Error ? error.message : String(error);
      throw new GatewayError("UPSTREAM_PROTOCOL", pinned ? `protocol ${config.protocol} is configured, but server/discover failed: ${why}` : why);
    }
    log.info("the server does not speak 2026-07-28 (server/discover failed); trying the legacy handshake", {
      error: error instanceof Error ? error.message : String(error),
    });
    return false;
  }
  const discovered = readDiscover(result);
  const revision = discovered && modernFromUpstream(discovered.supportedVersions);
  if (!discovered || !revision) {
    const said = discovered ? `supports ${discovered.supportedVersions.join(", ")}` : "answered server/discover with something that is not a DiscoverResult";
    if (pinned) throw new GatewayError("UPSTREAM_PROTOCOL", `protocol ${config.protocol} is configured, but the server ${said}`);
    log.info("the server's server/discover offers no revision of the 2026-07-28 era mcpx speaks; trying the legacy handshake", { said });
    return false;
  }
  context.heard({
    era: "modern",
    revision,
    capabilities: discovered.capabilities,
    serverInfo: discovered.serverInfo,
    instructions: discovered.instructions,
  });
  if (!pinned) rememberEra(eraKey(config), "modern");
  return true;
}

/** The modern revision asked for in the probe: the pinned one, else the newest mcpx speaks. */
function offeredModern(config: ServerConfig): Revision {
  const protocol = config.protocol;
  return protocol !== "auto" && MODERN_REVISIONS.includes(protocol) ? protocol : MODERN_REVISIONS.at(-1)!;
}

/** The revision to retry `server/discover` in after a -32022: one the server names and mcpx speaks (the pinned one when pinned). */
function retryRevision(config: ServerConfig, error: RpcError): Revision | undefined {
  if (error.code !== MODERN_ERROR.UnsupportedProtocolVersion) return undefined;
  const supported = supportedFromError(error.data) ?? [];
  const pinned = pinnedEra(config) === "modern" ? offeredModern(config) : undefined;
  return pinned ? (supported.includes(pinned) ? pinned : undefined) : modernFromUpstream(supported);
}

/** A modern server refused the probe: why, in words (and what it supports, for -32022). */
function modernRefusal(error: RpcError): GatewayError {
  if (error.code === MODERN_ERROR.UnsupportedProtocolVersion) {
    const supported = supportedFromError(error.data);
    const list = supported?.length ? supported.join(", ") : "no version it named";
    return new GatewayError("UPSTREAM_PROTOCOL", `the server speaks the 2026-07-28 era but supports ${list}, none of which mcpx speaks`, { supported });
  }
  return new GatewayError("UPSTREAM_PROTOCOL", `the server refused server/discover: ${error.message} (${error.code})`);
}
