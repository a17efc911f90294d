// Connection and audit in real Chromium against a real core: Pair shows a one-time code with its time left (the code
// the extension's popup takes), the status names the browser the agent drives, the extension's folder can be copied
// for Load unpacked, a revoke says it stands until the person pairs again, and the audit log filters by tool,
// decision and URL.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../pairing/support/cli.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startPanel, type PanelRun } from './support/panel.js';
import { testServerFlags } from '../support/test-policy.js';

let fixtures: FixtureServer;
let run: PanelRun;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  run = await startPanel(testServerFlags('act', ['127.0.0.1']));
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

describe('loading the extension', () => {
  it('shows the folder `chrome-mcp extension-path` prints, and copies it for Load unpacked', async () => {
    await run.show('Connection');
    const { page } = run;
    const printed = spawnSync(process.execPath, [CLI, 'extension-path'], { encoding: 'utf8' });
    expect(printed.status).toBe(0);
    const path = page.getByTestId('extension-path');
    await path.waitFor();
    expect(await path.textContent()).toBe(printed.stdout.trim());
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy path' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(printed.stdout.trim());
    await run.shot('connection-extension-folder');
  });
});

describe('after a revoke', () => {
  it('says plainly that the extension stays unpaired until it is paired again, and Pair lifts that', async () => {
    await run.show('Connection');
    const { page } = run;
    await run.control.call('pairing.revoke');
    const notice = page.getByTestId('revoked');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      /^You revoked the pairing at .+\. The extension stays unpaired, and will not pair itself again, until you pair it again here: press Pair\.$/,
    );
    await page
      .getByTestId('extension')
      .filter({ hasText: 'not paired: revoked, stays so until you pair again' })
      .waitFor();
    await run.shot('connection-revoked');
    await page.getByRole('button', { name: 'Pair' }).click();
    await page.getByLabel('Pairing code').waitFor();
    await notice.waitFor({ state: 'detached' });
    expect((await run.control.call('pairing.status')).revokedAt).toBeNull();
  });
});

describe('audit log', () => {
  it("lists the agent's calls and filters them by tool, decision and URL", async () => {
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
