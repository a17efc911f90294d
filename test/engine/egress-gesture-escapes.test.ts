// A timer the agent's script leaves clicks an element whose listener is the page's own, on real Chromium
// (late-gesture-escapes.ts): what that listener sends is the script's, held and named; the page's own clicks still send.
import { describe, it } from 'vitest';
import { lateGestureEscapes } from '../support/late-gesture-escapes.js';
import { watchedEngineTab } from '../support/watched-engine-tab.js';

const engine = watchedEngineTab({ popups: true });

describe('our watch', () => {
  it('is not seen by the page', () => lateGestureEscapes.unseen(engine), 60_000);
});

describe('a timer of the script’s clicks a link whose listener is the page’s', () => {
  it('a plain function sending later: held, and named', () => lateGestureEscapes.plain(engine), 60_000);

  it('a bound function sending later: held, and named', () => lateGestureEscapes.bound(engine), 60_000);

  it('an object with handleEvent sending later: held, and named', () => lateGestureEscapes.handleEvent(engine), 60_000);

  it(
    'a label whose forwarded click the listener hears, sending later: held, and named',
    () => lateGestureEscapes.label(engine),
    60_000,
  );

  it(
    'a native function (a bound postMessage) sending later: held, and named',
    () => lateGestureEscapes.native(engine),
    60_000,
  );
});

describe('the page’s own, after an eval', () => {
  it('its timer clicking the same link: it sends', () => lateGestureEscapes.pageOwnClick(engine), 60_000);
});
