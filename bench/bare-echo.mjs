#!/usr/bin/env node
// The floor the bench measures mcpx against: a bare node:http JSON-RPC echo. It reads a POST
// body, parses it, and answers `tools/call` with its `text` argument as a JSON body, with none
// of MCP's sessions, checks or streams. Whatever mcpx takes beyond this (and beyond the stdio
// upstream behind it) is mcpx's own cost.
//
//   node bench/bare-echo.mjs     prints "LISTENING <url>" on stdout; binds 127.0.0.1 only
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    let message;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
      return;
    }
    const text = message?.params?.arguments?.text ?? '';
    const answer = { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: String(text) }] } };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer));
  });
});
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdout.write(`LISTENING http://127.0.0.1:${server.address().port}/mcp\n`);
