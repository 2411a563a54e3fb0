import { describe, expect, it } from "vitest";
import { namesServer, withServerName } from "../../src/render/name-server.js";

describe("naming the upstream", () => {
  it("prefixes a message that does not name the server", () => {
    expect(withServerName("Which plan?", "crm")).toBe("[crm] Which plan?");
  });

  it("leaves a message that already names the server", () => {
    expect(withServerName("crm needs your plan", "crm")).toBe("crm needs your plan");
    expect(withServerName("Sign in to my.server.", "my.server")).toBe("Sign in to my.server.");
  });

  it("does not count the name inside a longer word, or in another case", () => {
    expect(namesServer("Enter a digit", "git")).toBe(false);
    expect(namesServer("Open GitHub", "git")).toBe(false);
    expect(namesServer("git-lfs wants a token", "git")).toBe(false);
    expect(namesServer("(git) wants a token", "git")).toBe(true);
    expect(withServerName("Enter a digit", "git")).toBe("[git] Enter a digit");
  });

  it("has nothing to add without a name", () => {
    expect(withServerName("Which plan?", "")).toBe("Which plan?");
  });
});
