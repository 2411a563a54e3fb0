/**
 * Runs one script: TypeScript made JavaScript (sucrase strips the types), then run in a
 * QuickJS sandbox whose only way out is `caller`. A FIRST, MINIMAL VERSION: in process, on the
 * main thread. The sandbox work (scripts/sandbox/) moves it off the main thread and adds what
 * it must guarantee (limits, output caps, onElicit, line numbers); this interface stays.
 */
import { newQuickJSWASMModuleFromVariant, shouldInterruptAfterDeadline, type QuickJSHandle } from "quickjs-emscripten-core";
import { transform } from "sucrase";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import type { RunningScript, ScriptAnswer, ScriptCallRecord, ScriptEnvelope, ScriptLimits, ScriptServer, ScriptSource, ToolCaller } from "./types.js";

const PRELUDE = `
class ToolError extends Error {
  constructor(server, tool, message) { super(server + "." + tool + ": " + message); this.name = "ToolError"; this.server = server; this.tool = tool; }
}
const __show = (values) => values.map((v) => typeof v === "string" ? v : JSON.stringify(v)).join(" ");
const console = {
  log: (...v) => __print(1, __show(v)), info: (...v) => __print(1, __show(v)), debug: (...v) => __print(1, __show(v)),
  error: (...v) => __print(2, __show(v)), warn: (...v) => __print(2, __show(v)),
};
const textOf = (blocks) => (Array.isArray(blocks) ? blocks : []).filter((b) => b && b.type === "text").map((b) => b.text).join("\\n");
const __tool = (server, tool) => async (args) => {
  const answer = JSON.parse(await __call(server, tool, JSON.stringify(args === undefined ? {} : args)));
  if (answer.error) throw new ToolError(server, tool, answer.error);
  return answer.value;
};
`;

export async function startScript(source: ScriptSource, servers: readonly ScriptServer[], caller: ToolCaller, limits: ScriptLimits): Promise<RunningScript> {
  const QuickJS = await newQuickJSWASMModuleFromVariant(import("@jitl/quickjs-wasmfile-release-sync"));
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
  const context = runtime.newContext();
  const stopper = new AbortController();
  const calls: ScriptCallRecord[] = [];
  let output = "";
  let stderr = "";

  const print = context.newFunction("__print", (stream: QuickJSHandle, text: QuickJSHandle) => {
    const line = `${context.getString(text)}\n`;
    if (context.getNumber(stream) === 2) stderr += line;
    else output += line;
  });
  context.setProp(context.global, "__print", print);
  print.dispose();
  const call = context.newFunction("__call", (serverHandle: QuickJSHandle, toolHandle: QuickJSHandle, argsHandle: QuickJSHandle) => {
    const server = context.getString(serverHandle);
    const tool = context.getString(toolHandle);
    const args = JSON.parse(context.getString(argsHandle)) as unknown;
    const deferred = context.newPromise();
    const started = Date.now();
    const settle = (answer: { value?: unknown; error?: string }, outcome: ScriptCallRecord["outcome"]): void => {
      calls.push({ server, tool, durationMs: Date.now() - started, outcome });
      if (!deferred.alive) return;
      const text = context.newString(JSON.stringify(answer));
      deferred.resolve(text);
      text.dispose();
      runtime.executePendingJobs();
    };
    const structured = servers.find((s) => s.server === server)?.tools.find((t) => t.tool === tool)?.structured === true;
    caller(server, tool, isObject(args) ? args : {}, stopper.signal).then(
      (result) => {
        if (result.isError === true) settle({ error: firstText(result) }, "tool error");
        else settle({ value: structured && result.structuredContent !== undefined ? result.structuredContent : result.content }, "ok");
      },
      (error: unknown) => settle({ error: (error as Error).message }, "failed"),
    );
    return deferred.handle;
  });
  context.setProp(context.global, "__call", call);
  call.dispose();

  const globals = servers
    .map(
      (server) =>
        `const ${server.variable} = {${server.tools.map((tool) => `${tool.fn}: __tool(${JSON.stringify(server.server)}, ${JSON.stringify(tool.tool)})`).join(", ")}};`,
    )
    .join("\n");
  const js = source.language === "ts" ? transform(source.code, { transforms: ["typescript"], disableESTransforms: true }).code : source.code;
  const program = `${PRELUDE}\n${globals}\nconst args = ${JSON.stringify(source.args)};\n(async () => {\n${js}\n})()`;

  const done = (async (): Promise<ScriptEnvelope> => {
    const evaluated = context.evalCode(program, source.filename);
    if (evaluated.error) {
      const error = context.dump(evaluated.error) as { message?: string };
      evaluated.error.dispose();
      return { ok: false, output, stderr, calls, error: { kind: "thrown", message: String(error?.message ?? error) } };
    }
    const promise = context.resolvePromise(evaluated.value);
    evaluated.value.dispose();
    runtime.executePendingJobs();
    const settled = await promise;
    if (settled.error) {
      const error = context.dump(settled.error) as { message?: string; server?: string; tool?: string };
      settled.error.dispose();
      return {
        ok: false,
        output,
        stderr,
        calls,
        error: {
          kind: "thrown",
          message: String(error?.message ?? error),
          ...(error.server ? { server: error.server } : {}),
          ...(error.tool ? { tool: error.tool } : {}),
        },
      };
    }
    const value = context.dump(settled.value) as unknown;
    settled.value.dispose();
    return { ok: true, output, stderr, calls, ...(value === undefined ? {} : { value }) };
  })().finally(() => {
    stopper.abort();
    context.dispose();
    runtime.dispose();
  });

  return {
    done,
    handlesQuestions: false,
    offer: async (): Promise<ScriptAnswer | undefined> => undefined,
    stop: (reason: string) => stopper.abort(new Error(reason)),
  };
}

function firstText(result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content.find((block): block is { type: "text"; text: string } => isObject(block) && block.type === "text" && typeof block.text === "string");
  return text?.text ?? "the tool reported an error";
}
