// The person's side of every call, through a real SDK Client and the real control hub: stop and resume, interjections,
// asking about an undecided site (in the panel or through the client), the plan gate, `ask`, and the audit of it all.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlHub } from '../../electron/core/control/hub.js';
import { AgentRegistry } from '../../electron/core/mcp/agent-registry.js';
import { buildServer } from '../../electron/core/mcp/build-server.js';
import { statusReport } from '../../electron/core/mcp/status.js';
import { policyError } from '../../shared/protocol/policy-error.js';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { ToolError } from '../../shared/protocol/errors.js';
import type { Executor, Operation, OperationContext, OperationResult } from '../../shared/protocol/operations.js';
import { makeHub, tempDataDirs } from '../control/support.js';
import { dataOf, textOf } from '../support/tool-result.js';

const SITE = 'https://shop.example/cart';
const PAY_CARD = {
  id: 'fk.h1',
  site: 'shop.example',
  method: 'POST',
  url: 'https://shop.example/api/pay',
  summary: 'amount=59.00, card=[redacted 16 chars]',
  why: 'button "Pay now" submits a POST to /api/pay',
  tool: 'click',
};
const dataDirs = tempDataDirs();
const clients: Client[] = [];

/** Judges the page it is "on" against the hub's live policy, as the engine does; `hold` waits for the call's signal. */
class PolicyMindedExecutor implements Executor {
  readonly ops: Operation[] = [];
  /** release_held calls, and whether the paused request is still there to decide (false: its page changed). */
  readonly decisions: { id: string; release: boolean }[] = [];
  pageUnchanged = true;
  constructor(private readonly hub: ControlHub) {}
  async run(op: Operation, args: Record<string, unknown>, ctx: OperationContext): Promise<OperationResult> {
    this.ops.push(op);
    if (op === 'release_held') {
      if (!this.pageUnchanged) throw new ToolError('NOT_FOUND', 'The held act is gone: its page changed.');
      this.decisions.push({ id: String(args['id']), release: args['release'] === true });
      return { text: 'decided' };
    }
    if (op === 'click' && args['selector'] === '#pay') {
      throw new ToolError(
        'HELD',
        'clicked button "Pay now"; what it would send waits for the person\'s confirmation: POST https://shop.example/api/pay (held as fk.h1).',
        { data: { held: PAY_CARD } },
      );
    }
    if (op === 'wait_for') {
      return new Promise((_, reject) =>
        ctx.signal?.addEventListener('abort', () => reject(ctx.signal?.reason), { once: true }),
      );
    }
    const decision = evaluatePolicy(
      typeof args['url'] === 'string' ? args['url'] : SITE,
      op === 'click' ? 'act' : 'read',
      this.hub.policy(),
    );
    if (!decision.allowed) throw policyError(decision);
    return { text: `${op} done`, data: { url: SITE } };
  }
}

async function connect(
  options: { elicit?: (message: string) => Record<string, unknown> | undefined; allow?: string[] } = {},
) {
  const dataDir = dataDirs.make();
  const { hub } = makeHub(dataDir, {
    grants: policyFromFlags({ allow: options.allow ?? ['allowed.example'], trust: [] }).grants,
    // As the core does: the decision goes to the backend holding the request.
    releaseHeld: async (id, release) =>
      void (await executor.run('release_held', { id, release }, { progress: () => undefined })),
  });
  const executor: PolicyMindedExecutor = new PolicyMindedExecutor(hub);
  const agents = new AgentRegistry();
  const server = buildServer(
    {
      executor,
      status: () =>
        statusReport({
          choice: 'auto',
          lastCall: undefined,
          extension: { connected: false, bridge: { port: 1 }, pairing: 'none' },
          fallback: { launched: false, executable: null, headless: true, profileDir: '/p', tabs: 0, currentTab: null },
        }),
      control: hub,
      agents,
      log: () => undefined,
    },
    agents.open(),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client(
    { name: 'oversight-test', version: '1' },
    options.elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const content = elicit(request.params.message);
      return content ? { action: 'accept', content } : { action: 'decline' };
    });
  }
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    return { text: textOf(result), isError: result.isError === true, data: dataOf(result) };
  };
  return { hub, executor, call, dataDir, client };
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  dataDirs.cleanup();
});

