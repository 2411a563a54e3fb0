/**
 * `mcpx call` on a terminal: instead of exiting 75, ask the person at it. Form questions are
 * prompted field by field; a URL question shows the URL (never opened by mcpx) and asks for
 * consent; anything else is left to `mcpx elicit` and the call keeps waiting.
 * Prompts go to stderr so that stdout carries only the result; upstream text in them is inert.
 */
import type { Broker } from "../broker/broker.js";
import { BrokerError } from "../broker/errors.js";
import type { QuestionRecord } from "../broker/types.js";
import { parseBoolean } from "./elicit/coerce.js";
import { promptForAnswer, PromptStopped } from "./elicit/prompt.js";
import { respondWith } from "./input-required.js";
import { inert } from "./inert.js";
import { createInterface } from "node:readline/promises";

export function terminalAsker(broker: Broker): (questions: QuestionRecord[]) => Promise<void> {
  const output = process.stderr;
  return async (questions) => {
    for (const question of questions) {
      try {
        if (question.kind === "elicitation" && question.mode === "form") {
          const content = await promptForAnswer(question, { input: process.stdin, output, terminal: true });
          if (content) await broker.answer(question.id, { action: "accept", content }, { by: "cli" });
          else output.write(`not sent; answer later with: ${inert(respondWith(question))}\n`);
        } else if (question.kind === "elicitation" && question.mode === "url") {
          output.write(
            `server "${inert(question.server)}" asks you to open this URL yourself:\n  ${inert(question.url)}\n  host: ${inert(hostOf(question.url))}\n`,
          );
          const rl = createInterface({ input: process.stdin, output, terminal: true });
          const reply = await rl.question("have you opened it, and do you consent? [y/N] ");
          rl.close();
          await broker.answer(question.id, { action: parseBoolean(reply.trim()) ? "accept" : "decline" }, { by: "cli" });
        } else {
          output.write(`server "${inert(question.server)}" asks ${inert(question.method)}; answer it with:\n  ${inert(respondWith(question))}\n`);
        }
      } catch (error) {
        if (error instanceof PromptStopped) output.write(`not sent; answer later with: ${inert(respondWith(question))}\n`);
        else if (error instanceof BrokerError) output.write(`mcpx: ${inert(error.message)}\n`);
        else throw error;
      }
    }
  };
}

function hostOf(url: string | undefined): string {
  try {
    return new URL(url ?? "").host;
  } catch {
    return "(not a valid URL)";
  }
}
