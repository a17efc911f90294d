// Whether a page's own code (a script, a stylesheet) may be shown: its frame's site allows reads, and so does the site
// the file came from, as network_get shows no body from a site the policy keeps from the model.
import { siteOf } from '../policy/site.js';
import type { Frame } from './frames.js';
import type { PageContext } from './page-context.js';

export function sourceReadable(page: PageContext, frame: Frame, url: string): boolean {
  if (!page.frames.allows(frame, 'read')) return false;
  // A file with no web site of its own (inline, data:, a sourceURL name) is the frame's, judged above.
  return siteOf(url).kind !== 'web' || page.gate.allows({ url }, 'read');
}

/** A file as a listing names it: its path when it is on its frame's own origin, else its URL; never its query. */
export function sourceName(url: string, frame: Frame): string {
  const bare = url.replace(/[?#].*$/, '');
  try {
    const parsed = new URL(bare);
    return frame.origin !== undefined && parsed.origin === frame.origin ? parsed.pathname : bare;
  } catch {
    return bare;
  }
}
