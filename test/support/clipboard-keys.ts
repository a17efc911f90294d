// What the clipboard tests of both backends share: the keys that read or overwrite the clipboard, and the policies.
import type { Policy } from '../../shared/policy/policy.js';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { testServerPolicy } from './test-policy.js';

/** Paste, copy and cut, as Linux, Windows and macOS spell them (and paste as plain text). */
export const CLIPBOARD_COMBOS = [
  'Control+V',
  'Control+C',
  'Control+X',
  'Meta+V',
  'Meta+C',
  'Meta+X',
  'Shift+Insert',
  'Control+Insert',
  'Shift+Delete',
  'Control+Shift+V',
  'ctrl+v',
];

/** Both fixture sites allowed to act, neither trusted. */
export const ACT = testServerPolicy('act');
export const TRUSTED = testServerPolicy('trusted');
/** The top page (127.0.0.1) trusted, its cross-origin frames (localhost) allowed to act. */
export const TOP_TRUSTED: Policy = {
  ...ACT,
  get grants() {
    return [...testServerPolicy('trusted', ['127.0.0.1']).grants, ...testServerPolicy('act', ['localhost']).grants];
  },
};

/** The keydowns clipboard-keys.html logged, as `Control+v` (lone modifiers left out), read as the page shows them. */
export async function keysSeen(
  run: (op: 'get_text', args: Record<string, unknown>) => Promise<OperationResult>,
): Promise<string[]> {
  const text = (await run('get_text', { selector: '#log' })).text;
  return text.split(/\s+/).filter(Boolean);
}
