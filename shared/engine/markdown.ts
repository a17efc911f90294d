// A frame's shown HTML as Markdown, by well-kept libraries: Readability finds the main content, turndown writes it.
// Both run here, in the engine, on linkedom's DOM, because the engine runs where no DOM exists (the extension's
// service worker) as well as in Node.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom/worker';
import TurndownService from 'turndown';

export interface PageMarkdown {
  /** `# title`, then the content. */
  text: string;
  /** Readability found an article; false: the whole shown page was written instead. */
  article: boolean;
}

// Below this many characters of text, what Readability kept is not the page's content (an app shell, a login box):
// the whole shown page says more.
const MIN_ARTICLE_CHARS = 200;

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // No Markdown escaping: the reader is a model, and an escape inside a word (`ghp\_…`, `api\_key=`) would hide a
  // secret's shape from the redaction every result passes through.
  service.escape = (text) => text;
  // An image without a description tells the model nothing but its address.
  service.addRule('bare-image', {
    filter: (node) => node.nodeName === 'IMG' && !node.getAttribute('alt'),
    replacement: () => '',
  });
  return service;
}

/** The Markdown of `html` (from the page library's readableHtml): its main content if it has one, else all of it. */
export function toMarkdown(html: string, pageTitle: string): PageMarkdown {
  const { document } = parseHTML(html);
  // Readability is typed against the browser's DOM; linkedom implements the part it uses.
  const found = new Readability<Node>(document as unknown as Document, { serializer: (node) => node }).parse();
  const title = (found?.title ?? '').trim() || pageTitle.trim();
  const heading = title ? `# ${title}\n\n` : '';
  if (found?.content && (found.textContent ?? '').trim().length >= MIN_ARTICLE_CHARS) {
    const byline = found.byline?.trim() ? `${found.byline.trim()}\n\n` : '';
    return { text: heading + byline + convert(found.content), article: true };
  }
  // Readability took the document apart while it searched: the whole page comes from a fresh parse.
  const body = parseHTML(html).document.body as unknown as Node | null;
  return { text: heading + (body ? convert(body) : ''), article: false };
}

function convert(node: Node): string {
  return turndown()
    .turndown(node as TurndownService.Node)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
