/**
 * Structured logging to stderr (stdout is the protocol in stdio mode).
 * One JSON object per line: time, level, msg, and whatever fields the caller adds
 * (server, session, call and question ids).
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export type LogSink = (line: string) => void;

function levelFromEnv(): LogLevel {
  const value = process.env.MCPX_LOG_LEVEL;
  return value === "debug" || value === "info" || value === "warn" || value === "error" ? value : "info";
}

export function createLogger(
  base: Record<string, unknown> = {},
  minimum: LogLevel = levelFromEnv(),
  sink: LogSink = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (ORDER[level] < ORDER[minimum]) return;
    const record = { time: new Date().toISOString(), level, msg, ...base, ...fields };
    try {
      sink(JSON.stringify(record, errorReplacer));
    } catch {
      // A log line must never take the process down (a closed stderr, a cyclic field).
    }
  };
  return {
    debug: (msg, fields) => write("debug", msg, fields),
    info: (msg, fields) => write("info", msg, fields),
    warn: (msg, fields) => write("warn", msg, fields),
    error: (msg, fields) => write("error", msg, fields),
    child: (fields) => createLogger({ ...base, ...fields }, minimum, sink),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

/** A logger that drops everything; for tests and library use. */
export const silentLogger: Logger = createLogger({}, "error", () => {});
