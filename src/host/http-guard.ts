/**
 * DNS-rebinding protection for the HTTP endpoint: the Host header must name this server,
 * and an Origin header, when present, must be a local origin or one the config allows.
 */
import type { IncomingMessage } from "node:http";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

export interface GuardOptions {
  host: string;
  port: number;
  allowedOrigins: string[];
  allowedHosts: string[];
}

export function allowedHosts(options: GuardOptions): Set<string> {
  const names = new Set([...LOOPBACK_NAMES, options.host.includes(":") ? `[${options.host}]` : options.host]);
  const hosts = new Set<string>(options.allowedHosts.map((host) => host.toLowerCase()));
  for (const name of names) hosts.add(`${name}:${options.port}`.toLowerCase());
  return hosts;
}

export function allowedOrigins(options: GuardOptions): Set<string> {
  const origins = new Set(options.allowedOrigins.map((origin) => origin.toLowerCase().replace(/\/$/, "")));
  for (const host of allowedHosts(options)) {
    origins.add(`http://${host}`);
    origins.add(`https://${host}`);
  }
  return origins;
}

/** Why the request must be refused, or undefined when it may proceed. */
export function rejectReason(request: IncomingMessage, hosts: Set<string>, origins: Set<string>): string | undefined {
  const host = request.headers.host?.toLowerCase();
  if (!host || !hosts.has(host)) return `Host header ${JSON.stringify(request.headers.host ?? "")} is not allowed`;
  const origin = request.headers.origin;
  if (origin !== undefined && !origins.has(origin.toLowerCase().replace(/\/$/, ""))) {
    return `Origin ${JSON.stringify(origin)} is not allowed (add it to http.allowedOrigins to permit it)`;
  }
  return undefined;
}
