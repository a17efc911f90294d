// In-page reading for read_as_markdown and extract_links: what the frame shows, as plain HTML, and its links.

export interface ReadableDocument {
  title: string;
  /** The shown content as HTML: no code, no form controls or their values, only attributes that carry no data. */
  html: string;
  /** The HTML stopped at the caller's maximum. */
  cut: boolean;
}

export interface PageLink {
  text: string;
  href: string;
}

export interface LinkList {
  links: PageLink[];
  /** Distinct shown links in this frame that pass the filter, before the limit. */
  total: number;
}

/**
 * The frame's shown content as HTML for a readability library to work on (in the engine, on a DOM of its own).
 * Walks the flat tree (open shadow roots, slots) and leaves out what is not shown (display:none, hidden text) and what
 * holds data the page never shows: scripts, styles, templates, form controls (a password, a hidden input, a typed
 * value), frames (each is read on its own), and every attribute but the few that name structure or a link. Links
 * and images are written absolute; `javascript:` and `data:` ones are dropped.
 */
export function readableHtml(maxChars: number): ReadableDocument {
  const skip = new Set([
    'script',
    'style',
    'noscript',
    'template',
    'head',
    'iframe',
    'frame',
    'object',
    'embed',
    'canvas',
    'svg',
    'input',
    'textarea',
    'select',
    'button',
    'option',
    'link',
    'meta',
  ]);
  const kept = ['id', 'class', 'role', 'alt', 'title', 'colspan', 'rowspan', 'datetime', 'lang'];
  const linkable = /^(https?|mailto|tel|ftp):/i;
  const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const escapeValue = (text: string) => escapeText(text).replace(/"/g, '&quot;');
  const ours = __cm.indicatorHost();
  const parts: string[] = [];
  let size = 0;
  let cut = false;
  const push = (text: string) => {
    parts.push(text);
    size += text.length;
    if (size > maxChars) cut = true;
  };
  const walk = (element: Element) => {
    if (cut || skip.has(element.localName) || element === ours) return;
    // An open <dialog> is shown, a closed one is not: its `open` decides, not its tag.
    if (element.localName === 'dialog' && !(element as HTMLDialogElement).open) return;
    const style = getComputedStyle(element);
    if (style.display === 'none') return;
    const shown = style.visibility === 'visible';
    const tag = /^[a-z][a-z0-9-]*$/.test(element.localName) ? element.localName : 'span';
    let attributes = '';
    for (const name of kept) {
      const value = element.getAttribute(name);
      if (value !== null && value.length <= 200) attributes += ` ${name}="${escapeValue(value)}"`;
    }
    if (element instanceof HTMLAnchorElement && linkable.test(element.href))
      attributes += ` href="${escapeValue(element.href)}"`;
    if (element instanceof HTMLImageElement && /^https?:/i.test(element.currentSrc || element.src))
      attributes += ` src="${escapeValue(element.currentSrc || element.src)}"`;
    push(`<${tag}${attributes}>`);
    if (style.contentVisibility !== 'hidden') {
      for (const child of Array.from(__cm.flatChildren(element))) {
        if (child.nodeType === Node.TEXT_NODE) {
          if (shown) push(escapeText((child as Text).data));
        } else if (child.nodeType === Node.ELEMENT_NODE) {
          walk(child as Element);
        }
      }
    }
    if (!['img', 'br', 'hr', 'wbr', 'area', 'source', 'col'].includes(tag)) push(`</${tag}>`);
  };
  const body = document.body;
  if (body && (innerWidth > 0 || innerHeight > 0)) walk(body);
  const html = `<!doctype html><html><head><title>${escapeText(document.title)}</title></head>${parts.join('')}</html>`;
  return { title: document.title, html, cut };
}

/**
 * The frame's shown links in document order (shadow DOM included), absolute, each href once (with the first text it
 * has), those whose text or href contains `filter` (any case) when one is given; up to `limit`.
 */
export function pageLinks(filter: string | null, limit: number): LinkList {
  const needle = filter?.toLowerCase() ?? '';
  const seen = new Map<string, PageLink>();
  for (const element of __cm.deepQueryAll(document, 'a[href], area[href]')) {
    const href = (element as HTMLAnchorElement).href;
    if (!/^(https?|mailto|tel|ftp):/i.test(href)) continue;
    if (element.localName === 'a' && !element.checkVisibility({ visibilityProperty: true })) continue;
    const text = __cm.accessibleName(element).slice(0, 200);
    const known = seen.get(href);
    if (known) {
      if (!known.text) known.text = text;
      continue;
    }
    seen.set(href, { text, href });
  }
  const matching = [...seen.values()].filter(
    (link) => !needle || link.text.toLowerCase().includes(needle) || link.href.toLowerCase().includes(needle),
  );
  return { links: matching.slice(0, limit), total: matching.length };
}
