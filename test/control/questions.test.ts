// Questions: one card per site and need however often the agent retries, and each answer's effect on the policy the
// engine evaluates; the agent's own questions resolve with the reply, or reject when the person stops the agent.
import { afterAll, describe, expect, it } from 'vitest';
import { ControlError } from '../../shared/control/errors.js';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import type { ActivityEvent } from '../../shared/control/activity.js';
import { makeHub, tempDataDirs } from './support.js';

const dirs = tempDataDirs();
afterAll(() => dirs.cleanup());

function setup() {
  const made = makeHub(dirs.make());
  const events: ActivityEvent[] = [];
  made.hub.subscribe((event) => events.push(event));
  const decide = (url: string, need: 'read' | 'act' | 'trusted') => {
    const decision = evaluatePolicy(url, need, made.hub.policy());
    return decision.allowed ? `allowed ${decision.level}` : decision.reason;
  };
  return { ...made, events, decide };
}

/** The error `promise` rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('resolved'),
    (error: unknown) => error,
  );
}

describe('site questions', () => {
  it('asks once per site and need, in canonical spelling, however often the agent retries', async () => {
    const { hub, events } = setup();
    const first = hub.askSite({
      site: 'HTTPS://Shop.Example.com:443',
      need: 'act',
      tool: 'click',
      url: 'https://shop.example.com/cart',
    });
    expect(first).toMatchObject({
      kind: 'site',
      site: 'https://shop.example.com',
      need: 'act',
      tool: 'click',
      url: 'https://shop.example.com/cart',
    });
    expect(hub.askSite({ site: 'https://shop.example.com', need: 'act', tool: 'type' })).toBe(first);
    const read = hub.askSite({ site: 'https://shop.example.com', need: 'read', tool: 'snapshot' });
    expect(read.id).not.toBe(first.id);
    expect((await hub.call('questions.list', {})).questions.map((q) => q.id)).toEqual([first.id, read.id]);
    expect(events.filter((e) => e.type === 'question').map((e) => e.type === 'question' && e.change)).toEqual([
      'added',
      'added',
    ]);
    expect((await hub.status()).questions).toBe(2);
  });

  it('refuses to ask about a site no rule could name', () => {
    const { hub } = setup();
    expect(() => hub.askSite({ site: 'a.com/path', need: 'read', tool: 'snapshot' })).toThrow(/not a page/);
  });

  it('once: this run only, at act for read/act needs and trusted for trusted', async () => {
    const { hub, decide } = setup();
    expect(decide('https://docs.site.com/', 'read')).toBe('ask');
    const q = hub.askSite({ site: 'https://docs.site.com', need: 'read', tool: 'snapshot' });
    await hub.call('questions.answer', { id: q.id, answer: 'once' });
    expect(decide('https://docs.site.com/a', 'act')).toBe('allowed act');
    expect(decide('https://docs.site.com/a', 'trusted')).toBe('below');
    expect(hub.policy().grants).toHaveLength(1);
    expect(hub.policy().rules).toEqual([]);
    const t = hub.askSite({ site: 'https://app.site.com', need: 'trusted', tool: 'eval' });
    await hub.call('questions.answer', { id: t.id, answer: 'once' });
    expect(decide('https://app.site.com/', 'trusted')).toBe('allowed trusted');
  });

  it('always: a saved rule, at the level the person picked', async () => {
    const { hub, store, decide } = setup();
    const q = hub.askSite({ site: 'https://news.com', need: 'act', tool: 'click' });
    await hub.call('questions.answer', { id: q.id, answer: 'always', level: 'read' });
    expect(decide('https://news.com/', 'read')).toBe('allowed read');
    expect(decide('https://news.com/', 'act')).toBe('below');
    expect(hub.policy().grants).toEqual([]);
    const view = await hub.call('policy.get', {});
    expect(view.rules).toEqual([{ site: 'https://news.com', level: 'read' }]);
    // Exactly the origin asked: not the registrable domain's other hosts, nor another scheme or port.
    expect(decide('https://www.news.com/', 'read')).toBe('ask');
    expect(decide('http://news.com/', 'read')).toBe('ask');
    expect(decide('https://news.com:8443/', 'read')).toBe('ask');
    expect(view.file).toBe(store.file);
  });

  it("deny: blocked for this run, and it settles the site's other questions too", async () => {
    const { hub, decide, events } = setup();
    const act = hub.askSite({ site: 'https://spam.com', need: 'act', tool: 'click' });
    const read = hub.askSite({ site: 'https://spam.com', need: 'read', tool: 'snapshot' });
    const other = hub.askSite({ site: 'https://fine.com', need: 'read', tool: 'snapshot' });
    const waiting = hub.waitForAnswer(read.id);
    const left = await hub.call('questions.answer', { id: act.id, answer: 'deny' });
    expect(left.questions.map((q) => q.id)).toEqual([other.id]);
    await expect(waiting).resolves.toEqual({ answer: 'deny', level: 'blocked' });
    expect(decide('https://spam.com/', 'read')).toBe('blocked');
    const answered = events.filter((e) => e.type === 'question' && e.change === 'answered');
    expect(answered.map((e) => e.type === 'question' && [e.question.id, e.answer])).toEqual([
      [act.id, 'deny'],
      [read.id, 'deny'],
    ]);
  });

  it('a grant settles the questions it covers and leaves the higher needs waiting', async () => {
    const { hub } = setup();
    hub.askSite({ site: 'https://mix.com', need: 'read', tool: 'snapshot' });
    const trusted = hub.askSite({ site: 'https://mix.com', need: 'trusted', tool: 'eval' });
    const act = hub.askSite({ site: 'https://mix.com', need: 'act', tool: 'click' });
    const left = await hub.call('questions.answer', { id: act.id, answer: 'once' });
    expect(left.questions.map((q) => q.id)).toEqual([trusted.id]);
  });

  it('a rule the person sets in the editor settles the questions it decides, and leaves the others waiting', async () => {
    const { hub, events } = setup();
    const read = hub.askSite({ site: 'https://edit.com', need: 'read', tool: 'snapshot', url: 'https://edit.com/a' });
    const act = hub.askSite({ site: 'https://edit.com', need: 'act', tool: 'click', url: 'https://edit.com/a' });
    const other = hub.askSite({ site: 'https://other.com', need: 'read', tool: 'snapshot' });
    const reading = hub.waitForAnswer(read.id);
    const acting = hub.waitForAnswer(act.id);
    await hub.call('policy.set', { rules: [{ site: 'edit.com', level: 'read' }], default: 'ask', downloads: false });
    await expect(reading).resolves.toEqual({ answer: 'always', level: 'read' });
    // A rule that refuses the need settles it too: the agent hears no, and the site keeps the level the person chose.
    await expect(acting).resolves.toEqual({ answer: 'deny', level: 'read' });
    expect((await hub.call('questions.list', {})).questions.map((q) => q.id)).toEqual([other.id]);
    const answered = events.flatMap((event) =>
      event.type === 'question' && event.change === 'answered' ? [event.answer] : [],
    );
    expect(answered).toEqual(['by a rule (read)', 'by a rule (read)']);
  });

  it('waitForAnswer resolves with the decision, and gives up when its signal aborts', async () => {
    const { hub } = setup();
    const q = hub.askSite({ site: 'https://wait.com', need: 'act', tool: 'click' });
    const controller = new AbortController();
    const abandoned = hub.waitForAnswer(q.id, controller.signal);
    const kept = hub.waitForAnswer(q.id);
    controller.abort(new Error('client went away'));
    await expect(abandoned).rejects.toThrow('client went away');
    await hub.call('questions.answer', { id: q.id, answer: 'always', level: 'trusted' });
    await expect(kept).resolves.toEqual({ answer: 'always', level: 'trusted' });
  });

  it('an unknown or already answered id is NOT_FOUND naming it; a mismatched answer is BAD_ARGS', async () => {
    const { hub } = setup();
    const q = hub.askSite({ site: 'https://x.com', need: 'read', tool: 'snapshot' });
    await expect(hub.call('questions.answer', { id: q.id, reply: 'sure' })).rejects.toMatchObject({
      code: 'BAD_ARGS',
      message: expect.stringContaining('once, always or deny'),
    });
    await hub.call('questions.answer', { id: q.id, answer: 'once' });
    const again = await rejection(hub.call('questions.answer', { id: q.id, answer: 'once' }));
    expect(again).toBeInstanceOf(ControlError);
    expect(again).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining(`"${q.id}"`) });
    await expect(hub.call('questions.answer', { id: 'q999', answer: 'deny' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('"q999"'),
    });
    await expect(hub.waitForAnswer('q999')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("the answer's shape is checked before any question is looked up", async () => {
    const { hub } = setup();
    await expect(hub.call('questions.answer', { id: 'q1' })).rejects.toMatchObject({
      code: 'BAD_ARGS',
      message: expect.stringContaining('either answer'),
    });
    await expect(hub.call('questions.answer', { id: 'q1', answer: 'deny', level: 'act' })).rejects.toMatchObject({
      code: 'BAD_ARGS',
      message: expect.stringContaining('level: a level goes with'),
    });
    await expect(hub.call('questions.answer', { id: 'q1', answer: 'maybe' })).rejects.toMatchObject({
      code: 'BAD_ARGS',
      message: expect.stringMatching(/^questions\.answer: answer: /),
    });
  });
});

describe('agent questions', () => {
  it("resolve with the person's reply and leave the list", async () => {
    const { hub, events } = setup();
    const asked = hub.askAgentQuestion('Which account should I use?', ['work', 'personal']);
    const [question] = (await hub.call('questions.list', {})).questions;
    expect(question).toMatchObject({
      kind: 'agent',
      text: 'Which account should I use?',
      choices: ['work', 'personal'],
    });
    await expect(hub.call('questions.answer', { id: question!.id, answer: 'once' })).rejects.toMatchObject({
      code: 'BAD_ARGS',
      message: expect.stringContaining('reply'),
    });
    await hub.call('questions.answer', { id: question!.id, reply: 'work' });
    await expect(asked).resolves.toBe('work');
    expect((await hub.call('questions.list', {})).questions).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'question', change: 'answered', answer: 'work' });
  });

  it('are withdrawn with STOPPED when the person stops the agent, and refused while stopped', async () => {
    const { hub, events } = setup();
    const asked = hub.askAgentQuestion('Proceed?');
    hub.askSite({ site: 'https://stays.com', need: 'read', tool: 'snapshot' });
    await hub.call('stop', { message: 'hold on' });
    await expect(asked).rejects.toMatchObject({ code: 'STOPPED', message: expect.stringContaining('hold on') });
    expect((await hub.call('questions.list', {})).questions.map((q) => q.kind)).toEqual(['site']);
    expect(events.some((e) => e.type === 'question' && e.change === 'withdrawn')).toBe(true);
    await expect(hub.askAgentQuestion('Again?')).rejects.toMatchObject({ code: 'STOPPED' });
  });

  it('are withdrawn when the asking call is cancelled', async () => {
    const { hub } = setup();
    const controller = new AbortController();
    const asked = hub.askAgentQuestion('Still there?', undefined, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(asked).rejects.toThrow('cancelled');
    expect((await hub.status()).questions).toBe(0);
  });
});
