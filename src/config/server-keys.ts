/** The keys of a server entry in mcpx's own config (a host's spellings, such as `serverUrl`, are read apart). */
export const SERVER_KEYS: readonly string[] = [
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "type",
  "transport",
  "protocol",
  "passthrough",
  "sharing",
  "timeoutSeconds",
  "disabled",
  "elicitation",
  "roots",
  "tools",
];
