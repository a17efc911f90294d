// A settings page built from the 118 fake secrets of test/redact/samples.ts, each planted where real apps keep such
// values: DOM text, form fields, data attributes, console lines, response headers, cookies, link and page URLs, and
// local/session storage. Which secret part of each must never come out is listed with it.
import { DATABASE_URLS, NAMED, PRIVATE_KEYS, SHAPED } from '../redact/samples.js';
import type { GeneratedPage } from './fixture-server.js';

export interface SecretPage {
  page: GeneratedPage;
  /**
   * The named secrets' form, on a page of its own: fields labelled `DB_PASSWORD` or `SMTP_PASS` count as password
   * fields, and a tab showing one refuses every script, which would leave the rest of the page unread by `eval`.
   */
  form: GeneratedPage;
  /** The page's own query string (without `?`): the named secrets, as a link from an e-mail would carry them. */
  query: string;
  /** The secret parts (a shaped key's body, a named value, a URL's password, a private key's lines). */
  planted: string[];
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A named secret as a config line shows it. */
const assignment = ({ name, value }: { name: string; value: string }) => `${name}=${value}`;

export function buildSecretPage(): SecretPage {
  const text: string[] = [];
  const fields: string[] = [];
  const namedFields: string[] = [];
  const attributes: string[] = [];
  const links: string[] = [];
  const log: string[] = [];
  const headers: Record<string, string | string[]> = {};
  const local: Record<string, string> = {};
  const session: Record<string, string> = {};

  SHAPED.forEach(({ format, token }, i) => {
    text.push(`<li>${escape(format)}: <code>${token}</code></li>`);
    fields.push(`<label>Credential ${i} <input value="${token}"></label>`);
    attributes.push(`<span data-credential="${token}">${escape(format)}</span>`);
    links.push(
      `<a href="/mcp-hello.html?lang=en&amp;value=${encodeURIComponent(token)}">Use ${escape(format)} ${i}</a>`,
    );
    log.push(`upstream ${format} loaded: ${token}`);
    headers[`x-credential-${i}`] = token;
    local[`credential_${i}`] = token;
    session[`credential_${i}`] = token;
  });
  NAMED.forEach((secret, i) => {
    text.push(`<li><code>${escape(assignment(secret))}</code></li>`);
    namedFields.push(
      `<label for="named-${i}">${escape(secret.name)}</label> <input id="named-${i}" name="${escape(secret.name)}" value="${escape(secret.value)}">`,
    );
    attributes.push(
      `<span data-config="${escape(JSON.stringify({ [secret.name]: secret.value }))}">setting ${i}</span>`,
    );
    log.push(`config ${assignment(secret)}`);
    local[secret.name] = secret.value;
    session[secret.name] = secret.value;
  });
  // Cookies the server sets (readable by script, as most are); named, since a cookie's name is what marks it.
  headers['set-cookie'] = NAMED.map(({ name, value }) => `${name}=${value}; Path=/; SameSite=Lax`);
  headers['x-api-key'] = NAMED.find(({ name }) => name === 'API_KEY')!.value;
  headers['authorization'] = `Bearer ${SHAPED.find(({ format }) => format === 'JWT')!.token}`;
  DATABASE_URLS.forEach(({ url }, i) => {
    text.push(`<li>connecting to ${escape(url)} (pool 10)</li>`);
    fields.push(`<label>Database URL ${i} <input name="DATABASE_URL_${i}" value="${escape(url)}"></label>`);
    attributes.push(`<span data-dsn="${escape(url)}">database ${i}</span>`);
    links.push(`<a href="${escape(url)}">database ${i}</a>`);
    log.push(`connecting to ${url} (pool 10)`);
    headers[`x-database-url-${i}`] = url;
    local[`database_url_${i}`] = url;
  });
  PRIVATE_KEYS.forEach((pem, i) => {
    text.push(`<li><pre>${pem}</pre></li>`);
    fields.push(`<label>Private key ${i} <textarea>${pem}</textarea></label>`);
    log.push(`loaded signing key:\n${pem}`);
    local[`signing_key_${i}`] = pem;
  });

  // Storage and the console are filled by the page's own script, from its embedded state, as an app's bundle would.
  const state = JSON.stringify({ local, session, log }).replace(/</g, '\\u003c');
  const body = `<!doctype html>
<html><head><title>Developer settings</title>
<script type="application/json" id="state">${state}</script>
<script>
  const state = JSON.parse(document.getElementById('state').textContent);
  for (const [key, value] of Object.entries(state.local)) localStorage.setItem(key, value);
  for (const [key, value] of Object.entries(state.session)) sessionStorage.setItem(key, value);
  // The app's debug log: every line goes to the console and stays readable in a ring, as many apps keep one.
  window.appLog = [];
  for (const line of state.log) { console.log(line); window.appLog.push(line); }
</script></head>
<body>
<h1>Developer settings</h1>
<p>Plan: Team, 12 seats, renews 2026-03-01.</p>
<ul id="text">${text.join('\n')}</ul>
<form id="fields">${fields.join('\n')}</form>
<div id="attributes">${attributes.join('\n')}</div>
<nav id="links">${links.join('\n')}</nav>
</body></html>`;

  const form = `<!doctype html>
<html><head><title>Environment</title></head>
<body><h1>Environment</h1><form id="fields">${namedFields.join('\n')}</form></body></html>`;

  return {
    page: { body, headers },
    form: { body: form },
    query: NAMED.map(({ name, value }) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&'),
    planted: [
      ...SHAPED.map(({ prefix, token }) => token.slice(prefix.length)),
      ...NAMED.map(({ value }) => value),
      ...DATABASE_URLS.map(({ password }) => password),
      ...PRIVATE_KEYS.flatMap((pem) => pem.split('\n').slice(1, -1)),
    ],
  };
}
