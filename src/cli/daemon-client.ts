/**
 * One request to a daemon's `/v1/daemon` routes, over loopback with its credential. Node's
 * own `http` (no fetch: loading undici would cost a warm call more than the call itself).
 */
import { request } from "node:http";
import type { DaemonRecord } from "./daemon-file.js";

export const DAEMON_PATH = "/v1/daemon";

export interface DaemonReply {
  status: number;
  body: Record<string, unknown>;
}

/** Could not reach the process (gone, not listening, or not the one recorded: 401): the record is stale, and nothing was done. */
export class Unreachable extends Error {
  override readonly name = "Unreachable";
}

export interface RequestOptions {
  body?: unknown;
  /** A bound for a request that should be quick (status, stop); a call has none. */
  timeoutMs?: number;
}

export function daemonRequest(
  record: Pick<DaemonRecord, "port" | "credential">,
  method: "GET" | "POST",
  path: string,
  options: RequestOptions = {},
): Promise<DaemonReply> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port: record.port,
        method,
        path: `${DAEMON_PATH}${path}`,
        headers: {
          authorization: `Bearer ${record.credential}`,
          ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
        ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.once("error", reject);
        response.once("end", () => {
          // What listens there now is not the process the record names (a port taken over since): nothing was done.
          if (response.statusCode === 401) return reject(new Unreachable(`the process on port ${record.port} refused the credential of the record`));
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
          } catch {
            reject(new Error(`the mcpx on port ${record.port} answered ${response.statusCode} with something that is not JSON`));
          }
        });
      },
    );
    outgoing.once("timeout", () => outgoing.destroy(new Unreachable(`the mcpx on port ${record.port} did not answer in time`)));
    outgoing.once("error", (error: NodeJS.ErrnoException) => {
      reject(error instanceof Unreachable || error.code === "ECONNREFUSED" ? new Unreachable(error.message) : error);
    });
    outgoing.end(payload);
  });
}
