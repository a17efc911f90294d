// A real SDK Client over InMemoryTransport to the MCP server, with a scripted executor behind the seam: what the
// dispatch and tools/list tests talk to. `closeServers` after each test closes what `connect` opened.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AgentRegistry } from '../../../electron/core/mcp/agent-registry.js';
import { buildServer } from '../../../electron/core/mcp/build-server.js';
import type { FallbackState } from '../../../electron/core/fallback/fallback-executor.js';
import { type StatusInputs, statusReport } from '../../../electron/core/mcp/status.js';
import type { Executor, Operation, OperationContext, OperationResult } from '../../../shared/protocol/operations.js';
import type { ToolCap } from '../../../shared/policy/tool-caps.js';
import { makeHub, tempDataDirs } from '../../control/support.js';
import { TEST_POLICY } from '../../support/test-policy.js';

export type Step = (args: Record<string, unknown>, ctx: OperationContext) => Promise<OperationResult>;

/** Answers each operation from a script and records what it was asked. */
class ScriptedExecutor implements Executor {
  readonly calls: { op: Operation; args: Record<string, unknown> }[] = [];
  constructor(private readonly script: Partial<Record<Operation, Step>>) {}
  async run(op: Operation, args: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult> {
    this.calls.push({ op, args });
    const step = this.script[op];
    if (!step) throw new Error(`unscripted ${op}`);
    return step(args, ctx);
  }
}

export const IDLE: FallbackState = {
  launched: false,
  executable: '/usr/bin/chromium',
  headless: true,
  profileDir: '/data/fallback-profile',
  tabs: 0,
  currentTab: null,
};
export const UNPAIRED: StatusInputs['extension'] = { connected: false, bridge: { port: 38017 }, pairing: 'none' };

export function inputs(
  fallback: FallbackState,
  extension = UNPAIRED,
  lastCall?: StatusInputs['lastCall'],
): StatusInputs {
  return { choice: 'auto', lastCall, extension, fallback };
}

const open: { client: Client }[] = [];
const dataDirs = tempDataDirs();

/** `agents`: shared by servers that stand for sessions on one core. */
export async function connect(
  script: Partial<Record<Operation, Step>> = {},
  state: StatusInputs = inputs(IDLE),
  agents = new AgentRegistry(),
  caps: readonly ToolCap[] = [],
) {
  const executor = new ScriptedExecutor(script);
  const logged: string[] = [];
  const { hub } = makeHub(dataDirs.make(), { grants: TEST_POLICY.grants });
  const server = buildServer(
    { executor, status: () => statusReport(state), control: hub, agents, log: (line) => logged.push(line) },
    agents.open(),
    caps,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // Every message the server puts on the wire, to measure it and to see notifications the client may not surface.
  const sent: JSONRPCMessage[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  open.push({ client });
  return { client, executor, sent, logged };
}

export async function closeServers(): Promise<void> {
  for (const { client } of open.splice(0)) await client.close();
  dataDirs.cleanup();
}
