/**
 * `http.auth` with identities (issue 16 item 4): an issuer, with or without the static host
 * credential; the audience, keys and scopes that go with it; and what is refused, by name.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFromObject } from "../../src/config/validate.js";
import { writeConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";

const file = join(mkdtempSync(join(tmpdir(), "mcpx-cfg-")), "mcpx.json");
const read = (auth: object) => configFromObject({ http: { auth } }, file, {}).http.auth;

describe("http.auth with an issuer", () => {
  it("takes an issuer alone, or beside the static credential, with audience, jwksUri and scopes", () => {
    expect(read({ issuer: "https://id.example" })).toEqual({ issuer: "https://id.example" });
    const full = {
      issuer: "https://id.example/tenant",
      audience: "https://mcpx.example/mcp",
      jwksUri: "https://id.example/keys?v=2",
      scopes: ["mcp", "mcp:write"],
      token: "0123456789abcdef0123456789abcdef",
    };
    expect(read(full)).toEqual(full);
    // A provider on this machine may speak plain http.
    expect(read({ issuer: "http://127.0.0.1:8080" })).toEqual({ issuer: "http://127.0.0.1:8080" });
  });

  it("refuses what cannot be an issuer, an audience or a scope, naming the key", () => {
    expect(() => read({ issuer: "http://id.example" })).toThrow(/http\.auth\.issuer must be an https URL \(http only on loopback\)/);
    expect(() => read({ issuer: "https://id.example?x=1" })).toThrow(/http\.auth\.issuer must be a URL without a query/);
    expect(() => read({ issuer: "https://id.example#a" })).toThrow(/http\.auth\.issuer must be a URL without a fragment/);
    expect(() => read({ issuer: "id.example" })).toThrow(/http\.auth\.issuer must be an absolute URL/);
    expect(() => read({ issuer: "https://id.example", audience: "mcpx" })).toThrow(/http\.auth\.audience must be an absolute URL/);
    expect(() => read({ issuer: "https://id.example", jwksUri: "http://id.example/jwks" })).toThrow(/http\.auth\.jwksUri must be an https URL/);
    expect(() => read({ issuer: "https://id.example", scopes: ["a b"] })).toThrow(/http\.auth\.scopes must be an array of scope names/);
    expect(() => read({ audience: "https://mcpx.example/mcp", token: "0123456789abcdef0123456789abcdef" })).toThrow(
      /http\.auth\.audience applies to identities only: set "issuer" too/,
    );
    expect(() => read({ isuer: "https://id.example" })).toThrow(/http\.auth\.isuer is not a known key \(did you mean "issuer"\?\)/);
  });
});

describe("serving beyond loopback with identities", () => {
  // 192.0.2.1 (TEST-NET-1) is on no interface: a run that passes the checks fails only at binding it.
  const UNREACHABLE = "192.0.2.1";

  it("needs the audience (the URL hosts reach /mcp at), and says so before binding", async () => {
    const config = writeConfig({ mcpServers: {}, http: { auth: { issuer: "https://id.example" } } });
    const run = await runMcpx(["serve", "--http", "--host", UNREACHABLE, "--port", "0", "--config", config.file], config, { MCPX_HTTP_TOKEN: "" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("needs http.auth.audience");
    expect(run.stderr).not.toMatch(/cannot listen|serving MCP/);
  });

  it("with the audience, an issuer stands for a credential", async () => {
    const config = writeConfig({ mcpServers: {}, http: { auth: { issuer: "https://id.example", audience: "https://mcpx.example/mcp" } } });
    const run = await runMcpx(["serve", "--http", "--host", UNREACHABLE, "--port", "0", "--config", config.file], config, { MCPX_HTTP_TOKEN: "" });
    expect(run.stderr).not.toContain("refusing to serve");
    expect(run.stderr).toMatch(/cannot listen on 192\.0\.2\.1/);
  });
});
