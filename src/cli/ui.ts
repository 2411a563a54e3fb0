/** `mcpx ui`: the web page and REST API for the question store alone, without a gateway. */
import { resolve } from "node:path";
import { pageLink } from "../api/page-codes.js";
import { startStoreServer, type StoreServer } from "../api/store-server.js";
import { stateDir, TOKEN_FILE } from "../broker/state-dir.js";
import { CredentialError, loadHostCredential, requireCredentialFor, TOKEN_ENV, type HostCredential } from "../host/host-credential.js";
import { GatewayError } from "../protocol/errors.js";
import type { Config } from "../config/types.js";
import { createLogger } from "../util/log.js";
import { CliError, Exit } from "./exit.js";
import { accessLines, reachable } from "./link.js";
import { cleartextWarning } from "./cleartext.js";

export { UI_DEFAULT_PORT } from "./ports.js";
import { UI_DEFAULT_PORT } from "./ports.js";

export interface UiOptions {
  host?: string;
  port?: number;
  /** The host credential's file (else `$MCPX_HTTP_TOKEN`). */
  tokenFile?: string;
}

/** `config`: the one `--config` (or $MCPX_CONFIG, ./mcpx.json) names, whose `store.url` the page serves. */
export async function ui(options: UiOptions, config?: Pick<Config, "store">): Promise<void> {
  const log = createLogger();
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? UI_DEFAULT_PORT;
  const credential = uiCredential(host, options.tokenFile);
  const dir = stateDir();
  let server: StoreServer;
  try {
    server = await startStoreServer({
      host,
      port,
      stateDir: dir,
      log,
      ...(credential ? { credential } : {}),
      ...(config?.store ? { storeUrl: config.store.url } : {}),
    });
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(error.message, Exit.Error);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new CliError(`${host}:${port} is already in use (choose another with --port)`, Exit.Error);
    if (code === "EADDRNOTAVAIL") throw new CliError(`cannot bind ${host}: no such local address`, Exit.Error);
    throw error;
  }
  process.stderr.write(
    accessLines(pageLink(server.token, reachable(server.url)), credential, server.broker.store.secrets.whereIs(TOKEN_FILE)) + cleartextWarning(host),
  );
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

/** `--token-file`, else `$MCPX_HTTP_TOKEN`; none is fine on loopback only. */
function uiCredential(host: string, tokenFile: string | undefined): HostCredential | undefined {
  try {
    const credential = loadHostCredential(tokenFile === undefined ? undefined : { tokenFile: resolve(tokenFile) }, process.env, {
      token: "",
      tokenFile: "--token-file",
    });
    requireCredentialFor(host, credential, `--token-file <a file only you can read>, or the environment variable ${TOKEN_ENV}`);
    return credential;
  } catch (error) {
    if (error instanceof CredentialError) throw new CliError(error.message, Exit.Usage);
    throw error;
  }
}
