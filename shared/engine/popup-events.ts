// What a host and a driven tab's trail say to each other of a window the tab opened (a popup is a target of its own,
// which the tab's sessions never see): pseudo-events the host emits into the opener's stream, and what the engine
// judged the window by, which a host that lets go of its tabs keeps to follow it again.
import type { CdpEvent } from './cdp.js';
import type { Initiator } from './script-initiator.js';

/**
 * What a host tells a tab's stream when it held the first request of a window the tab's script opened (or, in Electron,
 * the load it would have started): `params` is the Send.
 */
export const POPUP_HELD = 'ChromeMcp.popupRequestHeld';

/**
 * What a host asks a tab's stream of a window the tab opened when it cannot tell the script's stack from it: the first
 * document request of one that names none (a form with a target), or any window of a host that sees no request's stack
 * (Electron's window-open handler). `params` is a PopupOpening, and the trail answers before `tell` returns.
 */
export const POPUP_OPENING = 'ChromeMcp.popupOpening';

/**
 * What a host tells a tab's stream of a request a window the tab opened makes while it still shows its first, empty
 * document (one the opener wrote into): Chrome pauses it in the opener's session while telling its initiator only in the
 * window's (measured on Chromium 156), so the window's trail tells the opener's its verdict. `params` is a WindowVerdict;
 * the event's sessionId is the opener session's the request pauses in.
 */
export const POPUP_VERDICT = 'ChromeMcp.popupRequestVerdict';

/**
 * What a host asks a tab's stream of a request of a window the tab opened: whether its initiator's stack names code of
 * the tab's script (code it compiled names itself as it likes, and only the opener's trail knows it: script-code.ts).
 * `params` is a PopupStack, and the trail answers before `tell` returns.
 */
export const POPUP_STACK = 'ChromeMcp.popupStack';

export interface PopupStack {
  initiator: Initiator;
  /** Called when the stack is the script's. */
  ours: () => void;
}

/** Asks a tab's stream (`tell` emits to its listeners, the trail among them) whether its script started the request. */
export function startedByScript(tell: (event: CdpEvent) => void, initiator: Initiator | undefined): boolean {
  let ours = false;
  if (initiator !== undefined) tell({ method: POPUP_STACK, params: { initiator, ours: () => (ours = true) } });
  return ours;
}

export interface WindowVerdict {
  requestId: string;
  tainted: boolean;
  kind: string;
}

export interface PopupOpening {
  /** The opener's frame that opened the window; undefined when the host cannot tell (then any frame of the tab). */
  frameId?: string;
  /** Whether a gesture opened it; undefined when the host cannot tell (then it is taken as none). */
  hasUserGesture?: boolean;
  /** Called when the script reached that frame's document and no person's gesture opened the window, as far as told. */
  scripted: () => void;
}

/** Asks a tab's stream (`tell` emits to its listeners, the trail among them) whether its script opened the window. */
export function openedByScript(tell: (event: CdpEvent) => void, opening: Omit<PopupOpening, 'scripted'>): boolean {
  let scripted = false;
  tell({ method: POPUP_OPENING, params: { ...opening, scripted: () => (scripted = true) } });
  return scripted;
}

/**
 * What the engine follows a popup by (popup-trail.ts), handed to the host as it starts and on each change: a host that
 * lets go of its tabs (a restarted worker, a session that ended) keeps it and hands it back when the window is followed
 * again, as the opener's trail then knows nothing of the window.
 */
export interface PopupJudgement {
  /** The opener's origins its script may reach (its frames' the person lets the agent read, when first followed). */
  origins: string[];
  /** The opener's script opened or drove it: a first document request with no stack and no gesture is the script's. */
  scripted: boolean;
  /** It shows a page the opener's script wrote (blob, data): everything it sends outside `origins` is held. */
  whole: boolean;
}
