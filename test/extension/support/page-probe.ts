// The test's own CDP session on a page of the extension's browser, beside the extension's debugger: it reads the page's
// markers and makes the page's own sends with no eval, so no egress hold is open while it looks.
import type { ExtensionBrowser } from '../../support/extension-browser.js';
import { personClickAt } from '../../support/person.js';

export interface PageProbe {
  /** The probe's own session on the tab, on the browser's `control` connection. */
  sessionId: string;
  /** Evaluates `expression` (awaited) in the page's main world, as the page's own code, with no gesture unless asked. */
  evaluate<T>(expression: string, opts?: { userGesture?: boolean }): Promise<T>;
  /** A left click at (x, y) through the browser's input, as the person's mouse makes one. */
  click(x: number, y: number): Promise<void>;
  /** Loads `url` in the tab as the person typing it in the address bar does: the browser starts it, no page. */
  navigate(url: string): Promise<void>;
  /** A PNG capture of the tab (base64) through the test's own session: none of the extension's masking. */
  capture(): Promise<string>;
  /** Polls `marker` (a global the page sets) until it is true; throws after 20 s. */
  until(marker: string): Promise<void>;
  close(): Promise<void>;
}

/** A probe on the page tab showing `url` exactly. */
export async function probePage(browser: ExtensionBrowser, url: string): Promise<PageProbe> {
  const { control } = browser;
  const { targetInfos } = await control.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>(
    'Target.getTargets',
  );
  const target = targetInfos.find((info) => info.type === 'page' && info.url === url);
  if (!target) throw new Error(`no page at ${url}`);
  const { sessionId } = await control.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: true,
  });
  const evaluate = async <T>(expression: string, opts: { userGesture?: boolean } = {}): Promise<T> => {
    const reply = await control.send<{ result: { value: T }; exceptionDetails?: { text: string } }>(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true, userGesture: opts.userGesture === true },
      sessionId,
    );
    if (reply.exceptionDetails) throw new Error(`page probe failed: ${reply.exceptionDetails.text}`);
    return reply.result.value;
  };
  return {
    sessionId,
    evaluate,
    click: (x, y) => personClickAt((method, params) => control.send(method, params, sessionId), x, y),
    capture: async () =>
      (await control.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, sessionId)).data,
    navigate: (url) => control.send('Page.navigate', { url, transitionType: 'typed' }, sessionId).then(() => undefined),
    async until(marker) {
      const deadline = Date.now() + 20_000;
      while (!(await evaluate<boolean>(`window[${JSON.stringify(marker)}] === true`))) {
        if (Date.now() > deadline) throw new Error(`the page never set ${marker}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => control.send('Target.detachFromTarget', { sessionId }).then(() => undefined),
  };
}
