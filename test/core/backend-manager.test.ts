// Backend selection per call: extension when connected and answering, else fallback when allowed, else NO_BACKEND;
// a held act's decision goes to the backend that held it.
// The two backends are scripted here: this tests the choice alone (the real ones are tested end to end elsewhere).
import { describe, expect, it } from 'vitest';
import {
  BackendManager,
  PING_DEADLINE_MS,
  type BrowserChoice,
  type ExtensionBackend,
} from '../../electron/core/backend/backend-manager.js';
import { ToolError } from '../../shared/protocol/errors.js';
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

/** A backend that holds every click as `<name>.h1` and answers the decision on it. */
function holding(name: string): Executor & { decisions: string[] } {
  const decisions: string[] = [];
  return {
    decisions,
    run: async (op, args) => {
      if (op === 'release_held') {
        decisions.push(`${String(args['id'])} ${String(args['release'])}`);
        return { text: `${name} released` };
      }
      if (op === 'click') throw new ToolError('HELD', 'held', { data: { held: { id: `${name}.h1` } } });
      return { text: `${name} ran ${op}` };
    },
  };
}

describe("a held act's decision", () => {
  it('goes to the backend that held it, though another serves the calls now', async () => {
    const state = { connected: false, answers: true };
    const inChrome = holding('x1');
    const launched = holding('f1');
    const chosen = new BackendManager(
      'auto',
      { executor: inChrome, connected: () => state.connected, alive: async () => state.answers },
      launched,
    );
    expect((await failure(chosen.run('click', {}, ctx))).code).toBe('HELD');
    state.connected = true;
    expect((await chosen.run('tabs', {}, ctx)).text).toBe('x1 ran tabs');
    expect((await chosen.run('release_held', { id: 'f1.h1', release: true }, ctx)).text).toBe('f1 released');
    expect(launched.decisions).toEqual(['f1.h1 true']);
    expect(inChrome.decisions).toEqual([]);
  });

  it('fails clearly, sending nothing, for an act no backend of it holds (decided already, or unknown)', async () => {
    const launched = holding('f1');
    const chosen = new BackendManager('fallback', extension({ connected: false, answers: false }), launched);
    await failure(chosen.run('click', {}, ctx));
    await chosen.run('release_held', { id: 'f1.h1', release: false }, ctx);
    for (const id of ['f1.h1', 'zz.h9']) {
      const gone = await failure(chosen.run('release_held', { id, release: true }, ctx));
      expect(gone.code).toBe('NOT_FOUND');
      expect(gone.message).toMatch(new RegExp(`^Held act ${id.replace('.', '\\.')} is gone: .*; nothing was sent\\.$`));
    }
    expect(launched.decisions).toEqual(['f1.h1 false']);
  });
});
