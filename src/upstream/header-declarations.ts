/**
 * A 2026-07-28 upstream's tools with a wrong `x-mcp-header` declaration are left out of its
 * catalogue (SEP-2243: a client MUST reject such a tool; mcpx could not send the headers the
 * server expects), each with a warning naming why; the other tools stay. Hosts never see such
 * a tool, and a call naming it (`mcpx call`) is refused without reaching the server.
 */
import { ErrorCode, isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { RpcError } from "../protocol/errors.js";
import { headerDeclarationProblem } from "../protocol/modern-headers.js";
import type { Logger } from "../util/log.js";

export class BadHeaderTools {
  /** Tool name → why it was left out, for the tools of the latest listing. */
  readonly #leftOut = new Map<string, string>();

  constructor(
    private readonly server: string,
    private readonly log: Logger,
  ) {}

  /** One page of `tools/list` without its badly declared tools; the first page starts a new listing. */
  filter(params: JsonObject | undefined, result: JsonObject): JsonObject {
    if (params?.cursor === undefined) this.#leftOut.clear();
    const tools = result.tools;
    if (!Array.isArray(tools)) return result;
    const kept = tools.filter((tool) => {
      const problem = isObject(tool) ? headerDeclarationProblem(tool.inputSchema) : undefined;
      if (!problem) return true;
      this.#leftOut.set(String(tool.name), problem);
      this.log.warn("left out a tool whose input schema declares x-mcp-header wrongly", { tool: tool.name, problem });
      return false;
    });
    return kept.length === tools.length ? result : { ...result, tools: kept };
  }

  /** The refusal of a `tools/call` naming a tool that was left out, if it names one. */
  refusal(params: JsonObject | undefined): RpcError | undefined {
    const name = params?.name;
    const problem = typeof name === "string" ? this.#leftOut.get(name) : undefined;
    if (problem === undefined) return undefined;
    return new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: tool "${String(name)}" of server "${this.server}" is left out, its input schema declares x-mcp-header wrongly (${problem})`,
    );
  }
}
