/**
 * Names in generated TypeScript: which strings may stand bare, and how a name that may not
 * (a server called `12306-mcp`, a tool called `delete`) is made one. Pure.
 */

/** Words that cannot name an interface or a type alias, or that would read as something else there. */
const RESERVED = new Set(
  [
    // ECMAScript reserved words, strict-mode ones included
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in",
    "instanceof new null return super switch this throw true try typeof var void while with implements interface let package private",
    "protected public static yield await",
    // TypeScript's predefined type names and contextual keywords
    "any unknown never string number boolean bigint symbol object undefined abstract as asserts accessor async constructor declare",
    "get set infer intrinsic is keyof module namespace out override readonly require satisfies type unique global of from",
  ]
    .join(" ")
    .split(" "),
);

/**
 * ASCII only: TypeScript would take many more letters, but which ones depends on the Unicode
 * version of whichever compiler reads the output; a quoted name is valid in every one.
 */
const IDENTIFIER = /^[A-Za-z$_][\w$]*$/;

/** An IdentifierName: may stand bare as a property or method name (reserved words included). */
export function isIdentifierName(text: string): boolean {
  return IDENTIFIER.test(text);
}

/** A property or method key: bare where the grammar allows it, else a string literal. */
export function propertyKey(name: string): string {
  // `new(…)` in an interface is a construct signature, not a method named "new".
  return isIdentifierName(name) && name !== "new" ? name : JSON.stringify(name);
}

/** Whether `name` may name a top-level interface or type alias as it is. */
export function isTypeName(name: string): boolean {
  return isIdentifierName(name) && !RESERVED.has(name);
}

/** Hands out distinct, valid top-level type names; `taken` are names the output itself uses. */
export class TypeNames {
  readonly #used: Set<string>;

  constructor(taken: readonly string[]) {
    this.#used = new Set(taken);
  }

  /** `wanted` itself when it is free and valid, else the nearest free valid name (`fallback` when nothing of it is ASCII). */
  allocate(wanted: string, fallback = "T"): string {
    let base = /[A-Za-z0-9]/.test(wanted) ? wanted.replace(/[^\w$]/g, "_") : fallback;
    if (!/^[A-Za-z$_]/.test(base)) base = `_${base}`;
    if (RESERVED.has(base)) base = `${base}_`;
    let name = base;
    for (let n = 2; this.#used.has(name); n++) name = `${base}_${n}`;
    this.#used.add(name);
    return name;
  }
}
