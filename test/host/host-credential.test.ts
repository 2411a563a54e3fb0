/**
 * The host credential's rules, as units: what counts as loopback, where a credential comes
 * from (config token, token file that only its owner may read, $MCPX_HTTP_TOKEN), that it is
 * compared in constant time, and that a bind beyond loopback without one is refused.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";

// Every timingSafeEqual call, to see that the comparison is made on equal-length digests.
const compared = vi.hoisted(() => [] as Array<[number, number]>);
vi.mock("node:crypto", async (original) => {
  const crypto = await original<typeof import("node:crypto")>();
  return {
    ...crypto,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.push([a.byteLength, b.byteLength]);
      return crypto.timingSafeEqual(a, b);
    },
  };
});

const { isLoopbackHost, loadHostCredential, requireCredentialFor, CredentialError, MIN_TOKEN_LENGTH } = await import("../../src/host/host-credential.js");
const { configFromObject } = await import("../../src/config/validate.js");

const TOKEN = `${"a".repeat(24)}0123456789abcdef`;

function tokenFile(content: string, mode: number): string {
  const file = join(mkdtempSync(join(tmpdir(), "mcpx-cred-")), "token");
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

describe("loopback", () => {
  it.each(["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"])("%s is loopback", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(["0.0.0.0", "::", "192.168.1.5", "10.0.0.1", "::ffff:10.0.0.1", "box.lan", "localhost.example.com", "128.0.0.1", ""])("%s is not", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("a bind beyond loopback", () => {
  it("is refused without a credential, saying how to set one", () => {
    expect(() => requireCredentialFor("0.0.0.0", undefined, "http.auth.tokenFile, or MCPX_HTTP_TOKEN")).toThrow(CredentialError);
    expect(() => requireCredentialFor("0.0.0.0", undefined, "http.auth.tokenFile, or MCPX_HTTP_TOKEN")).toThrow(
      /0\.0\.0\.0.*http\.auth\.tokenFile, or MCPX_HTTP_TOKEN/,
    );
    expect(() => requireCredentialFor("::", undefined, "x")).toThrow(CredentialError);
  });
  it("is allowed with one, and loopback needs none", () => {
    const credential = loadHostCredential({ token: TOKEN }, {})!;
    expect(() => requireCredentialFor("0.0.0.0", credential, "x")).not.toThrow();
    expect(() => requireCredentialFor("127.0.0.1", undefined, "x")).not.toThrow();
  });
});

describe("where the credential comes from", () => {
  it("is none when nothing is configured", () => {
    expect(loadHostCredential(undefined, {})).toBeUndefined();
    expect(loadHostCredential(undefined, { MCPX_HTTP_TOKEN: "" })).toBeUndefined();
  });

  it("takes http.auth.token, else $MCPX_HTTP_TOKEN; the config wins", () => {
    expect(loadHostCredential({ token: TOKEN }, {})!.matches(TOKEN)).toBe(true);
    const fromEnv = loadHostCredential(undefined, { MCPX_HTTP_TOKEN: TOKEN })!;
    expect(fromEnv.matches(TOKEN)).toBe(true);
    expect(fromEnv.from).toBe("$MCPX_HTTP_TOKEN");
    const both = loadHostCredential({ token: TOKEN }, { MCPX_HTTP_TOKEN: "b".repeat(40) })!;
    expect(both.matches(TOKEN)).toBe(true);
    expect(both.matches("b".repeat(40))).toBe(false);
  });

  it("refuses a short token", () => {
    expect(() => loadHostCredential({ token: "x".repeat(MIN_TOKEN_LENGTH - 1) }, {})).toThrow(/at least 32 characters.*openssl rand -hex 32/);
    expect(() => loadHostCredential(undefined, { MCPX_HTTP_TOKEN: "short" })).toThrow(/MCPX_HTTP_TOKEN/);
  });

  it("reads a 0600 token file (trimmed), and refuses one that group or others can read, naming the fix", () => {
    const good = tokenFile(`${TOKEN}\n`, 0o600);
    expect(loadHostCredential({ tokenFile: good }, {})!.matches(TOKEN)).toBe(true);
    expect(loadHostCredential({ tokenFile: tokenFile(TOKEN, 0o400) }, {})!.matches(TOKEN)).toBe(true);
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      const loose = tokenFile(TOKEN, mode);
      expect(() => loadHostCredential({ tokenFile: loose }, {})).toThrow(`chmod 600 ${loose}`);
    }
    expect(() => loadHostCredential({ tokenFile: "/nonexistent/mcpx-token" }, {})).toThrow(/cannot read the token file \/nonexistent\/mcpx-token: ENOENT/);
    expect(() => loadHostCredential({ tokenFile: tokenFile("\n", 0o600) }, {})).toThrow(/at least 32/);
  });

  it("is http.auth in the config: one of token and tokenFile (or an issuer), the file relative to the config", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpx-cfg-"));
    const file = join(dir, "mcpx.json");
    expect(configFromObject({ http: { auth: { tokenFile: "secret/token" } } }, file, {}).http.auth).toEqual({ tokenFile: join(dir, "secret/token") });
    expect(configFromObject({ http: { auth: { token: "${T}" } } }, file, { T: TOKEN }).http.auth).toEqual({ token: TOKEN });
    expect(configFromObject({ http: {} }, file, {}).http.auth).toBeUndefined();
    expect(() => configFromObject({ http: { auth: { token: TOKEN, tokenFile: "x" } } }, file, {})).toThrow(/http\.auth takes one of "token" .* not both/);
    expect(() => configFromObject({ http: { auth: {} } }, file, {})).toThrow(/http\.auth needs "token" .*"tokenFile" .*or "issuer"/);
    expect(() => configFromObject({ http: { auth: { tokn: "x" } } }, file, {})).toThrow(/http\.auth\.tokn is not a known key \(did you mean "token"\?\)/);
  });
});

describe("comparison", () => {
  it("is timingSafeEqual over equal-length digests, whatever length was sent", () => {
    const credential = loadHostCredential({ token: TOKEN }, {})!;
    for (const given of ["", "x", TOKEN.slice(0, -1), `${TOKEN}x`, "z".repeat(10_000), TOKEN]) {
      compared.length = 0;
      const ok = credential.matches(given);
      expect(ok).toBe(given === TOKEN);
      expect(compared).toEqual([[32, 32]]);
    }
    expect(credential.matches(undefined)).toBe(false);
  });
});
