// The origins an agent's script may still reach while the egress hold is up, and the browser rules that say so.

// These schemes never reach the network: their content is already in the browser.
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:', 'javascript:']);
// A rule's throttling fields are required; these values mean "not throttled".
const UNTHROTTLED = { latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

/**
 * The tab's own frames' origins (what the person's trust covers), and nothing the page merely talked to before: the
 * third-party hosts a page loads from (analytics, tag managers, CDNs, user-content hosts) are where data goes unseen,
 * and many of them take writes from anyone.
 */
export class AllowedOrigins {
  private readonly origins: Set<string>;
  // Built once: a steady eval arms with the same origins every call, and nothing mutates what is sent.
  private patterns: Record<string, unknown>[] | undefined;
  private conditions: Record<string, unknown>[] | undefined;

  /** `origins` as documents report them (`https://host[:port]`); opaque ones ("null", "://") allow nothing. */
  constructor(origins: Iterable<string | undefined>) {
    this.origins = new Set(
      [...origins].filter((origin): origin is string => origin !== undefined && /^https?:\/\/[^/]+$/.test(origin)),
    );
  }

  /** Same origin as a frame of the tab (a WebSocket by its http counterpart), or never on the network at all. */
  allows(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (LOCAL_SCHEMES.has(parsed.protocol)) return true;
    const scheme = parsed.protocol === 'wss:' ? 'https:' : parsed.protocol === 'ws:' ? 'http:' : parsed.protocol;
    return this.origins.has(`${scheme}//${parsed.host}`);
  }

  /** Patterns for Network.setBlockedURLs, first match wins: the allowed origins pass, every other http(s) URL is blocked. */
  blockPatterns(): readonly Record<string, unknown>[] {
    return (this.patterns ??= [
      ...this.passing().map((urlPattern) => ({ urlPattern, block: false })),
      { urlPattern: '*://*:*/*', block: true },
    ]);
  }

  /**
   * Rules for Network.emulateNetworkConditionsByRule, first match wins: the allowed origins (and WebSockets to them)
   * pass untouched, and the last rule, whose empty pattern matches every request and p2p connection, is offline.
   */
  rules(): readonly Record<string, unknown>[] {
    return (this.conditions ??= [
      ...this.passing().map((urlPattern) => ({ urlPattern, offline: false, ...UNTHROTTLED })),
      { urlPattern: '', offline: true, ...UNTHROTTLED },
    ]);
  }

  /** Allows exactly `origins` (as the constructor filters them): a hold armed again with the same frames keeps this. */
  same(origins: readonly (string | undefined)[]): boolean {
    const kept = new AllowedOrigins(origins).origins;
    return kept.size === this.origins.size && [...kept].every((origin) => this.origins.has(origin));
  }

  /** Rules that refuse every WebSocket but those to the allowed origins, and leave every other request to later rules. */
  socketRules(): Record<string, unknown>[] {
    return [
      ...this.passing()
        .filter((urlPattern) => urlPattern.startsWith('ws'))
        .map((urlPattern) => ({ urlPattern, offline: false, ...UNTHROTTLED })),
      ...['ws', 'wss'].map((scheme) => ({ urlPattern: `${scheme}://*:*/*`, offline: true, ...UNTHROTTLED })),
    ];
  }

  /** URLPatterns for the allowed origins, and for WebSockets to them. */
  private passing(): string[] {
    return [...this.origins].flatMap((origin) => {
      const { protocol, host } = new URL(origin);
      const socket = protocol === 'https:' ? 'wss:' : 'ws:';
      return [`${protocol}//${patternHost(host)}/*`, `${socket}//${patternHost(host)}/*`];
    });
  }
}

/** An offline rule for `url` alone (a WebSocket's), every character URLPattern reads as syntax escaped. */
export function offlineRule(url: string): Record<string, unknown> {
  const { protocol, host, pathname, search } = new URL(url);
  // An empty search after the `?` matches only a URL with none.
  const urlPattern = `${protocol}//${patternHost(host)}${literal(pathname)}?${literal(search.slice(1))}`;
  return { urlPattern, offline: true, ...UNTHROTTLED };
}

function literal(part: string): string {
  return part.replace(/[\\:*?+(){}[\]]/g, '\\$&');
}

/** A host[:port] as a URLPattern reads it: an IPv6 literal's colons would otherwise start a port or a named group. */
function patternHost(host: string): string {
  const literalEnd = host.lastIndexOf(']');
  return [...host].map((char, index) => (index < literalEnd && char === ':' ? '\\:' : char)).join('');
}
