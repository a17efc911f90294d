// "Needs you" in real Chromium against a real core: a site question answered in the panel lets the agent's retry
// through, an agent waiting on `ask` gets the reply typed in the panel, and a risky act held in the driven browser is
// sent exactly when the person presses Send there — and never when they press Do not send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startGateSite, type GateSite } from '../support/gate-site.js';
import { startPanel, type PanelRun } from './support/panel.js';
import { testServerFlags } from '../support/test-policy.js';

let fixtures: FixtureServer;
let site: GateSite;
let run: PanelRun;

beforeAll(async () => {
  [fixtures, site] = await Promise.all([startFixtureServer(), startGateSite()]);
  // 127.0.0.1 may be acted on, not trusted: risky acts there are held. localhost has no rule: the agent must ask.
  run = await startPanel(testServerFlags('act', ['127.0.0.1']));
  await run.show('Needs you');
});

afterAll(async () => {
  await run?.close();
  await Promise.all([fixtures?.close(), site?.close()]);
});

describe('needs you', () => {
  it('answers a site question with "Allow once", after which the agent\'s retry loads the page', async () => {
    await run.call('tab_new', { url: fixtures.url('nav-basic.html') });
    const target = `${fixtures.crossOrigin}/nav-second.html`;
    expect(await run.call('navigate', { url: target })).toMatch(/^DOMAIN_CONFIRMATION_REQUIRED: .*The person is asked/);
    const card = run.page
      .locator('.card.question')
      .filter({ hasText: `The agent wants to read ${fixtures.crossOrigin}` });
    await card.waitFor();
    // The card says what an allow grants: more than the read asked for.
    await card.getByText('Allowing lets it read and act on the site.').waitFor();
    await run.shot('needs-you-question');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await card.waitFor({ state: 'detached' });
    expect(await run.call('navigate', { url: target })).toContain('Nav second');
  });

  it("replies to the agent's question while its `ask` call waits", async () => {
    const asking = run.call('ask', { question: 'Which account should I use?' });
    const card = run.page.locator('.card.question').filter({ hasText: 'Which account should I use?' });
    await card.waitFor();
    await card.getByLabel('Your reply').fill('The work account');
    await card.getByRole('button', { name: 'Reply' }).click();
    expect(await asking).toBe('The person replied: The work account');
    await card.waitFor({ state: 'detached' });
  });

  it('sends a held act as shown when the person presses Send, and never one they refuse', async () => {
    await run.call('navigate', { url: site.url('gate-mail.html') });
    const before = site.received.length;
    expect(await run.call('click', { selector: '#send' })).toMatch(/^HELD: /);
    const card = run.page.locator('.card.held');
    await card.waitFor();
    expect(await card.textContent()).toContain('POST');
    expect(await card.textContent()).toContain('alice@example.com');
    expect(await card.textContent()).not.toContain('s3cret-Sign-Pass');
    expect(site.received.slice(before)).toEqual([]);
    await run.shot('needs-you-held');
    await card.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = await site.arrival('/api/messages', before);
    expect(sent.body).toContain('alice@example.com');
    await card.waitFor({ state: 'detached' });

    const afterSend = site.received.length;
    expect(await run.call('click', { selector: '#delete' })).toMatch(/^HELD: /);
    await card.filter({ hasText: 'DELETE' }).getByRole('button', { name: 'Do not send' }).click();
    await card.waitFor({ state: 'detached' });
    expect((await run.control.call('held.list')).held).toEqual([]);
    expect(site.received.slice(afterSend)).toEqual([]);
    expect(run.errors).toEqual([]);
  });
});
