/** Whether an entry is mcpx itself (what `mcpx install` writes), which must not run under mcpx. */
export function runsMcpx(name: string, entry: Record<string, unknown>): boolean {
  if (name === "mcpx") return true;
  const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].filter((w): w is string => typeof w === "string");
  return words.some((w) => /(^|[\\/])mcpx(\.js)?$/.test(w)) && words.includes("serve");
}
