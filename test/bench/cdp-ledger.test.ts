// The bench's CDP ledger: which commands wait on each other (steps), how long CDP was busy, and the step line the
// round-trip table prints, on hand-made timelines.
import { describe, expect, it } from 'vitest';
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import {
  busyMs,
  byMethod,
  isPresenceRefresh,
  recordSends,
  stepLine,
  stepsOf,
  type Sent,
} from '../../scripts/bench/cdp-ledger.js';

const sent = (method: string, start: number, end: number): Sent => ({ method, start, end });

describe('cdp ledger', () => {
  it('starts a step only with a command sent after every earlier one answered', () => {
    const timeline = [
      sent('A', 0, 6),
      sent('B', 1, 2), // sent before A answered: same step
      sent('C', 3, 7), // after B answered but before A did: still the same step
      sent('D', 7, 9), // sent once all had answered: a new step
      sent('E', 12, 13),
    ];
    expect(stepsOf(timeline).map((step) => step.map((entry) => entry.method))).toEqual([['A', 'B', 'C'], ['D'], ['E']]);
  });

  it('counts busy time once where commands overlap, and only up to the return', () => {
    const timeline = [sent('A', 0, 4), sent('B', 2, 6), sent('C', 10, 20)];
    expect(busyMs(timeline, 15)).toBe(6 + 5);
    expect(busyMs(timeline, Infinity)).toBe(6 + 10);
  });

  it('names each step by its methods, counted, with how long it was in flight', () => {
    const timeline = [
      sent('Runtime.evaluate', 0, 1),
      sent('Input.dispatchMouseEvent', 2, 3),
      sent('Input.dispatchMouseEvent', 2.5, 4),
      sent('Runtime.releaseObject', 3, 3.5),
      sent('Runtime.callFunctionOn', 5, Infinity),
    ];
    expect(byMethod(timeline)).toBe(
      'Runtime.evaluate, Input.dispatchMouseEvent×2, Runtime.releaseObject, Runtime.callFunctionOn',
    );
    expect(stepLine(timeline)).toBe(
      'Runtime.evaluate 1.0 → Input.dispatchMouseEvent×2 + Runtime.releaseObject 2.0 → Runtime.callFunctionOn …',
    );
  });

  it('names the page library function a call runs, and leaves out what it is told to', async () => {
    const connection = { send: async () => ({}) } as unknown as CdpConnection;
    const recorded: Sent[] = [];
    recordSends(connection, recorded, isPresenceRefresh);
    const call = (name: string) => ({ functionDeclaration: `function(...a){return globalThis.__cm.${name}(...a)}` });
    await connection.send('Runtime.callFunctionOn', call('indicate'));
    await connection.send('Runtime.callFunctionOn', call('clickPoint'));
    await connection.send('Runtime.evaluate', { expression: '1' });
    expect(recorded.map(({ method, libraryCall }) => [method, libraryCall])).toEqual([
      ['Runtime.callFunctionOn', 'clickPoint'],
      ['Runtime.evaluate', undefined],
    ]);
  });
});
