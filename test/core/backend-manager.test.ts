// Backend selection per call: extension when connected and answering, else fallback when allowed, else NO_BACKEND.
// The two backends are scripted here: this tests the choice alone (the real ones are tested end to end elsewhere).
import { describe, expect, it } from 'vitest';
import { BackendManager, PING_DEADLINE_MS, type BrowserChoice, type ExtensionBackend } from '../../electron/core/backend/backend-manager.js';
import type { Executor } from '../../shared/protocol/operations.js';
import { ctx, failure } from '../support/engine-suite.js';

function named(name: string): Executor {
  return { run: async (op) => ({ text: `${name} ran ${op}` }) };
}

function extension(state: { connected: boolean; answers: boolean }, deadlines: number[] = []): ExtensionBackend {
  return {
    executor: named('extension'),
    connected: () => state.connected,
    alive: async (deadlineMs) => {
      deadlines.push(deadlineMs);
      return state.answers;
    },
  };
}

function manager(choice: BrowserChoice, state: { connected: boolean; answers: boolean }, deadlines?: number[]) {
  return new BackendManager(choice, extension(state, deadlines), named('fallback'));
}

describe('backend selection', () => {
  it('uses the extension when it is connected and answers within the ping deadline', async () => {
    const deadlines: number[] = [];
    const chosen = manager('auto', { connected: true, answers: true }, deadlines);
    expect((await chosen.run('tabs', {}, ctx)).text).toBe('extension ran tabs');
    expect(chosen.lastSelection()).toEqual({ backend: 'extension', why: 'extension connected and answering' });
    expect(deadlines).toEqual([PING_DEADLINE_MS]);
  });

  it('falls back when the extension is absent or does not answer, and says why', async () => {
    const absent = manager('auto', { connected: false, answers: false });
    expect((await absent.run('tabs', {}, ctx)).text).toBe('fallback ran tabs');
    expect(absent.lastSelection()).toEqual({ backend: 'fallback', why: 'extension not connected' });
    const silent = manager('auto', { connected: true, answers: false });
    expect((await silent.run('tabs', {}, ctx)).text).toBe('fallback ran tabs');
    expect(silent.lastSelection()?.why).toBe('extension not answering');
  });

  it('re-selects on every call, so a late extension takes over and a lost one hands back', async () => {
    const state = { connected: false, answers: true };
    const chosen = manager('auto', state);
    expect((await chosen.run('tabs', {}, ctx)).text).toBe('fallback ran tabs');
    state.connected = true;
    expect((await chosen.run('tabs', {}, ctx)).text).toBe('extension ran tabs');
    state.connected = false;
    expect((await chosen.run('tabs', {}, ctx)).text).toBe('fallback ran tabs');
  });

  it('with --browser extension, answers NO_BACKEND with the fix instead of falling back', async () => {
    const error = await failure(manager('extension', { connected: false, answers: false }).run('tabs', {}, ctx));
    expect(error.code).toBe('NO_BACKEND');
    expect(error.next).toContain('chrome-mcp doctor');
  });

  it('with --browser fallback, never asks the extension', async () => {
    const deadlines: number[] = [];
    const chosen = manager('fallback', { connected: true, answers: true }, deadlines);
    expect((await chosen.run('tabs', {}, ctx)).text).toBe('fallback ran tabs');
    expect(deadlines).toEqual([]);
  });
});
