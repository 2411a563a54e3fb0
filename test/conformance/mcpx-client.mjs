#!/usr/bin/env node
// mcpx as the *client* under the conformance suite's client mode. The harness runs
// `<this script> <mock-server-url>` with MCP_CONFORMANCE_SCENARIO set; we name the URL as the
// upstream "scenario" in a throwaway config and run the mcpx command that exercises it.
// Exits with mcpx's exit code, so the harness sees mcpx's own verdict.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MCPX_BIN = fileURLToPath(new URL('../../bin/mcpx.js', import.meta.url));
/** The Client ID Metadata Document URL the suite's authorization servers expect (auth/basic-cimd). */
const SUITE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * What mcpx runs for each scenario: one mcpx command, or a sequence of steps (each an mcpx
 * command that must succeed, or with `refused: true` one that must fail without reaching the
 * server), or `host`: a host driving `mcpx serve`. A function receives the harness's
 * MCP_CONFORMANCE_CONTEXT.
 */
const COMMANDS = {
  // Exit 0 only when the upstream completed the handshake and is ready.
  initialize: ['servers', '--json'],
  tools_call: ['call', 'scenario.add_numbers', '{"a":2,"b":3}'],
  // The mock closes the call's SSE stream after a priming event; mcpx must resume with GET.
  'sse-retry': ['call', 'scenario.test_reconnection', '{}'],
  // The mock elicits a form whose every field has a default; a policy rule accepts the defaults.
  'elicitation-sep1034-client-defaults': ['call', 'scenario.test_client_elicitation_defaults', '{}'],
  // 2026-07-28 (SEP-2575): the mock refuses the first request with -32022 naming 2026-07-28;
  // mcpx must retry in it, and every request carries the _meta envelope and the version header.
  'request-metadata': ['servers', '--json'],
  // SEP-2322: input_required answered (a policy rule accepts the form) and retried with the
  // byte-exact requestState, none when none was given, a new id; other calls stay clean.
  'sep-2322-client-request-state': [
    { args: ['call', 'scenario.test_mrtr_echo_state', '{}'] },
    { args: ['call', 'scenario.test_mrtr_unrelated', '{}'] },
    { args: ['call', 'scenario.test_mrtr_no_state', '{}'] },
    { args: ['call', 'scenario.test_mrtr_no_result_type', '{}'] },
  ],
  // SEP-2243: Mcp-Method and Mcp-Name on every request, a tool name with a hyphen included;
  // resources/read and prompts/get by a host through `mcpx serve` (the CLI has no command for them).
  'http-standard-headers': [
    { args: ['call', 'scenario.test_headers', '{}'] },
    { args: ['call', 'scenario.my-hyphenated-tool', '{}'] },
    {
      host: async (client) => {
        const { resources } = await client.listResources();
        for (const resource of resources) await client.readResource({ uri: resource.uri });
        const { prompts } = await client.listPrompts();
        for (const prompt of prompts) await client.getPrompt({ name: prompt.name });
      },
    },
  ],
  // SEP-2243: x-mcp-header arguments mirrored in Mcp-Param-* headers, with the arguments the
  // harness passes in its context; a null argument has no header.
  'http-custom-headers': (context) => (context?.toolCalls ?? []).map((call) => ({ args: ['call', `scenario.${call.name}`, JSON.stringify(call.arguments)] })),
  // SEP-2243: the valid tool is kept; each tool with a bad x-mcp-header is left out of the
  // catalogue, so calling it fails in mcpx and never reaches the server.
  'http-invalid-tool-headers': [
    { args: ['call', 'scenario.valid_tool', '{"region":"us-west1"}'] },
    ...[
      ['invalid_empty_header', '{"value":"x"}'],
      ['invalid_object_header', '{"data":{}}'],
      ['invalid_array_header', '{"items":["x"]}'],
      ['invalid_null_header', '{"nil":null}'],
      ['invalid_number_header', '{"score":1.5}'],
      ['invalid_duplicate_same_case', '{"field1":"x","field2":"y"}'],
      ['invalid_duplicate_diff_case', '{"field1":"x","field2":"y"}'],
      ['invalid_space_in_name', '{"value":"x"}'],
      ['invalid_colon_in_name', '{"value":"x"}'],
      ['invalid_non_ascii_name', '{"value":"x"}'],
      ['invalid_control_char_name', '{"value":"x"}'],
    ].map(([tool, args]) => ({ args: ['call', `scenario.${tool}`, args], refused: true })),
  ],
  // SEP-2106: listing a tool whose schema has a network $ref must not fetch it.
  'json-schema-ref-no-deref': ['tools', '--json'],
};

