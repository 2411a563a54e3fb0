/** What bounds mcpx's reading from one upstream connection. */
import type { Pressure } from "../rpc/pressure.js";

export interface ReadLimits {
  /** A message (a stdio line, a JSON body, an SSE event) over this many bytes is dropped and reported. */
  maxMessageBytes: number;
  /** The setting that sets `maxMessageBytes`, named when a message goes over it. */
  limitName: string;
  /** While blocked, the connection's incoming streams are not read: the host is not taking what they bring. */
  pressure?: Pressure;
}
