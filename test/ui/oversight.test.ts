// Oversight in real Chromium against a real core: an ask-first plan approved in the panel lets the agent act, Stop
// pressed in the panel (or Esc anywhere in it) halts a running batch and refuses the next call with the person's
// message until Resume, a message typed in the panel reaches the agent at the top of its next tool result, each step
// shows with the element it aimed at and what became of it, and a screenshot the agent took shows as a thumbnail
// beside its step (and never in the audit log).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_FILE } from '../../electron/core/control/audit-log.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startPanel, type PanelRun } from './support/panel.js';
import { testServerFlags } from '../support/test-policy.js';

let fixtures: FixtureServer;
let run: PanelRun;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  run = await startPanel(testServerFlags('act', ['127.0.0.1']));
  await run.show('Oversight');
});

afterAll(async () => {
  await run?.close();
  await fixtures?.close();
});

describe('oversight', () => {
  it('holds an ask-first agent until the person approves its plan in the panel', async () => {
    await run.call('tab_new', { url: fixtures.url('stop-counter.html') });
    await run.call('plan', { steps: ['Open the counter', 'Add one'], askFirst: true });
    expect(await run.call('click', { selector: '#add', element: 'Add button' })).toMatch(/^PLAN_NOT_APPROVED: /);
    const { page } = run;
    await page.getByText('Add one').waitFor();
    await page.getByRole('button', { name: 'Approve plan' }).click();
    await page.getByText('Approved.').waitFor();
    expect(await run.call('click', { selector: '#add', element: 'Add button' })).not.toMatch(/^[A-Z_]+: /);
    // The refused click is a step too: wait for the one allowed (it may show a moment after the call returns).
    const steps = page.getByRole('list', { name: 'Steps' }).getByRole('listitem').filter({ hasText: 'Add button' });
    await steps.filter({ hasText: 'allowed' }).first().waitFor();
    expect(await steps.count()).toBe(2);
  });

  it('stops a running batch from the panel and lets the next call through after Resume', async () => {
    const steps = Array.from({ length: 20 }, () => [
      { tool: 'click', args: { selector: '#add' } },
      { tool: 'wait_for', args: { selector: '#never', timeout: 500 } },
    ]).flat();
    // The tab of the test before, whose click the page has counted already.
    const before = await run.call('get_text', { selector: '#count' });
    const batch = run.call('batch', { steps });
    const { page } = run;
    await page.getByLabel('Stop message').fill('Wrong account, wait for me');
    // Under way: the page has counted the batch's first click (a read runs beside the batch).
    await expect.poll(() => run.call('get_text', { selector: '#count' }), { timeout: 10_000 }).not.toBe(before);
    const started = Date.now();
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    // The batch needs ten seconds: STOPPED is the proof it did not run on; the bound, that Stop acts within a step.
    expect(await batch).toMatch(/^STOPPED: /);
    expect(Date.now() - started).toBeLessThan(5_000);
    await page.getByText('The agent is stopped').waitFor();
    expect(await run.call('snapshot')).toMatch(/^STOPPED: Stopped by the person: Wrong account, wait for me/);
    await run.shot('oversight-stopped');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
    expect(await run.call('snapshot')).toContain('Counter');
  });

  it('stops a running batch when the person presses Esc anywhere in the panel, even while typing a message', async () => {
    await run.call('tab_new', { url: fixtures.url('stop-counter.html') });
    const steps = Array.from({ length: 20 }, () => [
      { tool: 'click', args: { selector: '#add' } },
      { tool: 'wait_for', args: { selector: '#never', timeout: 500 } },
    ]).flat();
    const batch = run.call('batch', { steps });
    const { page } = run;
    await page.getByLabel('Message for the agent').fill('half a thought');
    // Under way: the page has counted its first click (a read runs beside the batch).
    await expect.poll(() => run.call('get_text', { selector: '#count' }), { timeout: 10_000 }).not.toMatch(/^0$/);
    await page.getByLabel('Message for the agent').press('Escape');
    expect(await batch).toMatch(/^STOPPED: /);
    await page.getByText('The agent is stopped').waitFor();
    expect(await run.call('snapshot')).toMatch(
      /^STOPPED: Stopped by the person: The person pressed Esc in the panel\./,
    );
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
    await page.getByLabel('Message for the agent').fill('');
  });

  it("passes a message typed in the panel to the top of the agent's next tool result", async () => {
    const { page } = run;
    await page.getByLabel('Message for the agent').fill('The order number is in the footer');
    await page.getByRole('button', { name: 'Send to the agent' }).click();
    await page.getByText("1 waiting for the agent's next call").waitFor();
    expect(await run.call('snapshot')).toMatch(
      /^\[chrome-mcp [0-9a-f]{12}\] The person says: The order number is in the footer\nPage /,
    );
    await page.getByText('Message delivered: "The order number is in the footer"').waitFor();
    await run.shot('oversight');
    expect(run.errors).toEqual([]);
  });

  it("shows the agent's screenshot as a thumbnail beside its step, larger on a click, and keeps it out of the audit log", async () => {
    await run.call('tab_new', { url: fixtures.url('stop-counter.html') });
    expect(await run.call('screenshot')).toMatch(/^viewport \d+×\d+ jpeg /);
    const { page } = run;
    const thumb = page
      .getByRole('list', { name: 'Steps' })
      .getByRole('img', { name: /^Screenshot from the screenshot step at / });
    await thumb.waitFor();
    const natural = await thumb.evaluate((img: HTMLImageElement) =>
      img.decode().then(() => ({ width: img.naturalWidth, height: img.naturalHeight })),
    );
    expect(natural.width).toBeGreaterThan(0);
    expect(natural.height).toBeGreaterThan(0);
    const small = (await thumb.boundingBox())!;
    expect(small.width).toBeLessThanOrEqual(160);
    await run.shot('oversight-screenshot');
    await page.getByRole('button', { name: /^Screenshot from the screenshot step/ }).click();
    await expect.poll(async () => (await thumb.boundingBox())!.width).toBeGreaterThan(small.width * 2);
    await run.shot('oversight-screenshot-open');

    const { entries } = await run.control.call('audit.read', { tool: 'screenshot' });
    expect(entries).toHaveLength(1);
    expect(Object.keys(entries[0]!).sort()).toEqual(['client', 'decision', 'ms', 'time', 'tool']);
    const { events } = await run.control.call('activity.list', { limit: 5 });
    const event = events.findLast((e) => e.type === 'call' && e.tool === 'screenshot');
    const shot = await run.control.call('activity.shot', { id: event?.type === 'call' ? event.id : '' });
    const line = readFileSync(join(run.dataDir, AUDIT_FILE), 'utf8')
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry['tool'] === 'screenshot');
    expect(line).not.toHaveProperty('shot');
    expect(JSON.stringify(line)).not.toContain(shot.data.slice(0, 64));
    expect(run.errors).toEqual([]);
  });
});
