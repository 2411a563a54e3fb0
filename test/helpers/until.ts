/** Wait until `condition` holds, checking it as things change on disk or elsewhere (bounded: fails with `what` after `timeoutMs`). */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let holds = false;
    try {
      holds = await condition();
    } catch {
      holds = false; // not there yet (a file being written): look again
    }
    if (holds) return;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
