// Our own scripts give no page a user activation: only the agent's script runs as a gesture, so a page or a frame the
// script never ran in cannot open a window or claim a gesture-gated API off the back of our checks.
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import type { Frame } from '../../shared/engine/frames.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { frameWith, onElement, pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();

const open = async (path: string) => (await suite.browser.open(suite.server.url(path))).page;

const activated = (page: PageContext, frame: Frame) =>
  onElement<boolean>(page, frame, 'body', 'function () { return navigator.userActivation.hasBeenActive; }');

describe('user activation', () => {
  it('is not given to a page whose eval the password guard refused', async () => {
    const page = await open('guard-login.html');
    await onElement(page, (await page.frames.list())[0]!, '#pass', 'function () { this.value = "Pw-1"; }');
    expect((await failure(evaluate(page, { expression: '1' }, ctx))).code).toBe('PASSWORD_FIELD');
    expect(await pageEval(page, 'navigator.userActivation.hasBeenActive')).toBe(false);
  });

  it("is not given to another origin's frame the agent script did not run in", async () => {
    const page = await open('frames.html');
    await expect
      .poll(() =>
        frameWith(page, '?cross').then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    expect(await evaluate(page, { expression: '1 + 1' }, ctx)).toMatchObject({ text: '2' });
    expect(await pageEval(page, 'navigator.userActivation.hasBeenActive')).toBe(true);
    expect(await activated(page, await frameWith(page, '?cross'))).toBe(false);
  });
});
