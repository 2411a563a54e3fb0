/**
 * Notifications from an upstream, on their way to hosts.
 *
 * A log message goes to the host it is proven to belong to (design rule 5: its call's, on HTTP
 * on that call's stream), and to nobody when no single host can be proven: it may be about
 * another host's work. Resource updates go to the hosts subscribed to the resource; a URL
 * completion to the host that was asked, alone. Progress is routed by token in the peer.
 */
import { isObject, type JsonObject, type JsonRpcNotification } from "../protocol/jsonrpc.js";
import type { Candidates } from "../upstream/calls.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Logger } from "../util/log.js";
import { attribute, hostOf, routeOf } from "./attribution.js";
import type { Catalogue } from "./catalogue.js";
import type { DeliveredElicitations } from "./delivered-elicitations.js";
import type { UrlQuestions } from "./url-questions.js";
import { tellAskedHost } from "./completion.js";
import type { Broker } from "../broker/broker.js";
import { BrokerError } from "../broker/errors.js";
import type { HostSession } from "./session.js";
import type { TaskRegistry } from "./tasks/registry.js";
import { relayTaskStatus } from "./tasks/task-messages.js";

/** What relaying a notification needs of the gateway. */
export interface NotificationRelay {
  readonly log: Logger;
  readonly catalogue: Catalogue;
  readonly sessions: ReadonlySet<HostSession>;
  /** The catalogue a host sees (its profile's, or the whole one). */
  viewFor(session: HostSession): { catalogue: Catalogue };
  readonly delivered: DeliveredElicitations;
  readonly urlQuestions: UrlQuestions;
  readonly broker: Broker | undefined;
  /** The tasks relayed for hosts: a task's status goes to its owner alone. */
  readonly tasks: TaskRegistry;
  broadcast(method: string, params: JsonObject, only?: (session: HostSession) => boolean): void;
  connectionOwner(upstream: Upstream): HostSession | undefined;
}

export function relayNotification(gateway: NotificationRelay, upstream: Upstream, notification: JsonRpcNotification, candidates: Candidates): void {
  const params = isObject(notification.params) ? notification.params : {};
  // A host's own connection (a per-host server) speaks to that host alone.
  const audience = (session: HostSession): boolean => upstream.scope === undefined || upstream.scope === session;
  switch (notification.method) {
    case "notifications/message": {
      const attribution = attribute(candidates, gateway.connectionOwner(upstream));
      const host = hostOf(attribution);
      if (!host) {
        gateway.log.debug("a log message no single host can be proven to own was kept from hosts", { server: upstream.name, level: params.level });
        return;
      }
      if (!host.wantsLog(params.level)) return;
      const named = upstream.config.passthrough ? params : { ...params, logger: loggerName(upstream.name, params.logger) };
      const route = routeOf(attribution);
      host.notify(notification.method, named, route?.requestId !== undefined ? { relatedRequestId: route.requestId } : undefined);
      return;
    }
    case "notifications/resources/updated": {
      if (typeof params.uri !== "string") return;
      // Hosts subscribed under the URI they know it by in their view, which may be an mcpx alias;
      // another server's resource (or one outside the host's profile) is not this one's to announce.
      const original = params.uri;
      for (const session of gateway.sessions) {
        const uri = gateway.viewFor(session).catalogue.exposedUri(upstream.name, original);
        if (uri !== undefined && audience(session) && session.subscriptions.has(uri)) session.notify(notification.method, { ...params, uri });
      }
      return;
    }
    case "notifications/elicitation/complete": {
      const id = params.elicitationId;
      if (typeof id !== "string") return;
      // The store records it beside the answer (a -32042 retry waits for it); unknown ids are ignored (spec MUST).
      const question = gateway.urlQuestions.take(upstream, id);
      if (question !== undefined) recordCompletion(gateway, upstream, question);
      // Only the host that was asked may hear that it is done.
      tellAskedHost(gateway.delivered, upstream, id, params);
      return;
    }
    case "notifications/cancelled":
      return; // the peer already cancelled the matching question
    case "notifications/tasks/status":
      // A task mcpx relayed is one host's (host/tasks/); any other is nobody's here.
      if (!relayTaskStatus(gateway.tasks, upstream, params)) gateway.log.debug("dropped the status of a task mcpx did not relay", { server: upstream.name });
      return;
    default:
      gateway.log.debug("dropped a notification no host can use", { server: upstream.name, method: notification.method });
  }
}

function recordCompletion(gateway: NotificationRelay, upstream: Upstream, question: string): void {
  gateway.broker?.complete(question, `server:${upstream.name}`).catch((error: unknown) => {
    // Already completed by a person, or declined meanwhile: the first word stands.
    if (error instanceof BrokerError)
      gateway.log.debug("a completion for a question already settled was ignored", { server: upstream.name, question, why: error.message });
    else gateway.log.warn("could not record the server's completion of a question", { server: upstream.name, question, error });
  });
}

function loggerName(server: string, logger: unknown): string {
  return typeof logger === "string" && logger !== "" ? `${server}/${logger}` : server;
}
