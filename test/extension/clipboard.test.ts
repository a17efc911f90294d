// Clipboard keys inside the real extension, through the core's bridge: paste, copy and cut combos are refused
// (CLIPBOARD_REFUSED) on a site allowed only to act, before any key reaches the page; a trusted site gets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Policy } from '../../shared/policy/policy.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { ACT, CLIPBOARD_COMBOS, keysSeen, TRUSTED } from '../support/clipboard-keys.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';

let policy: Policy = ACT;
let linked: LinkedExtension;

beforeAll(async () => {
  linked = await startLinkedExtension({ policy: () => policy });
});
afterAll(async () => {
  await linked?.close();
});

function change(next: Policy): void {
  policy = next;
  linked.bridge.policyChanged();
}

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'sent',
    (error: unknown) => (error instanceof ToolError ? error.code : String(error)),
  );

describe('clipboard keys through the extension', () => {
  it('are refused on a site allowed to act, and no key of them reaches the page', async () => {
    change(ACT);
    await linked.run('tab_new', { url: linked.fixtures.url('clipboard-keys.html') });
    for (const keys of CLIPBOARD_COMBOS)
      expect(await code(linked.run('press', { selector: '#name', keys })), keys).toBe('CLIPBOARD_REFUSED');
    expect(await code(linked.run('press', { selector: '#name', keys: 'Control+A' }))).toBe('sent');
    expect(await keysSeen((op, args) => linked.run(op, args))).toEqual(['Control+a']);
  });

  it('are sent on a trusted site', async () => {
    change(TRUSTED);
    await linked.run('tab_new', { url: linked.fixtures.url('clipboard-keys.html') });
    for (const keys of ['Control+V', 'Shift+Insert'])
      expect(await code(linked.run('press', { selector: '#name', keys })), keys).toBe('sent');
    expect(await keysSeen((op, args) => linked.run(op, args))).toEqual(['Control+v', 'Shift+Insert']);
  });
});
