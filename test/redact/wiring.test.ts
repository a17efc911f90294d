// Redaction is wired at every exit: the core's dispatch wrapper (results, data, errors, progress), the core's log
// writer, and the extension's command router (results, errors, progress); screenshots pass untouched.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentRegistry } from '../../electron/core/mcp/agent-registry.js';
import { buildServer } from '../../electron/core/mcp/build-server.js';
import { log } from '../../electron/core/log.js';
import { CommandRouter } from '../../extension/src/command-router.js';
import { ToolError } from '../../shared/protocol/errors.js';
import type { Executor, OperationContext, OperationResult } from '../../shared/protocol/operations.js';
import type { ExtensionFrame } from '../../shared/protocol/wire.js';
import { textOf } from '../support/tool-result.js';
import { makeHub, tempDataDirs } from '../control/support.js';
import { TEST_POLICY } from '../support/test-policy.js';

const TOKEN = 'ghp_7Qm2xV9cLr4TnB8wYk1ZpF6sJd3HaE0uGo5i';
const QUERY = 'Zt4Qm8Lr2Xc6Vb1Nk9Pw3Hy7';
const URL_WITH_TOKEN = `https://app.example.com/home?access_token=${QUERY}`;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** An executor whose every answer is full of secrets, and whose progress names a tokened URL. */
const leaky: Executor = {
  async run(op, _args, ctx: OperationContext): Promise<OperationResult> {
    ctx.progress(`navigating to ${URL_WITH_TOKEN}`);
    if (op === 'click')
      throw new ToolError('NAVIGATION_FAILED', `could not load ${URL_WITH_TOKEN}`, { data: { url: URL_WITH_TOKEN } });
    if (op === 'screenshot') return { text: `shot of ${URL_WITH_TOKEN}`, image: { data: PNG, mimeType: 'image/png' } };
    return {
      text: `deploy token ${TOKEN}`,
      data: { tab: 't1', url: URL_WITH_TOKEN, title: `Authorization: Bearer ${TOKEN}` },
    };
  },
};

const clients: Client[] = [];
const dataDirs = tempDataDirs();
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  dataDirs.cleanup();
});

async function connect() {
  const logged: string[] = [];
  const { hub } = makeHub(dataDirs.make(), { grants: TEST_POLICY.grants });
  const agents = new AgentRegistry();
  const server = buildServer(
    {
      executor: leaky,
      status: () => {
        throw new Error('unused');
      },
      control: hub,
      agents,
      log: (line) => logged.push(line),
    },
    agents.open(),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'wiring', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

describe('the core', () => {
  it('redacts text, structured data and progress of a result', async () => {
    const client = await connect();
    const progress: Progress[] = [];
    // tab_new declares an output shape, so its data goes out as structuredContent.
    const result = await client.callTool({ name: 'tab_new', arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    const everything = JSON.stringify({ text: textOf(result), data: result.structuredContent, progress });
    expect(textOf(result)).toBe('deploy token ghp_[redacted 36 chars]');
    // Only the fields tab_new's output shape declares go out (not the title), each redacted.
    expect(result.structuredContent).toEqual({
      tab: 't1',
      url: 'https://app.example.com/home?access_token=[redacted 24 chars]',
    });
    expect(progress.map((update) => update.message)).toEqual([
      'navigating to https://app.example.com/home?access_token=[redacted 24 chars]',
    ]);
    expect(everything).not.toContain(QUERY);
    expect(everything).not.toContain(TOKEN.slice(4));
  });

  it('redacts error texts and error data', async () => {
    const result = await (await connect()).callTool({ name: 'click', arguments: { selector: '#go' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain(QUERY);
    expect(textOf(result)).toContain('access_token=[redacted 24 chars]');
  });

  it('leaves an image block as it is', async () => {
    const result = await (await connect()).callTool({ name: 'screenshot', arguments: {} });
    expect(result.content).toContainEqual({ type: 'image', data: PNG, mimeType: 'image/png' });
    expect(textOf(result)).not.toContain(QUERY);
  });

  it('writes every log line redacted', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      log(`request to ${URL_WITH_TOKEN} failed; Cookie: sessionid=${QUERY}; theme=dark`);
      expect(write).toHaveBeenCalledWith(
        '[chrome-mcp] request to https://app.example.com/home?access_token=[redacted 24 chars] failed; Cookie: sessionid=[redacted 24 chars]; theme=[redacted 4 chars]\n',
      );
    } finally {
      write.mockRestore();
    }
  });
});

describe('the extension', () => {
  async function route(
    op: 'snapshot' | 'click' | 'screenshot',
    args: Record<string, unknown> = {},
  ): Promise<ExtensionFrame[]> {
    const sent: ExtensionFrame[] = [];
    const answered = new Promise<void>((resolve) => {
      const router = new CommandRouter(leaky, (frame) => {
        sent.push(frame);
        if (frame.type === 'result') resolve();
      });
      router.command({ type: 'command', id: 'c1', op, args, timeoutMs: 5_000 });
    });
    await answered;
    return sent;
  }

  it('answers results, data and progress redacted', async () => {
    const frames = await route('snapshot');
    expect(JSON.stringify(frames)).not.toContain(QUERY);
    expect(JSON.stringify(frames)).not.toContain(TOKEN.slice(4));
    expect(frames).toContainEqual({
      type: 'progress',
      id: 'c1',
      message: 'navigating to https://app.example.com/home?access_token=[redacted 24 chars]',
    });
    expect(frames.at(-1)).toEqual({
      type: 'result',
      id: 'c1',
      ok: true,
      result: {
        text: 'deploy token ghp_[redacted 36 chars]',
        data: {
          tab: 't1',
          url: 'https://app.example.com/home?access_token=[redacted 24 chars]',
          title: 'Authorization: Bearer [redacted 40 chars]',
        },
      },
    });
  });

  it('answers errors redacted, and a screenshot with its image untouched', async () => {
    const failed = await route('click', { selector: '#go' });
    expect(JSON.stringify(failed)).not.toContain(QUERY);
    const shot = (await route('screenshot')).at(-1);
    expect(shot).toMatchObject({ ok: true, result: { image: { data: PNG, mimeType: 'image/png' } } });
    expect(JSON.stringify(shot)).not.toContain(QUERY);
  });
});
