/**
 * `approvals` (docs/operations.md): how the rules are read, what a mistake in one says, and
 * which calls a rule matches (the spec's defaults for annotations a tool leaves out).
 */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { configFromObject } from "../../src/config/load.js";
import { approvalFor, effectiveHints } from "../../src/host/approvals/match.js";

const FILE = "conf/mcpx.json";
const load = (approvals: unknown) => configFromObject({ mcpServers: { desk: { command: "desk-mcp" } }, approvals }, FILE, {});

function problems(approvals: unknown): string[] {
  try {
    load(approvals);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message.split("\n");
  }
  throw new Error("expected a ConfigError");
}

describe("approvals in the config", () => {
  it("reads rules in order, with their options", () => {
    const { approvals } = load([
      { match: { server: "desk", tool: "cancel_*" }, ttlSeconds: 30, allowForSession: true, reason: "bookings" },
      { match: { tool: "x" } },
    ]);
    expect(approvals).toEqual([
      { index: 0, match: { server: "desk", tool: "cancel_*" }, ttlSeconds: 30, allowForSession: true, reason: "bookings" },
      { index: 1, match: { tool: "x" }, allowForSession: false },
    ]);
    expect(configFromObject({}, FILE, {}).approvals).toEqual([]);
  });

  it("refuses a rule without a match, an empty match, an unknown server, key or hint, each named", () => {
    expect(problems([{}])).toEqual([expect.stringContaining("approvals.0.match is required")]);
    expect(problems([{ match: {} }])).toEqual([expect.stringContaining("approvals.0.match must name at least one of server, tool, annotations, arguments")]);
    expect(problems([{ match: { server: "dsek" } }])).toEqual([expect.stringMatching(/approvals\.0\.match\.server names server "dsek".*did you mean "desk"/)]);
    expect(problems([{ match: { tool: "x", annotations: { dangerous: true } } }])).toEqual([
      expect.stringContaining("approvals.0.match.annotations.dangerous is not a tool annotation hint"),
    ]);
    expect(problems([{ match: { tool: "x" }, when: 1 }])).toEqual([expect.stringContaining("approvals.0.when is not a known key")]);
  });
});

describe("which calls a rule holds", () => {
  const rules = load([
    { match: { server: "desk", arguments: { path: "/etc/**", force: true } } },
    { match: { annotations: { destructiveHint: true } } },
  ]).approvals;
  const call = (tool: string, annotations: unknown, args: object = {}) => approvalFor(rules, { server: "desk", tool, annotations, arguments: args as never });

  it("matches arguments: a string as a glob, anything else as JSON", () => {
    expect(call("rm", { readOnlyHint: true }, { path: "/etc/passwd", force: true })?.index).toBe(0);
    expect(call("rm", { readOnlyHint: true }, { path: "/etc/passwd", force: false })).toBeUndefined();
    expect(call("rm", { readOnlyHint: true }, { path: "/home/x", force: true })).toBeUndefined();
  });

  it("reads annotations with the spec's defaults: a tool that says nothing may be destructive; a read-only one is not", () => {
    expect(call("anything", undefined)?.index).toBe(1);
    expect(call("read", { readOnlyHint: true, destructiveHint: true })).toBeUndefined();
    expect(call("mkdir", { readOnlyHint: false, destructiveHint: false })).toBeUndefined();
    expect(effectiveHints({})).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
  });
});
