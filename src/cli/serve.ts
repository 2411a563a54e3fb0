/** `mcpx serve`: the gateway, for one host on stdio or many over HTTP. */
import type { Config } from "../config/types.js";
import { Gateway } from "../host/gateway.js";
import { HttpHost } from "../host/http-host.js";
import { serveStdio } from "../host/stdio-host.js";
import { createLogger } from "../util/log.js";
import { createApiRoutes } from "../api/routes.js";
import { Broker } from "../broker/broker.js";
import { stateDir } from "../broker/state-dir.js";
import { QuestionStore } from "../broker/store.js";
import { apiToken } from "../broker/token.js";

export interface ServeOptions {
  http?: boolean;
  host?: string;
  port?: number;
}

export async function serve(config: Config, options: ServeOptions): Promise<void> {
  const log = createLogger();
  const gateway = new Gateway(config, log);
  if (!options.http) {
    const stop = onSignal(() => gateway.stop());
    await serveStdio(gateway);
    stop();
    await gateway.stop();
    return;
  }
  // The REST API and the web page answer questions from the shared store.
  const dir = stateDir();
  let store: QuestionStore | undefined;
  let broker = gateway.broker;
  if (!broker) {
    store = QuestionStore.open(dir);
    broker = new Broker(store, log);
    broker.start(config.elicitation.retentionDays);
  }
  const api = createApiRoutes({ broker, token: apiToken(dir), log });
  const host = new HttpHost(gateway, {
    host: options.host ?? config.http.host,
    port: options.port ?? config.http.port,
    allowedOrigins: config.http.allowedOrigins,
    allowedHosts: config.http.allowedHosts,
    extraRoutes: api,
  });
  const url = await host.listen();
  process.stderr.write(`mcpx: serving MCP at ${url.href}\n`);
  process.stderr.write(`mcpx: questions at ${new URL(`/?token=${apiToken(dir)}`, url).href}\n`);
  void gateway.start();
  await new Promise<void>((resolve) => {
    onSignal(async () => {
      await host.close();
      api.close();
      if (store) {
        broker.stop();
        store.close();
      }
      await gateway.stop();
      resolve();
    });
  });
}

function onSignal(handler: () => Promise<void>): () => void {
  let done = false;
  const listener = (): void => {
    if (done) return;
    done = true;
    void handler().finally(() => process.exit(0));
  };
  process.once("SIGINT", listener);
  process.once("SIGTERM", listener);
  return () => {
    process.off("SIGINT", listener);
    process.off("SIGTERM", listener);
  };
}
