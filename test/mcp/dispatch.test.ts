// The MCP surface through a real SDK Client: bad arguments, errors, results and progress, with a scripted executor
// behind the seam (support/scripted-server.ts).
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentRegistry } from '../../electron/core/mcp/agent-registry.js';
import { ERROR_CODES, ToolError } from '../../shared/protocol/errors.js';
import type { OperationContext } from '../../shared/protocol/operations.js';
import { dataOf, textOf } from '../support/tool-result.js';
import { closeServers, connect, IDLE, inputs, UNPAIRED, type Step } from './support/scripted-server.js';

afterEach(closeServers);

describe('bad arguments', () => {
  it('answers an unknown argument with BAD_ARGS naming it and what the tool takes, without running', async () => {
    const { client, executor } = await connect();
    const result = await client.callTool({ name: 'navigate', arguments: { url: 'http://x', bogus: 1 } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^BAD_ARGS: navigate: unknown argument "bogus"/);
    expect(text).toContain('Next: navigate takes only: url, action, waitUntil, timeout, tab.');
    expect(executor.calls).toEqual([]);
  });

  it('answers a wrong type and a missing required argument with BAD_ARGS naming each', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'type', arguments: { clear: 'yes' } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^BAD_ARGS: type: /);
    expect(text).toMatch(/text: expected string, received undefined/);
    expect(text).toMatch(/clear: expected boolean, received string/);
    expect(text).toContain('Next: Fix those arguments and call type again.');
  });

  it('says a tool takes no arguments when it takes none', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'status', arguments: { verbose: true } });
    expect(textOf(result)).toContain('Next: status takes no arguments.');
  });
});

