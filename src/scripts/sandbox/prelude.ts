/**
 * What a script sees besides the language itself, as JavaScript run inside QuickJS before the
 * script: the server objects, `args`, `console`, `textOf`, `ToolError`, `onElicit`,
 * `setTimeout`/`clearTimeout`. It is a function the engine calls with `host` (the few native
 * functions that leave the sandbox) and returns the hooks the engine keeps; nothing of `host`
 * is left where the script can reach it. A script may overwrite anything here (JSON, the
 * prototypes): that only breaks its own run, because the other side checks everything that
 * comes out as plain JSON (sandbox-run.ts).
 */
export const PRELUDE_FILENAME = "<mcpx>";

/** Pending setTimeout callbacks a script may have at once. */
export const MAX_TIMERS = 10_000;

export const PRELUDE = `(function (host, serversJson, argsJson) {
  "use strict";
  const g = globalThis;
  const stringify = JSON.stringify, parse = JSON.parse, define = Object.defineProperty, isArray = Array.isArray;
  const ErrorType = Error, TypeErrorType = TypeError, RangeErrorType = RangeError, MapType = Map, SetType = Set;
  const arrayFrom = Array.from, fromEntries = Object.fromEntries;

  // JSON that never throws on a cycle, a BigInt or an Error; what cannot be shown is named.
  function replacer() {
    const ancestors = [];
    return function (key, value) {
      if (typeof value === "bigint") return String(value) + "n";
      if (typeof value === "function") return "[Function" + (value.name ? ": " + value.name : "") + "]";
      if (typeof value === "symbol") return String(value);
      if (typeof value !== "object" || value === null) return value;
      while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
      if (ancestors.includes(value)) return "[Circular]";
      ancestors.push(value);
      if (value instanceof ErrorType) return { name: value.name, message: value.message };
      if (value instanceof MapType) return fromEntries(arrayFrom(value.entries()));
      if (value instanceof SetType) return arrayFrom(value.values());
      return value;
    };
  }
  function json(value) {
    return stringify(value, replacer());
  }
  function show(value) {
    if (typeof value === "string") return value;
    if (value instanceof ErrorType) return String(value.name) + ": " + String(value.message);
    try {
      const text = json(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      return "[" + typeof value + " that cannot be shown]";
    }
  }
  // Once a stream is full, what more is printed is only counted here (a flood costs no crossing).
  const full = [false, false, false];
  const ascii = /^[\x00-\x7f]*$/;
  function utf8Bytes(text) {
    if (ascii.test(text)) return text.length;
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x80) bytes += 1;
      else if (code < 0x800) bytes += 2;
      else if (code >= 0xd800 && code < 0xdc00) { bytes += 4; i++; }
      else bytes += 3;
    }
    return bytes;
  }
  function printer(stream) {
    return function (...values) {
      const text = values.map(show).join(" ");
      if (full[stream]) hooks["dropped" + stream] += utf8Bytes(text) + 1;
      else full[stream] = host.print(stream, text) === true;
    };
  }

  class ToolError extends ErrorType {
    constructor(server, tool, message, callSite) {
      super(String(server) + "." + String(tool) + ": " + String(message));
      this.name = "ToolError";
      this.server = String(server);
      this.tool = String(tool);
      // Where the script made the call: after the await, its own line is no longer on the stack.
      define(this, "callSite", { value: typeof callSite === "string" ? callSite : "", enumerable: false });
    }
  }

  function toolFunction(server, tool) {
    return async function (args) {
      const callSite = new ErrorType().stack;
      if (args === undefined) args = {};
      if (typeof args !== "object" || args === null || isArray(args)) throw new TypeErrorType(server + "." + tool + ": the arguments must be an object");
      const text = stringify(args);
      const answer = await host.call(server, tool, text);
      if (answer[0] === "v") return answer.length > 1 ? parse(answer.slice(1)) : undefined;
      throw new ToolError(server, tool, answer.slice(1), callSite);
    };
  }

  let handler;
  function onElicit(fn) {
    if (typeof fn !== "function") throw new TypeErrorType("onElicit needs a function");
    if (handler === undefined) host.handles();
    handler = fn;
  }
  async function offer(questionJson) {
    if (handler === undefined) return undefined;
    try {
      const answer = await handler(parse(questionJson));
      return answer === undefined || answer === null ? undefined : json(answer);
    } catch (error) {
      host.print(2, "onElicit: the handler threw (" + show(error) + "); the question goes on to be answered elsewhere");
      return undefined;
    }
  }

  const hooks = { offer, json, dropped1: 0, dropped2: 0 };

  let lastTimer = 0;
  const timers = new MapType();
  function setTimeout(fn, ms, ...rest) {
    if (typeof fn !== "function") throw new TypeErrorType("setTimeout needs a function");
    if (timers.size >= ${MAX_TIMERS}) throw new RangeErrorType("more than ${MAX_TIMERS} timers pending");
    const id = ++lastTimer;
    timers.set(id, true);
    (async function () {
      await host.sleep(Number(ms) || 0);
      if (!timers.delete(id)) return;
      try {
        fn(...rest);
      } catch (error) {
        host.uncaught(error);
      }
    })();
    return id;
  }
  function clearTimeout(id) {
    timers.delete(id);
  }

  function textOf(blocks) {
    return (isArray(blocks) ? blocks : [])
      .filter((block) => block && block.type === "text" && typeof block.text === "string")
      .map((block) => block.text)
      .join("\\n");
  }

  const console = {
    log: printer(1), info: printer(1), debug: printer(1), trace: printer(1),
    error: printer(2), warn: printer(2),
  };
  const globals = { console, textOf, ToolError, onElicit, setTimeout, clearTimeout, args: parse(argsJson) };
  for (const server of parse(serversJson)) {
    const methods = {};
    for (const tool of server.tools) methods[tool.fn] = toolFunction(server.server, tool.tool);
    globals[server.variable] = methods;
  }
  for (const name of Object.keys(globals)) {
    try {
      define(g, name, { value: globals[name], writable: true, configurable: true, enumerable: false });
    } catch (error) {
      // a name the language keeps (NaN, undefined): that server cannot be a global
    }
  }
  return hooks;
})`;
