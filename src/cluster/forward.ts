/**
 * Handing a host's HTTP request on to the instance that can serve it, and its answer back,
 * streamed both ways (an SSE answer flows through as it is written). The request keeps the
 * host's own headers (its credential is checked again there) but for the hop-by-hop ones; it
 * gains the hop's proof and the host's address. When the host hangs up, the hop is cut, so the
 * other instance sees the host go as if it were connected to it.
 */
import { Agent, type IncomingMessage, request as httpRequest, type ServerResponse } from "node:http";
import { holderGoneEvents } from "./holder-gone.js";
import { type HopRequest, HOP_HEADER, PEER_HEADER, signHop } from "./hop.js";

/** How long the other instance may take to accept the connection before it counts as gone. */
const CONNECT_MS = 2_000;
/** A request body kept (besides streaming it on) to answer its requests if the other instance dies: MCP requests are small. */
const KEPT_BODY_BYTES = 1 << 20;
/** Headers about one connection, not the request (RFC 9110 §7.6.1), and the ones the hop sets itself. */
const NOT_HANDED_ON = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "host",
  HOP_HEADER,
  PEER_HEADER,
]);

const agent = new Agent({ keepAlive: true });

export interface HopFrom {
  /** This instance's id, and the cluster's secret. */
  self: string;
  secret: string;
  /** The host's address as this instance sees it. */
  peer: string;
}

/** Where the other instance is: its id and the base URL it registered. */
export interface HopTarget {
  instance: string;
  address: URL;
}

/**
 * Hand `request` on to `target`. `body` is what was already read of it (a modern POST is read
 * to find its holder); otherwise the body streams through. "unreachable" when the other
 * instance could not be reached before it answered: nothing has been written to `response`.
 */
export function forward(
  request: IncomingMessage,
  response: ServerResponse,
  target: HopTarget,
  from: HopFrom,
  body?: Buffer,
): Promise<"forwarded" | "unreachable"> {
  const path = request.url ?? "/";
  const hop: HopRequest = { method: request.method ?? "GET", path };
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !NOT_HANDED_ON.has(name)) headers[name] = value;
  headers[HOP_HEADER] = signHop(from.secret, from.self, target.instance, hop);
  headers[PEER_HEADER] = from.peer;
  if (body) {
    headers["content-length"] = String(body.length);
    delete headers["transfer-encoding"];
  }
  // What was sent on, to answer its requests should the other instance die mid-answer.
  const sent: Buffer[] = body ? [body] : [];
  let sentBytes = body?.length ?? 0;
  if (!body)
    request.on("data", (chunk: Buffer) => {
      sentBytes += chunk.length;
      if (sentBytes <= KEPT_BODY_BYTES) sent.push(chunk);
    });
  return new Promise((resolve) => {
    let answered = false;
    let streaming = false;
    // The other instance died after it began answering: an SSE answer gets an error per request, then ends.
    const cut = (): void => {
      if (response.writableEnded || response.destroyed) return;
      const events = streaming && sentBytes <= KEPT_BODY_BYTES ? holderGoneEvents(Buffer.concat(sent)) : "";
      if (events) response.end(events);
      else response.destroy();
    };
    const outgoing = httpRequest(new URL(path, target.address), { method: hop.method, headers, agent }, (incoming) => {
      answered = true;
      clearTimeout(connecting);
      const answerHeaders: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined && !NOT_HANDED_ON.has(name)) answerHeaders[name] = value;
      response.writeHead(incoming.statusCode ?? 502, answerHeaders);
      response.flushHeaders();
      streaming = String(incoming.headers["content-type"] ?? "").startsWith("text/event-stream");
      incoming.pipe(response, { end: false });
      incoming.once("end", () => {
        if (incoming.complete) response.end();
        else cut();
      });
      incoming.once("error", cut);
      resolve("forwarded");
    });
    const connecting = setTimeout(() => outgoing.destroy(new Error("connect timeout")), CONNECT_MS);
    outgoing.once("socket", (socket) => {
      if (!socket.connecting) clearTimeout(connecting);
      else socket.once("connect", () => clearTimeout(connecting));
    });
    outgoing.once("error", () => {
      clearTimeout(connecting);
      if (!answered) return resolve("unreachable");
      cut();
    });
    // The host went away: so does the hop (the other instance then treats it as hung up).
    response.once("close", () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    if (body) outgoing.end(body);
    else request.pipe(outgoing);
  });
}
