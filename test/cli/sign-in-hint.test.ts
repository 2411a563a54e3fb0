/**
 * A remote server that answers 401 and names no authorization server wants a sign-in mcpx cannot
 * do: the reason `mcpx servers` shows, the log and the error a call gets say so, how to try again
 * (`mcpx auth login`) and how to pass a token in `headers`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/mcpx.js";
import { parseServers, runMcpx, startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";

const HINT = /HTTP 401.*mcpx could not sign in to it with OAuth.*mcpx auth login SERVER.*"headers": \{"Authorization": "Bearer \$\{[A-Z_]+\}"\}/;

describe("a 401 from a remote server", () => {
  let upstream: HttpFixture;
  beforeAll(async () => {
    upstream = await startHttpFixture("auth-http-server.mjs", { EXPECTED_TOKEN: "s3cret" });
  });
  afterAll(async () => upstream?.close());

  it("is explained in the reason, the log and a call's error", async () => {
    const config = writeConfig({ mcpServers: { remote: { url: upstream.url } } });
    const servers = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(servers.code, servers.stderr).toBe(1);
    const report = parseServers(servers.stdout).get("remote");
    expect(report?.state).toBe("down");
    expect(report?.reason).toMatch(HINT);

    const call = await runMcpx(["call", "remote.whoami", "--config", config.file], config, { MCPX_LOG_LEVEL: "warn" });
    expect(call.code).toBe(1);
    expect(call.stderr).toMatch(HINT);
  });

  it("is not claimed when the token was given and is wrong: then the hint says to check it", async () => {
    const config = writeConfig({ mcpServers: { remote: { url: upstream.url, headers: { Authorization: "Bearer wrong" } } } });
    const servers = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(parseServers(servers.stdout).get("remote")?.reason).toMatch(/HTTP 401.*check the token in this server's "headers"/);
  });
});
