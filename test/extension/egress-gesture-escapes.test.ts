// A timer the agent's script leaves clicks an element whose listener is the page's own, through the real extension (as
// the engine's egress-gesture-escapes test does in the fallback, late-gesture-escapes.ts).
import { describe, it } from 'vitest';
import { lateGestureEscapes } from '../support/late-gesture-escapes.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();

describe('our watch', () => {
  it('is not seen by the page', () => lateGestureEscapes.unseen(egress), 60_000);
});

describe('a timer of the script’s clicks a link whose listener is the page’s, through the extension', () => {
  it('a plain function sending later: held, and named', () => lateGestureEscapes.plain(egress), 60_000);

  it('a bound function sending later: held, and named', () => lateGestureEscapes.bound(egress), 60_000);

  it('an object with handleEvent sending later: held, and named', () => lateGestureEscapes.handleEvent(egress), 60_000);

  it(
    'a label whose forwarded click the listener hears, sending later: held, and named',
    () => lateGestureEscapes.label(egress),
    60_000,
  );

  it(
    'a native function (a bound postMessage) sending later: held, and named',
    () => lateGestureEscapes.native(egress),
    60_000,
  );
});

describe('the page’s own, after an eval, through the extension', () => {
  it('its timer clicking the same link: it sends', () => lateGestureEscapes.pageOwnClick(egress), 60_000);
});
