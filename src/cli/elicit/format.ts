/**
 * Human output of `mcpx elicit`: the list as a table, one question in full, and one line per
 * change for `watch`. Every question says which server asks (design rule 3). Everything an
 * upstream wrote is printed through `inert` (issue 6: terminal output is inert). Pure.
 */
import { domainToUnicode } from "node:url";
import type { QuestionRecord } from "../../broker/types.js";
import { urlProgress, type UrlProgress } from "../../broker/view.js";
import { closedBecause } from "../../broker/settled-why.js";
import { inert, inertJson, inertLines } from "../inert.js";
import { displayValue, fieldsOf, typeHint, type Field } from "./fields.js";

export interface FormatOptions {
  now?: number;
  /** Emphasise with terminal escapes (only when printing to a terminal). */
  color?: boolean;
  /** Width of the terminal, to fit the message column of the list. */
  width?: number;
}

const MESSAGE_MIN = 20;
const MESSAGE_MAX = 60;
const WHY_MAX = 40;

/** "form", "url" or "sampling". */
export function kindOf(record: QuestionRecord): string {
  return record.kind === "elicitation" ? (record.mode ?? "form") : record.kind;
}

/** Time left while pending ("1m 05s"), else the state. */
export function timeLeft(record: QuestionRecord, now = Date.now()): string {
  if (record.state !== "pending") return record.state;
  const seconds = Math.max(0, Math.round((Date.parse(record.expiresAt) - now) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

export function listTable(records: QuestionRecord[], all: boolean, options: FormatOptions = {}): string {
  if (records.length === 0) return all ? "no questions\n" : "no pending questions\n";
  const header = ["ID", "SERVER", "KIND", "AUDIENCE", ...(all ? ["STATE"] : []), "EXPIRES IN", ...(all ? ["WHY"] : []), "MESSAGE"];
  const rows = records.map((record) => [
    inert(record.id),
    inert(record.server),
    kindOf(record),
    record.audience,
    ...(all ? [record.state] : []),
    record.state === "pending" ? timeLeft(record, options.now) : "-",
    ...(all ? [truncate(oneLine(closedBecause(record) ?? "-"), WHY_MAX)] : []),
    oneLine(record.message),
  ]);
  const widths = header.slice(0, -1).map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const used = widths.reduce((sum, width) => sum + width + 2, 0);
  const messageWidth = Math.max(MESSAGE_MIN, Math.min(MESSAGE_MAX, (options.width ?? 120) - used));
  const line = (row: string[]): string =>
    row
      .map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]!) : truncate(cell, messageWidth)))
      .join("  ")
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

export function showQuestion(record: QuestionRecord, options: FormatOptions = {}): string {
  const out: string[] = [];
  const state = record.state === "pending" ? `pending, expires in ${timeLeft(record, options.now)}` : settledState(record);
  out.push(`question  ${inert(record.id)}  (${state})`);
  out.push(`from      server "${inert(record.server)}"${record.tool ? `, during the tool call ${inert(record.tool)}` : ""}`);
  out.push(`kind      ${record.kind === "elicitation" ? `elicitation, ${kindOf(record)} mode` : inert(record.method)}`);
  out.push(`message   ${inertLines(record.message, "          ")}`);
  out.push(`audience  ${record.audience === "person" ? "a person only" : "a person or an agent"}: ${inert(record.audienceReason)}`);
  out.push(`created   ${record.createdAt}, expires ${record.expiresAt}`);
  out.push("");
  if (record.kind === "elicitation" && record.mode === "url") out.push(...urlLines(record, options));
  else if (record.kind === "elicitation") out.push(...formLines(fieldsOf(record.requestedSchema)));
  else out.push("request parameters:", indent(inertJson(JSON.stringify(record.params, null, 2))));
  out.push("");
  const progress = urlProgress(record);
  if (progress) out.push(`progress  ${progressLine(record, progress)}`);
  if (record.answer) {
    out.push(`answer    ${record.answer.action} by ${inert(record.answer.by)} at ${record.answer.answeredAt}`);
    if (record.answer.content) out.push(indent(inertJson(JSON.stringify(record.answer.content, null, 2))));
    if (progress === "consented") out.push(`finished? mcpx elicit done ${inert(record.id)}   (once you have completed it in your browser)`);
  } else {
    out.push(...howToAnswer(record));
  }
  return `${out.join("\n")}\n`;
}

