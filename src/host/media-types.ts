/**
 * The media-type checks of the Streamable HTTP transport (RFC 9110 §12.5.1 for `Accept`):
 * whether a request's `Accept` allows a type, and whether its body is declared JSON.
 */

/**
 * Whether the `Accept` header allows `type` (lower-case `type/subtype`). No header means
 * anything is acceptable; the most specific matching range decides, and `q=0` refuses.
 */
export function accepts(header: string | string[] | undefined, type: string): boolean {
  if (header === undefined || (typeof header === "string" && header.trim() === "")) return true;
  const [main] = type.split("/");
  let best: { specificity: number; q: number } | undefined;
  for (const range of (Array.isArray(header) ? header.join(",") : header).split(",")) {
    const [name = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const specificity = name === type ? 2 : name === `${main}/*` ? 1 : name === "*/*" ? 0 : -1;
    if (specificity < 0 || (best && best.specificity > specificity)) continue;
    const q = params.find((param) => /^q\s*=/.test(param));
    const weight = q === undefined ? 1 : Number(q.split("=")[1]);
    best = { specificity, q: Number.isNaN(weight) ? 1 : weight };
  }
  return best !== undefined && best.q > 0;
}

/** What a POST's `Accept` allows of the two forms its answer can take. */
export interface PostAcceptance {
  readonly json: boolean;
  readonly sse: boolean;
}

let lastHeader: string | undefined;
let lastAcceptance: PostAcceptance = { json: true, sse: true };

/**
 * `accepts` for JSON and for SSE at once. A host sends the same `Accept` on every POST, so the
 * last header's reading is kept and the next POST with that header is not parsed again.
 */
export function postAcceptance(header: string | string[] | undefined): PostAcceptance {
  if (typeof header === "string" && header === lastHeader) return lastAcceptance;
  const acceptance = Object.freeze({ json: accepts(header, "application/json"), sse: accepts(header, "text/event-stream") });
  if (typeof header === "string") {
    lastHeader = header;
    lastAcceptance = acceptance;
  }
  return acceptance;
}

/** Whether a `Content-Type` header declares JSON (`application/json`, any parameters). */
export function isJson(header: string | undefined): boolean {
  return (header ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}
