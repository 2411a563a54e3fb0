/**
 * `subscriptions/listen` (2026-07-28): the long-lived request that replaces the GET stream and
 * `resources/subscribe`. Acknowledged first with the filter mcpx honours, then each list change
 * and resource update the host opted in to travels on it, tagged with its subscription id (the
 * listen request's id). It ends when the host closes it (cancel, or the HTTP stream closing).
 */
import { isObject, type JsonObject, type RequestId } from "../../protocol/jsonrpc.js";
import type { Route } from "../../rpc/channel.js";
import type { IncomingContext } from "../../rpc/peer.js";
import type { Gateway } from "../gateway.js";
import { dispatch } from "../dispatch.js";
import type { HostSession } from "../session.js";
import { META } from "../../protocol/modern.js";
import type { Envelope } from "./envelope.js";
import { ModernRequestSession } from "./request-session.js";

/** Which filter flag lets each list-changed notification through. */
const FLAGS: Record<string, string> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

class ListenSession extends ModernRequestSession {
  readonly flags = new Set<string>();

  constructor(
    base: HostSession,
    envelope: Envelope,
    readonly listenId: RequestId,
  ) {
    super(base, envelope);
  }

  /** Only what the host opted in to, on its listen stream, tagged with the subscription. */
  override notify(method: string, params: JsonObject | undefined, _route?: Route): void {
    const flag = FLAGS[method];
    const wanted = flag ? this.flags.has(flag) : method === "notifications/resources/updated" || method === "notifications/subscriptions/acknowledged";
    if (!wanted) return;
    const meta = { ...(isObject(params?._meta) ? params._meta : {}), [META.subscriptionId]: this.listenId };
    super.notify(method, { ...(params ?? {}), _meta: meta }, { relatedRequestId: this.listenId });
  }
}

export async function listen(gateway: Gateway, base: HostSession, envelope: Envelope, context: IncomingContext): Promise<JsonObject> {
  await gateway.start();
  const { id } = context.request;
  const params = context.request.params ?? {};
  const asked = isObject(params.notifications) ? params.notifications : {};
  const session = new ListenSession(base, envelope, id);
  for (const flag of Object.values(FLAGS)) if (asked[flag] === true) session.flags.add(flag);
  const honoured: JsonObject = Object.fromEntries([...session.flags].map((flag) => [flag, true]));
  const uris = Array.isArray(asked.resourceSubscriptions) ? asked.resourceSubscriptions.filter((uri): uri is string => typeof uri === "string") : [];
  const subscribed: string[] = [];
  for (const uri of uris) {
    // The legacy subscribe path, on this listen's session: the upstream is told, updates come here.
    const request = { jsonrpc: "2.0" as const, id: `${String(id)}/subscribe/${subscribed.length}`, method: "resources/subscribe", params: { uri } };
    try {
      await dispatch(gateway, session, { request, signal: context.signal, arrival: context.arrival });
      subscribed.push(uri);
    } catch (error) {
      gateway.log.info("a listen's resource subscription was not honoured", { uri, error });
    }
  }
  if (uris.length) honoured.resourceSubscriptions = subscribed;
  if (context.signal.aborted) {
    await gateway.closeSession(session);
    return listenEnded(id);
  }
  gateway.addSession(session);
  session.notify("notifications/subscriptions/acknowledged", { notifications: honoured });
  await new Promise<void>((resolve) => {
    context.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await gateway.closeSession(session);
  return listenEnded(id);
}

/** The result that ends a subscription gracefully (sent only if the stream is still there). */
function listenEnded(id: RequestId): JsonObject {
  return { _meta: { [META.subscriptionId]: id } };
}
