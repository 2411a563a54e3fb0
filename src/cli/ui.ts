/** `mcpx ui`: the web page and REST API for the question store alone, without a gateway. */
import { startStoreServer } from "../api/store-server.js";
import { stateDir } from "../broker/state-dir.js";
import { GatewayError } from "../protocol/errors.js";
import { createLogger } from "../util/log.js";
import { CliError, Exit } from "./exit.js";

export const UI_DEFAULT_PORT = 7778;

export interface UiOptions {
  host?: string;
  port?: number;
}

export async function ui(options: UiOptions): Promise<void> {
  const log = createLogger();
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? UI_DEFAULT_PORT;
  let server;
  try {
    server = await startStoreServer({ host, port, stateDir: stateDir(), log });
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(error.message, Exit.Error);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new CliError(`${host}:${port} is already in use (choose another with --port)`, Exit.Error);
    if (code === "EADDRNOTAVAIL") throw new CliError(`cannot bind ${host}: no such local address`, Exit.Error);
    throw error;
  }
  const page = new URL(server.url);
  page.searchParams.set("token", server.token);
  process.stderr.write(`mcpx: questions at ${page.href}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      void server.close().finally(resolve);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
