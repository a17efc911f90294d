// WebSockets a timer of the agent's script opens through a frame it has just inserted, in the same task, on real
// Chromium: the frame's realm is new and its constructors unarmed, yet no handshake reaches the refused site.
import { describe, it } from 'vitest';
import { frameSocketCase } from '../support/late-frame-sockets.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab();

describe('sockets opened at once through a frame a timer of the script inserts stay held', () => {
  it('a blank frame reached as frames[n]', () => frameSocketCase('frames-index')(engine));

  it('a blank frame reached as its contentWindow', () => frameSocketCase('content-window')(engine));

  it('a srcdoc frame’s first realm, through WebSocketStream', () => frameSocketCase('srcdoc-stream')(engine));

  it('a same-origin frame’s first realm', () => frameSocketCase('same-origin')(engine));
});
