/**
 * `mcpx elicit list|show|answer|accept|decline|cancel|done|watch`: the questions upstreams ask, read
 * and answered straight from the shared store: the state directory's, or the one the config's
 * `store.url` names (`--config`, `$MCPX_CONFIG`, `./mcpx.json`). No config file needed.
 * The CLI is a person's surface: answers are recorded `by: "cli"` and person-only questions
 * may be answered here.
 */
import { LOCAL_IDENTITY, visibleTo } from "../../broker/identity.js";
import type { Command } from "commander";
import { Broker } from "../../broker/broker.js";
import type { AnswerInput } from "../../broker/check-answer.js";
import { BrokerError } from "../../broker/errors.js";
import { alreadySettled, closedBecause } from "../../broker/settled-why.js";
import { openCommandStore } from "../open-store.js";
import { storeConfigFor } from "../context.js";
import type { Action, QuestionRecord } from "../../broker/types.js";
import { shareable, viewOf } from "../../broker/view.js";
import type { JsonObject } from "../../protocol/jsonrpc.js";
import { createLogger } from "../../util/log.js";
import { CliError, Exit } from "../exit.js";
import { inert, inertJson } from "../inert.js";
import { parseContent } from "./coerce.js";
import { fieldsOf } from "./fields.js";
import { listTable, showQuestion } from "./format.js";
import { promptForAnswer, PromptStopped } from "./prompt.js";
import { watchQuestions } from "./watch.js";

const BY = "cli";

interface JsonOption {
  json?: boolean;
}

export function registerElicit(program: Command): void {
  const elicit = program
    .command("elicit")
    .description("the questions upstream servers ask (forms, URLs, sampling): list, show, answer, watch")
    .option("-c, --config <file>", "the config whose store (store.url) holds the questions (default: $MCPX_CONFIG, else ./mcpx.json when there is one)");
  /** Open the store for one subcommand, and close it after, whatever happens. */
  const withBroker = (run: (broker: Broker) => void | Promise<void>): Promise<void> => withStoreBroker(elicit.opts<{ config?: string }>().config, run);

  elicit
    .command("list")
    .description("pending questions")
    .option("--all", "answered, expired and closed questions too")
    .option("--json", "print a JSON array")
    .action((options: JsonOption & { all?: boolean }) =>
      withBroker(async (broker) => {
        const records = (await broker.list(options.all === true)).filter(operators);
        write(
          options.json ? json(await Promise.all(records.map((record) => broker.view(record)))) : listTable(records, options.all === true, terminalFormat()),
        );
      }),
    );

  elicit
    .command("show")
    .description("one question: who asks, its fields or URL, time left, and how to answer")
    .argument("<id>", "the question's id (or a unique prefix of it)")
    .option("--json", "print JSON")
    .action((id: string, options: JsonOption) =>
      withBroker(async (broker) => {
        await broker.sweep();
        const record = await find(broker, id);
        write(options.json ? json(await broker.view(record)) : showQuestion(shareable(record), terminalFormat()));
      }),
    );

  elicit
    .command("answer")
    .description("accept with content: '{json}' or key=value pairs; with neither, on a terminal, asks field by field")
    .argument("<id>", "the question's id (or a unique prefix of it)")
    .argument("[content...]", `'{"name":"Ada"}' or name=Ada age=36 tags=a,b ok=yes`)
    .option("--json", "print the answered question as JSON")
    .action((id: string, content: string[], options: JsonOption) =>
      withBroker(async (broker) => {
        const record = await find(broker, id);
        await settle(broker, record, { action: "accept", content: await contentFor(record, content) }, options);
      }),
    );

  const actions: Array<[Action, string]> = [
    ["accept", "accept without content (URL question: you consent, or have completed it in your browser)"],
    ["decline", "say no: the server learns the person declined"],
    ["cancel", "do not answer: the server learns nobody answered"],
  ];
  for (const [action, description] of actions) {
    elicit
      .command(action)
      .description(description)
      .argument("<id>", "the question's id (or a unique prefix of it)")
      .option("--json", "print the answered question as JSON")
      .action((id: string, options: JsonOption) =>
        withBroker(async (broker) => {
          const record = await find(broker, id);
          await settle(broker, record, { action, ...(action === "accept" ? emptyForm(record) : {}) }, options);
        }),
      );
  }

  elicit
    .command("done")
    .description("a URL question is finished: you completed it in your browser (for servers that never say so themselves)")
    .argument("<id>", "the question's id (or a unique prefix of it)")
    .option("--json", "print the completed question as JSON")
    .action((id: string, options: JsonOption) =>
      withBroker(async (broker) => {
        const record = await find(broker, id);
        const completed = await broker.complete(record.id, BY);
        if (options.json) return write(json(await broker.view(completed)));
        write(`done recorded for question ${inert(completed.id)} from "${inert(completed.server)}"\n`);
      }),
    );

  elicit
    .command("watch")
    .description("follow new and settled questions live until interrupted")
    .option("--json", "one JSON object per line")
    .action((options: JsonOption) =>
      withBroker(async (broker) => {
        process.stderr.write(`mcpx: watching questions in ${broker.store.where} (Ctrl-C to stop)\n`);
        const until = new Promise<void>((resolve) => {
          process.once("SIGINT", () => resolve());
          process.once("SIGTERM", () => resolve());
        });
        await watchQuestions(broker, { json: options.json === true, write: (line) => write(`${line}\n`), until });
      }),
    );
}

