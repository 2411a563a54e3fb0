/**
 * The merged catalogue hosts see: every ready upstream's tools, prompts, resources and
 * resource templates, under exposed names, with the way back to the owner.
 *
 * Who owns what (one rule per kind, never "whoever started first"):
 * - `mcpx__…` names and `mcpx:` URIs are mcpx's own: no upstream item may have them.
 * - A `<server>__…` name belongs to the configured server `<server>` (up or not): a
 *   passthrough server listing one loses it.
 * - Otherwise a name two servers expose is kept by the one earlier in the config.
 * - A URI two servers list is kept by the one earlier in the config; the later one's copy is
 *   exposed as `mcpx://<server>/<URI, percent-encoded>`, so it stays reachable (aliased, not lost).
 * - A URI that no server lists goes to the most specific template that can produce it (the
 *   most literal characters; ties by config order). A listed URI never goes to a template.
 * - A template two servers list verbatim is kept by the one earlier in the config.
 * - A tool the server's config hides (`tools.allow`/`tools.deny`) is left out first.
 * - Beyond `maxToolsPerServer`, a server's later tools are left out.
 * Whatever is left out is in `dropped` (and aliases in `aliased`), for `mcpx servers` and the log.
 */
import { hiddenBy } from "../config/tool-filter.js";
import type { ToolFilter } from "../config/types.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Catalog } from "../upstream/catalog.js";
import { exposedName, isReservedName, isReservedUri, namespaceOf, RESERVED_PREFIX, RESERVED_SCHEME } from "./naming.js";
import { specificity, templatePattern } from "./uri-template.js";

export interface CatalogueSource {
  server: string;
  passthrough: boolean;
  catalog: Catalog;
  /** Which tools hosts may see; absent: all. */
  tools?: ToolFilter;
  /** A profile's view of the server's tools (host/profile-view.ts); absent: every tool as listed. */
  shape?: ToolShape;
}

/** Which of a server's tools a profile shows, and how (by the server's own tool name). */
export interface ToolShape {
  shows(tool: string): boolean;
  /** The tool as the profile presents it: its name (absent: the usual exposed name), the item hosts see, the arguments it fixes. */
  present(tool: JsonObject): { name?: string; item: JsonObject; fixed?: JsonObject };
}

export interface CatalogueOptions {
  /** Every configured server (up or not), in config order: each owns its `<server>__` names. Default: the sources. */
  servers?: readonly string[];
  /** At most this many of each server's tools, in the order it lists them. */
  maxToolsPerServer?: number;
  /** Names a profile gives tools by renaming them: no other tool may have them. */
  renamed?: ReadonlySet<string>;
}

export interface Owned {
  server: string;
  /** The name (or URI) as the upstream knows it. */
  original: string;
  /** A tool's input schema, as listed (2026-07-28 hosts mirror its `x-mcp-header` arguments in headers). */
  inputSchema?: unknown;
  /** A profile's fixed arguments of this tool: always sent with these values (host/profile-view.ts). */
  fixed?: JsonObject;
}

export type ItemKind = "tool" | "prompt" | "resource" | "resourceTemplate";

/** Why an item was left out: a reserved name, another server's namespace, already taken, over the tools limit, or hidden by the config. */
export type DropReason = "reserved" | "namespace" | "taken" | "limit" | "hidden";

/** `message` names only configured servers, never an upstream's strings, so it is safe to print as is. */
export interface Dropped {
  server: string;
  kind: ItemKind;
  /** The name, URI or URI template as the upstream listed it (for `limit`: the first one over it). */
  name: string;
  reason: DropReason;
  /** The server that keeps the name, when one does. */
  keptBy?: string;
  /** How many items this covers: more than one only for `limit`. */
  count: number;
  message: string;
}

export interface Aliased {
  server: string;
  uri: string;
  alias: string;
  keptBy: string;
}

const RESOURCE_ALIAS = "mcpx://";

interface Template {
  server: string;
  uriTemplate: string;
  pattern: RegExp;
  specificity: number;
}

