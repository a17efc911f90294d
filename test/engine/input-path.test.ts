// The one input path: lint refuses a raw Input.* send anywhere but shared/engine/input.ts, and the clipboard rule
// there knows every spelling of paste, copy and cut a key event can carry.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clipboardKey, type KeyInput } from '../../shared/engine/input.js';
import { MODIFIER_BITS, parseCombo } from '../../shared/engine/keys.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const RAW_SENDS = `
export async function nudge(page: { cdp: { send(method: string, params?: object): Promise<unknown> } }): Promise<void> {
  await page.cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'v', modifiers: 2 });
  await page.cdp.send(\`Input.insertText\`, { text: 'x' });
  const method = 'Input.dispatchMouseEvent';
  await page.cdp.send(method, { type: 'mousePressed', x: 1, y: 1 });
}
`;

async function rawInputProblems(filePath: string): Promise<number[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(RAW_SENDS, { filePath: `${ROOT}${filePath}` });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.line);
}

describe('one input path', () => {
  it('fails lint for a raw Input.* send in an op, the extension or the core, and not in the input module', async () => {
    for (const file of [
      'shared/engine/ops/new-op.ts',
      'shared/engine/page-context.ts',
      'extension/src/new-file.ts',
      'electron/core/new-file.ts',
    ]) {
      expect(await rawInputProblems(file), file).toEqual([3, 4, 5]);
    }
    expect(await rawInputProblems('shared/engine/input.ts')).toEqual([]);
  });

  it('names every paste, copy and cut key press, and no other', () => {
    const press = (combo: string, commands?: string[]): KeyInput => {
      const { modifiers, key } = parseCombo(combo);
      const bits = modifiers.reduce((sum, modifier) => sum | MODIFIER_BITS[modifier], 0);
      const base = { kind: 'key', type: 'rawKeyDown', location: 0, modifiers: bits } as const;
      return {
        ...base,
        key: key.key,
        code: key.code,
        windowsVirtualKeyCode: key.keyCode,
        nativeVirtualKeyCode: key.keyCode,
        ...(commands ? { commands } : {}),
      };
    };
    const named = [
      'Control+V',
      'Meta+c',
      'Control+X',
      'Shift+Insert',
      'Control+Insert',
      'Shift+Delete',
      'Control+Shift+V',
      'Meta+Alt+x',
    ].map((combo) => clipboardKey(press(combo)));
    expect(named).toEqual([
      'Control+V',
      'Meta+C',
      'Control+X',
      'Shift+Insert',
      'Control+Insert',
      'Shift+Delete',
      'Control+Shift+V',
      'Alt+Meta+X',
    ]);
    expect(clipboardKey(press('a', ['paste']))).toBe('A');
    for (const combo of [
      'v',
      'Shift+V',
      'Alt+V',
      'Control+A',
      'Delete',
      'Insert',
      'Control+Delete',
      'Enter',
      'Meta+Enter',
    ]) {
      expect(clipboardKey(press(combo)), combo).toBeUndefined();
    }
    expect(clipboardKey(press('Control+A', ['selectAll']))).toBeUndefined();
    expect(clipboardKey({ ...press('Control+V'), type: 'keyUp' })).toBeUndefined();
    expect(
      clipboardKey({
        ...press('Control'),
        key: 'v',
        code: 'KeyV',
        windowsVirtualKeyCode: 86,
        modifiers: MODIFIER_BITS.Control,
      }),
    ).toBe('Control+V');
  });
});
