// Oversight: stop halts in-flight work through the signal and holds until resume; interjections reach the agent
// exactly once; a plan is posted and approved; every step shows in the activity stream.
import { afterAll, describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../shared/control/activity.js';
import { makeHub, tempDataDirs } from './support.js';

const dirs = tempDataDirs();
afterAll(() => dirs.cleanup());

function setup() {
  const made = makeHub(dirs.make(), { statusExtra: async () => ({ backend: 'extension' }) });
  const events: ActivityEvent[] = [];
  made.hub.subscribe((event) => events.push(event));
  return { ...made, events };
}

describe('stop and resume', () => {
  it("aborts the current signal with STOPPED and the person's message, and hands out a fresh one after resume", async () => {
    const { hub, events } = setup();
    const signal = hub.stopSignal();
    const heard: string[] = [];
    hub.onStop((stopped) => heard.push(stopped.message));
    expect(signal.aborted).toBe(false);
    const status = await hub.call('stop', { message: 'Not that tab!' });
    expect(status).toMatchObject({ stopped: { message: 'Not that tab!' }, core: { backend: 'extension' } });
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ code: 'STOPPED', message: 'Stopped by the person: Not that tab!' });
    expect(hub.stopSignal().aborted).toBe(true);
    expect(heard).toEqual(['Not that tab!']);

    const resumed = await hub.call('resume', {});
    expect(resumed.stopped).toBeNull();
    expect(hub.stopped()).toBeNull();
    expect(hub.stopSignal().aborted).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['stop', 'resume']);
  });

  it('stopping again replaces the message without telling in-flight work twice; resuming twice is one resume', async () => {
    const { hub, events } = setup();
    let heard = 0;
    hub.onStop(() => heard++);
    const first = hub.stop();
    expect(first.message).toBe('The person stopped the agent.');
    await hub.call('stop', { message: 'really' });
    expect(hub.stopped()).toEqual({ message: 'really', since: first.since });
    expect(heard).toBe(1);
    await hub.call('resume', {});
    await hub.call('resume', {});
    expect(events.filter((e) => e.type === 'resume')).toHaveLength(1);
  });
});

describe('interjections', () => {
  it('queue up, are drained in order exactly once, and show as queued then delivered', async () => {
    const { hub, events } = setup();
    expect(await hub.call('interject', { message: 'use the work account' })).toEqual({ queued: 1 });
    expect(await hub.call('interject', { message: 'and skip the newsletter' })).toEqual({ queued: 2 });
    expect((await hub.status()).interjections).toBe(2);
    expect(hub.takeInterjections()).toEqual(['use the work account', 'and skip the newsletter']);
    expect(hub.takeInterjections()).toEqual([]);
    expect((await hub.status()).interjections).toBe(0);
    expect(events.map((e) => e.type === 'interjection' && `${e.change}: ${e.message}`)).toEqual([
      'queued: use the work account',
      'queued: and skip the newsletter',
      'delivered: use the work account',
      'delivered: and skip the newsletter',
    ]);
  });

  it('refuses an empty or overlong message', async () => {
    const { hub } = setup();
    await expect(hub.call('interject', { message: '' })).rejects.toMatchObject({
      code: 'BAD_ARGS',
      message: expect.stringMatching(/^interject: message: /),
    });
    await expect(hub.call('interject', { message: 'x'.repeat(2001) })).rejects.toMatchObject({ code: 'BAD_ARGS' });
  });
});

describe('plan', () => {
  it('is posted unapproved, approved by the person, and replaced (unapproved) by a new one', async () => {
    const { hub, events } = setup();
    expect(await hub.call('plan.get', {})).toEqual({ plan: null });
    await expect(hub.call('plan.approve', {})).rejects.toMatchObject({ code: 'NOT_FOUND' });
    hub.setPlan(['open the shop', 'add the kettle to the cart'], true);
    expect((await hub.call('plan.get', {})).plan).toMatchObject({
      steps: ['open the shop', 'add the kettle to the cart'],
      askFirst: true,
      approved: false,
    });
    expect((await hub.call('plan.approve', {})).plan?.approved).toBe(true);
    expect(hub.plan()?.approved).toBe(true);
    expect((await hub.status()).plan?.approved).toBe(true);
    hub.setPlan(['something else'], true);
    expect(hub.plan()?.approved).toBe(false);
    expect(events.map((e) => e.type === 'plan' && e.change)).toEqual(['posted', 'approved', 'posted']);
  });
});
