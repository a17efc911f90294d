// A bare MCP SDK server on stdio with one tool that answers "ok": what any MCP call over stdio costs before our code.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'noop', version: '1.0.0' });
server.registerTool('noop', { description: 'Answers ok.' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
await server.connect(new StdioServerTransport());
