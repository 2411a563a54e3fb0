import { readFileSync } from "node:fs";

/**
 * Is a process with this pid still running? (A process of another user counts as running.)
 * A zombie does not: a killed detached process (the runner of `mcpx call`) stays one until
 * init reaps it, which in a container without a reaping init may be never.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return !zombie(pid);
}

/** Linux: the state letter after the command name in /proc/<pid>/stat. Elsewhere: not known, so no. */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2) === "Z";
  } catch {
    return false;
  }
}
