/**
 * The wording that makes a question a consent however many fields it has (issue 13): an
 * approval ("approve", "allow", "are you sure") and an irreversible act ("delete the
 * database", "pay the invoice"). Narrower than `consentIn`, which reads a lone field, so a
 * form that merely holds a yes/no ("Vegetarian?", "Would you like a window seat?") stays an
 * agent's. Matched on words as `normalise.ts` reads them. Pure.
 */
import { runsOf, wordsOf } from "./normalise.js";
import { CONSENT_PREFIXES, CONSENT_STEMS } from "./sensitive-words.js";

const latin = (texts: string[]): string[] => texts.map((text) => wordsOf(text).latin.join(""));
const native = (texts: string[]): string[] => texts.map((text) => wordsOf(text).native.join(""));

/** Phrases that ask for approval; the weak ones `consentIn` also takes ("ok", "would you like") are left out. */
const APPROVAL_PHRASES = latin(["are you sure", "go ahead", "opt in", "de acuerdo", "d'accord", "give permission"]);

/** Words naming an irreversible or costly act, each written out (`removals` is not `remove`). */
const IRREVERSIBLE_WORDS = new Set(
  latin([
    "delete",
    "deletes",
    "deleting",
    "deletion",
    "remove",
    "removes",
    "removing",
    "destroy",
    "destroys",
    "destroying",
    "erase",
    "erases",
    "erasing",
    "wipe",
    "wipes",
    "wiping",
    "purge",
    "purging",
    "overwrite",
    "overwrites",
    "overwriting",
    "truncate",
    "truncating",
    "uninstall",
    "uninstalling",
    "revoke",
    "revoking",
    "terminate",
    "terminating",
    "reset",
    "kill",
    "shutdown",
    "permanently",
    "irreversible",
    "irreversibly",
    "irrevocable",
    "irrevocably",
    "undone",
    "pay",
    "purchase",
    "buy",
    "charge",
    "transfer",
    "withdraw",
    "publish",
    "deploy",
    // German, Spanish, French, Portuguese, Italian, Dutch, Polish.
    "loschen",
    "entfernen",
    "eliminar",
    "borrar",
    "supprimer",
    "effacer",
    "excluir",
    "apagar",
    "eliminare",
    "cancellare",
    "verwijderen",
    "usun",
    "usunac",
  ]),
);
const IRREVERSIBLE_PHRASES = latin([
  "drop table",
  "drop the table",
  "drop database",
  "drop the database",
  "drop schema",
  "drop collection",
  "force push",
  "shut down",
  "send money",
  "factory reset",
]);
/** Prefixes of words in their own script (Cyrillic would read oddly as Latin), and stems inside words written together. */
const IRREVERSIBLE_NATIVE_PREFIXES = native(["удал", "стере", "оплат"]);
const IRREVERSIBLE_STEMS = native(["删除", "刪除", "削除", "삭제", "消去", "支付", "決済"]);

/**
 * In a form's message, these mostly mean "submit this form" ("please accept with defaults",
 * "fill in to continue"; accept is the action's own name), so they do not make the form's
 * other yes/no fields a consent. On a yes/no field itself ("Accept the terms") they still do.
 */
const SUBMITTING_PREFIXES = ["accept", "continu", "proceed"];
const MESSAGE_PREFIXES = CONSENT_PREFIXES.filter((prefix) => !SUBMITTING_PREFIXES.includes(prefix));

/** The approval wording a form's message asks with ("allow access…?", "are you sure"), if any. */
export function approvalAskedIn(message: string): string | undefined {
  return approvalIn(message, MESSAGE_PREFIXES);
}

/** The approval wording in `text` ("approve", "are you sure"), if any. */
export function approvalIn(text: string, prefixes: readonly string[] = CONSENT_PREFIXES): string | undefined {
  const words = wordsOf(text);
  const prefixed = words.latin.find((word) => prefixes.some((prefix) => word.startsWith(prefix)));
  if (prefixed !== undefined) return prefixed;
  const runs = runsOf(words.latin, 4);
  const phrase = APPROVAL_PHRASES.find((wording) => runs.includes(wording));
  if (phrase !== undefined) return phrase;
  const joined = words.native.join("");
  return CONSENT_STEMS.find((stem) => joined.includes(stem));
}

/** The irreversible act `text` names ("delete", "force push"), if any. */
export function irreversibleIn(text: string): string | undefined {
  const words = wordsOf(text);
  const word = words.latin.find((each) => IRREVERSIBLE_WORDS.has(each));
  if (word !== undefined) return word;
  const runs = runsOf(words.latin, 3);
  const phrase = IRREVERSIBLE_PHRASES.find((wording) => runs.includes(wording));
  if (phrase !== undefined) return phrase;
  const prefixed = words.native.find((each) => IRREVERSIBLE_NATIVE_PREFIXES.some((prefix) => each.startsWith(prefix)));
  if (prefixed !== undefined) return prefixed;
  const joined = words.native.join("");
  return IRREVERSIBLE_STEMS.find((stem) => joined.includes(stem));
}
