/**
 * Who may be sent a form question (design rules 1 and 2): a 2025-06-18 host gets titled
 * single-selects as enum + enumNames and no `mode`; a question it cannot express
 * (multi-select), a host without the capability, and a 2024-11-05 host (whatever it declares)
 * are never asked: the upstream gets `cancel` and mcpx logs why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawStdioHost, type TempConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import type { Revision } from "../../src/protocol/revisions.js";
import { askingStdio, frameToolJson, isRequestFrame, relayConfig } from "./support.js";

let config: TempConfig;
const hosts: RawStdioHost[] = [];

beforeAll(() => {
  config = relayConfig({ ask: askingStdio() });
});
afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close()));
});

async function hostAt(revision: Revision, capabilities: object): Promise<RawStdioHost> {
  const host = new RawStdioHost(config);
  hosts.push(host);
  await host.initialize(revision, capabilities);
  return host;
}

/** Call a tool that asks, expect the host not to be asked, and return what the upstream got. */
async function callUnasked(host: RawStdioHost, id: number, name: string, args: object = {}): Promise<unknown> {
  const from = host.frames.length;
  const answer = await host.request(id, "tools/call", { name, arguments: args });
  // The question would have been written before the call's answer on this one ordered pipe.
  expect(host.frames.slice(from).filter((frame) => isRequestFrame(frame))).toEqual([]);
  return frameToolJson(answer);
}

describe("a 2025-06-18 host with elicitation", () => {
  let host: RawStdioHost;
  beforeAll(async () => {
    host = await hostAt("2025-06-18", { elicitation: {} });
  });

  it("gets single-selects in its own shape: titled becomes enum + enumNames, no mode", async () => {
    host.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask__ask_enums", arguments: {} } });
    const question = await host.waitFor((frame) => isRequestFrame(frame, "elicitation/create"));

    expectValidToClient("2025-06-18", question);
    const params = question.params as { mode?: string; message: string; requestedSchema: { properties: Record<string, unknown> } };
    expect(params).not.toHaveProperty("mode");
    expect(params.message).toBe("[ask] Pick some options");
    expect(params.requestedSchema.properties).toEqual({
      untitledSingle: { type: "string", title: "Untitled single", enum: ["red", "green", "blue"] },
      titledSingle: { type: "string", title: "Titled single", enum: ["#f00", "#0f0"], enumNames: ["Red", "Green"] },
      legacyTitled: { type: "string", title: "Legacy", enum: ["s", "m", "l"], enumNames: ["Small", "Medium", "Large"] },
    });

    const content = { untitledSingle: "blue", titledSingle: "#0f0", legacyTitled: "m" };
    host.send({ jsonrpc: "2.0", id: question.id, result: { action: "accept", content } });
    const answer = await host.waitFor((frame) => frame.id === 2 && !("method" in frame));
    expect(frameToolJson(answer)).toEqual({ action: "accept", content });
  });

  it("is not asked a multi-select it cannot express: the upstream gets cancel and mcpx says why", async () => {
    expect(await callUnasked(host, 3, "ask__ask_enums", { multi: true })).toEqual({ action: "cancel" });
    await host.running.waitForLog(/the calling host cannot take this question.*multi-select/);
  });
});

describe("hosts that cannot take elicitation at all", () => {
  it("a 2025-11-25 host without the capability is not asked; the upstream gets cancel", async () => {
    const host = await hostAt("2025-11-25", { sampling: {} });
    expect(await callUnasked(host, 2, "ask__ask_form")).toEqual({ action: "cancel" });
    await host.running.waitForLog(/the calling host cannot take this question.*did not declare the \\"elicitation\\" capability/);
  });

  it("a 2024-11-05 host is not asked even when it declares elicitation", async () => {
    const host = await hostAt("2024-11-05", { elicitation: {} });
    expect(await callUnasked(host, 2, "ask__ask_form")).toEqual({ action: "cancel" });
    await host.running.waitForLog(/the calling host cannot take this question.*revision 2024-11-05 has no elicitation/);
  });
});
