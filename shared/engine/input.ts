// The one way the engine's mouse, key and text input reaches a page: focus emulation, the clipboard rule and the gate
// on risky acts are applied here, so no op can send input that skips them (lint refuses raw Input.* sends elsewhere).
import { ToolError } from '../protocol/errors.js';
import type { Cdp } from './cdp.js';
import { focusedField } from './focused-field.js';
import type { Frame, FrameRegistry } from './frames.js';
import type { Point } from './geometry.js';
import { MODIFIER_BITS, type Modifier } from './keys.js';
import type { PolicyGate } from './policy-gate.js';
import type { ControlVerdict } from './page/commit-control.js';
import type { Presence } from './presence.js';
import type { ElementHandle } from './targets.js';

/**
 * What an act activates: an element (with the gate's verdict on it when the op's own page call already read it), a
 * point in a frame (a click by x,y), or whatever has focus in a frame (a key).
 */
export type Activated = { handle: ElementHandle; verdict?: ControlVerdict } | { frame?: Frame; point?: Point };

export interface MouseInput {
  kind: 'mouse';
  type: 'mouseMoved' | 'mousePressed' | 'mouseReleased';
  x: number;
  y: number;
  button?: 'none' | 'left' | 'right' | 'middle';
  buttons?: number;
  clickCount?: number;
  modifiers?: number;
}

export interface KeyInput {
  kind: 'key';
  type: 'keyDown' | 'rawKeyDown' | 'keyUp';
  key: string;
  code: string;
  windowsVirtualKeyCode: number;
  nativeVirtualKeyCode: number;
  location: number;
  modifiers: number;
  text?: string;
  unmodifiedText?: string;
  /** Editing commands the key runs (Chrome's own names: selectAll, paste…). */
  commands?: string[];
}

export interface TextInput {
  kind: 'text';
  text: string;
}

/** What an intercepted HTML5 drag carries (CDP Input.DragData): the items the page's dragstart put in. */
export interface DragData {
  items: { mimeType: string; data: string; title?: string; baseURL?: string }[];
  files?: string[];
  dragOperationsMask: number;
}

/** An HTML5 drag event, in top-viewport CSS px: the browser hit-tests it into whichever frame is under the point. */
export interface DragInput {
  kind: 'drag';
  type: 'dragEnter' | 'dragOver' | 'drop' | 'dragCancel';
  x: number;
  y: number;
  data: DragData;
}

export type InputEvent = MouseInput | KeyInput | TextInput | DragInput;

const METHODS: Record<InputEvent['kind'], string> = {
  mouse: 'Input.dispatchMouseEvent',
  key: 'Input.dispatchKeyEvent',
  text: 'Input.insertText',
  drag: 'Input.dispatchDragEvent',
};

export interface InputTarget {
  /** The session the events go to: an out-of-process frame's for a point in it; the tab's (undefined) for keys and text. */
  sessionId?: string | undefined;
  /** The frame the input lands in, when known; keys with none land where focus is, and are judged there. */
  frame?: Frame | undefined;
  /** Input that leads up to the act without committing it (the text before `type`'s Enter): judged from the next on. */
  leadIn?: boolean;
  /**
   * Each event waits for the browser to take the one before, for events it routes one by one: a drag event may land in
   * another frame, which the browser finds before it sends the event on.
   */
  paced?: boolean;
}

/** The gate's side of one act (gate/act-window.ts), as input sees it. */
export interface InputWindow {
  note(activated: Activated): void;
  /** Whether an act in `frame` is judged here (its site is not trusted): the op then reads the verdict with its aim. */
  judges(frame: Frame): boolean;
  /** Resolves once the tab pauses sends and what the input activates has been read; throws when it could not be armed. */
  beforeInput(): Promise<void>;
}

