/**
 * The typed client a script is written against (`mcpx client`, `--typecheck`): one global per
 * server, one async method per tool, named as scripts/script-servers.ts names them, so what
 * type-checks is what runs. A method's arguments are its inputSchema; its result is what the
 * sandbox hands back: the structured content typed by the outputSchema where the tool has one,
 * else the content blocks. Pure.
 *
 * The text is a module: the globals (servers, helpers, the content block shapes) are declared
 * in `declare global`, the servers' interfaces and their schemas' named parts stay in the
 * module, so no server or schema name can collide with a lib type (`Map`, `Record`, `Date`) in
 * a project that includes the file. It compiles under `tsc --strict` with lib es2022 alone, and
 * beside lib.dom or @types/node.
 */
import { commentLines, docComment } from "../discovery/doc-comment.js";
import type { ToolRecord } from "../discovery/records.js";
import { schemaTypes } from "../discovery/schema-type.js";
import { propertyKey, TypeNames } from "../discovery/ts-names.js";
import { scriptServers } from "./script-servers.js";

export interface ClientOptions {
  /** Each server's one-line description, by server name: its interface's doc comment. */
  serverDescriptions?: Record<string, string>;
}

/**
 * The globals every script has, whatever its servers: its arguments, the console, the helpers,
 * the question hook, and the shapes they take (MCP's content blocks, a question and its answer).
 */
const GLOBALS = `  /** What a tool without an outputSchema returns: its content blocks (MCP ContentBlock). */
  type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

  interface ContentAnnotations {
    audience?: ("user" | "assistant")[];
    priority?: number;
    lastModified?: string;
  }

  interface TextContent {
    type: "text";
    text: string;
    annotations?: ContentAnnotations;
    _meta?: { [key: string]: unknown };
  }

  interface ImageContent {
    type: "image";
    /** Base64. */
    data: string;
    mimeType: string;
    annotations?: ContentAnnotations;
    _meta?: { [key: string]: unknown };
  }

  interface AudioContent {
    type: "audio";
    /** Base64. */
    data: string;
    mimeType: string;
    annotations?: ContentAnnotations;
    _meta?: { [key: string]: unknown };
  }

  /** A resource the server can read (not necessarily one resources/list shows). */
  interface ResourceLink {
    type: "resource_link";
    uri: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
    size?: number;
    icons?: { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" }[];
    annotations?: ContentAnnotations;
    _meta?: { [key: string]: unknown };
  }

  /** A resource's contents, embedded in the result: text, or a base64 blob. */
  interface EmbeddedResource {
    type: "resource";
    resource:
      | { uri: string; mimeType?: string; text: string; _meta?: { [key: string]: unknown } }
      | { uri: string; mimeType?: string; blob: string; _meta?: { [key: string]: unknown } };
    annotations?: ContentAnnotations;
    _meta?: { [key: string]: unknown };
  }

  /** A question a tool call of this script raised, as an onElicit handler sees it. */
  interface ElicitQuestion {
    server: string;
    tool: string;
    message: string;
    /** The form asked for (MCP's requestedSchema): flat, one property per field. */
    requestedSchema: {
      type: "object";
      properties: { [field: string]: { type?: string; title?: string; description?: string; [key: string]: unknown } };
      required?: string[];
      [key: string]: unknown;
    };
  }

  /** An onElicit handler's answer; content goes with "accept". */
  interface ElicitAnswer {
    action: "accept" | "decline" | "cancel";
    content?: { [field: string]: string | number | boolean | string[] };
  }

  /** The words after the script on the command line (\`mcpx run FILE ARGS…\`); [] otherwise. */
  const args: string[];

  /** log, info, debug and trace print to the script's output; error and warn to its stderr, kept apart. */
  interface Console {
    log(...data: unknown[]): void;
    info(...data: unknown[]): void;
    debug(...data: unknown[]): void;
    trace(...data: unknown[]): void;
    error(...data: unknown[]): void;
    warn(...data: unknown[]): void;
  }
  var console: Console;

  /** Calls \`handler\` after \`ms\`, within the run's deadline (one set past it never fires); no setInterval. */
  function setTimeout<A extends unknown[]>(handler: (...args: A) => void, ms?: number, ...args: A): number;
  function clearTimeout(id: number | undefined): void;

  /** The text of a tool's content blocks: its text blocks, joined by newlines. */
  function textOf(blocks: ContentBlock[]): string;

  /** What a tool call throws when the tool reports an error or the call fails: the upstream's message, with the server and tool. */
  class ToolError extends Error {
    constructor(server: string, tool: string, message: string);
    readonly server: string;
    readonly tool: string;
  }

  /**
   * Answer the questions this script's tool calls raise that an agent may answer: return an
   * answer, or nothing to pass the question on (to the host, or the person).
   */
  function onElicit(handler: (question: ElicitQuestion) => Promise<ElicitAnswer | undefined> | ElicitAnswer | undefined): void;
`;

