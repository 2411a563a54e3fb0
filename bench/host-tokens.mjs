#!/usr/bin/env node
// What a host's context pays for mcpx's tools before the conversation starts: the tokens of
// `tools/list` (every page, as JSON) and of the `instructions`, with `"expose": "all"` and
// `"expose": "discovery"`, counted by a real tokenizer (o200k_base, src/discovery/tokens.ts).
//
//   1. the 70 LiveMCPTool servers (527 real tools), served by test/fixtures/catalogue-server.mjs
//      from the shared tool-search data ($MCPX_TOOL_SEARCH_DATA, else ../shared/data/tool-search);
//   2. the example config (examples/mcpx.json).
//
// The host is a raw 2025-11-25 client on `mcpx serve`'s stdio that declares elicitation (a host
// that cannot be asked questions also lists mcpx's two question tools: their cost is printed
// apart). Builds nothing: run `npx tsc -p tsconfig.json` first (`npm run bench` does).
//
//   node bench/host-tokens.mjs [--json]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startCatalogues, toolSearchData } from './tool-search-data.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { countTokens } = await import(path.join(ROOT, 'dist', 'discovery', 'tokens.js'));
const { agentTools } = await import(path.join(ROOT, 'dist', 'host', 'agent-tools.js'));
const asJson = process.argv.includes('--json');

/** `mcpx serve` on stdio with `config`: the tools a host lists and the instructions it gets. */
async function hostView(config, configDir) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpx-tokens-'));
  const file = path.join(dir, 'mcpx.json');
  // The example config's relative paths are its folder's: keep the file there in spirit.
  writeFileSync(file, JSON.stringify(configDir ? rebase(config, configDir) : config));
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'mcpx.js'), 'serve', '--config', file], {
    env: { ...process.env, MCPX_STATE_DIR: path.join(dir, 'state') },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
  });
  let next = 0;
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => reject(new Error(`${method} got no answer in 60 s`)), 60_000);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  try {
    const init = await request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {}, url: {} } },
      clientInfo: { name: 'bench', version: '1' },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const tools = [];
    let cursor;
    do {
      const page = await request('tools/list', cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return { tools, instructions: init.instructions ?? '' };
  } finally {
    child.stdin.end();
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Make a config's relative command paths absolute against `dir`. */
function rebase(config, dir) {
  const servers = Object.fromEntries(
    Object.entries(config.mcpServers).map(([name, entry]) => [
      name,
      { ...entry, cwd: dir, args: (entry.args ?? []).map((arg) => (arg.startsWith('.') || arg.endsWith('.mjs') ? path.resolve(dir, arg) : arg)) },
    ]),
  );
  return { ...config, mcpServers: servers };
}

async function measure(label, config, configDir) {
  const rows = [];
  for (const expose of ['all', 'discovery']) {
    const view = await hostView({ ...config, expose }, configDir);
    rows.push({
      config: label,
      expose,
      tools: view.tools.length,
      toolsListTokens: countTokens(JSON.stringify(view.tools)),
      instructionsTokens: countTokens(view.instructions),
    });
  }
  return rows;
}

const rows = [];
const data = toolSearchData();
if (data) {
  const catalogues = await startCatalogues(data);
  try {
    rows.push(
      ...(await measure('LiveMCPTool (70 servers, 527 tools)', { mcpServers: Object.fromEntries([...catalogues.urls].map(([name, url]) => [name, { url }])) })),
    );
  } finally {
    catalogues.stop();
  }
} else process.stderr.write('host-tokens: no tool-search data (set MCPX_TOOL_SEARCH_DATA); only the example config is measured\n');

const { parseJsonc } = await import(path.join(ROOT, 'dist', 'config', 'jsonc.js'));
const { readFileSync } = await import('node:fs');
const exampleDir = path.join(ROOT, 'examples');
rows.push(...(await measure('examples/mcpx.json', parseJsonc(readFileSync(path.join(exampleDir, 'mcpx.json'), 'utf8'), 'examples/mcpx.json'), exampleDir)));
const questionTools = countTokens(JSON.stringify(agentTools(false))) - countTokens('[]');

if (asJson) process.stdout.write(`${JSON.stringify({ tokenizer: 'o200k_base', rows, questionToolsTokens: questionTools }, null, 2)}\n`);
else {
  process.stdout.write('tokens a host spends on mcpx before the conversation (o200k_base)\n\n');
  process.stdout.write('| config | expose | tools listed | tools/list tokens | instructions tokens |\n| --- | --- | ---: | ---: | ---: |\n');
  for (const row of rows) process.stdout.write(`| ${row.config} | ${row.expose} | ${row.tools} | ${row.toolsListTokens} | ${row.instructionsTokens} |\n`);
  process.stdout.write(`\nA host that cannot be asked questions also lists mcpx__pending_questions and mcpx__answer_question: +${questionTools} tokens.\n`);
}
