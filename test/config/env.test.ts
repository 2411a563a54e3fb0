import { describe, expect, it } from "vitest";
import { substituteEnv } from "../../src/config/env.js";
import { ConfigError } from "../../src/config/errors.js";

const sub = (value: unknown, env: Record<string, string | undefined>) => substituteEnv(value, env, "f.json");

function subError(value: unknown, env: Record<string, string | undefined> = {}): string {
  try {
    sub(value, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error("expected an error");
}

describe("substituteEnv", () => {
  it("replaces ${VAR} in every string at any depth", () => {
    const raw = { a: "x-${A}-${B}", list: ["${A}", 3, true, null, { deep: "${B}" }] };
    expect(sub(raw, { A: "1", B: "two" })).toEqual({ a: "x-1-two", list: ["1", 3, true, null, { deep: "two" }] });
  });

  it("keeps a set but empty variable as empty", () => {
    expect(sub("[${E}]", { E: "" })).toBe("[]");
  });

  it("uses ${VAR:-default} when the variable is unset or empty, as the shell does", () => {
    expect(sub("${P:-7777}", {})).toBe("7777");
    expect(sub("${P:-7777}", { P: "" })).toBe("7777");
    expect(sub("${P:-7777}", { P: "80" })).toBe("80");
    expect(sub("${P:-}", {})).toBe("");
    expect(sub("${U:-http://h:1/x}", {})).toBe("http://h:1/x");
  });

  it("does not substitute again inside a value or a default", () => {
    expect(sub("${A}", { A: "${B}", B: "no" })).toBe("${B}");
  });

  it("treats only ${...} as special", () => {
    expect(sub("$$ $A $ cost$5 $${A}", { A: "v" })).toBe("$$ $A $ cost$5 $v");
  });

  it("names the unset variable, the file and the key path", () => {
    const raw = { mcpServers: { remote: { headers: { Authorization: "Bearer ${TOKEN}" } } } };
    expect(subError(raw)).toBe("f.json: mcpServers.remote.headers.Authorization uses ${TOKEN}, but the environment variable TOKEN is not set");
  });

  it("names array positions and reports every unset variable at once", () => {
    const message = subError({ mcpServers: { a: { args: ["ok", "${ONE}"], env: { K: "${TWO}" } } } });
    expect(message.split("\n")).toEqual([
      "f.json: mcpServers.a.args[1] uses ${ONE}, but the environment variable ONE is not set",
      "f.json: mcpServers.a.env.K uses ${TWO}, but the environment variable TWO is not set",
    ]);
  });

  it("rejects malformed and unterminated references", () => {
    expect(subError({ a: "${1X}" })).toBe("f.json: a has a malformed reference ${1X} (write ${NAME} or ${NAME:-default})");
    expect(subError({ a: "${ X }" })).toMatch(/malformed reference \$\{ X \}/);
    expect(subError({ a: "x${X" })).toBe('f.json: a has an unterminated "${" (write ${NAME} or ${NAME:-default})');
  });

  it("leaves keys and a top-level $schema alone, and does not mutate its input", () => {
    const raw = { $schema: "${NOPE}", "${KEY}": "${V}" };
    expect(sub(raw, { V: "v" })).toEqual({ $schema: "${NOPE}", "${KEY}": "v" });
    expect(raw["${KEY}"]).toBe("${V}");
  });
});
