/**
 * `mcpx auth`: `login` signs in now (the URL printed in full, a browser opened only with
 * `--open`, exit 0 once the redirect came back), `list` shows whose sign-in, which scopes,
 * until when, never a token, and `logout` revokes the tokens at the authorization server
 * (RFC 7009) before deleting them. Against a real authorization server (oidc-provider).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SqliteCredentialStore } from "../../src/upstream/oauth/credential-store.js";
import type { StoredCredentials } from "../../src/upstream/oauth/types.js";
import { MCPX_BIN, writeConfig } from "../helpers/mcpx.js";
import { startAuthorizationServer } from "../helpers/authorization-server.js";
import { startProtectedUpstream } from "../helpers/protected-upstream.js";
import { signInFixture } from "../helpers/sign-in-fixture.js";
import { runMcpx, type CliRun } from "../helpers/upstreams.js";
import { until } from "../helpers/until.js";
import { storedQuestions } from "../broker-e2e/support.js";

const fixture = signInFixture();
let browser: string;
let opened: string;

beforeAll(() => {
  const { config } = fixture;
  // A "browser" that notes the URL it was asked to open.
  opened = join(config.dir, "opened.txt");
  browser = join(config.dir, "browser.sh");
  writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  chmodSync(browser, 0o755);
});

function stored(): StoredCredentials {
  const store = SqliteCredentialStore.open(fixture.config.env.MCPX_STATE_DIR!);
  try {
    return store.read({ server: "crm", identity: "local" })!;
  } finally {
    store.close();
  }
}

/** `mcpx auth login crm`, with the URL it prints (its first line of stdout) as soon as it prints it. */
function login(args: string[] = []): { url: Promise<string>; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [MCPX_BIN, "auth", "login", "crm", ...args, "--config", fixture.config.file], {
    env: { ...fixture.config.env, BROWSER: browser },
  });
  let stdout = "";
  let stderr = "";
  let printed!: (url: string) => void;
  const url = new Promise<string>((resolve) => (printed = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    const line = stdout.split("\n")[0];
    if (stdout.includes("\n") && line) printed(line);
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), 40_000);
  const done = new Promise<CliRun>((resolve) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      printed("");
      resolve({ code: code ?? -1, stdout, stderr });
    }),
  );
  return { url, done };
}

