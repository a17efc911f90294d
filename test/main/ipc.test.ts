// The control API over IPC, Electron faked: only the app's own panel is heard; an unknown call and bad input are
// refused before the hub; a good call reaches it parsed; the activity stream reaches the subscribed panel; and the
// preload's bridge turns a refusal back into the { code, message } the panel expects.
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTROL_IPC } from '../../shared/control/ipc.js';
import { ControlError } from '../../shared/control/errors.js';
import { FakeWebContents, fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());

const electron = await import('electron');
const ipcMain = electron.ipcMain as unknown as EventEmitter & {
  handlers: Map<string, unknown>;
  invoke(channel: string, event: unknown, ...args: unknown[]): Promise<unknown>;
};
const { setupIpc, isPanelSender } = await import('../../electron/main/ipc.js');
const { createBridge } = await import('../../electron/preload/bridge.js');

const PANEL = 'app://panel/index.html';

/** An IPC event as Electron hands it over: the sending frame (its URL, whether it has a parent) and its webContents. */
function frameEvent(url: string, options: { sender?: FakeWebContents; iframe?: boolean } = {}): never {
  return {
    senderFrame: { url, parent: options.iframe ? {} : null },
    sender: options.sender ?? new FakeWebContents(),
  } as never;
}

let hub: { call: ReturnType<typeof vi.fn>; subscribe: ReturnType<typeof vi.fn> };
let logged: string[];
let teardown: () => void;
let listeners: ((event: unknown) => void)[];

beforeEach(() => {
  teardown?.();
  listeners = [];
  hub = {
    call: vi.fn(async (name: string) => ({ answered: name })),
    subscribe: vi.fn((listener: (event: unknown) => void) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    }),
  };
  logged = [];
  teardown = setupIpc({ hub: hub as never, panelOrigin: 'app://panel', log: (line) => logged.push(line) });
});

describe('control IPC', () => {
  it('passes a good call from the panel to the hub, input parsed (defaults filled)', async () => {
    const reply = await ipcMain.invoke(CONTROL_IPC.call, frameEvent(`${PANEL}#screen=sites`), 'activity.list', {
      since: 3,
    });
    expect(reply).toEqual({ ok: true, value: { answered: 'activity.list' } });
    expect(hub.call).toHaveBeenCalledWith('activity.list', { since: 3, limit: 200 });
  });

  it('refuses a sender that is not the panel: another origin, a file, an iframe, a frame gone', async () => {
    for (const event of [
      frameEvent('https://evil.example/app://panel'),
      frameEvent('file:///tmp/index.html'),
      frameEvent('app://panel.evil/index.html'),
      frameEvent(PANEL, { iframe: true }),
      { senderFrame: null, sender: new FakeWebContents() },
    ]) {
      const reply = await ipcMain.invoke(CONTROL_IPC.call, event, 'status', {});
      expect(reply).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: expect.any(String) } });
    }
    expect(hub.call).not.toHaveBeenCalled();
    expect(logged[0]).toMatch(/refused control:call from https:\/\/evil\.example/);
  });

  it('refuses an unknown call name without reaching the hub', async () => {
    for (const name of ['shutdown', '__proto__', 'toString', 42]) {
      const reply = await ipcMain.invoke(CONTROL_IPC.call, frameEvent(PANEL), name, {});
      expect(reply).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
    }
    expect(hub.call).not.toHaveBeenCalled();
  });

  it('refuses bad input with BAD_ARGS naming the field, without reaching the hub', async () => {
    const unknownField = await ipcMain.invoke(CONTROL_IPC.call, frameEvent(PANEL), 'stop', {
      message: 'x',
      evil: true,
    });
    expect(unknownField).toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGS', message: expect.stringContaining('"evil"') },
    });
    const wrongType = await ipcMain.invoke(CONTROL_IPC.call, frameEvent(PANEL), 'held.decide', {
      id: 'h1',
      release: 'yes',
    });
    expect(wrongType).toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGS', message: expect.stringContaining('release') },
    });
    expect(hub.call).not.toHaveBeenCalled();
  });

  it("reports a hub refusal with its code, and hides an internal failure's details", async () => {
    hub.call.mockRejectedValueOnce(new ControlError('NOT_FOUND', 'No question q9.'));
    expect(await ipcMain.invoke(CONTROL_IPC.call, frameEvent(PANEL), 'status', {})).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'No question q9.' },
    });
    hub.call.mockRejectedValueOnce(new Error('EACCES /home/person/.chrome-mcp/secret'));
    const reply = await ipcMain.invoke(CONTROL_IPC.call, frameEvent(PANEL), 'status', {});
    expect(reply).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(reply)).not.toContain('secret');
  });

  it('streams activity to the subscribed panel until it unsubscribes, and not to a foreign sender', () => {
    const panel = new FakeWebContents();
    ipcMain.emit(CONTROL_IPC.subscribe, frameEvent(PANEL, { sender: panel }), 's1', 5);
    expect(hub.subscribe).toHaveBeenCalledWith(expect.any(Function), 5);
    listeners[0]!({ seq: 6, type: 'resume' });
    expect(panel.sent).toEqual([[CONTROL_IPC.event, 's1', { seq: 6, type: 'resume' }]]);
    ipcMain.emit(CONTROL_IPC.unsubscribe, frameEvent(PANEL, { sender: panel }), 's1');
    expect(listeners).toHaveLength(0);

    ipcMain.emit(CONTROL_IPC.subscribe, frameEvent('https://evil.example/'), 's2');
    ipcMain.emit(CONTROL_IPC.subscribe, frameEvent(PANEL), { not: 'an id' });
    expect(hub.subscribe).toHaveBeenCalledTimes(1);
  });

  it("drops a panel's subscriptions when it reloads or closes", () => {
    const panel = new FakeWebContents();
    ipcMain.emit(CONTROL_IPC.subscribe, frameEvent(PANEL, { sender: panel }), 's1');
    ipcMain.emit(CONTROL_IPC.subscribe, frameEvent(PANEL, { sender: panel }), 's2');
    expect(listeners).toHaveLength(2);
    panel.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true });
    expect(listeners).toHaveLength(2);
    panel.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    expect(listeners).toHaveLength(0);
    ipcMain.emit(CONTROL_IPC.subscribe, frameEvent(PANEL, { sender: panel }), 's3');
    panel.destroy();
    expect(listeners).toHaveLength(0);
  });

  it('checks the sender by origin and top frame', () => {
    expect(isPanelSender(frameEvent('app://panel/'), 'app://panel')).toBe(true);
    expect(isPanelSender(frameEvent('http://localhost:5173/'), 'http://localhost:5173')).toBe(true);
    expect(isPanelSender(frameEvent('app://panel:80/'), 'app://panel')).toBe(false);
    expect(isPanelSender(frameEvent('not a url'), 'app://panel')).toBe(false);
  });
});

