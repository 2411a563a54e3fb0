/**
 * Wrap an SDK client transport (1.x or 2.x) so a test sees every frame the server sent it,
 * with the method of the request each result answers (for schema validation).
 */
export interface Received {
  frame: Record<string, unknown>;
  requestMethod?: string;
}

interface TransportLike {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  onmessage?: ((message: never, extra?: never) => void) | undefined;
}

export function recording<T extends TransportLike>(transport: T, received: Received[]): T {
  const methods = new Map<unknown, string>();
  const send = transport.send.bind(transport);
  transport.send = (message: unknown, options?: unknown) => {
    const frame = message as { id?: unknown; method?: unknown };
    if (frame.id !== undefined && typeof frame.method === "string") methods.set(frame.id, frame.method);
    return send(message as never, options as never);
  };
  // Whoever sets onmessage (the SDK may set it again after its version probe) gets it wrapped.
  let handler: ((message: unknown, extra?: unknown) => void) | undefined;
  const wrapped = (message: Record<string, unknown>, extra?: unknown): void => {
    const method = "method" in message ? undefined : methods.get(message.id);
    received.push({ frame: message, ...(method ? { requestMethod: method } : {}) });
    handler?.(message, extra);
  };
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => (handler ? wrapped : undefined),
    set: (value: typeof handler) => {
      handler = value;
    },
  });
  return transport;
}
