/**
 * Which era each upstream turned out to speak, remembered for the life of the mcpx process so
 * that a restart (or another host's own connection to the same server) does not probe again:
 * the spec asks a dual-era client to cache the probe per server process (stdio) or per HTTP
 * origin. mcpx keys an HTTP server by its endpoint URL, finer than its origin, so that two
 * endpoints on one origin that speak different eras are each found out. A cached answer that
 * later fails (a "legacy" server that answers `initialize` with a 2026-07-28 error) is
 * forgotten, and the next start probes again.
 */
import type { ServerConfig } from "../config/types.js";

export type Era = "legacy" | "modern";

const eras = new Map<string, Era>();

export function eraKey(config: ServerConfig): string {
  if (config.kind === "http") {
    const url = new URL(config.url ?? "");
    url.hash = "";
    return `http ${url.href}`;
  }
  return `stdio ${JSON.stringify([config.name, config.command, config.args, config.cwd, config.env])}`;
}

export const knownEra = (key: string): Era | undefined => eras.get(key);

export function rememberEra(key: string, era: Era): void {
  eras.set(key, era);
}

export function forgetEra(key: string): void {
  eras.delete(key);
}

/**
 * Servers found to speak 2026-07-28 and not to serve a legacy connection mcpx can use (see
 * legacy-lane.ts): not asked again for the life of the process, as the era itself is not.
 */
const withoutLegacyLane = new Set<string>();

export const legacyLaneRefused = (key: string): boolean => withoutLegacyLane.has(key);

export function refuseLegacyLane(key: string): void {
  withoutLegacyLane.add(key);
}
