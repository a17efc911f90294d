// WebSockets a timer of the agent's script opens through a frame it has just inserted, in the same task, through the
// real extension (as the engine's egress-socket-frames test does in the fallback): no handshake reaches the site.
import { describe, it } from 'vitest';
import { frameSocketCase } from '../support/late-frame-sockets.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('sockets opened at once through a frame a timer of the script inserts stay held, through the extension', () => {
  it('a blank frame reached as frames[n]', () => frameSocketCase('frames-index')(egress));

  it('a blank frame reached as its contentWindow', () => frameSocketCase('content-window')(egress));

  it('a srcdoc frame’s first realm, through WebSocketStream', () => frameSocketCase('srcdoc-stream')(egress));

  it('a same-origin frame’s first realm', () => frameSocketCase('same-origin')(egress));
});