export class Catalogue {
  readonly tools: JsonObject[] = [];
  readonly prompts: JsonObject[] = [];
  readonly resources: JsonObject[] = [];
  readonly resourceTemplates: JsonObject[] = [];
  readonly dropped: Dropped[] = [];
  readonly aliased: Aliased[] = [];
  readonly #tools = new Map<string, Owned>();
  readonly #prompts = new Map<string, Owned>();
  readonly #resources = new Map<string, Owned>();
  readonly #templates: Template[] = [];
  readonly #servers: readonly string[];

  constructor(
    sources: CatalogueSource[],
    private readonly options: CatalogueOptions = {},
  ) {
    this.#servers = options.servers ?? sources.map((source) => source.server);
    for (const source of sources) this.#add(source);
  }

  tool(name: string): Owned | undefined {
    return this.#tools.get(name);
  }

  prompt(name: string): Owned | undefined {
    return this.#prompts.get(name);
  }

  /** The owner of a resource URI: a listed resource (or alias), else the most specific template that matches it. */
  resource(uri: string): Owned | undefined {
    const listed = this.#resources.get(uri);
    if (listed) return listed;
    // mcpx:// URIs are only the aliases mcpx made; a catch-all template must not catch the rest.
    if (isReservedUri(uri)) return undefined;
    let best: Template | undefined;
    for (const template of this.#templates) {
      if (template.pattern.test(uri) && (!best || template.specificity > best.specificity)) best = template;
    }
    return best ? { server: best.server, original: uri } : undefined;
  }

  /**
   * The URI hosts know a server's resource by: the server's own URI, or the alias it got when
   * another server listed the same URI first. Undefined when the URI is another server's, so
   * one server cannot send updates for a resource hosts read from another.
   */
  exposedUri(server: string, uri: string): string | undefined {
    const alias = aliasFor(server, uri);
    if (this.#resources.has(alias)) return alias;
    return this.resource(uri)?.server === server ? uri : undefined;
  }

  /** The owner of a resource template, for completion requests. */
  template(uriTemplate: string): Owned | undefined {
    const found = this.#templates.find((candidate) => candidate.uriTemplate === uriTemplate);
    return found ? { server: found.server, original: uriTemplate } : undefined;
  }

  /** What was left out of `server`'s catalogue, and why. */
  droppedFrom(server: string): Dropped[] {
    return this.dropped.filter((entry) => entry.server === server);
  }

  aliasedFrom(server: string): Aliased[] {
    return this.aliased.filter((entry) => entry.server === server);
  }

  #add(source: CatalogueSource): void {
    const { server, catalog } = source;
    this.#addNamed("tool", source, this.#capTools(server, this.#shownTools(source)), this.#tools, this.tools);
    this.#addNamed("prompt", source, catalog.prompts, this.#prompts, this.prompts);
    for (const resource of catalog.resources) {
      if (typeof resource.uri === "string") this.#addResource(server, resource, resource.uri);
    }
    for (const template of catalog.resourceTemplates) {
      if (typeof template.uriTemplate === "string") this.#addTemplate(server, template, template.uriTemplate);
    }
  }

