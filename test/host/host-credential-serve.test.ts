/**
 * The host credential end to end, with real mcpx processes. Tests bind 127.0.0.1 only, so
 * "beyond loopback" is shown by the refusal: asked to bind 192.0.2.1 (TEST-NET-1, on no
 * interface here) without a credential, mcpx stops with exit 2 and says how to set one,
 * before it tries to bind (else it would fail with EADDRNOTAVAIL). A credential configured for
 * a loopback bind is enforced too (configured means required), on /mcp, /v1, the event stream
 * and the page's data.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { startUi, tempStateDir } from "../helpers/questions-api.js";
import { post } from "../helpers/raw-http.js";
import { runMcpx } from "../helpers/upstreams.js";

const TOKEN = "0123456789abcdef0123456789abcdef-host";
const UNREACHABLE = "192.0.2.1";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

function secretFile(mode: number, content = `${TOKEN}\n`): string {
  const file = join(mkdtempSync(join(tmpdir(), "mcpx-secret-")), "token");
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

function codeOf(log: string): string {
  const match = /questions at (\S+)/.exec(log);
  if (!match) throw new Error(`no page link in the log:\n${log}`);
  return new URL(match[1]!).hash.replace(/^#code=/, "");
}

describe("a bind beyond loopback without a credential", () => {
  it("mcpx serve --http refuses to start, before binding, and says how to set one", async () => {
    const config = writeConfig({ mcpServers: {} });
    const run = await runMcpx(["serve", "--http", "--host", UNREACHABLE, "--port", "0", "--config", config.file], config, { MCPX_HTTP_TOKEN: "" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`refusing to serve on ${UNREACHABLE}`);
    expect(run.stderr).toContain("http.auth.tokenFile");
    expect(run.stderr).toContain("http.auth.token");
    expect(run.stderr).toContain("MCPX_HTTP_TOKEN");
    expect(run.stderr).not.toMatch(/cannot listen|EADDRNOTAVAIL|serving MCP/);
  });

  it("mcpx ui refuses the same way", async () => {
    const config = writeConfig({});
    const run = await runMcpx(["ui", "--host", UNREACHABLE, "--port", "0"], config, { MCPX_HTTP_TOKEN: "" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`refusing to serve on ${UNREACHABLE}`);
    expect(run.stderr).toContain("--token-file");
    expect(run.stderr).toContain("MCPX_HTTP_TOKEN");
    expect(run.stderr).not.toMatch(/no such local address|EADDRNOTAVAIL|questions at/);
  });

  it("with a credential, gets past the check (and fails only at binding the absent address)", async () => {
    const config = writeConfig({ mcpServers: {}, http: { auth: { tokenFile: secretFile(0o600) } } });
    const run = await runMcpx(["serve", "--http", "--host", UNREACHABLE, "--port", "0", "--config", config.file], config);
    expect(run.stderr).not.toContain("refusing to serve");
    expect(run.stderr).toMatch(/cannot listen on 192\.0\.2\.1/);
  });
});

describe("a token file others can read", () => {
  it("is refused with exit 2 and the chmod that fixes it", async () => {
    const loose = secretFile(0o644);
    const config = writeConfig({ mcpServers: {}, http: { auth: { tokenFile: loose } } });
    const run = await runMcpx(["serve", "--http", "--port", "0", "--config", config.file], config);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`chmod 600 ${loose}`);
    expect(run.stderr).not.toContain("serving MCP");
    const ui = await runMcpx(["ui", "--port", "0", "--token-file", loose], config);
    expect(ui.code).toBe(2);
    expect(ui.stderr).toContain(`chmod 600 ${loose}`);
  });
});

describe("mcpx serve --http with http.auth.tokenFile, on 127.0.0.1", () => {
  let mcpx: RunningMcpx & { url: URL };
  let apiToken: string;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    const config = writeConfig({ mcpServers: {}, http: { auth: { tokenFile: secretFile(0o600) } } });
    mcpx = await startMcpxHttp(config);
    const { readFileSync } = await import("node:fs");
    apiToken = readFileSync(join(config.env.MCPX_STATE_DIR!, "api-token"), "utf8").trim();
  });
  afterAll(async () => {
    await mcpx?.close();
  });

  it("answers /mcp without the credential with 401, a Bearer challenge and a JSON-RPC error", async () => {
    const none = await post(mcpx.url, INITIALIZE);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="mcpx"');
    // The body as for mcpx's other refusals on /mcp: a JSON-RPC error without an id.
    expect(none.messages).toEqual([{ jsonrpc: "2.0", error: { code: -32600, message: expect.stringContaining("http.auth.tokenFile") } }]);
    const wrong = await post(mcpx.url, INITIALIZE, bearer(`${TOKEN}x`));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="mcpx", error="invalid_token"');
    // The API token is not a key to /mcp.
    expect((await post(mcpx.url, INITIALIZE, bearer(apiToken))).status).toBe(401);
    // GET and DELETE too.
    expect((await fetch(mcpx.url, { headers: { accept: "text/event-stream" } })).status).toBe(401);
    expect((await fetch(mcpx.url, { method: "DELETE" })).status).toBe(401);
  });

  it("serves an SDK host that sends the credential", async () => {
    const client = new Client({ name: "with-token", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(mcpx.url, { requestInit: { headers: bearer(TOKEN) } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("mcpx__answer_question");
    } finally {
      await client.close();
    }
  });

  it("an SDK host without it fails to connect", async () => {
    const client = new Client({ name: "without-token", version: "1.0.0" });
    await expect(client.connect(new StreamableHTTPClientTransport(mcpx.url))).rejects.toThrow(/Unauthorized: send the host credential/);
  });

  it("requires it on /v1 and the event stream (the API token is not accepted), and the page's code works once", async () => {
    const v1 = new URL("/v1/questions", mcpx.url);
    expect((await fetch(v1)).status).toBe(401);
    const withApiToken = await fetch(v1, { headers: bearer(apiToken) });
    expect(withApiToken.status).toBe(401);
    expect(((await withApiToken.json()) as { error: { message: string } }).error.message).toContain("host credential");
    expect((await fetch(v1, { headers: bearer(TOKEN) })).status).toBe(200);
    expect((await fetch(new URL("/v1/events", mcpx.url))).status).toBe(401);
    const controller = new AbortController();
    const events = await fetch(new URL("/v1/events", mcpx.url), { headers: bearer(TOKEN), signal: controller.signal });
    expect(events.status).toBe(200);
    controller.abort();

    // The page's data: only through the in-tab credential its one-time code buys, which opens /v1 but not /mcp.
    const exchange = () =>
      fetch(new URL("/v1/page-session", mcpx.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code: codeOf(mcpx.stderr()) }),
      });
    const traded = await exchange();
    expect(traded.status).toBe(200);
    const session = ((await traded.json()) as { token: string }).token;
    expect((await fetch(v1, { headers: bearer(session) })).status).toBe(200);
    expect((await post(mcpx.url, INITIALIZE, bearer(session))).status).toBe(401);
    expect((await exchange()).status).toBe(401);
  });
});

describe("$MCPX_HTTP_TOKEN", () => {
  it("is the credential of mcpx ui, enforced on a loopback bind", async () => {
    const ui = await startUi(tempStateDir(), [], { MCPX_HTTP_TOKEN: TOKEN });
    try {
      const v1 = new URL("/v1/questions", ui.base);
      expect((await fetch(v1, { headers: { authorization: `Bearer ${ui.token}` } })).status).toBe(401);
      expect((await fetch(v1, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      expect(ui.stderr()).toContain("$MCPX_HTTP_TOKEN");
    } finally {
      await ui.close();
    }
  });

  it("is the credential of mcpx serve --http when the config sets none", async () => {
    const config = writeConfig({ mcpServers: {} });
    config.env.MCPX_HTTP_TOKEN = TOKEN;
    const mcpx = await startMcpxHttp(config);
    try {
      expect((await post(mcpx.url, INITIALIZE)).status).toBe(401);
      expect((await post(mcpx.url, INITIALIZE, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    } finally {
      await mcpx.close();
    }
  });
});
