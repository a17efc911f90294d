// An app of another wire version (one from before the bump, say) refuses the real extension's hello as bad_version:
// the popup says which end to update and that it links again by itself; the extension keeps its secret, dials again
// on its own wake-ups rather than in a loop, and links with no pairing once the app answers in its version. Before, it
// took the refusal for a refused secret and dialled no more until the person pressed Reconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../shared/protocol/wire.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { RawCore } from './support/raw-core.js';
import { until } from './support/until.js';

const SECRET = 'other-version-test-secret';

let core: RawCore;
let browser: ExtensionBrowser;

beforeAll(async () => {
  core = await RawCore.start();
  browser = await startExtensionBrowser();
});

afterAll(async () => {
  await browser?.close();
  await core?.close();
});

function linkState(): Promise<{ state?: string; detail?: string }> {
  return browser
    .evaluate<{ link?: { state: string; detail?: string } }>('chrome.storage.session.get("link")')
    .then((value) => value.link ?? {});
}

describe('an app of another wire version', () => {
  it('is named in the popup with its next step, and links with the same secret once the app is current', async () => {
    const dialled = core.nextLink();
    await browser.seed({ port: core.port, secret: SECRET });
    const first = await dialled;
    first.refuse('bad_version', CLOSE_CODES.unauthorized);
    await first.closed;
    const status = await until(linkState, (value) => value.state === 'other_version');
    expect(status.state).toBe('other_version');

    // Opening the popup wakes the worker, which dials the still-old app again; the popup says what it found.
    const again = core.nextLink();
    const popup = await browser.openPage('popup.html');
    const stillOld = await again;
    stillOld.refuse('bad_version', CLOSE_CODES.unauthorized);
    await stillOld.closed;
    const text = (id: string) => popup.evaluate<string>(`document.getElementById(${JSON.stringify(id)}).textContent`);
    const headline = 'The app and the extension are different versions';
    expect(
      await until(
        () => text('state'),
        (value) => value === headline,
      ),
    ).toBe(headline);
    expect(await text('detail')).toBe(
      'The app and the extension are different versions: update the one that is older. It links again by itself once both are current, no pairing needed.',
    );

    // The app is updated: the next wake-up (the alarm's, here the popup's message) links with the secret it kept.
    const updated = core.nextLink();
    await popup.evaluate(`chrome.runtime.sendMessage({ type: 'connect', force: false }).catch(() => undefined)`);
    const link = await updated;
    expect(link.greeting).toMatchObject({ type: 'hello' });
    await link.accept(SECRET, 'v2');
    link.policy(TEST_POLICY);
    expect((await until(linkState, (value) => value.state === 'connected')).state).toBe('connected');
    await popup.close();
  });
});
