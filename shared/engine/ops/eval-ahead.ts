// A steady eval in one round trip. Where the tab is one document already followed and quiet of password fields, what the
// guard and the mark would ask the page is known from its events (quiet-document.ts); the hold's rules go out ahead of
// the script on the same session, and the script names the document's main world by its unique id. Whatever the
// answer finds changed withholds the result.
import { ToolError } from '../../protocol/errors.js';
import { siteOf } from '../../policy/site.js';
import { openEgressWindowAhead, type EgressWindow } from '../egress-hold.js';
import type { PageContext } from '../page-context.js';
import type { QuietMoment } from '../quiet-document.js';

export interface Ahead {
  hold: EgressWindow;
  /** The top document's main world: Runtime.evaluate fails rather than run in another (a navigation meanwhile). */
  uniqueContextId: string;
  /** Called on the script's answer before anything of it is read: throws when the result must be withheld. */
  confirm(): Promise<void>;
}

/**
 * Opens the way for a script in the top document without a round trip, or undefined where one is needed (eval.ts then
 * asks the page as before): a frame or worker besides the top document, a document not yet told quiet (its first eval,
 * a new navigation, an input that may be a password field), a hold that must be waited for.
 */
export async function openAhead(page: PageContext): Promise<Ahead | undefined> {
  const moment = page.quiet.now();
  if (!moment || page.frames.workerSessions().length > 0) return undefined;
  const [frames, main] = await Promise.all([page.frames.list(), page.frames.mainFrameUrl()]);
  if (frames.length !== 1 || siteOf(main.url).kind === 'inherits') return undefined;
  // The slow path judges the URL the marked document reads; here it is the one events told for the quiet document.
  page.gate.require({ url: main.url }, 'trusted');
  await page.trail.follow();
  const opened = await openEgressWindowAhead(page);
  if (!opened) return undefined;
  if (!page.quiet.still(moment)) {
    opened.window.close();
    return undefined;
  }
  return {
    hold: opened.window,
    uniqueContextId: moment.uniqueContextId,
    confirm: () => confirm(page, moment, opened.armed),
  };
}

/**
 * The hold took, and the document stayed quiet until the answer: the watch tells a field that came before the page's
 * next task runs, and the page sends that ahead of the script's answer. A field the script itself made refuses too.
 */
async function confirm(page: PageContext, moment: QuietMoment, armed: Promise<void>): Promise<void> {
  try {
    await armed;
  } catch (error) {
    throw new ToolError(
      'EVAL_FAILED',
      `eval: the script's requests to other origins could not be held (${error instanceof Error ? error.message : String(error)}); its result is withheld.`,
    );
  }
  // A navigation the script started may have committed before its answer: nothing of the new document was read.
  if (!page.quiet.sameDocument(moment)) {
    throw new ToolError('EVAL_FAILED', 'eval: the tab navigated while the script ran; its result is withheld.', {
      next: 'Call `snapshot` to see where the tab is now.',
    });
  }
  if (!page.quiet.still(moment)) {
    throw new ToolError(
      'PASSWORD_FIELD',
      'eval refused: the page showed an input that may be a password field as the script ran; its result is withheld.',
      { next: 'Call `snapshot` to see the page; scripts run only where no frame shows a password field.' },
    );
  }
}
