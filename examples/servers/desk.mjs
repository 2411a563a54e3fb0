// A tiny MCP server that asks before it acts: `book_table` needs the guest's details,
// so it stops mid-call with an elicitation/create (form mode). Used by the README's example.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

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
  );
  if (answer.action !== 'accept') {
    return { content: [{ type: 'text', text: `No booking made (the question was ${answer.action}ed).` }] };
  }
  const { name, partySize, time = '20:00' } = answer.content;
  return { content: [{ type: 'text', text: `Booked ${restaurant} for ${name}, ${partySize} people at ${time}.` }] };
});

await server.connect(new StdioServerTransport());
