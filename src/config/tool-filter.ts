/**
 * A server's tool filter: mcpx's own `tools: {allow, deny}`, and the hosts' spellings of the
 * same lists (Windsurf's and Roo's `disabledTools`, Gemini CLI's `includeTools`/`excludeTools`),
 * which hide tools in the host and so must hide them behind mcpx too.
 */
import { createRequire } from "node:module";
import type { Checker, Fields } from "./check.js";
import type { ToolFilter } from "./types.js";

/** Host keys read into the filter: the key, and which list it is. */
export const HOST_TOOL_LISTS: ReadonlyMap<string, keyof ToolFilter> = new Map([
  ["disabledTools", "deny"],
  ["excludeTools", "deny"],
  ["includeTools", "allow"],
]);

/** `tools`, else the host's lists; undefined when nothing is filtered. */
export function readToolFilter(check: Checker, f: Fields): ToolFilter | undefined {
  const own = f.read("tools", (value, at) => {
    const lists = check.fields(value, at, ["allow", "deny"]);
    if (!lists) return undefined;
    const allow = lists.strings("allow");
    const deny = lists.strings("deny");
    return { ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) };
  });
  const filter: ToolFilter = { ...own };
  for (const [key, list] of HOST_TOOL_LISTS) {
    const names = f.strings(key);
    if (names === undefined) continue;
    if (own?.[list] !== undefined) {
      check.fail(f.path(key), `says the same as "tools.${list}", which is set too; keep one`);
      continue;
    }
    // Gemini CLI reads an empty includeTools as no list at all.
    if (list === "allow" && names.length === 0) continue;
    filter[list] = [...(filter[list] ?? []), ...names];
  }
  return filter.allow === undefined && filter.deny === undefined ? undefined : filter;
}

/**
 * Whether the filter hides the tool (by the server's own name), and why. Entries are globs
 * (`read_*`, `*_admin`, `{get,list}_*`), and an exact name is an exact name, so a tool whose
 * name holds glob characters can still be named.
 */
export function hiddenBy(filter: ToolFilter | undefined, tool: string): "allow" | "deny" | undefined {
  if (filter?.allow && !filter.allow.some((pattern) => globMatches(pattern, tool))) return "allow";
  if (filter?.deny?.some((pattern) => globMatches(pattern, tool))) return "deny";
  return undefined;
}

/** Characters that make an entry a glob; a plain name is compared as it is. */
const GLOB = /[*?[\]{}()!+@]/;

type Matcher = (name: string) => boolean;
/** Compiled globs, by pattern: a filter is asked for every tool of its server. Bounded by the config's own entries. */
const compiled = new Map<string, Matcher>();
/** picomatch is loaded when a config first uses a glob: commands with plain lists never pay for it. */
let picomatch: ((pattern: string, options: { dot: boolean; nobrace?: boolean }) => Matcher) | undefined;

/** Whether `name` is `pattern`, or matches it as a glob (`*`, `?`, `[…]`, `{a,b}`). */
export function globMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  if (!GLOB.test(pattern)) return false;
  let matcher = compiled.get(pattern);
  if (!matcher) {
    picomatch ??= createRequire(import.meta.url)("picomatch") as typeof picomatch;
    matcher = picomatch!(pattern, { dot: true });
    compiled.set(pattern, matcher);
  }
  return matcher(name);
}
