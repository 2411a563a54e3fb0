/**
 * The top-level `envFile` of mcpx's own config: a dotenv file (relative to the config's folder)
 * whose variables the config's `${NAME}` references can use, so secrets live beside the config
 * in a file only you can read rather than in it (what `mcpx import --move-secrets` writes).
 * The environment wins over the file, as it does over a server's `envFile`.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isObject } from "./check.js";
import { parseDotenv } from "./dotenv.js";
import type { Env } from "./env.js";
import { ConfigError } from "./errors.js";

export interface ConfigEnv {
  env: Env;
  /** Said once: the file is readable by others. */
  warnings: string[];
}

/** `env` with the variables of the document's `envFile` beneath it (the document is not yet substituted). */
export function configEnv(raw: unknown, file: string, env: Env): ConfigEnv {
  if (!isObject(raw) || !Object.hasOwn(raw, "envFile")) return { env, warnings: [] };
  const given = raw.envFile;
  if (typeof given !== "string" || given === "" || given.includes("${")) {
    throw new ConfigError(`${file}: envFile must be a path to a dotenv file, without \${...} (got ${JSON.stringify(given)})`);
  }
  const envFile = path.resolve(path.dirname(path.resolve(file)), given);
  let text: string;
  try {
    text = readFileSync(envFile, "utf8");
  } catch (err) {
    throw new ConfigError(`${file}: envFile names ${envFile}, which cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  const { vars, bad } = parseDotenv(text);
  if (bad.length > 0) throw new ConfigError(`${file}: envFile names ${envFile}, whose line ${bad.join(", ")} is not NAME=value`);
  const mode = statSync(envFile).mode & 0o777;
  const warnings =
    process.platform !== "win32" && (mode & 0o077) !== 0
      ? [`${envFile}: holds the config's variables and is readable by others (mode 0${mode.toString(8)}); chmod 600 it`]
      : [];
  return { env: layered(env, vars), warnings };
}

/** Reads `env` first, then `vars`; `env` may be a Proxy (every variable "set"), so no copying. */
function layered(env: Env, vars: Record<string, string>): Env {
  return new Proxy(
    {},
    {
      get: (_, name) => (typeof name === "string" ? (env[name] ?? (Object.hasOwn(vars, name) ? vars[name] : undefined)) : undefined),
    },
  );
}
