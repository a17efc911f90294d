// The floor under every MCP call, without us: the SDK client calling a bare SDK server's no-op tool over stdio
// (sdk-noop-server.ts), timed as the bench times our calls, so `status` can be read against it.
import { fileURLToPath } from 'node:url';
import { connectOver } from './mcp-client.js';
import { time, type Timing } from './measure.js';

const SERVER = fileURLToPath(new URL('./sdk-noop-server.ts', import.meta.url));

export async function sdkFloor(rounds: number): Promise<Timing> {
  const client = await connectOver({ command: process.execPath, args: ['--import', 'tsx', SERVER] });
  try {
    // The first calls warm both processes up, as the session's own calls are warm by the time they are timed.
    for (let i = 0; i < 50; i++) await client.callTool({ name: 'noop', arguments: {} });
    return await time(rounds, () => client.callTool({ name: 'noop', arguments: {} }));
  } finally {
    await client.close();
  }
}
