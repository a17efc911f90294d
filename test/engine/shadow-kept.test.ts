// The shadow-host list element lookups keep in the page (page/kept-hosts.ts) follows the page on real Chromium: a host
// added later, removed, nested in a root, under a closed root, upgraded from a custom element, in a frame. Each case
// asserts a count of matches, so a list cached once (which sees fewer or more roots) fails it.
import { describe, expect, it } from 'vitest';
import type { PageContext } from '../../shared/engine/page-context.js';
import type { Target } from '../../shared/protocol/target.js';
import { callOnElement, resolveTarget } from '../../shared/engine/targets.js';
import { failure, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();

/** Each lookup as its own tool call, as the executor brackets them. */
async function lookup(page: PageContext, target: Target): Promise<string> {
  const end = page.frames.beginCall();
  try {
    const handle = await resolveTarget(page, target);
    return (await callOnElement(page, handle, 'elementHtml', [200])).text;
  } finally {
    end();
  }
}

async function ambiguity(page: PageContext, target: Target): Promise<string> {
  const error = await failure(lookup(page, target));
  expect(error.code).toBe('AMBIGUOUS');
  return error.message;
}

/** Runs script in the page's own world, as the page's scripts would. */
async function inPage(page: PageContext, expression: string): Promise<void> {
  const reply = await page.cdp.send<{ exceptionDetails?: unknown }>('Runtime.evaluate', { expression });
  expect(reply.exceptionDetails).toBeUndefined();
}

describe('the kept shadow-host list', () => {
  it('lists a host inserted after the first lookup, and one nested in a root it already knew', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow-kept.html'));
    expect(await lookup(page, { selector: '.dup' })).toContain('id="light"');
    await inPage(
      page,
      `const late = document.createElement('section');
       late.attachShadow({ mode: 'open' }).innerHTML = '<button class="dup" id="late">Late</button>';
       document.body.append(late);`,
    );
    expect(await ambiguity(page, { selector: '.dup' })).toContain('2 elements match');
    // Inside a root: no mutation of the document tells of it.
    await inPage(
      page,
      `const nest = document.createElement('span');
       nest.attachShadow({ mode: 'open' }).innerHTML = '<button class="dup" id="nested">Nested</button>';
       document.getElementById('outer').shadowRoot.append(nest);`,
    );
    expect(await ambiguity(page, { selector: '.dup' })).toContain('3 elements match');
    expect(await lookup(page, { role: 'button', name: '"Nested"' })).toContain('id="nested"');
  });

  it('drops a host removed from the page, and takes it back when it returns', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow-kept.html'));
    expect(await lookup(page, { selector: '.gone' })).toContain('Gone');
    await inPage(page, `globalThis.gone = document.getElementById('gone'); gone.remove();`);
    await inPage(page, `document.getElementById('light').className = 'gone';`);
    // The removed host's button would make this ambiguous.
    expect(await lookup(page, { selector: '.gone' })).toContain('id="light"');
    await inPage(page, `document.body.append(gone);`);
    expect(await ambiguity(page, { selector: '.gone' })).toContain('2 elements match');
  });

  it('sees through a closed root only what lies outside it', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow-kept.html'));
    expect(await lookup(page, { selector: '.dup' })).toContain('id="light"');
    // A closed host whose light children hold an open host: the open one counts, the closed root's button never does.
    await inPage(
      page,
      `const closed = document.createElement('div');
       closed.attachShadow({ mode: 'closed' }).innerHTML = '<button class="dup">Closed</button><slot></slot>';
       const open = document.createElement('span');
       open.attachShadow({ mode: 'open' }).innerHTML = '<button class="dup" id="slotted">Slotted</button>';
       closed.append(open);
       document.body.append(closed);`,
    );
    expect(await ambiguity(page, { selector: '.dup' })).toContain('2 elements match');
    expect(await lookup(page, { selector: '.dup', nth: 1 })).toContain('id="slotted"');
  });

  it('sees the root a custom element gets when its definition comes later', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow-kept.html'));
    await inPage(page, `document.body.append(document.createElement('late-widget'));`);
    expect(await lookup(page, { selector: '.dup' })).toContain('id="light"');
    // The upgrade attaches the root with no mutation.
    await inPage(
      page,
      `customElements.define('late-widget', class extends HTMLElement {
         constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<button class="dup">Widget</button>'; }
       });`,
    );
    expect(await ambiguity(page, { selector: '.dup' })).toContain('2 elements match');
  });

  it('keeps a list per frame', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow-kept-frame.html'));
    const inFrame = { selector: '.dup', frame: 1 };
    expect(await lookup(page, inFrame)).toContain('id="light"');
    await inPage(
      page,
      `const child = document.getElementById('child').contentDocument;
       const late = child.createElement('section');
       late.attachShadow({ mode: 'open' }).innerHTML = '<button class="dup" id="late">Late</button>';
       child.body.append(late);`,
    );
    expect(await ambiguity(page, inFrame)).toContain('2 elements match');
    // The top frame's list is its own: its one .dup plus the frame's two.
    expect(await ambiguity(page, { selector: '.dup' })).toContain('3 elements match');
  });
});
