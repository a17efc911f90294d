// The script hold's verdict on a window, in the extension's tab host over a fake chrome (real Chrome cannot be made to
// hold its events back on cue): Chrome's word of a window the hold blocked may come after the hold ended, on a busy
// machine, and the window is named to its opener and closed all the same; one opened after it is left alone.
/// <reference types="chrome" />
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChromeTabHost } from '../../extension/src/chrome-tab-host.js';
import type { CdpEvent } from '../../shared/engine/cdp.js';
import { POPUP_HELD } from '../../shared/engine/popup-events.js';
import { SCRIPT_TAG_LINE } from '../../shared/engine/script-initiator.js';
import { EVAL_ACTIVATION_MS } from '../../shared/engine/scripted-documents.js';
import { installFakeChrome, type FakeChrome } from './support/fake-chrome.js';

const OPENER = 1;
const POPUP = 2;
const AWAY = 'https://away.test/form';

let fake: FakeChrome;
let host: ChromeTabHost;
let named: CdpEvent[];
/** When the agent's script was sent. */
let sent: number;

beforeEach(async () => {
  vi.useFakeTimers();
  fake = installFakeChrome(new Map([[OPENER, 'https://home.test/page']]));
  host = new ChromeTabHost();
  const cdp = await host.cdp(String(OPENER));
  named = [];
  cdp.on((event) => {
    if (event.method === POPUP_HELD) named.push(event);
  });
  // The engine's eval: the hold is armed before the script is sent.
  await cdp.send('Runtime.evaluate', { expression: `open('${AWAY}')${SCRIPT_TAG_LINE}x/1` });
  sent = Date.now();
});

afterEach(() => {
  vi.useRealTimers();
  delete (globalThis as { chrome?: unknown }).chrome;
});

/** Chrome's word of a window the opener opened at `openedAt`, whose first request a rule blocked, heard now. */
function chromeTells(openedAt: number, url = AWAY): void {
  host.popupOpened({ sourceTabId: OPENER, tabId: POPUP, url, timeStamp: openedAt });
  fake.errorOccurred.fire({
    tabId: POPUP,
    frameId: 0,
    error: 'net::ERR_BLOCKED_BY_CLIENT',
    url,
    timeStamp: openedAt + 100,
  } as chrome.webNavigation.WebNavigationFramedErrorCallbackDetails);
}

const scriptRules = () => fake.rules.filter((rule) => rule.condition.resourceTypes?.includes('main_frame' as never));

describe('a window the script hold blocked, as Chrome tells of it', () => {
  it('told at once: named to its opener, with no method claimed (Chrome named none), and closed', () => {
    expect(scriptRules().length).toBeGreaterThan(0);
    chromeTells(sent + 1_000);
    expect(named.map((event) => event.params)).toEqual([{ url: AWAY, kind: 'navigation' }]);
    expect(fake.removed).toEqual([POPUP]);
  });

  it('told only after the hold ended: named and closed all the same', async () => {
    await vi.advanceTimersByTimeAsync(EVAL_ACTIVATION_MS + 1_000);
    // The hold is over in Chrome too: the window was blocked while it stood.
    expect(scriptRules()).toEqual([]);
    chromeTells(sent + 1_000);
    expect(named.map((event) => event.params['url'])).toEqual([AWAY]);
    expect(fake.removed).toEqual([POPUP]);
  });

  it('opened after the hold ended: left alone (another rule blocked it)', async () => {
    await vi.advanceTimersByTimeAsync(EVAL_ACTIVATION_MS + 1_000);
    chromeTells(Date.now());
    expect(named).toEqual([]);
    expect(fake.removed).toEqual([]);
  });

  it('a form the opener’s session said it posted there: named with its method', () => {
    host.onEvent({ tabId: OPENER }, 'Page.frameRequestedNavigation', {
      frameId: 'W',
      reason: 'formSubmissionPost',
      url: AWAY,
      disposition: 'currentTab',
    });
    chromeTells(sent + 1_000);
    expect(named.map((event) => event.params)).toEqual([{ method: 'POST', url: AWAY, kind: 'navigation' }]);
  });

  it('to the tab’s own origin, during the hold: left alone', () => {
    chromeTells(sent + 1_000, 'https://home.test/other');
    expect(named).toEqual([]);
  });

  it('told half a minute after the hold ended: forgotten, as the record keeps no more', async () => {
    await vi.advanceTimersByTimeAsync(EVAL_ACTIVATION_MS + 31_000);
    chromeTells(sent + 1_000);
    expect(named).toEqual([]);
  });
});
