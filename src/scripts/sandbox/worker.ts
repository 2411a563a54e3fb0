/**
 * A sandbox's worker thread (workers.ts starts it): loads QuickJS (its wasm compiled once per
 * worker) before any script arrives (the script comes made JavaScript: source.ts; a long one
 * is made JavaScript here), so a warm worker starts a run at once, then
 * runs exactly one script (engine.ts) and is ended by the main thread. Nothing the script does
 * reaches this thread's Node APIs: QuickJS has none of them, only the natives engine.ts gives it.
 */
import { parentPort, workerData } from "node:worker_threads";
import * as release from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";
import { DEFAULT_SCRIPT_LIMITS } from "../types.js";
import { EngineRun, type Prepared, prepare } from "./engine.js";
import type { FromWorker, ProgramRequest, RunRequest, ToWorker } from "./messages.js";
import { wrapScript } from "./program-text.js";
import { wasmMemory, type WorkerData } from "./wasm-memory.js";

const port = parentPort;
if (!port) throw new Error("the sandbox worker runs only as a worker thread");
const post = (message: FromWorker): void => port.postMessage(message);

const loaded = (async (): Promise<Prepared> => {
  const { memoryBytes } = workerData as WorkerData;
  // The package's types read as CommonJS; what Node loads is its ES module, whose default is the variant.
  const base = (release as unknown as { default: QuickJSSyncVariant }).default;
  const module = await newQuickJSWASMModuleFromVariant(newVariant(base, { wasmMemory: wasmMemory(memoryBytes) as never }));
  warmUp(module);
  const prepared = prepare(module);
  post({ type: "ready" });
  return prepared;
})();

/**
 * One throwaway run before the real one: the first run through QuickJS's wasm costs tens of
 * milliseconds that a warm worker should not make its run pay.
 */
const WARM_UP = "const n = 1;\nconsole.log(textOf([]), args.length);\nreturn { n };";

function warmUp(module: QuickJSWASMModule): void {
  const request: ProgramRequest = {
    source: { code: WARM_UP, language: "js", filename: "warm-up.js", args: [] },
    program: { ok: true, code: wrapScript(WARM_UP) },
    servers: [],
    limits: { ...DEFAULT_SCRIPT_LIMITS, callArgsBytes: 1024, callResultBytes: 1024 },
    startedAt: Date.now(),
  };
  const prepared = prepare(module);
  new EngineRun(prepared, request, () => {}).start();
  prepared.runtime.setInterruptHandler(() => true);
}

/** A long source comes as it is (run-script.ts): made JavaScript here, sucrase loaded for it alone. */
async function withProgram(request: RunRequest): Promise<ProgramRequest> {
  if (request.program) return { ...request, program: request.program };
  const { programOf } = await import("./source.js");
  return { ...request, program: programOf(request.source) };
}

let run: EngineRun | undefined;
port.on("message", (message: ToWorker) => {
  switch (message.type) {
    case "run":
      void loaded.then(async (prepared) => {
        run = new EngineRun(prepared, await withProgram(message.request), post);
        run.start();
      });
      return;
    case "result":
      run?.result(message);
      return;
    case "offer":
      if (run) run.offer(message.id, message.question);
      else post({ type: "answer", id: message.id });
      return;
    case "hold":
      run?.hold();
      return;
    case "resume":
      run?.resume(message.deadline);
      return;
  }
});
