/**
 * A config file's text made into the document the config reader checks, with every host
 * reader at hand (document.ts has the parsing; read-config.ts loads a reader only when needed).
 */
import { configDocument, type ConfigDocument, parseDocument } from "./document.js";
import { HOST_READERS } from "./host-readers.js";

export { type ConfigDocument, type Syntax, syntaxOf } from "./document.js";

/** @throws ConfigError for a syntax error, naming the file, line and column. */
export function readDocument(text: string, file: string): ConfigDocument {
  const parsed = parseDocument(text, file);
  return configDocument(parsed, file, parsed.host ? HOST_READERS[parsed.host] : undefined);
}
