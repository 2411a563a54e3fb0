/**
 * Text as the search index sees it: words (camelCase and snake_case split, Han script as
 * character pairs), stop words dropped, Porter stems; and names folded to compare them whatever
 * their case or separators. Used alike when the index is built and when a query runs.
 */
import { stemmer } from "stemmer";

/** Words that say nothing about which tool is meant (a general English list, not the test queries'). */
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by can " +
    "could did do does doing down during each few for from further had has have having he her here hers herself him himself his " +
    "how i if in into is it its itself just let me more most my myself no nor not of off on once only or other our ours ourselves " +
    "out over own please same she should so some such than that the their theirs them themselves then there these they this those " +
    "through to too under until up very was we were what when where which while who whom why will with would you your yours " +
    "yourself yourselves"
  ).split(" "),
);

/** Longest word kept: past this a "word" is noise (a hash, a base64 run) that would only bloat the index. */
const MAX_WORD = 40;

/**
 * The patterns of `words` and `foldName`, and the same for ASCII text, where \p{L} is [A-Za-z]
 * and \p{N} is [0-9]: the same matches, but compiling the Unicode classes cost a command as much
 * as ranking does, and most queries are ASCII. The Unicode ones are made on first use (the
 * bundler writes some of them as `new RegExp`, which would parse them when the module loads).
 */
interface Patterns {
  run: RegExp;
  part: RegExp;
  notFolded: RegExp;
  han?: RegExp;
}
let unicode: Patterns | undefined;
const unicodePatterns = (): Patterns =>
  (unicode ??= {
    run: /[\p{L}\p{N}]+/gu,
    // camelCase and digit boundaries: "getHTTPResponse2" -> get HTTP Response 2
    part: /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{L}\p{N}]+/gu,
    notFolded: /[^\p{L}\p{N}]+/gu,
    han: /\p{Script=Han}/u,
  });
const ASCII: Patterns = {
  run: /[A-Za-z0-9]+/g,
  part: /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[A-Za-z0-9]+/g,
  notFolded: /[^a-z0-9]+/g,
};
// any UTF-16 code unit past ASCII (surrogates included)
const NOT_ASCII = /[\u0080-\uffff]/;

function patternsFor(text: string): Patterns {
  return NOT_ASCII.test(text) ? unicodePatterns() : ASCII;
}

/** Lower-case words of `text`: letters and digits, camelCase split, Han runs as overlapping pairs. */
export function words(text: string): string[] {
  const out: string[] = [];
  const patterns = patternsFor(text);
  for (const run of text.match(patterns.run) ?? []) {
    if (patterns.han?.test(run)) {
      out.push(...hanPairs(run));
      continue;
    }
    const parts = run.match(patterns.part) ?? [run];
    for (const part of parts) if (part.length <= MAX_WORD) out.push(part.toLowerCase());
  }
  return out;
}

/** Han has no spaces: overlapping pairs of characters (and a lone character as itself) stand for words. */
function hanPairs(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const pairs: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
  return pairs;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** The Porter stem of a word (Latin letters only; other scripts are kept as they are). */
export function stem(word: string): string {
  return /^[a-z]+$/.test(word) ? stemmer(word) : word;
}

/**
 * The terms of `text`, as the index stores them: stems of the words that are not stop words.
 * A word in `lemmas` becomes its lemma instead (its stem is another word: "news" is not "new").
 */
export function terms(text: string, stemming = true, lemmas?: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const word of words(text)) if (!isStopWord(word)) out.push(stemming ? (lemmas?.get(word) ?? stem(word)) : word);
  return out;
}

/** A name folded for comparison: lower case, nothing but letters and digits ("Get-File info" = "get_file_info" = "getFileInfo"). */
export function foldName(name: string): string {
  const lower = name.toLowerCase();
  return lower.replace(patternsFor(lower).notFolded, "");
}
