// get_text and get_html on real Chromium: page text across frames and shadow DOM, field values, caps, and masked passwords.
import { describe, expect, it } from 'vitest';
import { getHtml, getText } from '../../shared/engine/ops/read.js';
import { snapshot } from '../../shared/engine/ops/snapshot.js';
import { BEGINNINGS, ENDINGS, EXACT, isSecretFieldLabel, isSecretName } from '../../shared/redact/names.js';
import { NAMED } from '../redact/samples.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { pageEval } from '../support/page-probes.js';
import { leavesCodeBodiesOut } from '../support/read-code-cases.js';

const suite = useEngineSuite();

describe('get_text', () => {
  it("reads the page's visible text, skipping hidden parts", async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    const { text } = await getText(page, {}, ctx);
    // The fixture's labels and fields are all inline: on screen they share one line, and so do they here.
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Home',
      'Create your account',
      'All fields marked * are required.',
      'Full name * Email * Password * Country Interests',
    ]);
    expect(text).toContain('Why we ask');
    for (const hidden of [
      'Hidden hint',
      'ghost',
      'Collapsed explanation',
      'hunter2-secret',
      'csrf',
      'Child frame text',
    ])
      expect(text).not.toContain(hidden);
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
    expect((await getText(page, { frame: 2 }, ctx)).text).toMatch(
      /^\[frame 2 http:\/\/localhost:\d+\/frame-child\.html\]\nChild frame text\nChild button$/,
    );
  });

  it('reads text inside open shadow roots and slots, which innerText misses', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow.html'));
    const { text } = await getText(page, {}, ctx);
    expect(text).toContain('Shadow page\nProfile of Grace Hopper\nFollow Nickname\n');
    expect(text).toContain('[frame 1 about:srcdoc]\nInside a sandboxed frame\nSandboxed link');
  });

  it("reads one element: a field's value, a select's choice and options, a checkbox, never a password", async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    expect((await getText(page, { selector: '#name' }, ctx)).text).toBe('Ada Lovelace');
    expect((await getText(page, { selector: '#country' }, ctx)).text).toBe(
      'Selected: Mexico\nOptions (3): Canada | Mexico | United States',
    );
    expect((await getText(page, { selector: '#interests' }, ctx)).text).toBe(
      'Selected: Music, Travel\nOptions (3): Music | Sports | Travel',
    );
    expect((await getText(page, { role: 'checkbox', name: 'newsletter' }, ctx)).text).toBe('checked');
    expect((await getText(page, { selector: '#password' }, ctx)).text).toBe('Password *: [redacted 14 chars]');
    const ref = /textbox "About you" \[ref=(e\d+)\]/.exec((await snapshot(page, {}, ctx)).text)![1]!;
    expect((await getText(page, { ref }, ctx)).text).toBe('Mathematician.\nLikes engines.');
  });

  it("reads a secret field as its name and the value's length: a password, one labelled, named or autocompleted as a secret", async () => {
    const fields = [
      '<label for="f0">sessionid</label> <input id="f0" name="sessionid" value="9f2a7c41d0e8b7a6">',
      '<label>Client secret <input id="f1" value="Zq8Lm2Xc9"></label>',
      '<input id="f2" name="GITHUB_TOKEN" value="abc123">',
      '<input id="csrftoken" value="tok-1">',
      '<input id="f4" placeholder="Access token" value="at-22">',
      '<input id="f5" aria-label="API key" value="k-333">',
      '<input id="f6" autocomplete="one-time-code" value="482913">',
      '<input id="f7" type="password" value="hunter2">',
      '<p class="nameless"><input type="password" value="hunter2"></p>',
      '<label>Private key <textarea id="f8">-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----</textarea></label>',
      '<input id="f9" name="session_token" value="">',
      '<label>Nickname <input id="f10" name="nick" value="Amazing Grace"></label>',
    ];
    suite.server.serve('/generated/secret-fields', { body: `<!doctype html><form>${fields.join('\n')}</form>` });
    const { page } = await suite.browser.open(suite.server.url('generated/secret-fields'));
    const read = async (selector: string) => (await getText(page, { selector }, ctx)).text;
    expect(await read('#f0')).toBe('sessionid: [redacted 16 chars]');
    expect(await read('#f1')).toBe('Client secret: [redacted 9 chars]');
    expect(await read('#f2')).toBe('GITHUB_TOKEN: [redacted 6 chars]');
    expect(await read('#csrftoken')).toBe('csrftoken: [redacted 5 chars]');
    expect(await read('#f4')).toBe('Access token: [redacted 5 chars]');
    expect(await read('#f5')).toBe('API key: [redacted 5 chars]');
    expect(await read('#f6')).toBe('one-time-code: [redacted 6 chars]');
    expect(await read('#f7')).toBe('f7: [redacted 7 chars]');
    expect(await read('.nameless input')).toBe('[redacted 7 chars]');
    expect(await read('#f8')).toBe('Private key: [redacted 68 chars]');
    expect(await read('#f9')).toBe('');
    expect(await read('#f10')).toBe('Amazing Grace');
  });

  it('judges a field secret exactly as the redactor judges its name or label (the page keeps its own copy of the rules)', async () => {
    const names = [
      ...EXACT,
      ...[...EXACT].map((name) => name.toUpperCase()),
      ...ENDINGS.flatMap((end) => [`my_${end}`, `app-${end.toUpperCase()}`, end]),
      ...BEGINNINGS.map((start) => `${start}_param`),
      ...NAMED.map(({ name }) => name),
      'SMTP_PASS',
      'STRIPE_KEY',
      'GCP_CREDENTIALS',
      'ADMIN_AUTH',
      'DB_PWD',
      'email',
      'name',
      'q',
      'search',
      'keyboard_layout',
      'tokenizer',
      'passenger',
      'sessions_count',
      'api_version',
      'KEY',
      'MONKEY',
    ];
    const labels = [
      ...NAMED.map(({ name }) => name),
      'API key',
      'Client secret',
      'Access token',
      'PIN',
      'One-time code',
      'Private key 0',
      'Passphrase',
      'Full name',
      'Email',
      'Current session',
      'Country',
      'Keyboard layout',
      'Tokenizer',
      'Credential 6',
      'Database URL 0',
    ];
    const value = 'v-Zq8Lm2Xc';
    const byName = names.map((name, i) => `<input data-n="n${i}" name="${name}" value="${value}">`);
    const byLabel = labels.map((label, i) => `<label>${label} <input data-n="l${i}" value="${value}"></label>`);
    suite.server.serve('/generated/field-names', {
      body: `<!doctype html><form>${[...byName, ...byLabel].join('\n')}</form>`,
    });
    const { page } = await suite.browser.open(suite.server.url('generated/field-names'));
    const read = async (n: string) => (await getText(page, { selector: `[data-n="${n}"]` }, ctx)).text;
    const masked = (name: string) => `${name}: [redacted ${value.length} chars]`;
    const seen = { names: [] as string[], labels: [] as string[] };
    const expected = { names: [] as string[], labels: [] as string[] };
    for (const [i, name] of names.entries()) {
      seen.names.push(await read(`n${i}`));
      expected.names.push(isSecretName(name) ? masked(name) : value);
    }
    for (const [i, label] of labels.entries()) {
      seen.labels.push(await read(`l${i}`));
      expected.labels.push(isSecretFieldLabel(label) ? masked(label) : value);
    }
    expect(seen).toEqual(expected);
    expect(expected.names.filter((text) => text === value)).toHaveLength(11);
  });

  it('caps long text at maxChars with a note of how much more there is', async () => {
    const { page } = await suite.browser.open(suite.server.url('table.html'));
    const full = await getText(page, { maxChars: 1_000_000 }, ctx);
    expect(full.text).toContain('Row 500\tuser500@example.com\tViewer\t$625.00\tDelete');
    const cut = await getText(page, { maxChars: 100 }, ctx);
    const [head, note] = cut.text.split('\n…truncated, ');
    expect(head).toBe(full.text.slice(0, 100));
    expect(note).toBe(
      `${(full.text.length - 100).toLocaleString('en-US')} more chars (raise maxChars, or read one part with a ref or selector).`,
    );
    expect((await getText(page, {}, ctx)).data).toMatchObject({ chars: 8000, truncated: true });
  });
});

