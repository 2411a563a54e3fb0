/**
 * cli/write-out.ts: the hot commands print through file descriptor 1, not process.stdout. All
 * of a long text arrives through a pipe, and a reader that goes away early ends the output
 * quietly, with no error and exit 0 (the stream would raise EPIPE).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/mcpx.js";

const WRITE_OUT = pathToFileURL(join(ROOT, "dist", "cli", "write-out.js")).href;
const TEXT_BYTES = 4 * 1024 * 1024;

function printer(): ReturnType<typeof spawn> {
  const code = `import(${JSON.stringify(WRITE_OUT)}).then(({ writeOut }) => writeOut("x".repeat(${TEXT_BYTES}) + "\\n"));`;
  return spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "pipe"] });
}

describe("writeOut", () => {
  it("writes all of a text larger than a pipe holds", async () => {
    const child = printer();
    let received = 0;
    child.stdout!.on("data", (chunk: Buffer) => (received += chunk.length));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(received).toBe(TEXT_BYTES + 1);
  });

  it("stops quietly when the reader has gone", async () => {
    const child = printer();
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.once("data", () => child.stdout!.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
