/**
 * Notifications from an upstream, on their way to hosts.
 *
 * A notification that belongs to a call goes to that call's host (on HTTP, on that call's
 * stream). Log messages that belong to no call go to every host that wants that level;
 * resource updates go to the hosts subscribed to the resource.
 */
import { isObject, type JsonRpcNotification } from "../protocol/jsonrpc.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Gateway } from "./gateway.js";
import type { CallerContext, HostSession } from "./session.js";

export function relayNotification(gateway: Gateway, upstream: Upstream, notification: JsonRpcNotification, owner: CallerContext | undefined): void {
  const params = isObject(notification.params) ? notification.params : {};
  // A host's own connection (a per-host server) speaks to that host alone.
  const audience = (session: HostSession): boolean => upstream.scope === undefined || upstream.scope === session;
  switch (notification.method) {
    case "notifications/message": {
      const named = upstream.config.passthrough ? params : { ...params, logger: loggerName(upstream.name, params.logger) };
      const send = (session: HostSession, related?: CallerContext): void => {
        if (session.wantsLog(params.level)) {
          session.notify(notification.method, named, related?.requestId !== undefined ? { relatedRequestId: related.requestId } : undefined);
        }
      };
      if (owner?.session) send(owner.session, owner);
      else if (!owner) for (const session of gateway.sessions) if (audience(session)) send(session);
      return;
    }
    case "notifications/resources/updated": {
      if (typeof params.uri !== "string") return;
      // Hosts subscribed under the URI they know it by, which may be an mcpx alias.
      const uri = gateway.catalogue.exposedUri(upstream.name, params.uri);
      if (uri === undefined) return; // another server's resource: not this one's to announce
      gateway.broadcast(notification.method, { ...params, uri }, (session) => audience(session) && session.subscriptions.has(uri));
      return;
    }
    case "notifications/elicitation/complete": {
      const id = params.elicitationId;
      const call = typeof id === "string" ? gateway.delivered.take(upstream.name, id) : undefined;
      // Only the host that was asked may hear that it is done; unknown ids are ignored (spec MUST).
      call?.session.notify(notification.method, params, { relatedRequestId: call.requestId });
      return;
    }
    case "notifications/cancelled":
      return; // the peer already cancelled the matching question
    default:
      gateway.log.debug("dropped a notification no host can use", { server: upstream.name, method: notification.method });
  }
}

function loggerName(server: string, logger: unknown): string {
  return typeof logger === "string" && logger !== "" ? `${server}/${logger}` : server;
}