  /** The tools the server's config lets hosts see; the rest are dropped as hidden. */
  #shownTools({ server, catalog, tools: filter, shape }: CatalogueSource): JsonObject[] {
    if (!filter && !shape) return catalog.tools;
    return catalog.tools.filter((tool) => {
      const name = typeof tool.name === "string" ? tool.name : undefined;
      const why = name === undefined ? undefined : (hiddenBy(filter, name) ?? (shape && !shape.shows(name) ? "profile" : undefined));
      if (why === undefined) return true;
      const message =
        why === "deny" ? "the config hides it (tools.deny)" : why === "allow" ? "the config shows only the tools in tools.allow" : "the profile leaves it out";
      this.dropped.push({ server, kind: "tool", name: String(tool.name), reason: "hidden", count: 1, message });
      return false;
    });
  }

  #capTools(server: string, tools: JsonObject[]): JsonObject[] {
    const limit = this.options.maxToolsPerServer;
    if (limit === undefined || tools.length <= limit) return tools;
    const over = tools.length - limit;
    const first = tools[limit]?.name;
    this.dropped.push({
      server,
      kind: "tool",
      name: typeof first === "string" ? first : "",
      reason: "limit",
      count: over,
      message: `${over} of its ${tools.length} tools are over limits.maxToolsPerServer (${limit}); the first ${limit} it lists are kept`,
    });
    return tools.slice(0, limit);
  }

  #addNamed(kind: "tool" | "prompt", source: CatalogueSource, items: JsonObject[], index: Map<string, Owned>, list: JsonObject[]): void {
    const { server, passthrough } = source;
    for (const listed of items) {
      if (typeof listed.name !== "string") continue;
      const original = listed.name;
      const shaped = kind === "tool" ? source.shape?.present(listed) : undefined;
      const item = shaped?.item ?? listed;
      const name = shaped?.name ?? exposedName(server, original, passthrough);
      const drop = (reason: DropReason, message: string, keptBy?: string): void => {
        this.dropped.push({ server, kind, name: original, reason, ...(keptBy ? { keptBy } : {}), count: 1, message });
      };
      if (isReservedName(name)) {
        drop("reserved", `names starting "${RESERVED_PREFIX}" are mcpx's own`);
        continue;
      }
      // A prefixed name is its server's by construction; only a passthrough one can reach into another's.
      const rightful = passthrough ? namespaceOf(name, this.#servers) : undefined;
      if (rightful !== undefined && rightful !== server) {
        drop("namespace", `names starting "${rightful}__" belong to server "${rightful}"`, rightful);
        continue;
      }
      const owner = index.get(name);
      if (owner) {
        drop("taken", takenMessage(owner.server, server, `that ${kind} name`), owner.server);
        continue;
      }
      // A profile's rename is the person's word: it keeps its name from a tool that has it by chance.
      if (kind === "tool" && shaped?.name === undefined && this.options.renamed?.has(name)) {
        drop("taken", "a profile renames another tool to that name");
        continue;
      }
      index.set(
        name,
        kind === "tool" ? { server, original, inputSchema: item.inputSchema, ...(shaped?.fixed ? { fixed: shaped.fixed } : {}) } : { server, original },
      );
      list.push(name === original ? item : { ...item, name });
    }
  }

  #addResource(server: string, resource: JsonObject, uri: string): void {
    const drop = (reason: DropReason, message: string, keptBy?: string): void => {
      this.dropped.push({ server, kind: "resource", name: uri, reason, ...(keptBy ? { keptBy } : {}), count: 1, message });
    };
    if (isReservedUri(uri)) {
      drop("reserved", `URIs starting "${RESERVED_SCHEME}" are mcpx's own`);
      return;
    }
    const owner = this.#resources.get(uri);
    if (!owner) {
      this.#resources.set(uri, { server, original: uri });
      this.resources.push(resource);
      return;
    }
    const alias = aliasFor(server, uri);
    if (owner.server === server || this.#resources.has(alias)) {
      drop("taken", "it lists this URI more than once; the first is kept", server);
      return;
    }
    // The same URI from two servers: the later one is reachable under an alias naming its server.
    this.#resources.set(alias, { server, original: uri });
    this.resources.push({ ...resource, uri: alias });
    this.aliased.push({ server, uri, alias, keptBy: owner.server });
  }

  #addTemplate(server: string, template: JsonObject, uriTemplate: string): void {
    const drop = (reason: DropReason, message: string, keptBy?: string): void => {
      this.dropped.push({ server, kind: "resourceTemplate", name: uriTemplate, reason, ...(keptBy ? { keptBy } : {}), count: 1, message });
    };
    if (isReservedUri(uriTemplate)) {
      drop("reserved", `URIs starting "${RESERVED_SCHEME}" are mcpx's own`);
      return;
    }
    const owner = this.#templates.find((candidate) => candidate.uriTemplate === uriTemplate);
    if (owner) {
      drop("taken", takenMessage(owner.server, server, "this template"), owner.server);
      return;
    }
    this.#templates.push({ server, uriTemplate, pattern: templatePattern(uriTemplate), specificity: specificity(uriTemplate) });
    this.resourceTemplates.push(template);
  }
}

function takenMessage(owner: string, server: string, what: string): string {
  return owner === server ? `it lists ${what} more than once; the first is kept` : `server "${owner}", earlier in the config, has ${what}`;
}

function aliasFor(server: string, uri: string): string {
  return `${RESOURCE_ALIAS}${server}/${encodeURIComponent(uri)}`;
}
