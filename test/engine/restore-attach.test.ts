// The attach a host makes at its start for a kept tab: tried again at the tab's next change while refused for a while,
// a bounded number of times, each failure said; a closed tab or a refused site ends it at once.
import { describe, expect, it } from 'vitest';
import { attachForRestore, RESTORE_TRIES } from '../../shared/engine/restore-attach.js';
import { ToolError } from '../../shared/protocol/errors.js';

/** An attach that fails with `errors` in turn, then succeeds; a host whose tab changes at once when asked. */
function attempts(errors: Error[]) {
  const said: string[] = [];
  let tried = 0;
  const attach = async () => {
    const error = errors[tried++];
    if (error) throw error;
  };
  const host = { nextChange: async () => undefined };
  return { said, tries: () => tried, run: () => attachForRestore('7', attach, host, (line) => said.push(line)) };
}

describe('attachForRestore', () => {
  it('tries again at the next change while another debugger holds the tab, and says each refusal', async () => {
    const held = new ToolError('DEVTOOLS_OPEN', 'Another debugger holds this tab.');
    const attach = attempts([held, held]);
    expect(await attach.run()).toBe(true);
    expect(attach.tries()).toBe(3);
    expect(attach.said).toEqual([
      `could not attach tab 7 again at start (try 1 of ${RESTORE_TRIES}): DEVTOOLS_OPEN: Another debugger holds ` +
        'this tab.; trying again at its next change.',
      `could not attach tab 7 again at start (try 2 of ${RESTORE_TRIES}): DEVTOOLS_OPEN: Another debugger holds ` +
        'this tab.; trying again at its next change.',
    ]);
  });

  it('gives up after the bounded tries', async () => {
    const attach = attempts(Array.from({ length: RESTORE_TRIES + 1 }, () => new Error('busy')));
    expect(await attach.run()).toBe(false);
    expect(attach.tries()).toBe(RESTORE_TRIES);
    expect(attach.said.at(-1)).toMatch(/busy; giving up\.$/);
  });

  it('gives up at once on a closed tab or a refused site', async () => {
    for (const code of ['TAB_NOT_FOUND', 'POLICY_DENIED'] as const) {
      const attach = attempts([new ToolError(code)]);
      expect(await attach.run()).toBe(false);
      expect(attach.tries()).toBe(1);
    }
  });
});
