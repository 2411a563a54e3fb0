// The shared tool-search data sets and the catalogue fixture, for the benches: where the data
// is (as test/helpers/tool-search-data.ts finds it), and one process serving the 70
// LiveMCPTool servers' real catalogues (test/fixtures/catalogue-server.mjs).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `$MCPX_TOOL_SEARCH_DATA`, else `shared/data/tool-search` beside the repository or one level up; undefined when absent. */
export function toolSearchData() {
  return [
    process.env.MCPX_TOOL_SEARCH_DATA,
    path.resolve(ROOT, '..', 'shared', 'data', 'tool-search'),
    path.resolve(ROOT, '..', '..', 'shared', 'data', 'tool-search'),
  ]
    .filter(Boolean)
    .find((dir) => existsSync(path.join(dir, 'livemcptool_tools.json')));
}

/** The catalogue fixture over `dataDir`: resolves with its child, a config name → URL map, and stop(), once all 70 listen. */
export function startCatalogues(dataDir) {
  const child = spawn(process.execPath, [path.join(ROOT, 'test', 'fixtures', 'catalogue-server.mjs'), path.join(dataDir, 'livemcptool_tools.json')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('catalogue-server did not start within 30 s')), 30_000);
    const urls = new Map();
    let base = '';
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('LISTENING ')) base = line.slice('LISTENING '.length);
      const server = /^SERVER (\d+) (.+)$/.exec(line);
      if (!server) return;
      urls.set(server[2].replace(/[^A-Za-z0-9_-]/g, '_'), `${base}/${server[1]}/mcp`);
      if (urls.size === 70) {
        clearTimeout(timer);
        resolve({ child, urls, stop: () => child.kill('SIGTERM') });
      }
    });
    child.once('exit', (code) => reject(new Error(`catalogue-server exited (${code})`)));
  });
}