describe('errors', () => {
  it('turns a thrown ToolError into isError with its code and next step', async () => {
    const { client } = await connect({
      click: async () => {
        throw new ToolError('OBSCURED', 'div#banner covers button "Buy"');
      },
    });
    const result = await client.callTool({ name: 'click', arguments: { selector: '#buy' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`OBSCURED: div#banner covers button "Buy"\nNext: ${ERROR_CODES.OBSCURED}`);
  });

  it('does not repeat a default message as the next step', async () => {
    const { client } = await connect({
      snapshot: async () => {
        throw new ToolError('NO_TAB');
      },
    });
    const result = await client.callTool({ name: 'snapshot', arguments: {} });
    expect(textOf(result)).toBe(`NO_TAB: ${ERROR_CODES.NO_TAB}`);
  });

  it('answers an unknown tool with an error result, not a protocol error', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'teleport', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('teleport');
  });

  it('turns any other throw into INTERNAL and logs its stack, not to the model', async () => {
    const { client, logged } = await connect({
      tabs: async () => {
        throw new TypeError('boom');
      },
    });
    const result = await client.callTool({ name: 'tabs', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^INTERNAL: boom\nNext: /);
    expect(textOf(result)).not.toContain('dispatch.test');
    expect(logged.join('\n')).toMatch(/tabs failed: TypeError: boom\n\s+at /);
  });

  it("keeps an error's data under _meta, not as structuredContent", async () => {
    const { client } = await connect(
      {
        batch: async () => {
          throw new ToolError('BATCH_STEP_FAILED', 'step 2 (click) failed: NOT_FOUND', { data: { step: 2 } });
        },
      },
      inputs(IDLE),
      new AgentRegistry(),
      ['extra'],
    );
    const result = await client.callTool({ name: 'batch', arguments: { steps: [{ tool: 'tabs' }] } });
    expect(result.structuredContent).toBeUndefined();
    expect(dataOf(result)).toEqual({ code: 'BATCH_STEP_FAILED', step: 2 });
  });

  it('answers an error of a tool with an output schema as an error result to a client that listed the tools', async () => {
    // The SDK's client checks any structuredContent against the success schema it listed, an error's too. The core's
    // own site check refuses this one, with data (the question it asked).
    const { client } = await connect();
    expect((await client.listTools()).tools.find((tool) => tool.name === 'tab_new')?.outputSchema).toBeDefined();
    const result = await client.callTool({ name: 'tab_new', arguments: { url: 'https://example.com/' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^DOMAIN_CONFIRMATION_REQUIRED: The person has not decided about example\.com yet/);
    expect(dataOf(result)).toMatchObject({ code: 'DOMAIN_CONFIRMATION_REQUIRED' });
  });
});

describe('results', () => {
  it('runs a page tool through the executor with the validated arguments', async () => {
    const { client, executor } = await connect({
      eval: async (args) => ({
        text: `"${String(args['expression'])}"`,
        data: { ok: true, type: 'string', internal: 'not for the client' },
      }),
    });
    const result = await client.callTool({ name: 'eval', arguments: { expression: 'document.title', frame: 1 } });
    expect(result.isError).toBeFalsy();
    expect(executor.calls).toEqual([{ op: 'eval', args: { expression: 'document.title', frame: 1 } }]);
    expect(textOf(result)).toBe('"document.title"');
    // Only what eval's output shape declares goes out.
    expect(result.structuredContent).toEqual({ ok: true, type: 'string' });
  });

  it('answers in text only for a tool that declares no output shape', async () => {
    const { client } = await connect({ snapshot: async () => ({ text: '- button "Go"', data: { totalLines: 1 } }) });
    const result = await client.callTool({ name: 'snapshot', arguments: {} });
    expect(textOf(result)).toBe('- button "Go"');
    expect(result.structuredContent).toBeUndefined();
  });

  it('answers INTERNAL, never a result off its published schema, when an op breaks its output shape', async () => {
    const { client, logged } = await connect({ tabs: async () => ({ text: 't1 x', data: { tabs: 'none' } }) });
    const result = await client.callTool({ name: 'tabs', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^INTERNAL: the result did not match its output schema/);
    expect(logged.join('\n')).toContain('tabs failed');
  });

  it('names the calling session and the sessions open, so each keeps its own current tab', async () => {
    const agents = new AgentRegistry();
    const seen: OperationContext['agent'][] = [];
    const script = {
      snapshot: async (_args: Record<string, unknown>, ctx: OperationContext) => (seen.push(ctx.agent), { text: 'ok' }),
    };
    const first = await connect(script, inputs(IDLE), agents);
    const second = await connect(script, inputs(IDLE), agents);
    await first.client.callTool({ name: 'snapshot', arguments: {} });
    await second.client.callTool({ name: 'snapshot', arguments: {} });
    agents.close('1');
    await second.client.callTool({ name: 'snapshot', arguments: {} });
    expect(seen).toEqual([
      { id: '1', live: ['1', '2'] },
      { id: '2', live: ['1', '2'] },
      { id: '2', live: ['2'] },
    ]);
  });

  it('answers an image as an image block beside a short text block', async () => {
    const { client } = await connect({
      screenshot: async () => ({ text: 'viewport 800x600 jpeg', image: { data: 'AAAA', mimeType: 'image/jpeg' } }),
    });
    const result = await client.callTool({ name: 'screenshot', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: 'viewport 800x600 jpeg' },
      { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
    ]);
  });

  it('answers status itself, as text and structuredContent', async () => {
    const { client, executor } = await connect();
    const result = await client.callTool({ name: 'status', arguments: {} });
    expect(executor.calls).toEqual([]);
    expect(result.structuredContent).toEqual({
      backend: 'fallback',
      lastCall: null,
      extension: { connected: false, bridge: { port: 38017 }, pairing: 'none' },
      browser: {
        launched: false,
        executable: '/usr/bin/chromium',
        headless: true,
        profileDir: '/data/fallback-profile',
        tabs: 0,
      },
      tab: null,
      oversight: { stopped: null, plan: null, questions: 0, interjections: 0, held: 0 },
    });
    expect(textOf(result)).toBe(
      'backend: fallback\n' +
        'extension: not connected; bridge 127.0.0.1:38017; not paired yet (chrome-mcp pair, or install the native host)\n' +
        'fallback browser: starts on first use, headless, /usr/bin/chromium',
    );
  });

  it('says which backend served the last call and why, with the fallback tab, or the connected extension', async () => {
    const running = { ...IDLE, launched: true, tabs: 2, currentTab: { id: 'fk.1', url: 'http://x/', title: 'X' } };
    const { client } = await connect(
      {},
      inputs(running, UNPAIRED, { backend: 'fallback', why: 'extension not connected' }),
    );
    const result = await client.callTool({ name: 'status', arguments: {} });
    expect(textOf(result)).toBe(
      'backend: fallback (last call: fallback, extension not connected)\n' +
        'extension: not connected; bridge 127.0.0.1:38017; not paired yet (chrome-mcp pair, or install the native host)\n' +
        'fallback browser: running, headless, 2 tab(s), /usr/bin/chromium\n' +
        'tab: fk.1 http://x/ "X"',
    );
    const linked = { connected: true, bridge: { port: 40001 }, pairing: 'keychain', chrome: '156.0.0.0' } as const;
    const { client: viaExtension } = await connect(
      {},
      inputs(IDLE, linked, { backend: 'extension', why: 'extension connected and answering' }),
    );
    const extension = await viaExtension.callTool({ name: 'status', arguments: {} });
    expect(extension.structuredContent).toMatchObject({
      backend: 'extension',
      extension: { connected: true },
      tab: null,
    });
    expect(textOf(extension)).toContain(
      'extension: connected (Chrome 156.0.0.0); bridge 127.0.0.1:40001; secret in keychain',
    );
  });

  it('says backend none when no extension is connected and no browser is installed, and how to fix it', async () => {
    const { client: bare } = await connect({}, inputs({ ...IDLE, executable: null }));
    const none = await bare.callTool({ name: 'status', arguments: {} });
    expect(none.structuredContent).toMatchObject({ backend: 'none', extension: { connected: false } });
    expect(textOf(none)).toContain('fallback browser: none found; pass --executable-path or set CHROME_MCP_CHROMIUM');
  });
});

describe('progress', () => {
  // A batch's step count interleaved with the bare messages of the step inside it.
  const batchWithNavigate: Step = async (_args, ctx) => {
    ctx.progress('step 1/2: navigate', 0, 2);
    ctx.progress('navigating');
    ctx.progress('committed');
    ctx.progress('step 2/2: click', 1, 2);
    ctx.progress('step 2/2: click', 1, 2);
    ctx.progress('batch done', 2, 2);
    return { text: 'done' };
  };

  it('sends every report as notifications/progress, always growing, when the request carries a progressToken', async () => {
    const { client } = await connect({ batch: batchWithNavigate }, inputs(IDLE), new AgentRegistry(), ['extra']);
    const seen: Progress[] = [];
    await client.callTool({ name: 'batch', arguments: { steps: [{ tool: 'navigate' }] } }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });
    expect(seen).toEqual([
      { progress: 0, total: 2, message: 'step 1/2: navigate' },
      { progress: 0.5, total: 2, message: 'navigating' },
      { progress: 0.75, total: 2, message: 'committed' },
      { progress: 1, total: 2, message: 'step 2/2: click' },
      { progress: 1.5, total: 2, message: 'step 2/2: click' },
      { progress: 2, total: 2, message: 'batch done' },
    ]);
  });

  it('counts bare reports without a total, and keeps growing past many of them', async () => {
    const { client } = await connect({
      wait_for: async (_args, ctx) => {
        for (let second = 60; second > 0; second--) ctx.progress(`${second} s left`);
        return { text: 'matched' };
      },
    });
    const seen: Progress[] = [];
    await client.callTool({ name: 'wait_for', arguments: { text: 'x' } }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });
    expect(seen).toHaveLength(60);
    expect(seen[0]).toEqual({ progress: 0.5, message: '60 s left' });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
  });

  it('sends none without a progressToken', async () => {
    const { client, sent } = await connect({ batch: batchWithNavigate }, inputs(IDLE), new AgentRegistry(), ['extra']);
    await client.callTool({ name: 'batch', arguments: { steps: [{ tool: 'navigate' }] } });
    expect(sent.filter((message) => 'method' in message && message.method === 'notifications/progress')).toEqual([]);
  });
});
