// What ops know of a frame: its stable ordinal, its ids, and where its document was when last listed.
import { keptResults } from './kept-results.js';

export interface Frame {
  /** Stable per tab: 0 is the main frame; refs of frame N are prefixed `fN`. */
  ordinal: number;
  frameId: string;
  /** Child session holding this frame (out-of-process iframe); undefined for the tab's own session. */
  sessionId: string | undefined;
  parentFrameId: string | undefined;
  url: string;
  /** The document's security origin, which an about:blank or srcdoc frame takes from its maker. */
  origin?: string;
  /** Why the frame cannot be read, when its session did not answer the listing; the frame is then known only from its attachment. */
  unreadable?: string;
}

/** The tab's top frame as navigation events tell it, without a listing. */
export interface MainFrame {
  id: string;
  url: string;
  origin?: string;
}

/** A URL's origin; undefined for a string that is no URL. */
export const urlOrigin: (url: string) => string | undefined = keptResults((url) => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
});

/** The frame's document origin as Chrome told it, else its URL's (an about:blank frame's comes only from Chrome). */
export function frameOrigin(frame: Pick<Frame, 'origin' | 'url'>): string | undefined {
  return frame.origin ?? urlOrigin(frame.url);
}
