/**
 * DNS-rebinding protection for the HTTP endpoint: the Host header must name this server,
 * and an Origin header, when present, must be a local origin or one the config allows.
 *
 * Names are accepted only when the config lists them (`allowedHosts`): a name is what a
 * rebinding attacker controls. Addresses written as IP literals are not, so a wildcard bind
 * (`0.0.0.0`, `::`) also accepts this machine's own interface addresses with the port.
 */
import type { IncomingMessage } from "node:http";
import { networkInterfaces } from "node:os";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

export interface GuardOptions {
  host: string;
  port: number;
  allowedOrigins: string[];
  allowedHosts: string[];
}

export function allowedHosts(options: GuardOptions): Set<string> {
  const names = new Set([...LOOPBACK_NAMES, literal(options.host)]);
  if (options.host === "0.0.0.0" || options.host === "::") for (const address of interfaceAddresses(options.host === "::")) names.add(literal(address));
  const hosts = new Set<string>(options.allowedHosts.map((host) => host.toLowerCase()));
  for (const name of names) hosts.add(`${name}:${options.port}`.toLowerCase());
  return hosts;
}

function literal(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** This machine's addresses (IPv4, and IPv6 too for `::`, which also takes IPv4 on most systems). */
function interfaceAddresses(withIpv6: boolean): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((entry) => entry.family === "IPv4" || (withIpv6 && entry.scopeid === 0))
    .map((entry) => entry.address);
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
  if (!host || !hosts.has(host)) return `Host header ${JSON.stringify(request.headers.host ?? "")} is not allowed (add it to http.allowedHosts to permit it)`;
  const origin = request.headers.origin;
  if (origin !== undefined && !origins.has(origin.toLowerCase().replace(/\/$/, ""))) {
    return `Origin ${JSON.stringify(origin)} is not allowed (add it to http.allowedOrigins to permit it)`;
  }
  return undefined;
}
