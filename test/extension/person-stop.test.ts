// The person's Esc in a tab the real extension drives: the extension tells the core with a `stop` frame (the bridge's
// `personStop` event) and halts the running batch itself, without waiting for the core to cancel it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeAfter, personAt, slowClicks } from '../support/person.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';

let linked: LinkedExtension;

beforeAll(async () => {
  linked = await startLinkedExtension();
});

afterAll(async () => {
  await linked?.close();
});

describe('Esc in a tab the extension drives', () => {
  it('reaches the core as a stop and halts the running batch within one step', async () => {
    const url = linked.fixtures.url('stop-counter.html');
    const tab = String((await linked.run('tab_new', { url })).data?.['tab']);
    const { targetInfos } = await linked.browser.control.send<{ targetInfos: { targetId: string; url: string }[] }>(
      'Target.getTargets',
    );
    const target = targetInfos.find((info) => info.url === url);
    if (!target) throw new Error('the agent tab is not among the browser targets');
    const person = await personAt(linked.browser.control, target.targetId);
    const stops: string[] = [];
    linked.bridge.on('personStop', (message) => stops.push(message));

    // No signal on the call: nothing on the core's side cancels it, so only the extension can have stopped it.
    const stopped = await escapeAfter(person, 2, linked.run('batch', { steps: slowClicks(10), tab }));
    expect(stopped.code).toBe('STOPPED');
    const real = stopped.seen.filter((seen) => seen.trusted);
    expect(real).toHaveLength(1);
    expect(stopped.done).toBeLessThanOrEqual(real[0]!.clicks + 1);
    expect(stops).toEqual([`Esc pressed in tab ${tab}.`]);
  });
});
