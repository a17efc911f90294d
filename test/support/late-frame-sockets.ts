// The late-socket cases both backends run: a timer the agent's eval leaves inserts a frame and, in the same task, opens
// WebSockets through the frame's new realm, whose constructors nobody armed yet; none may reach the watched site.
import { expect } from 'vitest';
import type { LateTab } from './late-tab.js';

/** How the timer reaches the new frame's realm. */
export type FrameSocket = 'frames-index' | 'content-window' | 'srcdoc-stream' | 'same-origin';

// Several sockets per frame, so a run where one handshake beats the rule shows; then one more in the page's own realm,
// whose constructor must still pause once the frame's realm is armed.
const SOCKETS = 3;

/** The statements that insert the frame `frame` and name its realm `realm`. */
const INSERTS: Record<FrameSocket, string> = {
  'frames-index': `document.body.appendChild(document.createElement('iframe')); const realm = frames[frames.length - 1];`,
  'content-window': `const frame = document.createElement('iframe'); document.body.append(frame);
    const realm = frame.contentWindow;`,
  'srcdoc-stream': `const frame = Object.assign(document.createElement('iframe'), { srcdoc: '<p>later</p>' });
    document.body.append(frame); const realm = frame.contentWindow;`,
  'same-origin': `const frame = Object.assign(document.createElement('iframe'), { src: location.href });
    document.body.append(frame); const realm = frame.contentWindow;`,
};

/** The eval's script: a timer that inserts the frame, opens sockets to `base` + i in its realm, then `base`-top. */
export function frameSockets(kind: FrameSocket, base: string, marker: string): string {
  const url = `${JSON.stringify(base)} + i + '?secret=' + encodeURIComponent(document.title)`;
  const open =
    kind === 'srcdoc-stream'
      ? `new realm.WebSocketStream(${url}).closed.catch(() => undefined).then(closed)`
      : `new realm.WebSocket(${url}).onclose = closed`;
  const own = `new WebSocket(${JSON.stringify(`${base}-top`)}).onclose = closed`;
  return `setTimeout(() => { let count = 0; const closed = () => { if (++count === ${SOCKETS + 1}) window.${marker} = true; };
    ${INSERTS[kind]} for (let i = 0; i < ${SOCKETS}; i++) ${open}; ${own}; }, 300); 1`;
}

/** The case's whole body on a backend's tab: no handshake reaches the site, the next result names each socket held. */
export function frameSocketCase(kind: FrameSocket) {
  return async (tab: LateTab): Promise<void> => {
    const marker = `sockets_${kind.replace('-', '_')}`;
    const base = `${tab.watched.origin.replace('http', 'ws')}/${kind}`;
    await tab.run(frameSockets(kind, base, marker));
    await tab.until(marker);
    expect(await tab.reached()).toEqual([]);
    const named = tab.heldLater(await tab.run('1')).filter((entry) => entry.includes(`/${kind}`));
    expect(named).toHaveLength(SOCKETS + 1);
  };
}