/** Extra `elicitation` settings for the scenarios that need them. */
const ELICITATION = {
  'elicitation-sep1034-client-defaults': {
    rules: [{ match: { server: 'scenario' }, action: 'acceptDefaults', reason: 'conformance: accept defaults' }],
  },
  'sep-2322-client-request-state': {
    rules: [{ match: { server: 'scenario', fields: ['confirmed'] }, action: 'accept', content: { confirmed: true }, reason: 'conformance: confirm' }],
  },
};

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const url = process.argv[process.argv.length - 1];
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : undefined;
// Every auth scenario: a call that needs a sign-in, with a person (below) who opens the URL mcpx asks them to.
const isAuth = scenario.startsWith('auth/');
const entry = isAuth
  ? [{ args: ['call', 'scenario.test-tool', '{}'], person: true }]
  : typeof COMMANDS[scenario] === 'function'
    ? COMMANDS[scenario](context)
    : COMMANDS[scenario];
if (!entry || !url || !/^https?:\/\//.test(url)) {
  process.stderr.write(`usage: MCP_CONFORMANCE_SCENARIO=<${Object.keys(COMMANDS).join('|')}> mcpx-client.mjs <url>\n`);
  process.exit(2);
}
const steps = typeof entry[0] === 'string' ? [{ args: entry }] : entry;

const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-conformance-client-'));
const config = path.join(dir, 'mcpx.json');
// The URL is used as given: the initialize and sse-retry mocks answer on any path.
const elicitation = ELICITATION[scenario];
const oauth = isAuth ? oauthEntry(context) : undefined;
/**
 * Several calls and nothing else (sep-2322, the header scenarios): made through one daemon, as a
 * person's commands are by default, even where the tests run commands without one
 * (MCPX_NO_DAEMON): one gateway for the lot instead of a runner process per call.
 */
const throughDaemon = steps.length >= 3 && steps.every((step) => step.args && !step.person);
/** Every mcpx process's environment: the throwaway state dir, and the daemon or not as above. */
const mcpxEnv = { ...process.env, MCPX_STATE_DIR: path.join(dir, 'state') };
if (throughDaemon) delete mcpxEnv.MCPX_NO_DAEMON;
// A daemon left behind (the harness killed us mid-scenario) goes after a minute idle.
const daemon = throughDaemon ? { daemon: { idleMinutes: 1 } } : {};
writeFileSync(
  config,
  JSON.stringify({ mcpServers: { scenario: { url, ...(oauth ? { oauth } : {}) } }, ...(elicitation ? { elicitation } : {}), ...daemon }, null, 2),
);

/**
 * The server's `oauth` entry as a user would write it, from what the harness hands its client
 * (MCP_CONFORMANCE_CONTEXT): a pre-registered client, machine-to-machine credentials, an
 * enterprise IdP, a workload identity. Without any, the suite's published Client ID Metadata
 * Document URL (the one its reference client uses), which a user who publishes one configures.
 */
function oauthEntry(context) {
  switch (context?.name) {
    case 'auth/pre-registration':
      return { clientId: context.client_id, clientSecret: context.client_secret };
    case 'auth/client-credentials-basic':
      return { grantType: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
    case 'auth/client-credentials-jwt':
      return {
        grantType: 'client_credentials',
        clientId: context.client_id,
        privateKeyFile: secretFile('client-key.pem', context.private_key_pem),
        ...(context.signing_algorithm ? { signingAlgorithm: context.signing_algorithm } : {}),
      };
    case 'auth/wif-jwt-bearer':
      return { grantType: 'workload_identity', clientId: context.client_id, assertionFile: secretFile('workload.jwt', context.valid_jwt) };
    case 'auth/enterprise-managed-authorization':
    case 'auth/cross-app-access-complete-flow':
      return {
        grantType: 'enterprise_managed',
        clientId: context.client_id,
        clientSecret: context.client_secret,
        idp: { tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id, idTokenFile: secretFile('id-token.jwt', context.idp_id_token) },
      };
    default:
      return { clientMetadataUrl: SUITE_CLIENT_METADATA_URL };
  }
}

let current;
// The harness enforces the time limit by signalling us; pass it on so mcpx is not orphaned.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => current?.kill(signal));

/** A secret the harness handed over, in a file of its own as a user keeps one; gives its path. */
function secretFile(name, content) {
  const file = path.join(dir, name);
  writeFileSync(file, content, { mode: 0o600 });
  return file;
}

/**
 * The person at the CLI: they follow the questions with `mcpx elicit watch --json`, and whenever
 * a URL question (a sign-in) is pending, they consent to it with `mcpx elicit accept` and open its
 * URL, following the authorization server's redirect back to mcpx, as a browser would. `open`
 * does the same for a question handed to them in an input-required document.
 */
function person() {
  const seen = new Set();
  const opening = [];
  const open = async (question) => {
    if (question.mode !== 'url' || !question.url || seen.has(question.id)) return;
    seen.add(question.id);
    await capture(['elicit', 'accept', question.id], false);
    await fetch(question.url)
      .then((response) => response.text())
      .catch((error) => process.stderr.write(`mcpx-client: person: ${error.message}\n`));
  };
  const watcher = spawn(process.execPath, [MCPX_BIN, 'elicit', 'watch', '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: mcpxEnv,
  });
  const closed = new Promise((resolve) => watcher.once('close', resolve));
  createInterface({ input: watcher.stdout }).on('line', (line) => {
    let question;
    try {
      question = JSON.parse(line);
    } catch {
      return;
    }
    if (question?.state === 'pending') opening.push(open(question));
  });
  return {
    open,
    stop: async () => {
      watcher.kill('SIGINT');
      await closed;
      await Promise.all(opening);
    },
  };
}

/** Run an mcpx command and give back what it printed. */
function capture(args, withConfig = true) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MCPX_BIN, ...args, ...(withConfig ? ['--config', config] : [])], {
      env: mcpxEnv,
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', () => resolve(''));
    child.once('close', () => resolve(out));
  });
}

