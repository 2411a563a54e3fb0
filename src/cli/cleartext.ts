/**
 * mcpx serves plain HTTP. Beyond loopback that means the host credential, the page's one-time
 * codes and every answer a person gives cross the network readable by anyone on the path, so
 * `serve --http` and `ui` say so on stderr when they listen there. Pure.
 */
import { isLoopbackHost } from "../host/host-credential.js";

export function cleartextWarning(host: string): string {
  if (isLoopbackHost(host)) return "";
  return (
    `mcpx: warning: serving plain HTTP on ${host}: the host credential, the page's one-time codes and the answers people give cross the network in clear; ` +
    "put a TLS-terminating proxy in front of mcpx (or listen on 127.0.0.1 only)\n"
  );
}
