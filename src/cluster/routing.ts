/**
 * Whether a request is this instance's to serve, and handing it on when it is not: the one
 * object host/ asks. Ids it mints name this instance (owned-id.ts); a request naming another
 * instance's id is forwarded to the address that instance registered (InstanceDirectory); a
 * forwarded request is served here and never handed on again.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { forward } from "./forward.js";
import { HOP_HEADER, PEER_HEADER, verifyHop } from "./hop.js";
import { ownedId, ownerOf } from "./owned-id.js";

/** Where the instances of the cluster listen for each other, as they registered it in the shared store. */
export interface InstanceDirectory {
  /** The address of a live instance, or undefined when it is gone. */
  addressOf(instance: string): Promise<URL | undefined>;
}

/** Requests that came from another instance with a good proof: served here, never handed on. */
const hopped = new WeakMap<IncomingMessage, { from: string; peer: string | undefined }>();

/** How long an instance's address, once looked up, is used without asking the store again. */
const ADDRESS_KEPT_MS = 2_000;

export class ClusterRouting {
  /** Addresses looked up lately: a hop does not cost a store round trip, and goes on while the store is away. */
  readonly #known = new Map<string, { address: URL; at: number }>();

  constructor(
    readonly self: string,
    private readonly secret: string,
    private readonly directory: InstanceDirectory,
  ) {}

  newId(): string {
    return ownedId(this.self);
  }

  /**
   * Check a request's hop header, if it has one: undefined when it has none (a host's own
   * request), else who sent it or why it is refused. A good one is remembered (`peerOf`).
   */
  acceptHop(request: IncomingMessage): { from: string } | { refused: string } | undefined {
    const value = request.headers[HOP_HEADER];
    if (value === undefined) return undefined;
    if (typeof value !== "string") return { refused: "malformed cluster hop" };
    const verdict = verifyHop(this.secret, this.self, value, { method: request.method ?? "GET", path: request.url ?? "/" });
    if ("from" in verdict) {
      const peer = request.headers[PEER_HEADER];
      hopped.set(request, { from: verdict.from, peer: typeof peer === "string" ? peer : undefined });
    }
    return verdict;
  }

  /** The instance that holds `id`, when that is another one and this request may still be handed on. */
  elsewhere(request: IncomingMessage, id: string): string | undefined {
    if (hopped.has(request)) return undefined;
    const owner = ownerOf(id);
    return owner !== undefined && owner !== this.self ? owner : undefined;
  }

  /**
   * Hand the request on to `instance`; "unreachable" (nothing written yet) when it is gone, and
   * "no store" when the store cannot say where it is (and it was not looked up lately).
   */
  async handOn(request: IncomingMessage, response: ServerResponse, instance: string, body?: Buffer): Promise<"forwarded" | "unreachable" | "no store"> {
    const address = await this.#addressOf(instance);
    if (address === "no store") return address;
    if (!address) return "unreachable";
    const outcome = await forward(request, response, { instance, address }, { self: this.self, secret: this.secret, peer: peerOf(request) ?? "" }, body);
    if (outcome === "unreachable") this.#known.delete(instance);
    return outcome;
  }

  async #addressOf(instance: string): Promise<URL | undefined | "no store"> {
    const known = this.#known.get(instance);
    if (known && Date.now() - known.at < ADDRESS_KEPT_MS) return known.address;
    let address: URL | undefined;
    try {
      address = await this.directory.addressOf(instance);
    } catch {
      // The store is away: the address last seen, however old, is still the best guess (a gone instance does not answer it).
      return known?.address ?? "no store";
    }
    if (address) this.#known.set(instance, { address, at: Date.now() });
    else this.#known.delete(instance);
    return address;
  }
}

/** The host's address: the one
 the first instance saw for a request handed on, else the socket's peer. */
export function peerOf(request: IncomingMessage): string | undefined {
  return hopped.get(request)?.peer ?? request.socket.remoteAddress;
}
