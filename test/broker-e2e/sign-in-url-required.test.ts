/**
 * Design rule 7 for the sign-in: a 2025-11-25 host that declared `elicitation.url` but calls on
 * a JSON-only POST (no stream to carry a request) is answered `-32042` listing the sign-in (the
 * authorization URL in full); once the person has signed in, the host's retry of the same call
 * gets the result.
 */
import { describe, expect, it } from "vitest";
import { servedSignInFixture } from "../helpers/sign-in-fixture.js";
import { RawHttpHost } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";

const JSON_ONLY = { accept: "application/json" };
const fixture = servedSignInFixture({ protect: "calls" });

const whoami = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "crm__whoami", arguments: {} } });

describe("the sign-in to a JSON-only 2025-11-25 host", () => {
  it("is -32042 listing it; the retry after the sign-in gets the result", async () => {
    const host = new RawHttpHost(fixture.mcpx.url);
    try {
      await host.initialize("2025-11-25", { elicitation: { form: {}, url: {} } });
      const first = await host.send(whoami(1), JSON_ONLY);
      const [error] = first.messages;
      expectValidToClient("2025-11-25", error);
      expect(error).toMatchObject({ id: 1, error: { code: -32042 } });
      const [signIn] = (error!.error as { data: { elicitations: Array<{ mode: string; url: string; message: string }> } }).data.elicitations;
      expect(signIn).toMatchObject({ mode: "url" });
      expect(signIn!.message).toContain('Sign in to "crm"');
      expect(new URL(signIn!.url).searchParams.get("resource")).toBe(fixture.upstream.url);

      expect((await fixture.as.signIn(signIn!.url)).status).toBe(200);
      const retry = await host.send(whoami(2), JSON_ONLY);
      const [result] = retry.messages;
      expectValidToClient("2025-11-25", result, "tools/call");
      expect(JSON.stringify(result)).toMatch(/alice/);
    } finally {
      host.close();
    }
  }, 60_000);
});
