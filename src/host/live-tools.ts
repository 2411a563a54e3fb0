/** The tools a gateway's running upstreams offer now, as `mcpx tools --live` lists them, and the servers that are not up. */
import type { Gateway } from "./gateway.js";

export interface LiveTool {
  /** The name hosts call it by. */
  name: string;
  server: string;
  /** The name the server itself gives it. */
  tool: string;
  description: string | null;
}

export interface NotUp {
  name: string;
  state: string;
  reason?: string;
}

export function liveTools(gateway: Gateway): { tools: LiveTool[]; notUp: NotUp[] } {
  const tools = gateway.catalogue.tools.map((item) => {
    const name = String(item.name);
    const owned = gateway.catalogue.tool(name);
    return { name, server: owned?.server ?? "", tool: owned?.original ?? name, description: typeof item.description === "string" ? item.description : null };
  });
  const notUp = gateway.upstreams
    .filter((upstream) => upstream.state !== "ready" && upstream.state !== "disabled")
    .map((upstream) => ({ name: upstream.name, state: upstream.state, ...(upstream.reason ? { reason: upstream.reason } : {}) }));
  return { tools, notUp };
}
