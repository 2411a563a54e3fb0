import { describe, expect, it } from "vitest";
import { GatewayError, RpcError, toWireError } from "../../src/protocol/errors.js";
import { explainCallError } from "../../src/upstream/upstream-errors.js";

describe("a call's failure, as a host sees it", () => {
  it("a 2026-07-28 server's header mismatch or unsupported version is mcpx's protocol failure, never the host's code", () => {
    for (const code of [-32020, -32022]) {
      const wire = toWireError(explainCallError("wx", new RpcError(code, "Header mismatch: Mcp-Name", { supported: ["2026-07-28"] })));
      expect(wire.code).toBe(-32603);
      expect(wire.message).toBe(`upstream "wx" refused mcpx's request (${code}: Header mismatch: Mcp-Name)`);
      expect(wire.data).toMatchObject({ code: "UPSTREAM_PROTOCOL", server: "wx", upstreamError: { code, data: { supported: ["2026-07-28"] } } });
    }
  });

  it("other errors from the server pass as they are; -32021 names what the host must declare", () => {
    const missing = new RpcError(-32021, "Missing required client capability", { requiredCapabilities: { sampling: {} } });
    expect(explainCallError("wx", missing)).toBe(missing);
    const invalid = new RpcError(-32602, "Resource not found", { uri: "x://y" });
    expect(explainCallError("wx", invalid)).toBe(invalid);
    expect(explainCallError("wx", new GatewayError("UPSTREAM_TIMEOUT", "timed out"))).toMatchObject({ message: 'upstream "wx": timed out' });
  });
});
