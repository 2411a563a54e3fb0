// Types of bench/search-eval.mjs for the tests that share it.
import type { ToolRecord } from "../src/discovery/records.js";

export type Rank = (query: string, limit: number) => string[];
export function configName(server: string): string;
export function goldenSet(dir: string): { tools: ToolRecord[]; queries: Array<{ query: string; grades: Map<string, number> }> };
export function liveMcpToolSet(dir: string): { tools: ToolRecord[] };
export function metaToolSet(dir: string): { tools: ToolRecord[]; queries: Array<{ query: string; name: string }> };
export function goldenMetrics(
  queries: Array<{ query: string; grades: Map<string, number> }>,
  rank: Rank,
): { r1: number; r3: number; r5: number; r10: number; mrr: number; ndcg10: number };
export function hitMetrics(queries: Array<{ query: string; name: string }>, rank: Rank): { hit1: number; hit5: number };
export const NAME_VARIANTS: Record<string, (tool: string) => string | undefined>;
export function nameMetrics(tools: ToolRecord[], rank: Rank): { result: Record<string, { asked: number; first: number }>; misses: Record<string, string[]> };
