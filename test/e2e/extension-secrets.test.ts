// 118 realistic fake secrets planted everywhere a page keeps them (DOM text, form fields, data attributes, console
// lines, response headers, cookies, URLs, local and session storage), read through every reading tool of the built
// `chrome-mcp` driving the real extension on a trusted site: no secret part reaches a tool result, the server's log or
// the audit log.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_FILE } from '../../electron/core/control/audit-log.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startLinkedCore, type LinkedCore } from '../support/linked-core.js';
import { buildSecretPage } from '../support/secret-page.js';
import { dataOf, textOf } from '../support/tool-result.js';
import { testServerFlags } from '../support/test-policy.js';

const SECRETS = buildSecretPage();
/** Room for a whole page: a default-sized read would leave most of it unread, and so unproved. */
const WHOLE = 2_000_000;

let fixtures: FixtureServer;
let core: LinkedCore;
let pageUrl: string;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  fixtures.serve('/generated/secrets', SECRETS.page);
  fixtures.serve('/generated/secret-form', SECRETS.form);
  pageUrl = `${fixtures.url('generated/secrets')}?${SECRETS.query}`;
  core = await startLinkedCore(testServerFlags('trusted', ['127.0.0.1']));
});

afterAll(async () => {
  await core?.close();
  await fixtures?.close();
});

type Read = [tool: string, args: Record<string, unknown>];

/** Runs the reads in order (each must succeed unless `failing`) and returns everything the model saw of them. */
async function readAll(reads: Read[], failing: string[] = []): Promise<string> {
  const seen: string[] = [];
  for (const [name, args] of reads) {
    const result = await core.client.callTool({ name, arguments: args });
    if (!failing.includes(name)) expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    seen.push(`${name} →\n${textOf(result)}\n${JSON.stringify(dataOf(result) ?? {})}`);
  }
  return seen.join('\n\n');
}

/**
 * The forms a leaked value could take (raw, percent-encoded as in a URL), cut into 16-character pieces so that a value
 * masked only in part is caught too.
 */
function traces(secret: string): string[] {
  const forms = [
    ...new Set([secret, encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2)]),
  ];
  return forms.flatMap((form) => {
    if (form.length <= 24) return [form];
    const pieces: string[] = [];
    for (let at = 0; at + 16 <= form.length; at += 16) pieces.push(form.slice(at, at + 16));
    return pieces;
  });
}

/** Each planted secret found in `text`, with what surrounds it. */
function leaks(text: string): string[] {
  return SECRETS.planted.flatMap((secret) => {
    const trace = traces(secret).find((piece) => text.includes(piece));
    if (trace === undefined) return [];
    const at = text.indexOf(trace);
    return [
      `${secret.slice(0, 8)}… in …${text.slice(Math.max(0, at - 80), at + trace.length + 10).replace(/\n/g, '⏎')}…`,
    ];
  });
}

/** Which of `expected` the model did not see: each proves a read reached a planted place. */
const unseen = (seen: string, expected: string[]) => expected.filter((text) => !seen.includes(text));

/** Reads a big piece of the page by eval in parts: a result is cut at 20,000 characters. */
const outerHtmlOf = (selector: string): Read => [
  'eval',
  { expression: `document.querySelector(${JSON.stringify(selector)}).outerHTML` },
];