/** The state and why ("closed: the server stopped waiting", "expired: nobody answered within 5m"). */
function settledState(record: QuestionRecord): string {
  const why = inert(closedBecause(record) ?? "");
  return record.state === "expired" || !why ? why || record.state : `${record.state}: ${why}`;
}

/** opened / consented / completed, the steps of a URL question, with who took the last one. */
function progressLine(record: QuestionRecord, progress: UrlProgress): string {
  const steps = ["opened", "consented", "completed"].map((step) => (step === progress ? `[${step}]` : step)).join(" / ");
  if (progress === "completed" && record.completion) return `${steps}  (by ${inert(record.completion.by)} at ${record.completion.completedAt})`;
  return progress === "ended" ? `ended without completing (${record.state})` : steps;
}

function urlLines(record: QuestionRecord, options: FormatOptions): string[] {
  const text = record.url ?? "";
  const lines = [`url       ${inert(text)}`];
  let host: string;
  try {
    host = new URL(text).hostname;
  } catch {
    return [...lines, "warning   this is not a valid URL; do not open it"];
  }
  const shown = inert(host);
  lines.push(`host      ${options.color ? `\x1b[1;4m${shown}\x1b[0m` : shown}`);
  if (host.split(".").some((label) => label.toLowerCase().startsWith("xn--"))) {
    lines.push(`warning   the host has punycode (xn--) labels; it reads as "${inert(domainToUnicode(host))}" and may imitate another name`);
  }
  lines.push("mcpx never opens it: check the host, then open it yourself in a browser if you trust it.");
  return lines;
}

function formLines(fields: Field[]): string[] {
  if (fields.length === 0) return ["fields    none (accepting sends an empty form)"];
  const lines = ["fields"];
  for (const field of fields) {
    const notes = [typeHint(field), field.required ? "required" : "optional"];
    if (field.default !== undefined) notes.push(`default ${displayValue(field.default)}`);
    lines.push(`  ${inert(field.name)}  (${inert(notes.join("; "))})`);
    const about = [field.title, field.description].filter((text) => text !== undefined && text !== "").join(": ");
    if (about) lines.push(`      ${inertLines(about, "      ")}`);
    for (const choice of field.choices ?? []) lines.push(`      - ${inert(choice.value)}${choice.title ? `  (${inert(choice.title)})` : ""}`);
  }
  return lines;
}

function howToAnswer(record: QuestionRecord): string[] {
  if (record.state !== "pending") return ["not answered"];
  const id = inert(record.id);
  const lines = ["answer with"];
  if (record.kind === "elicitation" && record.mode === "url") {
    lines.push(`  mcpx elicit accept ${id}  (you consent; the server may then wait for you at the URL)`);
    lines.push(`  mcpx elicit done ${id}    (you have completed it in your browser)`);
  } else if (record.kind === "elicitation") {
    const fields = fieldsOf(record.requestedSchema);
    const example = fields.map((field) => `${inert(field.name)}=…`).join(" ");
    lines.push(`  mcpx elicit answer ${id}${example ? ` ${example}` : ""}   (or '{json}', or nothing on a terminal to be asked field by field)`);
  } else {
    lines.push(`  mcpx elicit answer ${id} '{json result}'`);
  }
  lines.push(`  mcpx elicit decline ${id}   (say no)`, `  mcpx elicit cancel ${id}    (do not answer)`);
  return lines;
}

/** One line for `watch`: the question opened, or how it was settled. */
export function watchLine(record: QuestionRecord, now = Date.now()): string {
  const time = new Date(now).toISOString().slice(11, 19);
  if (record.state === "pending") {
    return `${time} new       ${inert(record.id)}  ${inert(record.server)}  ${kindOf(record)}  ${record.audience}  expires in ${timeLeft(record, now)}  ${truncate(oneLine(record.message), MESSAGE_MAX)}`;
  }
  return `${time} ${record.state.padEnd(9)} ${inert(record.id)}  ${inert(record.server)}  ${oneLine(closedBecause(record) ?? "")}`.trimEnd();
}

/** Upstream text on one line, inert: whitespace runs (newlines too) as one space. */
function oneLine(text: string): string {
  return inert(text.replace(/[ \t\n\r]+/g, " ").trim());
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

function indent(text: string): string {
  return text.replace(/^/gm, "    ");
}