/** Per tab, on its PageContext: the act windows open on it, and its focus emulation. */
export class PageInput {
  /** The act gate has the tab's sessions widened (gate/tab-gate.ts): other layers leave Network on meanwhile. */
  gateWidened = false;
  private readonly windows: InputWindow[] = [];
  private lastClosed = -Infinity;
  private focus: Promise<void> | undefined;
  /** Input sends answered on this tab, and how many of them a page call on its own session had followed. */
  private sent = 0;
  private readAfter = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly cdp: Cdp,
    private readonly frames: FrameRegistry,
    private readonly gate: PolicyGate,
    private readonly presence: Presence,
  ) {
    // A new attach (after a detach) needs focus emulation turned on again.
    this.unsubscribe = cdp.on((event) => {
      if (event.method === 'Inspector.detached') this.focus = undefined;
    });
  }

  /** An act window opens on the tab (the executor, around a risky act); the returned function closes it. */
  enter(window: InputWindow): () => void {
    this.windows.push(window);
    return () => {
      const index = this.windows.indexOf(window);
      if (index >= 0) this.windows.splice(index, 1);
      this.lastClosed = Date.now();
    };
  }

  /** An act window is open on the tab, or closed less than `ms` ago: what the page does now may be the act's doing. */
  actingWithin(ms: number): boolean {
    return this.windows.length > 0 || Date.now() - this.lastClosed < ms;
  }

  /** An op names what its input will activate, as early as it knows, so the DOM is read while its own checks run. */
  note(activated: Activated): void {
    this.windows.at(-1)?.note(activated);
  }

  /** An open act window judges an act in `frame`: an op that reads the element anyway reads the gate's verdict too. */
  judges(frame: Frame): boolean {
    return this.windows.at(-1)?.judges(frame) ?? false;
  }

  /**
   * For an act done by a page call rather than input (fill_form's values, select_option): awaited right before it,
   * so the gate judges what it sends. Input sent through `send` needs no such call.
   */
  beforeAct(): Promise<void> {
    return this.windows.at(-1)?.beforeInput() ?? Promise.resolve();
  }

  /**
   * Focus emulation: a background tab drops CDP mouse and key input, and renders no frames (scroll events, lazy
   * loading), unless the page believes it has focus (seed 003). Turned on once per attach; the tab is never activated,
   * so the person's foreground tab stays where it is. `send` awaits it; an op that needs frames before input calls it.
   */
  focused(): Promise<void> {
    this.focus ??= this.cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true }).then(
      () => undefined,
      (error: unknown) => {
        this.focus = undefined;
        throw error;
      },
    );
    return this.focus;
  }

  /**
   * Sends the events in order, all queued at once (one session keeps their order, and a discrete event flushes a mouse
   * move the renderer would hold for its next frame). Before any goes out: focus emulation, the clipboard rule, and the
   * act window's arming; an Escape of ours is told to the presence so it is not taken for the person's stop.
   * `behind`: run once the events are queued, before the browser answered them (a read-back sent right behind them).
   */
  async send(events: InputEvent[], target: InputTarget = {}, behind?: () => void): Promise<void> {
    await this.focused();
    const clipboard = events.map(clipboardKey).find((name) => name !== undefined);
    if (clipboard) await this.refuseClipboard(clipboard, target.frame);
    if (!target.leadIn) await this.beforeAct();
    const one = (event: InputEvent) => this.cdp.send(METHODS[event.kind], paramsOf(event), target.sessionId);
    const dispatch = async () => {
      if (!target.paced) {
        const answered = Promise.all(events.map(one));
        behind?.();
        return void (await answered);
      }
      for (const event of events) await one(event);
      behind?.();
    };
    const escape = events.some((event) => event.kind === 'key' && event.key === 'Escape');
    try {
      await (escape ? this.presence.ownKeys('Escape', dispatch) : dispatch());
    } finally {
      this.sent++;
    }
  }

  /** How many input sends have gone out: a mark for `readSince`. */
  mark(): number {
    return this.sent;
  }

  /**
   * An op read the page back in `frame` after its input answered (type's check that the text landed). On the tab's
   * own session that call was a round trip through its renderer after the input, which is what url-watch's flush is.
   */
  readBack(frame: Frame): void {
    if (frame.sessionId === undefined) this.readAfter = this.sent;
  }

  /** Input went out since `mark`, and a page call on the tab's session followed the last of it. */
  readSince(mark: number): boolean {
    return this.sent > mark && this.readAfter === this.sent;
  }

  /**
   * Runs `run` with HTML5 drags intercepted in the tab: a drag the page starts is handed over as its data (`started`
   * resolves with it) instead of entering the platform's drag loop, which CDP mouse input cannot drive in a headed
   * Chrome. The drag is then carried on with drag events through `send`. Only the tab's own session takes the setting,
   * and the event comes there, for a drag started in any of its frames (measured, Chromium 156).
   */
  async interceptingDrags<T>(run: (started: Promise<DragData>) => Promise<T>): Promise<T> {
    let off: () => void = () => undefined;
    const started = new Promise<DragData>((resolve) => {
      off = this.cdp.on((event) => {
        if (event.method === 'Input.dragIntercepted' && event.sessionId === undefined)
          resolve(event.params['data'] as DragData);
      });
    });
    try {
      await this.cdp.send('Input.setInterceptDrags', { enabled: true });
      return await run(started);
    } finally {
      off();
      await this.cdp.send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
    }
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** Paste, copy and cut read or overwrite the person's clipboard: only where the frame the keys land in is trusted. */
  private async refuseClipboard(name: string, frame: Frame | undefined): Promise<void> {
    const where = frame ?? (await focusedField(this.frames)).frame;
    const place = this.frames.placeOf(where);
    const decision = this.gate.decide(place, 'trusted');
    if (decision.allowed) return;
    const at = where.ordinal === 0 ? decision.site : `frame f${where.ordinal} (${decision.site})`;
    throw new ToolError(
      'CLIPBOARD_REFUSED',
      `${name} was not sent: it would read or overwrite the person's clipboard, and ${at} is not trusted.`,
    );
  }
}