/**
 * Run one mcpx command; resolves with its exit code and, when `keep` is set, what it printed on
 * stdout (passed on too).
 */
function run(args, keep = false) {
  return new Promise((resolve) => {
    let stdout = '';
    current = spawn(process.execPath, [MCPX_BIN, ...args, ...(args[0] === 'result' ? [] : ['--config', config])], {
      stdio: ['ignore', keep ? 'pipe' : 'inherit', 'inherit'],
      env: mcpxEnv,
    });
    current.stdout?.on('data', (chunk) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    current.once('error', (error) => {
      process.stderr.write(`mcpx-client: ${error.message}\n`);
      resolve({ code: 1, stdout });
    });
    current.once('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stdout }));
  });
}

/** Input-required rounds a person goes through for one call before giving up. */
const MAX_ROUNDS = 5;

/**
 * A step the person takes part in: `mcpx call` off a terminal hands back a question it cannot
 * ask here (exit 75 with the input-required document); the person answers each question as the
 * document says and collects the result with `mcpx result`, as many rounds as it takes.
 */
async function runWithPerson(args, someone) {
  let outcome = await run(args, true);
  for (let round = 0; outcome.code === 75 && round < MAX_ROUNDS; round++) {
    let document;
    try {
      document = JSON.parse(outcome.stdout);
    } catch {
      return outcome.code;
    }
    for (const question of document.questions ?? []) await someone.open(question);
    outcome = await run(['result', document.callId], true);
  }
  return outcome.code;
}

/** Run `mcpx serve` (stdio) with an SDK 1.x client as its host, and `drive` it; resolves with 0 or 1. */
async function runHost(drive) {
  // Imported here: most scenarios have no host step, and loading the SDK costs every run half a second.
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name: 'mcpx-conformance-host', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCPX_BIN, 'serve', '--config', config],
    env: mcpxEnv,
    stderr: 'inherit',
  });
  try {
    await client.connect(transport);
    await drive(client);
    return 0;
  } catch (error) {
    process.stderr.write(`mcpx-client: host: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

// Every step runs (the harness judges what reached the server); the first wrong outcome is the exit code.
let exitCode = 0;
for (const step of steps) {
  if (step.host) {
    const code = await runHost(step.host);
    if (code !== 0 && exitCode === 0) exitCode = code;
    continue;
  }
  const someone = step.person ? person() : undefined;
  const code = someone ? await runWithPerson(step.args, someone) : (await run(step.args)).code;
  await someone?.stop();
  if (step.refused ? code === 0 : code !== 0) {
    process.stderr.write(`mcpx-client: mcpx ${step.args.join(' ')} ${step.refused ? 'succeeded but should have been refused' : `exited ${code}`}\n`);
    if (exitCode === 0) exitCode = step.refused ? 1 : code;
  }
}
// The daemon the calls started (unless MCPX_NO_DAEMON) would otherwise idle on for minutes.
if (!mcpxEnv.MCPX_NO_DAEMON) await capture(['daemon', 'stop']);
// MCPX_CONFORMANCE_KEEP=1 keeps the config and state (the daemon's log) for a look afterwards.
if (process.env.MCPX_CONFORMANCE_KEEP) process.stderr.write(`mcpx-client: kept ${dir}\n`);
else rmSync(dir, { recursive: true, force: true });
process.exitCode = exitCode;
