/**
 * The gateway's live catalogue as discovery sees it: one ToolRecord per tool hosts may see (the
 * catalogue has already left out what the config hides), named `SERVER__TOOL`, with the way to
 * its exposed name; and what the search index is built from (search-indexes.ts builds it off the
 * event loop). Made once per catalogue, when first asked for (the catalogue is rebuilt as each
 * upstream comes up, and most rebuilds are never searched).
 */
import type { WorkerRequest } from "../../discovery/index-async.js";
import type { ToolRecord } from "../../discovery/records.js";
import { toolRecord } from "../../discovery/tool-records.js";
import type { Catalogue } from "../catalogue.js";

export interface DiscoveredTool {
  record: ToolRecord;
  /** The name hosts call it by directly (`SERVER__TOOL`, the bare name for a passthrough server, or a shortened one). */
  exposed: string;
}

export class DiscoveryView {
  readonly tools: DiscoveredTool[];
  readonly #byName = new Map<string, DiscoveredTool>();
  readonly #byExposed = new Map<string, DiscoveredTool>();
  #indexInput: WorkerRequest["input"] | undefined;
  #indexKey: string | undefined;

  constructor(
    catalogue: Catalogue,
    /** Each server's one-line description, for the index. */
    private readonly serverDescriptions: () => Record<string, string>,
  ) {
    this.tools = catalogue.tools.flatMap((item) => {
      const exposed = String(item.name);
      const owned = catalogue.tool(exposed);
      if (!owned) return [];
      // The item carries the exposed name; the record is of the server's own.
      const found = { record: toolRecord(owned.server, { ...item, name: owned.original }), exposed };
      this.#byName.set(found.record.name, found);
      this.#byExposed.set(exposed, found);
      return [found];
    });
  }

  /** By its discovery name (`SERVER__TOOL`), else by the name hosts see it under. */
  find(name: string): DiscoveredTool | undefined {
    return this.#byName.get(name) ?? this.#byExposed.get(name);
  }

  get names(): string[] {
    return [...this.#byName.keys()];
  }

  /** What the search index is built from. */
  get indexInput(): WorkerRequest["input"] {
    this.#indexInput ??= { tools: this.tools.map((tool) => tool.record), serverDescriptions: this.serverDescriptions() };
    return this.#indexInput;
  }

  /** The identity of `indexInput`: a catalogue rebuilt with the same tools and server lines has the same key, and the same index. */
  get indexKey(): string {
    this.#indexKey ??= JSON.stringify(this.indexInput);
    return this.#indexKey;
  }
}

const views = new WeakMap<Catalogue, DiscoveryView>();

/** The view of `catalogue`, made on first use and dropped with the catalogue. */
export function discoveryView(catalogue: Catalogue, serverDescriptions: () => Record<string, string>): DiscoveryView {
  let view = views.get(catalogue);
  if (!view) views.set(catalogue, (view = new DiscoveryView(catalogue, serverDescriptions)));
  return view;
}
