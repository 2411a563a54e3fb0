/**
 * A host that goes away while a question is pending at it: the upstream is answered `cancel`
 * (nobody answered; not an error), and mcpx goes on serving other hosts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startMcpxHttp, type RunningMcpx } from "../helpers/mcpx.js";
import { askingStdio, deferred, httpHost, relayConfig, toolJson, type RecordingHost } from "./support.js";

let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  mcpx = await startMcpxHttp(relayConfig({ ask: askingStdio() }));
});
afterAll(async () => mcpx?.close());

/** A host that is asked and never answers; resolves once the question is at the host. */
async function hostAskedAndSilent(tag: string): Promise<RecordingHost & { transport: { terminateSession(): Promise<void> } }> {
  const asked = deferred<void>();
  const host = await httpHost(mcpx.url, {
    capabilities: { elicitation: { form: {} } },
    setup: (client) =>
      client.setRequestHandler(ElicitRequestSchema, () => {
        asked.resolve();
        return new Promise(() => {}); // the person never answers
      }),
  });
  void host.client.callTool({ name: "ask__ask_form", arguments: { tag } }).catch(() => {});
  await asked.promise;
  return host;
}

async function stillServes(): Promise<void> {
  const other = await httpHost(mcpx.url, {
    capabilities: { elicitation: { form: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Grace" } })),
  });
  try {
    const result = await other.client.callTool({ name: "ask__ask_form", arguments: {} });
    expect(toolJson(result)).toEqual({ action: "accept", content: { name: "Grace" } });
  } finally {
    await other.close();
  }
}

describe("a host that goes away with a question pending", () => {
  it("ending its session (DELETE): the upstream gets cancel, and others are still served", async () => {
    const host = await hostAskedAndSilent("deleted");
    await host.transport.terminateSession();
    await host.close();
    await mcpx.waitForLog("asking-server: ask_form:deleted elicitation/create -> cancel");
    await stillServes();
  });

  it("dropping its connection: the upstream gets cancel, and others are still served", async () => {
    const host = await hostAskedAndSilent("dropped");
    await host.close(); // aborts every open HTTP request; the session is never ended
    await mcpx.waitForLog("asking-server: ask_form:dropped elicitation/create -> cancel");
    await stillServes();
  });
});
