// Oversight in real Chromium against a real core: an ask-first plan approved in the panel lets the agent act, Stop
// pressed in the panel halts a running batch and refuses the next call with the person's message until Resume, a
// message typed in the panel reaches the agent at the top of its next tool result, and each step shows with the
// element it aimed at and what became of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startPanel, type PanelRun } from './support/panel.js';

let fixtures: FixtureServer;
let run: PanelRun;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  run = await startPanel(['--allow', '127.0.0.1']);
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
    const step = page.getByRole('list', { name: 'Steps' }).getByRole('listitem').filter({ hasText: 'Add button' }).first();
    await step.waitFor();
    expect(await step.textContent()).toContain('allowed');
  });

  it('stops a running batch from the panel and lets the next call through after Resume', async () => {
    const steps = Array.from({ length: 20 }, () => [
      { tool: 'click', args: { selector: '#add' } },
      { tool: 'wait_for', args: { selector: '#never', timeout: 500 } },
    ]).flat();
    const started = Date.now();
    const batch = run.call('batch', { steps });
    // The batch needs ten seconds; it is well under way after one.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const { page } = run;
    await page.getByLabel('Stop message').fill('Wrong account, wait for me');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    expect(await batch).toMatch(/^STOPPED: /);
    expect(Date.now() - started).toBeLessThan(5_000);
    await page.getByText('The agent is stopped').waitFor();
    expect(await run.call('snapshot')).toMatch(/^STOPPED: Stopped by the person: Wrong account, wait for me/);
    await run.shot('oversight-stopped');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
    expect(await run.call('snapshot')).toContain('Counter');
  });

  it('passes a message typed in the panel to the top of the agent\'s next tool result', async () => {
    const { page } = run;
    await page.getByLabel('Message for the agent').fill('The order number is in the footer');
    await page.getByRole('button', { name: 'Send to the agent' }).click();
    await page.getByText('1 waiting for the agent\'s next call').waitFor();
    expect(await run.call('snapshot')).toMatch(/^The person says: The order number is in the footer\n\nPage /);
    await page.getByText('Message delivered: "The order number is in the footer"').waitFor();
    await run.shot('oversight');
    expect(run.errors).toEqual([]);
  });
});
