// get_text and get_html on real Chromium: page text across frames and shadow DOM, field values, caps, and masked passwords.
import { describe, expect, it } from 'vitest';
import { getHtml, getText } from '../../shared/engine/ops/read.js';
import { snapshot } from '../../shared/engine/ops/snapshot.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';

const suite = useEngineSuite();

describe('get_text', () => {
  it('reads the page\'s visible text, skipping hidden parts', async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    const { text } = await getText(page, {}, ctx);
    // The fixture's labels and fields are all inline: on screen they share one line, and so do they here.
    expect(text.split('\n').slice(0, 4)).toEqual(['Home', 'Create your account', 'All fields marked * are required.', 'Full name * Email * Password * Country Interests']);
    expect(text).toContain('Why we ask');
    for (const hidden of ['Hidden hint', 'ghost', 'Collapsed explanation', 'hunter2-secret', 'csrf', 'Child frame text']) expect(text).not.toContain(hidden);
  });

  it('includes every readable frame after the main one, each under a header', async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const { text } = await getText(page, {}, ctx);
    expect(text.split('\n')).toEqual([
      expect.stringMatching(/^\[frame 0 http:\/\/127\.0\.0\.1:\d+\/frames\.html\]$/),
      'Frames page',
      'Top button',
      '',
      expect.stringMatching(/^\[frame 1 http:\/\/127\.0\.0\.1:\d+\/frame-child\.html\]$/),
      'Child frame text',
      'Child button',
      '',
      expect.stringMatching(/^\[frame 2 http:\/\/localhost:\d+\/frame-child\.html\]$/),
      'Child frame text',
      'Child button',
    ]);
    expect((await getText(page, { frame: 2 }, ctx)).text).toMatch(/^\[frame 2 http:\/\/localhost:\d+\/frame-child\.html\]\nChild frame text\nChild button$/);
  });

  it('reads text inside open shadow roots and slots, which innerText misses', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow.html'));
    const { text } = await getText(page, {}, ctx);
    expect(text).toContain('Shadow page\nProfile of Grace Hopper\nFollow Nickname\n');
    expect(text).toContain('[frame 1 about:srcdoc]\nInside a sandboxed frame\nSandboxed link');
  });

  it('reads one element: a field\'s value, a select\'s choice and options, a checkbox, never a password', async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    expect((await getText(page, { selector: '#name' }, ctx)).text).toBe('Ada Lovelace');
    expect((await getText(page, { selector: '#country' }, ctx)).text).toBe('Selected: Mexico\nOptions (3): Canada | Mexico | United States');
    expect((await getText(page, { selector: '#interests' }, ctx)).text).toBe('Selected: Music, Travel\nOptions (3): Music | Sports | Travel');
    expect((await getText(page, { role: 'checkbox', name: 'newsletter' }, ctx)).text).toBe('checked');
    expect((await getText(page, { selector: '#password' }, ctx)).text).toBe('[value hidden]');
    const ref = /textbox "About you" \[ref=(e\d+)\]/.exec((await snapshot(page, {}, ctx)).text)![1]!;
    expect((await getText(page, { ref }, ctx)).text).toBe('Mathematician.\nLikes engines.');
  });

  it('caps long text at maxChars with a note of how much more there is', async () => {
    const { page } = await suite.browser.open(suite.server.url('table.html'));
    const full = await getText(page, { maxChars: 1_000_000 }, ctx);
    expect(full.text).toContain('Row 500\tuser500@example.com\tViewer\t$625.00\tDelete');
    const cut = await getText(page, { maxChars: 100 }, ctx);
    const [head, note] = cut.text.split('\n…truncated, ');
    expect(head).toBe(full.text.slice(0, 100));
    expect(note).toBe(`${(full.text.length - 100).toLocaleString('en-US')} more chars (raise maxChars, or read one part with a ref or selector).`);
    expect((await getText(page, {}, ctx)).data).toMatchObject({ chars: 8000, truncated: true });
  });
});

describe('get_html', () => {
  it('masks password values in the page\'s HTML and in an element\'s', async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    const whole = await getHtml(page, {}, ctx);
    expect(whole.text.startsWith('<html><head><title>Sign up</title>')).toBe(true);
    expect(whole.text).toContain('<input id="password" type="password" name="password" required="" value="[hidden]">');
    expect(whole.text).not.toContain('hunter2-secret');
    const field = await getHtml(page, { selector: '#password' }, ctx);
    expect(field.text).toBe('<input id="password" type="password" name="password" required="" value="[hidden]">');
    expect((await getHtml(page, { selector: '#name' }, ctx)).text).toBe('<input id="name" name="name" required="" value="Ada Lovelace">');
  });

  it('serialises open shadow roots as declarative templates, and caps at maxChars', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow.html'));
    const card = await getHtml(page, { selector: '#card' }, ctx);
    expect(card.text).toMatch(/^<user-card id="card"><template shadowrootmode="open"><section aria-label="Profile">/);
    expect(card.text).toContain('<inner-badge><template shadowrootmode="open"><label>Nickname <input id="nick" value="Amazing Grace"></label></template></inner-badge>');
    const cut = await getHtml(page, { maxChars: 50 }, ctx);
    expect(cut.text).toMatch(/^.{50}\n…truncated, [\d,]+ more chars/s);
  });
});
