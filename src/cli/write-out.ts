/**
 * What the hot commands print (`--version`, `ls`, `search`), written to file descriptor 1
 * directly: creating `process.stdout` costs about a tenth of Node's start (9M instructions),
 * more than printing. A write that cannot complete at once (a non-blocking pipe that is full)
 * goes on through `process.stdout`, which waits for it; a reader that has gone (`| head -1`)
 * ends the output quietly, as the stream's writes would not.
 */
import { writeSync } from "node:fs";

export function writeOut(text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EPIPE") return;
    if (code !== "EAGAIN") throw error;
    process.stdout.write(bytes.subarray(written));
  }
}
