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

/** Whether a `Content-Type` header declares JSON (`application/json`, any parameters). */
export function isJson(header: string | undefined): boolean {
  return (header ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}
