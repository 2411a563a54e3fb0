import { describe, expect, it } from "vitest";
import { accepts, postAcceptance } from "../../src/host/media-types.js";

describe("postAcceptance", () => {
  it("reads each header as accepts does, whichever header came before (the last reading is kept)", () => {
    const headers = [
      "application/json, text/event-stream",
      "application/json",
      "text/event-stream",
      "application/json, text/event-stream",
      "text/*;q=0, application/json",
      "*/*",
      "application/json;q=0, */*",
      "text/event-stream",
      undefined,
      ["application/json", "text/event-stream"],
      "image/png",
      "image/png",
    ];
    for (const header of headers) {
      expect(postAcceptance(header), String(header)).toEqual({
        json: accepts(header, "application/json"),
        sse: accepts(header, "text/event-stream"),
      });
    }
  });
});
