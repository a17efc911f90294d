// Which MCP clients are connected, through real SDK Clients over InMemoryTransport and the real control hub, wired the
// way the core wires them: each listed by name once it has introduced itself, gone once its session ends, every
// change an activity event; a name is cleaned before anyone reads it; the agent's own `status` does not list them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlHub } from '../../electron/core/control/hub.js';
import { AgentRegistry } from '../../electron/core/mcp/agent-registry.js';
import { buildServer } from '../../electron/core/mcp/build-server.js';
import { statusReport } from '../../electron/core/mcp/status.js';
import { CLIENT_NAME_MAX } from '../../shared/control/mcp-clients.js';
import type { Executor } from '../../shared/protocol/operations.js';
import { makeHub, tempDataDirs } from '../control/support.js';
import { textOf } from '../support/tool-result.js';

const dataDirs = tempDataDirs();
const open: Client[] = [];
const executor: Executor = { run: async (op) => ({ text: `${op} done` }) };
const IDLE_REPORT = statusReport({
  choice: 'auto',
  lastCall: undefined,
  extension: { connected: false, bridge: { port: 1 }, pairing: 'none' },
  fallback: { launched: false, executable: null, headless: true, profileDir: '/p', tabs: 0, currentTab: null },
});

afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
  dataDirs.cleanup();
});

/** What the panel's status adds about the core (here a marker): the tab any client used last, among other things. */
const PANEL_CORE = { tab: { id: 'panel-only-tab', url: 'https://last-used.example/' } };

/** A hub and a registry as core.ts wires them, the clock at `time`. */
function core() {
  const clock = { time: 1_000 };
  const agents: AgentRegistry = new AgentRegistry({
    onClient: (change, client) => hub.recordClient(change, client),
    now: () => clock.time,
  });
  const { hub } = makeHub(dataDirs.make(), { clients: () => agents.clients(), statusExtra: async () => PANEL_CORE });
  return { hub, agents, clock };
}

/** One session served from `agents`, its client named `name`; resolves once `initialize` is done on both sides. */
async function connect(hub: ControlHub, agents: AgentRegistry, name: string): Promise<Client> {
  const server = buildServer(
    { executor, status: () => IDLE_REPORT, control: hub, agents, log: () => undefined },
    agents.open(),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name, version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  open.push(client);
  return client;
}

const listed = async (hub: ControlHub) => (await hub.call('status', {})).clients;
const clientEvents = async (hub: ControlHub) =>
  (await hub.call('activity.list', {})).events.flatMap((event) =>
    event.type === 'client' ? [`${event.change} ${event.client.id} ${event.client.name}`] : [],
  );

describe('connected MCP clients', () => {
  it("lists each session by its client's name and since when, until the session ends, and records both as activity", async () => {
    const { hub, agents, clock } = core();
    expect(await listed(hub)).toEqual([]);
    await connect(hub, agents, 'Claude Code');
    clock.time = 2_000;
    await connect(hub, agents, 'Claude Desktop');
    // `initialized` is a notification: the server takes it up a moment after the client's connect resolves.
    await expect
      .poll(() => listed(hub))
      .toEqual([
        { id: '1', name: 'Claude Code', since: 1_000 },
        { id: '2', name: 'Claude Desktop', since: 2_000 },
      ]);

    // What session.ts does when the client's socket closes.
    expect(agents.close('1')).toEqual({ id: '1', name: 'Claude Code', since: 1_000 });
    expect(await listed(hub)).toEqual([{ id: '2', name: 'Claude Desktop', since: 2_000 }]);
    expect(await clientEvents(hub)).toEqual([
      'connected 1 Claude Code',
      'connected 2 Claude Desktop',
      'disconnected 1 Claude Code',
    ]);
    // Who connected is for the panel: the audit log keeps the calls only, as before.
    expect((await hub.call('audit.read', {})).entries).toEqual([]);
  });

  it('lists no session whose client has not finished initialize, and records nothing when one ends', async () => {
    const { hub, agents } = core();
    const half = agents.open();
    agents.introduce('no-such-session', 'ghost');
    expect(await listed(hub)).toEqual([]);
    expect(agents.close(half)).toBeUndefined();
    expect(await clientEvents(hub)).toEqual([]);
  });

  it("cleans a client's name before the status, the activity or a call record shows it", async () => {
    const { hub, agents } = core();
    const secret = `sk-ant-api03-${'Ab3'.repeat(31)}AA`;
    const raw = `Evil\nClient\u202Egnp.exe\u0007 ${secret} ${'z'.repeat(300)}`;
    const client = await connect(hub, agents, raw);
    await expect.poll(async () => (await listed(hub)).length).toBe(1);
    const name = (await listed(hub))[0]!.name;
    expect(name).toMatch(/^Evil Clientgnp\.exe sk-ant-api03-\[redacted \d+ chars\] z+…$/);
    expect(name).toHaveLength(CLIENT_NAME_MAX);
    expect(name.endsWith('…')).toBe(true);
    expect(name).not.toMatch(/[\p{Cc}\p{Cf}]/u);

    await client.callTool({ name: 'snapshot', arguments: {} });
    const { events } = await hub.call('activity.list', {});
    expect(
      events.flatMap((event) =>
        event.type === 'call' ? [event.client] : event.type === 'client' ? [event.client.name] : [],
      ),
    ).toEqual([name, name]);
  });

  it("leaves the other clients and the panel's core report out of the agent's own status: they are for the person", async () => {
    const { hub, agents } = core();
    await connect(hub, agents, 'other-client');
    const asking = await connect(hub, agents, 'asking-client');
    await expect.poll(async () => (await listed(hub)).length).toBe(2);
    const result = await asking.callTool({ name: 'status', arguments: {} });
    expect(JSON.stringify(result)).not.toContain('other-client');
    expect(textOf(result)).not.toContain('client');
    // The agent's report is built for its own session; the panel's names the tab any client used last.
    expect(JSON.stringify(result)).not.toContain('panel-only-tab');
    expect(Object.keys((result.structuredContent as { oversight: object }).oversight).sort()).toEqual([
      'held',
      'interjections',
      'plan',
      'questions',
      'stopped',
    ]);
  });
});
