// The TabHost over the app's browser windows, with Electron faked: tabs are windows in the fallback partition with the
// secure webPreferences and no preload, attached once, closed for good; popups open as our own tabs, shown to the engine
// before they load; downloads follow the policy; the show-windows setting decides what the person sees.
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
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
