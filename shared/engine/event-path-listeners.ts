// The listeners the page's own world has on the path of an event our isolated-world watch is paused in.
//
// DOMDebugger.getEventListeners lists only the listeners of the world its object belongs to (measured on Chromium 156:
// a node reached through an isolated world's wrapper lists none of the page's), so each target on the path is resolved
// into its frame's main world first. There a native listener (a bound postMessage, `fetch.bind(…)`) is listed too, as
// script 0.
import type { Cdp } from './cdp.js';
import { nodeInMainWorld } from './main-world.js';

const GROUP = 'chrome-mcp-event-path';

export interface PathListener {
  type: string;
  scriptId: string;
}

interface Property {
  name: string;
  value?: { objectId?: string; value?: unknown };
}

/**
 * The event's type, and the listeners of the page's world on every target of its composed path (the window's too),
 * read at the paused call frame `callFrameId` where `event` is the event. Undefined when the path cannot be read.
 */
export async function pathListeners(
  cdp: Cdp,
  sessionId: string | undefined,
  callFrameId: string | undefined,
): Promise<{ type: unknown; listeners: PathListener[] } | undefined> {
  try {
    const { result } = await cdp.send<{ result: { objectId?: string } }>(
      'Debugger.evaluateOnCallFrame',
      {
        callFrameId,
        expression: '[event.type, ...event.composedPath().filter((target) => target instanceof Node)]',
        objectGroup: GROUP,
        silent: true,
      },
      sessionId,
    );
    if (result.objectId === undefined) return undefined;
    const { result: items } = await cdp.send<{ result: Property[] }>(
      'Runtime.getProperties',
      { objectId: result.objectId, ownProperties: true },
      sessionId,
    );
    const entries = items.filter((item) => /^\d+$/.test(item.name)).sort((a, b) => Number(a.name) - Number(b.name));
    const nodes = entries.slice(1).flatMap((item) => item.value?.objectId ?? []);
    const resolved = await Promise.all(nodes.map((objectId) => nodeInMainWorld(cdp, sessionId, objectId, GROUP)));
    const inPage = resolved.filter((objectId) => objectId !== undefined);
    // The window is no node: reached from the document's own object, in the page's world.
    const window = inPage.length > 0 ? await windowOf(cdp, sessionId, inPage[inPage.length - 1]!) : undefined;
    const listed = await Promise.all(
      [...inPage, ...(window ? [window] : [])].map((objectId) =>
        cdp.send<{ listeners: PathListener[] }>('DOMDebugger.getEventListeners', { objectId }, sessionId),
      ),
    );
    return { type: entries[0]?.value?.value, listeners: listed.flatMap(({ listeners }) => listeners) };
  } catch {
    return undefined;
  } finally {
    void cdp.send('Runtime.releaseObjectGroup', { objectGroup: GROUP }, sessionId).catch(() => undefined);
  }
}

async function windowOf(cdp: Cdp, sessionId: string | undefined, objectId: string): Promise<string | undefined> {
  const { result } = await cdp.send<{ result: { objectId?: string } }>(
    'Runtime.callFunctionOn',
    {
      objectId,
      functionDeclaration: 'function () { return (this.ownerDocument ?? this).defaultView; }',
      objectGroup: GROUP,
    },
    sessionId,
  );
  return result.objectId;
}
