// Exact grants, through a real SDK Client that answers the site question itself ("Always allow"): the answer grants
// the origin asked (scheme, host, port) and nothing wider, and a public suffix is never asked about at all.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentRegistry } from '../../electron/core/mcp/agent-registry.js';
import { buildServer } from '../../electron/core/mcp/build-server.js';
import { statusReport } from '../../electron/core/mcp/status.js';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import type { Executor, OperationResult } from '../../shared/protocol/operations.js';
import { makeHub, tempDataDirs } from '../control/support.js';
import { textOf } from '../support/tool-result.js';

const dataDirs = tempDataDirs();
const clients: Client[] = [];

/** Navigates nowhere: the core's own policy check before any backend is what these tests are about. */
class NavigatingExecutor implements Executor {
  readonly urls: string[] = [];
  async run(_op: string, args: Record<string, unknown>): Promise<OperationResult> {
    this.urls.push(String(args['url']));
    return { text: 'navigated' };
  }
}

async function connect(answer = 'Always allow') {
  const { hub } = makeHub(dataDirs.make());
  const executor = new NavigatingExecutor();
  const agents = new AgentRegistry();
  const status = () =>
    statusReport({
      choice: 'auto',
      lastCall: undefined,
      extension: { connected: false, bridge: { port: 1 }, pairing: 'none' },
      fallback: { launched: false, executable: null, headless: true, profileDir: '/p', tabs: 0, currentTab: null },
    });
  const server = buildServer({ executor, status, control: hub, agents, log: () => undefined }, agents.open());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'grants-test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { answer } };
  });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  const navigate = async (url: string) => textOf(await client.callTool({ name: 'navigate', arguments: { url } }));
  const decide = (url: string) => {
    const decision = evaluatePolicy(url, 'read', hub.policy());
    return decision.allowed ? decision.level : decision.reason;
  };
  return { hub, executor, navigate, decide, asked };
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  dataDirs.cleanup();
});

describe('an "Always" answer', () => {
  it('on localhost:8888 grants that origin only: another local port, or https on the same one, still asks', async () => {
    const { hub, navigate, decide, asked } = await connect();
    expect(await navigate('http://localhost:8888/tree')).toBe('navigated');
    // What the answer grants is what the person was told: reading, with acting (not scripts).
    expect(asked).toEqual([
      'The agent wants to read http://localhost:8888 (navigate). Allow it to read and act on it?',
    ]);
    expect((await hub.call('policy.get', {})).rules).toEqual([{ site: 'http://localhost:8888', level: 'act' }]);
    expect(decide('http://localhost:8889/')).toBe('ask');
    expect(decide('https://localhost:8888/')).toBe('ask');
    expect(decide('http://app.localhost:8888/')).toBe('ask');
    expect(await navigate('http://localhost:8889/')).toBe('navigated');
    expect(asked).toHaveLength(2);
  });

  it('on 127.0.0.1 or localhost without a port grants port 80 alone, never Jupyter on 8888', async () => {
    const { hub, navigate, decide } = await connect();
    expect(await navigate('http://127.0.0.1/')).toBe('navigated');
    expect(await navigate('http://localhost/')).toBe('navigated');
    expect((await hub.call('policy.get', {})).rules.map((rule) => rule.site)).toEqual([
      'http://127.0.0.1',
      'http://localhost',
    ]);
    expect(decide('http://127.0.0.1:8888/')).toBe('ask');
    expect(decide('http://localhost:8888/')).toBe('ask');
  });

  it('on a host grants neither its registrable domain, its subdomains, nor its other scheme', async () => {
    const { navigate, decide } = await connect();
    expect(await navigate('https://docs.example.com/a')).toBe('navigated');
    expect(decide('https://docs.example.com/b')).toBe('act');
    expect(decide('https://example.com/')).toBe('ask');
    expect(decide('https://api.docs.example.com/')).toBe('ask');
    expect(decide('http://docs.example.com/')).toBe('ask');
  });
});

describe('a public suffix', () => {
  it.each(['https://com/', 'https://co.uk/', 'https://github.io/'])(
    '%s is refused without a question, and grants nothing',
    async (url) => {
      const { hub, executor, navigate, decide, asked } = await connect();
      expect(await navigate(url)).toMatch(
        /^POLICY_DENIED: No answer could allow this site: "https:\/\/[a-z.]+": [a-z.]+ is a public suffix/,
      );
      expect(asked).toEqual([]);
      expect(executor.urls).toEqual([]);
      expect((await hub.call('questions.list', {})).questions).toEqual([]);
      expect((await hub.call('policy.get', {})).rules).toEqual([]);
      expect(decide('https://example.com/')).toBe('ask');
      expect(decide('https://example.co.uk/')).toBe('ask');
      expect(decide('https://someone.github.io/')).toBe('ask');
    },
  );
});
