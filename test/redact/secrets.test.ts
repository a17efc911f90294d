// 118 fake secrets, each planted in the contexts a page or a log shows them in: the value never comes out, its name and length do.
import { describe, expect, it } from 'vitest';
import { redactText } from '../../shared/redact/text.js';
import { redactValue } from '../../shared/redact/value.js';
import { DATABASE_URLS, NAMED, PRIVATE_KEYS, SHAPED } from './samples.js';

/** The mask for a value of `length` characters, with or without a kind label. */
const masked = (length: number) => new RegExp(`\\[redacted (?:JWT )?${length} chars\\]`);

/** Redacting twice (extension, then core) must give what redacting once gave. */
function redactedOnce(text: string): string {
  const out = redactText(text);
  expect(redactText(out), 'a second pass changed the text').toBe(out);
  return out;
}

describe('secrets recognised by their shape', () => {
  const contexts: [string, (token: string) => string][] = [
    ['plain text', (t) => `Your new key is ${t} — copy it now, it will not be shown again.`],
    ['a URL query', (t) => `https://api.example.com/v1/items?limit=20&value=${t}&sort=asc`],
    [
      'an Authorization header',
      (t) => `GET /v1/me HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer ${t}\nAccept: */*`,
    ],
    ['JSON', (t) => JSON.stringify({ config: { endpoint: 'https://api.example.com', credential: t }, retries: 3 })],
    ['an env-file line', (t) => `NODE_ENV=production\nUPSTREAM_CREDENTIAL=${t}\nPORT=8080`],
    ['an HTML attribute', (t) => `<div class="card" data-config="${t}" hidden></div>`],
    ['a console line', (t) => `[log] init ${JSON.stringify({ client: 'web', key: t })}`],
    ['a curl command', (t) => `curl -s -H 'Authorization: Bearer ${t}' https://api.example.com/v1/me`],
  ];

  for (const { format, prefix, token } of SHAPED) {
    const body = token.slice(prefix.length);
    it.each(contexts)(`${format} ${token.slice(0, prefix.length + 4)}… in %s`, (_context, plant) => {
      const out = redactedOnce(plant(token));
      expect(out).not.toContain(body);
      expect(out).toSatisfy((text: string) => masked(body.length).test(text) || masked(token.length).test(text));
    });
  }

  it("keeps the provider prefix, the key's name, when nothing else names it", () => {
    for (const { prefix, token } of SHAPED.filter((sample) => sample.prefix)) {
      expect(redactedOnce(`seen ${token}`)).toBe(`seen ${prefix}[redacted ${token.length - prefix.length} chars]`);
    }
  });

  it.each(PRIVATE_KEYS.map((pem) => [pem.split('\n')[0]!, pem]))(
    '%s block in text, JSON and a truncated paste',
    (_label, pem) => {
      const lines = pem.split('\n').slice(1, -1);
      for (const text of [`key file:\n${pem}\n`, JSON.stringify({ privateKeyPem: pem }), pem.slice(0, 300)]) {
        const out = redactedOnce(text);
        for (const line of lines) expect(out).not.toContain(line.slice(0, 32));
        expect(out).toContain(pem.split('\n')[0]);
      }
    },
  );
});

