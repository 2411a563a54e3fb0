/**
 * The calls hosts have in flight on one upstream connection, by the id mcpx sent them with:
 * sending one (its owner, cancellation, progress), what a request or notification from the
 * server is attributed against, and whose timeouts are held while a question of theirs waits.
 */
import type { Arrival } from "../rpc/channel.js";
import type { Peer } from "../rpc/peer.js";
import { isObject, type JsonObject, type RequestId } from "../protocol/jsonrpc.js";

/** Whoever made a call through mcpx; opaque here, meaningful to the host layer. */
export type CallOwner = object;

/**
 * A request or notification from the server may belong to these calls: the one whose stream it
 * came on, or every call in flight when it came on no call's stream. Which of them it belongs to,
 * if any can be proven, is for the host layer to decide (design rule 5).
 */
export type Candidates = CallOwner[];

export interface CallOptions {
  owner?: CallOwner;
  signal?: AbortSignal;
  onProgress?: (params: JsonObject) => void;
  /**
   * What a 2026-07-28 server is told the client can do for this request, in place of what mcpx
   * declares (the caller's own declaration, when only the caller can answer its questions).
   */
  clientCapabilities?: JsonObject;
  /**
   * The caller speaks a legacy revision: a server that speaks both eras takes its call on a
   * legacy connection, where it may ask the 2025 way (legacy-lane.ts).
   */
  legacyCaller?: boolean;
  /** Through the gateway's checks already (approvals, the audit trail): a connection it is passed on to does not check again. */
  gated?: boolean;
  /**
   * No timeout: the request waits as long as the server's work does (`tasks/result` answers
   * when the task ends, which has a lifetime of its own). The caller may still cancel it.
   */
  untimed?: boolean;
}

export class CallsInFlight {
  readonly #owners = new Map<RequestId, CallOwner>();

  /** One request on `peer` as a host's call; its owner is known by its id while it is in flight. */
  send(peer: Peer, method: string, params: JsonObject | undefined, options: CallOptions, timeoutMs: number, progressToken?: string): Promise<JsonObject> {
    let id: RequestId | undefined;
    const forget = (): void => {
      if (id !== undefined) this.#owners.delete(id);
    };
    const result = peer.request(method, params, {
      ...(options.untimed ? {} : { timeoutMs }),
      resetTimeoutOnProgress: true,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(progressToken !== undefined && options.onProgress ? { progressToken, onProgress: options.onProgress } : {}),
      onId: (sentId) => {
        id = sentId;
        if (options.owner) this.#owners.set(sentId, options.owner);
      },
    });
    return result.then(
      (value) => {
        forget();
        return value;
      },
      (error: unknown) => {
        forget();
        throw error;
      },
    );
  }

  clear(): void {
    this.#owners.clear();
  }

  /**
   * The calls a message may belong to: the call on whose HTTP stream it came (none when that
   * is no call of a host's), else every call in flight on this connection.
   */
  candidates(arrival: Arrival): Candidates {
    if (arrival.relatedRequestId !== undefined) {
      const owner = this.#owners.get(arrival.relatedRequestId);
      return owner ? [owner] : [];
    }
    return [...new Set(this.#owners.values())];
  }

  /** Suspend the timeouts of these calls on `peer`; the function given back resumes them. */
  holdTimeout(peer: Peer, owners: Candidates): () => void {
    const releases = [...this.#owners].filter(([, candidate]) => owners.includes(candidate)).map(([id]) => peer.holdTimeout(id));
    return () => {
      for (const release of releases) release();
    };
  }
}

/** The params with the progress token in their `_meta`, when the call asks for progress. */
export function withProgressToken(params: JsonObject | undefined, progressToken: string | undefined): JsonObject | undefined {
  if (progressToken === undefined) return params;
  const meta = isObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, progressToken } };
}
