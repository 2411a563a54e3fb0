/**
 * The layering of design.md, as a test (ARCHITECTURE.md explains it):
 *
 * - protocol/, render/ and rpc/ do no I/O: no Node built-in, no package, and only the layers
 *   below them (rpc may take the logger's type and the silent logger);
 * - broker/ and upstream/ know nothing of host/, api/ or cli/;
 * - discovery/ (the schema cache, search, renderings) knows nothing of host/, api/, cli/, upstream/ or broker/;
 * - scripts/ (the sandbox scripts run in) knows nothing of host/, api/, cli/, upstream/ or broker/ either;
 * - telemetry/ knows only protocol/ and util/, and the OpenTelemetry SDK is reached only by the
 *   dynamic import in telemetry/load.ts (telemetry/otel/ is the one place that imports it);
 * - cluster/ (handing requests between instances) knows only protocol/ and util/;
 * - nothing in src/ imports cli/, which is the thin layer on top;
 * - no two modules import each other, directly or round a longer circle.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/mcpx.js";

const SRC = join(ROOT, "src");

interface Module {
  /** Path under src/, e.g. `host/gateway.ts`. */
  path: string;
  layer: string;
  /** Relative imports, resolved to paths under src/. */
  local: string[];
  /** Everything else it imports: `node:fs`, `better-sqlite3`, … */
  external: string[];
}

function modules(): Module[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith(".ts")) files.push(path);
    }
  };
  walk(SRC);
  return files.map((file) => {
    const text = readFileSync(file, "utf8");
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms), ...text.matchAll(/^\s*import\s+"([^"]+)"/gm)].map(
      (match) => match[1]!,
    );
    const path = relative(SRC, file);
    return {
      path,
      layer: path.includes("/") ? path.split("/")[0]! : "",
      local: specifiers.filter((spec) => spec.startsWith(".")).map((spec) => relative(SRC, resolve(dirname(file), spec.replace(/\.js$/, ".ts")))),
      external: specifiers.filter((spec) => !spec.startsWith(".")),
    };
  });
}

const ALL = modules();
const layerOf = (path: string): string => (path.includes("/") ? path.split("/")[0]! : "");

describe("layering", () => {
  it("reads the source tree", () => {
    expect(ALL.length).toBeGreaterThan(50);
    expect(ALL.find((module) => module.path === "host/gateway.ts")?.local).toContain("host/questions.ts");
  });

  const PURE: Record<string, string[]> = {
    protocol: ["protocol"],
    render: ["protocol", "render"],
    rpc: ["protocol", "rpc", "util/log.ts"],
  };
  for (const [layer, allowed] of Object.entries(PURE)) {
    it(`${layer}/ does no I/O and imports only ${allowed.join(", ")}`, () => {
      const offences = ALL.filter((module) => module.layer === layer).flatMap((module) => [
        ...module.external.map((spec) => `${module.path} imports ${spec}`),
        ...module.local.filter((target) => !allowed.some((ok) => target === ok || layerOf(target) === ok)).map((target) => `${module.path} imports ${target}`),
      ]);
      expect(offences).toEqual([]);
    });
  }

  it("broker/ and upstream/ know nothing of host/, api/ or cli/", () => {
    const offences = ALL.filter((module) => module.layer === "broker" || module.layer === "upstream").flatMap((module) =>
      module.local.filter((target) => ["host", "api", "cli"].includes(layerOf(target))).map((target) => `${module.path} imports ${target}`),
    );
    expect(offences).toEqual([]);
  });

  it.each(["discovery", "scripts"])("%s/ knows nothing of host/, api/, cli/, upstream/ or broker/", (layer) => {
    const offences = ALL.filter((module) => module.layer === layer).flatMap((module) =>
      module.local
        .filter((target) => ["host", "api", "cli", "upstream", "broker"].includes(layerOf(target)))
        .map((target) => `${module.path} imports ${target}`),
    );
    expect(offences).toEqual([]);
  });

  it("telemetry/ knows nothing of host/, api/, cli/, upstream/, broker/, discovery/ or scripts/: it takes plain data through its hooks", () => {
    const offences = ALL.filter((module) => module.layer === "telemetry").flatMap((module) =>
      module.local
        .filter((target) => ["host", "api", "cli", "upstream", "broker", "discovery", "scripts"].includes(layerOf(target)))
        .map((target) => `${module.path} imports ${target}`),
    );
    expect(offences).toEqual([]);
  });

  it("cluster/ knows only protocol/ and util/: who owns what is its callers' to say", () => {
    const offences = ALL.filter((module) => module.layer === "cluster").flatMap((module) =>
      module.local.filter((target) => !["cluster", "protocol", "util"].includes(layerOf(target))).map((target) => `${module.path} imports ${target}`),
    );
    expect(offences).toEqual([]);
  });

  it("only telemetry/otel/ imports the OpenTelemetry SDK, and nothing imports telemetry/otel/ but by a dynamic import", () => {
    const offences = ALL.flatMap((module) => [
      ...(module.path.startsWith("telemetry/otel/")
        ? []
        : module.external.filter((spec) => spec.startsWith("@opentelemetry/")).map((spec) => `${module.path} imports ${spec}`)),
      ...(module.path.startsWith("telemetry/otel/")
        ? []
        : module.local.filter((target) => target.startsWith("telemetry/otel/")).map((target) => `${module.path} imports ${target}`)),
    ]);
    expect(offences).toEqual([]);
  });

  it("nothing outside cli/ imports cli/", () => {
    const offences = ALL.filter((module) => module.layer !== "cli").flatMap((module) =>
      module.local.filter((target) => layerOf(target) === "cli").map((target) => `${module.path} imports ${target}`),
    );
    expect(offences).toEqual([]);
  });

  it("has no import cycles", () => {
    const graph = new Map(ALL.map((module) => [module.path, module.local]));
    const cycles: string[] = [];
    const done = new Set<string>();
    const visit = (path: string, trail: string[]): void => {
      if (trail.includes(path)) {
        cycles.push([...trail.slice(trail.indexOf(path)), path].join(" -> "));
        return;
      }
      if (done.has(path)) return;
      for (const next of graph.get(path) ?? []) visit(next, [...trail, path]);
      done.add(path);
    };
    for (const path of graph.keys()) visit(path, []);
    expect(cycles).toEqual([]);
  });
});