describe('secrets recognised by their name', () => {
  const contexts: [string, (name: string, value: string) => [text: string, shownLength: number]][] = [
    [
      'a URL query',
      (n, v) => [
        `https://app.example.com/cb?lang=en&${n}=${encodeURIComponent(v)}&page=2`,
        encodeURIComponent(v).length,
      ],
    ],
    [
      'a URL fragment',
      (n, v) => [`https://app.example.com/#state=ok&${n}=${encodeURIComponent(v)}`, encodeURIComponent(v).length],
    ],
    ['a Cookie header', (n, v) => [`Cookie: theme=dark; ${n}=${v}; lang=en`, v.length]],
    ['a Set-Cookie header', (n, v) => [`Set-Cookie: ${n}=${v}; Path=/; Secure; HttpOnly; SameSite=Lax`, v.length]],
    ['JSON', (n, v) => [JSON.stringify({ user: 'ada', [n]: v }), v.length]],
    ['JSON inside a JSON string', (n, v) => [JSON.stringify({ stored: JSON.stringify({ [n]: v }) }), v.length]],
    ['an env-file line', (n, v) => [`# settings\n${n}=${v}\nDEBUG=false`, v.length]],
    ['a quoted env-file line', (n, v) => [`export ${n}="${v}"`, v.length]],
    ['an HTML hidden input', (n, v) => [`<form><input type="hidden" name="${n}" value="${v}"></form>`, v.length]],
    ['an HTML meta tag', (n, v) => [`<meta name="${n}" content="${v}">`, v.length]],
    [
      'HTML an eval returned as a JSON string',
      (n, v) => [JSON.stringify(`<input name="${n}" value="${v}" type="hidden">`), JSON.stringify(v).length - 2],
    ],
    ['a YAML or log line', (n, v) => [`12:00:01 debug ${n}: ${v}`, v.length]],
  ];

  for (const { name, value } of NAMED) {
    it.each(contexts)(`${name} in %s`, (_context, plant) => {
      const [text, length] = plant(name, value);
      const out = redactedOnce(text);
      expect(out).not.toContain(value);
      expect(out).toContain(name);
      expect(out).toMatch(masked(length));
    });
  }

  it('masks by key in structured data, keeping the shape and every other field', () => {
    const data = {
      user: 'ada',
      headers: { Authorization: 'Basic YWRhOmxvdmVsYWNl', Cookie: 'sid=9f2a7c; theme=dark', Accept: 'text/html' },
      pin: 4821,
      tokens: ['a', 'b'],
    };
    expect(redactValue(data)).toEqual({
      user: 'ada',
      headers: {
        Authorization: 'Basic [redacted 16 chars]',
        Cookie: 'sid=[redacted 6 chars]; theme=[redacted 4 chars]',
        Accept: 'text/html',
      },
      pin: 4821,
      tokens: ['a', 'b'],
    });
    for (const { name, value } of NAMED) {
      expect(JSON.stringify(redactValue({ nested: [{ [name]: value }] }))).toBe(
        JSON.stringify({ nested: [{ [name]: `[redacted ${value.length} chars]` }] }),
      );
    }
  });

  it('masks secrets in text fields of structured data by content: URLs of tabs, titles', () => {
    const token = SHAPED.find((sample) => sample.format === 'JWT')!.token;
    const tabs = { tabs: [{ id: 't1', url: `https://app.example.com/home?access_token=${token}&x=1`, title: 'Home' }] };
    const out = JSON.stringify(redactValue(tabs));
    expect(out).not.toContain(token);
    expect(out).toContain('access_token=[redacted');
    expect(out).toContain('"title":"Home"');
  });
});

describe('passwords in connection URLs', () => {
  for (const { url, password, user, host } of DATABASE_URLS) {
    it(`${url.split(':')[0]} URL as an env line, JSON and a log line`, () => {
      for (const text of [
        `DATABASE_URL=${url}`,
        JSON.stringify({ databaseUrl: url }),
        `connecting to ${url} (pool 10)`,
      ]) {
        const out = redactedOnce(text);
        expect(out).not.toContain(password);
        expect(out).toContain(`${user}:[redacted ${password.length} chars]@${host}`);
      }
    });
  }
});

describe('headers', () => {
  it('keeps the scheme of Authorization and Proxy-Authorization, every cookie name and Set-Cookie attribute', () => {
    expect(redactedOnce('Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe(
      'Proxy-Authorization: Basic [redacted 20 chars]',
    );
    expect(redactedOnce('authorization: Token 9f8e7d6c5b4a39281706f5e4d3c2b1a0')).toBe(
      'authorization: Token [redacted 32 chars]',
    );
    expect(
      redactedOnce('Set-Cookie: __Host-sid=Zk29xLq0Pw; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Secure'),
    ).toBe('Set-Cookie: __Host-sid=[redacted 10 chars]; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Secure');
    expect(redactedOnce('X-Api-Key: 4c1d9e0f7a6b5c4d3e2f1a0b')).toBe('X-Api-Key: [redacted 24 chars]');
  });

  it('leaves a Cookie line of prose alone: only name=value pairs are cookies', () => {
    expect(redactedOnce('Cookie: we use cookies to make this site work')).toBe(
      'Cookie: we use cookies to make this site work',
    );
  });
});

describe('snapshot fields labelled as secrets', () => {
  it("masks the value of a textbox whose label names a secret, and keeps the engine's own [value hidden]", () => {
    const snapshot = [
      '- textbox "API key" [ref=e5]: 3b1f0c9ae47d',
      '- textbox "Password" [required] [ref=e6]: [value hidden]',
      '- textbox "City" [ref=e7]: Lisbon',
    ].join('\n');
    expect(redactedOnce(snapshot)).toBe(
      [
        '- textbox "API key" [ref=e5]: [redacted 12 chars]',
        '- textbox "Password" [required] [ref=e6]: [value hidden]',
        '- textbox "City" [ref=e7]: Lisbon',
      ].join('\n'),
    );
  });
});
