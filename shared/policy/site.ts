// Turns a URL into the site the policy judges, using the WHATWG URL parser and never string tests on the raw text.
import { keptResults } from '../engine/kept-results.js';

/** An http(s) site after the parser has resolved userinfo, backslashes, IDN, IPv4 spellings and case. */
export interface WebSite {
  kind: 'web';
  scheme: 'http' | 'https';
  /** Lowercase ASCII (punycode) host without trailing dots; IPv6 keeps its brackets. */
  host: string;
  /** The effective port: the scheme's default when the URL names none. */
  port: number;
}

export type Site =
  | WebSite
  | { kind: 'file' }
  /** about:blank and about:srcdoc take their origin from whoever made them, so they have no site of their own. */
  | { kind: 'inherits'; url: string }
  /** The browser's own pages and other extensions' pages (chrome:, chrome-extension:, about:…, view-source:…). */
  | { kind: 'browser'; scheme: string }
  /** data:, javascript: and every other scheme: content with no site the person could have a rule for. */
  | { kind: 'unsupported'; scheme: string }
  | { kind: 'bad'; input: string };

const DEFAULT_PORT = { http: 80, https: 443 } as const;

// view-source: renders any page (a bank's too) under no site of its own; chrome-error: is the browser's error page.
const BROWSER_SCHEMES = new Set([
  'about',
  'chrome',
  'chrome-extension',
  'chrome-untrusted',
  'chrome-search',
  'chrome-devtools',
  'chrome-error',
  'devtools',
  'edge',
  'brave',
  'opera',
  'vivaldi',
  'view-source',
]);

const INHERITING = new Set(['blank', 'srcdoc']);

// A call judges the same few documents many times (the tab, its frames, the script's trail): each URL is parsed once
// while it is among the last few asked. Kept sites are frozen, so no caller can change another's.
const KEPT_SITES = 16;

export const siteOf: (input: string) => Site = keptResults((input) => Object.freeze(parseSite(input)), KEPT_SITES);

function parseSite(input: string): Site {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { kind: 'bad', input: input.slice(0, 200) };
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'http' || scheme === 'https') {
    const host = url.hostname.replace(/\.+$/, '');
    if (!host) return { kind: 'bad', input: input.slice(0, 200) };
    return { kind: 'web', scheme, host, port: url.port ? Number(url.port) : DEFAULT_PORT[scheme] };
  }
  // A blob: URL belongs to the origin that made it; the parser reports it, or "null" when that origin is opaque.
  if (scheme === 'blob') return url.origin === 'null' ? { kind: 'unsupported', scheme } : siteOf(url.origin);
  if (scheme === 'file') return { kind: 'file' };
  // Case matters here on purpose: only the exact spellings inherit; any other about: page counts as the browser's.
  if (scheme === 'about' && INHERITING.has(url.pathname)) return { kind: 'inherits', url: `about:${url.pathname}` };
  if (BROWSER_SCHEMES.has(scheme)) return { kind: 'browser', scheme };
  return { kind: 'unsupported', scheme };
}

/** How a site is named to the model and the person: host[:port] for the web, the scheme otherwise. */
export function siteLabel(site: Site): string {
  switch (site.kind) {
    case 'web':
      return site.port === DEFAULT_PORT[site.scheme] ? site.host : `${site.host}:${site.port}`;
    case 'file':
      return 'file://';
    case 'inherits':
      return site.url;
    case 'browser':
    case 'unsupported':
      return `${site.scheme}:`;
    case 'bad':
      return site.input;
  }
}

/** The exact origin a question names and an answer grants (`https://example.com`, `http://localhost:8888`). */
export function originOf(site: WebSite): string {
  const port = site.port === DEFAULT_PORT[site.scheme] ? '' : `:${site.port}`;
  return `${site.scheme}://${site.host}${port}`;
}

export function defaultPort(scheme: 'http' | 'https'): number {
  return DEFAULT_PORT[scheme];
}
