/**
 * Text as words, for telling what a question asks for: the same word however it is written.
 * Fullwidth and other compatibility forms fold (NFKC); zero-width and other invisible format
 * characters go; accents and other combining marks go; camelCase and `_ - . space` split
 * words; a run of single letters (`p-a-s-s-w-o-r-d`, `o t p`) is one word. Look-alike
 * Cyrillic and Greek letters and digit spellings (`p4ssw0rd`) are read as Latin in variants of
 * their own, so native words in those scripts are matched as they are. Pure.
 */

export interface Words {
  /** The words as written (folded, lower case), in their own script. */
  native: string[];
  /** The same words with look-alike letters read as Latin. */
  latin: string[];
  /** The Latin reading with digits and `@ $` read as the letters they imitate. */
  leet: string[];
}

/** Cyrillic and Greek letters (lower case) that look like Latin ones, and a few Latin ones that fold to ASCII. */
const LOOK_ALIKES: Record<string, string> = {
  а: "a",
  в: "b",
  е: "e",
  ё: "e",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  і: "i",
  ї: "i",
  ј: "j",
  ѕ: "s",
  ԁ: "d",
  һ: "h",
  ԛ: "q",
  ԝ: "w",
  ӏ: "l",
  ғ: "f",
  ү: "y",
  α: "a",
  β: "b",
  γ: "y",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  ϲ: "c",
  ł: "l",
  ø: "o",
  đ: "d",
  ð: "d",
  ı: "i",
  ß: "ss",
  æ: "ae",
  œ: "oe",
  þ: "th",
};

const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", $: "s" };

/** Invisible characters that may hide inside a word: format controls (zero-width, bidi, soft hyphen) and variation selectors. */
const INVISIBLE = /[\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}\u034F\u115F\u1160\u3164\uFFA0]/gu;
const MARKS = /\p{M}/gu;

/** Fold compatibility forms, drop invisible characters and combining marks (case kept). */
export function fold(text: string): string {
  return text.normalize("NFKC").replace(INVISIBLE, "").normalize("NFD").replace(MARKS, "").normalize("NFC");
}

export function wordsOf(text: string): Words {
  const folded = fold(text);
  const native = split(folded);
  const latin = native.map(readAsLatin);
  const leet = split([...folded].map((char) => LEET[char] ?? char).join("")).map(readAsLatin);
  return { native, latin, leet };
}

function readAsLatin(word: string): string {
  return [...word].map((char) => LOOK_ALIKES[char] ?? char).join("");
}

/** Words: camelCase and ACRONYMWord split, lower case, anything but letters and digits separates. */
function split(text: string): string[] {
  const spaced = text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2");
  const words = spaced
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
  return joinSingleLetters(words);
}

/** `p a s s w o r d` is one word spelled out: runs of two or more one-letter words are joined. */
function joinSingleLetters(words: string[]): string[] {
  const out: string[] = [];
  let run = "";
  const flush = (): void => {
    if (run !== "") out.push(run);
    run = "";
  };
  for (const word of words) {
    if ([...word].length === 1) run += word;
    else {
      flush();
      out.push(word);
    }
  }
  flush();
  return out;
}

/**
 * Every run of up to `longest` consecutive words, written together: `["api", "key"]` gives
 * "api", "apikey", "key". A phrase matches a run exactly; a stem may be inside one.
 */
export function runsOf(words: string[], longest: number): string[] {
  const runs: string[] = [];
  for (let start = 0; start < words.length; start++) {
    let joined = "";
    for (let end = start; end < words.length && end - start < longest; end++) {
      joined += words[end]!;
      runs.push(joined);
    }
  }
  return runs;
}
