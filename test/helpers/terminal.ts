/**
 * Running a command on a pseudo-terminal with `script` (util-linux), for tests of what mcpx
 * does when a person sits at a terminal.
 */
import { spawn, spawnSync } from "node:child_process";

/**
 * A command on a pseudo-terminal (`script`): what is written to its stdin is typed on the
 * terminal; `expectThen` waits (bounded) for text after everything matched so far, then types.
 */
export function onTerminal(command: string[], env: NodeJS.ProcessEnv) {
  const line = command.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(" ");
  const child = spawn("script", ["-qfec", line, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let output = "";
  let consumed = 0;
  const waiters: Array<() => void> = [];
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const waiter of waiters.splice(0)) waiter();
  });
  const expectThen = (text: string, type?: string, timeoutMs = 15_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never saw ${JSON.stringify(text)}; output:\n${output.slice(consumed)}`)), timeoutMs);
      const check = (): void => {
        const at = output.indexOf(text, consumed);
        if (at < 0) return void waiters.push(check);
        clearTimeout(timer);
        consumed = at + text.length;
        if (type !== undefined) child.stdin.write(type);
        resolve();
      };
      check();
    });
  return { child, exited, expectThen, output: () => output };
}

/** Is `script` (util-linux) here to give a command a terminal? */
export function hasScript(): boolean {
  return spawnSync("script", ["--version"], { stdio: "ignore", timeout: 5_000 }).status === 0;
}
