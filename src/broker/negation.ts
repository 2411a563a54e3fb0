/**
 * A message that warns about a secret ("do not give us your PIN", "we will never ask for your
 * password") does not ask for it (issue 13). Read conservatively, since a question that does
 * ask must stay a person's: a mention counts as negated only when a negation comes just before
 * it in the same clause, nothing secret precedes the negation, and the message has no word that
 * turns a warning back into a request ("but type it here", "don't forget", "except here").
 * Pure.
 */
import { type Words, wordsOf } from "./normalise.js";

/** Punctuation that ends a clause, in the common scripts. */
const CLAUSE_ENDS = /[.;:!?,\n\u2026\u3002\uff01\uff1f\uff1b\uff1a\u3001\uff0c\u060c\u061f]+/u;
/** Words that start a new clause ("do not share it and enter your PIN"). */
const CLAUSE_JOINERS = new Set(["and", "so", "then", "und", "dann", "et", "puis", "y", "e", "en"]);

/** Words that negate what follows, read as Latin; `t` only after `don`, `won`… (`don't`). */
const NEGATORS = new Set([
  "not",
  "never",
  "no",
  "nor",
  "dont",
  "doesnt",
  "wont",
  "nicht",
  "nie",
  "niemals",
  "kein",
  "keine",
  "keinen",
  "keinesfalls",
  "ne",
  "n",
  "jamais",
  "pas",
  "aucun",
  "nunca",
  "jamas",
  "nao",
  "non",
  "mai",
  "niet",
  "nooit",
  "geen",
]);
const APOSTROPHE_T_AFTER = new Set(["don", "doesn", "won", "shouldn", "mustn"]);
/** Negations in their own script (Cyrillic would read as Latin words: "не" as "he"). */
const NATIVE_NEGATORS = new Set(["не", "никогда", "нельзя", "ни"]);

/** Words after which a warning may still be a request: a contrast, a double negative, a pronoun pointing back at the secret. */
const HEDGES = new Set([
  "but",
  "except",
  "unless",
  "only",
  "instead",
  "however",
  "though",
  "although",
  "yet",
  "forget",
  "forgetting",
  "hesitate",
  "fail",
  "mind",
  "it",
  "them",
  "aber",
  "sondern",
  "ausser",
  "mais",
  "sauf",
  "pero",
  "sino",
  "excepto",
  "mas",
  "exceto",
  "ma",
  "tranne",
  "maar",
  "behalve",
]);
const NATIVE_HEDGES = new Set(["но", "кроме", "а"]);

/** How many words after a negation it still governs ("never" … "password" in "never enter your password"). */
const REACH = 5;

/**
 * What may stand between a negation and the secret it governs: verbs of giving or asking (as
 * prefixes) and small words. Anything else ("no worries, paste your key") ends the negation.
 */
const GIVING_VERBS = [
  "giv",
  "enter",
  "typ",
  "shar",
  "send",
  "past",
  "provid",
  "tell",
  "reveal",
  "disclos",
  "includ",
  "put",
  "use",
  "writ",
  "input",
  "submit",
  "ask",
  "need",
  "requir",
  "stor",
  "sav",
  "post",
  "email",
  "upload",
  "fill",
  "show",
  "request",
  "expos",
  "geb",
  "eingeb",
  "teil",
  "nenn",
  "saisi",
  "entr",
  "donn",
  "partag",
  "communiqu",
  "envo",
  "indiqu",
  "introduz",
  "ingres",
  "compart",
  "envi",
  "escrib",
  "digit",
  "inform",
  "inser",
  "condivid",
  "voer",
  "geef",
  "deel",
  "stuur",
  "poda",
  "wpis",
];
const SMALL_WORDS = new Set([
  "your",
  "our",
  "us",
  "you",
  "we",
  "i",
  "me",
  "my",
  "the",
  "a",
  "an",
  "any",
  "ever",
  "for",
  "to",
  "be",
  "will",
  "ll",
  "is",
  "are",
  "this",
  "here",
  "please",
  "ihr",
  "ihre",
  "ihren",
  "sie",
  "uns",
  "dein",
  "deine",
  "vous",
  "votre",
  "vos",
  "nous",
  "ton",
  "ta",
  "su",
  "sus",
  "tu",
  "tus",
  "nos",
  "sua",
  "seu",
  "la",
  "le",
  "les",
  "el",
  "de",
  "il",
  "lo",
  "vostro",
  "vostra",
  "uw",
  "je",
  "jouw",
  "swoje",
]);

type Finder = (words: Words) => unknown;

/**
 * The words of `text` with every clause that only warns about what `find` finds left out;
 * `undefined` when no clause is such a warning (so the caller reads the whole text as before).
 */
export function withoutWarnings(text: string, find: Finder): Words | undefined {
  const whole = wordsOf(text);
  if (whole.latin.some((word) => HEDGES.has(word)) || whole.native.some((word) => NATIVE_HEDGES.has(word))) return undefined;
  const clauses = text.split(CLAUSE_ENDS).flatMap((piece) => splitAtJoiners(wordsOf(piece)));
  const kept = clauses.filter((clause) => !warnsOnly(clause, find));
  if (kept.length === clauses.length) return undefined;
  return { native: kept.flatMap((clause) => clause.native), latin: kept.flatMap((clause) => clause.latin), leet: kept.flatMap((clause) => clause.leet) };
}

/** Whether some negation in the clause governs every mention in it ("ne saisissez jamais votre mot de passe": the "jamais"). */
function warnsOnly(clause: Words, find: Finder): boolean {
  return negations(clause).some((at) => {
    const before = slice(clause, 0, at);
    const governed = slice(clause, at + 1, at + 1 + REACH);
    const after = slice(clause, at + 1 + REACH, clause.latin.length);
    if (find(before) || find(after) || !find(governed)) return false;
    const reach = Math.min(at + 1 + REACH, clause.latin.length);
    // The first mention ends before `end` and starts at `start`; it must be the only one, and
    // only small words and verbs of giving may stand between the negation and it.
    let end = at + 2;
    while (!find(slice(clause, at + 1, end))) end++;
    let start = end - 1;
    while (start > at + 1 && !find(slice(clause, start, end))) start--;
    if (find(slice(clause, end, reach))) return false;
    return clause.latin.slice(at + 1, start).every(isSmallOrGiving);
  });
}

function isSmallOrGiving(word: string): boolean {
  return SMALL_WORDS.has(word) || GIVING_VERBS.some((verb) => word.startsWith(verb));
}

function negations(clause: Words): number[] {
  const found: number[] = [];
  for (let index = 0; index < clause.latin.length; index++) {
    const word = clause.latin[index]!;
    const apostropheT = word === "t" && index > 0 && APOSTROPHE_T_AFTER.has(clause.latin[index - 1]!);
    if (NEGATORS.has(word) || NATIVE_NEGATORS.has(clause.native[index]!) || apostropheT) found.push(index);
  }
  return found;
}

function splitAtJoiners(words: Words): Words[] {
  const out: Words[] = [];
  let start = 0;
  for (let index = 0; index <= words.latin.length; index++) {
    if (index === words.latin.length || CLAUSE_JOINERS.has(words.latin[index]!)) {
      if (index > start) out.push(slice(words, start, index));
      start = index + 1;
    }
  }
  return out;
}

/** Part of a text's words; the digit spelling is only read in names, so it follows the Latin reading here. */
function slice(words: Words, from: number, to: number): Words {
  const latin = words.latin.slice(from, to);
  return { native: words.native.slice(from, to), latin, leet: latin };
}
