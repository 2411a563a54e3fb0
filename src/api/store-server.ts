/**
 * A server for the question store alone (no gateway): the REST API, the event stream and the
 * web page, behind the same Host/Origin guard as `mcpx serve --http`. `mcpx ui` runs it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Broker } from "../broker/broker.js";
import { openStore } from "../broker/open-store.js";
import type { HostCredential } from "../host/host-credential.js";
import { allowedHosts, allowedOrigins, rejectReason } from "../host/http-guard.js";
import type { Logger } from "../util/log.js";
import { defaultConfig } from "../config/validate.js";
import { sendApiError, slowClientBounds } from "./http.js";
import { createApiRoutes } from "./routes.js";

export interface StoreServerOptions {
  host: string;
  port: number;
  stateDir: string;
  /** The shared store's URL (`store.url`); the state dir's SQLite file without it. */
  storeUrl?: string;
  log: Logger;
  allowedOrigins?: string[];
  allowedHosts?: string[];
  retentionDays?: number;
  /** Required on `/v1` when set; the caller refuses a bind beyond loopback without one. */
  credential?: HostCredential;
}

export interface StoreServer {
  /** The page's address, without a code. */
  url: URL;
  /** The API token (the key of page codes; the scripts' token when there is no credential). */
  token: string;
  broker: Broker;
  close(): Promise<void>;
}

export async function startStoreServer(options: StoreServerOptions): Promise<StoreServer> {
  const store = await openStore({ stateDir: options.stateDir, ...(options.storeUrl ? { url: options.storeUrl } : {}) });
  const broker = new Broker(store, options.log);
  await broker.start(options.retentionDays);
  const token = await store.secrets.get("api-token");
  const routes = createApiRoutes({ broker, token, log: options.log, ...(options.credential ? { hostCredential: options.credential } : {}) });
  let hosts = new Set<string>();
  let origins = new Set<string>();

  // `mcpx ui` reads no config: the default bounds on slow clients.
  const server: Server = createServer(slowClientBounds(defaultConfig().http), (request, response) => {
    const url = new URL(request.url ?? "/", "http://mcpx.invalid");
    const refused = rejectReason(request, hosts, origins);
    if (refused) return sendApiError(response, 403, "FORBIDDEN", `Forbidden: ${refused}`);
    routes(request, response, url)
      .then((handled) => {
        if (!handled) sendApiError(response, 404, "NOT_FOUND", `Not found: ${url.pathname} (the page is at /, the API under /v1)`);
      })
      .catch((error: unknown) => {
        options.log.error("HTTP handler failed", { error });
        if (!response.headersSent) sendApiError(response, 500, "INTERNAL", "Internal error in mcpx (see its log)");
        else response.end();
      });
  });

  const stop = async (): Promise<void> => {
    routes.close();
    await broker.stop();
    await store.close();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const guard = { host: options.host, port, allowedOrigins: options.allowedOrigins ?? [], allowedHosts: options.allowedHosts ?? [] };
  hosts = allowedHosts(guard);
  origins = allowedOrigins(guard);
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;

  return {
    url: new URL(`http://${host}:${port}/`),
    token,
    broker,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stop();
    },
  };
}
