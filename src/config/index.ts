/** The configuration loader: find the file, read it, get a typed `Config` or a `ConfigError`. */
export { ConfigError } from "./errors.js";
export { type Env, substituteEnv } from "./env.js";
export { parseJsonc } from "./jsonc.js";
export { type CheckedConfig, checkConfig, configFromObject, defaultConfig, DEFAULTS_FILE, findConfigPath, loadConfig, readConfig } from "./load.js";
export type { Config, ElicitationMode, ProtocolChoice, ServerConfig, TransportChoice } from "./types.js";