/** Open the shared store (the config's, when there is a config) for one command, and close it after, whatever happens. */
async function withStoreBroker(configFile: string | undefined, run: (broker: Broker) => void | Promise<void>): Promise<void> {
  const store = await openCommandStore(await storeConfigFor(configFile));
  try {
    await run(new Broker(store, createLogger({}, "warn")));
  } catch (error) {
    // Its message may quote the question (a field name, the audience's reason): inert.
    if (error instanceof BrokerError) throw new CliError(inert(error.message));
    throw error;
  } finally {
    await store.close();
  }
}

/**
 * The CLI reads the store as the operator, identity "local" (broker/identity.ts): a question of
 * a host that signed in as another identity is not its to see or settle, as on every surface.
 */
function operators(record: QuestionRecord): boolean {
  return visibleTo(record, LOCAL_IDENTITY);
}

/** A question by its id, or by a prefix that only one question's id starts with. */
async function find(broker: Broker, id: string): Promise<QuestionRecord> {
  const exact = await broker.get(id);
  if (exact && operators(exact)) return exact;
  const matches = id === "" ? [] : (await broker.store.questions.list(true)).filter((record) => record.id.startsWith(id) && operators(record));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1)
    throw new CliError(inert(`"${id}" matches ${matches.length} questions (${matches.map((record) => record.id).join(", ")}); give more of the id`));
  throw new CliError(inert(`no question with id ${id} (see mcpx elicit list --all)`));
}

async function contentFor(record: QuestionRecord, args: string[]): Promise<JsonObject> {
  const fields = fieldsOf(record.requestedSchema);
  if (args.length > 0) return parseContent(args, fields);
  if (record.kind === "elicitation" && record.mode === "url") {
    throw new CliError(`a URL question is accepted without content: mcpx elicit accept ${inert(record.id)}`, Exit.Usage);
  }
  if (record.state !== "pending") throw alreadySettled(record);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CliError(
      inert(
        `give the answer as '{json}' or as key=value pairs, e.g. mcpx elicit answer ${record.id} ${fields.map((field) => `${field.name}=…`).join(" ") || "'{...}'"} (on a terminal, mcpx asks field by field)`,
      ),
      Exit.Usage,
    );
  }
  if (record.kind !== "elicitation") {
    throw new CliError(inert(`a ${record.method} question is answered with its JSON result: mcpx elicit answer ${record.id} '{...}'`), Exit.Usage);
  }
  try {
    const content = await promptForAnswer(record, { input: process.stdin, output: process.stdout, terminal: true });
    if (content) return content;
  } catch (error) {
    if (!(error instanceof PromptStopped)) throw error;
  }
  throw new CliError(`not sent; question ${inert(record.id)} is still pending`);
}

/** `accept` of a form sends an empty form: the broker then says which required field is missing. */
function emptyForm(record: QuestionRecord): Partial<AnswerInput> {
  return record.kind === "elicitation" && record.mode !== "url" ? { content: {} } : {};
}

/** Record the answer, then say whether the waiting process handed it to the upstream (it may be stopped, or gone). */
async function settle(broker: Broker, record: QuestionRecord, input: AnswerInput, options: JsonOption): Promise<void> {
  const answered = await broker.answer(record.id, input, { by: BY });
  const { record: settled, delivery } = await broker.awaitDelivery(answered.id);
  // What was answered, as given: a person-only answer's content may already be forgotten on delivery.
  if (options.json) return write(json({ ...viewOf(answered, Date.now(), delivery), delivery }));
  const shown = shareable(answered).answer?.content;
  const content = shown ? ` ${inertJson(JSON.stringify(shown))}` : "";
  const what = `${input.action} for question ${inert(settled.id)} from "${inert(settled.server)}"${content}`;
  if (delivery === "delivered") {
    write(`${input.action} sent for question ${inert(settled.id)} from "${inert(settled.server)}"${content}\n`);
    // Accepting a URL question is consent; a call may wait on the interaction's end as well.
    if (input.action === "accept" && settled.mode === "url" && !answered.completion) {
      write(`when you have finished at the URL and the server does not say so itself: mcpx elicit done ${inert(settled.id)}\n`);
    }
    return;
  }
  if (delivery === "pending")
    return write(`${what} recorded; waiting for delivery (the mcpx process waiting on it, pid ${settled.ownerPid}, has not taken it yet)\n`);
  write(
    `${what} recorded, but not delivered: the call is gone (${settled.state === "closed" ? `the question was closed: ${inert(closedBecause(settled) ?? "")}` : `the mcpx process waiting on it, pid ${settled.ownerPid}, is gone`})\n`,
  );
  process.exitCode = 1;
}

function terminalFormat(): { color: boolean; width?: number } {
  return { color: process.stdout.isTTY === true && !process.env.NO_COLOR, ...(process.stdout.columns ? { width: process.stdout.columns } : {}) };
}

/** JSON as JSON.stringify writes it, with what it leaves raw (C1, bidi) escaped too. */
function json(value: unknown): string {
  return `${inertJson(JSON.stringify(value, null, 2))}\n`;
}

function write(text: string): void {
  process.stdout.write(text);
}
