// The eval guard on real Chromium: a password field shown in any frame of the tab (main, same- or cross-origin frame,
// open shadow root, password autocomplete, show-password toggle, hidden but filled) refuses every script, naming the
// frame and the field but never its value; a frame that cannot be checked refuses too; other pages run eval as before.
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { ERROR_CODES } from '../../shared/protocol/errors.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { frameWith, onElement, pageEval } from '../support/page-probes.js';

const suite = useEngineSuite();
const PLANTED = 'Planted-Pw-7q2Xv';

const open = async (path: string) => (await suite.browser.open(suite.server.url(path))).page;

/** Types the planted password into the field, as the person or their password manager would (selectors pierce shadow roots). */
async function plant(page: PageContext, selector: string, framePiece?: string): Promise<void> {
  const frame = framePiece ? await frameWith(page, framePiece) : (await page.frames.list())[0]!;
  await onElement(page, frame, selector, `function () { this.value = ${JSON.stringify(PLANTED)}; }`);
}

/** Runs a script that would mark the top page, expects PASSWORD_FIELD, and checks the script never ran. */
async function refused(page: PageContext, frame?: number): Promise<string> {
  const error = await failure(evaluate(page, { expression: 'window.ran = true', frame }, ctx));
  expect(error.code).toBe('PASSWORD_FIELD');
  expect(error.next).toBe(ERROR_CODES.PASSWORD_FIELD);
  expect(`${error.message}\n${JSON.stringify(error.data ?? {})}`).not.toContain(PLANTED);
  expect(await pageEval(page, 'typeof window.ran')).toBe('undefined');
  return error.message;
}

describe('eval guard', () => {
  it('refuses on a page showing a password field, naming frame and field', async () => {
    const page = await open('guard-login.html');
    await plant(page, '#pass');
    expect(await refused(page)).toMatch(
      /^eval refused: frame f0 http:\/\/127\.0\.0\.1:\d+\/guard-login\.html shows a password field \(label "Password"\)\.$/,
    );
  });

  it('refuses wherever the script would run when the login form is in a same-origin frame', async () => {
    const page = await open('guard-host.html');
    await plant(page, '#pass', 'guard-login');
    const frames = await page.frames.list();
    expect(frames[1]!.sessionId).toBeUndefined();
    const message = await refused(page);
    expect(message).toMatch(
      /frame f1 http:\/\/127\.0\.0\.1:\d+\/guard-login\.html shows a password field \(label "Password"\)/,
    );
    expect(await refused(page, 0)).toBe(message);
  });

  it('refuses when the login form is in a cross-origin frame', async () => {
    const page = await open('guard-host.html?cross');
    await plant(page, '#pass', 'guard-login');
    const frames = await page.frames.list();
    expect(frames[1]!.sessionId).toBeDefined();
    expect(await refused(page)).toMatch(
      /frame f1 http:\/\/localhost:\d+\/guard-login\.html shows a password field \(label "Password"\)/,
    );
  });

  it('finds a password field inside nested open shadow roots', async () => {
    const page = await open('guard-shadow.html');
    await plant(page, 'input');
    expect(await refused(page)).toContain('shows a password field (aria-label "Account password" in a shadow root)');
  });

  it('counts a text field that declares a password autocomplete', async () => {
    const page = await open('guard-autocomplete.html');
    await plant(page, 'input');
    expect(await refused(page)).toContain('shows a password field (name "secret")');
  });

  it('counts a field a show-password toggle switched to type=text, by its label', async () => {
    const page = await open('guard-toggle.html');
    await plant(page, '#f1');
    await pageEval(page, 'document.getElementById("show").click()');
    expect(await pageEval(page, 'document.getElementById("f1").type')).toBe('text');
    expect(await refused(page)).toContain('shows a password field (label "Password")');
  });

  it('ignores an empty password field that is not shown, but not a hidden one holding a value', async () => {
    const page = await open('guard-hidden.html');
    expect((await evaluate(page, { expression: 'document.title' }, ctx)).text).toBe('"Guard hidden"');
    // A two-step login hides the filled field while it asks for the code: the secret is still there for a script.
    await plant(page, '#menu-pass');
    expect(await refused(page)).toContain('shows a password field (label "Password")');
  });

  it('runs eval as before on pages with no password field, frames included', async () => {
    expect((await evaluate(await open('mcp-hello.html'), { expression: 'document.title' }, ctx)).text).toBe(
      '"Hello from the fixture"',
    );
    expect((await evaluate(await open('exec-frames.html'), { expression: 'childVar', frame: 2 }, ctx)).text).toBe(
      '"child main world ?cross"',
    );
  });

  it('refuses when a frame cannot be checked, and says so', async () => {
    const page = await open('exec-frames.html');
    const cross = (await page.frames.list()).find((frame) => frame.sessionId !== undefined)!;
    // A script that never yields keeps that frame from answering the check.
    const busy = page.cdp
      .send('Runtime.evaluate', { expression: 'while (true) {}' }, cross.sessionId)
      .catch(() => undefined);
    try {
      expect(await refused(page)).toMatch(
        /^eval refused: frame f2 http:\/\/localhost:\d+\/exec-child\.html could not be checked for a password field \(did not answer within \d s.*\); scripts run only when every frame is known to show none\.$/,
      );
    } finally {
      await page.cdp.send('Runtime.terminateExecution', {}, cross.sessionId);
      await busy;
    }
    expect((await evaluate(page, { expression: 'pageVar' }, ctx)).text).toBe('42');
  });
});
