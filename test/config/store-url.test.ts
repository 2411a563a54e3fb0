/** `"store": {"url": …}`: a redis:// or rediss:// URL, `${VAR}` allowed; absent, the state directory's SQLite store. */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { configFromObject } from "../../src/config/load.js";

const FILE = "conf/mcpx.json";

function problem(raw: unknown, env: Record<string, string> = {}): string {
  try {
    configFromObject(raw, FILE, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

describe("store.url", () => {
  it("is absent by default: the state directory's store", () => {
    expect(configFromObject({}, FILE, {}).store).toBeUndefined();
  });

  it("takes redis:// and rediss:// URLs, with a password from the environment", () => {
    expect(configFromObject({ store: { url: "redis://127.0.0.1:6379/2" } }, FILE, {}).store).toEqual({ url: "redis://127.0.0.1:6379/2" });
    const config = configFromObject({ store: { url: "rediss://mcpx:${REDIS_PASSWORD}@cache.internal:6380" } }, FILE, { REDIS_PASSWORD: "s3cret" });
    expect(config.store).toEqual({ url: "rediss://mcpx:s3cret@cache.internal:6380" });
  });

  it("refuses anything else, naming the key", () => {
    expect(problem({ store: { url: "http://127.0.0.1:6379" } })).toBe("conf/mcpx.json: store.url must be a redis:// or rediss:// URL (got http://…)");
    expect(problem({ store: { url: "127.0.0.1:6379" } })).toMatch(/^conf\/mcpx\.json: store\.url /);
    expect(problem({ store: { url: "" } })).toMatch(/^conf\/mcpx\.json: store\.url must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(problem({ store: { url: "redis://" } })).toBe("conf/mcpx.json: store.url names no host");
    expect(problem({ store: { host: "127.0.0.1" } })).toBe("conf/mcpx.json: store.host is not a known key");
  });
});
