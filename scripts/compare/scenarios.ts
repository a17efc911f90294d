// Each page's errand, as a short sequence of a driver's moves: the same for both servers, so only the tools differ.
// A scenario never judges itself; the page it drives reports, and the run reads that report.
import type { Driver } from './drivers.js';
import { EDITOR_CODE } from './pages.js';
import { ARTICLE_PHRASE, CANVAS_POINT, REPORT_DOC } from './pages-more.js';

export interface Scenario {
  /** The page's id: where it is served and what it reports as. */
  id: string;
  what: string;
  run(d: Driver, url: (path: string) => string, files: { upload: string }): Promise<unknown>;
}

const found = (text: string, pattern: RegExp, what: string) => {
  const match = text.match(pattern)?.[1];
  if (!match) throw new Error(`${what} not in what was read (${text.length} chars)`);
  return match;
};

export const SCENARIOS: Scenario[] = [
  {
    id: 'alert',
    what: 'alert from a click',
    run: async (d, url) => (await d.open(url('alert')), await d.click('Save draft'), d.dialog(true)),
  },
  {
    id: 'confirm',
    what: 'confirm, accepted',
    run: async (d, url) => (await d.open(url('confirm')), await d.click('Delete items'), d.dialog(true)),
  },
  {
    id: 'prompt',
    what: 'prompt, answered',
    run: async (d, url) => (await d.open(url('prompt')), await d.click('Rename'), d.dialog(true, 'heron')),
  },
  {
    id: 'beforeunload',
    what: 'leave a page with a beforeunload guard',
    async run(d, url) {
      await d.open(url('beforeunload'));
      await d.type('Note', 'half-written');
      await d.open(url('beforeunload-left')).catch(() => undefined);
      await d.dialog(true);
    },
  },
  {
    id: 'upload',
    what: 'file input',
    run: async (d, url, files) => (await d.open(url('upload')), d.upload('Attach invoice', files.upload)),
  },
  {
    id: 'download',
    what: 'download, read it, use it',
    async run(d, url) {
      await d.open(url('download'));
      const code = found(await d.download('Download report'), /confirmation code: (\S+)/, 'the code');
      await d.type('Confirmation code', code, true);
    },
  },
  {
    id: 'drag',
    what: 'HTML5 drag and drop',
    run: async (d, url) => (await d.open(url('drag')), d.drag('Card: Fix login', 'Done column')),
  },
  {
    id: 'pointer',
    what: 'pointer-events slider drag',
    run: async (d, url) => (await d.open(url('pointer')), d.drag('Volume knob', 'Loud end')),
  },
  {
    id: 'newtab',
    what: 'target=_blank link, then act in the new tab',
    async run(d, url) {
      await d.open(url('newtab'));
      await d.useNewTab(await d.click('Open receipt'));
      await d.click('Confirm receipt');
    },
  },
  {
    id: 'pushstate',
    what: 'pushState app',
    run: async (d, url) => (await d.open(url('pushstate/home')), await d.click('Settings'), d.click('Save settings')),
  },
  {
    id: 'delayed',
    what: 'content that appears after 2.5 s',
    run: async (d, url) => (await d.open(url('delayed')), await d.waitFor('Show results'), d.click('Show results')),
  },
  {
    id: 'editor',
    what: 'CodeMirror 5 buffer, indentation kept',
    run: async (d, url) => (await d.open(url('editor')), d.setCode(EDITOR_CODE)),
  },
  {
    id: 'hover',
    what: 'CSS hover menu',
    run: async (d, url) => (await d.open(url('hover')), await d.hover('Products'), d.click('Laptops')),
  },
  {
    id: 'canvas',
    what: 'click a point on a canvas',
    run: async (d, url) => (await d.open(url('canvas')), d.clickAt(CANVAS_POINT.x, CANVAS_POINT.y)),
  },
  {
    id: 'listbox',
    what: 'custom ARIA listbox',
    run: async (d, url) => (await d.open(url('listbox')), await d.click('Country'), d.click('Norway')),
  },
  {
    id: 'component',
    what: 'input inside a web component',
    async run(d, url) {
      await d.open(url('component'));
      await d.type('Promo code', 'SAVE10');
      await d.click('Apply code');
    },
  },
  {
    id: 'modal',
    what: 'modal closed by Escape',
    run: async (d, url) => (await d.open(url('modal')), await d.press('Escape'), d.click('Buy now')),
  },
  {
    id: 'feed',
    what: 'infinite feed, item 42',
    async run(d, url) {
      await d.open(url('feed'));
      for (let i = 0; i < 8 && !(await d.snapshot()).includes('"Post 42"'); i++) await d.scrollDown();
      await d.click('Post 42');
    },
  },
  {
    id: 'busy',
    what: 'main thread blocked for 6 s',
    async run(d, url) {
      await d.open(url('busy'));
      await d.click('Crunch numbers');
      await d.waitFor('See totals');
      await d.click('See totals');
    },
  },
  {
    id: 'article',
    what: 'read a long article, answer from it',
    async run(d, url) {
      await d.open(url('article'));
      const phrase = found(await d.read(), /access phrase for the quiz is ([a-z]+-[a-z]+)/, 'the phrase');
      if (phrase !== ARTICLE_PHRASE) throw new Error(`read the phrase as ${phrase}`);
      await d.type('Access phrase', phrase, true);
    },
  },
  {
    id: 'links',
    what: 'find a link by its text, follow it',
    async run(d, url) {
      await d.open(url('links'));
      const read = await d.links();
      // The href of the link named "Annual report 2025", on its line or the line under it (Playwright's /url:).
      const href = found(
        read,
        /Annual report 2025(?:[^\n]*?|[^\n]*\n[^\n]*?)((?:https?:\/\/[^\s()]+)?\/links-dest\?doc=[\w-]+)/,
        'the link',
      );
      if (!href.endsWith(REPORT_DOC)) throw new Error(`took ${href} for the 2025 report`);
      await d.open(new URL(href, url('')).href);
    },
  },
];
