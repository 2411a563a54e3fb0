/**
 * A step to run whenever something changed, one run at a time: a change heard while it runs
 * makes one more run after it (however many came), never two at once. For readers that look at
 * the store again on each change it reports.
 */
export function coalesced(step: () => Promise<void>, failed: (error: unknown) => void): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    step()
      .catch(failed)
      .finally(() => {
        running = false;
        if (!again) return;
        again = false;
        run();
      });
  };
  return run;
}
