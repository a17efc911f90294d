// Site patterns in rules: parsed once with the URL parser into plain data, then matched against parsed sites only.
import { PolicyFormatError } from './format-error.js';
import { defaultPort, type Site } from './site.js';

export type SitePattern =
  /** `example.com`: that host and every subdomain at any depth (an IP literal: that address only). */
  | { kind: 'domain'; host: string }
  /** `*.example.com`: subdomains at any depth, not the host itself. */
  | { kind: 'subdomains'; host: string }
  /** `localhost:3000`: that host on that port, http or https, no subdomains. */
  | { kind: 'host-port'; host: string; port: number }
  /** `http://localhost:3000`: that exact origin. */
  | { kind: 'origin'; scheme: 'http' | 'https'; host: string; port: number }
  /** `file://`: every local file. */
  | { kind: 'file' };

const SCHEME_PREFIX = /^([a-z][a-z0-9+.-]*):\/\//i;
const EXPLICIT_PORT = /:(\d+)$/;

/** Parses a rule's site text; throws PolicyFormatError whose message says what to write instead. */
export function parseSitePattern(text: string): SitePattern {
  const problem = (what: string): never => {
    throw new PolicyFormatError([`"${text}": ${what}`]);
  };
  const raw = text.trim();
  if (!raw) return problem('a rule needs a site');
  // The URL parser would read a backslash as a slash; in a rule it can only be a typo or a trick.
  if (/[\s\\]/.test(raw)) return problem('a site cannot contain spaces or backslashes');
  if (raw === '*') return problem('a rule cannot cover every site; name the sites, or use "default"');
  const scheme = SCHEME_PREFIX.exec(raw)?.[1]?.toLowerCase();
  if (scheme === 'file') {
    if (!/^file:\/\/\/?$/i.test(raw)) return problem('a file rule is just "file://": it covers every local file');
    return { kind: 'file' };
  }
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    return problem(`rules cover http, https and file sites; "${scheme}:" pages are never readable`);
  }
  if (scheme) {
    if (raw.includes('*'))
      return problem('an origin rule is exact; write *.example.com without a scheme for subdomains');
    const url = parseOrigin(raw, problem);
    const host = cleanHost(url.hostname, problem);
    return { kind: 'origin', scheme, host, port: url.port ? Number(url.port) : defaultPort(scheme) };
  }
  const wildcard = raw.startsWith('*.');
  let rest = wildcard ? raw.slice(2) : raw;
  if (rest.includes('*')) return problem('"*" is only allowed as a leading "*."');
  // A bare IPv6 address is unambiguous once it has two colons; bracket it as URLs require.
  if (!rest.startsWith('[') && (rest.match(/:/g)?.length ?? 0) > 1) rest = `[${rest}]`;
  const url = parseOrigin(`http://${rest}`, problem);
  const host = cleanHost(url.hostname, problem);
  // The parser drops a port equal to the scheme default, so the written one is read from the text itself.
  const port = rest.endsWith(']') ? undefined : EXPLICIT_PORT.exec(rest)?.[1];
  if (wildcard && isIpLiteral(host)) return problem('an IP address has no subdomains; drop the "*."');
  if (wildcard && port !== undefined) return problem('"*." rules cannot name a port; write one origin rule per host');
  if (port !== undefined) return { kind: 'host-port', host, port: Number(port) };
  return wildcard ? { kind: 'subdomains', host } : { kind: 'domain', host };
}

function parseOrigin(candidate: string, problem: (what: string) => never): URL {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return problem('not a host name, host:port or http(s) origin');
  }
  if (url.username || url.password) return problem('a site cannot contain "user@"');
  if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(candidate)) {
    return problem('a rule names a site, not a page: drop the path, query and fragment');
  }
  return url;
}

function cleanHost(hostname: string, problem: (what: string) => never): string {
  const host = hostname.replace(/\.+$/, '');
  return host ? host : problem('not a host name');
}

export function isIpLiteral(host: string): boolean {
  // After the parser, an IPv4 address is always four dotted decimals and an IPv6 one is bracketed.
  return host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether the pattern covers the site; subdomain tests compare whole labels, so `bank.com` never covers `evilbank.com`. */
export function patternMatches(pattern: SitePattern, site: Site): boolean {
  if (pattern.kind === 'file') return site.kind === 'file';
  if (site.kind !== 'web') return false;
  switch (pattern.kind) {
    case 'domain':
      return site.host === pattern.host || (!isIpLiteral(pattern.host) && site.host.endsWith(`.${pattern.host}`));
    case 'subdomains':
      return site.host.endsWith(`.${pattern.host}`);
    case 'host-port':
      return site.host === pattern.host && site.port === pattern.port;
    case 'origin':
      return site.scheme === pattern.scheme && site.host === pattern.host && site.port === pattern.port;
  }
}

const KIND_WEIGHT = { file: 0, domain: 0, subdomains: 1, 'host-port': 2, origin: 3 } as const;

/**
 * How narrowly a pattern names its sites: more host labels first, then domain < *.domain < host:port < origin.
 * Two matching patterns with equal scores name the same thing spelled differently.
 */
export function specificity(pattern: SitePattern): number {
  const labels = pattern.kind === 'file' ? 0 : pattern.host.split('.').length;
  return labels * 4 + KIND_WEIGHT[pattern.kind];
}

/** The canonical spelling of a pattern, as documentation and the policy editor show it. */
export function patternText(pattern: SitePattern): string {
  switch (pattern.kind) {
    case 'file':
      return 'file://';
    case 'domain':
      return pattern.host;
    case 'subdomains':
      return `*.${pattern.host}`;
    case 'host-port':
      return `${pattern.host}:${pattern.port}`;
    case 'origin':
      return pattern.port === defaultPort(pattern.scheme)
        ? `${pattern.scheme}://${pattern.host}`
        : `${pattern.scheme}://${pattern.host}:${pattern.port}`;
  }
}
