// The documents an agent's script creates, as the late-document tests have an eval make them in both backends, and the
// cases both run: each document runs a script of its own that, a second later, sends to `target` and then tells its
// maker (parent or opener) `marker`, which the maker's page records as a window flag of that name.
import { expect } from 'vitest';
import type { LateTab } from './late-tab.js';

export type LateDocument = 'srcdoc' | 'blob-frame' | 'data-frame' | 'blob-window' | 'written-window';

/** The document's HTML: a timer that sends to `target` and reports `marker` to whoever made it. */
function lateHtml(target: string, marker: string): string {
  return (
    `<script>setTimeout(() => fetch(${JSON.stringify(target)}, { mode: 'no-cors' }).catch(() => undefined)
    .finally(() => (opener || parent).postMessage(${JSON.stringify(marker)}, '*')), 1000)</scr` + `ipt>`
  );
}

/**
 * An expression that makes a document of `kind` sending to `target` later; the page's `marker` turns true after. `into`:
 * the id of a frame already on the page, which gets the frame kinds' document instead of a frame of their own.
 */
export function lateDocument(kind: LateDocument, target: string, marker: string, into?: string): string {
  const html = JSON.stringify(lateHtml(target, marker));
  const listen = `addEventListener('message', (event) => { if (event.data === ${JSON.stringify(marker)})
    window[event.data] = true; });`;
  const blob = `URL.createObjectURL(new Blob([${html}], { type: 'text/html' }))`;
  if (into !== undefined) {
    const frame = `document.getElementById(${JSON.stringify(into)})`;
    const set = kind === 'srcdoc' ? `srcdoc = ${html}` : kind === 'blob-frame' ? `src = ${blob}` : undefined;
    if (set === undefined) throw new Error(`no frame kind: ${kind}`);
    return `${listen} ${frame}.${set}; 0`;
  }
  const make: Record<LateDocument, string> = {
    srcdoc: `document.body.append(Object.assign(document.createElement('iframe'), { srcdoc: ${html} }));`,
    'blob-frame': `document.body.append(Object.assign(document.createElement('iframe'), { src: ${blob} }));`,
    'data-frame': `document.body.append(Object.assign(document.createElement('iframe'),
      { src: 'data:text/html,' + encodeURIComponent(${html}) }));`,
    'blob-window': `window.open(${blob});`,
    'written-window': `const written = window.open('about:blank'); written.document.write(${html});
      written.document.close();`,
  };
  return `${listen} ${make[kind]} 0`;
}

/** Runs the script, waits for `marker` (its document's late send tried), and returns what reached W and was named. */
export async function sends(tab: LateTab, marker: string, expression: string) {
  await tab.run(expression);
  await tab.until(marker);
  const reached = await tab.reached();
  return { reached, heldLater: tab.heldLater(await tab.run('1')) };
}

/** The cases both backends run, each a test's whole body on the backend's tab; the test files name them. */
export const documentCases = {
  /** A document of `kind` the script makes, sending a second later to W/kind: held, and named. */
  made:
    (kind: LateDocument) =>
    async (tab: LateTab): Promise<void> => {
      expect(await sends(tab, kind, lateDocument(kind, `${tab.watched.origin}/${kind}`, kind))).toEqual({
        reached: [],
        heldLater: [`GET W/${kind} (Fetch)`],
      });
    },

  /** What the script writes into the page's own frame `id` as a document of `kind`, sending to W/marker: held, named. */
  async writtenInto(tab: LateTab, kind: LateDocument, id: string, marker: string): Promise<void> {
    expect(await sends(tab, marker, lateDocument(kind, `${tab.watched.origin}/${marker}`, marker, id))).toEqual({
      reached: [],
      heldLater: [`GET W/${marker} (Fetch)`],
    });
  },

  /** The page's own srcdoc and blob frames, after an eval, send as they like. */
  async pageOwnFrames(tab: LateTab): Promise<void> {
    await tab.run('1');
    for (const kind of ['srcdoc', 'blob-frame'] as const) {
      const marker = `page-${kind}`;
      await tab.asPage(lateDocument(kind, `${tab.watched.origin}/${marker}`, marker));
      await tab.until(marker);
    }
    expect(tab.watched.requests).toEqual(['/page-srcdoc', '/page-blob-frame']);
  },
};
