/**
 * `"cluster"` in the config (config/cluster.ts): what it reads as, with `${VAR}` for the secret,
 * and every mistake refused with the key named.
 */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { configFromObject } from "../../src/config/load.js";

const SECRET = "0123456789abcdef0123456789abcdef";
const STORE = { url: "redis://127.0.0.1:6379" };
const load = (cluster: unknown, env: Record<string, string> = {}, store: unknown = STORE) =>
  configFromObject({ cluster, ...(store ? { store } : {}) }, "conf/mcpx.json", env);

function problem(cluster: unknown, store: unknown = STORE): string {
  try {
    load(cluster, {}, store);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

describe("cluster", () => {
  it("is absent unless configured", () => {
    expect(configFromObject({}, "conf/mcpx.json", {}).cluster).toBeUndefined();
  });

  it("reads the secret from the environment, and the addresses as origins", () => {
    const config = load(
      { secret: "${MCPX_CLUSTER_SECRET}", advertise: "http://10.0.0.5:7777/", publicUrl: "https://mcpx.example.com" },
      { MCPX_CLUSTER_SECRET: SECRET },
    );
    expect(config.cluster).toEqual({ secret: SECRET, advertise: "http://10.0.0.5:7777", publicUrl: "https://mcpx.example.com" });
  });

  it("refuses a missing or short secret, addresses that are not origins, and unknown keys", () => {
    expect(problem({})).toMatch(/cluster\.secret is required/);
    expect(problem({ secret: "short" })).toMatch(/cluster\.secret must be at least 32 characters \(got 5\)/);
    expect(problem({ secret: SECRET, advertise: "10.0.0.5:7777" })).toMatch(/cluster\.advertise must be an http\(s\) URL/);
    expect(problem({ secret: SECRET, advertise: "http://10.0.0.5:7777/mcp" })).toMatch(/cluster\.advertise must be an origin only/);
    expect(problem({ secret: SECRET, publicUrl: "ftp://example.com" })).toMatch(/cluster\.publicUrl must be an http\(s\) URL/);
    expect(problem({ secret: SECRET, sticky: true })).toMatch(/cluster\.sticky is not a known key/);
    expect(problem({ secret: SECRET }, null)).toMatch(/cluster needs "store": \{"url": "redis:\/\/…"\}/);
  });
});
