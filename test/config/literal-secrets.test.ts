/** What `mcpx import` counts as a literal secret, and the dotenv lines and JSONC edits it writes with. */
import { describe, expect, it } from "vitest";
import { dotenvLine, parseDotenv } from "../../src/config/dotenv.js";
import { parseJsonc } from "../../src/config/jsonc.js";
import { removeMember, setTopMember } from "../../src/config/jsonc-edit.js";
import { literalSecrets } from "../../src/config/literal-secrets.js";

const found = (server: string, entry: Record<string, unknown>) =>
  literalSecrets(server, entry).map((s) => ({ at: s.at.join("."), value: s.value, suggested: s.suggested }));

describe("literalSecrets", () => {
  it.each([
    ["an API key in env", { env: { BRAVE_API_KEY: "BSA-1" } }, [{ at: "env.BRAVE_API_KEY", value: "BSA-1", suggested: "BRAVE_API_KEY" }]],
    ["a camelCase token name", { env: { githubToken: "t1" } }, [{ at: "env.githubToken", value: "t1", suggested: "githubToken" }]],
    [
      "a Bearer header (the scheme stays)",
      { headers: { Authorization: "Bearer abc" } },
      [{ at: "headers.Authorization", value: "abc", suggested: "GH_TOKEN" }],
    ],
    ["an X-API-Key header", { headers: { "X-API-Key": "k" } }, [{ at: "headers.X-API-Key", value: "k", suggested: "GH_X_API_KEY" }]],
    ["a URL's password", { url: "https://u:pw@h/mcp" }, [{ at: "url", value: "pw", suggested: "GH_PASSWORD" }]],
    ["a URL's api_key parameter", { url: "https://h/mcp?x=1&api_key=zz" }, [{ at: "url", value: "zz", suggested: "GH_API_KEY" }]],
    [
      "--token VALUE and --api-key=VALUE",
      { args: ["--token", "t", "--api-key=k"] },
      [
        { at: "args.1", value: "t", suggested: "GH_TOKEN" },
        { at: "args.2", value: "k", suggested: "GH_API_KEY" },
      ],
    ],
    [
      "a database URL with a password in env",
      { env: { DATABASE_URL: "postgres://app:s3@db/x" } },
      [{ at: "env.DATABASE_URL", value: "s3", suggested: "GH_PASSWORD" }],
    ],
  ])("%s", (_, entry, expected) => {
    expect(found("gh", entry as Record<string, unknown>)).toEqual(expected);
  });

  it.each([
    ["references", { env: { API_KEY: "${API_KEY}" }, headers: { Authorization: "Bearer ${TOKEN}" }, url: "https://h/?token=${T}" }],
    ["settings under credential words", { env: { AUTH_ENABLED: "true", TOKEN_TTL: "300", PASSWORD: "" } }],
    ["names that are no credentials", { env: { PATH: "/bin", LOG_LEVEL: "debug", KEYBOARD: "us" }, headers: { "X-Trace": "on" }, args: ["--verbose", "x"] }],
  ])("not secrets: %s", (_, entry) => {
    expect(found("gh", entry as Record<string, unknown>)).toEqual([]);
  });

  it("replaces a secret in place, two in one string included", () => {
    const [password, param] = literalSecrets("gh", { url: "https://u:pw@h/mcp?token=tt" });
    const once = password!.replace("https://u:pw@h/mcp?token=tt", "${P}");
    expect(param!.replace(once, "${T}")).toBe("https://u:${P}@h/mcp?token=${T}");
  });
});

describe("dotenvLine", () => {
  it.each(["plain-1.2_x", "with space", "it's", 'quote " and \\ and\nnewline', "#hash", "a=b", ""])("round-trips %j", (value) => {
    expect(parseDotenv(dotenvLine("V", value))).toEqual({ vars: { V: value }, bad: [] });
  });
});

describe("JSONC edits for install --replace and --move-secrets", () => {
  const text = '{\n  // servers\n  "mcpServers": {\n    "a": { "command": "a" }, // a\n    "b": { "command": "b" },\n    "c": { "command": "c" }\n  }\n}\n';
  it("removeMember takes out a first, middle or last member and its comma, keeping the rest", () => {
    expect(removeMember(text, "mcpServers", "a", "f")).toBe(
      '{\n  // servers\n  "mcpServers": {\n    "b": { "command": "b" },\n    "c": { "command": "c" }\n  }\n}\n',
    );
    expect(removeMember(text, "mcpServers", "b", "f")).toBe(
      '{\n  // servers\n  "mcpServers": {\n    "a": { "command": "a" }, // a\n    "c": { "command": "c" }\n  }\n}\n',
    );
    expect(removeMember(text, "mcpServers", "c", "f")).toBe(
      '{\n  // servers\n  "mcpServers": {\n    "a": { "command": "a" }, // a\n    "b": { "command": "b" }\n  }\n}\n',
    );
    const none = ["a", "b", "c"].reduce((t, k) => removeMember(t, "mcpServers", k, "f"), text);
    expect(parseJsonc(none, "f")).toEqual({ mcpServers: {} });
    expect(removeMember(text, "mcpServers", "zz", "f")).toBe(text);
  });

  it("setTopMember adds or replaces a top-level key", () => {
    const added = setTopMember(text, "envFile", ".env", "f");
    expect(added.endsWith('  },\n  "envFile": ".env"\n}\n')).toBe(true);
    expect(parseJsonc(setTopMember(added, "envFile", "x.env", "f"), "f")).toMatchObject({ envFile: "x.env" });
  });
});
