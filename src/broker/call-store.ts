/**
 * Calls made by `mcpx call`. A call runs in its own process and keeps running after the
 * command that started it exits on a question; its result waits here to be collected.
 * The record's shape; each store keeps it its own way (SQLite: sqlite/call-table.ts).
 */
import type { JsonObject } from "../protocol/jsonrpc.js";

export type CallState = "running" | "done" | "failed";

export interface CallRecord {
  id: string;
  server: string;
  tool: string;
  arguments: JsonObject;
  state: CallState;
  result?: JsonObject;
  error?: string;
  runnerPid?: number;
  createdAt: string;
  finishedAt?: string;
}
