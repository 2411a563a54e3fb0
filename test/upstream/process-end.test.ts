/** ProcessEnd: one reason for a stdio server's end, whether a refused write or the exit is heard first. */
import { describe, expect, it } from "vitest";
import { ProcessEnd } from "../../src/upstream/process-end.js";

describe("ProcessEnd", () => {
  it("gives a write refused before the exit was seen the exit's reason, once it is told", async () => {
    const end = new ProcessEnd();
    end.heard("node:internal/modules/cjs/loader:1210");
    // The bad order: the pipe broke first, then the exit, then the rest of stderr.
    const refused = end.whyGone(5_000);
    end.exited(1, null);
    end.heard("Error: Cannot find module '/x/y.js'");
    end.heard("    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)");
    const told = end.tell();
    expect(told.message).toBe("the server process exited with code 1: Error: Cannot find module '/x/y.js'");
    expect(await refused).toBe(told);
    expect(await end.whyGone(5_000)).toBe(told);
  });

  it("says nothing after its bound when no exit is told, and a later sender does not wait again", async () => {
    const end = new ProcessEnd();
    const started = Date.now();
    expect(await end.whyGone(50)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    const again = Date.now();
    expect(await end.whyGone(5_000)).toBeUndefined();
    expect(Date.now() - again).toBeLessThan(1_000);
    // An exit told after all is given from then on.
    end.exited(null, "SIGKILL");
    end.tell();
    expect((await end.whyGone(5_000))?.message).toBe("the server process was killed by SIGKILL");
  });

  it("quotes no error line written long before the exit: it is not its cause", () => {
    const end = new ProcessEnd();
    end.heard("Error: a warning it got over");
    for (let i = 0; i < 25; i++) end.heard(`serving request ${i}`);
    end.exited(2, null);
    expect(end.tell().message).toBe("the server process exited with code 2");
  });
});
