/**
 * The field-by-field prompt driven through injected streams, for what the terminal run in
 * elicit.test.ts does not cover: the plain (non-terminal) rendering of defaults, checks as each
 * value is typed, choosing by title, saying no at the confirmation, and input that ends.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { QuestionRecord } from "../../src/broker/types.js";
import { promptForAnswer, PromptStopped } from "../../src/cli/elicit/prompt.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";

function question(requestedSchema: JsonObject): QuestionRecord {
  return {
    id: "q1",
    server: "files",
    kind: "elicitation",
    method: "elicitation/create",
    mode: "form",
    message: "A few details",
    params: { message: "A few details", requestedSchema },
    requestedSchema,
    audience: "agent",
    audienceReason: "nothing in it needs a person",
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
    state: "pending",
    ownerPid: process.pid,
    ownerInstance: "test",
  };
}

/**
 * Streams for the prompt, and a way to answer each prompt once it has been printed (a line
 * typed while no question is pending is not kept for the next one, as on a terminal).
 */
function conversation() {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = "";
  let consumed = 0;
  const waiters: Array<() => void> = [];
  output.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of waiters.splice(0)) waiter();
  });
  const reply = (prompt: string, line?: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never prompted ${JSON.stringify(prompt)}; output:\n${text.slice(consumed)}`)), 5_000);
      const check = (): void => {
        const at = text.indexOf(prompt, consumed);
        if (at < 0) return void waiters.push(check);
        clearTimeout(timer);
        consumed = at + prompt.length;
        if (line !== undefined) input.write(`${line}\n`);
        resolve();
      };
      check();
    });
  return { streams: { input, output, terminal: false }, input, reply, output: () => text };
}

const SCHEMA: JsonObject = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 2, default: "Paris" },
    nights: { type: "integer", minimum: 1, maximum: 30 },
    room: { type: "string", enum: ["s", "d"], enumNames: ["Single", "Double"], default: "d" },
    extras: {
      type: "array",
      items: {
        anyOf: [
          { const: "bf", title: "Breakfast" },
          { const: "pk", title: "Parking" },
        ],
      },
    },
    newsletter: { type: "boolean" },
  },
  required: ["city", "nights"],
};

describe("promptForAnswer", () => {
  it("keeps shown defaults on an empty line, checks each value as typed, and picks choices by number or title", async () => {
    const chat = conversation();
    const answer = promptForAnswer(question(SCHEMA), chat.streams);
    await chat.reply('server "files" asks: A few details');
    await chat.reply("city [Paris]: ", "X");
    await chat.reply('field "city" must NOT have fewer than 2 characters');
    await chat.reply("city [Paris]: ", "");
    await chat.reply("nights: ", "");
    await chat.reply('"nights" is required');
    await chat.reply("nights: ", "31");
    await chat.reply('field "nights" must be <= 30');
    await chat.reply("nights: ", "3");
    await chat.reply("2) d  Double");
    await chat.reply("room [d]: ", "single");
    await chat.reply("2) pk  Parking");
    await chat.reply("extras: ", "2, breakfast");
    await chat.reply("newsletter: yes/no");
    await chat.reply("newsletter: ", "");
    await chat.reply('send it to "files"? [Y/n] ', "y");
    expect(await answer).toEqual({ city: "Paris", nights: 3, room: "s", extras: ["pk", "bf"] });
  });

  it("returns nothing when the person says no at the confirmation", async () => {
    const chat = conversation();
    const answer = promptForAnswer(question({ type: "object", properties: { n: { type: "number", default: 1.5 } } }), chat.streams);
    await chat.reply("n [1.5]: ", "");
    await chat.reply('"n": 1.5');
    await chat.reply("[Y/n] ", "maybe");
    await chat.reply("please answer yes or no");
    await chat.reply("[Y/n] ", "no");
    expect(await answer).toBeUndefined();
  });

  it("stops with PromptStopped when the input ends before the answer is confirmed", async () => {
    const chat = conversation();
    const answer = promptForAnswer(question(SCHEMA), chat.streams);
    await chat.reply("city [Paris]: ");
    chat.input.end();
    await expect(answer).rejects.toBeInstanceOf(PromptStopped);
  });
});
