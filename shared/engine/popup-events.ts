// What a host and a driven tab's trail say to each other of a window the tab opened (a popup is a target of its own,
// which the tab's sessions never see): pseudo-events the host emits into the opener's stream.
import type { CdpEvent } from './cdp.js';

/** What a host tells a tab's stream when it held the first request of a window the tab's script opened: `params` is the Send. */
export const POPUP_HELD = 'ChromeMcp.popupRequestHeld';

/**
 * What a host asks a tab's stream of the first document request of a window the tab opened, when that request names no
 * stack (a form with a target): `params` is a PopupOpening, and the trail answers before `tell` returns.
 */
export const POPUP_OPENING = 'ChromeMcp.popupOpening';

export interface PopupOpening {
  /** The opener's frame that opened the window. */
  frameId: string;
  hasUserGesture: boolean;
  /** Called when the script reached that frame's document and no person's gesture opened the window. */
  scripted: () => void;
}

/** Asks a tab's stream (`tell` emits to its listeners, the trail among them) whether its script opened the window. */
export function openedByScript(tell: (event: CdpEvent) => void, opening: Omit<PopupOpening, 'scripted'>): boolean {
  let scripted = false;
  tell({ method: POPUP_OPENING, params: { ...opening, scripted: () => (scripted = true) } });
  return scripted;
}
