// The webContents.debugger transport, against a fake debugger: commands and child sessions routed, events delivered,
// and every way the attachment can end failing the calls in flight at once.
import { describe, expect, it, vi } from 'vitest';
import { CdpCommandError, type CdpEvent } from '../../shared/engine/cdp.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { FakeDebugger, fakeElectron } from './support/fake-electron.js';

vi.mock('electron', () => fakeElectron());

const { DebuggerCdp } = await import('../../electron/main/electron-fallback/debugger-cdp.js');

function attached() {
  const debuggee = new FakeDebugger();
  const cdp = new DebuggerCdp(debuggee);
  const events: CdpEvent[] = [];
  cdp.on((event) => events.push(event));
  return { debuggee, cdp, events };
}

describe('DebuggerCdp', () => {
  it('attaches with protocol 1.3 and routes a command to the page session and its answer back', async () => {
    const { debuggee, cdp } = attached();
    expect(debuggee.attachedWith).toBe('1.3');
    const answer = cdp.send<{ result: { value: number } }>('Runtime.evaluate', { expression: '1+1' });
    expect(debuggee.commands[0]).toMatchObject({
      method: 'Runtime.evaluate',
      params: { expression: '1+1' },
      sessionId: '',
    });
    debuggee.commands[0]!.resolve({ result: { value: 2 } });
    await expect(answer).resolves.toEqual({ result: { value: 2 } });
  });

  it('sends a child session its own commands (flattened sessions)', async () => {
    const { debuggee, cdp } = attached();
    const answer = cdp.send('DOM.getDocument', {}, 'child-1');
    expect(debuggee.commands[0]).toMatchObject({ method: 'DOM.getDocument', sessionId: 'child-1' });
    debuggee.commands[0]!.resolve(undefined);
    await expect(answer).resolves.toEqual({});
  });

  it('turns a refused command into CdpCommandError naming the method', async () => {
    const { debuggee, cdp } = attached();
    const answer = cdp.send('Page.navigate', { url: 'x' });
    debuggee.commands[0]!.reject(new Error('Cannot navigate to invalid URL'));
    await expect(answer).rejects.toEqual(new CdpCommandError('Page.navigate', 'Cannot navigate to invalid URL'));
  });

  it('delivers page events without a sessionId and child events with theirs', () => {
    const { debuggee, events } = attached();
    debuggee.event('Page.loadEventFired', { timestamp: 1 });
    debuggee.event('Runtime.consoleAPICalled', { type: 'log' }, 'child-1');
    expect(events).toEqual([
      { method: 'Page.loadEventFired', params: { timestamp: 1 } },
      { method: 'Runtime.consoleAPICalled', params: { type: 'log' }, sessionId: 'child-1' },
    ]);
  });

  it('tells its listeners what the host says of the tab, as one of the page’s events', () => {
    const { cdp, events } = attached();
    cdp.tell({ method: 'ChromeMcp.popupRequestHeld', params: { method: 'GET' } });
    expect(events).toEqual([{ method: 'ChromeMcp.popupRequestHeld', params: { method: 'GET' } }]);
  });

  it('fails the calls in flight on a child session that detaches, and only those', async () => {
    const { debuggee, cdp } = attached();
    const child = cdp.send('DOM.getDocument', {}, 'child-1');
    const page = cdp.send('Page.getFrameTree');
    debuggee.event('Target.detachedFromTarget', { sessionId: 'child-1' });
    await expect(child).rejects.toBeInstanceOf(CdpCommandError);
    debuggee.commands[1]!.resolve({ frameTree: {} });
    await expect(page).resolves.toEqual({ frameTree: {} });
  });

  it('on a closed window, fails calls in flight as "Target closed" and tells the engine it detached', async () => {
    const { debuggee, cdp, events } = attached();
    const pending = cdp.send('Runtime.evaluate', { expression: 'x' });
    debuggee.emit('detach', {}, 'target closed');
    await expect(pending).rejects.toEqual(new CdpCommandError('Runtime.evaluate', 'Target closed'));
    expect(events.at(-1)).toEqual({ method: 'Inspector.detached', params: { reason: 'target closed' } });
    expect(cdp.attached).toBe(false);
    await expect(cdp.send('Page.enable')).rejects.toBeInstanceOf(CdpCommandError);
    expect(debuggee.commands).toHaveLength(1);
  });

  it('on any other detach (DevTools took over, renderer gone), fails calls with DETACHED at once', async () => {
    const { debuggee, cdp } = attached();
    const pending = cdp.send('Runtime.evaluate', { expression: 'x' });
    debuggee.emit('detach', {}, 'canceled_by_user');
    await expect(pending).rejects.toMatchObject({ code: 'DETACHED' });
  });

  it('when the app lets go of its browser, fails calls in flight and later ones with BROWSER_CLOSED', async () => {
    const { debuggee, cdp, events } = attached();
    const pending = cdp.send('Runtime.evaluate', { expression: 'x' });
    cdp.close();
    await expect(pending).rejects.toEqual(expect.objectContaining({ code: 'BROWSER_CLOSED' }));
    await expect(cdp.send('Page.enable')).rejects.toBeInstanceOf(ToolError);
    expect(debuggee.isAttached()).toBe(false);
    expect(events.at(-1)?.method).toBe('Inspector.detached');
    // Electron's late answer to a failed call changes nothing.
    debuggee.commands[0]!.resolve({});
  });

  it('stops listening to the debugger once detached', () => {
    const { debuggee } = attached();
    debuggee.emit('detach', {}, 'target closed');
    expect(debuggee.listenerCount('message')).toBe(0);
    expect(debuggee.listenerCount('detach')).toBe(0);
  });
});