describe('118 planted secrets, read through every reading tool of the real extension', () => {
  it("the page's own URL: tab_new, navigate, tabs, frames, status and an error naming the page", async () => {
    const seen = await readAll(
      [
        ['tab_new', { url: pageUrl }],
        ['navigate', { url: pageUrl }],
        ['tabs', {}],
        ['frames', {}],
        ['status', {}],
        ['click', { selector: '#no-such-element' }],
      ],
      ['click'],
    );
    expect(
      unseen(seen, ['/generated/secrets?sessionid=[redacted 32 chars]&session_id=', 'Developer settings']),
    ).toEqual([]);
    expect(leaks(seen)).toEqual([]);
  });

  it('DOM text, form fields, data attributes and links: snapshot, find, get_text and get_html', async () => {
    await readAll([['navigate', { url: pageUrl }]]);
    const seen = await readAll([
      ['snapshot', { limit: WHOLE }],
      ['find', { text: 'Credential', limit: 500 }],
      ['find', { role: 'textbox', limit: 500 }],
      ['find', { role: 'link', limit: 500 }],
      ['find', { selector: '[data-config]', limit: 500 }],
      ['get_text', { maxChars: WHOLE }],
      ['get_text', { selector: 'input', nth: 6 }],
      ['get_text', { selector: 'textarea', nth: 3 }],
      ['get_html', { maxChars: WHOLE }],
      ['get_html', { selector: '#fields', maxChars: WHOLE }],
      ['get_html', { selector: '#links', maxChars: WHOLE }],
    ]);
    expect(
      unseen(seen, [
        'Plan: Team, 12 seats',
        '- textbox "Credential 6" [ref=',
        'ghp_[redacted 36 chars]',
        'postgres://app_user:[redacted 18 chars]@db.internal',
        '-----BEGIN OPENSSH PRIVATE KEY-----',
        'data-config=',
        'mcp-hello.html?lang=en&amp;value=xoxp-',
      ]),
    ).toEqual([]);
    expect(leaks(seen)).toEqual([]);
  });

  it('storage, cookies, console lines, response headers and the embedded state: what eval reads', async () => {
    await readAll([['navigate', { url: pageUrl }]]);
    const seen = await readAll([
      ['eval', { expression: 'document.cookie' }],
      ['eval', { expression: 'JSON.stringify(localStorage)' }],
      ['eval', { expression: '({ ...localStorage })' }],
      ['eval', { expression: 'JSON.stringify(sessionStorage)' }],
      ['eval', { expression: 'window.appLog.join("\\n")' }],
      ['eval', { expression: 'window.appLog' }],
      ['eval', { expression: 'fetch(location.href).then((response) => Object.fromEntries(response.headers))' }],
      [
        'eval',
        {
          expression:
            'fetch(location.href).then((response) => [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\\n"))',
        },
      ],
      [
        'eval',
        {
          expression:
            'Object.fromEntries([...document.querySelectorAll("input, textarea")].map((field) => [field.labels[0]?.textContent.trim(), field.value]))',
        },
      ],
      [
        'eval',
        {
          expression:
            '[...document.querySelectorAll("[data-credential], [data-config], [data-dsn]")].map((element) => ({ ...element.dataset }))',
        },
      ],
      ['eval', { expression: '[...document.links].map((link) => link.href)' }],
      ['eval', { expression: 'location.href' }],
      ['eval', { expression: 'location.search' }],
      ['eval', { expression: 'JSON.parse(document.getElementById("state").textContent).local' }],
      ['eval', { expression: 'JSON.parse(document.getElementById("state").textContent).session' }],
      ['eval', { expression: 'JSON.parse(document.getElementById("state").textContent).log' }],
      outerHtmlOf('#text'),
      outerHtmlOf('#fields'),
      outerHtmlOf('#attributes'),
      outerHtmlOf('#links'),
    ]);
    expect(seen.includes('truncated'), 'a read was cut short').toBe(false);
    expect(
      unseen(seen, [
        'csrftoken=[redacted',
        '"credential_0":',
        '"webhookSecret":',
        'x-credential-0',
        'x-database-url-7',
        'upstream Slack bot token loaded: xoxb-',
        'BEGIN RSA PRIVATE KEY',
        'mcp-hello.html?lang=en&value=xoxp-',
        '&quot;',
      ]),
    ).toEqual([]);
    expect(leaks(seen)).toEqual([]);
  });

  it('console lines: what the console tool reads of the same log', async () => {
    await readAll([['navigate', { url: pageUrl }]]);
    const seen = await readAll([
      ['console', { level: 'debug', limit: 500 }],
      ['console', { level: 'error', limit: 500 }],
    ]);
    expect(unseen(seen, ['upstream Slack bot token loaded: xoxb-', 'console: '])).toEqual([]);
    expect(leaks(seen)).toEqual([]);
  });

  it("requests: the page's own request, its response headers and body, as network and network_get read them", async () => {
    await readAll([['navigate', { url: pageUrl }]]);
    const listed = await readAll([['network', { limit: 500 }]]);
    // The last load of it: earlier tests loaded it too, and a document's body goes when the next one replaces it.
    const id = Number([...listed.matchAll(/#(\d+) GET 200 document .*generated\/secrets/g)].at(-1)?.[1]);
    expect(id, listed).toBeGreaterThan(0);
    const seen = `${listed}\n${await readAll([['network_get', { id, body: true, maxChars: WHOLE }]])}`;
    expect(unseen(seen, ['x-credential-0', 'x-database-url-7', 'body:\n<!doctype html>'])).toEqual([]);
    expect(leaks(seen)).toEqual([]);
  });

  it("an environment editor whose fields are labelled with the secrets' names: snapshot, find, get_text of a field", async () => {
    const seen = await readAll([
      ['navigate', { url: fixtures.url('generated/secret-form') }],
      ['snapshot', { limit: WHOLE }],
      ['find', { role: 'textbox', limit: 500 }],
      ['get_text', { maxChars: WHOLE }],
      ['get_text', { selector: '#named-0' }],
      ['get_text', { selector: '#named-17' }],
      ['get_html', { maxChars: WHOLE }],
    ]);
    expect(unseen(seen, ['textbox "sessionid"', 'name="GITHUB_TOKEN"'])).toEqual([]);
    expect(leaks(seen)).toEqual([]);
  });

  it("reaches neither the server's stderr nor the audit log", async () => {
    expect(core.stderr()).toContain('[chrome-mcp] ready');
    expect(leaks(core.stderr())).toEqual([]);
    // audit.read waits for the log's pending writes; the file is then read as it lies on disk.
    const { entries } = await core.control.call('audit.read', { tool: 'eval' });
    expect(entries.length).toBeGreaterThan(10);
    const audit = readFileSync(join(core.dataDir, AUDIT_FILE), 'utf8');
    expect(audit).toContain('/generated/secrets?sessionid=');
    expect(leaks(audit)).toEqual([]);
  });
});
