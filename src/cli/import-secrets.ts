/**
 * The literal secrets of imported servers: named on stderr with the variables they could
 * become, or (`--move-secrets`) replaced by `${VAR}` references whose values go into a 0600
 * dotenv file that the config's top-level `envFile` names.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dotenvLine, parseDotenv } from "../config/dotenv.js";
import type { Env } from "../config/env.js";
import { formatPath, type KeyPath } from "../config/keypath.js";
import { literalSecrets, variableName } from "../config/literal-secrets.js";
import type { Carried } from "./host-servers.js";

export interface PlannedSecret {
  server: string;
  source: string;
  at: KeyPath;
  value: string;
  /** The variable it becomes: free in the dotenv file and the environment, or already holding this value. */
  name: string;
  replace: (current: string, reference: string) => string;
}

/** Where the secrets go: the config's own `envFile` if it names one, else `.env` beside it. */
export function envFileOf(configDoc: unknown, configFile: string): string {
  const named = (configDoc as { envFile?: unknown } | undefined)?.envFile;
  return path.resolve(path.dirname(configFile), typeof named === "string" && named !== "" ? named : ".env");
}

/** Every literal secret of `carried`, each with a variable name that does not clash. */
export function planSecrets(carried: Carried[], envFile: string, env: Env): PlannedSecret[] {
  const existing = existsSync(envFile) ? parseDotenv(readFileSync(envFile, "utf8")).vars : {};
  const taken = new Map<string, string>(Object.entries(existing));
  const planned: PlannedSecret[] = [];
  for (const { name: server, entry, source } of carried) {
    for (const secret of literalSecrets(server, entry)) {
      // A name is free when nothing holds another value under it: the file, this import, or the
      // environment (which wins over the file when mcpx runs, so it would replace the secret).
      const fits = (name: string) => (taken.get(name) ?? secret.value) === secret.value && (env[name] ?? secret.value) === secret.value;
      const prefixed = secret.suggested.startsWith(`${variableName(server)}_`) ? secret.suggested : variableName(server, secret.suggested);
      let name = fits(secret.suggested) ? secret.suggested : prefixed;
      for (let n = 2; !fits(name); n++) name = `${prefixed}_${n}`;
      taken.set(name, secret.value);
      planned.push({ server, source, at: secret.at, value: secret.value, name, replace: secret.replace });
    }
  }
  return planned;
}

/** `carried` with each planned secret replaced by its `${NAME}` reference. */
export function withReferences(carried: Carried[], planned: PlannedSecret[]): Carried[] {
  return carried.map((server) => {
    const entry = structuredClone(server.entry);
    for (const secret of planned.filter((p) => p.server === server.name)) {
      const [key, inner] = secret.at;
      const holder = (inner === undefined ? entry : entry[key as string]) as Record<string | number, unknown>;
      const slot = inner === undefined ? (key as string) : inner;
      holder[slot] = secret.replace(String(holder[slot]), `\${${secret.name}}`);
    }
    return { ...server, entry };
  });
}

/** Where each secret is and what it would be called, without its value. */
export function describeSecrets(planned: PlannedSecret[]): string {
  return planned.map((s) => `  ${formatPath(["mcpServers", s.server, ...s.at])} (as \${${s.name}})`).join("\n");
}

/**
 * Adds the planned variables that `envFile` does not have yet (keeping its lines), and makes it
 * 0600. @returns what to tell the person about the file's mode, if it changed.
 */
export function writeEnvFile(envFile: string, planned: PlannedSecret[], sources: string[]): string | undefined {
  const before = existsSync(envFile) ? readFileSync(envFile, "utf8") : "";
  const has = parseDotenv(before).vars;
  const lines = [...new Map(planned.filter((s) => has[s.name] !== s.value).map((s) => [s.name, dotenvLine(s.name, s.value)])).values()];
  if (lines.length > 0) {
    const head = before === "" || before.endsWith("\n") ? before : `${before}\n`;
    writeFileSync(envFile, `${head}# from ${sources.join(", ")} (mcpx import --move-secrets)\n${lines.join("\n")}\n`, { mode: 0o600 });
  }
  return tighten(envFile);
}

/** Clears the group and other bits of a file holding secrets. @returns a line saying so, if it did. */
export function tighten(file: string): string | undefined {
  if (process.platform === "win32" || !existsSync(file)) return undefined;
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  const tight = mode & 0o700;
  chmodSync(file, tight);
  return `${file} holds secrets and was readable by others; now 0${tight.toString(8)}`;
}
