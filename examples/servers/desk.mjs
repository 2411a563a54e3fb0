// A tiny MCP server that asks before it acts: `book_table` needs the guest's details,
// so it stops mid-call with an elicitation/create (form mode). Used by the README's example.
//
// `--wait-seconds N` is how long it waits for the answer (default 300). The SDK's own default
// is 60 s, after which it gives up on the question; mcpx's config gives the question the same
// lifetime (`elicitation.ttlSeconds`), so the deadline people see is the one the server keeps.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const at = process.argv.indexOf('--wait-seconds');
const waitSeconds = at === -1 ? 300 : Number(process.argv[at + 1]);
if (!(waitSeconds > 0)) throw new Error(`--wait-seconds must be a number of seconds above 0 (got ${process.argv[at + 1]})`);

const server = new Server({ name: 'desk', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'book_table',
      description: "Book a table at a restaurant; asks for the guest's name, party size and time.",
      inputSchema: { type: 'object', properties: { restaurant: { type: 'string' } }, required: ['restaurant'] },
    },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const restaurant = String(request.params.arguments?.restaurant ?? 'the restaurant');
  const answer = await extra.sendRequest(
    {
      method: 'elicitation/create',
      params: {
        message: `Booking a table at ${restaurant}: who is it for?`,
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: 'Name on the booking', minLength: 1 },
            partySize: { type: 'integer', title: 'Party size', minimum: 1, maximum: 12, default: 2 },
            time: {
              type: 'string',
              title: 'Time',
              oneOf: [
                { const: '18:00', title: 'Early (18:00)' },
                { const: '20:00', title: 'Late (20:00)' },
              ],
              default: '20:00',
            },
          },
          required: ['name', 'partySize'],
        },
      },
    },
    ElicitResultSchema,
    { timeout: waitSeconds * 1000 },
  );
  if (answer.action !== 'accept') {
    const how = answer.action === 'decline' ? 'declined' : 'cancelled';
    return { content: [{ type: 'text', text: `No booking made (the question was ${how}).` }] };
  }
  const { name, partySize, time = '20:00' } = answer.content;
  return { content: [{ type: 'text', text: `Booked ${restaurant} for ${name}, ${partySize} people at ${time}.` }] };
});

await server.connect(new StdioServerTransport());
