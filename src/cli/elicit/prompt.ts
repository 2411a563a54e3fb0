/**
 * Asking a person for a form answer field by field on a terminal: each field in schema order
 * with its title, description and type; choices numbered; the default pre-filled so Enter keeps
 * it; required fields asked again until given; each value checked as it is typed; then the whole
 * answer shown for confirmation. Upstream text is printed through `inert`. Streams are
 * injected so tests can drive it.
 */
import { createInterface, type Interface } from "node:readline/promises";
import { answerProblems } from "../../broker/validate-answer.js";
import type { QuestionRecord } from "../../broker/types.js";
import type { JsonObject } from "../../protocol/jsonrpc.js";
import { CliError } from "../exit.js";
import { inert, inertJson, inertLines } from "../inert.js";
import { coerceScalar, coerceValue, parseBoolean } from "./coerce.js";
import { displayValue, fieldsOf, typeHint, type Choice, type Field } from "./fields.js";

export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /**
   * A terminal: the default is pre-filled on the line, to keep or edit. Otherwise it is shown
   * in brackets and an empty line keeps it.
   */
  terminal: boolean;
}

/** The person stopped (Ctrl-C or end of input) before the answer was confirmed. */
export class PromptStopped extends Error {
  override readonly name = "PromptStopped";
}

/** The confirmed content, or undefined when the person chose not to send it. */
export async function promptForAnswer(record: QuestionRecord, streams: PromptStreams): Promise<JsonObject | undefined> {
  const { output, terminal } = streams;
  const rl = createInterface({ input: streams.input, output, terminal });
  const stopped = new Promise<never>((_, reject) => rl.once("close", () => reject(new PromptStopped("stopped before answering"))));
  stopped.catch(() => {}); // observed through each ask; this only keeps an unasked rejection quiet
  rl.on("SIGINT", () => {
    output.write("\n"); // the cursor is still on the prompt line
    rl.close();
  });
  const ask = (query: string, prefill?: string): Promise<string> => {
    const answer = rl.question(query);
    if (prefill !== undefined && terminal) {
      rl.write(prefill);
      const stopReplacing = replaceOnFirstCharacter(rl, streams.input);
      void answer.finally(stopReplacing).catch(() => {});
    }
    return Promise.race([answer, stopped]);
  };
  try {
    output.write(`server "${inert(record.server)}" asks: ${inertLines(record.message, "  ")}\n`);
    output.write(
      terminal
        ? "(Enter keeps a pre-filled default, typing replaces it, arrows and Backspace edit it; Ctrl-C stops without answering)\n"
        : "(an empty line keeps the default)\n",
    );
    const content: JsonObject = {};
    for (const field of fieldsOf(record.requestedSchema)) {
      const value = await askField(field, ask, output, terminal);
      if (value !== undefined) content[field.name] = value;
    }
    output.write(`\nyour answer:\n${inertJson(JSON.stringify(content, null, 2))}\n`);
    for (;;) {
      const reply = (await ask(`send it to "${inert(record.server)}"? [Y/n] `)).trim();
      if (reply === "") return content;
      const yes = parseBoolean(reply);
      if (yes !== undefined) return yes ? content : undefined;
      output.write("  please answer yes or no\n");
    }
  } finally {
    rl.close();
  }
}

type Ask = (query: string, prefill?: string) => Promise<string>;

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

/**
 * A pre-filled default is replaced by what is typed, as in a form: if the first key is a
 * character, the line is emptied (Ctrl-U) just before readline inserts it. Any other first key
 * (Enter, an arrow, Backspace) leaves the default to keep or edit. Returns the undo.
 */
function replaceOnFirstCharacter(rl: Interface, input: NodeJS.ReadableStream): () => void {
  const onKey = (char: string | undefined, key: Key | undefined): void => {
    input.off("keypress", onKey);
    const typed = char !== undefined && /^[^\u0000-\u001f\u007f]$/u.test(char) && !key?.ctrl && !key?.meta;
    if (typed) rl.write(null, { ctrl: true, name: "u" });
  };
  input.prependListener("keypress", onKey);
  return () => input.off("keypress", onKey);
}

async function askField(field: Field, ask: Ask, output: NodeJS.WritableStream, terminal: boolean): Promise<unknown> {
  const name = inert(field.name);
  const label = field.title && field.title !== field.name ? `${inert(field.title)} (${name})` : name;
  output.write(`\n${label}${field.required ? ", required" : ""}: ${inert(typeHint(field))}\n`);
  if (field.description) output.write(`  ${inertLines(field.description, "  ")}\n`);
  for (const [index, choice] of (field.choices ?? []).entries()) {
    output.write(`  ${index + 1}) ${inert(choice.value)}${choice.title ? `  ${inert(choice.title)}` : ""}\n`);
  }
  const shown = field.default !== undefined ? displayValue(field.default) : undefined;
  // On a terminal the default is typed onto the line; one with control characters is not (it
  // would type them): like off a terminal, it is shown in brackets, inert, and Enter keeps it.
  const prefill = terminal && shown !== undefined && inert(shown) === shown ? shown : undefined;
  const bracketed = shown !== undefined && prefill === undefined;
  const query = bracketed ? `${name} [${inert(shown)}]: ` : `${name}: `;
  for (;;) {
    const text = (await ask(query, prefill)).trim();
    let value: unknown;
    if (text === "") {
      if (bracketed) return field.default;
      if (!field.required) return undefined;
      output.write(`  "${name}" is required\n`);
      continue;
    }
    try {
      value = interpret(field, text);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      output.write(`  ${inert(error.message)}\n`);
      continue;
    }
    const problems = answerProblems({ type: "object", properties: { [field.name]: field.schema } }, { [field.name]: value });
    if (problems.length === 0) return value;
    output.write(`  ${inert(problems.join("; "))}\n`);
  }
}

/** Typed text as the field's value: choices by number or value, lists comma-separated. */
function interpret(field: Field, text: string): unknown {
  const choices = field.choices;
  if (!choices) return coerceValue(field, text);
  if (field.type !== "array") return coerceScalar(field.name, field.type, pick(field.name, choices, text));
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => coerceScalar(field.name, field.itemType ?? "string", pick(field.name, choices, part)));
}

/** A choice by its number as listed, its value, or its title. */
function pick(name: string, choices: Choice[], text: string): string {
  if (/^\d+$/.test(text)) {
    const chosen = choices[Number(text) - 1];
    if (chosen) return chosen.value;
  }
  const lower = text.toLowerCase();
  const chosen = choices.find((choice) => choice.value === text) ?? choices.find((choice) => choice.title?.toLowerCase() === lower);
  if (chosen) return chosen.value;
  throw new CliError(`"${text}" is not one of the choices for "${name}"; give its number (1-${choices.length}) or its value`);
}