describe('the preload bridge over IPC', () => {
  /** ipcRenderer wired to the fake ipcMain as the panel's top frame. */
  function panelRenderer() {
    const contents = new FakeWebContents();
    const renderer = new EventEmitter();
    contents.send = (channel: unknown, ...args: unknown[]) => void renderer.emit(String(channel), {}, ...args);
    const event = frameEvent(PANEL, { sender: contents });
    return Object.assign(renderer, {
      invoke: (channel: string, ...args: unknown[]) => ipcMain.invoke(channel, event, ...args),
      send: (channel: string, ...args: unknown[]) => void ipcMain.emit(channel, event, ...args),
    });
  }

  it('exposes exactly call and subscribe', () => {
    expect(Object.keys(createBridge(panelRenderer() as never)).sort()).toEqual(['call', 'subscribe']);
  });

  it('resolves a call with its output and rejects a refusal as a plain { code, message }', async () => {
    const bridge = createBridge(panelRenderer() as never);
    await expect(bridge.call('status', {})).resolves.toEqual({ answered: 'status' });
    const refusal = await bridge.call('nope', {}).catch((error: unknown) => error);
    expect(refusal).toEqual({ code: 'UNKNOWN_CALL', message: 'No control call "nope".' });
  });

  it('delivers each subscription its own events and stops on unsubscribe', () => {
    const bridge = createBridge(panelRenderer() as never);
    const a: unknown[] = [];
    const b: unknown[] = [];
    const stopA = bridge.subscribe(undefined, (event) => a.push(event));
    bridge.subscribe(0, (event) => b.push(event));
    expect(hub.subscribe.mock.calls.map((call) => call[1])).toEqual([undefined, 0]);
    for (const listener of [...listeners]) listener({ type: 'resume' });
    expect([a, b]).toEqual([[{ type: 'resume' }], [{ type: 'resume' }]]);
    stopA();
    expect(listeners).toHaveLength(1);
  });
});
