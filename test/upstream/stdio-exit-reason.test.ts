/**
 * A stdio server that exits at once is down with its exit's reason whichever mcpx sees first:
 * the pipe closing under a write, or the process's exit. The servers here close their stdin and
 * exit only when told to (SIGUSR2) after mcpx has written, so that the write fails (EPIPE) before
 * the exit, every time: the order a loaded machine gives at random (seen once in a fresh-clone
 * `npm test`, why-down.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ServerConfig } from "../../src/config/types.js";
import { Peer } from "../../src/rpc/peer.js";
import { openConnection } from "../../src/upstream/handshake.js";
import { StdioChannel } from "../../src/upstream/stdio-channel.js";
import { silentLogger } from "../../src/util/log.js";

const LIMITS = { maxMessageBytes: 1 << 20, limitName: "limits.maxUpstreamMessageBytes" };

/** Node code that closes its stdin and says so on stderr; on SIGUSR2 it writes `error` and exits 1 (without `error`, it lives on). */
function closesStdin(error?: string): string[] {
  const onSignal = error === undefined ? "" : `process.on('SIGUSR2', () => { console.error(${JSON.stringify(error)}); process.exit(1); });`;
  return ["-e", `${onSignal} setInterval(() => {}, 1000); require('node:fs').closeSync(0); console.error('stdin closed');`];
}

/** Tells a process of `closesStdin` to exit. */
function exitNow(channel: StdioChannel): void {
  process.kill(channel.pid!, "SIGUSR2");
}

function stdioConfig(name: string, args: string[]): ServerConfig {
  return {
    name,
    kind: "stdio",
    command: process.execPath,
    args,
    env: {},
    cwd: process.cwd(),
    headers: {},
    transport: "auto",
    protocol: "auto",
    passthrough: false,
    sharing: "shared",
    timeoutSeconds: 60,
    disabled: false,
    elicitation: {},
  };
}

function channelFor(config: ServerConfig): StdioChannel {
  return new StdioChannel({ command: config.command ?? "", args: config.args, env: config.env, cwd: config.cwd }, silentLogger, LIMITS);
}

/** Resolves once the channel's process has written `line` to stderr. */
function heard(channel: StdioChannel, line: string): Promise<void> {
  return new Promise((resolve) => {
    channel.onstderr = (text) => {
      if (text === line) resolve();
    };
  });
}

const PING = { jsonrpc: "2.0" as const, id: 1, method: "ping" };

describe("a stdio server whose pipe closes before mcpx sees it exit", () => {
  const channels: StdioChannel[] = [];
  afterEach(async () => {
    await Promise.all(channels.splice(0).map((channel) => channel.close()));
  });

  it("refuses a write with the exit's reason and the line that says what is wrong, not the broken pipe", async () => {
    const channel = channelFor(stdioConfig("quitter", closesStdin("Error: Cannot find module '/x/server.js'")));
    channels.push(channel);
    const closed = heard(channel, "stdin closed");
    await channel.start();
    await closed;
    const refused = channel.send(PING); // the write fails here (EPIPE), before the process exits
    exitNow(channel);
    const reason = "the server process exited with code 1: Error: Cannot find module '/x/server.js'";
    await expect(refused).rejects.toThrow(reason);
    // Once told, a later write is refused with the same reason, at once.
    await expect(channel.send(PING)).rejects.toThrow(reason);
  });

  it("fails the handshake with that reason (the probe's write broke first, and initialize found the pipe gone)", async () => {
    const config = stdioConfig("quitter-handshake", closesStdin("ModuleNotFoundError: No module named 'mcp'"));
    let channel: StdioChannel | undefined;
    const opened = openConnection({
      config,
      log: silentLogger,
      startupTimeoutMs: 10_000,
      signal: new AbortController().signal,
      readLimits: LIMITS,
      peerOn: (made) => {
        const stdio = made as StdioChannel;
        channels.push(stdio);
        // The probe is written only once the process has closed its stdin: the order a loaded machine may give.
        const closed = heard(stdio, "stdin closed");
        const start = stdio.start.bind(stdio);
        stdio.start = async () => {
          await start();
          await closed;
          // A timer runs after the probe's write, which follows the start at once.
          setTimeout(() => exitNow(stdio), 10);
        };
        channel = stdio;
        return new Peer(made, { request: async () => ({}), notification: () => {} }, silentLogger);
      },
      onStderr: () => {},
      toolFor: () => undefined,
      trying: () => {},
      heard: () => {},
    });
    await expect(opened).rejects.toThrow("the server process exited with code 1: ModuleNotFoundError: No module named 'mcp'");
    expect(channel).toBeDefined();
  });

  it("is still reported, after a short bound, when the process closed its stdin and does not exit", async () => {
    const channel = channelFor(stdioConfig("deaf", closesStdin()));
    channels.push(channel);
    const closed = heard(channel, "stdin closed");
    await channel.start();
    await closed;
    const started = Date.now();
    await expect(channel.send(PING)).rejects.toThrow(/^the server process does not read its stdin/);
    const waited = Date.now() - started;
    expect(waited).toBeLessThan(5_000);
    // The next write does not wait again.
    const again = Date.now();
    await expect(channel.send(PING)).rejects.toThrow(/^the server process does not read its stdin/);
    expect(Date.now() - again).toBeLessThan(500);
    process.kill(channel.pid!, "SIGKILL"); // spares the close its grace periods
  });
});
