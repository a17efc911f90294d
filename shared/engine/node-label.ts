// An element a trace named by its backend node id, as a developer finds it in the Elements panel: tag, id, classes.
import type { PageContext } from './page-context.js';

const LABEL_CHARS = 80;

/** `sessionId`: the session of the element's frame (undefined: the tab's own). Undefined when it is gone. */
export async function nodeLabel(
  page: PageContext,
  backendNodeId: number,
  sessionId: string | undefined,
): Promise<string | undefined> {
  try {
    const { node } = await page.cdp.send<{ node: { localName: string; attributes?: string[] } }>(
      'DOM.describeNode',
      { backendNodeId },
      sessionId,
    );
    const list = node.attributes ?? [];
    const attribute = (name: string) => {
      const at = list.findIndex((value, i) => i % 2 === 0 && value === name);
      return at < 0 ? undefined : list[at + 1];
    };
    const id = attribute('id');
    const classes = (attribute('class') ?? '').split(/\s+/).filter(Boolean).slice(0, 2);
    return `${node.localName || 'node'}${id ? `#${id}` : ''}${classes.map((name) => `.${name}`).join('')}`.slice(
      0,
      LABEL_CHARS,
    );
  } catch {
    // The document the trace saw is gone (the page navigated since): the element no longer exists to name.
    return undefined;
  }
}