/** Names the text itself uses: no server or schema type may take them. */
const OWN_NAMES = [
  "ContentBlock",
  "ContentAnnotations",
  "TextContent",
  "ImageContent",
  "AudioContent",
  "ResourceLink",
  "EmbeddedResource",
  "ElicitQuestion",
  "ElicitAnswer",
  "Console",
  "Promise",
  "Error",
];

/**
 * The namespace the servers' interfaces live in. Inside `declare global` a global type of the
 * same name would win over a module's own (a server called `Record`); no global is called this
 * (it is a server name the config refuses).
 */
const NAMESPACE = "mcpx";

export function clientDeclarations(tools: readonly ToolRecord[], options: ClientOptions = {}): string {
  const records = new Map(tools.map((tool) => [`${tool.server}\u0000${tool.tool}`, tool]));
  const servers = scriptServers(tools);
  const names = new TypeNames(OWN_NAMES);
  // Interfaces first, so a server's never depends on its neighbours' schema type names.
  const interfaces = new Map(servers.map((server) => [server.server, names.allocate(server.variable, "server")]));
  const types: string[] = [];
  const globals: string[] = [];
  for (const server of servers) {
    const name = interfaces.get(server.server)!;
    const definitions: string[] = [];
    const methods = server.tools.map((scriptTool) => {
      const tool = records.get(`${server.server}\u0000${scriptTool.tool}`)!;
      const prefix = `${name}_${scriptTool.fn}`;
      const args = schemaTypes(tool.inputSchema ?? true, names, prefix, "    ");
      const output = tool.outputSchema === undefined ? undefined : schemaTypes(tool.outputSchema, names, `${prefix}_result`, "    ");
      definitions.push(...args.definitions, ...(output?.definitions ?? []));
      // Nothing required: the call may leave the arguments out (the sandbox sends {}).
      const optional = !hasRequired(tool.inputSchema) && (args.type.startsWith("{") || args.type === "unknown") ? "?" : "";
      const text = tool.description.trim() === "" ? (tool.title ?? "") : tool.description;
      const doc = scriptTool.fn === scriptTool.tool ? text : [text, `(The tool "${scriptTool.tool}".)`].filter(Boolean).join("\n\n");
      return `${docComment(doc, "    ")}    ${propertyKey(scriptTool.fn)}(args${optional}: ${args.type}): Promise<${output?.type ?? "ContentBlock[]"}>;\n`;
    });
    const doc = serverDoc(server.server, server.variable, options);
    types.push(
      `\n${docComment(doc, "  ")}  export interface ${name} {\n${methods.join("")}  }\n${definitions.map((definition) => definition.replace(/^(?=.)/gm, "  ")).join("")}`,
    );
    globals.push(`${docComment(doc, "  ")}  const ${server.variable}: ${NAMESPACE}.${name};\n`);
  }
  return [
    "// The tools a script reaches (mcpx run, mcpx exec, mcpx__exec): one global per server, one async method per tool.\n",
    `\n/** Each server's tools, and the types their schemas name. */\nexport declare namespace ${NAMESPACE} {${types.join("")}}\n`,
    `\ndeclare global {\n${GLOBALS}${globals.length > 0 ? "\n" : ""}${globals.join("")}}\n`,
  ].join("");
}

/** The server's description, and its real name where the script knows it by another. */
function serverDoc(server: string, variable: string, options: ClientOptions): string {
  const description = commentLines(options.serverDescriptions?.[server] ?? "").join(" ");
  return variable === server ? description : `Server "${server}".${description ? ` ${description}` : ""}`;
}

function hasRequired(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const required = (schema as { required?: unknown }).required;
  return Array.isArray(required) && required.length > 0;
}
