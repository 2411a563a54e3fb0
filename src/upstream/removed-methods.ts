/**
 * Methods 2026-07-28 removed, done the modern way on mcpx's side of a modern connection: `ping`
 * has nothing to check without a session, the log level rides in each request's envelope, and
 * resource subscriptions are the listen stream's. Hosts of either era may still send them.
 */
import { RpcError } from "../protocol/errors.js";
import { ErrorCode, type JsonObject } from "../protocol/jsonrpc.js";

export class RemovedMethods {
  /** The level hosts asked upstreams to log at; a modern server hears it in every request. */
  logLevel: string | undefined;
  /** Upstream URIs hosts subscribed to; a modern server hears them on its listen stream (kept across restarts). */
  readonly resourceSubscriptions = new Set<string>();

  /**
   * Answer `method` locally; `subscriptionsChanged` re-opens the listen stream for a changed
   * resource set. Undefined for a method that goes to the server.
   */
  answer(method: string, params: JsonObject | undefined, subscriptionsChanged: () => Promise<void>): Promise<JsonObject> | undefined {
    switch (method) {
      case "ping":
        return Promise.resolve({});
      case "logging/setLevel":
        this.logLevel = typeof params?.level === "string" ? params.level : undefined;
        return Promise.resolve({});
      case "resources/subscribe":
      case "resources/unsubscribe": {
        const uri = params?.uri;
        if (typeof uri !== "string") return Promise.reject(new RpcError(ErrorCode.InvalidParams, `Invalid params: ${method} needs a "uri"`));
        if (method === "resources/subscribe") this.resourceSubscriptions.add(uri);
        else this.resourceSubscriptions.delete(uri);
        return subscriptionsChanged().then(() => ({}));
      }
      default:
        return undefined;
    }
  }
}
