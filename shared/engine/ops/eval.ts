// eval: a JavaScript expression in the page's (or a frame's) main world, refused near a password field, its sends to other
// origins held and reported; a page exception is a result.
import { ToolError } from '../../protocol/errors.js';
import { CdpCommandError } from '../cdp.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { EvalArgs } from '../../tools/args.js';
import { EVAL_GROUP, evaluateInMainWorld, type ExceptionDetails, type RemoteObject } from '../main-world.js';
import { withDeadline } from '../deadline.js';
import { TURN_LINE } from '../egress-drain.js';
import { openEgressWindow, type EgressWindow } from '../egress-hold.js';
import type { ScriptTrail } from '../egress-trail.js';
import { egressData, egressNote, type EgressSends } from '../egress-report.js';
import type { Frame } from '../frames.js';
import type { PageContext } from '../page-context.js';
import { serializeForModel } from '../page/serialize.js';
import { documentChanged, documentGone, judgedDocument, type JudgedDocument } from '../judged-document.js';
import { siteOf } from '../../policy/site.js';
import { oneFrame } from '../targets.js';
import { openAhead, type Ahead } from './eval-ahead.js';
import { refuseOnPasswordField } from './password-guard.js';

export const EVAL_MAX_CHARS = 20_000;
const EVAL_TIMEOUT_MS = 30_000;
// Marking runs no page code; a page too busy to answer it would not run the script either.
const MARK_TIMEOUT_MS = 15_000;

export async function evaluate(page: PageContext, args: EvalArgs, _ctx: OperationContext): Promise<OperationResult> {
  // The guard checks every frame whichever one the script targets; a named frame is looked up alongside it. No frame
  // named: the tab's own session evaluates in the top document.
  // Scripts run only where the person trusts the site: the frame the script runs in, judged by its own origin. The top
  // document is known without a round trip, so its refusal comes before the guard reads anything.
  if (args.frame === undefined) await page.frames.requireMain('trusted');
  const ahead = args.frame === undefined ? await openAhead(page) : undefined;
  if (ahead) {
    const ran = page.trail.running(undefined);
    try {
      return await run(page, undefined, page.trail.tag(args.expression + TURN_LINE), ahead.hold, page.trail, ahead);
    } finally {
      ran();
      ahead.hold.close();
    }
  }
  // What the script sends to other origins is held from before it starts until what it queued has run (egress-hold.ts).
  // The hold is armed while the guard reads the frames, so the script waits for neither in turn.
  const opening = openEgressWindow(page);
  const judged = judgedDocument();
  const { trail } = page;
  let frame: Frame | undefined;
  let hold: EgressWindow;
  try {
    // The document is marked as it is judged (judged-document.ts), alongside the guard and the arming.
    const framing = args.frame === undefined ? Promise.resolve(undefined) : oneFrame(page, args.frame);
    const marking = framing.then((named) => whereMarked(page, named, judged));
    let href: string;
    // What the script leaves behind is followed from before it starts, for the tab's life (egress-trail.ts).
    [frame, hold, href] = await Promise.all([framing, opening, marking, refuseOnPasswordField(page), trail.follow()]);
    // Judged after the mark is in: the frame as its last navigation told it, and the marked document by its own URL.
    if (frame) page.frames.require(frame, 'trusted');
    else await page.frames.requireMain('trusted');
    if (siteOf(href).kind !== 'inherits')
      page.gate.require({ url: href }, 'trusted', frame && frame.ordinal !== 0 ? `Frame f${frame.ordinal}` : undefined);
  } catch (error) {
    // Refused before the script ran: the hold is lifted once its arming settles, and the refusal does not wait for that.
    void opening.then(
      (opened) => opened.close(),
      () => undefined,
    );
    throw error;
  }
  // The documents it can reach are marked before it runs: a form it submits later names no stack to follow.
  const ran = trail.running(frame);
  try {
    return await run(page, frame, trail.tag(`${judged.guard}\n${args.expression}`), hold, trail);
  } finally {
    ran();
    hold.close();
  }
}

/** Marks the document the script is to run in, and tells its URL. */
async function whereMarked(page: PageContext, frame: Frame | undefined, judged: JudgedDocument): Promise<string> {
  const marked = await evaluateInMainWorld(page, frame, judged.mark, MARK_TIMEOUT_MS);
  if (marked.exceptionDetails || typeof marked.result.value !== 'string') {
    throw new ToolError(
      'EVAL_FAILED',
      `eval: the document could not be checked before the script (${marked.exceptionDetails?.text ?? 'no URL'}); the script did not run.`,
    );
  }
  return marked.result.value;
}

