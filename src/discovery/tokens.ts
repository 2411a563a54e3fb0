/**
 * Token counts, by a real tokenizer (OpenAI's o200k_base through `gpt-tokenizer`), never
 * characters / 4. Loading its tables takes a few hundred milliseconds, so counts that a fast
 * command needs are made when the cache is written, not when the command runs.
 */
import { countTokens as count } from "gpt-tokenizer/encoding/o200k_base";

export const TOKENIZER = "o200k_base";

export function countTokens(text: string): number {
  return count(text);
}
