// esbuild for the build's bundles, or undefined when it is not installed (dist/ then stays as
// tsc wrote it: the same behaviour, slower starts). MCPX_ESBUILD=DIR names an esbuild package
// directory to use instead of node_modules'.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export async function loadEsbuild() {
  const from = process.env.MCPX_ESBUILD;
  try {
    if (from) return await import(pathToFileURL(createRequire(path.join(path.resolve(from), 'package.json')).resolve('esbuild')).href);
    return await import('esbuild');
  } catch {
    return undefined;
  }
}