describe('stop and resume', () => {
  it("answers STOPPED with the person's words to every call until they resume; status still answers", async () => {
    const { hub, executor, call } = await connect({ allow: ['shop.example'] });
    await hub.call('stop', { message: 'Wrong account, wait for me' });
    const stopped = await call('snapshot');
    expect(stopped.isError).toBe(true);
    expect(stopped.text).toMatch(/^STOPPED: Stopped by the person: Wrong account, wait for me\nNext: Do not retry/);
    expect(executor.ops).toEqual([]);
    expect((await call('status')).text).toContain('stopped by the person: Wrong account, wait for me');
    await hub.call('resume', {});
    expect((await call('snapshot')).text).toBe('snapshot done');
  });

  it('halts a call in flight: its signal aborts the moment the person stops', async () => {
    const { hub, call } = await connect();
    const running = call('wait_for', { text: 'never' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    hub.stop('Stop now');
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.text).toContain('STOPPED: Stopped by the person: Stop now');
  });
});

describe('interjections', () => {
  it('arrive at the top of the next result, once, in a block of their own marked as the instructions say', async () => {
    const { hub, call, client } = await connect({ allow: ['shop.example'] });
    const mark = /"\[chrome-mcp ([0-9a-f]{12})\] The person says:"/.exec(client.getInstructions() ?? '')?.[1];
    expect(mark).toMatch(/^[0-9a-f]{12}$/);
    await hub.call('interject', { message: 'Use the blue plan, not the red one' });
    expect((await call('snapshot')).text).toBe(
      `[chrome-mcp ${mark}] The person says: Use the blue plan, not the red one\nsnapshot done`,
    );
    expect((await call('snapshot')).text).toBe('snapshot done');
  });

  it("carry a mark of each session's own", async () => {
    const first = (await connect()).client.getInstructions();
    const second = (await connect()).client.getInstructions();
    expect(first).not.toBe(second);
  });
});

describe('an undecided site', () => {
  it('is refused at the core before any backend sees it, and the person is asked in the panel', async () => {
    const { hub, executor, call } = await connect();
    const refused = await call('navigate', { url: 'https://other.example/' });
    expect(refused.text).toMatch(
      /^DOMAIN_CONFIRMATION_REQUIRED: The person has not decided about other\.example yet\. The person is asked \(question q1\)/,
    );
    expect(executor.ops).toEqual([]);
    const page = await call('snapshot');
    expect(page.text).toContain('The person is asked (question q2)');
    const { questions } = await hub.call('questions.list', {});
    expect(questions).toMatchObject([
      {
        id: 'q1',
        kind: 'site',
        site: 'https://other.example',
        need: 'read',
        tool: 'navigate',
        url: 'https://other.example/',
      },
      { id: 'q2', kind: 'site', site: 'https://shop.example', need: 'read', tool: 'snapshot' },
    ]);
    await hub.call('questions.answer', { id: 'q2', answer: 'once' });
    expect((await call('snapshot')).text).toBe('snapshot done');
    expect((await call('click', { selector: '#buy' })).text).toBe('click done');
  });

  it('is asked through the client when it can elicit, and the call goes on with the answer', async () => {
    const asked: string[] = [];
    const { call } = await connect({
      elicit: (message) => (asked.push(message), { answer: 'Allow for this session' }),
    });
    expect((await call('snapshot')).text).toBe('snapshot done');
    expect(asked).toEqual(['The agent wants to read https://shop.example (snapshot). Allow it to read and act on it?']);
  });

  it('stays refused when the person declines or denies in the client', async () => {
    const { call } = await connect({ elicit: () => ({ answer: 'Deny' }) });
    const denied = await call('snapshot');
    expect(denied.text).toMatch(/^POLICY_DENIED: The person's policy blocks shop\.example/);
    const { call: declinedCall } = await connect({ elicit: () => undefined });
    expect((await declinedCall('snapshot')).text).toContain('DOMAIN_CONFIRMATION_REQUIRED');
  });
});

describe('the plan', () => {
  it('holds acts, not reads, until the person approves an ask-first plan', async () => {
    const { hub, call } = await connect();
    expect((await call('plan', { steps: ['Open the cart', 'Read the total'], askFirst: true })).text).toBe(
      'plan shown to the person (2 steps); acts wait until the person approves it',
    );
    await hub.call('questions.answer', {
      id: (await call('snapshot')).text.match(/question (q\d+)/)![1]!,
      answer: 'once',
    });
    expect((await call('snapshot')).text).toBe('snapshot done');
    expect((await call('click', { selector: '#buy' })).text).toMatch(/^PLAN_NOT_APPROVED/);
    expect((await hub.call('plan.get', {})).plan).toMatchObject({
      steps: ['Open the cart', 'Read the total'],
      askFirst: true,
      approved: false,
    });
    await hub.call('plan.approve', {});
    expect((await call('click', { selector: '#buy' })).text).toBe('click done');
  });
});

describe('ask', () => {
  it("waits for the person's reply given in the panel", async () => {
    const { hub, call } = await connect();
    const asking = call('ask', { question: 'Which size?', choices: ['S', 'M'] });
    let id: string | undefined;
    while (!id) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      id = (await hub.call('questions.list', {})).questions.find((question) => question.kind === 'agent')?.id;
    }
    await hub.call('questions.answer', { id, reply: 'M' });
    expect((await asking).text).toBe('The person replied: M');
  });

  it('asks through the client when it can', async () => {
    const { call } = await connect({ elicit: () => ({ answer: 'S' }) });
    expect((await call('ask', { question: 'Which size?', choices: ['S', 'M'] })).text).toBe('The person replied: S');
  });
});

describe('a held risky act', () => {
  it('waits in the panel until the person releases it, which the backend holding it carries out', async () => {
    const { hub, executor, call } = await connect({ allow: ['shop.example'] });
    const held = await call('click', { selector: '#pay' });
    expect(held.text).toMatch(
      /^HELD: clicked button "Pay now"; what it would send waits for the person's confirmation: POST https:\/\/shop\.example\/api\/pay \(held as fk\.h1\)\./,
    );
    expect((await hub.call('held.list', {})).held).toMatchObject([{ ...PAY_CARD, held: expect.any(Number) }]);
    expect((await hub.call('status', {})).held).toBe(1);
    expect(await hub.call('held.decide', { id: 'fk.h1', release: true })).toEqual({ outcome: 'released', held: [] });
    expect(executor.decisions).toEqual([{ id: 'fk.h1', release: true }]);
    await expect(hub.call('held.decide', { id: 'fk.h1', release: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('says gone when the page changed before the person decided, and nothing was sent', async () => {
    const { hub, executor, call } = await connect({ allow: ['shop.example'] });
    await call('click', { selector: '#pay' });
    executor.pageUnchanged = false;
    expect((await hub.call('held.decide', { id: 'fk.h1', release: true })).outcome).toBe('gone');
    expect(executor.decisions).toEqual([]);
  });

  it('is confirmed in the client when it can ask: Send releases it at once, Do not send rejects it', async () => {
    const prompts: string[] = [];
    const sending = await connect({
      allow: ['shop.example'],
      elicit: (message) => (prompts.push(message), { answer: 'Send' }),
    });
    expect((await sending.call('click', { selector: '#pay' })).text).toContain('The person confirmed it: sent.');
    expect(sending.executor.decisions).toEqual([{ id: 'fk.h1', release: true }]);
    expect(prompts[0]).toContain(
      "The agent's click would send: POST https://shop.example/api/pay\namount=59.00, card=[redacted 16 chars]",
    );
    const refusing = await connect({ allow: ['shop.example'], elicit: () => ({ answer: 'Do not send' }) });
    const refused = await refusing.call('click', { selector: '#pay' });
    expect(refused.text).toMatch(/^HELD: .*The person rejected it: nothing was sent\./);
    expect(refusing.executor.decisions).toEqual([{ id: 'fk.h1', release: false }]);
  });
});

describe('the record of every call', () => {
  it('goes to the activity stream and the audit log with its decision, redacted', async () => {
    const { hub, call, dataDir } = await connect();
    await call('navigate', { url: 'https://other.example/?session_token=sk_live_51HxQkLm2eZvKYlo2CqWbCkfZq' });
    await hub.call('stop', { message: 'hold on' });
    await call('snapshot');
    await hub.flush();
    const lines = readFileSync(join(dataDir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { client: 'oversight-test', tool: 'navigate', decision: 'asked', code: 'DOMAIN_CONFIRMATION_REQUIRED' },
      { client: 'oversight-test', tool: 'snapshot', decision: 'stopped', code: 'STOPPED' },
    ]);
    expect(JSON.stringify(lines)).not.toContain('sk_live_51HxQkLm2eZvKYlo2CqWbCkfZq');
    const { events } = await hub.call('activity.list', {});
    expect(
      events.filter((event) => event.type === 'call').map((event) => event.type === 'call' && event.decision),
    ).toEqual(['asked', 'stopped']);
  });
});
