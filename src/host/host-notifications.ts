/** Notifications a host sends mcpx. Cancellation and progress are the peer's business. */
import type { JsonRpcNotification } from "../protocol/jsonrpc.js";
import type { Gateway } from "./gateway.js";
import type { HostSession } from "./session.js";
import { rootsSource } from "./roots.js";

export function hostNotification(gateway: Gateway, session: HostSession, notification: JsonRpcNotification): void {
  switch (notification.method) {
    case "notifications/initialized":
    case "notifications/cancelled":
    case "notifications/progress":
      return;
    case "notifications/roots/list_changed":
      // Only connections whose roots are this host's own answer differently now.
      for (const upstream of gateway.connectionsOf(session)) {
        if (rootsSource(gateway.config, upstream, session) === "host") void upstream.notify(notification.method).catch(() => {});
      }
      return;
    default:
      gateway.log.debug("ignored a host notification", { session: session.id, method: notification.method });
  }
}
