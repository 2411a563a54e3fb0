/**
 * Signing in to a server that requires OAuth, from the command line: `mcpx call` needs a
 * token, and stops on the sign-in as its own URL question (exit 75) naming the server and scopes
 * with the full authorization URL; the person consents (`mcpx elicit accept`) and opens the URL
 * at a real authorization server (oidc-provider), which sends them back to mcpx's loopback
 * callback; `mcpx result` gets the call's answer, and the next call needs no question.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { MCPX_BIN, type TempConfig } from "../helpers/mcpx.js";
import { signInFixture } from "../helpers/sign-in-fixture.js";
import { runMcpx, type CliRun } from "../helpers/upstreams.js";
import { elicit, elicitListAll, storedQuestions } from "./support.js";

const fixture = signInFixture();

function callIn(config: TempConfig, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MCPX_BIN, ...args, "--config", config.file], { env: config.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 40_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

interface Stopped {
  callId: string;
  questions: Array<{ id: string; server: string; mode: string; message: string; url: string }>;
}

/**
 * `mcpx call crm.whoami`: the sign-in raised when its mcpx connected is what the call waits for,
 * so the call takes it as its own question: the command prints it and exits 75, the call goes on.
 */
async function callStoppingOnSignIn(config: TempConfig): Promise<Stopped & { question: Stopped["questions"][number] }> {
  const run = await callIn(config, ["call", "crm.whoami", "{}"]);
  expect(run.code, run.stderr).toBe(75);
  const stopped = JSON.parse(run.stdout) as Stopped & { status: string };
  expect(stopped.status).toBe("input-required");
  expect(stopped.questions).toHaveLength(1);
  const [pending] = (await storedQuestions(config)).filter((view) => view.server === "crm" && view.state === "pending");
  expect(stopped.questions[0]!.id).toBe(pending?.id);
  return { ...stopped, question: stopped.questions[0]! };
}

function result(config: TempConfig, callId: string): Promise<CliRun> {
  return runMcpx(["result", callId], config);
}

describe("sign-in from the command line", () => {
  it("asks for the sign-in as a URL question, and the call completes once the person signs in", async () => {
    const { callId, question } = await callStoppingOnSignIn(fixture.config);
    expect(question.mode).toBe("url");
    expect(question.message).toContain('Sign in to "crm"');
    expect(question.message).toContain("mcp");
    const url = new URL(question.url);
    expect(url.origin).toBe(fixture.as.issuer);
    expect(url.searchParams.get("resource")).toBe(fixture.upstream.url);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");

    expect((await elicit(fixture.config, "accept", question.id)).code).toBe(0);
    const back = await fixture.as.signIn(url);
    expect(back.status).toBe(200);
    const done = await result(fixture.config, callId);
    expect(done.stdout + done.stderr).toContain("alice");
    expect(done.code).toBe(0);

    const again = await runMcpx(["call", "crm.whoami", "{}", "--config", fixture.config.file], fixture.config);
    expect(again.code).toBe(0);
    expect((await storedQuestions(fixture.config)).filter((view) => view.server === "crm")).toHaveLength(1);
  }, 60_000);

  it("fails the call at once, saying why, when the person declines the sign-in", async () => {
    const declining = fixture.freshConfig();
    const started = Date.now();
    const { callId, question } = await callStoppingOnSignIn(declining);
    expect((await elicit(declining, "decline", question.id)).code).toBe(0);
    const done = await result(declining, callId);
    expect(done.code).not.toBe(0);
    expect(done.stderr).toContain('the sign-in to "crm" did not complete (declined)');
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it("ends the question as completed when the redirect comes back before the consent", async () => {
    const eager = fixture.freshConfig();
    const { callId, question } = await callStoppingOnSignIn(eager);
    expect((await fixture.as.signIn(question.url)).status).toBe(200);
    const done = await result(eager, callId);
    expect(done.stdout).toContain("alice");
    expect(done.code).toBe(0);
    const [ended] = (await elicitListAll(eager)).filter((view) => view.id === question.id);
    expect(ended, JSON.stringify(ended)).toMatchObject({ state: "answered" });
    expect(JSON.stringify(ended)).toContain("server:crm");
    expect(JSON.stringify(ended)).not.toMatch(/stopped waiting|cancelled/);
  }, 60_000);

  it("fails the call saying why when the authorization server refuses the sign-in", async () => {
    const refused = fixture.freshConfig();
    const { callId, question } = await callStoppingOnSignIn(refused);
    expect((await elicit(refused, "accept", question.id)).code).toBe(0);
    // The person said no at the authorization server: it sends them back with an error.
    const url = new URL(question.url);
    const back = new URL(url.searchParams.get("redirect_uri")!);
    back.search = new URLSearchParams({ error: "access_denied", state: url.searchParams.get("state")! }).toString();
    expect((await fetch(back)).status).toBe(200);
    const done = await result(refused, callId);
    expect(done.code).not.toBe(0);
    expect(done.stderr).toContain("(access_denied)");
    const [ended] = (await elicitListAll(refused)).filter((view) => view.id === question.id);
    // The person's consent stands as the question's answer; the refusal is the call's error.
    expect(ended).toMatchObject({ state: "answered" });
    expect(JSON.stringify(ended)).not.toMatch(/stopped waiting|aborted/);
  }, 60_000);
});
