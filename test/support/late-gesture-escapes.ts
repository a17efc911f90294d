// The cases both backends run where a timer the agent's script left clicks an element whose listener is the page's own
// (a plain function, a bound one, an object with handleEvent, a native one) and the page sends a moment later, through
// a MessageChannel V8 keeps no async stack across: the send is the script's, held and named (gesture-listeners.ts), a
// label's forwarded (trusted) click too. The page's own timer clicking such an element still sends, and the page sees
// no listener of ours.
import { expect } from 'vitest';
import { DISPATCH_MS } from '../../shared/engine/gesture-listeners.js';
import { lateOutcome, type LateTab } from './late-tab.js';

/** The script's timer fires after its eval returned and the hold's drain is over. */
const TIMER_MS = 1_000;

type ListenerKind = 'plain' | 'bound' | 'handleEvent' | 'native';

/**
 * Page code making a listener of `kind` that has the page run `send` in a later task (a MessageChannel's message), which
 * then sets `marker`. The native one is the channel's own postMessage, bound: no code of the page's runs in the dispatch.
 */
function deferringListener(kind: ListenerKind, send: string, marker: string): string {
  const channel = `const channel = new MessageChannel();
    channel.port1.onmessage = () => { ${send}; window.${marker} = true; };
    const later = (event) => { event.preventDefault(); channel.port2.postMessage(0); };`;
  const listener = {
    plain: 'later',
    bound: 'later.bind({})',
    handleEvent: '{ handleEvent: later }',
    native: 'channel.port2.postMessage.bind(channel.port2, 0)',
  }[kind];
  return `(() => { ${channel} return ${listener}; })()`;
}

/** The page's own element `#id` (a link, kept on the page) with a click listener of `kind` running `send` later. */
async function pageLink(tab: LateTab, id: string, kind: ListenerKind, send: string, marker: string): Promise<void> {
  await tab.asPage(`(() => {
    const a = Object.assign(document.createElement('a'), { id: '${id}', href: '#${id}', textContent: '${id}' });
    document.body.append(a);
    a.addEventListener('click', ${deferringListener(kind, send, marker)});
    return 0;
  })()`);
}

/** A fetch of `path` on the watched site. */
const fetches = (tab: LateTab, path: string) => `fetch('${tab.watched.origin}${path}', { mode: 'no-cors' })`;

/** The script's timer clicks the link `id` (natively for a native listener: no code of the script's in the dispatch). */
function timerClick(id: string, kind: ListenerKind, ms = TIMER_MS): string {
  const link = `document.getElementById('${id}')`;
  const click = kind === 'native' ? `HTMLElement.prototype.click.bind(${link})` : `() => ${link}.click()`;
  return `setTimeout(${click}, ${ms}); 0`;
}

/** The script's timer clicks the page's link whose listener of `kind` fetches later: held, named; the page's goes on. */
async function deferredFetch(tab: LateTab, kind: ListenerKind): Promise<void> {
  const id = `escape-${kind}`;
  const marker = `sent_${kind}`;
  await pageLink(tab, id, kind, fetches(tab, `/${id}`), marker);
  await tab.run(timerClick(id, kind));
  expect(await lateOutcome(tab, marker, DISPATCH_MS + 500)).toEqual({
    reached: [],
    heldLater: [`GET W/${id} (Fetch)`],
  });
}

export const lateGestureEscapes = {
  plain: (tab: LateTab) => deferredFetch(tab, 'plain'),
  bound: (tab: LateTab) => deferredFetch(tab, 'bound'),
  handleEvent: (tab: LateTab) => deferredFetch(tab, 'handleEvent'),
  native: (tab: LateTab) => deferredFetch(tab, 'native'),

  /**
   * The script's timer clicks a label of the page's: the browser forwards a trusted click to its checkbox, whose listener
   * (the page's) fetches later. Trusted, and still the script's dispatch: held, and named.
   */
  async label(tab: LateTab): Promise<void> {
    await tab.asPage(`(() => {
      const box = Object.assign(document.createElement('input'), { type: 'checkbox', id: 'forwarded' });
      const label = Object.assign(document.createElement('label'), { htmlFor: 'forwarded', id: 'forwarding' });
      label.textContent = 'forwarding';
      document.body.append(box, label);
      box.addEventListener('click', ${deferringListener('plain', fetches(tab, '/forwarded'), 'sent_label')});
      return 0;
    })()`);
    await tab.run(`setTimeout(() => document.getElementById('forwarding').click(), ${TIMER_MS}); 0`);
    expect(await lateOutcome(tab, 'sent_label', DISPATCH_MS + 500)).toEqual({
      reached: [],
      heldLater: ['GET W/forwarded (Fetch)'],
    });
  },

  /** After the script ran, the page's own timer clicking such a link sends as it always did. */
  async pageOwnClick(tab: LateTab): Promise<void> {
    await pageLink(tab, 'own-link', 'bound', fetches(tab, '/own-link'), 'ownSent');
    await tab.run('1');
    await tab.asPage(`setTimeout(() => document.getElementById('own-link').click(), 100); 0`);
    await tab.until('ownSent');
    await expect.poll(() => tab.watched.requests, { timeout: 10_000 }).toContain('/own-link');
  },

  /** The page, watching every listener added, sees none of ours as the first eval arms the tab (an isolated world's). */
  async unseen(tab: LateTab): Promise<void> {
    await tab.asPage(`window.added = []; (() => {
      const add = EventTarget.prototype.addEventListener;
      EventTarget.prototype.addEventListener = function (type, listener, options) {
        added.push(type); return add.call(this, type, listener, options);
      };
    })(); 0`);
    await tab.run('1');
    expect(await tab.asPage('window.added')).toEqual([]);
  },
};
