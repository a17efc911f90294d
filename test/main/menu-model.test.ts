// The tray menu as a function of the core's state, tested without Electron; and its translation to a menu template.
import { describe, expect, it, vi } from 'vitest';
import type { MenuEntry, TrayState } from '../../electron/main/menu-model.js';
import { fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());

const { headline, menuModel, tooltip, trayState } = await import('../../electron/main/menu-model.js');
const { menuTemplate } = await import('../../electron/main/tray.js');

const base: TrayState = { extension: 'connected', chrome: '141.0', fallbackInUse: false, stopped: false, waiting: 0, openAtLogin: false, showBrowser: true };

const labels = (entries: MenuEntry[]) => entries.map((entry) => (entry.type === 'separator' ? '---' : entry.label));
const item = (entries: MenuEntry[], label: string) => entries.find((entry) => entry.type !== 'separator' && entry.label === label);

describe('tray menu model', () => {
  it('extension connected: says so with the Chrome version, offers Stop, re-pairing and every client', () => {
    const entries = menuModel(base);
    expect(labels(entries)).toEqual([
      'Extension connected (Chrome 141.0)',
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
      'Show the app\'s browser windows',
      'Start at login',
      'Open logs',
      '---',
      'Quit Chrome MCP',
    ]);
    expect(item(entries, 'Connect Cursor')).toMatchObject({ action: { kind: 'connect', client: 'cursor' } });
    expect(item(entries, 'Start at login')).toMatchObject({ type: 'checkbox', checked: false, action: { kind: 'login', enabled: true } });
  });

  it('fallback in use: says the app\'s browser serves and the person\'s Chrome is not used', () => {
    const entries = menuModel({ ...base, extension: 'paired', chrome: undefined, fallbackInUse: true });
    expect(labels(entries).slice(0, 2)).toEqual(['Using the app\'s own browser', 'Your Chrome is not being used: pair the extension to use it']);
  });

  it('nothing paired: says so and puts Pair extension first', () => {
    const entries = menuModel({ ...base, extension: 'unpaired', chrome: undefined });
    expect(labels(entries).slice(0, 3)).toEqual(['Extension not paired', '---', 'Pair extension…']);
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

  it('derives the state from the core\'s status reports', () => {
    const control = { stopped: null, questions: 1, held: 1 };
    const browser = { launched: false };
    expect(trayState({ report: { lastCall: null, extension: { connected: false, pairing: 'none' }, browser }, control, openAtLogin: true, showBrowser: false }))
      .toEqual({ extension: 'unpaired', fallbackInUse: false, stopped: false, waiting: 2, openAtLogin: true, showBrowser: false });
    expect(trayState({ report: { lastCall: { backend: 'fallback' }, extension: { connected: false, pairing: 'keychain' }, browser }, control, openAtLogin: undefined, showBrowser: true }))
      .toMatchObject({ extension: 'paired', fallbackInUse: true });
    expect(trayState({ report: { lastCall: { backend: 'fallback' }, extension: { connected: true, pairing: 'file', chrome: '141' }, browser }, control: { ...control, stopped: { message: 'x' } }, openAtLogin: undefined, showBrowser: true }))
      .toMatchObject({ extension: 'connected', chrome: '141', fallbackInUse: false, stopped: true });
  });

  it('turns the model into an Electron menu template whose items report their action', () => {
    const onAction = vi.fn();
    const template = menuTemplate(menuModel({ ...base, stopped: true }), onAction);
    expect(template[0]).toEqual({ label: 'Agent stopped', enabled: false });
    expect(template[1]).toEqual({ type: 'separator' });
    const resume = template.find((entry) => entry.label === 'Resume agent')!;
    resume.click!(undefined as never, undefined, undefined as never);
    expect(onAction).toHaveBeenCalledWith({ kind: 'resume' });
    expect(template.find((entry) => entry.label === 'Show the app\'s browser windows')).toMatchObject({ type: 'checkbox', checked: true });
  });
});
