/**
 * `--typecheck`: the script checked against the client's declarations (the tools of the
 * schema cache, with their schemas; what `mcpx client` writes) before anything runs. Problems
 * are printed `FILE:LINE:COL message`, and the command exits 2 (usage): nothing ran.
 */
import type { Config } from "../config/types.js";
import { allTools } from "../discovery/cache-read.js";
import { clientDeclarations } from "../scripts/client-declarations.js";
import { problemLine, typecheckScript } from "../scripts/typecheck.js";
import type { ScriptSource } from "../scripts/types.js";
import { discoveryView } from "./discovery-view.js";
import { Exit } from "./exit.js";
import { inert } from "./inert.js";

/** Exit.Usage when the script has problems (each printed on stderr), undefined when it type-checks. */
export async function typecheckBeforeRun(config: Config, source: ScriptSource, options: { cached?: boolean }): Promise<number | undefined> {
  if (source.language !== "ts") {
    // A JavaScript script has no types to check: every parameter would be an implicit any.
    process.stderr.write(`mcpx: --typecheck checks TypeScript; ${inert(source.filename)} is JavaScript, so it runs unchecked\n`);
    return undefined;
  }
  const view = await discoveryView(config, { cached: options.cached === true, schemas: true });
  const serverDescriptions = Object.fromEntries(view.servers.filter((server) => server.description).map((server) => [server.server, server.description]));
  const declarations = clientDeclarations(allTools(view), { serverDescriptions });
  const problems = await typecheckScript(source.code, declarations, source.filename);
  if (problems.length === 0) return undefined;
  for (const problem of problems) process.stderr.write(`${inert(problemLine(source.filename, problem))}\n`);
  process.stderr.write(`mcpx: ${problems.length} type ${problems.length === 1 ? "error" : "errors"} in ${inert(source.filename)}; nothing ran\n`);
  return Exit.Usage;
}
