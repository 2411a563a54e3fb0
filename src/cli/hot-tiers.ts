/**
 * V8's compiler tiers for `mcpx ls` and `mcpx search` (issue 14). These commands run for a few
 * tens of milliseconds, and V8 optimising a loop that got hot (the edit distances over every
 * name, Node's own path joining, the word-vector closeness before it moved to WebAssembly)
 * cost more instructions than the rest of the ranking: about 55M of a search's 740M under
 * callgrind. So `runHot` turns TurboFan off from its start (the interpreter and the baseline
 * compiler stay; Node 22's Maglev too), and whatever runs long in such a command, building the
 * search index after the catalogue changed (seconds of BM25F, WordNet and vectors: 40% more CPU
 * without TurboFan), turns it back on first. `--turbofan` and not `--max-opt`: lowering
 * `--max-opt` also turns `--turbofan` off, and raising it again does not turn it back on. Set at
 * run time, not as a command-line flag, which would cost more than it saves (V8 refuses Node's
 * code cache under other flags). Only this process changes; the commands commander runs, the
 * daemon among them, never load this file.
 */
import { setFlagsFromString } from "node:v8";

/** No optimising compiler (TurboFan) from here on. */
export function baselineTiersOnly(): void {
  setFlagsFromString("--no-turbofan");
}

/** TurboFan again (V8's default), for long work. */
export function everyTier(): void {
  setFlagsFromString("--turbofan");
}
