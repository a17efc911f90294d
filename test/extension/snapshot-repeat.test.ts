// A repeated snapshot through the real extension: answered on the engine's trust (snapshot-trust.ts, Chrome's style and
// layout counts read through chrome.debugger) while the page is unchanged, and showing each change the page makes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { probePage, type PageProbe } from './support/page-probe.js';

// Wraps chrome.debugger.sendCommand in the worker (the extension looks it up on every send) to keep, per snapshot
// call into the page, whether the page answered on trust; installed again if the worker was restarted.
const RECORD = `(() => {
  if (!globalThis.__trustSeen) {
    const seen = (globalThis.__trustSeen = []);
    const original = chrome.debugger.sendCommand.bind(chrome.debugger);
    chrome.debugger.sendCommand = async (target, method, params) => {
      const reply = await original(target, method, params);
      const value = method === 'Runtime.callFunctionOn' ? reply?.result?.value : undefined;
      if (value && typeof value === 'object' && 'trusted' in value && 'walk' in value) seen.push(value.trusted === true);
      return reply;
    };
  }
  globalThis.__trustSeen.splice(0);
  return true;
})()`;

let linked: LinkedExtension;
let probe: PageProbe;
let tab: string;

beforeAll(async () => {
  linked = await startLinkedExtension();
  const url = linked.fixtures.url('snapshot-reuse.html');
  const opened = await linked.run('tab_new', { url });
  tab = String(opened.data?.['tab']);
  probe = await probePage(linked.browser, url);
}, 60_000);

afterAll(async () => {
  await probe?.close();
  await linked?.close();
});

const look = async () => (await linked.run('snapshot', { tab })).text;

/** Snapshots until one is answered on trust; returns its text (the first repeats may be checked whole). */
async function lookUntilTrusted(): Promise<string> {
  for (let tries = 0; tries < 10; tries++) {
    await linked.browser.evaluate(RECORD);
    const text = await look();
    const seen = await linked.browser.evaluate<boolean[]>('globalThis.__trustSeen');
    if (seen.length > 0 && seen.every(Boolean)) return text;
  }
  throw new Error('no repeated snapshot was given on trust in 10 tries');
}

describe('a repeated snapshot through the extension', () => {
  it('is answered on trust while unchanged and shows each change the page made since', async () => {
    const first = await look();
    expect(first).toContain('[value hidden]');
    expect(first).not.toContain('Hint while typing');
    expect(first).toContain('Kept item');
    expect(await lookUntilTrusted()).toBe(first);

    const changes: [string, string, (text: string) => void][] = [
      [
        'text',
        `document.getElementById('note').textContent = 'Second note'`,
        (t) => expect(t).toContain('Second note'),
      ],
      ['hidden', `document.getElementById('extra').hidden = true`, (t) => expect(t).not.toContain('Extra action')],
      ['removal', `document.getElementById('gone').remove()`, (t) => expect(t).not.toContain('Gone link')],
      [
        'value set by script',
        `document.getElementById('email').value = 'ada@example.com'`,
        (t) => expect(t).toMatch(/textbox "Email".*: ada@example\.com/),
      ],
      [
        'check set by script',
        `document.getElementById('agree').checked = true`,
        (t) => expect(t).toMatch(/checkbox "Agree" \[checked\]/),
      ],
      [
        'rule inserted through the CSSOM (no DOM mutation)',
        `document.styleSheets[0].insertRule('#keep { display: none; }')`,
        (t) => expect(t).not.toContain('Kept item'),
      ],
      ['focus', `document.getElementById('email').focus()`, (t) => expect(t).toContain('Hint while typing')],
    ];
    let shown = first;
    for (const [what, change, check] of changes) {
      // The page's own script, through the test's CDP session: no eval of the agent's, so nothing else moved.
      await probe.evaluate(`void (${change})`);
      const text = await look();
      expect(text, what).not.toBe(shown);
      check(text);
      expect(await lookUntilTrusted(), what).toBe(text);
      expect(text).not.toContain('pw-reuse-secret');
      shown = text;
    }
  }, 120_000);
});
