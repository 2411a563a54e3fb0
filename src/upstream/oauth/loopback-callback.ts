/**
 * Where the authorization server sends the person back when no `mcpx serve --http` is there to
 * take it (`mcpx serve` on stdio, `mcpx call`, `mcpx auth login`): a listener on 127.0.0.1 only,
 * started when a sign-in needs its URL and closed once no sign-in waits for it. Its port is the
 * server's `oauth.callbackPort` when configured (for authorization servers that register exact
 * redirects), else any free one. While it listens it keeps the process alive: a `mcpx call`
 * waiting for a person to sign in has nothing else in flight.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { callbackPage } from "./callback-page.js";
import type { PendingSignIns } from "./pending-sign-ins.js";
import type { CallbackEndpoint } from "./types.js";

export const CALLBACK_PATH = "/oauth/callback";

export class LoopbackCallbacks implements CallbackEndpoint {
  /** Listeners by configured port (0: any free one). */
  readonly #listening = new Map<number, Promise<{ server: Server; url: string }>>();

  constructor(
    private readonly pending: PendingSignIns,
    /** The `oauth.callbackPort` of a server, if it has one. */
    private readonly portOf: (server: string) => number | undefined = () => undefined,
  ) {
    pending.onidle = () => this.close();
  }

  url(server: string): Promise<string> {
    const port = this.portOf(server) ?? 0;
    let listening = this.#listening.get(port);
    if (!listening) {
      listening = this.#listen(port);
      this.#listening.set(port, listening);
      listening.catch(() => this.#listening.delete(port));
    }
    return listening.then((it) => it.url);
  }

  #listen(port: number): Promise<{ server: Server; url: string }> {
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (request.method !== "GET" || url.pathname !== CALLBACK_PATH) {
        response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
        return;
      }
      const signedIn = this.pending.arrive(url.searchParams);
      const page = callbackPage(signedIn);
      response.writeHead(page.status, page.headers).end(page.body);
    });
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const { port: bound } = server.address() as AddressInfo;
        resolve({ server, url: `http://127.0.0.1:${bound}${CALLBACK_PATH}` });
      });
    });
  }

  /** Stop listening (a later sign-in listens again). */
  close(): void {
    for (const [port, listening] of this.#listening) {
      this.#listening.delete(port);
      void listening.then(({ server }) => server.close()).catch(() => {});
    }
  }
}
