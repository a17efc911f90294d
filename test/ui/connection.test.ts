// Connection and audit in real Chromium against a real core: Pair shows a one-time code with its time left (the code
// the extension's popup takes), the status names the browser the agent drives, and the audit log filters by tool,
// decision and URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startPanel, type PanelRun } from './support/panel.js';

let fixtures: FixtureServer;
let run: PanelRun;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  run = await startPanel(['--allow', '127.0.0.1']);
});

afterAll(async () => {
  await run?.close();
  await fixtures?.close();
});

describe('connection', () => {
  it('shows a one-time pairing code with its time left, the one the core will take', async () => {
    await run.show('Connection');
    const { page } = run;
    await page.getByTestId('extension').filter({ hasText: 'not paired' }).waitFor();
    expect((await run.control.call('pairing.status')).code).toBeNull();
    await page.getByRole('button', { name: 'Pair' }).click();
    const code = page.getByLabel('Pairing code');
    await code.waitFor();
    expect(await code.textContent()).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    await page.getByText(/Works once, for \d+:\d\d more\./).waitFor();
    expect((await run.control.call('pairing.status')).code).toEqual({ expires: expect.any(Number) });
    await run.shot('connection');
    // A new code replaces the first.
    const first = await code.textContent();
    await page.getByRole('button', { name: 'New code' }).click();
    await expect.poll(() => code.textContent()).not.toBe(first);
  });
});

describe('audit log', () => {
  it('lists the agent\'s calls and filters them by tool, decision and URL', async () => {
    await run.call('tab_new', { url: fixtures.url('nav-basic.html') });
    await run.call('navigate', { url: `${fixtures.crossOrigin}/nav-second.html` });
    await run.show('Audit log');
    const { page } = run;
    const rows = page.locator('table.audit tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await page.getByLabel('Decision').selectOption('asked');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining('navigate')]);
    await page.getByLabel('Decision').selectOption('');
    await page.getByLabel('Tool').fill('tab_new');
    await page.getByLabel('URL contains').fill('nav-basic');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => rows.allTextContents()).toEqual([expect.stringContaining('nav-basic.html')]);
    await page.getByLabel('URL contains').fill('nowhere-at-all');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No entries match.').waitFor();
    await page.getByLabel('Tool').fill('');
    await page.getByLabel('URL contains').fill('');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    await run.shot('audit-log');
    expect(run.errors).toEqual([]);
  });
});
