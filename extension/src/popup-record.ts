// What the popup holds (popup-holds.ts) keep of each window a driven tab opened that the engine followed, across a
// restart of the extension's worker; free of chrome.* so the tests read the same names.
import { z } from 'zod';

/** The chrome.storage.session key: session storage outlives a stopped worker and clears with the browser, as tab ids do. */
export const POPUP_RECORD_KEY = 'followedPopups';

/*
 * The most windows kept; past it the oldest is forgotten (followed no more after a re-attach). A driven tab's windows
 * close with their work (the engine closes one it held blank); 64 open at once is far past any agent's task, and keeps
 * the record, written on each change, small.
 */
export const POPUPS_KEPT = 64;

/** Per window (its tab id): its opener's tab id, and what the engine judged it by (PopupJudgement). */
export const popupRecord = z.array(
  z.tuple([
    z.number().int(),
    z.object({
      openerId: z.number().int(),
      origins: z.array(z.string()),
      scripted: z.boolean(),
      whole: z.boolean(),
    }),
  ]),
);

export type KeptPopup = z.infer<typeof popupRecord>[number][1];