async function run(
  page: PageContext,
  frame: Frame | undefined,
  source: string,
  hold: EgressWindow,
  trail: ScriptTrail,
  ahead?: Ahead,
): Promise<OperationResult> {
  const sessionId = frame?.sessionId;
  // EVAL_GROUP is released unless a steady eval's answer is known to have kept nothing (a primitive): a command saved
  // per call. The slow path always releases: the guard's and the trail's reads of a same-process frame keep its document.
  let kept = true;
  try {
    const evaluated = evaluateInMainWorld(page, frame, source, EVAL_TIMEOUT_MS, ahead?.uniqueContextId, trail).catch(
      (error: unknown) => {
        // The world named is gone ("uniqueContextId not found"): the document changed before the script could run.
        if (ahead && error instanceof CdpCommandError && /uniqueContextId|Cannot find context/i.test(error.cdpMessage))
          throw documentGone();
        throw error;
      },
    );
    // Runtime.evaluate's own timeout stops a busy loop; this one covers a promise that never settles.
    const answer = withDeadline(evaluated, EVAL_TIMEOUT_MS, () => {
      throw new ToolError('TIMEOUT', `eval: no result within ${EVAL_TIMEOUT_MS / 1000} s.`);
    });
    // The drain goes right behind the script. A script that finishes in one go has answered before the page takes the
    // drain's turn, which then costs no round trip of its own; one that awaited, or whose value has getters (page code
    // too) for the description to run, is drained again once that is over. Ahead, the script's own last line is that
    // turn (TURN_LINE), reached unless it threw or answered a promise, which are then drained as well.
    const drained = ahead ? undefined : answeredFirst(answer, hold.drain(sessionId));
    const outcome = await answer;
    const turned = drained ?? Promise.resolve(!outcome.exceptionDetails && outcome.kept !== true);
    kept = ahead === undefined || outcome.kept === true;
    // Nothing of the answer, not even an exception's text, is read before it is known that it may be.
    await ahead?.confirm();
    if (outcome.exceptionDetails) {
      const changed = documentChanged(outcome.exceptionDetails);
      if (changed) throw changed;
      await hold.drain(sessionId, await turned);
      return failed(exceptionText(outcome.exceptionDetails), sendsOf(hold, trail));
    }
    const { text, total } = await describe(page, sessionId, outcome.result);
    await hold.drain(sessionId, outcome.result.objectId === undefined && (await turned));
    const note = total > text.length ? `\n… truncated: ${text.length} of ${total} chars shown` : '';
    const sends = sendsOf(hold, trail);
    return {
      text: text + note + egressNote(sends),
      data: { ok: true, type: outcome.result.subtype ?? outcome.result.type, ...egressData(sends) },
    };
  } finally {
    if (kept)
      void page.cdp.send('Runtime.releaseObjectGroup', { objectGroup: EVAL_GROUP }, sessionId).catch(() => undefined);
  }
}

/** True when `answer` settled before `drain` was over: both come back on one session, in the order the page sent them. */
async function answeredFirst(answer: Promise<unknown>, drain: Promise<void>): Promise<boolean> {
  let answered = false;
  void answer.then(
    () => (answered = true),
    () => (answered = true),
  );
  await drain;
  return answered;
}

function failed(error: string, sends: EgressSends): OperationResult {
  return {
    text: JSON.stringify({ ok: false, error }) + egressNote(sends),
    data: { ok: false, error, ...egressData(sends) },
  };
}

function sendsOf(hold: EgressWindow, trail: ScriptTrail): EgressSends {
  const late = trail.takeLate();
  return { held: hold.held(), late: late.sends, lateCount: late.count };
}

function exceptionText(details: ExceptionDetails): string {
  const exception = details.exception;
  // An Error's description is its stack; the first line names it. A thrown non-Error has only a value.
  if (exception?.description) return exception.description.split('\n')[0]!;
  if (exception && 'value' in exception) return `Uncaught ${JSON.stringify(exception.value)}`;
  return details.text;
}

/** Primitives arrive by value; anything with an object id is described by the serializer in its own world. */
async function describe(
  page: PageContext,
  sessionId: string | undefined,
  result: RemoteObject,
): Promise<{ text: string; total: number }> {
  if (result.objectId) {
    const described = await page.cdp.send<{
      result: { value: { text: string; total: number } };
      exceptionDetails?: ExceptionDetails;
    }>(
      'Runtime.callFunctionOn',
      {
        objectId: result.objectId,
        functionDeclaration: serializeForModel.toString(),
        arguments: [{ objectId: result.objectId }, { value: EVAL_MAX_CHARS }],
        returnByValue: true,
      },
      sessionId,
    );
    if (described.exceptionDetails) return bounded(result.description ?? `[${result.type}]`);
    return described.result.value;
  }
  if (result.type === 'undefined') return bounded('undefined');
  if (result.unserializableValue !== undefined) return bounded(result.unserializableValue);
  return bounded(JSON.stringify(result.value));
}

function bounded(text: string): { text: string; total: number } {
  return { text: text.slice(0, EVAL_MAX_CHARS), total: text.length };
}
