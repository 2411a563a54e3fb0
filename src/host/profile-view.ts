/**
 * What one host sees of the gateway: the whole catalogue (`/mcp`), or a profile's (`/mcp/<name>`,
 * `mcpx serve --profile <name>`). A profile's catalogue is built from the same upstream catalogs
 * as the gateway's, with its servers only and, of theirs, its tools only, renamed, described and
 * with arguments fixed as it says; everything a host reaches tools by (tools/list, tools/call,
 * mcpx__call, mcpx__search and __describe, mcpx__exec's globals, prompts, resources) reads the
 * view, so a tool outside the profile is unknown there by every name.
 */
import { overrideFor, profileServers, profileShows } from "../config/profiles.js";
import type { Config, Profile } from "../config/types.js";
import { invalidParams } from "../protocol/errors.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { Catalogue, type CatalogueSource, type Owned, type ToolShape } from "./catalogue.js";

export interface HostView {
  /** The profile's name; undefined for the whole catalogue. */
  profile: string | undefined;
  /** The config as this view's hosts see it: the profile's servers, `expose` and `pinned`. */
  config: Config;
  catalogue: Catalogue;
}

/** The view of a profile over the gateway's sources (those of every configured server that is read). */
export function profileView(config: Config, profile: Profile, sources: readonly CatalogueSource[]): HostView {
  const servers = profileServers(profile, config.servers);
  const names = new Set(servers.map((server) => server.name));
  const renamed = new Set(profile.overrides.flatMap((override) => (override.name ? [override.name] : [])));
  const catalogue = new Catalogue(
    sources.filter((source) => names.has(source.server)).map((source) => ({ ...source, shape: toolShape(profile, source.server) })),
    { servers: config.servers.map((server) => server.name), maxToolsPerServer: config.limits.maxToolsPerServer, renamed },
  );
  const pinned = profile.pinned ?? config.pinned.filter((name) => inProfile(profile, name));
  return { profile: profile.name, config: { ...config, servers, expose: profile.expose ?? config.expose, pinned }, catalogue };
}

function inProfile(profile: Profile, pinned: string): boolean {
  const split = pinned.indexOf("__");
  return profileShows(profile, pinned.slice(0, split), pinned.slice(split + 2));
}

function toolShape(profile: Profile, server: string): ToolShape {
  return {
    shows: (tool) => profileShows(profile, server, tool),
    present: (tool) => {
      const override = overrideFor(profile, server, String(tool.name));
      if (!override) return { item: tool };
      const fixed = override.arguments;
      const item: JsonObject = {
        ...tool,
        ...(override.name ? { name: override.name } : {}),
        ...(override.description !== undefined ? { description: override.description } : {}),
        ...(fixed ? { inputSchema: withoutArguments(tool.inputSchema, Object.keys(fixed)) } : {}),
      };
      return { item, ...(override.name ? { name: override.name } : {}), ...(fixed ? { fixed } : {}) };
    },
  };
}

/** The schema without the fixed arguments: a host is never offered what it may not choose. */
function withoutArguments(schema: unknown, fixed: readonly string[]): unknown {
  if (!isObject(schema)) return schema;
  const properties = isObject(schema.properties)
    ? Object.fromEntries(Object.entries(schema.properties).filter(([key]) => !fixed.includes(key)))
    : schema.properties;
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => !fixed.includes(String(key))) : schema.required;
  return { ...schema, ...(properties !== undefined ? { properties } : {}), ...(required !== undefined ? { required } : {}) };
}

/**
 * The arguments a call sends: the host's, with the profile's fixed ones. A host that sends a
 * fixed argument with another value is refused (-32602) rather than silently overruled, so an
 * agent learns the profile decides it; the same value passes.
 */
export function withFixedArguments(owned: Pick<Owned, "fixed" | "server" | "original">, args: unknown): JsonObject {
  const given = isObject(args) ? args : {};
  if (!owned.fixed) return given;
  for (const [key, value] of Object.entries(owned.fixed)) {
    if (Object.hasOwn(given, key) && JSON.stringify(given[key]) !== JSON.stringify(value)) {
      throw invalidParams(`argument "${key}" of ${owned.server}.${owned.original} is fixed by this profile; leave it out`);
    }
  }
  return { ...given, ...owned.fixed };
}
