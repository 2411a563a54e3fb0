#!/usr/bin/env node
// What discovery's renderings cost in tokens (o200k_base, the tokenizer discovery/tokens.ts
// uses), on the 527 tools of the 70 LiveMCPTool servers (shared tool-search data):
//
//   - the tools as a host's tools/list carries them (name, description, inputSchema as JSON),
//     the figure the other renderings are measured against;
//   - `mcpx types` over all of them (TypeScript declarations), and per server on average;
//   - the one-line signatures of all of them;
//   - `mcpx catalog` at budgets of 1k, 4k and 16k tokens, without and with a bias.
//
// The data carries no server descriptions, so the servers' lines have none (a real cache has
// their instructions). Reads dist/ (npm run build first).
//
//   node bench/render-tokens.mjs [--json]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolSearchData } from './tool-search-data.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { declarations } = await import(path.join(ROOT, 'dist/discovery/typescript.js'));
const { signature } = await import(path.join(ROOT, 'dist/discovery/signature.js'));
const { catalog, catalogInput } = await import(path.join(ROOT, 'dist/discovery/catalog-budget.js'));
const { countTokens, TOKENIZER } = await import(path.join(ROOT, 'dist/discovery/tokens.js'));

const data = toolSearchData();
if (!data) {
  console.error('render-tokens: the shared tool-search data is not on this machine (set MCPX_TOOL_SEARCH_DATA)');
  process.exit(1);
}

const rows = JSON.parse(readFileSync(path.join(data, 'livemcptool_tools.json'), 'utf8')).tools;
const tools = rows.map((row) => ({ ...row, name: `${row.server}__${row.tool}` }));
const servers = [];
for (const tool of tools) {
  let server = servers.find((candidate) => candidate.server === tool.server);
  if (!server) servers.push((server = { server: tool.server, description: '', tools: [] }));
  server.tools.push(tool);
}

const toolsList = countTokens(JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))));
const types = countTokens(declarations(tools));
const perServer = servers.map((server) => countTokens(declarations(server.tools)));
const signatures = tools.map((tool) => countTokens(signature(tool)));
const input = catalogInput(servers, countTokens);
const catalogs = [];
for (const budget of [1000, 4000, 16000]) {
  for (const bias of [undefined, 'weather forecast']) {
    const text = catalog(input, budget, bias);
    const shown = text.split('\n').filter((line) => input.tools.some((tool) => tool.signature === line)).length;
    catalogs.push({ budget, bias: bias ?? null, tokens: countTokens(text), signatures: shown });
  }
}

const figures = {
  tokenizer: TOKENIZER,
  servers: servers.length,
  tools: tools.length,
  toolsListJson: toolsList,
  types: {
    all: types,
    perServerMean: Math.round(perServer.reduce((a, b) => a + b, 0) / perServer.length),
    perServerMax: Math.max(...perServer),
    perTool: Math.round(types / tools.length),
  },
  signatures: {
    all: signatures.reduce((a, b) => a + b, 0),
    perTool: Math.round(signatures.reduce((a, b) => a + b, 0) / tools.length),
    max: Math.max(...signatures),
  },
  catalog: catalogs,
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  const pct = (n) => `${Math.round((100 * n) / toolsList)}%`;
  console.log(`Renderings of ${figures.tools} tools on ${figures.servers} servers (LiveMCPTool), tokens by ${TOKENIZER}`);
  console.log(`  tools/list JSON (name, description, inputSchema)  ${toolsList}`);
  console.log(`  mcpx types, all tools                             ${types} (${pct(types)}; ${figures.types.perTool} per tool)`);
  console.log(`  mcpx types SERVER, mean / largest                 ${figures.types.perServerMean} / ${figures.types.perServerMax}`);
  console.log(
    `  signatures, all tools                             ${figures.signatures.all} (${pct(figures.signatures.all)}; ${figures.signatures.perTool} per tool, longest ${figures.signatures.max})`,
  );
  for (const entry of catalogs) {
    console.log(
      `  mcpx catalog --budget ${String(entry.budget).padEnd(5)}${(entry.bias ? ` --bias "${entry.bias}"` : '').padEnd(28)}${entry.tokens} tokens, ${entry.signatures} signatures`,
    );
  }
}