describe('get_html', () => {
  it("masks password values in the page's HTML and in an element's", async () => {
    const { page } = await suite.browser.open(suite.server.url('form.html'));
    const whole = await getHtml(page, {}, ctx);
    expect(whole.text.startsWith('<html><head><title>Sign up</title>')).toBe(true);
    expect(whole.text).toContain('<input id="password" type="password" name="password" required="" value="[hidden]">');
    expect(whole.text).not.toContain('hunter2-secret');
    const field = await getHtml(page, { selector: '#password' }, ctx);
    expect(field.text).toBe('<input id="password" type="password" name="password" required="" value="[hidden]">');
    expect((await getHtml(page, { selector: '#name' }, ctx)).text).toBe(
      '<input id="name" name="name" required="" value="Ada Lovelace">',
    );
  });

  it('leaves script and style bodies out, shown by length, and says so', async () => {
    const { page } = await suite.browser.open(suite.server.url('read-code.html'));
    await leavesCodeBodiesOut({
      getHtml: (args) => getHtml(page, args, ctx),
      asPage: (expression) => pageEval(page, expression),
    });
  });

  it('serialises open shadow roots as declarative templates, and caps at maxChars', async () => {
    const { page } = await suite.browser.open(suite.server.url('shadow.html'));
    const card = await getHtml(page, { selector: '#card' }, ctx);
    expect(card.text).toMatch(/^<user-card id="card"><template shadowrootmode="open"><section aria-label="Profile">/);
    expect(card.text).toContain(
      '<inner-badge><template shadowrootmode="open"><label>Nickname <input id="nick" value="Amazing Grace"></label></template></inner-badge>',
    );
    const cut = await getHtml(page, { maxChars: 50 }, ctx);
    expect(cut.text).toMatch(/^.{50}\n…truncated, [\d,]+ more chars/s);
  });
});
