/** `mcpx serve`: the gateway, for one host on stdio or many over HTTP, with the question broker. */
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
import { GatewayError } from "../protocol/errors.js";
import { CliError } from "./exit.js";

export interface ServeOptions {
  http?: boolean;
  host?: string;
  port?: number;
}

export async function serve(config: Config, options: ServeOptions): Promise<void> {
  const log = createLogger();
  const dir = stateDir();
  // A store that cannot be used is a clear error now, not a crash in the middle of a call.
  const store = openStore(dir);
  const broker = new Broker(store, log);
  broker.start(config.elicitation.retentionDays);
  const gateway = new Gateway(config, log, { broker });
  const shutdown = async (): Promise<void> => {
    await gateway.stop();
    broker.stop();
    store.close();
  };
  if (!options.http) {
    const stop = onSignal(shutdown);
    await serveStdio(gateway);
    stop();
    await shutdown();
    return;
  }
  const api = createApiRoutes({ broker, token: apiToken(dir), log });
  const host = new HttpHost(gateway, {
    host: options.host ?? config.http.host,
    port: options.port ?? config.http.port,
    allowedOrigins: config.http.allowedOrigins,
    allowedHosts: config.http.allowedHosts,
    extraRoutes: api,
  });
  const url = await host.listen().catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot listen on ${options.host ?? config.http.host}:${options.port ?? config.http.port}: ${error.message}`);
  });
  process.stderr.write(`mcpx: serving MCP at ${url.href}\n`);
  process.stderr.write(`mcpx: questions at ${new URL(`/?token=${apiToken(dir)}`, url).href}\n`);
  void gateway.start();
  await new Promise<void>((resolve) => {
    onSignal(async () => {
      await host.close();
      api.close();
      await shutdown();
      resolve();
    });
  });
}

function openStore(dir: string): QuestionStore {
  try {
    return QuestionStore.open(dir);
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(error.message);
    throw error;
  }
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
