// How long the core waits per operation: 30 s by default, an operation's own timeout plus a margin for the ones
// that wait, more for screenshots, a batch's steps together, and never beyond the ceiling.
import { describe, expect, it } from 'vitest';
import { callBudgetMs, DEFAULT_CALL_MS } from '../../electron/core/bridge/call-budget.js';

describe('callBudgetMs', () => {
  it('gives plain operations the default', () => {
    expect(callBudgetMs('click', {})).toBe(DEFAULT_CALL_MS);
    expect(callBudgetMs('tabs', { timeout: 900_000 })).toBe(DEFAULT_CALL_MS);
  });

  it('gives navigate and wait_for their own timeout plus a margin, never less than the default', () => {
    expect(callBudgetMs('navigate', {})).toBe(45_000);
    expect(callBudgetMs('navigate', { timeout: 90_000 })).toBe(105_000);
    expect(callBudgetMs('wait_for', {})).toBe(DEFAULT_CALL_MS);
    expect(callBudgetMs('wait_for', { timeout: 40_000 })).toBe(55_000);
    expect(callBudgetMs('wait_for', { timeout: 'soon' })).toBe(DEFAULT_CALL_MS);
    expect(callBudgetMs('navigate', { timeout: -5 })).toBe(45_000);
  });

  it('gives screenshots a minute', () => {
    expect(callBudgetMs('screenshot', { fullPage: true })).toBe(60_000);
  });

  it('gives a batch the sum of its steps, a nested batch counting as one default step', () => {
    const steps = [
      { tool: 'navigate', args: { url: 'https://example.com', timeout: 20_000 } },
      { tool: 'click', args: { ref: 'e1' } },
      { tool: 'screenshot' },
      { tool: 'batch', args: { steps: [{ tool: 'navigate', args: { timeout: 500_000 } }] } },
    ];
    expect(callBudgetMs('batch', { steps })).toBe(35_000 + 30_000 + 60_000 + 30_000);
    expect(callBudgetMs('batch', { steps: 'nope' })).toBe(DEFAULT_CALL_MS);
    expect(callBudgetMs('batch', { steps: [] })).toBe(DEFAULT_CALL_MS);
  });

  it('never exceeds ten minutes, whatever timeout the model asked for', () => {
    expect(callBudgetMs('navigate', { timeout: 1e12 })).toBe(600_000);
    expect(callBudgetMs('batch', { steps: Array.from({ length: 50 }, () => ({ tool: 'screenshot' })) })).toBe(600_000);
  });
});
