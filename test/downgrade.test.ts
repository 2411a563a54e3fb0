/**
 * Rich 2025-11-25 payloads, downgraded for each legacy revision, must validate strictly against
 * that revision's official schema, lose nothing they could keep, and leave the input untouched.
 * Each payload is first shown to fail for the older revisions, so the checks prove something.
 */
import { describe, expect, it } from "vitest";
import { canCarryNotification, downgradeContentBlock, downgradeNotification, downgradeResult } from "../src/protocol/downgrade.js";
import type { JsonObject } from "../src/protocol/jsonrpc.js";
import { LEGACY_REVISIONS, type Revision } from "../src/protocol/revisions.js";
import { validateToClient } from "./helpers/spec-validator.js";

const NEWEST: Revision = "2025-11-25";
const OLDER = LEGACY_REVISIONS.filter((revision) => revision !== NEWEST);

const icons = [{ src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"], theme: "light" }];
const meta = { "example.com/trace": "abc" };
const annotations = { audience: ["user"], priority: 0.7, lastModified: "2025-11-01T12:00:00Z" };
const forecast = { celsius: 22.5, sky: "sunny" };

const textBlock = { type: "text", text: "Sunny, 22.5 °C", annotations, _meta: meta };
const imageBlock = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png", annotations, _meta: meta };
const audioBlock = { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav", annotations, _meta: meta };
const embeddedBlock = {
  type: "resource",
  resource: { uri: "file:///notes/today.md", mimeType: "text/markdown", text: "# Today", _meta: meta },
  annotations,
  _meta: meta,
};
const blobBlock = { type: "resource", resource: { uri: "file:///img/radar.png", mimeType: "image/png", blob: "iVBORw0KGgo=" } };
const linkBlock = {
  type: "resource_link",
  uri: "file:///reports/weekly.pdf",
  name: "weekly.pdf",
  title: "Weekly report",
  description: "The week's forecast",
  mimeType: "application/pdf",
  size: 20480,
  icons,
  annotations,
  _meta: meta,
};

/** Rich 2025-11-25 results, by method. */
const RICH: Record<string, JsonObject> = {
  "tools/list": {
    tools: [
      {
        name: "forecast",
        title: "Forecast",
        description: "Weather for a city",
        icons,
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        outputSchema: { type: "object", properties: { celsius: { type: "number" }, sky: { type: "string" } }, required: ["celsius"] },
        annotations: { title: "Forecast", readOnlyHint: true, openWorldHint: true },
        execution: { taskSupport: "optional" },
        _meta: meta,
      },
      { name: "plain", inputSchema: { type: "object" } },
    ],
    nextCursor: "page-2",
    _meta: meta,
  },
  "tools/call": {
    content: [textBlock, imageBlock, audioBlock, embeddedBlock, blobBlock, linkBlock],
    structuredContent: forecast,
    isError: false,
    _meta: meta,
  },
  "resources/list": {
    resources: [
      {
        uri: "file:///notes/today.md",
        name: "today.md",
        title: "Today's notes",
        description: "Notes",
        mimeType: "text/markdown",
        size: 7,
        annotations,
        icons,
        _meta: meta,
      },
    ],
  },
  "resources/templates/list": {
    resourceTemplates: [
      {
        uriTemplate: "file:///notes/{day}.md",
        name: "notes",
        title: "Notes by day",
        description: "One file a day",
        mimeType: "text/markdown",
        annotations,
        icons,
        _meta: meta,
      },
    ],
  },
  "resources/read": {
    contents: [
      { uri: "file:///notes/today.md", mimeType: "text/markdown", text: "# Today", _meta: meta },
      { uri: "file:///img/radar.png", mimeType: "image/png", blob: "iVBORw0KGgo=", _meta: meta },
    ],
  },
  "prompts/list": {
    prompts: [
      {
        name: "plan-trip",
        title: "Plan a trip",
        description: "Plans a trip",
        arguments: [{ name: "city", title: "City", description: "Where to", required: true }],
        icons,
        _meta: meta,
      },
    ],
  },
  "prompts/get": {
    description: "Plans a trip",
    messages: [
      { role: "user", content: textBlock },
      { role: "assistant", content: audioBlock },
      { role: "user", content: linkBlock },
      { role: "user", content: embeddedBlock },
      { role: "user", content: imageBlock },
    ],
    _meta: meta,
  },
};

/** ReadResourceResult has not changed since 2025-06-18: there the rich payload is valid as it is. */
const VALID_FROM: Record<string, Revision> = { "resources/read": "2025-06-18" };
const isBefore = (revision: Revision, other: Revision) => LEGACY_REVISIONS.indexOf(revision) < LEGACY_REVISIONS.indexOf(other);

const response = (result: JsonObject) => ({ jsonrpc: "2.0", id: 1, result });

describe.each(Object.keys(RICH))("%s", (method) => {
  const rich = RICH[method]!;
  const validFrom = VALID_FROM[method] ?? NEWEST;

  it("the rich payload is valid for 2025-11-25 and comes back unchanged, as a copy", () => {
    expect(validateToClient(NEWEST, response(rich), method).errors).toEqual([]);
    const out = downgradeResult(method, rich, NEWEST);
    expect(out).toEqual(rich);
    expect(out).not.toBe(rich);
  });

  it.each(OLDER)("for %s: fails as it is if it must, passes once downgraded, input untouched", (revision) => {
    const before = structuredClone(rich);
    const asIs = validateToClient(revision, response(rich), method);
    if (isBefore(revision, validFrom)) expect(asIs.valid).toBe(false);
    else expect(asIs.errors).toEqual([]);
    const out = downgradeResult(method, rich, revision);
    expect(validateToClient(revision, response(out), method).errors).toEqual([]);
    if (!isBefore(revision, validFrom)) expect(out).toEqual(rich);
    expect(rich).toEqual(before);
  });
});

describe("what survives", () => {
  const call = (revision: Revision) => downgradeResult("tools/call", RICH["tools/call"]!, revision);
  const texts = (result: JsonObject) => (result.content as JsonObject[]).filter((block) => block.type === "text").map((block) => block.text as string);

  it("keeps tools' names, descriptions and input schemas, and each field from its revision on", () => {
    const [first] = downgradeResult("tools/list", RICH["tools/list"]!, "2024-11-05").tools as JsonObject[];
    expect(first).toEqual({
      name: "forecast",
      description: "Weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    const [mid] = downgradeResult("tools/list", RICH["tools/list"]!, "2025-03-26").tools as JsonObject[];
    expect(Object.keys(mid!)).toEqual(["name", "description", "inputSchema", "annotations"]);
    const [late] = downgradeResult("tools/list", RICH["tools/list"]!, "2025-06-18").tools as JsonObject[];
    expect(Object.keys(late!)).toEqual(["name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta"]);
  });

  it("turns structuredContent into a JSON text block when no text block carries it", () => {
    for (const revision of ["2024-11-05", "2025-03-26"] as const) {
      const out = call(revision);
      expect(out.structuredContent).toBeUndefined();
      expect(texts(out)).toContain("Sunny, 22.5 °C");
      expect(
        texts(out).map((text) => {
          try {
            return JSON.parse(text);
          } catch {
            return undefined;
          }
        }),
      ).toContainEqual(forecast);
    }
    expect(call("2025-06-18").structuredContent).toEqual(forecast);
    expect(call("2025-06-18").content).toHaveLength(6);
  });

  it("does not repeat structuredContent a text block already carries", () => {
    const carried = { content: [{ type: "text", text: JSON.stringify({ sky: "sunny", celsius: 22.5 }, null, 2) }], structuredContent: forecast };
    const out = downgradeResult("tools/call", carried, "2024-11-05");
    expect(out).toEqual({ content: carried.content });
  });

  it("adds the JSON block to an empty or missing content list", () => {
    const out = downgradeResult("tools/call", { structuredContent: forecast }, "2025-03-26");
    expect(out).toEqual({ content: [{ type: "text", text: JSON.stringify(forecast) }] });
  });

  it("says what audio was omitted before 2025-03-26, and keeps it from then on", () => {
    const [, , audio] = call("2024-11-05").content as JsonObject[];
    expect(audio).toEqual({
      type: "text",
      text: "[audio omitted: audio/wav — this client's protocol revision cannot carry audio]",
      annotations: { audience: ["user"], priority: 0.7 },
    });
    const [, , kept] = call("2025-03-26").content as JsonObject[];
    expect(kept).toEqual({ type: "audio", data: audioBlock.data, mimeType: "audio/wav", annotations: { audience: ["user"], priority: 0.7 } });
  });

  it("names a resource link in text before 2025-06-18, and keeps the link from then on", () => {
    for (const revision of ["2024-11-05", "2025-03-26"] as const) {
      const link = (call(revision).content as JsonObject[])[5]!;
      expect(link.type).toBe("text");
      expect(link.text).toBe("[resource link: Weekly report (weekly.pdf) <file:///reports/weekly.pdf>, application/pdf — The week's forecast]");
    }
    const { icons: _icons, ...withoutIcons } = linkBlock;
    expect((call("2025-06-18").content as JsonObject[])[5]).toEqual(withoutIcons);
  });

  it("keeps embedded resources, minus the _meta and lastModified older revisions lack", () => {
    const embedded = (call("2024-11-05").content as JsonObject[])[3];
    expect(embedded).toEqual({
      type: "resource",
      resource: { uri: "file:///notes/today.md", mimeType: "text/markdown", text: "# Today" },
      annotations: { audience: ["user"], priority: 0.7 },
    });
    expect((call("2025-06-18").content as JsonObject[])[3]).toEqual(embeddedBlock);
  });

  it("keeps resource and prompt essentials", () => {
    const [resource] = downgradeResult("resources/list", RICH["resources/list"]!, "2024-11-05").resources as JsonObject[];
    expect(resource).toEqual({
      uri: "file:///notes/today.md",
      name: "today.md",
      description: "Notes",
      mimeType: "text/markdown",
      size: 7,
      annotations: { audience: ["user"], priority: 0.7 },
    });
    const [prompt] = downgradeResult("prompts/list", RICH["prompts/list"]!, "2025-03-26").prompts as JsonObject[];
    expect(prompt).toEqual({
      name: "plan-trip",
      description: "Plans a trip",
      arguments: [{ name: "city", description: "Where to", required: true }],
    });
    const messages = downgradeResult("prompts/get", RICH["prompts/get"]!, "2024-11-05").messages as JsonObject[];
    expect(messages.map((message) => (message.content as JsonObject).type)).toEqual(["text", "text", "text", "resource", "image"]);
  });

  it("leaves results that need nothing alone", () => {
    const completion = { completion: { values: ["Oslo"], total: 1, hasMore: false } };
    expect(downgradeResult("completion/complete", completion, "2025-03-26")).toEqual(completion);
    expect(downgradeResult("ping", {}, "2024-11-05")).toEqual({});
  });

  it("drops annotations only when the downgrade emptied them", () => {
    const onlyDate = { type: "text", text: "x", annotations: { lastModified: "2025-01-01T00:00:00Z" } };
    expect(downgradeContentBlock(onlyDate, "2025-03-26")).toEqual({ type: "text", text: "x" });
    expect(downgradeContentBlock({ type: "text", text: "x", annotations: {} }, "2025-03-26")).toEqual({ type: "text", text: "x", annotations: {} });
  });

  it("downgradeContentBlock returns a copy and leaves unknown kinds as they are", () => {
    const before = structuredClone(linkBlock);
    const out = downgradeContentBlock(linkBlock, NEWEST);
    expect(out).toEqual(linkBlock);
    expect(out.icons).not.toBe(linkBlock.icons);
    downgradeContentBlock(linkBlock, "2024-11-05");
    expect(linkBlock).toEqual(before);
    expect(downgradeContentBlock({ type: "hologram", x: 1 }, "2024-11-05")).toEqual({ type: "hologram", x: 1 });
  });
});

describe("notifications", () => {
  const note = (method: string, params?: JsonObject) => ({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });

  const RICH_NOTIFICATIONS: Record<string, JsonObject> = {
    "notifications/progress": { progressToken: "tok", progress: 3, total: 10, message: "3 of 10", _meta: meta },
    "notifications/message": { level: "info", logger: "weather", data: { ok: true }, _meta: meta },
    "notifications/resources/updated": { uri: "file:///notes/today.md", _meta: meta },
    "notifications/cancelled": { requestId: 4, reason: "user", _meta: meta },
  };

  describe.each(Object.keys(RICH_NOTIFICATIONS))("%s", (method) => {
    const rich = RICH_NOTIFICATIONS[method]!;

    it("is valid for 2025-11-25 and unchanged there", () => {
      expect(validateToClient(NEWEST, note(method, rich)).errors).toEqual([]);
      expect(downgradeNotification(method, rich, NEWEST)).toEqual(rich);
    });

    it.each(OLDER)("fails for %s as it is, and passes once downgraded", (revision) => {
      const before = structuredClone(rich);
      expect(validateToClient(revision, note(method, rich)).valid).toBe(false);
      expect(canCarryNotification(method, rich, revision)).toBe(true);
      const out = downgradeNotification(method, rich, revision);
      expect(validateToClient(revision, note(method, out)).errors).toEqual([]);
      expect(rich).toEqual(before);
    });
  });

  it("keeps the progress message from 2025-03-26 on", () => {
    expect(downgradeNotification("notifications/progress", RICH_NOTIFICATIONS["notifications/progress"], "2024-11-05")).toEqual({
      progressToken: "tok",
      progress: 3,
      total: 10,
    });
    expect(downgradeNotification("notifications/progress", RICH_NOTIFICATIONS["notifications/progress"], "2025-03-26")).toEqual({
      progressToken: "tok",
      progress: 3,
      total: 10,
      message: "3 of 10",
    });
  });

  it("passes list_changed notifications through for every revision", () => {
    for (const method of ["notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/prompts/list_changed"]) {
      for (const revision of LEGACY_REVISIONS) {
        const params = downgradeNotification(method, undefined, revision);
        expect(params).toEqual({});
        expect(validateToClient(revision, note(method)).errors).toEqual([]);
        expect(validateToClient(revision, note(method, params)).errors).toEqual([]);
      }
    }
  });

  it("says which notifications a revision cannot carry at all", () => {
    const complete = { elicitationId: "e1" };
    expect(canCarryNotification("notifications/elicitation/complete", complete, "2025-06-18")).toBe(false);
    expect(validateToClient("2025-06-18", note("notifications/elicitation/complete", complete)).valid).toBe(false);
    expect(canCarryNotification("notifications/elicitation/complete", complete, NEWEST)).toBe(true);
    expect(validateToClient(NEWEST, note("notifications/elicitation/complete", complete)).errors).toEqual([]);
    expect(canCarryNotification("notifications/tasks/status", {}, "2025-06-18")).toBe(false);
    expect(canCarryNotification("notifications/cancelled", { reason: "x" }, "2025-06-18")).toBe(false);
    expect(canCarryNotification("notifications/cancelled", { reason: "x" }, NEWEST)).toBe(true);
    expect(canCarryNotification("notifications/progress", {}, "2024-11-05")).toBe(true);
  });
});
