/**
 * `/oauth/callback` on `mcpx serve --http`: where the authorization server sends the person's
 * browser back after they signed in to an upstream. It needs no credential (a browser arriving
 * from the authorization server has none): the one-use `state` of a sign-in mcpx started is the
 * check (PendingSignIns), and nothing is shown but whether it was recognised. The redirect URL
 * is only known once the server is bound, so sign-ins ask for it and wait until then.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { callbackPage } from "../upstream/oauth/callback-page.js";
import { CALLBACK_PATH } from "../upstream/oauth/loopback-callback.js";
import type { PendingSignIns } from "../upstream/oauth/pending-sign-ins.js";
import type { CallbackEndpoint } from "../upstream/oauth/types.js";

export class ServedCallbacks implements CallbackEndpoint {
  #resolve!: (url: string) => void;
  readonly #url = new Promise<string>((resolve) => (this.#resolve = resolve));

  constructor(private readonly pending: PendingSignIns) {}

  /** The server is listening at `base` (as a browser on this machine reaches it). */
  bound(base: URL): void {
    this.#resolve(new URL(CALLBACK_PATH, base).href);
  }

  url(): Promise<string> {
    return this.#url;
  }

  /** Handles `/oauth/callback` (true), leaves every other path to the next routes (false). */
  route = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== CALLBACK_PATH) return false;
    if (request.method !== "GET") {
      response.writeHead(405, { allow: "GET", "content-type": "text/plain; charset=utf-8" }).end("the sign-in callback takes GET\n");
      return true;
    }
    const page = callbackPage(this.pending.arrive(url.searchParams));
    response.writeHead(page.status, page.headers).end(page.body);
    return true;
  };
}
