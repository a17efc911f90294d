// What is not a secret comes through unchanged: page text, snapshot lines, prices, dates, ids, ordinary URLs, emails, code.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { redactText } from '../../shared/redact/text.js';
import { redactValue } from '../../shared/redact/value.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
// form.html plants a CSRF token, a password value and a ?token= URL on purpose; redact-*.html are all secrets.
// Pages that hold a password or secret on purpose: what they test is that it never shows.
const PLANTED = (name: string) =>
  ['form.html', 'read-code.html', 'read-article.html', 'inspect-page.html'].includes(name) ||
  ['gate-', 'redact-', 'shot-secrets', 'snapshot-long', 'snapshot-reuse'].some((prefix) => name.startsWith(prefix));

const CORPUS = [
  // Snapshot lines as the engine writes them.
  '- heading "Pricing" [level=1]',
  '- row: link "Row 1" [ref=e4] | user1@example.com | Editor | $1.25 | button "Delete" [ref=e5]',
  '- textbox "Email" [required] [ref=e6]: ada@example.com',
  '- textbox "Search" [ref=e7]: token ring network',
  '- combobox "Country" [ref=e8]: Portugal',
  '- checkbox "Remember me" [checked=mixed] [ref=e12]',
  '- textbox "Password" [ref=e13]: [value hidden]',
  '- link "Order 3f2b8c1e-9d4a-4b7e-a1c2-5e6f7a8b9c0d" [ref=e9]',
  '- frame 1 parent=0 origin=http://127.0.0.1:5173 url=http://127.0.0.1:5173/orders/3f2b8c1e-9d4a-4b7e-a1c2-5e6f7a8b9c0d/items readable controls=12',
  'Lines 11–15 of 503. … 488 more lines: snapshot offset=15 for the next part, or find',
  'REF_EXPIRED: That ref is from an older page.\nNext: Call `snapshot` (or `find`) again and use the new ref.',
  // Prices, dates, numbers, ids.
  'Prices: $1,299.00, €49,99, £0.99, ¥12,800 — save 15% until 2025-06-01T12:00:00Z (Tue, 21 Oct 2025 07:28:00 GMT).',
  'Order #A1B2C3D4E5F6 shipped; tracking 1Z999AA10123456784; commit 4f2a9c1d0e8b7a6f5e4d3c2b1a0f9e8d7c6b5a49',
  'Request id 3f2b8c1e-9d4a-4b7e-a1c2-5e6f7a8b9c0d, trace 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  // Ordinary URLs, with ids in path segments and harmless queries.
  'https://www.google.com/search?q=chrome+mcp&hl=en&start=10',
  'https://github.com/acme/shop/blob/4f2a9c1d0e8b7a6f5e4d3c2b1a0f9e8d7c6b5a49/src/index.ts#L10-L20',
  'https://shop.example.com/p/sku-12345?color=blue&size=M&page=2&sort=price_asc&ref=e12',
  'https://api.example.com/v2/users/3f2b8c1e-9d4a-4b7e-a1c2-5e6f7a8b9c0d/orders?include=items&per_page=50',
  'https://user@git.example.com/acme/shop.git and ssh://git@github.com:22/acme/shop.git',
  // Email addresses are personal data, not secrets: the model needs them to fill forms and read inboxes, so they stay.
  'Contact ada.lovelace@example.co.uk or mailto:support@example.com?subject=Help',
  // Prose about secrets is not a secret.
  'The password must be at least 8 characters. Forgot your password? Sign in with a passkey.',
  'Bearer tokens are described in RFC 6750. Session cookies expire when you close the browser.',
  'Tokens used: 1,234 of 10,000. API keys can be created in Settings → Developer.',
  'Desk lamp, task-runner, risk-assessment-framework-2024, sk-learn-tutorial-for-beginners',
  // Code and data a page shows.
  "if (event.key === 'Enter') submit(); const { key } = event; const token = getToken();",
  '.token { color: red; font-family: "Inter", sans-serif } @media (max-width: 600px) { .card { display: none } }',
  '{"key":"Enter","code":"Enter","items":[{"id":12,"price":"19.99","currency":"EUR"}],"hasPassword":true,"session":null}',
  'type=password autocomplete="current-password" name="password" for="password" aria-label="Password"',
];

describe('normal text', () => {
  it.each(CORPUS.map((line) => [line.slice(0, 60), line]))('survives: %s', (_label, line) => {
    expect(redactText(line)).toBe(line);
  });

  it('every test fixture page without planted secrets comes through byte for byte', () => {
    const pages = readdirSync(FIXTURES).filter((name) => name.endsWith('.html') && !PLANTED(name));
    expect(pages.length).toBeGreaterThan(20);
    for (const name of pages) {
      const html = readFileSync(FIXTURES + name, 'utf8');
      expect(redactText(html), name).toBe(html);
    }
  });

  it('structured data without secrets comes back equal', () => {
    const data = {
      url: 'https://shop.example.com/p/sku-12345?color=blue',
      title: 'Blue mug — $12.00',
      tabs: 3,
      frames: [{ origin: 'http://127.0.0.1:5173', readable: true }],
      key: 'Enter',
    };
    expect(redactValue(data)).toEqual(data);
  });

  it("the core's own status keeps where the pairing secret is stored, while any value under a key named secret is masked", () => {
    const status = { extension: { connected: true, bridge: { port: 38017 }, pairing: 'file' } };
    expect(redactValue(status)).toEqual(status);
    expect(redactValue({ secret: 'file' })).toEqual({ secret: '[redacted 4 chars]' });
    expect(redactValue({ secret: 'f1le-Zq8Lm2' })).toEqual({ secret: '[redacted 11 chars]' });
  });
});
