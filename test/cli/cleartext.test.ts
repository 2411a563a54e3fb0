/** Serving beyond loopback over plain HTTP says on stderr what crosses the network in clear. */
import { describe, expect, it } from "vitest";
import { cleartextWarning } from "../../src/cli/cleartext.js";

describe("the clear-text warning", () => {
  it.each(["0.0.0.0", "::", "192.168.1.5", "box.lan"])("is given for %s, naming the credential, page codes and answers, and a TLS proxy", (host) => {
    const warning = cleartextWarning(host);
    expect(warning).toMatch(/^mcpx: warning: /);
    expect(warning).toContain(host);
    expect(warning).toMatch(/host credential.*one-time codes.*answers.*in clear/);
    expect(warning).toContain("TLS");
    expect(warning.endsWith("\n")).toBe(true);
  });

  it.each(["127.0.0.1", "::1", "localhost", "[::1]"])("is not given for loopback %s", (host) => {
    expect(cleartextWarning(host)).toBe("");
  });
});
