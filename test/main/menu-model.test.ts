// The tray menu as a function of the core's state, tested without Electron; and its translation to a menu template.
import { describe, expect, it, vi } from 'vitest';
import type { MenuEntry, TrayState } from '../../electron/main/menu-model.js';
import { fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());

const { clientsLine, headline, menuModel, tooltip, trayState } = await import('../../electron/main/menu-model.js');
const { menuTemplate } = await import('../../electron/main/tray.js');

const base: TrayState = {
  extension: 'connected',
  chrome: '141.0',
  fallbackInUse: false,
  stopped: false,
  waiting: 0,
  openAtLogin: false,
  showBrowser: true,
  clients: ['Claude Code'],
};

const labels = (entries: MenuEntry[]) => entries.map((entry) => (entry.type === 'separator' ? '---' : entry.label));
const item = (entries: MenuEntry[], label: string) =>
  entries.find((entry) => entry.type !== 'separator' && entry.label === label);

describe('tray menu model', () => {
  it('extension connected: says so with the Chrome version and the client connected, offers Stop, re-pairing and every client', () => {
    const entries = menuModel(base);
    expect(labels(entries)).toEqual([
      'Extension connected (Chrome 141.0)',
      '1 client connected: Claude Code',
      '---',
      'Pair extension again…',
      'Open panel',
      'Allowed sites…',
      'Stop agent',
      '---',
      'Connect Claude Desktop',
      'Connect Claude Code',
      'Connect Cursor',
      '---',
      "Show the app's browser windows",
      'Start at login',
      'Open logs',
      '---',
      'Quit Chrome MCP',
    ]);
    expect(item(entries, 'Connect Cursor')).toMatchObject({ action: { kind: 'connect', client: 'cursor' } });
    expect(item(entries, 'Start at login')).toMatchObject({
      type: 'checkbox',
      checked: false,
      action: { kind: 'login', enabled: true },
    });
  });

  it("fallback in use: says the app's browser serves and the person's Chrome is not used", () => {
    const entries = menuModel({ ...base, extension: 'paired', chrome: undefined, fallbackInUse: true });
    expect(labels(entries).slice(0, 2)).toEqual([
      "Using the app's own browser",
      'Your Chrome is not being used: pair the extension to use it',
    ]);
  });

  it('nothing paired: says so and puts Pair extension first', () => {
    const entries = menuModel({ ...base, extension: 'unpaired', chrome: undefined });
    expect(labels(entries).slice(0, 4)).toEqual([
      'Extension not paired',
      '1 client connected: Claude Code',
      '---',
      'Pair extension…',
    ]);
    expect(item(entries, 'Pair extension…')).toMatchObject({ action: { kind: 'pair' } });
  });

  it('stopped: offers Resume instead of Stop, and says so first', () => {
    const entries = menuModel({ ...base, stopped: true });
    expect(headline({ ...base, stopped: true })).toBe('Agent stopped');
    expect(item(entries, 'Resume agent')).toMatchObject({ action: { kind: 'resume' } });
    expect(item(entries, 'Stop agent')).toBeUndefined();
  });

  it('counts what waits for the person, and hides Start at login where the OS has none', () => {
    const entries = menuModel({ ...base, waiting: 2, openAtLogin: undefined });
    expect(item(entries, 'Open panel (2 waiting)')).toBeDefined();
    expect(item(entries, 'Start at login')).toBeUndefined();
    expect(tooltip({ ...base, waiting: 2 })).toBe('Chrome MCP: Extension connected (Chrome 141.0) — 2 waiting for you');
  });

  it('says which MCP clients are connected in one short line, a disabled item', () => {
    expect(clientsLine([])).toBe('No MCP client connected');
    expect(clientsLine(['Claude Code', 'Claude Desktop'])).toBe('2 clients connected: Claude Code, Claude Desktop');
    expect(clientsLine(['a', 'b', 'c', 'd', 'e'])).toBe('5 clients connected: a, b, c, +2 more');
    expect(clientsLine(['x'.repeat(64)])).toBe(`1 client connected: ${'x'.repeat(23)}…`);
    const entries = menuModel({ ...base, clients: [] });
    expect(labels(entries).slice(0, 3)).toEqual([
      'Extension connected (Chrome 141.0)',
      'No MCP client connected',
      '---',
    ]);
    expect(menuTemplate(entries, vi.fn())[1]).toEqual({ label: 'No MCP client connected', enabled: false });
  });

  it("derives the state from the core's status reports", () => {
    const control = {
      stopped: null,
      questions: 1,
      held: 1,
      clients: [
        { id: '1', name: 'Claude Code', since: 1 },
        { id: '3', name: 'Cursor', since: 2 },
      ],
    };
    const browser = { launched: false };
    expect(
      trayState({
        report: { lastCall: null, extension: { connected: false, pairing: 'none' }, browser },
        control,
        openAtLogin: true,
        showBrowser: false,
      }),
    ).toEqual({
      extension: 'unpaired',
      fallbackInUse: false,
      stopped: false,
      waiting: 2,
      openAtLogin: true,
      showBrowser: false,
      clients: ['Claude Code', 'Cursor'],
    });
    expect(
      trayState({
        report: { lastCall: { backend: 'fallback' }, extension: { connected: false, pairing: 'keychain' }, browser },
        control,
        openAtLogin: undefined,
        showBrowser: true,
      }),
    ).toMatchObject({ extension: 'paired', fallbackInUse: true });
    expect(
      trayState({
        report: {
          lastCall: { backend: 'fallback' },
          extension: { connected: true, pairing: 'file', chrome: '141' },
          browser,
        },
        control: { ...control, stopped: { message: 'x' } },
        openAtLogin: undefined,
        showBrowser: true,
      }),
    ).toMatchObject({ extension: 'connected', chrome: '141', fallbackInUse: false, stopped: true });
  });

  it('turns the model into an Electron menu template whose items report their action', () => {
    const onAction = vi.fn();
    const template = menuTemplate(menuModel({ ...base, stopped: true }), onAction);
    expect(template[0]).toEqual({ label: 'Agent stopped', enabled: false });
    expect(template[1]).toEqual({ label: '1 client connected: Claude Code', enabled: false });
    expect(template[2]).toEqual({ type: 'separator' });
    const resume = template.find((entry) => entry.label === 'Resume agent')!;
    resume.click!(undefined as never, undefined, undefined as never);
    expect(onAction).toHaveBeenCalledWith({ kind: 'resume' });
    expect(template.find((entry) => entry.label === "Show the app's browser windows")).toMatchObject({
      type: 'checkbox',
      checked: true,
    });
  });
});