describe("mcpx auth", () => {
  it("login of a server not in the config is a usage error, said once", async () => {
    const run = await runMcpx(["auth", "login", "nope", "--config", fixture.config.file], fixture.config);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mcpx: no server named nope in /);
  });

  it("lists nothing before any sign-in", async () => {
    const run = await runMcpx(["auth", "list"], fixture.config);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("no sign-ins kept");
  });

  it("login prints the URL in full, waits for the sign-in, and exits 0; no browser unless --open", async () => {
    const { url, done } = login();
    const printed = new URL(await url);
    expect(printed.origin).toBe(fixture.as.issuer);
    expect(printed.searchParams.get("resource")).toBe(fixture.upstream.url);
    expect(printed.searchParams.get("code_challenge_method")).toBe("S256");
    const back = await fixture.as.signIn(printed);
    expect(back.status).toBe(200);
    const run = await done;
    expect(run.stderr).toContain("signed in to crm");
    expect(run.code).toBe(0);
    expect(existsSync(opened)).toBe(false);

    // The token is used by a call, and no question is asked.
    const call = await runMcpx(["call", "crm.whoami", "{}", "--config", fixture.config.file], fixture.config);
    expect(call.stdout).toContain("alice");
    expect(call.code).toBe(0);
    expect(await storedQuestions(fixture.config)).toEqual([]);
    const tokens = stored().tokens as { access_token: string; refresh_token: string };
    expect(call.stdout + call.stderr).not.toContain(tokens.access_token);
    expect(run.stdout + run.stderr).not.toContain(tokens.access_token);
  }, 60_000);

  it("list shows the server, scopes, expiry and refresh, never a token", async () => {
    const tokens = stored().tokens as { access_token: string; refresh_token: string };
    const json = await runMcpx(["auth", "list", "--json"], fixture.config);
    expect(json.code).toBe(0);
    const [row, ...rest] = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(rest).toEqual([]);
    expect(row).toMatchObject({ server: "crm", identity: "local", url: fixture.upstream.url, refreshable: true });
    expect(String(row!.scopes)).toContain("mcp");
    expect(Date.parse(String(row!.expiresAt))).toBeGreaterThan(Date.now());
    const text = await runMcpx(["auth", "list"], fixture.config);
    expect(text.stdout).toMatch(/^crm for .*mcp.*: signed in, token valid for .*refreshed when needed\n$/);
    for (const output of [json.stdout, text.stdout, json.stderr, text.stderr]) {
      expect(output).not.toContain(tokens.access_token);
      expect(output).not.toContain(tokens.refresh_token);
    }
  });

  it("login --open opens the URL with $BROWSER", async () => {
    const { url, done } = login(["--open"]);
    const printed = await url;
    await until(() => existsSync(opened), "the browser was opened");
    expect(readFileSync(opened, "utf8")).toBe(printed);
    expect((await fixture.as.signIn(printed)).status).toBe(200);
    expect((await done).code).toBe(0);
  }, 60_000);

  it("logout revokes the tokens at the authorization server, then deletes them", async () => {
    const before = stored();
    const refresh = (before.tokens as { refresh_token: string }).refresh_token;
    const clientId = (before.clientInformation as { client_id: string }).client_id;
    const run = await runMcpx(["auth", "logout", "crm"], fixture.config);
    expect(run.stderr).toContain("the authorization server revoked its tokens");
    expect(run.code).toBe(0);
    expect(fixture.as.requests.filter((seen) => seen.method === "POST" && seen.url === "/token/revocation")).toHaveLength(2);
    // The refresh token no longer works there.
    const reuse = await fetch(`${fixture.as.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh, client_id: clientId }),
    });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { error: string }).error).toBe("invalid_grant");
    expect((await runMcpx(["auth", "list"], fixture.config)).stdout).toContain("no sign-ins kept");
    expect((await runMcpx(["auth", "logout", "crm"], fixture.config)).stderr).toContain("not signed in to crm");
  });

  it("login finds the authorization server from the URL when the server answers without a challenge", async () => {
    // This server lets the handshake through without a token: there is no 401 to start from.
    // Its metadata offers the scopes "mcp admin", which this authorization server grants.
    const both = await startAuthorizationServer({ resourceScopes: ["mcp", "admin"] });
    const open = await startProtectedUpstream({ issuer: both.issuer, protect: "calls" });
    try {
      const other = writeConfig({ mcpServers: { wiki: { url: open.url } } });
      const child = spawn(process.execPath, [MCPX_BIN, "auth", "login", "wiki", "--config", other.file], { env: other.env });
      let stdout = "";
      const printed = new Promise<string>((resolve) =>
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString("utf8");
          if (stdout.includes("\n")) resolve(stdout.split("\n")[0]!);
        }),
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const exited = new Promise<number>((resolve) => child.once("close", (code) => resolve(code ?? -1)));
      const first = await Promise.race([printed, exited.then((code) => `exited ${code}: ${stderr}`)]);
      expect(first).toMatch(/^http/);
      const url = new URL(first);
      expect(url.searchParams.get("resource")).toBe(open.url);
      expect((await both.signIn(url)).status).toBe(200);
      expect(await exited).toBe(0);
      const listed = JSON.parse((await runMcpx(["auth", "list", "--json"], other)).stdout) as Array<{ server: string }>;
      expect(listed.map((row) => row.server)).toEqual(["wiki"]);
    } finally {
      await open.close();
      await both.close();
    }
  }, 60_000);
});
