// The connection screen with the person's Chrome really linked: the built chrome-mcp paired with the real extension
// in real Chromium (through the native host), and the panel showing that browser and revoking its pairing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkedCore, type LinkedCore } from '../support/linked-core.js';
import { openPanel, type OpenPanel } from './support/panel.js';

let core: LinkedCore;
let panel: OpenPanel;

beforeAll(async () => {
  core = await startLinkedCore([]);
  panel = await openPanel(core.dataDir);
});

afterAll(async () => {
  await panel?.close();
  await core?.close();
});

describe('a paired extension in the panel', () => {
  it('shows the connected Chrome, and Revoke makes the core forget the pairing for good, saying so', async () => {
    await panel.show('Connection');
    const { page } = panel;
    const chrome = (await core.control.call('pairing.status')).browser?.chrome;
    expect(chrome).toBeTruthy();
    await page
      .getByTestId('extension')
      .filter({ hasText: `connected: Chrome ${chrome}` })
      .waitFor();
    await page.getByText('Paired (secret kept in the file).').waitFor();
    await panel.shot('connection-paired');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => core.stderr()).toContain('pairing: revoked through the control API');
    // The native host is installed, and still the extension does not come back: the screen says so and why.
    await page.getByTestId('revoked').waitFor();
    await page
      .getByTestId('extension')
      .filter({ hasText: 'not paired: revoked, stays so until you pair again' })
      .waitFor();
    await panel.shot('connection-revoked-paired');
    expect(panel.errors).toEqual([]);
  });
});
