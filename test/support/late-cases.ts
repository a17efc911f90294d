// Runs late cases each on a tab of its own, all set up first, so the wait past their evals (6.5 s) is paid once per
// group instead of once per case; each case stays its own test, clicked and checked on its own tab.
import { it } from 'vitest';
import { pastTheEval } from './late-gestures.js';
import type { LateTab } from './late-tab.js';

/** A case both backends may run: its test's name, and its set-up on a tab, which returns the person's click and check. */
export interface LateCase {
  name: string;
  prepare: (tab: LateTab) => Promise<() => Promise<void>>;
}

/**
 * One test per case. The first to run sets every case up, one after another (a busy box sets each up as it would
 * alone), each on a new tab from `openTab`, then waits once past the last eval; a case whose set-up failed fails alone.
 */
export function itEachOnItsOwnTab(cases: readonly LateCase[], openTab: () => Promise<LateTab>): void {
  let prepared: Promise<Map<LateCase, Promise<() => Promise<void>>>> | undefined;
  const prepareAll = async () => {
    const checks = new Map<LateCase, Promise<() => Promise<void>>>();
    for (const each of cases) {
      const check = openTab().then((tab) => each.prepare(tab));
      checks.set(each, check);
      await check.catch(() => undefined);
    }
    await pastTheEval();
    return checks;
  };
  for (const each of cases)
    it(
      each.name,
      async () => {
        prepared ??= prepareAll();
        const check = await (await prepared).get(each)!;
        await check();
      },
      // The first test sets up the whole group.
      30_000 + cases.length * 10_000,
    );
}
