/**
 * `sharing: "per-host"`: each host gets a connection (here, a process) of its own to the
 * server, so a question on it is provably that host's even while another host's call to the
 * same server is in flight; the connection goes when its host goes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, type RunningMcpx } from "../helpers/mcpx.js";
import { firstText, isAlive } from "../helpers/upstreams.js";
import { askingStdio, labelledHost, relayConfig, toolJson } from "./support.js";

let mcpx: RunningMcpx & { url: URL };
type Host = Awaited<ReturnType<typeof labelledHost>>;
const hosts: Record<"A" | "B", Host> = {} as never;

beforeAll(async () => {
  mcpx = await startMcpxHttp(
    relayConfig({
      ask: askingStdio({ sharing: "per-host" }),
      faulty: nodeServer("faulty-server.mjs", [], { sharing: "per-host" }),
    }),
  );
  hosts.A = await labelledHost(mcpx.url, "A");
  hosts.B = await labelledHost(mcpx.url, "B");
});
afterAll(async () => {
  await hosts.A?.close();
  await hosts.B?.close();
  await mcpx?.close();
});

const pidOf = async (label: "A" | "B"): Promise<number> =>
  Number(firstText({ result: await hosts[label].client.callTool({ name: "faulty__pid", arguments: {} }) }));

describe('a server with sharing: "per-host"', () => {
  it("gives each host a process of its own", async () => {
    const [a, b] = [await pidOf("A"), await pidOf("B")];
    expect(a).not.toBe(b);
    expect(await pidOf("A")).toBe(a);
  });

  it("asks each host its own question while both hosts' calls are in flight", async () => {
    const call = (label: "A" | "B") => hosts[label].client.callTool({ name: "ask__slow_ask", arguments: { label, together: 1, delayMs: 300 } }).then(toolJson);
    const [A, B] = await Promise.all([call("A"), call("B")]);
    expect(A).toEqual({ action: "accept", content: { name: "answered by A" } });
    expect(B).toEqual({ action: "accept", content: { name: "answered by B" } });
    expect(hosts.A.requests("elicitation/create")).toHaveLength(1);
    expect(hosts.B.requests("elicitation/create")).toHaveLength(1);
  });

  it("stops a host's own process when the host ends its session", async () => {
    const pid = await pidOf("B");
    await hosts.B.transport.terminateSession();
    await hosts.B.close();
    const deadline = Date.now() + 10_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(pid)).toBe(false);
    expect(isAlive(await pidOf("A"))).toBe(true);
  });
});
