/**
 * The memory QuickJS lives in, with a maximum: the fence that holds. QuickJS's own memory limit
 * (setMemoryLimit) undercounts in this WebAssembly build (strings pass it), so a worker's wasm
 * memory may grow only to the run's memory limit beyond what QuickJS starts with; past it an
 * allocation fails and the script gets "out of memory", cleanly, instead of the process's RSS
 * growing by gigabytes.
 */

/** What a worker is started with. */
export interface WorkerData {
  /** The memory limit of the runs this worker is for. */
  memoryBytes: number;
}

const PAGE = 64 * 1024;
/** What QuickJS's build starts with (its static data and stack, two runtimes made ahead). */
export const BASE_BYTES = 16 * 1024 * 1024;

/** A WebAssembly.Memory (the lib this compiles against has no WebAssembly types: Node has the global). */
export function wasmMemory(memoryBytes: number): object {
  const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => object } }).WebAssembly;
  return new Memory({ initial: BASE_BYTES / PAGE, maximum: Math.ceil((BASE_BYTES + memoryBytes) / PAGE) });
}
