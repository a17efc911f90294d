// The eval guard: no agent script runs in a tab while any of its frames shows a password field, wherever the script would
// run: same-origin frames read each other's DOM, and any frame can send the top page to a look-alike login.
import { ToolError } from '../../protocol/errors.js';
import { noAnswerWithin, withDeadline } from '../deadline.js';
import { PASSWORD_BINDING } from '../frame-worlds.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import { perFrame, urlWithoutQuery, type FrameOutcome } from './per-frame.js';

// The main frame gets as long as a per-frame read gives it (per-frame.ts): a heavy page is slow rather than refused.
const MAIN_CHECK_TIMEOUT_MS = 15_000;

/**
 * Throws PASSWORD_FIELD when a frame of the tab shows a password field, or when a child frame could not be checked: a
 * frame that does not answer may be the one holding the form, so silence refuses too. The main frame's own failure
 * (the tab closed, the page hung) refuses with its own cause. One in-page call per frame, in parallel.
 */
export async function refuseOnPasswordField(page: PageContext): Promise<void> {
  // The top frame's watch also tells the engine, from now on, whether its document is quiet (quiet-document.ts).
  const check = (frame: Frame) => page.frames.call(frame, 'watchedPasswordField', [PASSWORD_BINDING]);
  // The main frame, known from navigation events, is checked while the frames are listed: a page of one frame then
  // pays one round trip for the guard, not two. A main frame that changed meanwhile is in the listing and checked there.
  const main = await page.frames.mainFrameUrl();
  const top: Frame = {
    ordinal: 0,
    frameId: main.id,
    sessionId: undefined,
    parentFrameId: undefined,
    url: main.url,
    ...(main.origin === undefined ? {} : { origin: main.origin }),
  };
  const [value, frames] = await Promise.all([
    withDeadline(check(top), MAIN_CHECK_TIMEOUT_MS, () => {
      throw new ToolError(
        'TIMEOUT',
        `eval: the page ${noAnswerWithin(MAIN_CHECK_TIMEOUT_MS)} when checked for password fields.`,
      );
    }),
    page.frames.list(),
  ]);
  // A frame whose site may not be read gets no script of ours; it is cross-origin to every frame a script may run in,
  // so a script there could not reach its fields either.
  const children = frames.filter((frame) => frame.frameId !== main.id && page.frames.allows(frame, 'read'));
  refuseOn([{ frame: top, value }, ...(await perFrame(children, check))]);
}

function refuseOn(outcomes: FrameOutcome<string | null>[]): void {
  const where = (frame: Frame) => `f${frame.ordinal} ${urlWithoutQuery(frame.url)}`;
  for (const { frame, value } of outcomes) {
    if (value)
      throw new ToolError('PASSWORD_FIELD', `eval refused: frame ${where(frame)} shows a password field (${value}).`);
  }
  for (const { frame, error } of outcomes) {
    if (error !== undefined) {
      throw new ToolError(
        'PASSWORD_FIELD',
        `eval refused: frame ${where(frame)} could not be checked for a password field (${error}); scripts run only when every frame is known to show none.`,
      );
    }
  }
}
