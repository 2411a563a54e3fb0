/**
 * What an oversized JSON-RPC message was, told from its first and last bytes alone: whether it
 * is an answer, a request or a notification, and its id. Serialisers put `"id"` either near
 * the start (`{"jsonrpc":"2.0","id":7,"result":…}`) or last (`{"result":…,"jsonrpc":"2.0","id":7}`),
 * and `"method"` before `"params"`, so the two ends are enough for the messages real peers send.
 */
import type { RequestId } from "../protocol/jsonrpc.js";

export type MessageKind = "response" | "request" | "notification" | "unknown";

export interface OversizedMessage {
  /** Bytes of the message read so far; all of it when `ended`. */
  bytes: number;
  /** The bound it went over, and the setting that sets it. */
  limit: number;
  limitName: string;
  kind: MessageKind;
  id?: RequestId;
  /** The message was read to its end (`bytes` is its size), rather than cut off at the bound. */
  ended: boolean;
}

/** Channels that drop messages over a bound say so here. */
export interface ReportsOversized {
  onoversized?: (message: OversizedMessage) => void;
}

export function recognise(head: string, tail: string): { kind: MessageKind; id?: RequestId } {
  const start = topLevelKeys(head);
  const id = start.id ?? lastMemberId(tail);
  const withId = id === undefined ? {} : { id };
  if (start.keys.has("method")) return { kind: id === undefined ? "notification" : "request", ...withId };
  if (start.keys.has("result") || start.keys.has("error")) return { kind: "response", ...withId };
  return { kind: "unknown", ...withId };
}

/**
 * The top-level keys whose names appear in `head`, and the value of `"id"` when it appears whole.
 * A small scanner that follows strings and nesting only; it stops where `head` does.
 */
function topLevelKeys(head: string): { keys: Set<string>; id?: RequestId } {
  const keys = new Set<string>();
  let id: RequestId | undefined;
  let depth = 0;
  let at = head.indexOf("{");
  if (at === -1) return { keys };
  let expectKey = false;
  for (; at < head.length; at++) {
    const char = head[at];
    if (char === '"') {
      const end = stringEnd(head, at);
      if (end === -1) break;
      if (depth === 1 && expectKey) {
        const key = safeParse(head.slice(at, end + 1));
        if (typeof key === "string") {
          keys.add(key);
          if (key === "id") id = leadingId(head.slice(end + 1)) ?? id;
        }
        expectKey = false;
      }
      at = end;
    } else if (char === "{" || char === "[") {
      depth++;
      expectKey = char === "{" && depth === 1;
    } else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) break;
    } else if (char === "," && depth === 1) {
      expectKey = true;
    }
  }
  return id === undefined ? { keys } : { keys, id };
}

/** The index of the quote that closes the string opening at `from`, or -1 when it runs past the text. */
function stringEnd(text: string, from: number): number {
  for (let at = from + 1; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === '"') return at;
  }
  return -1;
}

const ID_VALUE = /^\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*[,}]/;

/** After a top-level `"id"` key: its value, when it is a number or string that ends in the text. */
function leadingId(rest: string): RequestId | undefined {
  const match = ID_VALUE.exec(rest);
  return match?.[1] === undefined ? undefined : asId(safeParse(match[1]));
}

const LAST_ID = /"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

/**
 * `"id"` as the last member of the message: followed by exactly one closing brace, which in a
 * well-formed message can only be the outermost object's.
 */
function lastMemberId(tail: string): RequestId | undefined {
  const match = LAST_ID.exec(tail);
  return match?.[1] === undefined ? undefined : asId(safeParse(match[1]));
}

function asId(value: unknown): RequestId | undefined {
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The two ends of an oversized line or event, as the readers report them. */
export interface OversizedText {
  bytes: number;
  head: string;
  tail: string;
  ended: boolean;
}

/**
 * Turns a reader's reports on one oversized message (one when it crosses the bound, one when it
 * ends) into a single `OversizedMessage`: at the crossing when its first bytes name its id, so
 * its call fails even if the line never ends; else at its end, where the id may be.
 */
export function oversizedReporter(limit: number, limitName: string, report: (message: OversizedMessage) => void): (text: OversizedText) => void {
  let reported = false;
  return (text) => {
    if (text.ended && reported) {
      reported = false;
      return;
    }
    const { kind, id } = recognise(text.head, text.tail);
    if (!text.ended && id === undefined) return;
    reported = !text.ended;
    report({ bytes: text.bytes, limit, limitName, kind, ended: text.ended, ...(id === undefined ? {} : { id }) });
  };
}
