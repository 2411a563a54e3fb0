#!/usr/bin/env node
// mcpx as the *client* under the conformance suite's client mode. The harness runs
// `<this script> <mock-server-url>` with MCP_CONFORMANCE_SCENARIO set; we name the URL as the
// upstream "scenario" in a throwaway config and run the mcpx command that exercises it.
// Exits with mcpx's exit code, so the harness sees mcpx's own verdict.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MCPX_BIN = fileURLToPath(new URL('../../bin/mcpx.js', import.meta.url));

/** What mcpx runs for each scenario. */
const COMMANDS = {
  // Exit 0 only when the upstream completed the handshake and is ready.
  initialize: ['servers', '--json'],
  tools_call: ['call', 'scenario.add_numbers', '{"a":2,"b":3}'],
  // The mock closes the call's SSE stream after a priming event; mcpx must resume with GET.
  'sse-retry': ['call', 'scenario.test_reconnection', '{}'],
  // The mock elicits a form whose every field has a default; a policy rule accepts the defaults.
  'elicitation-sep1034-client-defaults': ['call', 'scenario.test_client_elicitation_defaults', '{}'],
};

/** Extra `elicitation` settings for the scenarios that need them. */
const ELICITATION = {
  'elicitation-sep1034-client-defaults': {
    rules: [{ match: { server: 'scenario' }, action: 'acceptDefaults', reason: 'conformance: accept defaults' }],
  },
};

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const url = process.argv[process.argv.length - 1];
const args = COMMANDS[scenario];
if (!args || !url || !/^https?:\/\//.test(url)) {
  process.stderr.write(`usage: MCP_CONFORMANCE_SCENARIO=<${Object.keys(COMMANDS).join('|')}> mcpx-client.mjs <url>\n`);
  process.exit(2);
}

const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-conformance-client-'));
const config = path.join(dir, 'mcpx.json');
// The URL is used as given: the initialize and sse-retry mocks answer on any path.
const elicitation = ELICITATION[scenario];
writeFileSync(config, JSON.stringify({ mcpServers: { scenario: { url } }, ...(elicitation ? { elicitation } : {}) }, null, 2));
const child = spawn(process.execPath, [MCPX_BIN, ...args, '--config', config], {
  stdio: 'inherit',
  env: { ...process.env, MCPX_STATE_DIR: path.join(dir, 'state') },
});
// The harness enforces the time limit by signalling us; pass it on so mcpx is not orphaned.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.once('error', (error) => process.stderr.write(`mcpx-client: ${error.message}\n`));
child.once('close', (code, signal) => {
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = code ?? (signal ? 128 : 1);
});
