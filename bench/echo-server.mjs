#!/usr/bin/env node
// The benchmark's upstream: `echo`, which returns its `text` argument; `ask`, which first asks its
// client for a name (elicitation/create; an agent may answer it) and returns the answer; and
// `confirm`, which asks a lone yes/no (a consent: mcpx keeps it for a person, or the calling host).
// Built on the SDK 1.x low-level Server, so what is measured is the transport and mcpx, not the tool.
//
//   node bench/echo-server.mjs --stdio
//   node bench/echo-server.mjs --http    stateful Streamable HTTP on 127.0.0.1 (SDK defaults:
//                                        SSE responses); prints "LISTENING <url>" on stdout
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const ECHO_TOOL = {
  name: 'echo',
  description: 'Returns its text argument',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' }, delayMs: { type: 'number', description: 'wait this long before answering' } },
    required: ['text'],
  },
};

/** Each question tool asks its question, then returns `<action>:<the answer's one value>`. */
const QUESTIONS = {
  ask: {
    message: 'Which label should the benchmark print?',
    requestedSchema: { type: 'object', properties: { label: { type: 'string', title: 'Label' } }, required: ['label'] },
  },
  confirm: {
    message: 'Go on with the benchmark?',
    requestedSchema: { type: 'object', properties: { go: { type: 'boolean', title: 'Go on' } }, required: ['go'] },
  },
};
const QUESTION_TOOLS = Object.keys(QUESTIONS).map((name) => ({
  name,
  description: `Asks: ${QUESTIONS[name].message}`,
  inputSchema: { type: 'object', properties: {} },
}));

function buildServer() {
  const server = new Server({ name: 'bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ECHO_TOOL, ...QUESTION_TOOLS] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const question = QUESTIONS[request.params.name];
    if (question) {
      const answer = await server.elicitInput(question);
      const [value] = Object.values(answer.content ?? {});
      return { content: [{ type: 'text', text: `${answer.action}:${value}` }] };
    }
    const { text = '', delayMs = 0 } = request.params.arguments ?? {};
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return { content: [{ type: 'text', text: String(text) }] };
  });
  return server;
}

function reply(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
}

async function runHttp() {
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const transports = new Map();
  const httpServer = createServer(async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (sessionId !== undefined) return reply(res, 404, 'Session not found');
    if (req.method !== 'POST') return reply(res, 400, 'No session');
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (!isInitializeRequest(body)) return reply(res, 400, 'No session');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    transport.onclose = () => void (transport.sessionId && transports.delete(transport.sessionId));
    await buildServer().connect(transport);
    return transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const stop = () => {
    httpServer.closeAllConnections();
    httpServer.close(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`LISTENING http://127.0.0.1:${httpServer.address().port}/mcp\n`);
}

if (process.argv.includes('--stdio')) {
  await buildServer().connect(new StdioServerTransport());
} else if (process.argv.includes('--http')) {
  await runHttp();
} else {
  process.stderr.write('usage: echo-server.mjs --stdio | --http\n');
  process.exit(2);
}