// Chrome's editing commands that touch the clipboard: copy, cut, paste, pasteAndMatchStyle.
const CLIPBOARD_COMMAND = /^(?:copy|cut|paste)/i;
const CLIPBOARD_LETTERS = new Set(['v', 'c', 'x']);

/**
 * The combo a key press names when it is a clipboard key: Control or Meta with V, C or X (any other modifier too:
 * Control+Shift+V pastes as plain text), Shift+Insert, Control+Insert, Shift+Delete, or a clipboard editing command.
 * Judged by key, code and key code alike: Chrome maps shortcuts by the key code, a page reads the key.
 */
export function clipboardKey(event: InputEvent): string | undefined {
  if (event.kind !== 'key' || event.type === 'keyUp') return undefined;
  const held = (modifier: Modifier) => (event.modifiers & MODIFIER_BITS[modifier]) !== 0;
  const letter = [
    event.key.toLowerCase(),
    event.code.replace(/^Key/, '').toLowerCase(),
    String.fromCharCode(event.windowsVirtualKeyCode).toLowerCase(),
  ];
  const is = (name: string, keyCode: number) =>
    event.key === name || event.code === name || event.windowsVirtualKeyCode === keyCode;
  const clipboard =
    ((held('Control') || held('Meta')) && letter.some((each) => CLIPBOARD_LETTERS.has(each))) ||
    (is('Insert', 45) && (held('Shift') || held('Control'))) ||
    (is('Delete', 46) && held('Shift')) ||
    (event.commands ?? []).some((command) => CLIPBOARD_COMMAND.test(command));
  if (!clipboard) return undefined;
  const modifiers = (['Control', 'Alt', 'Meta', 'Shift'] as const).filter(held);
  return [...modifiers, event.key.length === 1 ? event.key.toUpperCase() : event.key].join('+');
}

function paramsOf(event: InputEvent): Record<string, unknown> {
  const { kind: _kind, ...params } = event;
  return params;
}
