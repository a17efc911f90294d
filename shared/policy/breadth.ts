// Patterns too broad to allow anything: a public suffix covers strangers' sites, a loopback name or an IP without its
// port covers every service on that machine. Judged with the Public Suffix List (tldts), never a hand-kept list.
import { parse } from 'tldts';
import { PolicyFormatError } from './format-error.js';
import type { RuleLevel } from './levels.js';
import { isIpLiteral, parseSitePattern, patternText, type SitePattern } from './pattern.js';
import type { Rule } from './policy.js';

/**
 * Why `pattern` may not be given `level`, or undefined when it may. `blocked` is always fine: refusing a whole
 * suffix (`*.github.io`) or every local port is the person's safe choice, and a grant can never lift a block.
 */
export function grantProblem(pattern: SitePattern, level: RuleLevel): string | undefined {
  if (level === 'blocked' || pattern.kind === 'file') return undefined;
  const text = `"${patternText(pattern)}"`;
  const { host } = pattern;
  const hasPort = pattern.kind === 'host-port' || pattern.kind === 'origin';
  if (isIpLiteral(host)) {
    if (hasPort) return undefined;
    return (
      `${text}: an IP address needs its port, or it covers every service on that machine ` +
      `(write ${host}:8080 or http://${host}:8080)`
    );
  }
  // allowPrivateDomains: the list's private section holds github.io, blogspot.com, s3.amazonaws.com: shared hosts too.
  const parsed = parse(host, { allowPrivateDomains: true, extractHostname: false });
  const listed = parsed.isIcann === true || parsed.isPrivate === true;
  if (parsed.domain === null && listed) {
    return (
      `${text}: ${host} is a public suffix, under which sites belong to different people; ` +
      `name one site (example.${host})`
    );
  }
  // The browser resolves localhost and every *.localhost to this machine, whatever DNS says.
  const loopback = host === 'localhost' || host.endsWith('.localhost');
  if (pattern.kind === 'subdomains' && (loopback || parsed.domain === null)) {
    return (
      `${text}: every host under ${host} is on this machine or the local network; ` +
      `name each one with its port (${host}:3000)`
    );
  }
  if (!hasPort && (loopback || parsed.domain === null)) {
    return (
      `${text}: a local host name needs its port, or it covers every service on the machine, ` +
      `Jupyter's and databases' included (write ${host}:3000 or http://${host}:3000)`
    );
  }
  return undefined;
}

/** A rule from its text: throws PolicyFormatError when the pattern does not parse or is too broad for the level. */
export function parseRule(site: string, level: RuleLevel): Rule {
  const pattern = parseSitePattern(site);
  const broad = grantProblem(pattern, level);
  if (broad) throw new PolicyFormatError([broad]);
  return { site: pattern, level };
}
