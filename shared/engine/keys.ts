// Key definitions (US layout) for CDP Input.dispatchKeyEvent, and parsing of combos like Control+A or Shift+Tab.
import { ToolError } from '../protocol/errors.js';

export interface KeyDefinition {
  /** KeyboardEvent.key */
  key: string;
  /** KeyboardEvent.code */
  code: string;
  /** windowsVirtualKeyCode: what pages read as keyCode / which. */
  keyCode: number;
  /** Text the key types; absent for keys that type nothing. */
  text?: string;
  /** 1 = left modifier key, as a physical keyboard reports it. */
  location?: number;
  /** key and text with Shift held (letters, digits, punctuation). */
  shifted?: { key: string; text: string };
}

export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';

/** CDP's modifiers bit field. */
export const MODIFIER_BITS: Record<Modifier, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

export interface KeyCombo {
  modifiers: Modifier[];
  /** The main key, already shifted when the combo holds Shift. */
  key: KeyDefinition;
}

const MODIFIER_NAMES: Record<string, Modifier> = {
  alt: 'Alt',
  option: 'Alt',
  control: 'Control',
  ctrl: 'Control',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
  shift: 'Shift',
};

const NAME_ALIASES: Record<string, string> = {
  esc: 'escape',
  return: 'enter',
  del: 'delete',
  space: ' ',
  spacebar: ' ',
  up: 'arrowup',
  down: 'arrowdown',
  left: 'arrowleft',
  right: 'arrowright',
  pgup: 'pageup',
  pgdn: 'pagedown',
  ins: 'insert',
  ...Object.fromEntries(Object.entries(MODIFIER_NAMES).map(([alias, name]) => [alias, name.toLowerCase()])),
};

// [unshifted, shifted, code, keyCode] for the printable keys that are not letters.
const PUNCTUATION: [string, string, string, number][] = [
  ['0', ')', 'Digit0', 48],
  ['1', '!', 'Digit1', 49],
  ['2', '@', 'Digit2', 50],
  ['3', '#', 'Digit3', 51],
  ['4', '$', 'Digit4', 52],
  ['5', '%', 'Digit5', 53],
  ['6', '^', 'Digit6', 54],
  ['7', '&', 'Digit7', 55],
  ['8', '*', 'Digit8', 56],
  ['9', '(', 'Digit9', 57],
  [';', ':', 'Semicolon', 186],
  ['=', '+', 'Equal', 187],
  [',', '<', 'Comma', 188],
  ['-', '_', 'Minus', 189],
  ['.', '>', 'Period', 190],
  ['/', '?', 'Slash', 191],
  ['`', '~', 'Backquote', 192],
  ['[', '{', 'BracketLeft', 219],
  ['\\', '|', 'Backslash', 220],
  [']', '}', 'BracketRight', 221],
  ["'", '"', 'Quote', 222],
];

const NAMED: KeyDefinition[] = [
  { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  { key: 'Tab', code: 'Tab', keyCode: 9 },
  { key: 'Escape', code: 'Escape', keyCode: 27 },
  { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  { key: 'Delete', code: 'Delete', keyCode: 46 },
  { key: 'Insert', code: 'Insert', keyCode: 45 },
  { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  { key: 'Home', code: 'Home', keyCode: 36 },
  { key: 'End', code: 'End', keyCode: 35 },
  { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
  { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
  ...Array.from({ length: 12 }, (_, i) => ({ key: `F${i + 1}`, code: `F${i + 1}`, keyCode: 112 + i })),
];

/** Every key by lower-cased name, plus printable characters by the exact character they type. */
const BY_NAME = new Map<string, KeyDefinition>(NAMED.map((definition) => [definition.key.toLowerCase(), definition]));
const BY_CHAR = new Map<string, KeyDefinition>();
for (let i = 0; i < 26; i++) {
  const lower = String.fromCharCode(97 + i);
  const upper = lower.toUpperCase();
  const code = `Key${upper}`;
  BY_CHAR.set(lower, { key: lower, code, keyCode: 65 + i, text: lower, shifted: { key: upper, text: upper } });
  BY_CHAR.set(upper, { key: upper, code, keyCode: 65 + i, text: upper });
}
for (const [plain, shifted, code, keyCode] of PUNCTUATION) {
  BY_CHAR.set(plain, { key: plain, code, keyCode, text: plain, shifted: { key: shifted, text: shifted } });
  BY_CHAR.set(shifted, { key: shifted, code, keyCode, text: shifted });
}

export function modifierKey(modifier: Modifier): KeyDefinition {
  return BY_NAME.get(modifier.toLowerCase())!;
}

/** The key a name or character stands for: `Enter`, `esc`, `F5`, `a`, `A`, `!`. */
export function keyDefinition(name: string): KeyDefinition | undefined {
  if (name.length === 1 && BY_CHAR.has(name)) return BY_CHAR.get(name);
  const lower = name.toLowerCase();
  return BY_NAME.get(NAME_ALIASES[lower] ?? lower);
}

/** Parses `Control+Shift+K`, `Meta+Enter`, `Control++`, `a`. A letter in a chord names the key, whatever its case. */
export function parseCombo(combo: string): KeyCombo {
  const modifiers: Modifier[] = [];
  let rest = combo;
  for (let match = /^([A-Za-z]+)\+(.+)$/s.exec(rest); match; match = /^([A-Za-z]+)\+(.+)$/s.exec(rest)) {
    const modifier = MODIFIER_NAMES[match[1]!.toLowerCase()];
    if (!modifier) break;
    if (!modifiers.includes(modifier)) modifiers.push(modifier);
    rest = match[2]!;
  }
  const chord = modifiers.length > 0 && /^[A-Za-z]$/.test(rest) ? rest.toLowerCase() : rest;
  const base = keyDefinition(chord);
  if (!base) {
    throw new ToolError('BAD_ARGS', `Unknown key "${rest}" in "${combo}".`, {
      next: 'Use a key name (Enter, Tab, Escape, Backspace, Delete, ArrowUp, Home, PageDown, F5, Space) or one character, joined by + to Control, Shift, Alt or Meta.',
    });
  }
  const key = modifiers.includes('Shift') && base.shifted ? { ...base, ...base.shifted } : base;
  return { modifiers, key };
}
