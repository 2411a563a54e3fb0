/**
 * A person's machine in a temp dir for `mcpx import`/`install` runs: HOME (where the hosts'
 * user-level files live), a project folder to run from, and the real mcpx binary run there.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { MCPX_BIN } from "./mcpx.js";

const run = promisify(execFile);

export interface Machine {
  root: string;
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
  /** Writes `doc` (JSON) at `file` (under home or project), creating folders, with `mode`. */
  write(file: string, doc: unknown, mode?: number): string;
  mcpx(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  remove(): void;
}

export function machine(): Machine {
  const root = mkdtempSync(path.join(tmpdir(), "mcpx-machine-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  mkdirSync(home);
  mkdirSync(project);
  // Only what mcpx needs: no variable of the real person's leaks into the run.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, MCPX_STATE_DIR: path.join(root, "state") };
  return {
    root,
    home,
    project,
    env,
    write(file, doc, mode = 0o644) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, typeof doc === "string" ? doc : JSON.stringify(doc, null, 2), { mode });
      return file;
    },
    async mcpx(...args) {
      try {
        const { stdout, stderr } = await run(process.execPath, [MCPX_BIN, ...args], { cwd: project, env, timeout: 30_000 });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const e = error as { code?: number; stdout?: string; stderr?: string };
        return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
      }
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
