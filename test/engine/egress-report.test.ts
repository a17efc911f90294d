// How held requests read in an eval result: by method and masked URL, and a request whose method the browser did not
// name (a window the extension's rules blocked) says so rather than guess one, and one with no address says that.
import { describe, expect, it } from 'vitest';
import { egressData, egressNote } from '../../shared/engine/egress-report.js';

describe('held requests in a result', () => {
  it('names the method the browser gave', () => {
    const late = [{ method: 'POST', url: 'https://w.test/form-late', kind: 'navigation' }];
    expect(egressData({ held: [], late }).heldLater).toEqual(['POST https://w.test/form-late (navigation)']);
  });

  it('says plainly when the method is not known, in the data and in the note', () => {
    const late = [{ url: 'https://w.test/form-late?key=secret', kind: 'navigation' }];
    const entry = 'https://w.test/form-late?key=[redacted 6 chars] (navigation, method not known)';
    expect(egressData({ held: [], late }).heldLater).toEqual([entry]);
    expect(egressNote({ held: [], late })).toContain(`: ${entry}. `);
  });

  it('says so when not even the address is known (a request a stopped worker alone was told of)', () => {
    const late = [{ url: '', kind: 'paused as the extension stopped' }];
    expect(egressData({ held: [], late }).heldLater).toEqual([
      'a request whose address was not told (paused as the extension stopped)',
    ]);
  });
});
