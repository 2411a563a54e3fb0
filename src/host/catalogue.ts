/**
 * The merged catalogue hosts see: every ready upstream's tools, prompts, resources and
 * resource templates, under exposed names, with the way back to the owner.
 *
 * Conflicts are settled by config order: the first server to claim a name keeps it, and the
 * loser is logged, so the result never depends on which server happened to start first.
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Catalog } from "../upstream/catalog.js";
import { exposedName } from "./naming.js";

export interface CatalogueSource {
  server: string;
  passthrough: boolean;
  catalog: Catalog;
}

export interface Owned {
  server: string;
  /** The name (or URI) as the upstream knows it. */
  original: string;
}

export interface Conflict {
  kind: "tool" | "prompt" | "resource";
  name: string;
  kept: string;
  dropped: string;
}

const RESOURCE_ALIAS = "mcpx://";

export class Catalogue {
  readonly tools: JsonObject[] = [];
  readonly prompts: JsonObject[] = [];
  readonly resources: JsonObject[] = [];
  readonly resourceTemplates: JsonObject[] = [];
  readonly conflicts: Conflict[] = [];
  readonly #tools = new Map<string, Owned>();
  readonly #prompts = new Map<string, Owned>();
  readonly #resources = new Map<string, Owned>();
  readonly #templates: Array<{ server: string; pattern: RegExp; uriTemplate: string }> = [];

  constructor(sources: CatalogueSource[]) {
    for (const source of sources) this.#add(source);
  }

  tool(name: string): Owned | undefined {
    return this.#tools.get(name);
  }

  prompt(name: string): Owned | undefined {
    return this.#prompts.get(name);
  }

  /** The owner of a resource URI: a listed resource, else the first template that matches it. */
  resource(uri: string): Owned | undefined {
    const listed = this.#resources.get(uri);
    if (listed) return listed;
    const template = this.#templates.find((candidate) => candidate.pattern.test(uri));
    return template ? { server: template.server, original: uri } : undefined;
  }

  /**
   * The URI hosts know a server's resource by: the server's own URI, or the alias it got when
   * another server listed the same URI first. Unlisted URIs (from templates) are unchanged.
   */
  exposedUri(server: string, uri: string): string {
    const alias = aliasFor(server, uri);
    if (this.#resources.has(alias)) return alias;
    return uri;
  }

  /** The owner of a resource template, for completion requests. */
  template(uriTemplate: string): Owned | undefined {
    const found = this.#templates.find((candidate) => candidate.uriTemplate === uriTemplate);
    return found ? { server: found.server, original: uriTemplate } : undefined;
  }

  #add({ server, passthrough, catalog }: CatalogueSource): void {
    this.#addNamed("tool", server, passthrough, catalog.tools, this.#tools, this.tools);
    this.#addNamed("prompt", server, passthrough, catalog.prompts, this.#prompts, this.prompts);
    for (const resource of catalog.resources) {
      if (typeof resource.uri !== "string") continue;
      const uri = resource.uri;
      const owner = this.#resources.get(uri);
      if (!owner) {
        this.#resources.set(uri, { server, original: uri });
        this.resources.push(resource);
        continue;
      }
      // The same URI from two servers: the second is reachable under an alias naming its server.
      const alias = aliasFor(server, uri);
      this.#resources.set(alias, { server, original: uri });
      this.resources.push({ ...resource, uri: alias });
      this.conflicts.push({ kind: "resource", name: uri, kept: owner.server, dropped: `${server} (now ${alias})` });
    }
    for (const template of catalog.resourceTemplates) {
      if (typeof template.uriTemplate !== "string") continue;
      this.#templates.push({ server, uriTemplate: template.uriTemplate, pattern: templatePattern(template.uriTemplate) });
      this.resourceTemplates.push(template);
    }
  }

  #addNamed(
    kind: "tool" | "prompt",
    server: string,
    passthrough: boolean,
    items: JsonObject[],
    index: Map<string, Owned>,
    list: JsonObject[],
  ): void {
    for (const item of items) {
      if (typeof item.name !== "string") continue;
      const name = exposedName(server, item.name, passthrough);
      const owner = index.get(name);
      if (owner) {
        this.conflicts.push({ kind, name, kept: owner.server, dropped: server });
        continue;
      }
      index.set(name, { server, original: item.name });
      list.push(name === item.name ? item : { ...item, name });
    }
  }
}

function aliasFor(server: string, uri: string): string {
  return `${RESOURCE_ALIAS}${server}/${encodeURIComponent(uri)}`;
}

/** A regular expression for the URIs an RFC 6570 template can produce (simple and reserved expansion). */
export function templatePattern(uriTemplate: string): RegExp {
  let pattern = "";
  let rest = uriTemplate;
  for (let open = rest.indexOf("{"); open !== -1; open = rest.indexOf("{")) {
    const close = rest.indexOf("}", open);
    if (close === -1) break;
    pattern += escape(rest.slice(0, open));
    const expression = rest.slice(open + 1, close);
    pattern += expression.startsWith("+") || expression.startsWith("#") ? ".*" : expression.startsWith("?") || expression.startsWith("&") ? "(?:[?&].*)?" : "[^/?#]*";
    rest = rest.slice(close + 1);
  }
  return new RegExp(`^${pattern}${escape(rest)}$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

