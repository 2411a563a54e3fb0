// The three tool-search data sets (../shared/data/tool-search, read in place, never copied) as
// tool records and labelled queries, and the metrics their README defines. Shared by
// bench/search-quality.mjs and test/discovery/search-quality.test.ts, so the figures the docs
// give and the floors the test keeps are computed one way.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The data's server name as an mcpx server name (as test/helpers/catalogue-servers.ts makes it). */
export function configName(server) {
  return server.replace(/[^A-Za-z0-9_-]/g, '_');
}

function record(server, tool, description, inputSchema) {
  return { server, tool, name: `${server}__${tool}`, description: description ?? '', ...(inputSchema ? { inputSchema } : {}) };
}

/** corpus_v2 (45 tools) and retrieval_golden_v1 (47 graded queries). */
export function goldenSet(dir) {
  const corpus = JSON.parse(readFileSync(path.join(dir, 'corpus_v2.tools.json'), 'utf8'));
  const golden = JSON.parse(readFileSync(path.join(dir, 'retrieval_golden_v1.json'), 'utf8'));
  const tools = corpus.tools.map((t) => record(t.server, t.tool ?? t.name, t.description, t.schema));
  const queries = golden.queries.map((q) => ({
    query: q.query,
    grades: new Map(q.labels.map((label) => [label.tool_id.replace(':', '__'), label.relevance])),
  }));
  return { tools, queries };
}

/** LiveMCPTool: 70 servers, 527 tools. */
export function liveMcpToolSet(dir) {
  const data = JSON.parse(readFileSync(path.join(dir, 'livemcptool_tools.json'), 'utf8'));
  return { tools: data.tools.map((t) => record(configName(t.server), t.tool, t.description, t.inputSchema)) };
}

/** MetaTool: 199 tools (name -> description, one server) and 20,614 queries with one right tool each. */
export function metaToolSet(dir) {
  const plugins = JSON.parse(readFileSync(path.join(dir, 'metatool_plugin_des.json'), 'utf8'));
  const tools = Object.entries(plugins).map(([name, description]) => record('metatool', name, description));
  const queries = parseCsv(readFileSync(path.join(dir, 'metatool_queries.csv'), 'utf8'))
    .slice(1)
    .filter((row) => row.length >= 2)
    .map(([query, tool]) => ({ query, name: `metatool__${tool}` }));
  return { tools, queries };
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and newlines. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** Recall@1,3,5,10, MRR and nDCG@10 over graded queries (grade >= 1 is relevant; gain = grade, log2 discount). */
export function goldenMetrics(queries, rank) {
  const sums = { r1: 0, r3: 0, r5: 0, r10: 0, mrr: 0, ndcg10: 0 };
  for (const { query, grades } of queries) {
    const ranked = rank(query, 10);
    const relevant = [...grades].filter(([, grade]) => grade >= 1).map(([name]) => name);
    const recall = (k) => relevant.filter((name) => ranked.slice(0, k).includes(name)).length / relevant.length;
    sums.r1 += recall(1);
    sums.r3 += recall(3);
    sums.r5 += recall(5);
    sums.r10 += recall(10);
    const first = ranked.findIndex((name) => (grades.get(name) ?? 0) >= 1);
    sums.mrr += first < 0 ? 0 : 1 / (first + 1);
    const dcg = ranked.reduce((total, name, i) => total + (grades.get(name) ?? 0) / Math.log2(i + 2), 0);
    const ideal = [...grades.values()]
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((total, grade, i) => total + grade / Math.log2(i + 2), 0);
    sums.ndcg10 += ideal > 0 ? dcg / ideal : 0;
  }
  return Object.fromEntries(Object.entries(sums).map(([key, total]) => [key, total / queries.length]));
}

/** Hit@1 and Hit@5 over queries with one right tool each. */
export function hitMetrics(queries, rank) {
  let hit1 = 0;
  let hit5 = 0;
  for (const { query, name } of queries) {
    const ranked = rank(query, 5);
    if (ranked[0] === name) hit1++;
    if (ranked.includes(name)) hit5++;
  }
  return { hit1: hit1 / queries.length, hit5: hit5 / queries.length };
}

/** The ways a person writes a tool's name other than exactly: each maps a name to a variant (or undefined when it has none). */
export const NAME_VARIANTS = {
  exact: (tool) => tool,
  upper: (tool) => tool.toUpperCase(),
  spaces: (tool) => (/[_-]/.test(tool) ? tool.replace(/[_-]+/g, ' ') : undefined),
  dashes: (tool) => (tool.includes('_') ? tool.replace(/_/g, '-') : tool.includes('-') ? tool.replace(/-/g, '_') : undefined),
  camel: (tool) => (/[_-]/.test(tool) ? tool.replace(/[_-]+(.)/g, (_, c) => c.toUpperCase()) : undefined),
  snake: (tool) => (/[a-z][A-Z]/.test(tool) ? tool.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase() : undefined),
  // a typo: two neighbouring letters swapped in the middle of the name
  typo: (tool) => {
    const letters = [...tool];
    const at = Math.floor(letters.length / 2);
    if (letters.length < 5 || letters[at] === letters[at - 1]) return undefined;
    [letters[at - 1], letters[at]] = [letters[at], letters[at - 1]];
    return letters.join('');
  },
  // a typo: one letter dropped
  dropped: (tool) => (tool.length < 6 ? undefined : tool.slice(0, Math.floor(tool.length / 2)) + tool.slice(Math.floor(tool.length / 2) + 1)),
};

/**
 * For each variant, the share of tools ranked first by that variant of their name: first among
 * the tools sharing that name (a name two servers use; for a variant, the tools whose names
 * differ only in case and separators), and exactly first for `SERVER__TOOL`.
 * A variant that is itself another tool's name, but for case and separators, is not counted (that tool is rightly first).
 */
export function nameMetrics(tools, rank) {
  const byName = new Map();
  for (const t of tools) byName.set(t.tool, [...(byName.get(t.tool) ?? []), t.name]);
  const folded = (name) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const owners = new Map();
  for (const t of tools) owners.set(folded(t.tool), new Set([...(owners.get(folded(t.tool)) ?? []), t.tool]));
  const result = {};
  const misses = {};
  for (const [variant, make] of Object.entries(NAME_VARIANTS)) {
    let found = 0;
    let asked = 0;
    misses[variant] = [];
    for (const t of tools) {
      const query = make(t.tool);
      if (query === undefined) continue;
      if (variant !== 'exact' && [...(owners.get(folded(query)) ?? [])].some((other) => other !== t.tool)) continue;
      asked++;
      // the tools a variant cannot tell apart: same name (exact), same name but for case and separators (the others)
      const same = variant === 'exact' ? byName.get(t.tool) : tools.filter((other) => folded(other.tool) === folded(t.tool)).map((other) => other.name);
      const ranked = rank(query, same.length);
      if (ranked.includes(t.name)) found++;
      else misses[variant].push(query);
    }
    result[variant] = { asked, first: found / Math.max(1, asked) };
  }
  let full = 0;
  for (const t of tools) if (rank(t.name, 1)[0] === t.name) full++;
  result.full = { asked: tools.length, first: full / tools.length };
  return { result, misses };
}
